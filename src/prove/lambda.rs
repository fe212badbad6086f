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

use super::limits::{budgets, Answer, Limits, Search, Verdict, PUBLISH_EVERY};
use super::lock;
use super::table::{BoardKey, Known, Table, GENERATION};
use crate::board::{Board, Position};
use crate::geom::{Color, Point, PointSet};
use crate::model::Model;
use crate::prove::tree::{Reply, ThreatProof};
use crate::prove::zone::{empty_points, threat_zone, zone};
use crate::renju;
use crate::search::proof::ProofNode;
use crate::search::{Config, Solver};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Prove that `a` wins in `pos`, within `limits`, with model `M` at the leaves. When `a` is
/// not to move, every move of the side to move must be answered (inside the zone of `a`'s
/// win were it to pass, when there is one). `stop` ends the search early when set.
pub fn prove<M: Model>(pos: &Position, a: Color, limits: &Limits, stop: &AtomicBool) -> Answer {
    let start = Instant::now();
    let mut prover = Prover::<M>::new(limits, a, stop, start);
    if let Some(proof) = prover.stored(pos.board()) {
        prover.answer.verdict = Verdict::Proven(proof);
        prover.answer.time = start.elapsed();
        return prover.answer;
    }
    let mut b = pos.board().clone();
    // D has won already: nothing to prove.
    let root_leaf =
        (pos.board().find_win_of(a.opponent()).is_none()).then(|| prover.root_leaf(pos.board()));
    if let (true, Some(Some(leaf))) = (pos.to_move() == a, &root_leaf) {
        prover.answer.verdict = Verdict::Proven(ThreatProof::Leaf { leaf: leaf.clone() });
    } else if let Some(root_leaf) = root_leaf {
        let first = if pos.to_move() == a { 1 } else { 0 };
        // The threat budget grows from the smallest (every `--threat-step`-th, the last
        // always): a proof with fewer threats is cheaper to find, and df-pn keeps what it
        // learnt at each budget in its table. Quiet moves, when asked for, join from the first
        // budget where they can act (a second pass with a table of its own: "not proven" means
        // more there); threats are still tried first at every node.
        let quiet = limits.quiet > 0 && pos.game().p() == 1;
        let last_threats_only = if quiet { first } else { limits.threats };
        let step = limits.threat_step;
        // A book's proof of the root: the budgets below its threats are not searched.
        let from = match pos.to_move() == a {
            true => prover.book_budget(pos.board()).min(limits.threats),
            false => 0,
        };
        let budgets = budgets(first, last_threats_only.min(limits.threats), step)
            .into_iter()
            .map(|t| (false, t))
            .chain(
                budgets(first + 1, limits.threats, step)
                    .into_iter()
                    .filter(|_| quiet)
                    .map(|t| (true, t)),
            )
            .filter(|&(_, t)| t >= from);
        let mut dfpn = super::dfpn::Dfpn::new(a);
        for (quiet_phase, t) in budgets {
            prover.quiet_phase = quiet_phase;
            prover.answer.threats = t;
            prover.publish();
            let defender = (pos.to_move() != a).then(|| (root_leaf.clone(), pos.stones_to_place()));
            let found = match (limits.search, defender) {
                (Search::ProofNumber, defender) => dfpn.run(&mut prover, &mut b, t, defender),
                (Search::DepthFirst, None) => prover.attacker_node(&mut b, t, true),
                (Search::DepthFirst, Some((pass, stones))) => {
                    prover.defender_root(&mut b, pass.as_ref(), stones, t)
                }
            };
            if let Some(proof) = found {
                prover.answer.verdict = Verdict::Proven(proof);
                break;
            }
            prover.answer.refutation = match (pos.to_move() == a, limits.search) {
                (true, _) => None,
                (false, Search::ProofNumber) => dfpn.refutation(pos.board()),
                (false, Search::DepthFirst) => prover.refutation.take(),
            };
            if prover.stopped {
                prover.answer.verdict = Verdict::Stopped;
                break;
            }
        }
    }
    if let (Some(_), Verdict::Proven(proof)) = (&limits.store, &prover.answer.verdict) {
        let proof = proof.clone();
        prover.keep(pos.board(), Some(&proof), 0, u64::MAX);
    }
    prover.flush_store(true);
    // A store that failed stopped the search, unless it failed only to keep the proof found:
    // the proof is still the answer (beside the error).
    let proven = prover.answer.verdict.is_proven();
    if prover.answer.store_error.is_some() && !proven {
        prover.answer.verdict = Verdict::Stopped;
    }
    if prover.answer.verdict != Verdict::NotProven {
        prover.answer.refutation = None;
    }
    prover.publish();
    prover.answer.time = start.elapsed();
    // Freeing a long search's tables (millions of entries) takes seconds: a thread of its own
    // does it, so that the answer, and a Ctrl-C, do not wait for it (if no thread can be
    // made, the closure, tables and all, is dropped here).
    let tables = std::mem::take(&mut prover.table);
    let _ = std::thread::Builder::new()
        .name("free-tables".into())
        .spawn(move || drop(tables));
    prover.answer
}

