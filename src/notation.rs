//! Reading and writing positions: stone lists, diagrams and the two SGF styles of SPEC §1.
//!
//! * **Stone list**: `J10 K11 I11 H11 I10`, one token per stone in play order; commas separate
//!   too; `#` starts a comment that runs to the end of the line.
//! * **Diagram**: 19 lines of 19 cells, the top line being row 19; `.` empty, `X`/`B`/`x`
//!   black, `O`/`W`/`o` white; cells may be separated by spaces; a header or footer line of the
//!   column letters `A`–`S` and row numbers before and after the cells are optional (if present
//!   they must be right).
//! * **SGF** as Little Golem writes Connect6 games, `(;FF[4]…;B[j10];W[j9l11];B[k9l8])`: one
//!   node per move holding one or two stones, each a letter `a`–`s` and a row number; or one
//!   stone per node, `;B[JJ];W[LH];W[HH]`, two letters `A`–`S` (column, then row counted from
//!   the top as in every SGF, so `JJ` is `J10` and `LH` is `L12`). Other properties are
//!   ignored; variations are skipped (the main line is read).
//!
//! [`parse_position`] recognises the format: text starting with `(` is SGF, text containing
//! `.` is a diagram, anything else a stone list.

use crate::board::{Board, Position, PositionError};
use crate::geom::{Color, Point, PointError, Rules, SIZE};

/// Why a text is not a position. Every variant names the offending token and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A token that is not a point, or a point off the board.
    #[error(transparent)]
    Point(#[from] PointError),
    /// The stones do not make a legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A character that has no meaning where it stands.
    #[error("unknown character {ch:?} at line {line}, column {column}: {expected}")]
    UnknownChar {
        /// The character.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A diagram of the wrong shape.
    #[error("diagram: {0}")]
    Diagram(String),
    /// Malformed SGF.
    #[error("malformed SGF at byte {offset}: {reason}")]
    Sgf {
        /// Byte offset in the input.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// SGF that ends too early.
    #[error("truncated SGF: {0}")]
    SgfTruncated(String),
    /// A diagram where a line (stones in play order) is needed.
    #[error("a diagram does not say in which order the stones were played: give the line as a stone list or SGF")]
    NotALine,
}

/// Read a position in any of the supported formats.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let t = text.trim_start();
    if t.starts_with('(') {
        parse_sgf(text)
    } else if strip_comments(text).contains('.') {
        parse_diagram(text)
    } else {
        parse_stone_list(text)
    }
}

/// Read a line (stones in play order): a stone list or SGF, not a diagram.
pub fn parse_line(text: &str) -> Result<Position, ParseError> {
    let t = text.trim_start();
    if t.starts_with('(') {
        parse_sgf(text)
    } else if strip_comments(text).contains('.') {
        Err(ParseError::NotALine)
    } else {
        parse_stone_list(text)
    }
}

fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Read a stone list: `J10 K11 I11`, commas allowed, `#` comments.
pub fn parse_stone_list(text: &str) -> Result<Position, ParseError> {
    let mut stones = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for token in line.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            let p: Point = token.parse()?;
            stones.push((p, token.to_string()));
        }
    }
    Ok(Position::from_tokens(&stones)?)
}

fn is_column_header(cells: &str) -> bool {
    let letters: String = cells.chars().filter(|c| !c.is_whitespace()).collect();
    letters.eq_ignore_ascii_case("ABCDEFGHIJKLMNOPQRS")
}

