//! The node rules of the threat search (`docs/search.md`, "How the search runs"): the win
//! search and the exhaustion search over A-nodes (attacker to move) and D-nodes (after an
//! attack), shared by the two drivers, [`super::dfs`] (the first win) and [`super::iddfs`]
//! (the shortest).
//!
//! With a budget of `b` plies a node's status is a function of the position and `b` alone:
//!
//! * an A-node is **won** if some attack leads to a won D-node; **exhausted** if it has no
//!   attack or every attack's D-node is exhausted; else **cut**. With `b < 2p` no attack can be
//!   followed: the node is cut if an attack exists, exhausted if none does;
//! * a D-node is won if `thn(A) > p` or every reply's A-node (budget `b − 2p`) is won;
//!   **exhausted** if some reply's A-node is exhausted; else cut.
//!
//! Exhausted means "no threat win at any depth". The two questions are searched separately,
//! each with its own early exits: "won within b?" (an attack that wins ends an A-node; a reply
//! that holds ends a D-node) and "exhausted within b?" (an attack that is not exhausted ends an
//! A-node; an exhausted reply ends a D-node). Deciding both in one pass would force every D-node
//! to keep searching after its first refutation, which costs an order of magnitude more nodes on
//! deep wins. The win search reports, beside its answer, what it learnt on the way for free: the
//! depth of the proof it found (which may be below the budget), and, when it failed, whether
//! every attack was answered by an exhausted defence (then the node is exhausted too). The
//! transposition table stores only facts of these functions ([`super::tt`]), and move ordering
//! only changes the order in which the same sets are examined, so the result never depends on
//! the model, the ordering or the table.

use super::attacks::KnownAttacks;
use super::tt::{Question, TranspositionTable};
use super::{Ordering, SearchProgress, PUBLISH_EVERY};
use crate::geom::{Color, Point, MAX_POINTS as POINTS};
use crate::model::{blocking_pairs, blocking_points, cover_number, Model, Threat};
use crate::renju;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

/// What the win search found at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// Won, by a proof of this many plies (at most the budget).
    Win(u32),
    /// Not won within the budget; `Some(e)`: exhausted within `e` plies as well (no win at any
    /// depth).
    NoWin(Option<u32>),
}

pub(super) struct Searcher<'a, M: Model> {
    pub(super) m: &'a mut M,
    pub(super) a: Color,
    pub(super) d: Color,
    /// Stones per move: 2, or 1 (VCF).
    pub(super) p: u8,
    /// Plies of one round (an attack and its defence): 2p.
    pub(super) round: u32,
    /// The complete attack rule (two stones per move only).
    pub(super) complete: bool,
    /// Renju: black may not play its forbidden points, as attacker (`.0`) or defender (`.1`).
    pub(super) forbidden: (bool, bool),
    /// Depths of wins are the smallest (the shortest search): the line and the proof are
    /// rebuilt at the smallest depth of every node.
    pub(super) minimal: bool,
    pub(super) tt: &'a mut TranspositionTable,
    pub(super) ordering: Ordering,
    pub(super) nodes: u64,
    pub(super) max_nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stop: &'a AtomicBool,
    pub(super) aborted: bool,
    /// Where the nodes are published, and how many of them already are.
    pub(super) progress: Option<&'a SearchProgress>,
    pub(super) published: u64,
    /// History scores by colour and point.
    pub(super) history: [[u32; POINTS]; 2],
    /// The lists and tables a search grows, kept by the solver for its next search.
    pub(super) scratch: Scratch,
}

/// What a search grows and the next search of the same solver reuses (a batch, the prover's
/// leaves: one search a position, each a few microseconds, where allocating these again was
/// about a tenth of the median Connect6 search's instructions and a few per cent of its time).
/// Nothing in it carries a fact from one search to the next: [`Scratch::for_search`] empties
/// what would.
#[derive(Default)]
pub(super) struct Scratch {
    /// Two killer pairs per ply, for the plies reached so far.
    pub(super) killers: Vec<[Option<(Point, Point)>; 2]>,
    /// Scratch for live windows.
    pub(super) windows: Vec<Threat>,
    /// The attacks of A-nodes already expanded.
    pub(super) known_attacks: KnownAttacks,
    /// The threats of A's connections through a point once A plays it, by direction, read
    /// during the current A-node's pair generation: `(stamp, threats)` by point index.
    pub(super) threats_now: Vec<(u32, [u8; 4])>,
    /// The stamp of the current A-node's entries of `threats_now` (it goes on counting from one
    /// search to the next, so an entry of an earlier search is never read as current).
    pub(super) stamp: u32,
    /// Scratch for ordering: each candidate's score and place (`Searcher::order_by`).
    pub(super) order_keys: Vec<(std::cmp::Reverse<u64>, usize)>,
}

