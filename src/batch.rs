//! Solving many positions on all cores with results in input order.

use crate::notation::parse_position;
use crate::search::{Config, Solution, Solver};
use crate::Model;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The answer for one input line.
pub type LineResult = Result<Solution, String>;

/// Solve every line of `lines` (each a stone list or SGF) with model `M`, on rayon's threads,
/// returning the answers in input order. Each thread keeps one [`Solver`] (one transposition
/// table); every solve starts from an effectively empty table, so answers and node counts do
/// not depend on scheduling. `progress` is called after each line with the number done.
/// Once `stop` is set, searches in flight end as `unknown` and lines not started are
/// answered `unknown` without search.
pub fn solve_lines<M: Model>(
    lines: &[String],
    config: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<LineResult> {
    let threads = rayon::current_num_threads();
    let solvers: Vec<Mutex<Option<Solver<M>>>> =
        (0..threads + 1).map(|_| Mutex::new(None)).collect();
    let done = AtomicUsize::new(0);
    lines
        .par_iter()
        .map(|line| {
            let result = match parse_position(line) {
                Err(e) => Err(e.to_string()),
                Ok(_) if stop.load(Ordering::Relaxed) => Ok(Solution::unknown()),
                Ok(pos) => {
                    let slot = rayon::current_thread_index().unwrap_or(threads);
                    let mut guard = solvers[slot.min(threads)].lock().expect("solver lock");
                    let solver = guard.get_or_insert_with(|| Solver::new(config.clone()));
                    Ok(solver.solve(&pos, stop))
                }
            };
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            result
        })
        .collect()
}