/// Read a diagram (see the module documentation).
pub fn parse_diagram(text: &str) -> Result<Position, ParseError> {
    let mut board = Board::new();
    let mut row_lines = 0usize;
    for (ln, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("");
        if body.trim().is_empty() || is_column_header(body) {
            continue;
        }
        if row_lines == SIZE {
            return Err(ParseError::Diagram(format!(
                "line {}: more than {SIZE} board lines",
                ln + 1
            )));
        }
        let row = SIZE - 1 - row_lines;
        row_lines += 1;
        // Split off optional row labels on either side.
        let trimmed = body.trim();
        let lead: String = trimmed.chars().take_while(|c| c.is_ascii_digit()).collect();
        let trail: String = {
            let rev: String = trimmed
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            rev.chars().rev().collect()
        };
        for label in [&lead, &trail] {
            if !label.is_empty() && label.parse::<usize>().ok() != Some(row + 1) {
                return Err(ParseError::Diagram(format!(
                    "line {}: row label {label:?} where row {} was expected (the top line is row 19)",
                    ln + 1,
                    row + 1
                )));
            }
        }
        let start = raw.find(trimmed).unwrap_or(0) + lead.len();
        let end = raw.find(trimmed).unwrap_or(0) + trimmed.len() - trail.len();
        let mut col = 0usize;
        for (ci, ch) in raw[start..end.max(start)].char_indices() {
            let column = raw[..start + ci].chars().count() + 1;
            let stone = match ch {
                c if c.is_whitespace() => continue,
                '.' => None,
                'X' | 'B' | 'x' => Some(Color::Black),
                'O' | 'W' | 'o' => Some(Color::White),
                _ => {
                    return Err(ParseError::UnknownChar {
                        ch,
                        line: ln + 1,
                        column,
                        expected:
                            "a diagram cell is '.', 'X'/'B'/'x' (black) or 'O'/'W'/'o' (white)",
                    })
                }
            };
            if col == SIZE {
                return Err(ParseError::Diagram(format!(
                    "line {}: more than {SIZE} cells in row {}",
                    ln + 1,
                    row + 1
                )));
            }
            board.set(Point::new(col, row).expect("in range"), stone);
            col += 1;
        }
        if col != SIZE {
            return Err(ParseError::Diagram(format!(
                "line {}: {col} cells in row {}, expected {SIZE}",
                ln + 1,
                row + 1
            )));
        }
    }
    if row_lines != SIZE {
        return Err(ParseError::Diagram(format!(
            "{row_lines} board lines, expected {SIZE}"
        )));
    }
    Ok(Position::from_board(board)?)
}

/// One property of an SGF node: identifier and values, with the byte offset of each value.
struct Property {
    ident: String,
    values: Vec<(usize, String)>,
}

/// A tiny SGF reader: the main line of the game tree as a list of nodes.
struct SgfReader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> SgfReader<'a> {
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn err(&self, reason: impl Into<String>) -> ParseError {
        ParseError::Sgf {
            offset: self.pos,
            reason: reason.into(),
        }
    }

    /// `( node* tree* )`; returns the nodes of the main line.
    fn tree(&mut self, nodes: &mut Vec<Vec<Property>>, main: bool) -> Result<(), ParseError> {
        match self.peek() {
            Some('(') => self.pos += 1,
            Some(c) => return Err(self.err(format!("expected '(' but found {c:?}"))),
            None => return Err(ParseError::SgfTruncated("expected '('".into())),
        }
        let mut first_child = true;
        loop {
            match self.peek() {
                Some(';') => {
                    self.pos += 1;
                    let node = self.node()?;
                    if main {
                        nodes.push(node);
                    }
                }
                Some('(') => {
                    self.tree(nodes, main && first_child)?;
                    first_child = false;
                }
                Some(')') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(c) => return Err(self.err(format!("unexpected character {c:?}"))),
                None => return Err(ParseError::SgfTruncated("missing ')'".into())),
            }
        }
    }

    fn node(&mut self) -> Result<Vec<Property>, ParseError> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let start = self.pos;
            while self.text[self.pos..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            {
                self.pos += 1;
            }
            let ident = self.text[start..self.pos].to_string();
            let mut values = Vec::new();
            while self.peek() == Some('[') {
                self.pos += 1;
                let vstart = self.pos;
                let mut value = String::new();
                loop {
                    let Some(ch) = self.text[self.pos..].chars().next() else {
                        return Err(ParseError::SgfTruncated(format!(
                            "value of {ident} at byte {vstart} has no closing ']'"
                        )));
                    };
                    self.pos += ch.len_utf8();
                    match ch {
                        ']' => break,
                        '\\' => {
                            if let Some(n) = self.text[self.pos..].chars().next() {
                                self.pos += n.len_utf8();
                                value.push(n);
                            }
                        }
                        _ => value.push(ch),
                    }
                }
                values.push((vstart, value));
            }
            if values.is_empty() {
                return Err(self.err(format!("property {ident} has no value")));
            }
            props.push(Property { ident, values });
        }
        Ok(props)
    }
}

