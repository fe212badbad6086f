//! The connection-based position (Definition 30) and the three models built on it: CPBIM
//! (knowledge base + delta stack), IU (classifier + delta stack) and CPBM (knowledge base,
//! rebuilt from the board after every change).
//!
//! A line of the board holds, per colour, at most γ(n,k) = ⌊(n+1)/(k+1)⌋ connections (Theorem
//! 4), each `(from, |c|, f(c))` — the paper's `Position[color][line][uc]` — together with what is
//! derived from it: its type, its threat count and the masks of empty points lying in windows
//! with enough of its stones to matter to the search (`Level`).
//!
//! The models are generic over k, γ and the number of line slots (compile-time constants, so
//! Connect6's windows of six and two slots per line compile to what they were when those numbers
//! were written in) and over where types come from ([`TypeSource`]); the board size, p and the
//! rule are the game's, at run time (`docs/design/games.md`).

mod line;
mod rebuilt;
mod source;
mod state;

pub use line::{level_stones, line_connections, Conn, Connection, LineState};
pub use rebuilt::{Cpbm, Cpbm5, Rebuilt};
pub use source::{kind_of, Classifier, GameClassifier, GameKb, Kind, KnowledgeBase, TypeSource};
use state::{check_rows, place, ConnState};

use super::{Level, Model, Threat, TypeCounts};
use crate::board::Board;
use crate::geom::{Color, Dir, Point, PointSet};
use crate::kb::{Composite, ConnType};
use crate::zobrist;

/// What one make changed: `Deta[ply]` of the paper.
#[derive(Clone)]
struct Frame<const G: usize> {
    point: Point,
    zobrist: u64,
    threat_lines: [u128; 2],
    n: u8,
    saved: [(u8, LineState<G>); 4],
}

/// The connection-based position with incremental updating: a stone rewrites only the lines
/// through it (≤ 12 connections), after saving their old values on the delta stack; unmake
/// copies them back.
pub struct Incremental<S: TypeSource, const K: u32, const G: usize, const L: usize> {
    board: Board,
    state: ConnState<K, G, L>,
    src: S,
    zobrist: u64,
    /// `Deta[ply]`: frames `0..ply` are live; later ones are kept allocated for reuse.
    deta: Vec<Frame<G>>,
    ply: usize,
}

/// The paper's CPBIM for Connect6.
pub type Cpbim = Incremental<KnowledgeBase, 6, 2, 92>;

/// The paper's IU for Connect6: incremental updating via the delta stack, types from the
/// classifier at update time (connection types) and at query time (point types) — no knowledge
/// base.
pub type Iu = Incremental<Classifier, 6, 2, 92>;

/// CPBIM for the games of five on boards up to 16×16 (Gomoku, standard Gomoku, Renju).
pub type Cpbim5 = Incremental<GameKb, 5, 2, 78>;
/// CPBIM for the other games with k = 4 (boards up to 20×20).
pub type CpbimK4 = Incremental<GameKb, 4, 4, 106>;
/// CPBIM for the other games with k = 5 (boards 17×17 to 20×20).
pub type CpbimK5 = Incremental<GameKb, 5, 3, 102>;
/// CPBIM for the other games with k = 6.
pub type CpbimK6 = Incremental<GameKb, 6, 3, 98>;
/// CPBIM for the games with k = 7.
pub type CpbimK7 = Incremental<GameKb, 7, 2, 94>;
/// CPBIM for the games with k = 8.
pub type CpbimK8 = Incremental<GameKb, 8, 2, 90>;
/// IU for the games of five on boards up to 16×16.
pub type Iu5 = Incremental<GameClassifier, 5, 2, 78>;

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Incremental<S, K, G, L> {
    /// The connections of line `l` (Definition 30's `Position[·][l][·]`).
    pub fn line(&self, l: usize) -> &LineState<G> {
        &self.state.lines[l]
    }

    /// Number of stones on the delta stack (the current ply).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Bytes of the position's state (board, lines, threat sets, key), delta stack excluded.
    pub const STATE_BYTES: usize = std::mem::size_of::<Board>()
        + std::mem::size_of::<[LineState<G>; L]>()
        + std::mem::size_of::<[u128; 2]>()
        + std::mem::size_of::<u64>();

    /// Bytes one entry `Deta[ply]` of the delta stack takes.
    pub const FRAME_BYTES: usize = std::mem::size_of::<Frame<G>>();
}

