//! The threat-space search (paper §8.1), described for users in `docs/search.md`.
//!
//! The attacker A is the side to move, D the defender.
//!
//! * **A-node**: if A has a live window, A wins here. Otherwise A plays p stones (two in
//!   Connect6), such that afterwards D has no live window and `thn(A) ≥ p` ([`attacks`]).
//! * **D-node**: if `thn(A) > p`, A wins. Otherwise D's replies are *every* move of p points
//!   that hits all of A's live windows; the node is a win only if every reply leads to a win.
//!
//! Depth counts stones on the path (one round = 2p plies). The node rules, the win search and
//! the exhaustion search are in [`tree`]; two drivers run them ([`Strategy`]):
//!
//! * [`depth_first`]: one win search at the whole limit, returning at the first win it proves
//!   (its depth is the depth of the proof found); for the shortest ([`Config::shortest`]),
//!   searches below each win found until one fails. The default of the games of one stone a
//!   move.
//! * [`deepening`]: iterative deepening, a win search at every budget from 0: the first win is
//!   the shortest. The default of the games of two stones a move.
//!
//! Both ask the same questions of the same table of facts ([`tt`]), so a position is won within
//! the limit in one exactly when it is in the other.

mod attacks;
mod deepening;
mod depth_first;
mod kept;
mod line;
mod ordering;
pub mod proof;
mod tree;
pub mod tt;

pub use ordering::Ordering;

use crate::board::{Board, Position};
use crate::game::Game;
use crate::geom::{Color, Point, MAX_POINTS as POINTS};
use crate::model::Model;
use crate::renju;
use kept::Kept;
use proof::ProofNode;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tree::{Scratch, Searcher};
use tt::TranspositionTable;

/// What `solve` decided about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side to move has a threat win; `depth` is the depth of the win found (the smallest
    /// with [`Config::shortest`]).
    Win,
    /// No threat win at any depth (the tree is exhausted).
    None,
    /// No threat win within the depth limit; deeper search was cut.
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
    /// Prove the depth of a win (and of `none`) the smallest, rather than answer with the first
    /// win found.
    pub shortest: bool,
    /// How the search is driven: depth-first or by iterative deepening.
    pub strategy: Strategy,
    /// The complete attack rule of games of two stones per move (`docs/search.md`): when one
    /// stone of R alone meets the attack conditions, the other may be any empty point. False:
    /// the paper's canonical rule, both stones from R (the test sets and the benchmark).
    pub complete: bool,
    /// Where the searches publish how far they are, for a caller to show while they run
    /// (several solvers may share one).
    pub progress: Option<Arc<SearchProgress>>,
}

/// How a search is driven ([`Config::strategy`]); the answer's result never depends on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Depth-first in the games of one stone a move, iterative deepening in the others (the
    /// faster on the published VCF problems and on Connect6's test sets: `docs/search.md`).
    #[default]
    Auto,
    /// One win search at the whole depth limit ([`depth_first`]).
    DepthFirst,
    /// A win search at every budget from 0 ([`deepening`]).
    Deepening,
}

impl Strategy {
    /// The strategy to use in a game of `p` stones a move.
    pub fn resolve(self, p: usize) -> Strategy {
        match self {
            Strategy::Auto if p == 1 => Strategy::DepthFirst,
            Strategy::Auto => Strategy::Deepening,
            s => s,
        }
    }
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
            shortest: false,
            strategy: Strategy::Auto,
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
    /// For `win` the depth of the win found (its line's; the proof's when one is built), for
    /// `none` the depth within which the tree was proven exhausted, for `nowin` the depth
    /// limit, for `unknown` the deepest budget completed (0 for the first-win search, which
    /// completes none before its end).
    pub depth: u32,
    /// The depth is proven the smallest: of a win, the smallest winning depth; of `none`, the
    /// smallest budget within which the tree is exhausted. The shortest search
    /// ([`Config::shortest`]) proves it unless a limit stopped it; the first-win search only
    /// for the trivial depths.
    pub minimal: bool,
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
            minimal: false,
            line: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            proof: None,
        }
    }
}

/// What a driver decided about the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decided {
    outcome: Outcome,
    depth: u32,
    /// The depth is proven the smallest (of a win, or of an exhaustion).
    minimal: bool,
}

