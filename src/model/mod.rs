//! Position models: one interface, four implementations (paper §6–§8; `README.md`, "Position
//! models"), for every game (`docs/design/games.md`): Raw reads the game at run time; the
//! connection-based models are compiled per [`Kind`] (k, connection slots, line slots).
//!
//! | model | state | types from | after a stone |
//! |---|---|---|---|
//! | [`Raw`] | the intersection array only | the classifier, at query time, on line scans | nothing to update |
//! | [`Iu`] | connections per line (Definition 30) | the classifier, when a connection changes | the ≤ 4 lines through the stone; old values saved on the delta stack |
//! | [`Cpbm`] | connections per line (Definition 30) | the knowledge base | nothing but the board; the whole position (92 lines) is rebuilt from it before the next query (no delta stack) |
//! | [`Cpbim`] | connections per line (Definition 30) | the knowledge base | the ≤ 4 lines through the stone; old values saved on `Deta[ply]`, copied back by unmake |
//!
//! The double-threat search is generic over [`Model`] and asks only what this trait answers;
//! every model answers every query identically (the tests check it at every step of random
//! games), so one search visits the same tree on each.

mod connections;
mod raw;

pub use connections::{
    kind_of, level_stones, line_connections, Classifier, Conn, Connection, Cpbim, Cpbim5, CpbimK4,
    CpbimK5, CpbimK6, CpbimK7, CpbimK8, Cpbm, Cpbm5, Effect, GameClassifier, GameKb, Incremental,
    Iu, Iu5, Kind, KnowledgeBase, LineState, Rebuilt, TypeSource,
};
pub use raw::Raw;

/// Which windows a candidate query asks for, by the stones of the attacker they hold: in a game
/// of k in a row and p stones per move, `Attack` windows hold at least k − 2p (the candidate
/// set R: two in Connect6), `NearLive` k − p − 1 (three), `Live` k − p and would win once
/// filled (the live windows: four in Connect6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Level {
    /// Windows with at least k − 2p stones.
    Attack = 0,
    /// Windows with at least k − p − 1 stones.
    NearLive = 1,
    /// Live windows: at least k − p stones, winning once filled.
    Live = 2,
}

use crate::board::Board;
use crate::game::Game;
use crate::geom::{Color, Dir, Point, PointSet};
use crate::kb::{Composite, ConnType};

/// A live window of a colour — k consecutive points of a line holding at least k − p of its
/// stones and none of the opponent's, that would win once filled (six points with four stones
/// in Connect6) — given by its empty points (at most p; none for a winning row).
///
/// Threats order by their points, so a sorted list is canonical.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Threat {
    /// Empty points, ascending, padded with [`Threat::NONE`].
    pts: [u16; 2],
}

impl Threat {
    const NONE: u16 = u16::MAX;

    /// The threat whose window has the empty points `empties` (at most two).
    pub fn new(empties: &[Point]) -> Threat {
        assert!(
            empties.len() <= 2,
            "a live window has at most two empty points"
        );
        let mut pts = [Self::NONE; 2];
        for (i, p) in empties.iter().enumerate() {
            pts[i] = p.index() as u16;
        }
        pts.sort_unstable();
        Threat { pts }
    }

    /// The empty points of the window.
    #[inline]
    pub fn points(self) -> impl Iterator<Item = Point> {
        self.pts
            .into_iter()
            .filter(|&p| p != Self::NONE)
            .map(|p| Point::from_index(p as usize).expect("valid point"))
    }

    /// Does the window have `p` among its empty points?
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        self.pts[0] == p.index() as u16 || self.pts[1] == p.index() as u16
    }

    /// A window already holding six stones: nothing can block it.
    #[inline]
    pub fn is_six(self) -> bool {
        self.pts[0] == Self::NONE
    }
}

/// `thn`: the fewest points that meet every window of `threats`, capped at 3 (a six counts as
/// unblockable: 3). Any blocking set must use a point of the first window, so two passes over
/// the list decide 0, 1, 2 or "3 or more".
pub fn cover_number(threats: &[Threat]) -> u8 {
    let Some(&first) = threats.first() else {
        return 0;
    };
    if threats.iter().any(|t| t.is_six()) {
        return 3;
    }
    let mut best = 3;
    for x in first.points() {
        match common_points(threats, x) {
            None => return 1,
            Some(common) if common.iter().any(Option::is_some) => best = 2,
            Some(_) => {}
        }
    }
    best
}

