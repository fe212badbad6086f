//! The Gomocup (Piskvork) brain protocol, for the games of five: `START`, `RECTSTART`,
//! `RESTART`, `BEGIN`, `TURN`, `BOARD … DONE`, `TAKEBACK`, `INFO`, `ABOUT`, `END`, and Yixin's
//! `YXSHOWFORBID`. Coordinates are `x,y` from 0, x the column from the left, y the row from the
//! top. Rule bits (`INFO rule`): 1 exactly five, 4 Renju.

use super::{Handled, Protocol, Table};
use crate::engine::{Clock, Limits, Tuning};
use crate::limits::MAX_MOVE_TIME;
use crate::text::{excerpt, quoted};
use crate::{renju, Color, Game, Point, Rule};
use std::time::Duration;

/// `p` in Gomocup coordinates of `game`: `x,y`, the column from the left and the row from the
/// top, from 0.
pub fn coords(game: &Game, p: Point) -> String {
    format!("{},{}", p.col(), game.n() - 1 - p.row())
}

/// The `INFO rule` bits of `game` (the inverse of what a session reads from them): 1 exactly
/// five, 4 Renju, 0 freestyle.
pub fn rule_bits(game: &Game) -> u32 {
    match game.rule() {
        Rule::Free => 0,
        Rule::Exact => 1,
        Rule::Renju => 4,
    }
}

/// A Gomocup session.
pub struct Gomocup {
    table: Table,
    /// Rule bits of `INFO rule`.
    rule: u32,
    /// Lines of a `BOARD` command until `DONE`.
    board_lines: Option<Vec<String>>,
    /// Milliseconds per move (`timeout_turn`), for the whole match (`timeout_match`), left
    /// (`time_left`).
    turn_ms: Option<u64>,
    match_ms: Option<u64>,
    left_ms: Option<u64>,
}

impl Gomocup {
    /// A session starting with `game` (changed by `START` and `INFO rule`).
    pub fn new(game: Game, params: impl Into<Tuning>, default: Limits) -> Gomocup {
        Gomocup {
            table: Table::new(game, params, default, coords),
            rule: 0,
            board_lines: None,
            turn_ms: None,
            match_ms: None,
            left_ms: None,
        }
    }

    fn game_of(&self, m: usize, n: usize) -> Result<Game, String> {
        let base = if self.rule & 4 != 0 {
            Game::RENJU
        } else if self.rule & 1 != 0 {
            Game::GOMOKU_STANDARD
        } else {
            Game::GOMOKU
        };
        if m == n {
            base.with_side(m)
        } else if base == Game::GOMOKU {
            Game::connect(m, n, 5, 1, 1)
        } else {
            Err("rectangular boards are freestyle only".to_string())
        }
    }

    fn point(&self, text: &str) -> Result<Point, String> {
        let mut it = text.split(',').map(|t| t.trim().parse::<usize>());
        let (Some(Ok(x)), Some(Ok(y))) = (it.next(), it.next()) else {
            return Err(format!("bad coordinates {}", quoted(text)));
        };
        let g = self.table.game();
        if x >= g.m() || y >= g.n() {
            return Err(format!("{x},{y} is off the board"));
        }
        Point::new(x, g.n() - 1 - y).ok_or_else(|| format!("{x},{y} is off the board"))
    }

    fn coords(&self, p: Point) -> String {
        coords(self.table.game(), p)
    }

    /// The time for this move ([`Clock::budget`]): a share of what is left of the match
    /// (`time_left`, or `timeout_match` before the first `time_left`) within the per-move limit
    /// (`timeout_turn`); `None` (the engine's own limits) when the manager gives neither.
    fn limits(&self) -> Option<Limits> {
        let ms = Duration::from_millis;
        let turn = self.turn_ms.filter(|&t| t > 0).map(ms);
        let left = self.left_ms.or(self.match_ms.filter(|&t| t > 0)).map(ms);
        if turn.is_none() && left.is_none() {
            return None;
        }
        let clock = Clock {
            left: left.unwrap_or(Duration::MAX),
            increment: Duration::ZERO,
            per_move: turn,
        };
        Some(Limits::per_move(clock.budget().min(MAX_MOVE_TIME)))
    }

    fn think(&mut self) -> Handled {
        if let Some(limits) = self.limits() {
            self.table.limits = limits;
        }
        match self.table.think() {
            Ok(stones) => Handled::line(self.coords(stones[0])),
            Err(e) => Handled::line(format!("ERROR {e}")),
        }
    }

    fn start(&mut self, m: usize, n: usize) -> Handled {
        match self.game_of(m, n) {
            Ok(g) => {
                self.table.reset(g);
                Handled::line("OK")
            }
            Err(e) => Handled::line(format!("ERROR {e}")),
        }
    }

