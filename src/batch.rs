//! Solving many positions on all cores with results in input order, and the answer for one
//! input: a game in progress is solved, a finished game is reported as such.

use crate::board::{Board, Position};
use crate::geom::Color;
use crate::notation::{decode, parse_record, ParseError, Reading};
use crate::record::{Record, Status, Win};
use crate::search::{Config, Solution, Solver};
use crate::Model;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What `solve` answers for one game.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A game in progress: the search's answer for the side to move.
    Solved(Solution),
    /// A finished game: who made six, and where. Nothing is searched.
    Finished(Win),
}

/// The answer for one input line: the answer, or why the line is not a game (or, should the
/// program have a bug, the message of the failure, so that one line never stops the others).
pub type LineResult = Result<Answer, String>;

/// Read one input line: bytes (UTF-8, or GB18030 for a contest record) holding a game in any
/// format.
pub fn read_line(bytes: &[u8], how: Reading) -> Result<Record, ParseError> {
    parse_record(&decode(bytes)?, how)
}

/// One [`Solver`] (one transposition table) per rayon thread, created on first use.
pub(crate) struct Solvers<M: Model> {
    slots: Vec<Mutex<Option<Solver<M>>>>,
    config: Config,
}

impl<M: Model> Solvers<M> {
    pub(crate) fn new(config: &Config) -> Self {
        let n = rayon::current_num_threads() + 1;
        Solvers {
            slots: (0..n).map(|_| Mutex::new(None)).collect(),
            config: config.clone(),
        }
    }

    /// The configuration of every solver.
    pub(crate) fn config(&self) -> &Config {
        &self.config
    }

    pub(crate) fn solve(&self, pos: &Position, stop: &AtomicBool) -> Solution {
        self.solve_for(pos.board(), pos.to_move(), stop)
    }

    /// [`Solver::wins_within`] on this thread's solver.
    pub(crate) fn wins_within(
        &self,
        board: &Board,
        attacker: Color,
        stop: &AtomicBool,
    ) -> (crate::search::Outcome, u32, u64) {
        if stop.load(Ordering::Relaxed) {
            return (crate::search::Outcome::Unknown, 0, 0);
        }
        self.with(|s| s.wins_within(board, attacker, stop))
    }

    pub(crate) fn with<T>(&self, f: impl FnOnce(&mut Solver<M>) -> T) -> T {
        let last = self.slots.len() - 1;
        let slot = rayon::current_thread_index().map_or(last, |i| i.min(last));
        let mut guard = match self.slots[slot].lock() {
            Ok(guard) => guard,
            // A search that panicked left its solver in an unknown state: start afresh.
            Err(poisoned) => {
                let mut guard = poisoned.into_inner();
                *guard = None;
                guard
            }
        };
        f(guard.get_or_insert_with(|| Solver::new(self.config.clone())))
    }

    /// The answer for `record`: solved when in progress, else how it ended.
    pub(crate) fn answer(&self, record: &Record, stop: &AtomicBool) -> Answer {
        match record.status() {
            Status::Finished(w) => Answer::Finished(w.clone()),
            Status::InProgress(pos) => Answer::Solved(self.solve(&pos, stop)),
        }
    }

    /// [`Solver::solve_for`] on this thread's solver.
    pub(crate) fn solve_for(&self, board: &Board, attacker: Color, stop: &AtomicBool) -> Solution {
        if stop.load(Ordering::Relaxed) {
            return Solution::unknown();
        }
        self.with(|s| s.solve_for(board, attacker, stop))
    }
}

/// Solve `positions` with model `M` on rayon's threads; answers in input order. Every solve
/// starts from an effectively empty table, so answers and node counts do not depend on
/// scheduling. `progress` is called after each position with the number done. Once `stop` is
/// set, searches in flight end as `unknown` and positions not started are answered `unknown`
/// without search.
pub fn solve_positions<M: Model>(
    positions: &[Position],
    config: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Solution> {
    let solvers = Solvers::<M>::new(config);
    let done = AtomicUsize::new(0);
    positions
        .par_iter()
        .map(|pos| {
            let s = solvers.solve(pos, stop);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            s
        })
        .collect()
}

/// The answer for one game, on a fresh solver with `config`.
pub fn answer<M: Model>(record: &Record, config: &Config, stop: &AtomicBool) -> Answer {
    Solvers::<M>::new(config).answer(record, stop)
}

/// [`solve_positions`] for input lines (bytes, one game each in any format): a line that is
/// not a game is answered with its error message. A failure while answering one line (a bug)
/// is caught and answered as an error too, so every line gets its answer.
pub fn solve_lines<M: Model>(
    lines: &[Vec<u8>],
    how: Reading,
    config: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<LineResult> {
    let solvers = Solvers::<M>::new(config);
    let done = AtomicUsize::new(0);
    lines
        .par_iter()
        .map(|line| {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                read_line(line, how)
                    .map(|record| solvers.answer(&record, stop))
                    .map_err(|e| e.to_string())
            }))
            .unwrap_or_else(|panic| Err(internal_error(panic.as_ref())));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            result
        })
        .collect()
}

/// Run `$body` with the type `$M` set to the CPBIM model of the kind of `$game` (a `&Game`): the
/// model `cpbim solve` and `analyze` use by default, for a caller generic over [`Model`]
/// (`cpbim::with_cpbim_model!(record.game(), M => batch::answer::<M>(…))`).
#[macro_export]
macro_rules! with_cpbim_model {
    ($game:expr, $M:ident => $body:expr) => {
        match $crate::model::kind_of($game) {
            $crate::model::Kind::Connect6 => {
                type $M = $crate::Cpbim;
                $body
            }
            $crate::model::Kind::Five => {
                type $M = $crate::model::Cpbim5;
                $body
            }
            $crate::model::Kind::K4 => {
                type $M = $crate::model::CpbimK4;
                $body
            }
            $crate::model::Kind::K5 => {
                type $M = $crate::model::CpbimK5;
                $body
            }
            $crate::model::Kind::K6 => {
                type $M = $crate::model::CpbimK6;
                $body
            }
            $crate::model::Kind::K7 => {
                type $M = $crate::model::CpbimK7;
                $body
            }
            $crate::model::Kind::K8 => {
                type $M = $crate::model::CpbimK8;
                $body
            }
        }
    };
}

/// [`answer`] with the CPBIM model of the record's game: what `cpbim solve` answers for one
/// game by default.
pub fn answer_cpbim(record: &Record, config: &Config, stop: &AtomicBool) -> Answer {
    crate::with_cpbim_model!(record.game(), M => answer::<M>(record, config, stop))
}

/// [`solve_lines`] with the CPBIM model of `how.game`: what `cpbim solve` answers for a batch
/// by default.
pub fn solve_lines_cpbim(
    lines: &[Vec<u8>],
    how: Reading,
    config: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<LineResult> {
    crate::with_cpbim_model!(&how.game, M => solve_lines::<M>(lines, how, config, stop, progress))
}

/// The message of a caught panic, as an error answer.
pub fn internal_error(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown failure".into());
    format!(
        "internal error (a bug in cpbim, please report it with this input): {}",
        crate::text::excerpt(&what)
    )
}
