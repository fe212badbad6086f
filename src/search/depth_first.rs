//! The depth-first drivers (`docs/search.md`, "Two questions, two drivers"): one win search at
//! the whole depth limit, which returns at the first win it proves — the default of the games
//! of one stone a move, where the tree of fours is narrow and deep — and, for the shortest
//! win, searches below each win found until one fails.
//!
//! Each search below a win reuses the facts of those before it ("not won within b" answers
//! every probe with a smaller budget), so only the parts of the tree that held wins are
//! searched again; the last failure proves the last win the shortest.

use super::tree::{Found, Searcher};
use super::{Decided, Outcome};
use crate::Model;

impl<M: Model> Searcher<'_, M> {
    /// Decide the root within `limit` plies: a win with the depth of the proof found, `none`
    /// with the depth within which the tree was proven exhausted, `nowin`, or `unknown 0` when
    /// the limits ended the search. With `shortest`, a win is then shortened to the smallest
    /// and `none` has the smallest depth. With `win_only` no exhaustion search runs: `nowin`
    /// then also stands for an exhaustion the win search did not see.
    pub(super) fn depth_first(&mut self, limit: u32, shortest: bool, win_only: bool) -> Decided {
        self.begin(limit);
        let found = self.win_a(0, limit);
        let (outcome, depth) = match found {
            None => (Outcome::Unknown, 0),
            Some(Found::Win(d)) if shortest => return self.shorten(d),
            Some(Found::Win(d)) => (Outcome::Win, d),
            Some(Found::NoWin(e)) if shortest && !win_only => {
                return self.smallest_exhaustion(e.unwrap_or(limit), limit)
            }
            Some(Found::NoWin(Some(e))) => (Outcome::None, e),
            Some(Found::NoWin(None)) if win_only => (Outcome::Nowin, limit),
            Some(Found::NoWin(None)) => match self.ex_a(0, limit) {
                None => (Outcome::Unknown, 0),
                Some(Some(e)) => (Outcome::None, e),
                Some(None) => (Outcome::Nowin, limit),
            },
        };
        // No win is shorter than one round but a row completed now (depth 0), and no tree is
        // exhausted sooner than one without an attack (depth 0).
        let minimal = match outcome {
            Outcome::Win => depth <= self.round,
            Outcome::None => depth == 0,
            _ => false,
        };
        Decided {
            outcome,
            depth,
            minimal,
        }
    }

    /// The root is won within `depth` plies: search below it until no shorter win exists.
    /// When the limits stop this, the last win found is the answer, not proven the shortest.
    fn shorten(&mut self, mut depth: u32) -> Decided {
        let minimal = loop {
            if depth <= self.round {
                break true;
            }
            let bound = depth - self.round;
            self.begin(bound);
            match self.win_a(0, bound) {
                Some(Found::Win(d)) => depth = d,
                Some(Found::NoWin(_)) => break true,
                None => break false,
            }
        };
        Decided {
            outcome: Outcome::Win,
            depth,
            minimal,
        }
    }
}
