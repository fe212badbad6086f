//! CPBM: the connection-based position rebuilt from the board after every change.

use super::source::{GameKb, KnowledgeBase, TypeSource};
use super::state::{check_rows, ConnState};
use crate::board::Board;
use crate::geom::{Color, Dir, Point, PointSet};
use crate::kb::{Composite, ConnType};
use crate::model::Played;
use crate::model::{Level, Model, Threat, TypeCounts};
use std::cell::{Cell, RefCell};

/// The connection-based position without incremental updating: make and unmake change only the
/// board; the whole connection-based position (every line, both colours) is rebuilt from the
/// board before the first query after a change. No delta stack.
pub struct Rebuilt<S: TypeSource, const K: u32, const G: usize, const L: usize> {
    played: Played,
    src: S,
    state: RefCell<ConnState<K, G, L>>,
    /// The board changed since `state` was built.
    stale: Cell<bool>,
}

/// The paper's CPBM for Connect6: the connection-based position with knowledge-base look-ups,
/// rebuilt without the delta stack.
pub type Cpbm = Rebuilt<KnowledgeBase, 6, 2, 92>;
/// CPBM for the games of five on boards up to 16×16.
pub type Cpbm5 = Rebuilt<GameKb, 5, 2, 78>;

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Rebuilt<S, K, G, L> {
    fn state(&self) -> std::cell::Ref<'_, ConnState<K, G, L>> {
        if self.stale.get() {
            *self.state.borrow_mut() = ConnState::build(&self.src, &self.played.board);
            self.stale.set(false);
        }
        self.state.borrow()
    }
}

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Model for Rebuilt<S, K, G, L> {
    const NAME: &'static str = S::REBUILT;

    fn from_board(board: &Board) -> Self {
        check_rows::<K>(Self::NAME, board);
        let src = S::for_game(board.game());
        Rebuilt {
            played: Played::new(board),
            state: RefCell::new(ConnState::build(&src, board)),
            src,
            stale: Cell::new(false),
        }
    }

    fn board(&self) -> &Board {
        &self.played.board
    }

    fn make(&mut self, p: Point, c: Color) {
        self.played.make(p, c);
        self.stale.set(true);
    }

    fn unmake(&mut self) {
        self.played.unmake();
        self.stale.set(true);
    }

    fn zobrist(&self) -> u64 {
        self.played.zobrist
    }

    fn has_win(&self, c: Color) -> bool {
        self.state().has_win(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state().live_windows(&self.src, c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state().thn(&self.src, c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state().blockers(c)
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        self.state().candidates(c, level)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.played.board.is_empty(p));
        self.state().threats_if_played(&self.src, p, None, c, dir)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state()
            .point_type(&self.src, &self.played.board, p, c, dir)
    }

    fn composite(&self, p: Point, c: Color) -> Composite {
        self.src
            .composite(Dir::ALL.map(|d| self.point_type(p, c, d)))
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        self.state().type_counts(c)
    }
}
