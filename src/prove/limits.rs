//! What a proof search is given and what it answers: its limits ([`Limits`], [`Search`]),
//! the counters it publishes while it runs ([`Progress`]), its verdict and costs ([`Answer`]),
//! and the one refusal before it starts ([`cannot_start`]).

use super::store::Store;
use super::tree::ThreatProof;
use crate::board::Position;
use crate::geom::Color;
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The limits of a proof search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Threat moves on any line of the proof before its leaf.
    pub threats: u32,
    /// The budgets of threats searched: every `threat_step`-th from the smallest, and
    /// [`Limits::threats`] always (1: every budget, the proof with the fewest threats the
    /// search can find; more skips budgets that may fail, at the risk of searching one above
    /// the one needed: docs/design/prove.md, step 14).
    pub threat_step: u32,
    /// From this rank on (0: never), an attacker's move costs one threat more: a threat
    /// ranked `late` or lower among the attacker's threat moves, a quiet move ranked `late` or
    /// lower among its quiet moves that are not threats (late-move reductions, as chess
    /// engines make them; docs/design/prove.md, step 18). The few first moves search deeper for
    /// the same cost, the others are still searched, a budget later.
    pub late: usize,
    /// The depth in plies of the leaf search at the root, the first question asked (`solve`'s
    /// default, so that `prove` wins wherever `solve` does).
    pub root_depth: u32,
    /// The leaf search's depth in plies below the root.
    pub leaf_depth: u32,
    /// Nodes of one leaf search (a leaf that runs out has not won).
    pub leaf_nodes: u64,
    /// Threat moves tried at one attacker node, the most promising first.
    pub width: usize,
    /// Candidates whose quiet moves are tried at one attacker node once its threat moves
    /// fail, the most promising first (0: none): those of the first `quiet` candidates that
    /// are no threats, tried as moves that win by threats, not by the leaf search, were the
    /// defender to pass (λ-search's third order). Games of one stone a move, either search.
    pub quiet: usize,
    /// How deep quiet moves nest: 1, quiet moves whose pass proofs use threats only; 2, pass
    /// proofs with quiet moves of their own (whose pass proofs use threats only); and so on.
    pub quiet_depth: usize,
    /// Stop after this many attacker and defender nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this long.
    pub max_time: Option<Duration>,
    /// Answer only the defences inside the relevance zone of each threat (false: every legal
    /// defence, the full-width reference the tests compare with).
    pub zone: bool,
    /// How the tree is searched.
    pub search: Search,
    /// Threads of the depth-first search ([`super::parallel`]: the root's moves as jobs).
    pub threads: usize,
    /// Where the search publishes how far it is, for a caller to show while it runs.
    pub progress: Option<Arc<Progress>>,
    /// The on-disk store of proven and failed attacker nodes, read and written as the search
    /// goes ([`super::store`]).
    pub store: Option<Arc<Mutex<Store>>>,
    /// Only positions whose search took at least this many nodes go to the store (the root
    /// always): the cheap ones are searched again faster than their entries are written, and
    /// every proof holds its whole subtree, so storing them all grows the store by the square.
    pub store_min_nodes: u64,
    /// Moves that proved positions before ([`super::book`]): tried first where the book knows
    /// the position, and the root's budgets started at its entry.
    pub book: Option<Arc<super::book::Book>>,
}

/// How a proof search goes through its tree (the same nodes, the same verdicts within the
/// same limits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// Depth-first, the threat budget deepened from 0 ([`prove`]'s own; the faster on real
    /// Connect6 positions so far: docs/search.md).
    #[default]
    DepthFirst,
    /// Depth-first proof-number search ([`super::dfpn`]), the threat budget deepened from 0.
    ProofNumber,
}

/// How far a running proof search is, read by another thread (updated every
/// [`PUBLISH_EVERY`] nodes and at the end).
#[derive(Debug, Default)]
pub struct Progress {
    /// Attacker and defender nodes.
    pub nodes: AtomicU64,
    /// Leaf searches run.
    pub leaf_searches: AtomicU64,
    /// The threat budget of the search under way.
    pub threats: AtomicU32,
    /// Attacker nodes remembered in the table.
    pub known: AtomicU64,
    /// Entries of the store.
    pub stored: AtomicU64,
    /// The root's alternatives (threat moves, or the defender's first stones) settled, of
    /// how many, in the search under way.
    pub root_done: AtomicU64,
    /// See [`Progress::root_done`].
    pub root_total: AtomicU64,
    /// The proof-number search's root numbers (0 and 0 before it starts).
    pub root_pn: AtomicU32,
    /// See [`Progress::root_pn`].
    pub root_dn: AtomicU32,
}

/// Nodes between two publications of [`Progress`].
pub const PUBLISH_EVERY: u64 = 256;

/// The threat budgets from `from` to `to` (none when `from > to`): every `step`-th, and `to`
/// always.
pub(super) fn budgets(from: u32, to: u32, step: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (from..=to).step_by(step.max(1) as usize).collect();
    if from <= to && v.last() != Some(&to) {
        v.push(to);
    }
    v
}

/// [`Limits::store_min_nodes`] by default.
pub const DEFAULT_STORE_MIN_NODES: u64 = 1000;

/// The most threats on a line a search may be given.
pub const MAX_THREATS: u32 = 12;

/// The deepest nesting of quiet moves a search may be given.
pub const MAX_QUIET_DEPTH: usize = 4;