/// The points shared by every threat that does not contain `x` (`None` if every threat
/// contains `x`).
pub(crate) fn common_points(threats: &[Threat], x: Point) -> Option<[Option<Point>; 2]> {
    let mut common: Option<[Option<Point>; 2]> = None;
    for t in threats.iter().filter(|t| !t.contains(x)) {
        let mut pts = t.points();
        let own = [pts.next(), pts.next()];
        common = Some(match common {
            None => own,
            Some(c) => c.map(|p| p.filter(|&p| t.contains(p))),
        });
    }
    common
}

/// Every point that meets all of `threats` (which must need exactly one: see
/// [`cover_number`]), in ascending order (none without threats). An iterator, not a list: the
/// search asks at every D-node.
pub fn blocking_points(threats: &[Threat]) -> impl Iterator<Item = Point> + '_ {
    threats
        .first()
        .into_iter()
        .flat_map(|first| first.points())
        .filter(|&x| threats.iter().all(|t| t.contains(x)))
}

/// Every pair of points that meets all of `threats` (which must need exactly two: see
/// [`cover_number`]), each pair ascending, the list sorted.
pub fn blocking_pairs(threats: &[Threat]) -> Vec<(Point, Point)> {
    let mut pairs = Vec::new();
    let Some(&first) = threats.first() else {
        return pairs;
    };
    for x in first.points() {
        if let Some(common) = common_points(threats, x) {
            for y in common.into_iter().flatten() {
                pairs.push(if x < y { (x, y) } else { (y, x) });
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// A position model: a board with make/unmake of single stones and the queries the
/// double-threat search asks. Every query is exact; the answer never depends on the model.
pub trait Model: Sized + Send {
    /// Short name: `raw`, `iu`, `cpbm`, `cpbim`.
    const NAME: &'static str;

    /// The model of `board`.
    fn from_board(board: &Board) -> Self;

    /// Make this model the model of `board` (any board, in whatever state this one is):
    /// what [`Model::from_board`] builds, reusing this one's memory where a model can.
    fn rebuild(&mut self, board: &Board) {
        *self = Self::from_board(board);
    }

    /// The plain board.
    fn board(&self) -> &Board;

    /// The game.
    fn game(&self) -> &Game {
        self.board().game()
    }

    /// Put a stone of `c` on the empty point `p`.
    fn make(&mut self, p: Point, c: Color);

    /// Take back the last stone made (moves are undone last-in, first-out).
    fn unmake(&mut self);

    /// Zobrist key of the stones on the board (equal boards, equal keys).
    fn zobrist(&self) -> u64;

    /// Does `c` have a winning row (six or more in Connect6; exactly five for Renju's black)?
    fn has_win(&self, c: Color) -> bool;

    /// Every live window of `c` (at least k − p stones of `c`, none of the opponent, winning
    /// once filled), as [`Threat`]s, sorted, duplicates (windows with the same empty points)
    /// removed.
    fn live_windows(&self, c: Color, out: &mut Vec<Threat>);

    /// `thn(c)`: the fewest opponent stones that hit every live window of `c`, capped at 3.
    fn thn(&self, c: Color) -> u8 {
        let mut t = Vec::new();
        self.live_windows(c, &mut t);
        cover_number(&t)
    }

    /// `thn(c)` once `c` plays the empty point `p`: [`Model::make`], [`Model::thn`] and
    /// [`Model::unmake`], or the same number read without playing the stone.
    fn thn_if_played(&mut self, p: Point, c: Color) -> u8 {
        self.make(p, c);
        let t = self.thn(c);
        self.unmake();
        t
    }

    /// [`Model::threats_if_played`] once `c` has played `also` too: `thn` of the connection of
    /// `c` through the empty point `p` in direction `dir` once `c` plays `also` and `p` (the
    /// empty point `also` counts only where it lies in that connection).
    fn threats_if_played_with(&mut self, p: Point, also: Point, c: Color, dir: Dir) -> u8 {
        self.make(also, c);
        let t = self.threats_if_played(p, c, dir);
        self.unmake();
        t
    }

    /// [`Model::candidates`] of `level` once `c` plays the empty point `p`, given `now`, the
    /// candidates of `level` before it. Windows only gain stones of `c`, so every candidate
    /// of [`Level::Attack`] and [`Level::NearLive`] stays one but `p`; a model may read the new
    /// ones from the lines through `p` alone. Not for [`Level::Live`] (a window full enough
    /// stops being live in the games of exactly k).
    fn candidates_if_played(
        &mut self,
        p: Point,
        c: Color,
        level: Level,
        now: PointSet,
    ) -> PointSet {
        debug_assert!(level != Level::Live);
        let _ = now;
        self.make(p, c);
        let set = self.candidates(c, level);
        self.unmake();
        set
    }

    /// The empty points of the live windows of `c`: where the opponent must block.
    fn blockers(&self, c: Color) -> PointSet {
        let mut t = Vec::new();
        self.live_windows(c, &mut t);
        t.iter().flat_map(|t| t.points()).collect()
    }

    /// Empty points of the windows of `level` of `c` (holding none of the opponent's stones).
    /// `Level::Attack` is the attacker's part of the candidate set R of the search
    /// (`docs/search.md`).
    fn candidates(&self, c: Color, level: Level) -> PointSet;

    /// `thn` (capped at 3; 3 for a win) of the connection of `c` through the empty point `p` in
    /// direction `dir` once `c` plays at `p`; 0 if no connection of `c` passes through `p`.
    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8;

    /// Type of the empty point `p` in the connection of `c` through it in direction `dir`
    /// (Definition 26); `O` if `p` holds a stone or no connection of `c` passes through it.
    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType;

    /// Composite class of the empty point `p` for `c` (§5.2).
    fn composite(&self, p: Point, c: Color) -> Composite;

    /// The position split into connections: how many connections of `c` holding at least one
    /// of its stones have each type (index: the type's code). The engine weighs them (the
    /// paper's abstract valuation).
    fn type_counts(&self, c: Color) -> TypeCounts;
}

/// Connections per type code ([`ConnType`] as `usize`), of one colour.
pub type TypeCounts = [u16; 12];

/// The candidate set R of the search (`docs/search.md`) for attacker `a`: empty points of windows with at least two
/// of `a`'s stones and no defender stone, and empty points of the defender's live windows.
pub fn candidate_set<M: Model>(m: &M, a: Color) -> PointSet {
    m.candidates(a, Level::Attack)
        .union(&m.blockers(a.opponent()))
}

/// A board with its Zobrist key and the stones played on it: the whole state of the models that
/// keep nothing else up to date stone by stone (Raw, and CPBM between rebuilds).
#[derive(Clone)]
pub(crate) struct Played {
    /// The board.
    pub(crate) board: Board,
    /// Its Zobrist key.
    pub(crate) zobrist: u64,
    history: Vec<Point>,
}

impl Played {
    pub(crate) fn new(board: &Board) -> Self {
        Played {
            board: board.clone(),
            zobrist: crate::zobrist::board_key(board),
            history: Vec::with_capacity(crate::geom::MAX_POINTS),
        }
    }

    pub(crate) fn make(&mut self, p: Point, c: Color) {
        debug_assert!(self.board.is_empty(p), "make on occupied {p}");
        self.board.set(p, Some(c));
        self.zobrist ^= crate::zobrist::key(c, p);
        self.history.push(p);
    }

    pub(crate) fn unmake(&mut self) {
        let p = self.history.pop().expect("unmake without make");
        let c = self.board.get(p).expect("a stone to take back");
        self.board.set(p, None);
        self.zobrist ^= crate::zobrist::key(c, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn t(s: &str) -> Threat {
        let pts: Vec<Point> = s.split_whitespace().map(p).collect();
        Threat::new(&pts)
    }

    #[test]
    fn cover_numbers() {
        assert_eq!(cover_number(&[]), 0);
        assert_eq!(cover_number(&[t("A1 A2")]), 1);
        assert_eq!(cover_number(&[t("A1 A2"), t("A2 A3")]), 1);
        assert_eq!(cover_number(&[t("A1 A2"), t("A3 A4")]), 2);
        assert_eq!(cover_number(&[t("A1"), t("A3"), t("B5")]), 3);
        assert_eq!(cover_number(&[t("A1 A2"), t("A3 A4"), t("A2 A4")]), 2);
        assert_eq!(cover_number(&[t("A1 A2"), t("A3 A4"), t("B1 B2")]), 3);
        assert_eq!(cover_number(&[t("")]), 3);
    }

    #[test]
    fn blocking_pair_lists() {
        let pairs = blocking_pairs(&[t("A1 A2"), t("A3 A4")]);
        assert_eq!(pairs.len(), 4);
        let pairs = blocking_pairs(&[t("A1 A2"), t("A3 A4"), t("A2 A4")]);
        // A1 meets the first window and A4 the other two; A2 meets the first and third.
        assert_eq!(
            pairs,
            vec![(p("A1"), p("A4")), (p("A2"), p("A3")), (p("A2"), p("A4"))]
        );
    }
}