impl<'s, M: Model> Prover<'s, M> {
    /// A prover of `a`'s win within `limits`, stopped by `stop`, its time counted from `start`.
    pub(super) fn new(limits: &'s Limits, a: Color, stop: &'s AtomicBool, start: Instant) -> Self {
        let mut solver = Solver::new(Config {
            depth: limits.leaf_depth,
            max_nodes: Some(limits.leaf_nodes),
            proof: true,
            complete: true,
            tt_entries: 1 << 18,
            ..Config::default()
        });
        // The leaves are positions near one another, and their searches share subtrees:
        // the leaf solver's table keeps what each proved for the next.
        solver.keep_table(true);
        Prover {
            solver,
            limits,
            a,
            d: a.opponent(),
            stop,
            deadline: limits.max_time.and_then(|t| start.checked_add(t)),
            stopped: false,
            table: Arc::new(Mutex::new(
                (0..limits.quiet_depth + 2)
                    .map(|_| Table::new(GENERATION))
                    .collect(),
            )),
            level: 0,
            quiet_phase: false,
            dfpn_positions: 0,
            killers: Vec::with_capacity(KILLERS + 1),
            winners: Vec::with_capacity(KILLERS + 1),
            refutation: None,
            published: (0, 0),
            answer: Answer::default(),
        }
    }

    /// A prover for another thread, stopped by `halt`: the same limits, deadline, defence
    /// order to start with and table of positions known, a solver of its own.
    pub(super) fn worker<'h>(&self, halt: &'h AtomicBool) -> Prover<'h, M>
    where
        's: 'h,
    {
        let mut w = Prover::new(self.limits, self.a, halt, Instant::now());
        w.deadline = self.deadline;
        w.killers = self.killers.clone();
        w.winners = self.winners.clone();
        w.table = self.table.clone();
        w.answer.threats = self.answer.threats;
        w.quiet_phase = self.quiet_phase;
        w
    }
}

impl<M: Model> Prover<'_, M> {
    /// Has the caller's signal been given?
    pub(super) fn signalled(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Count what a worker did (it published its progress itself).
    pub(super) fn absorb(&mut self, w: Answer) {
        self.answer.add_costs(&w);
        self.published.0 += w.nodes;
        self.published.1 += w.leaf_searches;
    }
}

/// Positions known: one table for the search by threats, one for the search with quiet moves
/// (where "not proven" means more), and one for each level below a quiet move's pass (where A
/// has moved once more than D per level, so that a board can look like one of another level
/// with the other side to move, and fewer kinds of move are searched).
type Tables = Vec<Table>;

/// Refuting defender stones (and winning attacker moves) remembered for move ordering.
const KILLERS: usize = 8;

