//! Words of messages: user input quoted (a token as written, but never a megabyte of it),
//! counts with their nouns.

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

/// `n` and the noun, singular for one: `1 game`, `2 games`, `0 errors` (nouns whose plural
/// adds an `s`).
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular() {
        assert_eq!(counted(1u32, "game"), "1 game");
        assert_eq!(counted(0u32, "error"), "0 errors");
        assert_eq!(counted(2u32, "win"), "2 wins");
    }

    #[test]
    fn short_tokens_are_whole_and_long_ones_cut() {
        assert_eq!(excerpt("J10"), "J10");
        let long = "é".repeat(1_000_000);
        let e = excerpt(&long);
        assert!(e.chars().count() < 60, "{e}");
        assert!(e.ends_with("(2000000 bytes)"), "{e}");
    }
}
