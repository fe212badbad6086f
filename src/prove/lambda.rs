//! A depth-first threat-space proof search (λ-search's shape, Thomsen 2000; its defences cut to
//! the relevance zone as in Wu & Lin's RZOP, 2010). The method is in `docs/search.md`,
//! "Threat-space proofs".
//!
//! An attacker node is proven when the leaf search (`solve`'s double threats or fours) wins
//! there, or when one of its threat moves is: a move after which, if the defender passed, the
//! leaf search would win. A threat is answered by the defender's moves inside the zone of that
//! pass win (every move outside leaves the win standing), each of them followed by an attacker
//! node with one threat fewer to spend. The threat budget grows from 0, so the proof found uses
//! the fewest threats on its longest line that the search can find.

use crate::board::{Board, Position};
use crate::geom::{Color, Point, PointSet, MAX_POINTS};
use crate::model::Model;
use crate::prove::tree::{Reply, ThreatProof};
use crate::prove::zone::{count, for_each_window, zone};
use crate::renju;
use crate::search::proof::ProofNode;
use crate::search::{Config, Solver};
use fxhash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The limits of a proof search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Threat moves on any line of the proof before its leaf.
    pub threats: u32,
    /// The depth in plies of the leaf search at the root, the first question asked (`solve`'s
    /// default, so that `prove` wins wherever `solve` does).
    pub root_depth: u32,
    /// The leaf search's depth in plies below the root.
    pub leaf_depth: u32,
    /// Nodes of one leaf search (a leaf that runs out has not won).
    pub leaf_nodes: u64,
    /// Threat moves tried at one attacker node, the most promising first.
    pub width: usize,
    /// Stop after this many attacker and defender nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this long.
    pub max_time: Option<Duration>,
    /// Answer only the defences inside the relevance zone of each threat (false: every legal
    /// defence, the full-width reference the tests compare with).
    pub zone: bool,
    /// How the tree is searched.
    pub search: Search,
    /// Where the search publishes how far it is, for a caller to show while it runs.
    pub progress: Option<Arc<Progress>>,
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
}

/// Nodes between two publications of [`Progress`].
pub const PUBLISH_EVERY: u64 = 256;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            threats: 2,
            root_depth: crate::search::DEFAULT_DEPTH,
            leaf_depth: 24,
            leaf_nodes: 1_000_000,
            width: 24,
            max_nodes: None,
            max_time: None,
            zone: true,
            search: Search::default(),
            progress: None,
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
}

/// Prove that `a` wins in `pos`, within `limits`, with model `M` at the leaves. When `a` is
/// not to move, every move of the side to move must be answered (inside the zone of `a`'s
/// win were it to pass, when there is one). `stop` ends the search early when set.
pub fn prove<M: Model>(pos: &Position, a: Color, limits: &Limits, stop: &AtomicBool) -> Answer {
    let start = Instant::now();
    let mut prover = Prover::<M> {
        solver: Solver::new(Config {
            depth: limits.leaf_depth,
            max_nodes: Some(limits.leaf_nodes),
            proof: true,
            complete: true,
            tt_entries: 1 << 18,
            ..Config::default()
        }),
        limits,
        a,
        d: a.opponent(),
        stop,
        deadline: limits.max_time.and_then(|t| start.checked_add(t)),
        stopped: false,
        table: FxHashMap::default(),
        killers: Vec::with_capacity(KILLERS + 1),
        answer: Answer {
            verdict: Verdict::NotProven,
            threats: 0,
            nodes: 0,
            leaf_searches: 0,
            leaf_nodes: 0,
            time: Duration::ZERO,
            leaf_time: Duration::ZERO,
        },
    };
    let mut b = pos.board().clone();
    // D has won already: nothing to prove.
    let root_leaf =
        (pos.board().find_win_of(a.opponent()).is_none()).then(|| prover.root_leaf(pos.board()));
    if let (true, Some(Some(leaf))) = (pos.to_move() == a, &root_leaf) {
        prover.answer.verdict = Verdict::Proven(ThreatProof::Leaf { leaf: leaf.clone() });
    } else if let Some(root_leaf) = root_leaf {
        let first = if pos.to_move() == a { 1 } else { 0 };
        // The threat budget grows from the smallest: a proof with fewer threats is cheaper
        // to find, and df-pn keeps what it learnt at each budget in its table.
        let mut dfpn = super::dfpn::Dfpn::new(a);
        for t in first..=limits.threats {
            prover.answer.threats = t;
            prover.publish();
            let defender = (pos.to_move() != a).then(|| (root_leaf.clone(), pos.stones_to_place()));
            let found = match (limits.search, defender) {
                (Search::ProofNumber, defender) => dfpn.run(&mut prover, &mut b, t, defender),
                (Search::DepthFirst, None) => prover.attacker(&mut b, t),
                (Search::DepthFirst, Some((pass, stones))) => {
                    prover.defender_root(&mut b, pass.as_ref(), stones, t)
                }
            };
            if let Some(proof) = found {
                prover.answer.verdict = Verdict::Proven(proof);
                break;
            }
            if prover.stopped {
                prover.answer.verdict = Verdict::Stopped;
                break;
            }
        }
    }
    prover.publish();
    prover.answer.time = start.elapsed();
    prover.answer
}