/// Stones of one SGF move value: `j10`, `j9l11` (letter + row number, Little Golem) or `JJ`
/// (two letters, column then row from the top).
fn sgf_stones(value: &str, offset: usize) -> Result<Vec<(Point, String)>, ParseError> {
    let v = value.trim();
    let bad = |reason: String| ParseError::Sgf { offset, reason };
    let is_col = |c: char| c.is_ascii_alphabetic();
    if v.len() == 2 && v.chars().all(is_col) {
        let mut it = v.chars().map(|c| c.to_ascii_lowercase() as usize);
        let (c, r) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        let (col, from_top) = (c.wrapping_sub('a' as usize), r.wrapping_sub('a' as usize));
        if col >= SIZE || from_top >= SIZE {
            return Err(ParseError::Point(PointError::OffBoard {
                token: v.to_string(),
                reason: "SGF letters run from A to S",
            }));
        }
        let p = Point::new(col, SIZE - 1 - from_top).expect("checked range");
        return Ok(vec![(p, v.to_string())]);
    }
    // Letter + digits, once or twice.
    let mut out = Vec::new();
    let mut rest = v;
    while !rest.is_empty() {
        let digits = rest[1..].chars().take_while(|c| c.is_ascii_digit()).count();
        if !rest.starts_with(is_col) || digits == 0 {
            return Err(bad(format!(
                "move value {v:?} is neither stones like j10 or j9l11 nor two letters like JJ"
            )));
        }
        let token = &rest[..1 + digits];
        out.push((token.parse::<Point>()?, token.to_string()));
        rest = &rest[1 + digits..];
    }
    if out.is_empty() || out.len() > 2 {
        return Err(bad(format!("move value {v:?} must hold one or two stones")));
    }
    Ok(out)
}

/// Read an SGF game record (either style) and play its main line.
pub fn parse_sgf(text: &str) -> Result<Position, ParseError> {
    let mut reader = SgfReader { text, pos: 0 };
    let mut nodes = Vec::new();
    reader.tree(&mut nodes, true)?;
    if let Some(c) = reader.peek() {
        return Err(reader.err(format!("unexpected {c:?} after the game tree")));
    }
    let rules = Rules::CONNECT6;
    let mut stones: Vec<(Point, String)> = Vec::new();
    for node in nodes {
        for prop in node {
            let color = match prop.ident.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                "AB" | "AW" | "AE" => {
                    return Err(ParseError::Sgf {
                        offset: prop.values[0].0,
                        reason: format!(
                            "setup property {} is not supported: write the game as moves",
                            prop.ident
                        ),
                    })
                }
                _ => continue,
            };
            for (offset, value) in &prop.values {
                for (p, token) in sgf_stones(value, *offset)? {
                    let expected = rules.color_of_stone(stones.len());
                    if expected != color {
                        return Err(ParseError::Sgf {
                            offset: *offset,
                            reason: format!(
                                "{}[{value}]: stone {} of the game is {expected}'s",
                                prop.ident,
                                stones.len() + 1
                            ),
                        });
                    }
                    stones.push((p, token));
                }
            }
        }
    }
    Ok(Position::from_tokens(&stones)?)
}

/// Write a position as Little Golem SGF: `(;FF[4]GM[Connect6];B[j10];W[j9l11])`.
pub fn to_sgf(pos: &Position) -> String {
    let mut s = String::from("(;FF[4]GM[Connect6]");
    let stones = pos.stones();
    let mut i = 0;
    while i < stones.len() {
        let n = if i == 0 { 1 } else { 2.min(stones.len() - i) };
        let color = Rules::CONNECT6.color_of_stone(i);
        s.push(';');
        s.push(if color == Color::Black { 'B' } else { 'W' });
        s.push('[');
        for p in &stones[i..i + n] {
            s.push_str(&p.to_string().to_ascii_lowercase());
        }
        s.push(']');
        i += n;
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_formats_agree() {
        let list = parse_position("J10 K11 I11 H11 I10").unwrap();
        let lg = parse_position("(;FF[4]EV[x];B[j10];W[k11i11];B[h11i10])").unwrap();
        let diagram = parse_position(&list.to_diagram()).unwrap();
        assert_eq!(list.board(), lg.board());
        assert_eq!(list.board(), diagram.board());
        assert_eq!(list.stones(), lg.stones());
        assert_eq!(parse_position(&to_sgf(&list)).unwrap(), list);
    }

    #[test]
    fn letter_pairs_count_rows_from_the_top() {
        let p = parse_position("(;B[JJ];W[LH];W[HH])").unwrap();
        assert_eq!(p.to_stone_list(), "J10  L12 H12");
    }

    #[test]
    fn comments_and_commas() {
        let p = parse_position("j10, k11 # white\n i11").unwrap();
        assert_eq!(p.to_stone_list(), "J10  K11 I11");
    }
}