/// `items` in their order but those whose `key` is in `recent` first, the most recent first.
fn recent_first<T, K: PartialEq>(
    recent: &[K],
    mut items: Vec<T>,
    key: impl Fn(&T) -> &K,
) -> Vec<T> {
    items.sort_by_key(|x| recent.iter().position(|r| r == key(x)).unwrap_or(KILLERS));
    items
}

/// Put `x` first in `recent`, keeping at most [`KILLERS`].
fn remember_recent<T: PartialEq>(recent: &mut Vec<T>, x: T) {
    recent.retain(|r| *r != x);
    recent.insert(0, x);
    recent.truncate(KILLERS);
}

pub(super) struct Prover<'s, M: Model> {
    solver: Solver<M>,
    pub(super) limits: &'s Limits,
    pub(super) a: Color,
    pub(super) d: Color,
    stop: &'s AtomicBool,
    deadline: Option<Instant>,
    pub(super) stopped: bool,
    /// What is known of attacker nodes and of positions after a threat, keyed by the whole
    /// board (whose stones say who is to move): a transposition can never be mistaken for
    /// another position. Shared by the threads of one search.
    table: Arc<Mutex<Tables>>,
    /// Quiet moves' pass proofs the search is inside (each its own table; no store below 0).
    pub(super) level: usize,
    /// The second pass of the search, with quiet moves (the first searches threats only, so
    /// that a proof by threats is found at its cost).
    pub(super) quiet_phase: bool,
    /// Positions in the proof-number search's table, when it runs (for [`Progress::known`]).
    pub(super) dfpn_positions: usize,
    /// Defender stones that refuted threats lately, the latest first.
    pub(super) killers: Vec<Point>,
    /// A's moves that won lately, most recent first, tried first among A's candidates.
    winners: Vec<Vec<Point>>,
    /// The last defence the search did not answer (at the root, once the root fails: the
    /// refutation [`Answer::refutation`] reports).
    pub(super) refutation: Option<Vec<Point>>,
    /// Nodes and leaf searches already added to [`Limits::progress`].
    published: (u64, u64),
    pub(super) answer: Answer,
}