impl Scratch {
    /// Ready for a new search: no killers and no attack lists of the last one (a search's
    /// nodes never depend on what the solver searched before).
    pub(super) fn for_search(mut self) -> Scratch {
        self.killers.clear();
        self.known_attacks.clear();
        self
    }
}

impl<M: Model> Searcher<'_, M> {
    /// Count a node; publish the progress and check the limits every [`PUBLISH_EVERY`] nodes.
    #[inline]
    pub(super) fn count_node(&mut self) {
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
    pub(super) fn publish(&mut self) {
        if let Some(p) = self.progress {
            p.nodes
                .fetch_add(self.nodes - self.published, AtomicOrdering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// An iteration of `budget` plies begins.
    pub(super) fn begin(&self, budget: u32) {
        if let Some(p) = self.progress {
            p.depth.store(budget, AtomicOrdering::Relaxed);
        }
    }

    /// Play a move of `c`: the stones `p` and `q`, or `p` alone when `q == p`.
    #[inline]
    pub(super) fn make_pair(&mut self, p: Point, q: Point, c: Color) {
        self.m.make(p, c);
        if q != p {
            self.m.make(q, c);
        }
    }

    /// Take back the move `(p, q)`.
    #[inline]
    pub(super) fn unmake_pair(&mut self, p: Point, q: Point) {
        self.m.unmake();
        if q != p {
            self.m.unmake();
        }
    }

    /// The transposition table's measure of a budget: rounds.
    #[inline]
    pub(super) fn rounds(&self, budget: u32) -> u32 {
        budget / self.round
    }

    /// What the win search finds at the current A-node with `budget` plies; `None` if the
    /// limits ended the search.
    pub(super) fn win_a(&mut self, ply: usize, budget: u32) -> Option<Found> {
        if self.m.thn(self.a) > 0 {
            return Some(Found::Win(0));
        }
        if budget < self.round {
            return Some(Found::NoWin(None));
        }
        let key = self.m.zobrist();
        let probe = self.tt.probe(key, self.rounds(budget), Question::Win);
        match probe.answer {
            Some(true) => {
                let depth = probe.won_within.map_or(budget, |r| r * self.round);
                return Some(Found::Win(depth));
            }
            Some(false) => {
                let exhausted = probe.exhausted_within.map(|r| r * self.round);
                return Some(Found::NoWin(exhausted));
            }
            None => {}
        }
        let attacks = self.ordered_attacks(ply, probe.best, false)?;
        // The deepest exhaustion of the attacks' D-nodes so far; `None` once one is not known
        // to be exhausted. With no attack at all the node is exhausted at depth 0.
        let mut exhausted = Some(0);
        for att in &attacks {
            let found = if att.thn > self.p {
                Found::Win(0)
            } else {
                self.make_pair(att.p, att.q, self.a);
                self.count_node();
                let r = self.win_d(ply + 2, budget - self.round);
                self.unmake_pair(att.p, att.q);
                r?
            };
            match found {
                Found::Win(d) => {
                    let depth = self.round + d;
                    let best = Some((att.p, att.q));
                    self.tt
                        .store(key, self.rounds(depth), Question::Win, true, best);
                    self.reward(self.a, att.p, att.q, ply, budget);
                    return Some(Found::Win(depth));
                }
                Found::NoWin(e) => {
                    exhausted = exhausted.zip(e).map(|(x, e)| x.max(self.round + e));
                }
            }
        }
        let first = attacks.first().map(|x| (x.p, x.q));
        self.tt
            .store(key, self.rounds(budget), Question::Win, false, first);
        if let Some(e) = exhausted {
            self.tt
                .store(key, self.rounds(e), Question::Exhausted, true, None);
        }
        Some(Found::NoWin(exhausted))
    }

    /// What the win search finds at the D-node (the attack just made), the next A-node having
    /// `budget` plies: a win with the depth of its deepest defence, or the first defence that
    /// holds (exhausted when that defence's A-node is).
    pub(super) fn win_d(&mut self, ply: usize, budget: u32) -> Option<Found> {
        let (thn, mut pairs) = self.defences();
        if thn > self.p {
            return Some(Found::Win(0));
        }
        debug_assert_eq!(thn, self.p, "attacks leave thn(A) >= p");
        self.order(self.d, &mut pairs, ply, None);
        let mut deepest = 0;
        for &(x, y) in &pairs {
            self.make_pair(x, y, self.d);
            self.count_node();
            let r = self.win_a(ply + 2, budget);
            self.unmake_pair(x, y);
            match r? {
                Found::Win(d) => deepest = deepest.max(d),
                held => {
                    self.reward(self.d, x, y, ply, budget + self.round);
                    return Some(held);
                }
            }
        }
        Some(Found::Win(deepest))
    }

    /// Is the tree of the current A-node exhausted within `budget` plies (no win by continuous
    /// threats at any depth)? `Some(Some(e))`: exhausted within e ≤ `budget` plies;
    /// `Some(None)`: not exhausted within `budget`; `None` if the limits ended the search.
    pub(super) fn ex_a(&mut self, ply: usize, budget: u32) -> Option<Option<u32>> {
        if self.m.thn(self.a) > 0 {
            return Some(None);
        }
        let key = self.m.zobrist();
        let probe = self.tt.probe(key, self.rounds(budget), Question::Exhausted);
        match probe.answer {
            Some(true) => {
                let depth = probe.exhausted_within.map_or(budget, |r| r * self.round);
                return Some(Some(depth));
            }
            Some(false) => return Some(None),
            None => {}
        }
        let short = budget < self.round;
        let attacks = self.ordered_attacks(ply, probe.best, short)?;
        let exhausted = if attacks.is_empty() {
            Some(0)
        } else if short || attacks[0].thn > self.p {
            None
        } else {
            let mut deepest = Some(0);
            for att in &attacks {
                self.make_pair(att.p, att.q, self.a);
                self.count_node();
                let r = self.ex_d(ply + 2, budget - self.round);
                self.unmake_pair(att.p, att.q);
                match r? {
                    Some(e) => deepest = deepest.map(|x: u32| x.max(self.round + e)),
                    None => {
                        deepest = None;
                        break;
                    }
                }
            }
            deepest
        };
        let first = attacks.first().map(|x| (x.p, x.q));
        match exhausted {
            Some(e) => self
                .tt
                .store(key, self.rounds(e), Question::Exhausted, true, first),
            None => self
                .tt
                .store(key, self.rounds(budget), Question::Exhausted, false, first),
        }
        Some(exhausted)
    }

    /// Is the D-node (the attack just made) exhausted: does some reply lead to an exhausted
    /// A-node with `budget` plies? `Some(Some(e))` with that A-node's depth of exhaustion.
    pub(super) fn ex_d(&mut self, ply: usize, budget: u32) -> Option<Option<u32>> {
        let (thn, mut pairs) = self.defences();
        if thn > self.p {
            return Some(None);
        }
        self.order(self.d, &mut pairs, ply, None);
        for &(x, y) in &pairs {
            self.make_pair(x, y, self.d);
            self.count_node();
            let r = self.ex_a(ply + 2, budget);
            self.unmake_pair(x, y);
            if let Some(e) = r? {
                self.reward(self.d, x, y, ply, budget + self.round);
                return Some(Some(e));
            }
        }
        Some(None)
    }

    /// The defences at a D-node: every move of p stones that hits all of A's live windows
    /// (none when `thn(A) > p`) — pairs, or single points as `(x, x)` — and `thn(A)`. In
    /// Renju black's forbidden points are no defence: with none left the attack wins.
    pub(super) fn defences(&mut self) -> (u8, Vec<(Point, Point)>) {
        let mut w = std::mem::take(&mut self.scratch.windows);
        self.m.live_windows(self.a, &mut w);
        let thn = cover_number(&w);
        let moves = if thn > self.p {
            Vec::new()
        } else if self.p == 1 {
            let board = self.m.board();
            let allowed = |&x: &Point| !(self.forbidden.1 && renju::is_forbidden(board, x));
            blocking_points(&w)
                .filter(allowed)
                .map(|x| (x, x))
                .collect()
        } else {
            blocking_pairs(&w)
        };
        self.scratch.windows = w;
        (thn, moves)
    }
}