/// What the search knows of an attacker node.
enum Known {
    /// Proven with this many threats.
    Proven(u32, ThreatProof),
    /// Not proven with this many threats or fewer.
    Failed(u32),
}

/// Refuting defender stones remembered for move ordering.
const KILLERS: usize = 8;

/// Attacker nodes remembered at most; the table is cleared when it holds more.
const TABLE_ENTRIES: usize = 1 << 18;

pub(super) struct Prover<'s, M: Model> {
    solver: Solver<M>,
    pub(super) limits: &'s Limits,
    pub(super) a: Color,
    pub(super) d: Color,
    stop: &'s AtomicBool,
    deadline: Option<Instant>,
    pub(super) stopped: bool,
    /// Keyed by the whole board (A is always to move at an attacker node): a transposition
    /// can never be mistaken for another position.
    table: FxHashMap<Board, Known>,
    /// Defender stones that refuted threats lately, the latest first.
    killers: Vec<Point>,
    pub(super) answer: Answer,
}

impl<M: Model> Prover<'_, M> {
    /// A proof that A, to move on `b`, wins with at most `t` threats on a line.
    fn attacker(&mut self, b: &mut Board, t: u32) -> Option<ThreatProof> {
        if self.out_of_limits() {
            return None;
        }
        match self.table.get(b) {
            Some(Known::Proven(n, proof)) if *n <= t => return Some(proof.clone()),
            Some(Known::Failed(n)) if *n >= t => return None,
            _ => {}
        }
        let found = self.search_attacker(b, t);
        if !self.stopped {
            if self.table.len() >= TABLE_ENTRIES {
                self.table.clear();
            }
            let known = match &found {
                Some(proof) => Known::Proven(proof.threats(), proof.clone()),
                None => Known::Failed(t),
            };
            self.table.insert(b.clone(), known);
        }
        found
    }

    fn search_attacker(&mut self, b: &mut Board, t: u32) -> Option<ThreatProof> {
        if let Some(leaf) = self.leaf(b) {
            return Some(ThreatProof::Leaf { leaf });
        }
        if t == 0 {
            return None;
        }
        for threat in self.threat_moves(b) {
            threat.iter().for_each(|&x| b.set(x, Some(self.a)));
            let found = self.leaf(b).and_then(|pass| {
                let replies = self.defences(b, &pass, t)?;
                Some(ThreatProof::Threat {
                    threat: threat.clone(),
                    pass,
                    replies,
                })
            });
            threat.iter().for_each(|&x| b.set(x, None));
            if found.is_some() || self.stopped {
                return found;
            }
        }
        None
    }

    /// After a threat (on `b`) whose pass win is `pass`: every defence inside its zone
    /// answered, or `None` when one is not.
    fn defences(&mut self, b: &mut Board, pass: &ProofNode, t: u32) -> Option<Vec<Reply>> {
        let zone = self.zone_of(b, Some(pass));
        self.moves_of(b, zone, b.game().p(), t)
    }

    /// D to move on `b`, placing `stones` (1 or 2): every move whose first stone is in `zone`
    /// answered (with `t − 1` threats), or `None` when one is not.
    fn moves_of(
        &mut self,
        b: &mut Board,
        zone: PointSet,
        stones: usize,
        t: u32,
    ) -> Option<Vec<Reply>> {
        let mut done = PointSet::EMPTY;
        let mut replies = Vec::new();
        let firsts: Vec<Point> = zone.iter().filter(|&x| self.may_defend(b, x)).collect();
        for s in self.killers_first(firsts) {
            b.set(s, Some(self.d));
            let answered = if stones == 1 {
                self.answer(b, vec![s], t).map(|r| vec![r])
            } else {
                self.second_stones(b, s, &done, t)
            };
            b.set(s, None);
            let Some(answered) = answered else {
                self.refuted_by(s);
                return None;
            };
            replies.extend(answered);
            done.insert(s);
        }
        Some(replies)
    }

    /// The defences whose first stone is `s` (on `b`), except those whose other stone is in
    /// `done` (answered with that stone first).
    fn second_stones(
        &mut self,
        b: &mut Board,
        s: Point,
        done: &PointSet,
        t: u32,
    ) -> Option<Vec<Reply>> {
        if b.win_through(s, self.d).is_some() {
            return None;
        }
        let pass = self.leaf(b);
        let zone = self.zone_of(b, pass.as_ref());
        let seconds: Vec<Point> = zone
            .iter()
            .filter(|&x| x != s && !done.contains(x) && self.may_defend(b, x))
            .collect();
        let mut replies = Vec::new();
        for x in self.killers_first(seconds) {
            b.set(x, Some(self.d));
            let answered = self.answer(b, vec![s, x], t);
            b.set(x, None);
            let Some(answered) = answered else {
                self.refuted_by(x);
                return None;
            };
            replies.push(answered);
        }
        Some(match pass {
            Some(pass) => vec![Reply::Stone {
                stone: s,
                pass,
                replies,
            }],
            None => replies,
        })
    }

    /// The defence `stones` (played on `b`) answered with `t − 1` threats, or `None`.
    fn answer(&mut self, b: &mut Board, stones: Vec<Point>, t: u32) -> Option<Reply> {
        self.answer.nodes += 1;
        if stones.iter().any(|&x| b.win_through(x, self.d).is_some()) {
            return None;
        }
        let next = self.attacker(b, t - 1)?;
        Some(Reply::Move { stones, next })
    }

    /// `points` with the stones that refuted threats lately first (a defence that refutes one
    /// threat often refutes the next: the search fails sooner).
    pub(super) fn killers_first(&self, mut points: Vec<Point>) -> Vec<Point> {
        let rank = |x: &Point| self.killers.iter().position(|k| k == x).unwrap_or(KILLERS);
        points.sort_by_key(rank);
        points
    }

    /// The defender's stone `x` refuted a threat.
    pub(super) fn refuted_by(&mut self, x: Point) {
        self.killers.retain(|&k| k != x);
        self.killers.insert(0, x);
        self.killers.truncate(KILLERS);
    }

    /// The zone of `pass` on `b`, or every empty point where there is no pass win, no zone
    /// is known (Renju) or zones are not used.
    pub(super) fn zone_of(&self, b: &Board, pass: Option<&ProofNode>) -> PointSet {
        pass.filter(|_| self.limits.zone)
            .and_then(|pass| zone(b, self.a, pass))
            .unwrap_or_else(|| empty_points(b))
    }

    /// May D play the point `x` of `b`?
    pub(super) fn may_defend(&self, b: &Board, x: Point) -> bool {
        b.is_empty(x) && !(renju::applies(b.game(), self.d) && renju::is_forbidden(b, x))
    }

    /// D to move at the root, placing `stones`: every move answered with `t` threats (inside
    /// the zone of `pass`, A's win were D to pass, when there is one).
    fn defender_root(
        &mut self,
        b: &mut Board,
        pass: Option<&ProofNode>,
        stones: usize,
        t: u32,
    ) -> Option<ThreatProof> {
        let zone = self.zone_of(b, pass);
        let replies = self.moves_of(b, zone, stones, t + 1)?;
        Some(ThreatProof::Defence {
            pass: pass.cloned(),
            replies,
        })
    }

    /// The leaf search's proof at the root, at [`Limits::root_depth`], bounded only by the
    /// search's time limit (as `solve`'s).
    fn root_leaf(&mut self, b: &Board) -> Option<ProofNode> {
        let inner = self.solver.config().clone();
        self.solver.set_config(Config {
            depth: self.limits.root_depth,
            max_nodes: None,
            max_time: self.limits.max_time,
            ..inner.clone()
        });
        let found = self.leaf(b);
        self.solver.set_config(inner);
        found
    }

    /// The leaf search's proof that A, to move on `b`, wins.
    pub(super) fn leaf(&mut self, b: &Board) -> Option<ProofNode> {
        let start = Instant::now();
        let found = self.solver.first_win(b, self.a, self.stop);
        self.answer.leaf_searches += 1;
        self.answer.leaf_nodes += found.nodes;
        self.answer.leaf_time += start.elapsed();
        found.proof
    }

    /// A's threat moves on `b` worth trying, the most promising first, at most `width`: moves
    /// of p legal stones near A's and D's windows that leave D no window to complete.
    pub(super) fn threat_moves(&self, b: &Board) -> Vec<Vec<Point>> {
        let game = *b.game();
        let p = game.p();
        let mut score = vec![0u64; MAX_POINTS];
        let mut open = Vec::new();
        for_each_window(b, |cells| {
            for (c, weight) in [(self.a, 2), (self.d, 1)] {
                let (own, blocked) = count(b, c, cells);
                if blocked || own == 0 {
                    continue;
                }
                if c == self.d && own + p >= game.k() {
                    open.push(cells.to_vec());
                }
                let value = weight << (2 * own);
                for &x in cells {
                    score[x.index()] += value;
                }
            }
        });
        let mut points: Vec<Point> = game
            .points()
            .filter(|&x| score[x.index()] > 0 && b.is_empty(x))
            .filter(|&x| !(renju::applies(&game, self.a) && renju::is_forbidden(b, x)))
            .collect();
        points.sort_by_key(|x| std::cmp::Reverse(score[x.index()]));
        let blocks_all = |m: &[Point]| open.iter().all(|w| w.iter().any(|x| m.contains(x)));
        let mut moves: Vec<(u64, Vec<Point>)> = if p == 1 {
            points
                .iter()
                .map(|&x| (score[x.index()], vec![x]))
                .collect()
        } else {
            let top = &points[..points.len().min(self.limits.width.max(12))];
            let mut pairs = Vec::new();
            for (i, &x) in top.iter().enumerate() {
                for &y in &top[i + 1..] {
                    pairs.push((score[x.index()] + score[y.index()], vec![x, y]));
                }
            }
            pairs.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            pairs
        };
        moves.retain(|(_, m)| blocks_all(m));
        moves.truncate(self.limits.width);
        moves.into_iter().map(|(_, m)| m).collect()
    }

    /// Count a node; true (and the search marked stopped) when a limit or a signal ends it.
    pub(super) fn out_of_limits(&mut self) -> bool {
        self.answer.nodes += 1;
        if self.answer.nodes.is_multiple_of(PUBLISH_EVERY) {
            self.publish();
        }
        if self.stopped
            || self.stop.load(Ordering::Relaxed)
            || self.limits.max_nodes.is_some_and(|n| self.answer.nodes > n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        self.stopped
    }
}

impl<M: Model> Prover<'_, M> {
    /// Tell [`Limits::progress`] how far the search is.
    pub(super) fn publish(&self) {
        if let Some(p) = &self.limits.progress {
            p.nodes.store(self.answer.nodes, Ordering::Relaxed);
            p.leaf_searches
                .store(self.answer.leaf_searches, Ordering::Relaxed);
            p.threats.store(self.answer.threats, Ordering::Relaxed);
            p.known.store(self.table.len() as u64, Ordering::Relaxed);
        }
    }
}

/// Every empty point of `b`.
fn empty_points(b: &Board) -> PointSet {
    let mut set = PointSet::EMPTY;
    b.game()
        .points()
        .filter(|&x| b.is_empty(x))
        .for_each(|x| set.insert(x));
    set
}
