//! The iterative-deepening driver (`docs/search.md`, "Two questions, two drivers"): a win
//! search at every budget 0, 2p, 4p, … up to the limit; the first budget at which the root is
//! won is the smallest winning depth. The default of the games of two stones a move, where a
//! deep first search would pay for the breadth of every wrong attack to the whole limit.
//!
//! Whether a tree without a win is exhausted is asked once, at the limit, after the last
//! failed iteration (or by iterative deepening of the exhaustion search when its smallest depth
//! is wanted); an iteration that proves the tree exhausted on its way ends the search at once.

use super::tree::{Found, Searcher};
use super::{Decided, Outcome};
use crate::Model;

impl<M: Model> Searcher<'_, M> {
    /// Decide the root within `limit` plies: a win with the smallest winning depth, `none`
    /// (with the smallest depth when `shortest`), `nowin`, or `unknown` with the deepest budget
    /// completed (no win within it). With `win_only` no exhaustion search runs: `nowin` then
    /// also stands for an exhaustion the win searches did not see.
    pub(super) fn deepening(&mut self, limit: u32, shortest: bool, win_only: bool) -> Decided {
        let decided = |outcome, depth, minimal| Decided {
            outcome,
            depth,
            minimal,
        };
        let mut exhausted = None;
        for budget in (0..=limit).step_by(self.round as usize) {
            self.begin(budget);
            match self.win_a(0, budget) {
                None => {
                    let completed = budget.saturating_sub(self.round);
                    return decided(Outcome::Unknown, completed, false);
                }
                Some(Found::Win(_)) => return decided(Outcome::Win, budget, true),
                Some(Found::NoWin(Some(e))) => {
                    exhausted = Some(e);
                    break;
                }
                Some(Found::NoWin(None)) => {}
            }
        }
        match exhausted {
            _ if shortest && !win_only => {
                self.smallest_exhaustion(exhausted.unwrap_or(limit), limit)
            }
            Some(e) => decided(Outcome::None, e, e == 0),
            None if win_only => decided(Outcome::Nowin, limit, false),
            None => match self.ex_a(0, limit) {
                None => decided(Outcome::Unknown, limit, false),
                Some(Some(e)) => decided(Outcome::None, e, e == 0),
                Some(None) => decided(Outcome::Nowin, limit, false),
            },
        }
    }

    /// The root has no win within `limit` plies: the smallest budget within which its tree is
    /// exhausted, by iterative deepening of the exhaustion search up to `top` (≤ `limit`, a
    /// depth within which it is known exhausted, if any). `unknown` keeps the `limit`: no win
    /// within it.
    pub(super) fn smallest_exhaustion(&mut self, top: u32, limit: u32) -> Decided {
        let decided = |outcome, depth, minimal| Decided {
            outcome,
            depth,
            minimal,
        };
        for budget in (0..=top.min(limit)).step_by(self.round as usize) {
            self.begin(budget);
            match self.ex_a(0, budget) {
                None => return decided(Outcome::Unknown, limit, false),
                Some(Some(_)) => return decided(Outcome::None, budget, true),
                Some(None) => {}
            }
        }
        decided(Outcome::Nowin, limit, false)
    }
}
