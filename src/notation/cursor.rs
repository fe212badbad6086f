//! A cursor over the text of the bracketed formats (SGF, contest records): whitespace is
//! skipped before every token, and errors carry the byte offset where reading stopped.

use super::ParseError;

/// Reading position in a text.
pub(crate) struct Cursor<'a> {
    /// The whole text.
    pub text: &'a str,
    /// Byte offset of the next character (always at a character boundary).
    pub pos: usize,
    /// The error of this format for an offset and a reason.
    error: fn(usize, String) -> ParseError,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text` whose errors `error` makes.
    pub fn new(text: &'a str, error: fn(usize, String) -> ParseError) -> Self {
        Cursor {
            text,
            pos: 0,
            error,
        }
    }

    /// What is left.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// The next character after whitespace, not consumed.
    pub fn peek(&mut self) -> Option<char> {
        let rest = self.rest();
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
        trimmed.chars().next()
    }

    /// The next character after whitespace, consumed.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// This format's error at the current offset.
    pub fn err(&self, reason: impl Into<String>) -> ParseError {
        (self.error)(self.pos, reason.into())
    }

    /// Consume `want` (after whitespace), or fail saying `what` was expected.
    pub fn expect(&mut self, want: char, what: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(c) if c == want => {
                self.pos += c.len_utf8();
                Ok(())
            }
            Some(c) => Err(self.err(format!("expected {what} but found {c:?}"))),
            None => Err(self.err(format!("the text ends where {what} was expected"))),
        }
    }

    /// The run of characters of `class` after whitespace (possibly empty), consumed.
    pub fn run(&mut self, class: fn(&char) -> bool) -> &'a str {
        self.peek();
        let rest = self.rest();
        let len = rest.find(|c: char| !class(&c)).unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }
}