impl Limits {
    /// What is wrong with these limits for `game`, named as the CLI's options, if anything.
    pub fn refusal(&self, game: &crate::Game) -> Option<String> {
        Some(if self.threats > MAX_THREATS {
            format!("--threats {}: at most {MAX_THREATS}", self.threats)
        } else if self.threat_step == 0 {
            "--threat-step is at least 1".to_string()
        } else if self.width == 0 || self.leaf_nodes == 0 {
            "--width and --leaf-nodes are at least 1".to_string()
        } else if self.quiet_depth == 0 || self.quiet_depth > MAX_QUIET_DEPTH {
            format!(
                "--quiet-depth {}: from 1 to {MAX_QUIET_DEPTH}",
                self.quiet_depth
            )
        } else if self.quiet > 0 && game.p() != 1 {
            format!(
                "--quiet {}: quiet moves are searched in the games of one stone a move only",
                self.quiet
            )
        } else {
            return None;
        })
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            threats: 2,
            threat_step: 1,
            late: 0,
            root_depth: crate::search::DEFAULT_DEPTH,
            leaf_depth: 24,
            leaf_nodes: 1_000_000,
            width: 24,
            quiet: 0,
            quiet_depth: 1,
            max_nodes: None,
            max_time: None,
            zone: true,
            search: Search::default(),
            threads: 1,
            progress: None,
            store: None,
            store_min_nodes: DEFAULT_STORE_MIN_NODES,
            book: None,
        }
    }
}

/// What a proof search decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The attacker wins: the proof.
    Proven(ThreatProof),
    /// No proof within the limits (which says nothing of the position's value).
    NotProven,
    /// A node or time limit, or a signal, ended the search first.
    Stopped,
}

impl Verdict {
    /// Is it a proof?
    pub fn is_proven(&self) -> bool {
        matches!(self, Verdict::Proven(_))
    }

    /// `proven`, `not proven` or `stopped`, as the CLI and JSON say it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Proven(_) => "proven",
            Verdict::NotProven => "not proven",
            Verdict::Stopped => "stopped",
        }
    }
}

/// Nothing decided yet ("not proven"), nothing spent.
impl Default for Answer {
    fn default() -> Self {
        Answer {
            verdict: Verdict::NotProven,
            threats: 0,
            nodes: 0,
            leaf_searches: 0,
            leaf_nodes: 0,
            time: Duration::ZERO,
            leaf_time: Duration::ZERO,
            store_hits: 0,
            store_time: Duration::ZERO,
            book_moves: 0,
            store_error: None,
            refutation: None,
        }
    }
}

impl Answer {
    /// Add what `w` (another search's answer) cost: nodes, leaf searches, times, store hits;
    /// its store error kept when this answer has none.
    pub fn add_costs(&mut self, w: &Answer) {
        self.nodes += w.nodes;
        self.leaf_searches += w.leaf_searches;
        self.leaf_nodes += w.leaf_nodes;
        self.leaf_time += w.leaf_time;
        self.store_hits += w.store_hits;
        self.store_time += w.store_time;
        self.book_moves += w.book_moves;
        if self.store_error.is_none() {
            self.store_error.clone_from(&w.store_error);
        }
    }

    /// The threats on the proof's longest line when proven, else the threat budget reached.
    pub fn threats_reached(&self) -> u32 {
        match &self.verdict {
            Verdict::Proven(proof) => proof.threats(),
            _ => self.threats,
        }
    }
}

/// A proof search's answer and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The verdict.
    pub verdict: Verdict,
    /// The threat budget of the last search completed (or begun, when stopped).
    pub threats: u32,
    /// Attacker and defender nodes.
    pub nodes: u64,
    /// Leaf searches run, and their nodes.
    pub leaf_searches: u64,
    /// Nodes of the leaf searches.
    pub leaf_nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Of which in leaf searches.
    pub leaf_time: Duration,
    /// Positions the store answered.
    pub store_hits: u64,
    /// Time spent reading and writing the store.
    pub store_time: Duration,
    /// Positions proven by the book's move ([`Limits::book`]).
    pub book_moves: u64,
    /// Why the store failed, when it did (the search then stopped).
    pub store_error: Option<String>,
    /// Not proven at a root where the side asked about is not to move: the move of the side
    /// to move that the search did not answer within the limits (its first stone, with its
    /// second in Connect6 unless the first alone completes a row or was not answered).
    pub refutation: Option<Vec<crate::geom::Point>>,
}

/// Why a proof search for `a` cannot start from `pos`, if it cannot: the attacker to move
/// must place a whole move of p stones (not black's first stone of Connect6, nor a move half
/// placed).
pub fn cannot_start(pos: &Position, a: Color) -> Option<String> {
    let p = pos.game().p();
    (a == pos.to_move() && pos.stones_to_place() != p).then(|| {
        format!(
            "the side to move places {} here, not {p}: `prove` starts from a move of {p} stones",
            crate::text::counted(pos.stones_to_place() as u64, "stone"),
        )
    })
}

#[cfg(test)]
mod test {
    use super::budgets;

    #[test]
    fn budgets_step_and_end_at_the_last() {
        assert_eq!(budgets(1, 5, 1), [1, 2, 3, 4, 5]);
        assert_eq!(budgets(2, 8, 2), [2, 4, 6, 8]);
        assert_eq!(budgets(2, 7, 2), [2, 4, 6, 7]);
        assert_eq!(budgets(2, 7, 10), [2, 7]);
        assert_eq!(budgets(3, 3, 2), [3]);
        assert!(budgets(3, 2, 1).is_empty());
    }
}
