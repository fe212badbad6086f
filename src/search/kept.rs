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

/// Stones a kept model makes at most to reach a new board; beyond it the model is built again
/// from the board, in place (a batch of unrelated positions should not pay a long walk).
const MAX_MAKES: usize = 8;

/// A model built from `base`, with the stones `made` on it since, in order.
pub(super) struct Kept<M: Model> {
    m: M,
    base: Board,
    made: Vec<(Point, Color)>,
}

impl<M: Model> Kept<M> {
    /// The model of `board` in `slot`: the kept one brought to it when `board` holds its
    /// base's stones and differs from its board by at most [`MAX_MAKES`] new stones, else the
    /// kept one built again from `board` in place ([`Model::rebuild`]). The model stays in
    /// `slot` (8 KB: moving it in and out of the searcher cost a batch of unrelated positions
    /// 7 %).
    pub(super) fn model<'k>(slot: &'k mut Option<Kept<M>>, board: &Board) -> &'k mut M {
        match slot {
            Some(kept) => {
                if !kept.reach(board) {
                    // Built again in place: a fresh model's memory, moved into the slot, cost
                    // a batch of unrelated positions more than the building.
                    kept.m.rebuild(board);
                    kept.base.clone_from(board);
                    kept.made.clear();
                }
            }
            None => {
                *slot = Some(Kept {
                    m: M::from_board(board),
                    base: board.clone(),
                    made: Vec::new(),
                })
            }
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

#[cfg(test)]
mod tests {
    use crate::board::Board;
    use crate::game::Game;
    use crate::geom::{Color, Point};
    use crate::model::{Cpbim, Cpbim5, Model};
    use crate::search::{Config, Outcome, Solution, Solver};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    /// What a search answers, but its time.
    fn answer(s: &Solution) -> impl PartialEq + std::fmt::Debug {
        (
            s.outcome,
            s.depth,
            s.minimal,
            s.line.clone(),
            s.nodes,
            s.proof.clone(),
        )
    }

    /// A walk of boards: stones added near the centre, the last ones taken back, a jump to
    /// another board; each with whether its search is to be stopped by a node limit.
    fn walk(game: Game, steps: &[(u8, u8, u8)]) -> Vec<(Board, bool)> {
        let centre = (game.m() / 2, game.n() / 2);
        let mut board = Board::new(game);
        let mut played: Vec<Point> = Vec::new();
        let mut boards = Vec::new();
        for &(op, dx, dy) in steps {
            let x = Point::new(
                centre.0 + dx as usize % 7 - 3,
                centre.1 + dy as usize % 7 - 3,
            )
            .expect("on the board");
            match op % 8 {
                0..=4 if board.is_empty(x) => {
                    let c = [Color::Black, Color::White][played.len() % 2];
                    board.set(x, Some(c));
                    if board.win_through(x, c).is_some() {
                        board.set(x, None);
                        continue;
                    }
                    played.push(x);
                }
                5 => {
                    for _ in 0..(dx % 3 + 1) {
                        if let Some(x) = played.pop() {
                            board.set(x, None);
                        }
                    }
                }
                6 => {
                    played.iter().for_each(|&x| board.set(x, None));
                    played.clear();
                }
                _ => {}
            }
            boards.push((board.clone(), op % 8 == 7));
        }
        boards
    }

    fn config(game: Game, max_nodes: Option<u64>) -> Config {
        Config {
            depth: 4 * game.p() as u32 * 2,
            max_nodes,
            proof: true,
            ..Config::default()
        }
    }

    /// One solver asked about a walk of boards (a search stopped by its node limit among
    /// them) answers each board as a solver that never searched before.
    fn kept_model<M: Model>(game: Game, steps: &[(u8, u8, u8)]) -> Result<(), TestCaseError> {
        let stop = AtomicBool::new(false);
        let mut kept = Solver::<M>::new(config(game, None));
        for (board, limited) in walk(game, steps) {
            let config = || config(game, limited.then_some(20));
            kept.set_config(config());
            for a in [Color::Black, Color::White] {
                let mut fresh = Solver::<M>::new(config());
                let (k, f) = (
                    kept.first_win(&board, a, &stop),
                    fresh.first_win(&board, a, &stop),
                );
                prop_assert_eq!(answer(&k), answer(&f));
                let mut fresh = Solver::<M>::new(config());
                let (k, f) = (
                    kept.solve_for(&board, a, &stop),
                    fresh.solve_for(&board, a, &stop),
                );
                prop_assert_eq!(answer(&k), answer(&f));
            }
        }
        Ok(())
    }

    /// Solvers whose tables keep what earlier searches proved — one for each attacker, and
    /// one for both in turn (its table forgotten at each change) — answer a walk of boards as
    /// fresh solvers do: the same outcome wherever both decide (a node limit may stop one of
    /// them and not the other: the kept table shortens searches).
    fn kept_table<M: Model>(game: Game, steps: &[(u8, u8, u8)]) -> Result<(), TestCaseError> {
        let stop = AtomicBool::new(false);
        let keeping = || {
            let mut s = Solver::<M>::new(config(game, None));
            s.keep_table(true);
            s
        };
        let (mut by_side, mut both) = ([keeping(), keeping()], keeping());
        for (board, limited) in walk(game, steps) {
            let config = || config(game, limited.then_some(20));
            for a in [Color::Black, Color::White] {
                let fresh = Solver::<M>::new(config())
                    .first_win(&board, a, &stop)
                    .outcome;
                for s in [&mut by_side[a.index()], &mut both] {
                    s.set_config(config());
                    let kept = s.first_win(&board, a, &stop).outcome;
                    let decided = |o| o != Outcome::Unknown;
                    if decided(kept) && decided(fresh) {
                        prop_assert_eq!(kept, fresh, "{:?} attacking", a);
                    }
                    prop_assert!(limited || decided(kept));
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn a_kept_model_searches_as_a_fresh_one(
            steps in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..60),
        ) {
            kept_model::<Cpbim>(Game::CONNECT6, &steps)?;
            kept_model::<Cpbim5>(Game::GOMOKU, &steps)?;
            kept_model::<Cpbim5>(Game::RENJU, &steps)?;
        }

        #[test]
        fn a_kept_table_answers_as_a_fresh_one(
            steps in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..60),
        ) {
            kept_table::<Cpbim>(Game::CONNECT6, &steps)?;
            kept_table::<Cpbim5>(Game::GOMOKU, &steps)?;
            kept_table::<Cpbim5>(Game::RENJU, &steps)?;
        }
    }
}
