//! The double-threat (threat-space) search (paper §8.1), described for users in `docs/search.md`.
//!
//! The attacker A is the side to move, D the defender.
//!
//! * **A-node**: if A has a live window, A wins here. Otherwise A plays two stones, both from
//!   R (empty points of windows with ≥ 2 A stones and no D stone, and empty points of D's live
//!   windows), such that afterwards D has no live window and `thn(A) ≥ 2`.
//! * **D-node**: if `thn(A) ≥ 3`, A wins. Otherwise D's replies are *every* pair of points that
//!   hits all of A's live windows; the node is a win only if every reply leads to a win.
//!
//! Depth counts stones on the path (one round = 4 plies). With a budget of `b` plies a node's
//! status is a function of the position and `b` alone:
//!
//! * an A-node is **won** if some attack leads to a won D-node; **exhausted** if it has no
//!   attack or every attack's D-node is exhausted; else **cut**. With `b < 4` no attack can be
//!   followed: the node is cut if an attack exists, exhausted if none does;
//! * a D-node is won if `thn(A) ≥ 3` or every reply's A-node (budget `b − 4`) is won;
//!   **exhausted** if some reply's A-node is exhausted; else cut.
//!
//! Exhausted means "no double-threat win at any depth". Iterative deepening by 4 plies reports
//! the first budget at which the root is won (`win`, the smallest depth) or exhausted (`none`),
//! or `nowin` when the depth limit is reached first.
//!
//! The two questions are searched separately, each with its own early exits: "won within b?"
//! (an attack that wins ends an A-node; a reply that holds ends a D-node) and "exhausted within
//! b?" (an attack that is not exhausted ends an A-node; an exhausted reply ends a D-node).
//! Deciding both in one pass would force every D-node to keep searching after its first
//! refutation, which costs an order of magnitude more nodes on deep wins. The transposition
//! table stores only facts of these functions ([`tt`]), and move ordering only changes the order
//! in which the same sets are examined, so the result and depth never depend on the model, the
//! ordering or the table.

pub mod proof;
pub mod tt;

use crate::board::{Board, Position};
use crate::geom::{Color, Dir, Point, PointSet, MAX_POINTS as POINTS};
use crate::model::{
    blocking_pairs, blocking_points, common_points, cover_number, Level, Model, Threat,
};
use crate::renju;
use proof::{Defense, ProofNode};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Question, TranspositionTable};

/// What `solve` decided about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side to move has a double-threat win; `depth` is the smallest.
    Win,
    /// No double-threat win at any depth (the tree is exhausted).
    None,
    /// No double-threat win within the depth limit; deeper search was cut.
    Nowin,
    /// A node or time limit (or a stop request) ended the search first.
    Unknown,
}

impl Outcome {
    /// `win`, `none`, `nowin`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::None => "none",
            Outcome::Nowin => "nowin",
            Outcome::Unknown => "unknown",
        }
    }
}

/// Which move-ordering heuristics are on. Off, candidates are tried in point order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ordering {
    /// Try the transposition table's best pair first.
    pub tt_move: bool,
    /// Killer pairs per ply.
    pub killers: bool,
    /// History heuristic per colour and point.
    pub history: bool,
    /// Composite classes of the points (§5.2).
    pub composite: bool,
}

impl Ordering {
    /// Every heuristic on (the default).
    pub const ALL: Ordering = Ordering {
        tt_move: true,
        killers: true,
        history: true,
        composite: true,
    };
    /// Plain ordering: candidates in point order.
    pub const PLAIN: Ordering = Ordering {
        tt_move: false,
        killers: false,
        history: false,
        composite: false,
    };
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering::ALL
    }
}

/// Limits and options of a solve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Deepest budget in plies (multiples of 4; default 28).
    pub depth: u32,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this long.
    pub max_time: Option<Duration>,
    /// Transposition-table entries (default 2^21; 0 disables the table).
    pub tt_entries: usize,
    /// Move-ordering heuristics.
    pub ordering: Ordering,
    /// Build the proof tree of a win.
    pub proof: bool,
    /// The complete attack rule of games of two stones per move (`docs/search.md`): when one
    /// stone of R alone meets the attack conditions, the other may be any empty point. False:
    /// the paper's canonical rule, both stones from R (the test sets and the benchmark).
    pub complete: bool,
    /// Where the searches publish how far they are, for a caller to show while they run
    /// (several solvers may share one).
    pub progress: Option<Arc<SearchProgress>>,
}

