//! Stone lists: `J10 K11 I11 H11 I10`, one token per stone in play order (black's first move,
//! then the moves in turn) — the Gomoku and Renju move lists `h8 i9 j10` too. Commas separate
//! as well; `#` starts a comment that runs to the end of the line.

use super::ParseError;
use crate::game::Game;
use crate::geom::Point;
use crate::record::Record;

/// Read a stone list of `game`.
pub fn parse_stone_list(text: &str, game: Game) -> Result<Record, ParseError> {
    let mut stones = Vec::new();
    for line in text.lines() {
        let line = super::without_comment(line);
        for token in line.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            let p: Point = game.parse_point(token)?;
            stones.push((p, token.to_string()));
        }
    }
    Ok(Record::from_tokens(game, &stones)?)
}

/// The stones in play order, moves separated by two spaces for reading: `J10  K11 I11  H11`.
pub fn write(record: &Record) -> String {
    stone_list(record.game(), record.stones())
}

/// `stones` of `game` in play order, moves of two stones separated by two spaces:
/// `J10  K11 I11  H11 I10`; single-stone moves by one space.
pub fn stone_list(game: &Game, stones: &[Point]) -> String {
    let mut s = String::new();
    for (i, p) in stones.iter().enumerate() {
        if i > 0 {
            s.push_str(if game.p() > 1 && game.move_of_stone(i).start == i {
                "  "
            } else {
                " "
            });
        }
        s.push_str(&p.to_string());
    }
    s
}

impl crate::board::Position {
    /// The stone list in play order, moves separated by two spaces for reading:
    /// `J10  K11 I11  H11 I10`.
    pub fn to_stone_list(&self) -> String {
        stone_list(self.game(), self.stones())
    }
}
