//! The match runner (`docs/match.md`): two engine processes play every opening with both
//! colours; the runner is the referee. It checks every move (the right number of stones, on
//! empty points), detects the row and the full board, and scores a crash, an illegal move or a
//! time loss against the offender with the reason.
//!
//! Engines speak the Cloudict protocol (Connect6): the opening is set up with `black`/`white`
//! stones, the side to move is asked with `next`, and afterwards each engine gets the other's
//! move with `move XXXX` and answers `move YYYY`. Lines that are not a move are ignored
//! (banners, statistics).

pub mod openings;
pub mod process;
pub mod run;
pub mod stats;

use crate::geom::{Color, Point};
use crate::protocol::cloudict::{letters, points};
use crate::{Board, Game};
use process::{EngineProcess, Failure};
use std::time::{Duration, Instant};

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A winning row.
    Row,
    /// The board is full: a draw.
    FullBoard,
    /// The loser played an illegal move (what and why).
    Illegal(String),
    /// The loser did not answer in time.
    Time,
    /// The loser's process crashed or closed its output.
    Crash(String),
}

impl Ending {
    /// Short name: `row`, `full board`, `illegal`, `time`, `crash`.
    pub fn name(&self) -> &'static str {
        match self {
            Ending::Row => "row",
            Ending::FullBoard => "full board",
            Ending::Illegal(_) => "illegal",
            Ending::Time => "time",
            Ending::Crash(_) => "crash",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The engine (0 or 1, by the order given) that played black.
    pub black: usize,
    /// The winning colour; `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub ending: Ending,
    /// Every stone in play order, the opening's included.
    pub stones: Vec<Point>,
    /// Thinking time and moves of each engine (by engine index).
    pub time: [Duration; 2],
    /// Moves each engine was asked for (by engine index).
    pub moves: [u32; 2],
}

impl Played {
    /// The game's points for engine 0: 1, ½ or 0.
    pub fn score0(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) if (c == Color::Black) == (self.black == 0) => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// How each game is played.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The game played.
    pub game: Game,
    /// Time a move may take; a move later than this plus the grace loses on time.
    pub move_time: Option<Duration>,
}

impl Rules {
    /// The deadline of a move asked for now: the move time plus a grace of a quarter of it
    /// (at least half a second) for process overhead; 10 minutes without a time control.
    fn deadline(&self) -> Instant {
        let allowed = match self.move_time {
            Some(t) => t + (t / 4).max(Duration::from_millis(500)),
            None => Duration::from_secs(600),
        };
        Instant::now() + allowed
    }
}

/// A move reply: exactly `move` and two or four letters (`move JJ`, `move KJKK`).
fn parse_reply(line: &str) -> Option<Vec<Point>> {
    let stones = points(line.strip_prefix("move ")?)?;
    (stones.len() <= 2).then_some(stones)
}

/// The game in progress.
struct Referee {
    rules: Rules,
    board: Board,
    stones: Vec<Point>,
    to_move: Color,
}

impl Referee {
    fn stones_to_place(&self) -> usize {
        self.rules
            .game
            .stones_to_place(self.board.stones(), self.to_move)
    }

    /// Check and play `stones` for the side to move.
    fn play(&mut self, stones: &[Point]) -> Result<(), String> {
        let n = self.stones_to_place();
        if stones.len() != n {
            return Err(format!("{} stones where {n} are due", stones.len()));
        }
        for (i, &p) in stones.iter().enumerate() {
            if !self.rules.game.contains(p) {
                return Err(format!("{p} is off the board"));
            }
            if !self.board.is_empty(p) || stones[..i].contains(&p) {
                return Err(format!("{p} is occupied"));
            }
        }
        for &p in stones {
            self.board.set(p, Some(self.to_move));
            self.stones.push(p);
        }
        self.to_move = self.to_move.opponent();
        Ok(())
    }
}

/// Play one game: engine `black` (0 or 1) has black; `opening` are the first stones (whole
/// moves, black's first); `commands` start the engines.
pub fn play_game(rules: &Rules, commands: [&str; 2], black: usize, opening: &[Point]) -> Played {
    let mut r = Referee {
        rules: rules.clone(),
        board: Board::new(rules.game),
        stones: Vec::new(),
        to_move: Color::Black,
    };
    let mut time = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    let engine_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let end = |r: &Referee, winner: Option<Color>, ending: Ending, time, moves| Played {
        black,
        winner,
        ending,
        stones: r.stones.clone(),
        time,
        moves,
    };
    // Start both; a failure to start is a crash of that engine.
    let mut engines = Vec::new();
    for (i, cmd) in commands.iter().enumerate() {
        match EngineProcess::spawn(cmd) {
            Ok(e) => engines.push(e),
            Err(f) => {
                let loser = if i == black {
                    Color::Black
                } else {
                    Color::White
                };
                return end(&r, Some(loser.opponent()), failure_ending(f), time, moves);
            }
        }
    }
    // Set up the opening on both, move by move.
    let game = rules.game;
    let mut setup = vec!["new white".to_string()];
    let mut i = 0;
    while i < opening.len() {
        let range = game.move_of_stone(i);
        let end_i = range.end.min(opening.len());
        let colour = game.color_of_stone(i);
        let word = if colour == Color::Black {
            "black"
        } else {
            "white"
        };
        setup.push(format!("{word} {}", letters(&opening[i..end_i])));
        if let Err(e) = r.play(&opening[i..end_i]) {
            panic!("the opening {} is not legal: {e}", letters(opening));
        }
        i = end_i;
    }
    for (k, e) in engines.iter_mut().enumerate() {
        for line in &setup {
            if let Err(f) = e.send(line) {
                let loser = if k == black {
                    Color::Black
                } else {
                    Color::White
                };
                return end(&r, Some(loser.opponent()), failure_ending(f), time, moves);
            }
        }
    }
    // The first request: `new black` on an empty board, else `next`.
    let mut request = if opening.is_empty() {
        "new black".to_string()
    } else {
        "next".to_string()
    };
    loop {
        let side = r.to_move;
        let k = engine_of(side);
        let t0 = Instant::now();
        let reply = engines[k]
            .send(&request)
            .and_then(|()| engines[k].expect(rules.deadline(), |l| parse_reply(l).is_some()));
        time[k] += t0.elapsed();
        moves[k] += 1;
        let stones = match reply {
            Ok(line) => parse_reply(&line).expect("checked"),
            Err(f) => return end(&r, Some(side.opponent()), failure_ending(f), time, moves),
        };
        if let Err(why) = r.play(&stones) {
            let what = format!("{}: {why}", letters(&stones));
            return end(
                &r,
                Some(side.opponent()),
                Ending::Illegal(what),
                time,
                moves,
            );
        }
        if r.board.find_win_of(side).is_some() {
            return end(&r, Some(side), Ending::Row, time, moves);
        }
        if r.board.stones() + r.stones_to_place() > game.point_count() {
            return end(&r, None, Ending::FullBoard, time, moves);
        }
        request = format!("move {}", letters(&stones));
    }
}

fn failure_ending(f: Failure) -> Ending {
    match f {
        Failure::Time => Ending::Time,
        Failure::Crash(why) => Ending::Crash(why),
    }
}