// The position's state (shared tables excluded) fits in 64 KB: checked at compile time.
const _: () = assert!(Cpbim::STATE_BYTES <= 64 * 1024);
const _: () = assert!(CpbimK4::STATE_BYTES <= 64 * 1024);

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Model
    for Incremental<S, K, G, L>
{
    const NAME: &'static str = S::INCREMENTAL;

    fn from_board(board: &Board) -> Self {
        check_rows::<K>(Self::NAME, board);
        let src = S::for_game(board.game());
        Incremental {
            board: board.clone(),
            state: ConnState::build(&src, board),
            src,
            zobrist: zobrist::board_key(board),
            // Room for 64 stones: most searches go no deeper, and a full board's frames
            // (166 KB in Connect6) were a fresh mapping of memory for every search.
            deta: Vec::with_capacity(64),
            ply: 0,
        }
    }

    fn rebuild(&mut self, board: &Board) {
        check_rows::<K>(Self::NAME, board);
        let same_game = self.board.game() == board.game();
        self.src = S::for_game(board.game());
        self.board.clone_from(board);
        self.state.rebuild(&self.src, board, same_game);
        self.zobrist = zobrist::board_key(board);
        // The frames stay allocated for the next search.
        self.ply = 0;
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn make(&mut self, p: Point, c: Color) {
        debug_assert!(self.board.is_empty(p), "make on occupied {p}");
        if self.ply == self.deta.len() {
            self.deta.push(Frame {
                point: p,
                zobrist: 0,
                threat_lines: [0; 2],
                n: 0,
                saved: [(0, LineState::default()); 4],
            });
        }
        let frame = &mut self.deta[self.ply];
        self.ply += 1;
        frame.point = p;
        frame.zobrist = self.zobrist;
        frame.threat_lines = self.state.threat_lines;
        frame.n = 0;
        let slots = self.state.geo.slots[p.index()];
        for slot in slots.iter().flatten() {
            let l = slot.line as usize;
            frame.saved[frame.n as usize] = (slot.line, self.state.lines[l]);
            frame.n += 1;
            place::<S, K, G>(
                &self.src,
                &mut self.state.lines[l],
                slot.offset as u32,
                c.index(),
            );
            self.state.mark_threats(l);
        }
        #[cfg(debug_assertions)]
        check_effect_bounds(frame, &self.state);
        self.board.set(p, Some(c));
        self.zobrist ^= zobrist::key(c, p);
    }

    fn unmake(&mut self) {
        assert!(self.ply > 0, "unmake without make");
        self.ply -= 1;
        let frame = &self.deta[self.ply];
        for &(l, ref st) in frame.saved[..frame.n as usize].iter().rev() {
            self.state.lines[l as usize] = *st;
        }
        self.state.threat_lines = frame.threat_lines;
        self.zobrist = frame.zobrist;
        self.board.set(frame.point, None);
    }

    fn zobrist(&self) -> u64 {
        self.zobrist
    }

    fn has_win(&self, c: Color) -> bool {
        self.state.has_win(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state.live_windows(&self.src, c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state.thn(&self.src, c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state.blockers(c)
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        self.state.candidates(c, level)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.board.is_empty(p));
        self.state.threats_if_played(&self.src, p, None, c, dir)
    }

    fn thn_if_played(&mut self, p: Point, c: Color) -> u8 {
        debug_assert!(self.board.is_empty(p));
        self.state.thn_if_played(&self.src, p, c)
    }

    fn threats_if_played_with(&mut self, p: Point, also: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.board.is_empty(p) && self.board.is_empty(also) && p != also);
        self.state
            .threats_if_played(&self.src, p, Some(also), c, dir)
    }

    fn candidates_if_played(
        &mut self,
        p: Point,
        c: Color,
        level: Level,
        now: PointSet,
    ) -> PointSet {
        debug_assert!(level != Level::Live && self.board.is_empty(p));
        self.state.candidates_if_played(&self.src, p, c, level, now)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state.point_type(&self.src, &self.board, p, c, dir)
    }

    fn composite(&self, p: Point, c: Color) -> Composite {
        self.src
            .composite(Dir::ALL.map(|d| self.point_type(p, c, d)))
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        self.state.type_counts(c)
    }
}

/// What one stone changed (paper §7.2): Definition 30 slots whose value changed, and the points
/// covered by those connections before or after. The paper bounds them by 12 and 4n − 3 (73 on
/// 19×19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Connections (slots `Position[color][line][uc]`) whose value changed.
    pub connections: usize,
    /// Points of the changed connections, old or new.
    pub points: usize,
}

fn effect<const K: u32, const G: usize, const L: usize>(
    frame: &Frame<G>,
    state: &ConnState<K, G, L>,
) -> Effect {
    let mut connections = 0;
    let mut points = PointSet::EMPTY;
    for &(l, ref old) in &frame.saved[..frame.n as usize] {
        let new = &state.lines[l as usize];
        let line = &state.geo.lines[l as usize];
        for c in 0..2 {
            for k in 0..G {
                let (a, b) = (&old.conns[c][k], &new.conns[c][k]);
                if a != b {
                    connections += 1;
                    for cn in [a, b] {
                        for i in cn.from..cn.from + cn.len {
                            points.insert(line.points[i as usize]);
                        }
                    }
                }
            }
        }
    }
    Effect {
        connections,
        points: points.len(),
    }
}

/// Debug check of the paper's effect bounds after every make.
#[cfg(debug_assertions)]
fn check_effect_bounds<const K: u32, const G: usize, const L: usize>(
    frame: &Frame<G>,
    state: &ConnState<K, G, L>,
) {
    let e = effect(frame, state);
    assert!(
        e.connections <= 4 * (G + 1),
        "a stone changed {} connections",
        e.connections
    );
    let side = state
        .geo
        .lines
        .iter()
        .map(|l| l.len as usize)
        .max()
        .unwrap_or(0);
    let most = 4 * side - 3;
    assert!(e.points <= most, "a stone touched {} points", e.points);
}

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Incremental<S, K, G, L> {
    /// What the last make changed (`None` at ply 0).
    pub fn last_effect(&self) -> Option<Effect> {
        self.ply
            .checked_sub(1)
            .map(|top| effect(&self.deta[top], &self.state))
    }

    /// Does the incremental state equal a fresh build from the board (tests)?
    pub fn matches_rebuild(&self) -> bool {
        let fresh = ConnState::<K, G, L>::build(&self.src, &self.board);
        fresh.lines == self.state.lines
            && fresh.threat_lines == self.state.threat_lines
            && self.zobrist == zobrist::board_key(&self.board)
    }
}
