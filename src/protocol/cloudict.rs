//! The text protocol of the Cloudict engine and the ConnectMore GUI (Connect6): `name`,
//! `new black|white`, `move XXXX`, `black XXXX`, `white XXXX`, `next`, `depth d`, `vcf`,
//! `unvcf`, `print`, `quit`. A stone is two letters A–S: the column (A = left), then the row
//! (A = bottom). Replies: `name cpbim`, `move XXXX` (`move XX` for black's first stone). The
//! protocol has no error reply: a bad command is answered with nothing on standard output and
//! a note on standard error.

use super::{Handled, Protocol, Table};
use crate::engine::{Limits, Tuning};
use crate::limits::MAX_ENGINE_DEPTH;
use crate::text::quoted;
use crate::{Color, Game, Point};

/// The protocol's letters of `stones`: column then row, `A` = left / bottom.
pub fn letters(stones: &[Point]) -> String {
    let letter = |i: usize| (b'A' + i as u8) as char;
    stones
        .iter()
        .flat_map(|p| [letter(p.col()), letter(p.row())])
        .collect()
}

/// `p` in the protocol's letters, for messages about it (the game does not matter).
pub fn letter_name(_: &Game, p: Point) -> String {
    letters(&[p])
}

/// The points of a text of letter pairs (`JJ`, `KJKK`): `None` unless it is one or more
/// pairs of capital letters. Whether they are on a game's board is the caller's question.
pub fn points(text: &str) -> Option<Vec<Point>> {
    let b = text.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) || !b.iter().all(u8::is_ascii_uppercase) {
        return None;
    }
    b.chunks(2)
        .map(|c| Point::new((c[0] - b'A') as usize, (c[1] - b'A') as usize))
        .collect()
}

/// The stones of a text of letter pairs ([`points`]), checked against `game`: on its board,
/// at most one move's worth (p stones).
pub fn stones_of(game: &Game, text: &str) -> Result<Vec<Point>, String> {
    let stones = points(text.trim()).ok_or_else(|| format!("bad stones {}", quoted(text)))?;
    if stones.len() > game.p() {
        return Err(format!("{}: more than {} stones", quoted(text), game.p()));
    }
    match stones.iter().find(|p| !game.contains(**p)) {
        Some(p) => Err(format!("bad stone {p}: off the board")),
        None => Ok(stones),
    }
}

/// A Cloudict-protocol session.
pub struct Cloudict {
    table: Table,
    /// The engine's colour.
    me: Option<Color>,
}

impl Cloudict {
    /// A session of `game` (Connect6 for the GUI; any game with one letter per coordinate),
    /// `limits` per move until `depth` or `time` changes them.
    pub fn new(game: Game, params: impl Into<Tuning>, limits: Limits) -> Cloudict {
        Cloudict {
            table: Table::new(game, params, limits, letter_name),
            me: None,
        }
    }

    /// The stones of `text`, on the board, at most one move's worth.
    fn stones(&self, text: &str) -> Result<Vec<Point>, String> {
        stones_of(self.table.game(), text)
    }

    fn think(&mut self) -> Handled {
        match self.table.think() {
            Ok(stones) => Handled::line(format!("move {}", letters(&stones))),
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
    fn table(&mut self) -> &mut Table {
        &mut self.table
    }

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
                Ok(d) if (1..=MAX_ENGINE_DEPTH).contains(&d) => {
                    self.table.limits = Limits::depth(d);
                    Handled::line(format!("Set the search depth to {d}."))
                }
                _ => Handled::note(format!(
                    "depth {}: give 1 to {MAX_ENGINE_DEPTH}",
                    quoted(rest)
                )),
            },
            "time" => match rest.trim().parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e6 => {
                    self.table.limits = Limits::per_move(std::time::Duration::from_secs_f64(s));
                    Handled::none()
                }
                _ => Handled::note(format!("time {}: give seconds", quoted(rest))),
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
            _ => Handled::note(format!("unknown command {}", quoted(cmd))),
        }
    }
}
