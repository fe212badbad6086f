//! The text protocol of the Cloudict engine and the ConnectMore GUI (Connect6): `name`,
//! `new black|white`, `move XXXX`, `black XXXX`, `white XXXX`, `next`, `depth d`, `vcf`,
//! `unvcf`, `print`, `quit`. A stone is two letters A–S: the column (A = left), then the row
//! (A = bottom). Replies: `name cpbim`, `move XXXX` (`move XX` for black's first stone). The
//! protocol has no error reply: a bad command is answered with nothing on standard output and
//! a note on standard error.

use super::{Handled, Protocol, Table};
use crate::engine::{Limits, Params};
use crate::{Color, Game, Point};

/// A Cloudict-protocol session.
pub struct Cloudict {
    table: Table,
    /// The engine's colour.
    me: Option<Color>,
}

impl Cloudict {
    /// A session of `game` (Connect6 for the GUI; any game with one letter per coordinate),
    /// `limits` per move until `depth` or `time` changes them.
    pub fn new(game: Game, params: Params, limits: Limits) -> Cloudict {
        Cloudict {
            table: Table::new(game, params, limits),
            me: None,
        }
    }

    fn stones(&self, text: &str) -> Result<Vec<Point>, String> {
        let b = text.trim().as_bytes();
        if b.is_empty() || !b.len().is_multiple_of(2) || b.len() > 2 * self.table.game().p() {
            return Err(format!("bad stones {text:?}"));
        }
        let g = self.table.game();
        b.chunks(2)
            .map(|c| {
                let (col, row) = (c[0].wrapping_sub(b'A'), c[1].wrapping_sub(b'A'));
                Point::new(col as usize, row as usize)
                    .filter(|&p| (col as usize) < g.m() && (row as usize) < g.n() && g.contains(p))
                    .ok_or_else(|| format!("bad stone {:?}", String::from_utf8_lossy(c)))
            })
            .collect()
    }

    fn letters(p: Point) -> String {
        format!(
            "{}{}",
            (b'A' + p.col() as u8) as char,
            (b'A' + p.row() as u8) as char
        )
    }

    fn think(&mut self) -> Handled {
        match self.table.think() {
            Ok(stones) => Handled::line(format!(
                "move {}",
                stones.iter().map(|&p| Self::letters(p)).collect::<String>()
            )),
            Err(e) => Handled::note(e),
        }
    }

    /// `move XXXX`: the opponent's stones, then the engine's answer.
    fn opponent_moves(&mut self, text: &str) -> Handled {
        let stones = match self.stones(text) {
            Ok(s) => s,
            Err(e) => return Handled::note(e),
        };
        let side = self.me.map_or(self.table.to_move(), Color::opponent);
        self.table.set_to_move(side);
        if let Err(e) = self.table.play(side, &stones) {
            return Handled::note(e);
        }
        if self.table.winner().is_some() {
            return Handled::note("the opponent has won");
        }
        self.me = Some(side.opponent());
        self.think()
    }

    /// `black XXXX` / `white XXXX`: set-up stones; the engine takes that colour.
    fn place(&mut self, side: Color, text: &str) -> Handled {
        let stones = match self.stones(text) {
            Ok(s) => s,
            Err(e) => return Handled::note(e),
        };
        for p in stones {
            if let Err(e) = self.table.place(side, p) {
                return Handled::note(e);
            }
        }
        self.me = Some(side);
        self.table.set_to_move(side.opponent());
        Handled::none()
    }
}

impl Protocol for Cloudict {
    fn handle(&mut self, line: &str) -> Handled {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "" => Handled::none(),
            "name" => Handled::line("name cpbim"),
            "new" => {
                let game = *self.table.game();
                self.table.reset(game);
                if rest.trim() == "black" {
                    self.me = Some(Color::Black);
                    self.think()
                } else {
                    self.me = Some(Color::White);
                    Handled::none()
                }
            }
            "move" => self.opponent_moves(rest),
            "black" => self.place(Color::Black, rest),
            "white" => self.place(Color::White, rest),
            "next" => {
                let me = self.me.map_or(self.table.to_move(), Color::opponent);
                self.me = Some(me);
                self.table.set_to_move(me);
                self.think()
            }
            "depth" => match rest.trim().parse::<u32>() {
                Ok(d) if (1..=9).contains(&d) => {
                    self.table.limits = Limits {
                        time: None,
                        depth: Some(d),
                    };
                    Handled::line(format!("Set the search depth to {d}."))
                }
                _ => Handled::note(format!("depth {rest:?}: give 1 to 9")),
            },
            "time" => match rest.trim().parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e6 => {
                    self.table.limits = Limits {
                        time: Some(std::time::Duration::from_secs_f64(s)),
                        depth: None,
                    };
                    Handled::none()
                }
                _ => Handled::note(format!("time {rest:?}: give seconds")),
            },
            "vcf" | "unvcf" => Handled::none(),
            "print" => Handled {
                replies: crate::board::diagram(self.table.board(), None)
                    .lines()
                    .map(str::to_string)
                    .collect(),
                ..Handled::none()
            },
            "quit" | "exit" => Handled::quit(Vec::new()),
            _ => Handled::note(format!("unknown command {cmd:?}")),
        }
    }
}
