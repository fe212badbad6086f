//! The match runner (`docs/match.md`): two engine processes play every opening with both
//! colours; the runner is the referee. It checks every move (the right number of stones, on
//! empty points), detects the row and the full board, and scores a crash, an illegal move or a
//! time loss against the offender with the reason.
//!
//! Engines speak the Cloudict protocol (Connect6) or the Gomocup protocol (the games of five):
//! see [`wire`]. Renju's black loses on a forbidden point.

pub mod openings;
pub mod process;
pub mod run;
pub mod stats;
pub mod wire;

use crate::board::points_text;
use crate::geom::{Color, Point};
use crate::protocol::cloudict::letters;
use crate::{renju, Board, Game};
use process::{EngineProcess, Failure};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wire::{Speaker, Wire};

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
    /// The protocol the engines speak ([`Wire::for_game`]).
    pub wire: Wire,
    /// The time control.
    pub time: TimeControl,
}

/// How much time the engines get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No limit but a cap of 10 minutes per move.
    None,
    /// Each move within this time (plus a grace of a quarter of it, at least half a second,
    /// for process overhead).
    PerMove(Duration),
    /// A clock per engine for the whole game: `base`, and `increment` added after each move;
    /// the engine whose clock runs out (by more than [`CLOCK_GRACE`]) loses.
    Game {
        /// Time for the game.
        base: Duration,
        /// Added after every move.
        increment: Duration,
    },
}

/// What an engine may overdraw its game clock by (reading and writing its lines).
pub const CLOCK_GRACE: Duration = Duration::from_millis(300);

impl TimeControl {
    /// `S` (seconds per move) or `BASE+INC` (seconds for the game, seconds added per move).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let secs = |t: &str, zero_ok: bool| -> Result<Duration, String> {
            match t.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && (x > 0.0 || (zero_ok && x == 0.0)) && x < 1e7 => {
                    Ok(Duration::from_secs_f64(x))
                }
                _ => Err(format!(
                    "{text:?}: give seconds per move (0.5) or seconds per game and per move \
                     (60+1)"
                )),
            }
        };
        match text.split_once('+') {
            None => Ok(TimeControl::PerMove(secs(text, false)?)),
            Some((base, inc)) => Ok(TimeControl::Game {
                base: secs(base, false)?,
                increment: secs(inc, true)?,
            }),
        }
    }

    /// The time an engine gets for this move, given its clock.
    fn allowed(&self, clock: Duration) -> Duration {
        match *self {
            TimeControl::None => Duration::from_secs(600),
            TimeControl::PerMove(t) => t + (t / 4).max(Duration::from_millis(500)),
            TimeControl::Game { .. } => clock + CLOCK_GRACE,
        }
    }
}

/// The game in progress.
struct Referee {
    rules: Rules,
    board: Board,
    /// Whole moves in play order, black's first.
    moves: Vec<Vec<Point>>,
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
        let game = self.rules.game;
        for (i, &p) in stones.iter().enumerate() {
            if !game.contains(p) {
                return Err(format!("{p} is off the board"));
            }
            if !self.board.is_empty(p) || stones[..i].contains(&p) {
                return Err(format!("{p} is occupied"));
            }
        }
        if renju::applies(&game, self.to_move) {
            if let Some(f) = renju::forbidden(&self.board, stones[0]) {
                return Err(format!(
                    "{} is forbidden to black ({})",
                    stones[0],
                    f.name()
                ));
            }
        }
        for &p in stones {
            self.board.set(p, Some(self.to_move));
        }
        self.moves.push(stones.to_vec());
        self.to_move = self.to_move.opponent();
        Ok(())
    }

    /// Every stone in play order.
    fn stones(&self) -> Vec<Point> {
        self.moves.concat()
    }
}