/// A reusable solver for one model: the transposition table and heuristics tables survive
/// between solves (cleared logically at each one), so a batch does not reallocate them.
pub struct Solver<M: Model> {
    config: Config,
    tt: TranspositionTable,
    /// The last search's model, for the next search (`kept.rs`). In a mutex only so that a
    /// solver can be shared between threads whatever its model (the Rebuilt model is not
    /// `Sync`); reached through `&mut self`, it is never locked.
    kept: Mutex<Option<Kept<M>>>,
    /// With [`Solver::keep_table`]: the game, attacker and attack rule whose facts the table
    /// holds from earlier searches (`None`: each search starts from an empty table).
    table_of: Option<(Game, Color, bool)>,
    keep_table: bool,
    /// The last search's lists and tables, for the next one.
    scratch: Scratch,
}

impl<M: Model> Solver<M> {
    /// A solver with `config`.
    pub fn new(config: Config) -> Self {
        Solver {
            tt: TranspositionTable::new(config.tt_entries),
            config,
            kept: Mutex::new(None),
            table_of: None,
            keep_table: false,
            scratch: Scratch::default(),
        }
    }

    /// Let the table keep what earlier searches proved (by default every search starts from
    /// an empty one, so that its nodes do not depend on what was searched before). Sound: an
    /// entry is a fact about its position alone, for one game, attacker and attack rule, and
    /// the table is forgotten when any of them changes. A caller that searches many positions
    /// near one another (the proof search's leaves) finds their common subtrees proven.
    pub fn keep_table(&mut self, keep: bool) {
        self.keep_table = keep;
        self.table_of = None;
    }