/// Progress of running searches, read by another thread: the nodes searched so far (the sum
/// over every search given this object) and the depth budget of the latest iteration begun.
/// A search adds its nodes every [`PUBLISH_EVERY`] nodes and when it ends, so reading costs
/// the search nothing on its hot path.
#[derive(Debug, Default)]
pub struct SearchProgress {
    nodes: AtomicU64,
    depth: AtomicU32,
}

/// How many nodes a search counts between two publications of its progress (and two checks
/// of its limits).
pub const PUBLISH_EVERY: u64 = 1024;

impl SearchProgress {
    /// A fresh counter (no nodes, depth 0).
    pub fn new() -> Arc<SearchProgress> {
        Arc::new(SearchProgress::default())
    }

    /// Nodes searched so far (up to [`PUBLISH_EVERY`] behind each running search).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(AtomicOrdering::Relaxed)
    }

    /// The budget in plies of the iteration most recently begun (of any search sharing this).
    pub fn depth(&self) -> u32 {
        self.depth.load(AtomicOrdering::Relaxed)
    }
}

/// The default depth limit of `cpbim solve`.
pub const DEFAULT_DEPTH: u32 = 28;

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: DEFAULT_DEPTH,
            max_nodes: None,
            max_time: None,
            tt_entries: tt::DEFAULT_ENTRIES,
            ordering: Ordering::ALL,
            proof: false,
            complete: true,
            progress: None,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The result.
    pub outcome: Outcome,
    /// For `win` the smallest winning depth, for `none` the depth at which the exhausted tree
    /// proved it, for `nowin` the depth limit, for `unknown` the deepest budget completed.
    pub depth: u32,
    /// For `win`: attack, the defence that holds out longest, attack, …, ending with the stones
    /// that complete six (or the last attack, when no defence exists).
    pub line: Vec<Vec<Point>>,
    /// Nodes: the root, every attacker pair examined as a candidate attack (its `thn` computed,
    /// whether by playing it or in place), every attack searched and every defence played.
    pub nodes: u64,
    /// Wall time of the search (proof building excluded).
    pub time: Duration,
    /// The proof tree, when asked for and the result is `win`.
    pub proof: Option<ProofNode>,
}

impl Solution {
    /// The answer for a position that was not searched (stopped before it started).
    pub fn unknown() -> Solution {
        Solution {
            outcome: Outcome::Unknown,
            depth: 0,
            line: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            proof: None,
        }
    }
}

/// An attack: the attacker's stones — two, `p < q`, or one, `p == q` (games of one stone per
/// move) — and `thn(A)` after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Attack {
    p: Point,
    q: Point,
    thn: u8,
}

/// A reusable solver for one model: the transposition table and heuristics tables survive
/// between solves (cleared logically at each one), so a batch does not reallocate them.
pub struct Solver<M: Model> {
    config: Config,
    tt: TranspositionTable,
    _model: std::marker::PhantomData<fn() -> M>,
}

impl<M: Model> Solver<M> {
    /// A solver with `config`.
    pub fn new(config: Config) -> Self {
        Solver {
            tt: TranspositionTable::new(config.tt_entries),
            config,
            _model: std::marker::PhantomData,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Solve with `config` from now on; the table is reallocated only when its size changes
    /// (answers never depend on the table).
    pub fn set_config(&mut self, config: Config) {
        if config.tt_entries != self.config.tt_entries {
            self.tt = TranspositionTable::new(config.tt_entries);
        }
        self.config = config;
    }

    /// Solve `pos` for its side to move. `stop` ends the search early when set (Ctrl-C).
    pub fn solve(&mut self, pos: &Position, stop: &AtomicBool) -> Solution {
        self.solve_for(pos.board(), pos.to_move(), stop)
    }

    fn searcher<'s>(
        tt: &'s mut TranspositionTable,
        config: &'s Config,
        board: &Board,
        attacker: Color,
        stop: &'s AtomicBool,
        start: Instant,
    ) -> Searcher<'s, M> {
        let p = board.game().p();
        Searcher {
            m: M::from_board(board),
            a: attacker,
            d: attacker.opponent(),
            p: p as u8,
            round: 2 * p as u32,
            complete: config.complete && p == 2,
            forbidden: (
                renju::applies(board.game(), attacker),
                renju::applies(board.game(), attacker.opponent()),
            ),
            tt,
            ordering: config.ordering,
            nodes: 1,
            max_nodes: config.max_nodes.unwrap_or(u64::MAX),
            // A time beyond what the clock can count is no limit.
            deadline: config.max_time.and_then(|t| start.checked_add(t)),
            stop,
            aborted: false,
            progress: config.progress.as_deref(),
            published: 0,
            killers: vec![[None; 2]; 2 * POINTS],
            history: [[0; POINTS], [0; POINTS]],
            windows: Vec::new(),
        }
    }

