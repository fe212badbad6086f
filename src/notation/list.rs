//! Stone lists: `J10 K11 I11 H11 I10`, one token per stone in play order (black's first
//! stone, then two per move). Commas separate too; `#` starts a comment that runs to the end
//! of the line.

use super::ParseError;
use crate::geom::Point;
use crate::record::Record;

/// Read a stone list.
pub fn parse_stone_list(text: &str) -> Result<Record, ParseError> {
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
    Ok(Record::from_tokens(&stones)?)
}

/// The stones in play order, moves separated by two spaces for reading: `J10  K11 I11  H11`.
pub fn write(record: &Record) -> String {
    stone_list(record.stones())
}

/// `stones` in play order, moves separated by two spaces: `J10  K11 I11  H11 I10`.
pub fn stone_list(stones: &[Point]) -> String {
    let rules = crate::geom::Rules::CONNECT6;
    let mut s = String::new();
    for (i, p) in stones.iter().enumerate() {
        if i > 0 {
            s.push_str(if rules.move_of_stone(i).start == i {
                "  "
            } else {
                " "
            });
        }
        s.push_str(&p.to_string());
    }
    s
}