    fn info(&mut self, rest: &str) -> Handled {
        let mut it = rest.split_whitespace();
        let (Some(key), Some(value)) = (it.next(), it.next()) else {
            return Handled::none();
        };
        let number = value.parse::<u64>().ok();
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.turn_ms = number,
            "timeout_match" => self.match_ms = number,
            "time_left" => self.left_ms = number,
            "rule" => {
                if let Some(r) = number {
                    self.rule = r as u32;
                    if self.table.stones() == 0 {
                        let (m, n) = (self.table.game().m(), self.table.game().n());
                        if let Ok(g) = self.game_of(m, n) {
                            self.table.reset(g);
                        }
                    }
                }
            }
            _ => {}
        }
        Handled::none()
    }

    /// `BOARD` ended by `DONE`: 1 = own stone, 2 = the opponent's, in play order.
    fn board_done(&mut self, lines: Vec<String>) -> Handled {
        let game = *self.table.game();
        self.table.reset(game);
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for l in &lines {
            let fields: Vec<&str> = l.split(',').collect();
            if fields.len() != 3 {
                return Handled::line(format!(
                    "ERROR bad BOARD line {}; the board is cleared",
                    quoted(l)
                ));
            }
            let p = match self.point(&format!("{},{}", fields[0], fields[1])) {
                Ok(p) => p,
                Err(e) => return Handled::line(format!("ERROR {e}; the board is cleared")),
            };
            match fields[2].trim() {
                "1" => own.push(p),
                "2" | "3" => theirs.push(p),
                f => {
                    return Handled::line(format!(
                        "ERROR bad field {}; the board is cleared",
                        quoted(f)
                    ))
                }
            }
        }
        let me = match theirs.len().checked_sub(own.len()) {
            Some(0) => Color::Black,
            Some(1) => Color::White,
            _ => return Handled::line("ERROR the stone counts do not say whose turn it is"),
        };
        for (side, stones) in [(me, &own), (me.opponent(), &theirs)] {
            for &p in stones {
                if let Err(e) = self.table.place(side, p) {
                    return Handled::line(format!("ERROR {e}"));
                }
            }
        }
        self.table.set_to_move(me);
        self.think()
    }

    /// Yixin's `YXSHOWFORBID`: black's forbidden points as `xxyy` pairs, ending with `.`.
    fn forbidden(&self) -> String {
        let mut s = "FORBID ".to_string();
        if self.table.game().rule() == crate::Rule::Renju {
            for (p, _) in renju::forbidden_points(self.table.board()) {
                s += &format!("{:02}{:02}", p.col(), self.table.game().n() - 1 - p.row());
            }
        }
        s + "."
    }
}

impl Protocol for Gomocup {
    fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    fn handle(&mut self, line: &str) -> Handled {
        let line = line.trim();
        let points = self.table.game().point_count();
        if let Some(lines) = self.board_lines.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let lines = self.board_lines.take().unwrap_or_default();
                return self.board_done(lines);
            }
            if line.eq_ignore_ascii_case("END") {
                // The manager ends the session in the middle of a position: end it.
                self.board_lines = None;
                return Handled::quit(Vec::new());
            }
            if lines.len() >= points {
                self.board_lines = None;
                self.table.reset(*self.table.game());
                return Handled::line(format!(
                    "ERROR BOARD: more lines than the {points} points of the board; the board is cleared"
                ));
            }
            lines.push(line.to_string());
            return Handled::none();
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd.to_ascii_uppercase().as_str() {
            "" => Handled::none(),
            "START" => match rest.trim().parse::<usize>() {
                Ok(n) => self.start(n, n),
                Err(_) => Handled::line(format!("ERROR bad size {}", quoted(rest))),
            },
            "RECTSTART" => {
                let mut it = rest.split(',').map(|t| t.trim().parse::<usize>());
                match (it.next(), it.next()) {
                    (Some(Ok(m)), Some(Ok(n))) => self.start(m, n),
                    _ => Handled::line(format!("ERROR bad size {}", quoted(rest))),
                }
            }
            "RESTART" => {
                let game = *self.table.game();
                self.table.reset(game);
                Handled::line("OK")
            }
            "BEGIN" => {
                if self.table.stones() > 0 {
                    return Handled::line("ERROR BEGIN on a board with stones");
                }
                self.think()
            }
            "TURN" => match self.point(rest) {
                Ok(p) => {
                    let side = self.table.to_move();
                    match self.table.play(side, &[p]) {
                        Ok(()) => self.think(),
                        Err(e) => Handled::line(format!("ERROR {e}")),
                    }
                }
                Err(e) => Handled::line(format!("ERROR {e}")),
            },
            "BOARD" => {
                self.board_lines = Some(Vec::new());
                Handled::none()
            }
            "TAKEBACK" => match self.point(rest).and_then(|p| self.table.take_back(Some(p))) {
                Ok(()) => Handled::line("OK"),
                Err(e) => Handled::line(format!("ERROR {e}")),
            },
            "INFO" => self.info(rest),
            "ABOUT" => Handled::line(format!(
                "name=\"cpbim\", version=\"{}\", author=\"cpbim developers\", country=\"\"",
                env!("CARGO_PKG_VERSION")
            )),
            "YXSHOWFORBID" => Handled::line(self.forbidden()),
            "END" => Handled::quit(Vec::new()),
            _ => Handled::line(format!("UNKNOWN {}", excerpt(cmd))),
        }
    }
}