    /// The plies of one round on `board` (2p) and the deepest budget the configured depth
    /// allows: the depth rounded down to whole rounds, at most [`tt::MAX_ROUNDS`] of them.
    fn limit(&self, board: &Board) -> (u32, u32) {
        let round = 2 * board.game().p() as u32;
        (
            round,
            (self.config.depth / round).min(tt::MAX_ROUNDS) * round,
        )
    }

    /// Does `attacker` have a double-threat win on `board` within the depth limit? Cheaper than
    /// [`Solver::solve_for`] when only yes or no matters: iterative deepening with the win
    /// searches only (no exhaustion searches telling `none` from `nowin`). Returns `Win` with
    /// its smallest depth, `Nowin` (no win within the limit, exhausted or not) or `Unknown`
    /// with the deepest budget completed, and the nodes searched.
    pub fn wins_within(
        &mut self,
        board: &Board,
        attacker: Color,
        stop: &AtomicBool,
    ) -> (Outcome, u32, u64) {
        self.tt.new_search();
        let (round, limit) = self.limit(board);
        let start = Instant::now();
        let mut s = Self::searcher(&mut self.tt, &self.config, board, attacker, stop, start);
        let mut answer = (Outcome::Nowin, limit);
        if !first_move_too_small(board) {
            for budget in (0..=limit).step_by(round as usize) {
                s.begin(budget);
                match s.win_a(0, budget) {
                    Some(true) => answer = (Outcome::Win, budget),
                    Some(false) => continue,
                    None => answer = (Outcome::Unknown, budget.saturating_sub(round)),
                }
                break;
            }
        }
        s.publish();
        (answer.0, answer.1, s.nodes)
    }

    /// Solve `board` for `attacker`, whoever is to move by the stone counts: with the opponent
    /// of the side to move, this answers "what if the side to move passed?" (the threat it must
    /// answer). On the empty board nobody has a double threat (the first move is one stone).
    pub fn solve_for(&mut self, board: &Board, attacker: Color, stop: &AtomicBool) -> Solution {
        self.tt.new_search();
        let start = Instant::now();
        let (round, limit) = self.limit(board);
        let mut s = Self::searcher(&mut self.tt, &self.config, board, attacker, stop, start);
        let mut outcome = Outcome::Nowin;
        let mut depth = limit;
        let mut completed = None;
        if first_move_too_small(board) {
            outcome = Outcome::None;
            depth = 0;
        } else {
            for budget in (0..=limit).step_by(round as usize) {
                s.begin(budget);
                let answer = match s.win_a(0, budget) {
                    Some(true) => Some(Outcome::Win),
                    Some(false) => match s.ex_a(0, budget) {
                        Some(true) => Some(Outcome::None),
                        Some(false) => None,
                        None => Some(Outcome::Unknown),
                    },
                    None => Some(Outcome::Unknown),
                };
                match answer {
                    Some(Outcome::Unknown) => {
                        outcome = Outcome::Unknown;
                        depth = completed.unwrap_or(0);
                        break;
                    }
                    Some(o) => {
                        outcome = o;
                        depth = budget;
                        break;
                    }
                    None => completed = Some(budget),
                }
            }
        }
        let time = start.elapsed();
        let nodes = s.nodes;
        s.publish();
        // The line and the proof below are not the search: their nodes are not published.
        s.progress = None;
        let (line, proof) = if outcome == Outcome::Win {
            // Building the line and the proof re-searches with the warm table; limits no longer
            // apply (the win is known).
            s.max_nodes = u64::MAX;
            s.deadline = None;
            s.aborted = false;
            let never = AtomicBool::new(false);
            s.stop = &never;
            let line = s.line(depth);
            let proof = self.config.proof.then(|| s.prove(depth));
            (line, proof)
        } else {
            (Vec::new(), None)
        };
        Solution {
            outcome,
            depth,
            line,
            nodes,
            time,
            proof,
        }
    }
}