/// Play one game: engine `black` (0 or 1) has black; `opening` are the first stones (whole
/// moves, black's first); `commands` start the engines. `None` when `stop` was set before the
/// game ended (the engines are killed; the game counts for nobody).
pub fn play_game(
    rules: &Rules,
    commands: [&str; 2],
    black: usize,
    opening: &[Point],
    stop: &AtomicBool,
) -> Option<Played> {
    let game = rules.game;
    let mut r = Referee {
        rules: rules.clone(),
        board: Board::new(game),
        moves: Vec::new(),
        to_move: Color::Black,
    };
    let mut i = 0;
    while i < opening.len() {
        let end_i = game.move_of_stone(i).end.min(opening.len());
        if let Err(e) = r.play(&opening[i..end_i]) {
            panic!("the opening {} is not legal: {e}", letters(opening));
        }
        i = end_i;
    }
    let mut time = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    let mut clocks = match rules.time {
        TimeControl::Game { base, .. } => [base; 2],
        _ => [Duration::ZERO; 2],
    };
    let engine_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let end = |r: &Referee, winner: Option<Color>, ending: Ending, time, moves| {
        Some(Played {
            black,
            winner,
            ending,
            stones: r.stones(),
            time,
            moves,
        })
    };
    // Start both; a failure to start is a loss of that engine.
    let mut engines = Vec::new();
    for (k, cmd) in commands.iter().enumerate() {
        let started = EngineProcess::spawn(cmd).and_then(|mut e| {
            Speaker::start(rules.wire, &game, rules.time, &mut e, stop).map(|s| (e, s))
        });
        match started {
            Ok(pair) => engines.push(pair),
            Err(f) => {
                let loser = if k == black {
                    Color::Black
                } else {
                    Color::White
                };
                return end(&r, Some(loser.opponent()), failure_ending(f)?, time, moves);
            }
        }
    }
    loop {
        let side = r.to_move;
        let k = engine_of(side);
        let t0 = Instant::now();
        let (engine, speaker) = &mut engines[k];
        let clock = match rules.time {
            TimeControl::Game { .. } => Some(clocks[k]),
            _ => None,
        };
        let deadline = t0 + rules.time.allowed(clocks[k]);
        let reply = speaker.ask(engine, &r.moves, clock, deadline, stop);
        let used = t0.elapsed();
        time[k] += used;
        moves[k] += 1;
        let stones = match reply {
            Ok(stones) => stones,
            Err(f) => return end(&r, Some(side.opponent()), failure_ending(f)?, time, moves),
        };
        if let TimeControl::Game { increment, .. } = rules.time {
            if used > clocks[k] + CLOCK_GRACE {
                return end(&r, Some(side.opponent()), Ending::Time, time, moves);
            }
            clocks[k] = clocks[k].saturating_sub(used) + increment;
        }
        if let Err(why) = r.play(&stones) {
            let what = format!("{}: {why}", points_text(&stones));
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
    }
}

/// How a failure ends the game; `None` when the runner was stopped (the game has no ending).
fn failure_ending(f: Failure) -> Option<Ending> {
    match f {
        Failure::Time => Some(Ending::Time),
        Failure::Crash(why) => Some(Ending::Crash(why)),
        Failure::Malformed(what) => Some(Ending::Illegal(what)),
        Failure::Stopped => None,
    }
}

/// A played game's stones as an SGF record in `path` (written whole or not at all).
pub fn write_sgf(path: &std::path::Path, game: &Game, stones: &[Point]) -> anyhow::Result<()> {
    let record = crate::Record::from_stones(*game, stones)?;
    let text = crate::notation::write(&record, crate::notation::Format::Sgf)?;
    crate::files::write(path, text + "\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(col: usize, row: usize) -> Point {
        Point::new(col, row).unwrap()
    }

    #[test]
    fn the_referee_refuses_black_forbidden_points_in_renju_only() {
        for (game, refused) in [(Game::RENJU, true), (Game::GOMOKU, false)] {
            let mut board = Board::new(game);
            // Two black pairs that a stone on (7, 7) turns into two open threes.
            for p in [at(5, 7), at(6, 7), at(7, 5), at(7, 6)] {
                board.set(p, Some(Color::Black));
            }
            for p in [at(1, 1), at(1, 3), at(3, 1), at(13, 13)] {
                board.set(p, Some(Color::White));
            }
            let mut r = Referee {
                rules: Rules {
                    game,
                    wire: Wire::Gomocup,
                    time: TimeControl::None,
                },
                board,
                moves: Vec::new(),
                to_move: Color::Black,
            };
            let played = r.play(&[at(7, 7)]);
            assert_eq!(played.is_err(), refused, "{game}: {played:?}");
            if refused {
                assert!(played.unwrap_err().contains("double three"));
            }
        }
    }
}
