//! The protocol of the contest referee platform of the Chinese computer-games championships
//! (Connect6): `name?`, `new black|white`, `move XXYY`, `error`, `end`, `quit`. A stone is two
//! letters as in [`cloudict`](super::cloudict) (`A` + 0…18: the column, `A` = left, then the
//! row, `A` = bottom); `@@` stands for the absent second stone of a one-stone move (`JJ@@`).
//! Replies: `name cpbim`, `move XXYY`, `Quit!`. The platform has no error reply: a bad or
//! out-of-turn command is answered with nothing on standard output and a note on standard
//! error.

use super::cloudict::{letter_name, letters, stones_of};
use super::{Handled, Protocol, Table};
use crate::engine::{Limits, Tuning};
use crate::text::quoted;
use crate::{Color, Game, Point};

/// The text of an absent stone.
const ABSENT: &str = "@@";

/// The protocol's text of a move: the stones' letters, `@@` in place of a missing second.
pub fn move_text(stones: &[Point]) -> String {
    let mut s = letters(stones);
    if stones.len() < 2 {
        s.push_str(ABSENT);
    }
    s
}

/// A session with the referee platform.
pub struct Sau {
    table: Table,
    /// The engine's colour, once `new` (or the first `move`) has said it.
    me: Option<Color>,
}

impl Sau {
    /// A session of `game` (Connect6 on the platform; any game with one letter per coordinate
    /// and at most two stones a move), `limits` per move.
    pub fn new(game: Game, params: impl Into<Tuning>, limits: Limits) -> Sau {
        Sau {
            table: Table::new(game, params, limits, letter_name),
            me: None,
        }
    }

    /// The stones of `text`: letter pairs, the last of which may be `@@`.
    fn stones(&self, text: &str) -> Result<Vec<Point>, String> {
        let text = text.trim();
        let given = text.strip_suffix(ABSENT).unwrap_or(text);
        if given.is_empty() || given.contains('@') {
            return Err(format!("bad stones {}", quoted(text)));
        }
        stones_of(self.table.game(), given)
    }

    /// The engine's move, played, as the reply.
    fn think(&mut self) -> Handled {
        match self.table.think() {
            Ok(stones) => Handled::line(format!("move {}", move_text(&stones))),
            Err(e) => Handled::note(e),
        }
    }

    /// `new black|white`: a new game; as black the engine opens.
    fn start(&mut self, side: &str) -> Handled {
        let Some(me) = Color::of_name(side.trim()) else {
            return Handled::note(format!("new {:?}: give black or white", side.trim()));
        };
        let game = *self.table.game();
        self.table.reset(game);
        self.me = Some(me);
        match me {
            Color::Black => self.think(),
            Color::White => Handled::none(),
        }
    }

    /// `move XXYY`: the opponent's stones, then the engine's answer.
    fn opponent_moves(&mut self, text: &str) -> Handled {
        let stones = match self.stones(text) {
            Ok(s) => s,
            Err(e) => return Handled::note(e),
        };
        let side = self.table.to_move();
        if self.me == Some(side) {
            return Handled::note(format!("move {}: it is the engine's turn", text.trim()));
        }
        let needed = self.table.game().stones_to_place(self.table.stones(), side);
        if let Err(e) = self.table.play(side, &stones) {
            return Handled::note(e);
        }
        let ended =
            self.table.winner().is_some() || self.table.stones() == self.table.game().point_count();
        if stones.len() != needed && !ended {
            let _ = self.table.take_back(None);
            return Handled::note(format!("move {}: {needed} stones expected", text.trim()));
        }
        self.me = Some(side.opponent());
        if ended {
            return Handled::note("the game is over");
        }
        self.think()
    }
}

impl Protocol for Sau {
    fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    fn handle(&mut self, line: &str) -> Handled {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "" => Handled::none(),
            "name?" | "name" => Handled::line("name cpbim"),
            "new" => self.start(rest),
            "move" => self.opponent_moves(rest),
            "error" => Handled::note("the platform refused the engine's last move"),
            "end" => {
                let game = *self.table.game();
                self.table.reset(game);
                self.me = None;
                Handled::none()
            }
            "quit" => Handled::quit(vec!["Quit!".to_string()]),
            _ => Handled::note(format!("unknown command {}", quoted(cmd))),
        }
    }
}