/// On the empty board of a game whose first move has fewer stones than the others (Connect6:
/// one, then two), the first move is no attack: nobody has a threat win there. (With one
/// stone per move the search itself finds no attack on an empty board.)
fn first_move_too_small(board: &Board) -> bool {
    board.stones() == 0 && board.game().q() < board.game().p()
}

/// Solve `pos` with model `M` and `config` (a one-off [`Solver`]).
pub fn solve<M: Model>(pos: &Position, config: &Config) -> Solution {
    Solver::<M>::new(config.clone()).solve(pos, &AtomicBool::new(false))
}

struct Searcher<'a, M: Model> {
    m: M,
    a: Color,
    d: Color,
    /// Stones per move: 2, or 1 (VCF).
    p: u8,
    /// Plies of one round (an attack and its defence): 2p.
    round: u32,
    /// The complete attack rule (two stones per move only).
    complete: bool,
    /// Renju: black may not play its forbidden points, as attacker (`.0`) or defender (`.1`).
    forbidden: (bool, bool),
    tt: &'a mut TranspositionTable,
    ordering: Ordering,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Where the nodes are published, and how many of them already are.
    progress: Option<&'a SearchProgress>,
    published: u64,
    /// Two killer pairs per ply.
    killers: Vec<[Option<(Point, Point)>; 2]>,
    /// History scores by colour and point.
    history: [[u32; POINTS]; 2],
    /// Scratch for live windows.
    windows: Vec<Threat>,
}