impl<M: Model> Prover<'_, M> {
    /// A proof that A, to move on `b`, wins with at most `t` threats on a line.
    fn attacker(&mut self, b: &mut Board, t: u32) -> Option<ThreatProof> {
        self.attacker_node(b, t, false)
    }

    /// [`Prover::attacker`]; at the `root`, its threat moves are jobs on
    /// [`Limits::threads`] threads ([`super::parallel`]).
    pub(super) fn attacker_node(
        &mut self,
        b: &mut Board,
        t: u32,
        root: bool,
    ) -> Option<ThreatProof> {
        if self.out_of_limits() {
            return None;
        }
        if let Some(found) = self.recall(b, t) {
            return found;
        }
        let start = self.answer.nodes;
        let found = self.search_attacker(b, t, root);
        if !self.stopped {
            // The root goes to the store whatever it cost.
            let effort = if root {
                u64::MAX
            } else {
                self.answer.nodes - start
            };
            self.learn(b, found.as_ref(), t, effort);
        }
        found
    }

    /// What the table, then the store, knows of `b` (A to move, or D after A's threat)
    /// within `t` threats: a proof (whatever its threats: a proof is a proof), `Some(None)`
    /// when not proven within `t` or more, `None` when unknown.
    pub(super) fn recall(&mut self, b: &Board, t: u32) -> Option<Option<ThreatProof>> {
        let known = match lock(&self.table)[self.table_index()].get(BoardKey::of(b)) {
            Some(Known::Proven(proof)) => Some(Some(ThreatProof::clone(proof))),
            Some(Known::Failed(n)) if *n >= t => Some(None),
            Some(Known::NoThreat) => Some(None),
            _ => None,
        };
        known.or_else(|| self.stored_within(b, t))
    }

    /// Remember what the search found of `b` within `t` threats, in the table, and in the
    /// store when finding it took `effort` nodes or more ([`Limits::store_min_nodes`]).
    pub(super) fn learn(&mut self, b: &Board, found: Option<&ThreatProof>, t: u32, effort: u64) {
        self.keep(b, found, t, effort);
        let known = match found {
            Some(proof) => Known::Proven(Box::new(proof.clone())),
            None => Known::Failed(t),
        };
        self.remember(b, known);
    }

    /// The table of the search under way ([`Tables`]).
    fn table_index(&self) -> usize {
        match self.quiet_phase {
            false => 0,
            true => 1 + self.level,
        }
    }

    fn remember(&self, b: &Board, known: Known) {
        lock(&self.table)[self.table_index()].insert(BoardKey::of(b), known);
    }

    fn search_attacker(&mut self, b: &mut Board, t: u32, root: bool) -> Option<ThreatProof> {
        if let Some(leaf) = self.leaf(b) {
            return Some(ThreatProof::Leaf { leaf });
        }
        if t == 0 {
            return None;
        }
        let threats = self.threat_moves(b, self.limits.width);
        let quiet_now = self.quiet_phase && self.level < self.limits.quiet_depth && t >= 2;
        let quiets = match quiet_now {
            true => self.threat_moves(b, self.limits.quiet),
            false => Vec::new(),
        };
        // A threat needs one threat to spend, a quiet move two (its pass win's and one). A
        // quiet move among the threat moves, tried first as a threat, takes no rank.
        let quiets = self.budgeted(quiets, t, 2, &threats);
        let threats = self.budgeted(threats, t, 1, &[]);
        let booked = self.follow_book(b, &threats, &quiets, quiet_now.then_some(t));
        if booked.is_some() || self.stopped {
            return booked;
        }
        if root {
            return self.root_moves(b, &threats, &quiets);
        }
        for (threat, t) in &threats {
            let found = self.threat(b, threat, *t);
            if found.is_some() || self.stopped {
                return found;
            }
        }
        for (quiet, t) in &quiets {
            let found = self.quiet(b, quiet, *t);
            if found.is_some() || self.stopped {
                return found;
            }
        }
        None
    }

    /// `moves` (in their order) with the budget each is searched with at a node of `t`
    /// threats: `t`, one less from rank [`Limits::late`] on (ranked among the moves not in
    /// `unranked`); those left with less than `least` dropped; the ones that won lately first.
    fn budgeted(
        &self,
        moves: Vec<Vec<Point>>,
        t: u32,
        least: u32,
        unranked: &[Vec<Point>],
    ) -> Vec<(Vec<Point>, u32)> {
        let late = self.limits.late;
        let mut rank = 0;
        let mut costed = Vec::with_capacity(moves.len());
        for m in moves {
            let mut cost = 0;
            if late > 0 && !unranked.contains(&m) {
                cost = u32::from(rank >= late);
                rank += 1;
            }
            if t >= least + cost {
                costed.push((m, t - cost));
            }
        }
        self.winners_first(costed)
    }

    /// A's `quiet` move on `b`: a threat-space win with `t − 1` threats were D to pass, and
    /// every defence inside that win's zone answered with `t − 1` threats; or `None`.
    pub(super) fn quiet(&mut self, b: &mut Board, quiet: &[Point], t: u32) -> Option<ThreatProof> {
        quiet.iter().for_each(|&x| b.set(x, Some(self.a)));
        let found = self.after_quiet(b, t);
        quiet.iter().for_each(|&x| b.set(x, None));
        let (pass, replies) = found?;
        self.won_by(quiet);
        Some(ThreatProof::Quiet {
            quiet: quiet.to_vec(),
            pass: Arc::new(pass),
            replies,
        })
    }

    /// After a quiet move of A (on `b`): A's threat-space win were D to pass, and the answers
    /// to D's moves inside its zone; `None` when either fails (or the move was a threat:
    /// [`Prover::threat`] has tried it).
    fn after_quiet(&mut self, b: &mut Board, t: u32) -> Option<(ThreatProof, Vec<Reply>)> {
        // Known not to win within `t`, or a threat (proven or not as one)?
        let (known, no_threat) = match lock(&self.table)[self.table_index()].get(BoardKey::of(b)) {
            Some(Known::Failed(n)) => (*n >= t, false),
            Some(Known::Proven(_)) => (true, false),
            Some(Known::NoThreat) => (false, true),
            None => (false, false),
        };
        if known || (!no_threat && self.leaf(b).is_some()) {
            return None;
        }
        if let Some(None) = self.stored_within(b, t) {
            return None;
        }
        let start = self.answer.nodes;
        let answered = self
            .quiet_pass(b, t - 1)
            .and_then(|(pass, zone)| self.moves_of(b, zone, 1, t).map(|r| (pass, r)));
        if answered.is_none() && !self.stopped {
            self.learn(b, None, t, self.answer.nodes - start);
        }
        answered
    }

    /// A's `threat` on `b`, with every defence inside its pass win's zone answered with
    /// `t − 1` threats, or `None`.
    pub(super) fn threat(
        &mut self,
        b: &mut Board,
        threat: &[Point],
        t: u32,
    ) -> Option<ThreatProof> {
        threat.iter().for_each(|&x| b.set(x, Some(self.a)));
        let found = self.after_threat(b, t);
        threat.iter().for_each(|&x| b.set(x, None));
        let (pass, replies) = found?;
        self.won_by(threat);
        Some(ThreatProof::Threat {
            threat: threat.to_vec(),
            pass,
            replies,
        })
    }

    /// After a move of A (on `b`): its pass win and every defence inside that win's zone
    /// answered with `t − 1` threats, or `None` (no threat, or a defence not answered). The
    /// store, when there is one, keeps both answers (a position with D to move is proven as
    /// [`ThreatProof::Defence`]).
    fn after_threat(&mut self, b: &mut Board, t: u32) -> Option<(Arc<ProofNode>, Vec<Reply>)> {
        match self.recall(b, t) {
            Some(None) => return None,
            Some(Some(proof)) => {
                if let Some(answered) = proof.into_pass_and_replies() {
                    return Some(answered);
                }
            }
            None => {}
        }
        let Some(pass) = self.leaf(b) else {
            if self.stopped {
                return None;
            }
            // No threat, whatever the budget (a quiet move may still be one).
            match self.quiet_phase {
                false => self.learn(b, None, u32::MAX, 0),
                true => self.remember(b, Known::NoThreat),
            }
            return None;
        };
        let start = self.answer.nodes;
        let replies = self.defences(b, &pass, t);
        if self.stopped {
            return None;
        }
        let proof = replies.map(|replies| ThreatProof::Defence {
            pass: Some(Arc::new(ThreatProof::Leaf { leaf: pass })),
            replies,
        });
        self.learn(b, proof.as_ref(), t, self.answer.nodes - start);
        proof?.into_pass_and_replies()
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
        for s in self.first_stones(b, zone) {
            let Some(answered) = self.first_stone(b, s, stones, &done, t) else {
                self.refuted_by(s);
                return None;
            };
            replies.extend(answered);
            done.insert(s);
        }
        Some(replies)
    }

    /// The points of `zone` D may play on `b`, those that refuted threats lately first.
    pub(super) fn first_stones(&self, b: &Board, zone: PointSet) -> Vec<Point> {
        let firsts = zone.iter().filter(|&x| self.may_defend(b, x)).collect();
        self.killers_first(firsts)
    }

    /// D's moves (of `stones`) whose first stone is `s` on `b`, answered with `t − 1` threats,
    /// except those whose other stone is in `done`; `None` when one is not.
    pub(super) fn first_stone(
        &mut self,
        b: &mut Board,
        s: Point,
        stones: usize,
        done: &PointSet,
        t: u32,
    ) -> Option<Vec<Reply>> {
        b.set(s, Some(self.d));
        let answered = if stones == 1 {
            self.answer(b, vec![s], t).map(|r| vec![r])
        } else {
            self.second_stones(b, s, done, t)
        };
        b.set(s, None);
        answered
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
            self.refutation = Some(vec![s]);
            return None;
        }
        let pass = self.leaf(b);
        let zone = self.zone_of(b, pass.as_deref());
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
    /// A defence not answered is remembered as the last [`Prover::refutation`].
    fn answer(&mut self, b: &mut Board, stones: Vec<Point>, t: u32) -> Option<Reply> {
        self.answer.nodes += 1;
        let next = match stones.iter().any(|&x| b.win_through(x, self.d).is_some()) {
            true => None,
            false => self.attacker(b, t - 1),
        };
        let Some(next) = next else {
            self.refutation = Some(stones);
            return None;
        };
        Some(Reply::Move {
            stones,
            next: Arc::new(next),
        })
    }

    /// `points` with the stones that refuted threats lately first (a defence that refutes one
    /// threat often refutes the next: the search fails sooner).
    pub(super) fn killers_first(&self, points: Vec<Point>) -> Vec<Point> {
        recent_first(&self.killers, points, |x| x)
    }

    /// `moves` (A's candidates, in their order, each with its budget) with the ones that won
    /// lately first: after a defence that changes little, the move that won before most often
    /// wins again.
    fn winners_first(&self, moves: Vec<(Vec<Point>, u32)>) -> Vec<(Vec<Point>, u32)> {
        recent_first(&self.winners, moves, |(m, _)| m)
    }

    /// A's move `m` (a threat or a quiet move) was proven to win.
    fn won_by(&mut self, m: &[Point]) {
        remember_recent(&mut self.winners, m.to_vec());
    }

    /// The defender's stone `x` refuted a threat.
    pub(super) fn refuted_by(&mut self, x: Point) {
        remember_recent(&mut self.killers, x);
    }

    /// The zone of `pass` on `b`, or every empty point where there is no pass win or zones
    /// are not used.
    pub(super) fn zone_of(&self, b: &Board, pass: Option<&ProofNode>) -> PointSet {
        pass.filter(|_| self.limits.zone)
            .map(|pass| zone(b, self.a, pass))
            .unwrap_or_else(|| empty_points(b))
    }

    /// May D play the point `x` of `b`?
    pub(super) fn may_defend(&self, b: &Board, x: Point) -> bool {
        may_play(b, self.d, x)
    }

    /// May A play the point `x` of `b`?
    pub(super) fn may_attack(&self, b: &Board, x: Point) -> bool {
        may_play(b, self.a, x)
    }

    /// D to move at the root, placing `stones`: every move answered with `t` threats, inside
    /// the zone of A's win were D to pass when there is one: the leaf search's `pass`, or, in
    /// the quiet phase, a threat-space win with `t` threats (searched as a quiet move's pass
    /// is: the opening's last stone was A's quiet move).
    fn defender_root(
        &mut self,
        b: &mut Board,
        pass: Option<&Arc<ProofNode>>,
        stones: usize,
        t: u32,
    ) -> Option<ThreatProof> {
        let (pass, zone) = match pass {
            Some(leaf) => (
                Some(ThreatProof::Leaf { leaf: leaf.clone() }),
                self.zone_of(b, Some(leaf)),
            ),
            None => match self.quiet_phase.then(|| self.quiet_pass(b, t)).flatten() {
                Some((pass, zone)) => (Some(pass), zone),
                None => (None, empty_points(b)),
            },
        };
        if self.stopped {
            return None;
        }
        let firsts = self.first_stones(b, zone);
        let replies = self.defender_root_moves(b, &firsts, stones, t + 1)?;
        Some(ThreatProof::Defence {
            pass: pass.map(Arc::new),
            replies,
        })
    }

    /// A's threat-space win with `t` threats on `b` were D to pass (A's last stone a quiet
    /// move), searched one level down, and the zone D's moves lie in; `None` when there is none.
    pub(super) fn quiet_pass(&mut self, b: &mut Board, t: u32) -> Option<(ThreatProof, PointSet)> {
        self.level += 1;
        let pass = self.attacker(b, t);
        self.level -= 1;
        let pass = pass?;
        let zone = self.quiet_zone(b, &pass);
        Some((pass, zone))
    }

    /// The zone of `pass`, a threat-space win on `b` were D to pass, or every empty point
    /// where zones are not used.
    pub(super) fn quiet_zone(&self, b: &Board, pass: &ThreatProof) -> PointSet {
        match self.limits.zone {
            true => threat_zone(b, self.a, pass),
            false => empty_points(b),
        }
    }

    /// The leaf search's proof at the root, at [`Limits::root_depth`], bounded only by the
    /// search's time limit (as `solve`'s).
    fn root_leaf(&mut self, b: &Board) -> Option<Arc<ProofNode>> {
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

    /// The leaf search's proof that A, to move on `b`, wins. A search the stop signal may
    /// have cut short finds nothing and stops the prover: its "no win" is not one to remember
    /// (a worker halted when its siblings' job decided would otherwise leave a threat marked
    /// "no threat" in the shared table for the next threat budget to trust).
    pub(super) fn leaf(&mut self, b: &Board) -> Option<Arc<ProofNode>> {
        let start = Instant::now();
        let found = self.solver.first_win(b, self.a, self.stop);
        self.answer.leaf_searches += 1;
        self.answer.leaf_nodes += found.nodes;
        self.answer.leaf_time += start.elapsed();
        if found.proof.is_none() && self.signalled() {
            self.stopped = true;
        }
        found.proof.map(Arc::new)
    }

    /// Count a node; true (and the search marked stopped) when a limit or a signal ends it.
    pub(super) fn out_of_limits(&mut self) -> bool {
        self.answer.nodes += 1;
        if self.answer.nodes.is_multiple_of(PUBLISH_EVERY) {
            self.publish();
            self.flush_store(false);
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
    /// Tell [`Limits::progress`] that `done` of the root's `total` alternatives are settled.
    pub(super) fn root_progress(&self, done: usize, total: usize) {
        if let Some(p) = &self.limits.progress {
            p.root_done.store(done as u64, Ordering::Relaxed);
            p.root_total.store(total as u64, Ordering::Relaxed);
        }
    }

    /// A worker settled one of the root's alternatives.
    pub(super) fn root_progress_step(&self) {
        if let Some(p) = &self.limits.progress {
            p.root_done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Tell [`Limits::progress`] the proof-number search's root numbers.
    pub(super) fn root_numbers(&self, pn: u32, dn: u32) {
        if let Some(p) = &self.limits.progress {
            p.root_pn.store(pn, Ordering::Relaxed);
            p.root_dn.store(dn, Ordering::Relaxed);
        }
    }

    /// Tell [`Limits::progress`] how far the search is.
    pub(super) fn publish(&mut self) {
        if let Some(p) = &self.limits.progress {
            let (nodes, leaves) = (self.answer.nodes, self.answer.leaf_searches);
            p.nodes
                .fetch_add(nodes - self.published.0, Ordering::Relaxed);
            p.leaf_searches
                .fetch_add(leaves - self.published.1, Ordering::Relaxed);
            self.published = (nodes, leaves);
            p.threats.store(self.answer.threats, Ordering::Relaxed);
            let known =
                lock(&self.table).iter().map(|t| t.len()).sum::<usize>() + self.dfpn_positions;
            p.known.store(known as u64, Ordering::Relaxed);
            if let Some(store) = &self.limits.store {
                let store = lock(store);
                p.stored.store(store.len(), Ordering::Relaxed);
            }
        }
    }
}

/// May `c` play the point `x` of `b`: empty, and not forbidden to it (Renju's black).
fn may_play(b: &Board, c: Color, x: Point) -> bool {
    b.is_empty(x) && !(renju::applies(b.game(), c) && renju::is_forbidden(b, x))
}