    /// Start a search of `attacker`'s win in `game`: a new generation of the table unless the
    /// table is kept and its facts are of this game, attacker and attack rule.
    fn new_search(&mut self, game: Game, attacker: Color) {
        let of = Some((game, attacker, self.config.complete));
        if !self.keep_table || self.table_of != of {
            self.tt.new_search();
            self.table_of = of.filter(|_| self.keep_table);
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
            self.table_of = None;
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
        m: &'s mut M,
        board: &Board,
        attacker: Color,
        stop: &'s AtomicBool,
        start: Instant,
    ) -> Searcher<'s, M> {
        let p = board.game().p();
        Searcher {
            m,
            a: attacker,
            d: attacker.opponent(),
            p: p as u8,
            round: 2 * p as u32,
            complete: config.complete && p == 2,
            forbidden: (
                renju::applies(board.game(), attacker),
                renju::applies(board.game(), attacker.opponent()),
            ),
            minimal: config.shortest,
            tt,
            // The composite classes only where stones come in pairs: in the games of one stone
            // a move they cost a VCF 15 % of its instructions and saved nodes on a few problems
            // only (docs/search.md, "Move ordering").
            ordering: Ordering {
                composite: config.ordering.composite && p == 2,
                ..config.ordering
            },
            nodes: 1,
            max_nodes: config.max_nodes.unwrap_or(u64::MAX),
            // A time beyond what the clock can count is no limit.
            deadline: config.max_time.and_then(|t| start.checked_add(t)),
            stop,
            aborted: false,
            progress: config.progress.as_deref(),
            published: 0,
            history: [[0; POINTS], [0; POINTS]],
            scratch: Scratch::default(),
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

    /// Does `attacker` have a threat win on `board` within the depth limit? Cheaper than
    /// [`Solver::solve_for`] when only yes or no matters: the win search alone (no exhaustion
    /// search telling `none` from `nowin`). Returns `Win` with its depth (the smallest with
    /// [`Config::shortest`], else the depth of the win found), `None` when the win search
    /// proved the tree exhausted on its way, `Nowin` (no win within the limit) or `Unknown`,
    /// and the nodes searched.
    pub fn wins_within(
        &mut self,
        board: &Board,
        attacker: Color,
        stop: &AtomicBool,
    ) -> (Outcome, u32, u64) {
        self.new_search(*board.game(), attacker);
        let (_, limit) = self.limit(board);
        let start = Instant::now();
        let m = Kept::model(kept_slot(&mut self.kept), board);
        let mut s = Self::searcher(&mut self.tt, &self.config, m, board, attacker, stop, start);
        // The last search's lists and tables, emptied of its facts.
        s.scratch = std::mem::take(&mut self.scratch).for_search();
        let d = decide(&mut s, board, limit, &self.config, true);
        s.publish();
        let nodes = s.nodes;
        self.scratch = s.scratch;
        Kept::settle(kept_slot(&mut self.kept), board);
        (d.outcome, d.depth, nodes)
    }

    /// Solve `board` for `attacker`, whoever is to move by the stone counts: with the opponent
    /// of the side to move, this answers "what if the side to move passed?" (the threat it must
    /// answer). On the empty board nobody has a double threat (the first move is one stone).
    pub fn solve_for(&mut self, board: &Board, attacker: Color, stop: &AtomicBool) -> Solution {
        self.answer(board, attacker, stop, false)
    }

    /// [`Solver::solve_for`] when only a win matters: the win search alone, as
    /// [`Solver::wins_within`], and a win's line and proof (with [`Config::proof`]) built from
    /// the same warm table, not by a second search. Without a win the outcome is `nowin` (which
    /// then also stands for an exhausted tree the win search did not see), `none` or `unknown`.
    pub fn first_win(&mut self, board: &Board, attacker: Color, stop: &AtomicBool) -> Solution {
        self.answer(board, attacker, stop, true)
    }

    fn answer(
        &mut self,
        board: &Board,
        attacker: Color,
        stop: &AtomicBool,
        win_only: bool,
    ) -> Solution {
        self.new_search(*board.game(), attacker);
        let start = Instant::now();
        let (_, limit) = self.limit(board);
        let m = Kept::model(kept_slot(&mut self.kept), board);
        let mut s = Self::searcher(&mut self.tt, &self.config, m, board, attacker, stop, start);
        // The last search's lists and tables, emptied of its facts.
        s.scratch = std::mem::take(&mut self.scratch).for_search();
        let Decided {
            outcome,
            mut depth,
            minimal,
        } = decide(&mut s, board, limit, &self.config, win_only);
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
            s.stop = &NEVER;
            // The line follows the smallest depths only when the root's is proven.
            s.minimal = minimal;
            if self.config.proof {
                let proof = s.prove(depth);
                let line = if s.minimal {
                    s.line(depth).0
                } else {
                    proof.line()
                };
                depth = proof.depth();
                (line, Some(proof))
            } else {
                let (line, plies) = s.line(depth);
                depth = plies;
                (line, None)
            }
        } else {
            (Vec::new(), None)
        };
        self.scratch = s.scratch;
        Kept::settle(kept_slot(&mut self.kept), board);
        Solution {
            outcome,
            depth,
            minimal,
            line,
            nodes,
            time,
            proof,
        }
    }
}

/// The kept model's place in a solver (never locked: reached through `&mut`).
fn kept_slot<M: Model>(kept: &mut Mutex<Option<Kept<M>>>) -> &mut Option<Kept<M>> {
    kept.get_mut().unwrap_or_else(|e| e.into_inner())
}

/// A stop signal never given (the line and the proof of a win found are built whatever the
/// limits).
static NEVER: AtomicBool = AtomicBool::new(false);

/// Run the driver `config` asks for on `board` within `limit` plies.
fn decide<M: Model>(
    s: &mut Searcher<'_, M>,
    board: &Board,
    limit: u32,
    config: &Config,
    win_only: bool,
) -> Decided {
    if first_move_too_small(board) {
        return Decided {
            outcome: Outcome::None,
            depth: 0,
            minimal: true,
        };
    }
    match config.strategy.resolve(board.game().p()) {
        Strategy::Deepening => s.deepening(limit, config.shortest, win_only),
        _ => s.depth_first(limit, config.shortest, win_only),
    }
}

/// On the empty board of a game whose first move has fewer stones than the others (Connect6:
/// one, then two), the first move is no attack: nobody has a threat win there. (With one
/// stone per move the search itself finds no attack on an empty board.)
fn first_move_too_small(board: &Board) -> bool {
    board.game().q() < board.game().p() && board.stones() == 0
}

/// Solve `pos` with model `M` and `config` (a one-off [`Solver`]).
pub fn solve<M: Model>(pos: &Position, config: &Config) -> Solution {
    Solver::<M>::new(config.clone()).solve(pos, &AtomicBool::new(false))
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
        // Every node of the search, none of the line's or the proof's; Connect6 deepens, and
        // its last iteration is the winning one.
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