impl<M: Model> Searcher<'_, M> {
    /// Count a node; publish the progress and check the limits every [`PUBLISH_EVERY`] nodes.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (PUBLISH_EVERY - 1) == 0 {
            self.publish();
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.nodes >= self.max_nodes || self.stop.load(AtomicOrdering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
    }

    /// Add the nodes not yet published to the progress.
    fn publish(&mut self) {
        if let Some(p) = self.progress {
            p.nodes
                .fetch_add(self.nodes - self.published, AtomicOrdering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// An iteration of `budget` plies begins.
    fn begin(&self, budget: u32) {
        if let Some(p) = self.progress {
            p.depth.store(budget, AtomicOrdering::Relaxed);
        }
    }

    /// Play a move of `c`: the stones `p` and `q`, or `p` alone when `q == p`.
    #[inline]
    fn make_pair(&mut self, p: Point, q: Point, c: Color) {
        self.m.make(p, c);
        if q != p {
            self.m.make(q, c);
        }
    }

    /// Take back the move `(p, q)`.
    #[inline]
    fn unmake_pair(&mut self, p: Point, q: Point) {
        self.m.unmake();
        if q != p {
            self.m.unmake();
        }
    }

    /// Every attack of the A-node (`docs/search.md`), with `thn(A)` after it. With `first_only` it
    /// stops at the first attack; with `win_only` at the first attack leaving `thn(A) ≥ p + 1`.
    fn generate(&mut self, first_only: bool, win_only: bool, out: &mut Vec<Attack>) {
        out.clear();
        let (a, d) = (self.a, self.d);
        let mut dw = std::mem::take(&mut self.windows);
        self.m.live_windows(d, &mut dw);
        if cover_number(&dw) > self.p {
            self.windows = dw;
            return;
        }
        let blockers: PointSet = dw.iter().flat_map(|t| t.points()).collect();
        let r = self.m.candidates(a, Level::Attack).union(&blockers);
        let w0 = dw.first().copied();
        if self.p == 1 {
            // One stone: a point of R meeting every live window of D, leaving thn(A) ≥ 1.
            let firsts: PointSet = match w0 {
                None => r,
                Some(w) => w
                    .points()
                    .filter(|&x| common_points(&dw, x).is_none())
                    .collect(),
            };
            self.windows = dw;
            for x in firsts.iter() {
                self.m.make(x, a);
                self.count_node();
                let t = self.m.thn(a);
                self.m.unmake();
                if t >= 1 && !(self.forbidden.0 && renju::is_forbidden(self.m.board(), x)) {
                    out.push(Attack { p: x, q: x, thn: t });
                    if first_only || (win_only && t >= 2) {
                        return;
                    }
                }
                if self.aborted {
                    return;
                }
            }
            return;
        }
        // Two stones: with no live window of D, any two of R; else a first stone on D's first
        // window and a second that meets every window the first misses.
        let mut firsts = [(Point::CENTER, PointSet::EMPTY, false); 2];
        if let Some(w) = w0 {
            for (slot, x) in firsts.iter_mut().zip(w.points()) {
                let common = common_points(&dw, x);
                let seconds = match common {
                    None => r,
                    Some(common) => common.into_iter().flatten().collect(),
                };
                *slot = (x, seconds, common.is_none());
            }
        }
        self.windows = dw;
        match w0 {
            None => {
                for p in r.iter() {
                    if self.attacks_from(p, r, r, w0, true, first_only, win_only, out) {
                        return;
                    }
                }
            }
            Some(w) => {
                for &(p, seconds, blocks_all) in &firsts[..w.points().count()] {
                    if self.attacks_from(p, seconds, r, w0, blocks_all, first_only, win_only, out) {
                        return;
                    }
                }
            }
        }
    }

    /// The two-stone attacks whose first stone is `p` and second one of `seconds` (each
    /// unordered pair once, both in `r`), pushed onto `out`; with the complete rule, when `p`
    /// alone (`blocks_all`: it meets every live window of D) leaves thn(A) ≥ 2, also every pair
    /// of `p` and an empty point outside `r`. True when generation should stop (the first
    /// attack was asked for, a winning one with `win_only`, or the limits ended the search).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn attacks_from(
        &mut self,
        p: Point,
        seconds: PointSet,
        r: PointSet,
        w0: Option<Threat>,
        blocks_all: bool,
        first_only: bool,
        win_only: bool,
        out: &mut Vec<Attack>,
    ) -> bool {
        let a = self.a;
        self.m.make(p, a);
        let alone = self.m.thn(a);
        // If p alone leaves A no live window, every live window after the pair passes
        // through q, and windows of different directions share no empty point (they meet
        // only at q). So thn(A) after the pair is the sum over the four directions of the
        // threats of q's connection once q is played: no need to play q.
        let through_q_only = alone == 0;
        let allowed = if through_q_only {
            seconds.intersection(&self.m.candidates(a, Level::NearLive))
        } else {
            seconds
        };
        let mut done = false;
        for q in allowed.iter() {
            // Each unordered pair once.
            let dup = match w0 {
                None => q <= p,
                Some(w) => q == p || (w.contains(q) && q < p),
            };
            if dup || !r.contains(q) {
                continue;
            }
            // Every pair examined is a node, played or evaluated in place.
            self.count_node();
            let t = if through_q_only {
                Dir::ALL
                    .iter()
                    .map(|&d| self.m.threats_if_played(q, a, d))
                    .sum::<u8>()
                    .min(3)
            } else {
                self.m.make(q, a);
                let t = self.m.thn(a);
                self.m.unmake();
                t
            };
            if t >= 2 {
                out.push(Attack {
                    p: p.min(q),
                    q: p.max(q),
                    thn: t,
                });
                done = first_only || (win_only && t >= 3);
            }
            if done || self.aborted {
                break;
            }
        }
        if self.complete && blocks_all && alone >= 2 && !done && !self.aborted {
            // The complete rule: p alone is an attack, so the second stone is free. A stone
            // outside R lies in no window of A with two stones, so it adds no live window:
            // thn(A) is p's alone.
            for q in self.m.board().game().points() {
                if q == p || r.contains(q) || !self.m.board().is_empty(q) {
                    continue;
                }
                self.count_node();
                out.push(Attack {
                    p: p.min(q),
                    q: p.max(q),
                    thn: alone,
                });
                if first_only || (win_only && alone >= 3) || self.aborted {
                    done = true;
                    break;
                }
            }
        }
        self.m.unmake();
        done || self.aborted
    }

    /// Ordering score of the pair `(p, q)` for `c`; `value[x]` is the static value of point
    /// `x` (its composite classes), computed once per node.
    fn score(
        &self,
        c: Color,
        (p, q): (Point, Point),
        ply: usize,
        tt_best: Option<(Point, Point)>,
        value: &[u8; POINTS],
    ) -> u64 {
        let o = self.ordering;
        let mut s = 0u64;
        if o.tt_move && tt_best == Some((p, q)) {
            s |= 1 << 62;
        }
        if o.killers {
            let k = &self.killers[ply];
            if k[0] == Some((p, q)) {
                s |= 1 << 61;
            } else if k[1] == Some((p, q)) {
                s |= 1 << 60;
            }
        }
        if o.history {
            let h = &self.history[c.index()];
            s += ((h[p.index()] as u64 + h[q.index()] as u64).min(1 << 40)) << 8;
        }
        if o.composite {
            s += value[p.index()] as u64 + value[q.index()] as u64;
        }
        s
    }

    fn reward(&mut self, c: Color, p: Point, q: Point, ply: usize, budget: u32) {
        if self.ordering.history {
            let bonus = (budget / 4 + 1) * (budget / 4 + 1);
            let h = &mut self.history[c.index()];
            h[p.index()] = h[p.index()].saturating_add(bonus);
            h[q.index()] = h[q.index()].saturating_add(bonus);
        }
        if self.ordering.killers {
            let k = &mut self.killers[ply];
            if k[0] != Some((p, q)) {
                k[1] = k[0];
                k[0] = Some((p, q));
            }
        }
    }

    /// Order `pairs` best first (stable: ties keep point order).
    fn order(
        &self,
        c: Color,
        pairs: &mut [(Point, Point)],
        ply: usize,
        tt_best: Option<(Point, Point)>,
    ) {
        if self.ordering == Ordering::PLAIN {
            return;
        }
        // Static value of each point once: its composite class for `c` counts double, for the
        // opponent once (a stone that also spoils the opponent's shape is worth more).
        let mut value = [0u8; POINTS];
        if self.ordering.composite {
            let mut done = PointSet::EMPTY;
            for &(p, q) in pairs.iter() {
                for x in [p, q] {
                    if !done.contains(x) {
                        done.insert(x);
                        value[x.index()] = 2 * self.m.composite(x, c) as u8
                            + self.m.composite(x, c.opponent()) as u8;
                    }
                }
            }
        }
        let mut keyed: Vec<(u64, (Point, Point))> = pairs
            .iter()
            .map(|&pair| (self.score(c, pair, ply, tt_best, &value), pair))
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, pair)) in pairs.iter_mut().zip(keyed) {
            *slot = pair;
        }
    }

    /// The attacks of the current A-node, ordered; `None` if the limits ended the search.
    /// With `stop_at_win` generation stops at an attack leaving `thn(A) ≥ p + 1` (returned
    /// first, alone).
    fn ordered_attacks(
        &mut self,
        ply: usize,
        best: Option<(Point, Point)>,
        first_only: bool,
        stop_at_win: bool,
    ) -> Option<Vec<Attack>> {
        let mut attacks = Vec::new();
        self.generate(first_only, stop_at_win, &mut attacks);
        if self.aborted {
            return None;
        }
        if let Some(i) = attacks.iter().position(|x| x.thn > self.p) {
            attacks.swap(0, i);
            attacks.truncate(1);
            return Some(attacks);
        }
        let mut pairs: Vec<(Point, Point)> = attacks.iter().map(|x| (x.p, x.q)).collect();
        self.order(self.a, &mut pairs, ply, best);
        let thn = self.p;
        Some(
            pairs
                .into_iter()
                .map(|(p, q)| Attack { p, q, thn })
                .collect(),
        )
    }

    /// The transposition table's measure of a budget: rounds.
    #[inline]
    fn rounds(&self, budget: u32) -> u32 {
        budget / self.round
    }

    /// Is the current A-node won within `budget` plies? `None` if the limits ended the search.
    fn win_a(&mut self, ply: usize, budget: u32) -> Option<bool> {
        if self.m.thn(self.a) > 0 {
            return Some(true);
        }
        if budget < self.round {
            return Some(false);
        }
        let key = self.m.zobrist();
        let probe = self.tt.probe(key, self.rounds(budget), Question::Win);
        if let Some(answer) = probe.answer {
            return Some(answer);
        }
        let attacks = self.ordered_attacks(ply, probe.best, false, true)?;
        for att in &attacks {
            let won = if att.thn > self.p {
                true
            } else {
                self.make_pair(att.p, att.q, self.a);
                self.count_node();
                let r = self.win_d(ply + 2, budget - self.round);
                self.unmake_pair(att.p, att.q);
                r?
            };
            if won {
                self.tt.store(
                    key,
                    self.rounds(budget),
                    Question::Win,
                    true,
                    Some((att.p, att.q)),
                );
                self.reward(self.a, att.p, att.q, ply, budget);
                return Some(true);
            }
        }
        let first = attacks.first().map(|x| (x.p, x.q));
        self.tt
            .store(key, self.rounds(budget), Question::Win, false, first);
        Some(false)
    }

    /// Is the D-node (the attack just made) won, the next A-node having `budget` plies?
    fn win_d(&mut self, ply: usize, budget: u32) -> Option<bool> {
        let (thn, mut pairs) = self.defences();
        if thn > self.p {
            return Some(true);
        }
        debug_assert_eq!(thn, self.p, "attacks leave thn(A) >= p");
        self.order(self.d, &mut pairs, ply, None);
        for &(x, y) in &pairs {
            self.make_pair(x, y, self.d);
            self.count_node();
            let r = self.win_a(ply + 2, budget);
            self.unmake_pair(x, y);
            if !r? {
                self.reward(self.d, x, y, ply, budget + self.round);
                return Some(false);
            }
        }
        Some(true)
    }

    /// Is the tree of the current A-node exhausted within `budget` plies (no win by continuous
    /// threats at any depth)? `None` if the limits ended the search.
    fn ex_a(&mut self, ply: usize, budget: u32) -> Option<bool> {
        if self.m.thn(self.a) > 0 {
            return Some(false);
        }
        let key = self.m.zobrist();
        let probe = self.tt.probe(key, self.rounds(budget), Question::Exhausted);
        if let Some(answer) = probe.answer {
            return Some(answer);
        }
        let short = budget < self.round;
        let attacks = self.ordered_attacks(ply, probe.best, short, true)?;
        let exhausted = if attacks.is_empty() {
            true
        } else if short || attacks[0].thn > self.p {
            false
        } else {
            let mut all = true;
            for att in &attacks {
                self.make_pair(att.p, att.q, self.a);
                self.count_node();
                let r = self.ex_d(ply + 2, budget - self.round);
                self.unmake_pair(att.p, att.q);
                if !r? {
                    all = false;
                    break;
                }
            }
            all
        };
        let first = attacks.first().map(|x| (x.p, x.q));
        self.tt.store(
            key,
            self.rounds(budget),
            Question::Exhausted,
            exhausted,
            first,
        );
        Some(exhausted)
    }

    /// Is the D-node (the attack just made) exhausted: does some reply lead to an exhausted
    /// A-node with `budget` plies?
    fn ex_d(&mut self, ply: usize, budget: u32) -> Option<bool> {
        let (thn, mut pairs) = self.defences();
        if thn > self.p {
            return Some(false);
        }
        self.order(self.d, &mut pairs, ply, None);
        for &(x, y) in &pairs {
            self.make_pair(x, y, self.d);
            self.count_node();
            let r = self.ex_a(ply + 2, budget);
            self.unmake_pair(x, y);
            if r? {
                self.reward(self.d, x, y, ply, budget + self.round);
                return Some(true);
            }
        }
        Some(false)
    }

    /// The defences at a D-node: every move of p stones that hits all of A's live windows
    /// (none when `thn(A) > p`) — pairs, or single points as `(x, x)` — and `thn(A)`. In
    /// Renju black's forbidden points are no defence: with none left the attack wins.
    fn defences(&mut self) -> (u8, Vec<(Point, Point)>) {
        let mut w = std::mem::take(&mut self.windows);
        self.m.live_windows(self.a, &mut w);
        let thn = cover_number(&w);
        let moves = if thn > self.p {
            Vec::new()
        } else if self.p == 1 {
            let board = self.m.board();
            let allowed = |&x: &Point| !(self.forbidden.1 && renju::is_forbidden(board, x));
            blocking_points(&w)
                .into_iter()
                .filter(allowed)
                .map(|x| (x, x))
                .collect()
        } else {
            blocking_pairs(&w)
        };
        self.windows = w;
        (thn, moves)
    }

    /// The smallest budget ≤ `budget` at which the current A-node is won.
    fn min_win(&mut self, ply: usize, budget: u32) -> Option<u32> {
        (0..=budget)
            .step_by(self.round as usize)
            .find(|&b| self.win_a(ply, b) == Some(true))
    }

    /// The stones completing the winning row from the first live window of A.
    fn six(&mut self) -> Vec<Point> {
        let mut w = Vec::new();
        self.m.live_windows(self.a, &mut w);
        w.first().map(|t| t.points().collect()).unwrap_or_default()
    }

    /// The stones of a move `(p, q)`: one when `p == q`.
    fn stones(p: Point, q: Point) -> Vec<Point> {
        if p == q {
            vec![p]
        } else {
            vec![p, q]
        }
    }

    /// The first attack (in search order) winning the current A-node with `budget`.
    fn winning_attack(&mut self, ply: usize, budget: u32) -> Option<Attack> {
        let best = self
            .tt
            .probe(self.m.zobrist(), self.rounds(budget), Question::Win)
            .best;
        let attacks = self.ordered_attacks(ply, best, false, true)?;
        for att in attacks {
            if att.thn > self.p {
                return Some(att);
            }
            self.make_pair(att.p, att.q, self.a);
            let won = self.win_d(ply + 2, budget - self.round) == Some(true);
            self.unmake_pair(att.p, att.q);
            if won {
                return Some(att);
            }
        }
        None
    }

    /// The principal line of a win within `budget` from the current A-node.
    fn line(&mut self, budget: u32) -> Vec<Vec<Point>> {
        let mut line = Vec::new();
        let mut made = Vec::new();
        let mut budget = budget;
        let mut ply = 0;
        loop {
            if self.m.thn(self.a) > 0 {
                line.push(self.six());
                break;
            }
            let Some(b) = self.min_win(ply, budget) else {
                break;
            };
            let Some(att) = self.winning_attack(ply, b) else {
                break;
            };
            line.push(Self::stones(att.p, att.q));
            self.make_pair(att.p, att.q, self.a);
            made.push((att.p, att.q));
            let (_, pairs) = self.defences();
            // The defence that holds out longest.
            let mut best: Option<((Point, Point), u32)> = None;
            for (x, y) in pairs {
                self.make_pair(x, y, self.d);
                let depth = self.min_win(ply + 4, b - self.round).unwrap_or(u32::MAX);
                self.unmake_pair(x, y);
                if best.is_none_or(|(_, d)| depth > d) {
                    best = Some(((x, y), depth));
                }
            }
            let Some(((x, y), depth)) = best else {
                break;
            };
            line.push(Self::stones(x, y));
            self.make_pair(x, y, self.d);
            made.push((x, y));
            budget = depth;
            ply += 4;
        }
        for (p, q) in made.into_iter().rev() {
            self.unmake_pair(p, q);
        }
        line
    }

    /// The proof tree of a win within `budget` from the current A-node.
    fn prove(&mut self, budget: u32) -> ProofNode {
        self.prove_at(0, budget)
    }

    fn prove_at(&mut self, ply: usize, budget: u32) -> ProofNode {
        if self.m.thn(self.a) > 0 {
            return ProofNode::Six { six: self.six() };
        }
        let b = self.min_win(ply, budget).expect("proving a won node");
        let att = self
            .winning_attack(ply, b)
            .expect("a won node has a winning attack");
        self.make_pair(att.p, att.q, self.a);
        let (_, pairs) = self.defences();
        let mut defenses = Vec::with_capacity(pairs.len());
        for (x, y) in pairs {
            self.make_pair(x, y, self.d);
            let next = self.prove_at(ply + 4, b - self.round);
            self.unmake_pair(x, y);
            defenses.push(Defense {
                stones: Self::stones(x, y),
                next,
            });
        }
        self.unmake_pair(att.p, att.q);
        ProofNode::Attack {
            attack: Self::stones(att.p, att.q),
            defenses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cpbim, Game};

    const EXAMPLE: &str = include_str!("../../examples/positions/example.txt");

    #[test]
    fn progress_publishes_every_node_of_the_search() {
        let pos = crate::parse_position(EXAMPLE, Game::CONNECT6).expect("the example");
        let progress = SearchProgress::new();
        let config = Config {
            proof: true,
            progress: Some(progress.clone()),
            ..Config::default()
        };
        let mut solver = Solver::<Cpbim>::new(config);
        let never = AtomicBool::new(false);
        let s = solver.solve(&pos, &never);
        assert_eq!((s.outcome, s.depth), (Outcome::Win, 16));
        assert!(s.nodes > PUBLISH_EVERY, "{} nodes", s.nodes);
        // Every node of the search, none of the line's or the proof's; the winning iteration.
        assert_eq!(progress.nodes(), s.nodes);
        assert_eq!(progress.depth(), 16);
        // The same search without progress counts the same nodes.
        assert_eq!(solve::<Cpbim>(&pos, &Config::default()).nodes, s.nodes);
        // A second search adds its own.
        let (outcome, depth, nodes) = solver.wins_within(pos.board(), pos.to_move(), &never);
        assert_eq!((outcome, depth), (Outcome::Win, 16));
        assert_eq!(progress.nodes(), s.nodes + nodes);
    }
}
