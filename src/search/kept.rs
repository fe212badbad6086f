//! The model of a solver's last search, kept for its next one.
//!
//! The proof search (`cpbim prove`) asks the solver about positions a few stones apart: after a
//! threat, after a reply, back up the tree. Building each one's model from its board was a sixth
//! of a Gomoku proof search's time. A kept model is brought to the next board by taking back the
//! stones it made that the board lacks and making the ones it has; a model's every query is a
//! function of its board (`Model`), so the search over it is the search over a model built from
//! the board, node for node.

use crate::board::Board;
use crate::geom::{Color, Point};
use crate::model::Model;

/// Stones a kept model makes at most to reach a new board; beyond it one is built afresh (a
/// batch of unrelated positions should not pay a long walk).
const MAX_MAKES: usize = 8;

/// A model built from `base`, with the stones `made` on it since, in order.
pub(super) struct Kept<M: Model> {
    m: M,
    base: Board,
    made: Vec<(Point, Color)>,
}

impl<M: Model> Kept<M> {
    /// The model of `board` in `slot`: the kept one brought to it when `board` holds its
    /// base's stones and differs from its board by at most [`MAX_MAKES`] new stones, else one
    /// built afresh. The model stays in `slot` (8 KB: moving it in and out of the searcher
    /// cost a batch of unrelated positions 7 %).
    pub(super) fn model<'k>(slot: &'k mut Option<Kept<M>>, board: &Board) -> &'k mut M {
        if !slot.as_mut().is_some_and(|kept| kept.reach(board)) {
            *slot = Some(Kept {
                m: M::from_board(board),
                base: board.clone(),
                made: Vec::new(),
            });
        }
        &mut slot.as_mut().expect("a model was just put there").m
    }

    /// Keep the model in `slot` for the next search only if it stands on `board` again (a
    /// search makes and takes back its own stones; one that stopped midway might not have).
    pub(super) fn settle(slot: &mut Option<Kept<M>>, board: &Board) {
        if slot.as_ref().is_some_and(|kept| kept.m.board() != board) {
            *slot = None;
        }
    }

    /// Bring the model to `board`; false (the model left in any state) when it does not pay.
    fn reach(&mut self, board: &Board) -> bool {
        if self.base.game() != board.game() {
            return false;
        }
        let holds = |&(x, c): &(Point, Color)| board.get(x) == Some(c);
        if !self.base.iter().all(|stone| holds(&stone)) {
            return false;
        }
        // Take back the stones made since the first one `board` lacks.
        let keep = self
            .made
            .iter()
            .position(|stone| !holds(stone))
            .unwrap_or(self.made.len());
        let missing: Vec<(Point, Color)> = board
            .iter()
            .filter(|&(x, _)| self.base.is_empty(x))
            .filter(|stone| !self.made[..keep].contains(stone))
            .collect();
        if missing.len() > MAX_MAKES {
            return false;
        }
        for _ in keep..self.made.len() {
            self.m.unmake();
        }
        self.made.truncate(keep);
        for &(x, c) in &missing {
            self.m.make(x, c);
            self.made.push((x, c));
        }
        debug_assert!(self.m.board() == board);
        true
    }
}
