//! Solving many positions on all cores with results in input order.

use crate::board::{Board, Position};
use crate::geom::Color;
use crate::notation::parse_position;
use crate::search::{Config, Solution, Solver};
use crate::Model;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The answer for one input line.
pub type LineResult = Result<Solution, String>;

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
        let mut guard = self.slots[slot].lock().expect("solver lock");
        f(guard.get_or_insert_with(|| Solver::new(self.config.clone())))
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

/// [`solve_positions`] for text lines (stone lists or SGF): a line that is not a position is
/// answered with its error message.
pub fn solve_lines<M: Model>(
    lines: &[String],
    config: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<LineResult> {
    let solvers = Solvers::<M>::new(config);
    let done = AtomicUsize::new(0);
    lines
        .par_iter()
        .map(|line| {
            let result = parse_position(line)
                .map(|pos| solvers.solve(&pos, stop))
                .map_err(|e| e.to_string());
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            result
        })
        .collect()
}
