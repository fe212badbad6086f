//! Quoting user input in messages: a token is shown as written, but never a megabyte of it.

/// At most this many characters of a token are shown in a message.
pub const EXCERPT_CHARS: usize = 24;

/// `s` as it should appear in a message: whole when short, else its first characters, an
/// ellipsis and its length (`"J10J10J10J10J10J10J1… (3000 bytes)"`).
pub fn excerpt(s: &str) -> String {
    if s.chars().count() <= EXCERPT_CHARS {
        return s.to_string();
    }
    let head: String = s.chars().take(EXCERPT_CHARS - 4).collect();
    format!("{head}… ({} bytes)", s.len())
}

/// `s` shortened ([`excerpt`]) and quoted, for an error message that repeats input.
pub fn quoted(s: &str) -> String {
    format!("{:?}", excerpt(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tokens_are_whole_and_long_ones_cut() {
        assert_eq!(excerpt("J10"), "J10");
        let long = "é".repeat(1_000_000);
        let e = excerpt(&long);
        assert!(e.chars().count() < 60, "{e}");
        assert!(e.ends_with("(2000000 bytes)"), "{e}");
    }
}
