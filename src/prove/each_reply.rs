//! A defender's root proven one reply at a time (`cpbim prove --side A --each-reply S`;
//! docs/search.md, "Each reply on its own"): every legal move of the side to move is followed
//! by a search of its own for A's win — S seconds each at first, the replies still open then
//! searched again with four times as long, and so on — instead of one search of the root,
//! which deepens every reply's threat budget together and begins again from the first reply at
//! each budget, so that one hard reply holds up all the others.
//!
//! The root is proven when every reply is; it is not proven when one reply's search exhausts
//! the limits (that reply is the refutation); a limit or a signal stops it. The replies run
//! on [`Limits::threads`] threads, one search a thread, sharing the store, which keeps each
//! reply's proof: the same command run again takes the proven replies from it at once. The
//! root's proof lists every reply (`pass` null), so it needs no zone.
//!
//! With a store, a reply's proof is not held while the others are searched: the store keeps
//! it, and the root's proof is read back from there, reply by reply, once every reply is
//! proven (held, the proofs of 190 Renju replies took 9 GB before any search began).

use super::canonical::canonical;
use super::limits::{Answer, Limits, Progress, Verdict};
use super::lock;
use super::store::{Effort, Fingerprint, Store, StoreError};
use super::tree::{Reply, ThreatProof};
use crate::board::{Board, Position};
use crate::geom::{Color, Point};
use crate::model::Model;
use crate::renju;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Each search of a reply still open gives it this many times the time of its search before.
pub const GROWTH: u32 = 4;

/// A search under way is recorded in the store this often (a run killed loses at most this
/// much of its costs' record, never what it found).
const RECORD_EVERY: Duration = Duration::from_secs(30);

/// One reply and what its searches found and cost: over every pass of every run when there is
/// a store (its record there), else of this run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReplyResult {
    /// The reply.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub stone: Point,
    /// Its last search's result, the threats reached, the costs and the searches ended.
    #[serde(flatten)]
    pub effort: Effort,
}

fn as_text<S: serde::Serializer>(x: &Point, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&x.to_string())
}

/// A reply's search under way.
struct Running {
    reply: usize,
    progress: Arc<Progress>,
    start: Instant,
}

/// How a reply's last search ended.
enum Outcome {
    /// Proven: the proof, or none when the store holds it (read back for the root's proof).
    Proven(Option<ThreatProof>),
    NotProven,
    Stopped,
}

/// The replies' searches so far: each reply with how its last search ended and its record,
/// and the costs of this run's searches summed.
struct State {
    replies: Vec<(Point, Option<Outcome>, ReplyResult)>,
    total: Answer,
    /// Each worker's search under way.
    running: Vec<Option<Running>>,
}

/// One run of `--each-reply`: the root, what the replies' searches found, and the flag that
/// ends them.
struct Run<'a> {
    pos: &'a Position,
    a: Color,
    limits: &'a Limits,
    first: Duration,
    start: Instant,
    results: Mutex<State>,
    halt: AtomicBool,
}

/// The answer for the root and every reply's last search, farthest from the stones first.
#[derive(Clone, Debug)]
pub struct EachReply {
    /// The root's answer: the costs of this run's searches summed.
    pub answer: Answer,
    /// Every reply searched.
    pub replies: Vec<ReplyResult>,
    /// The replies' costs summed over every run (a position two replies lead to, one the
    /// mirror of the other, counted once).
    pub total: Effort,
}

/// Prove `a`'s win in `pos`, the other side to move, each of its replies in a search of its
/// own: `first` long at first, [`GROWTH`] times longer each search after (see the module).
/// `limits.max_time` and `limits.max_nodes` bound the whole; `stop` ends it. With a store,
/// each reply's record there carries its costs and the length of its next search from one
/// run to the next.
pub fn prove_each_reply<M: Model>(
    pos: &Position,
    a: Color,
    limits: &Limits,
    first: Duration,
    stop: &AtomicBool,
) -> EachReply {
    assert!(
        pos.to_move() != a && pos.game().p() == 1,
        "a defender's root of single stones"
    );
    let start = Instant::now();
    let stopped = |e: StoreError| EachReply {
        answer: Answer {
            verdict: Verdict::Stopped,
            store_error: Some(e.to_string()),
            time: start.elapsed(),
            ..Answer::default()
        },
        replies: Vec::new(),
        total: Effort::default(),
    };
    if let Some(proof) = stored_proof(pos, a, limits) {
        let answer = Answer {
            verdict: Verdict::Proven(proof),
            store_hits: 1,
            time: start.elapsed(),
            ..Answer::default()
        };
        return EachReply {
            answer,
            replies: Vec::new(),
            total: Effort::default(),
        };
    }
    let replies = farthest_first(pos, a.opponent());
    let mut records = Vec::with_capacity(replies.len());
    for &stone in &replies {
        match recorded(limits, &after(pos, stone), a) {
            Ok(effort) => records.push(ReplyResult { stone, effort }),
            Err(e) => return stopped(e),
        }
    }
    let run = Run {
        pos,
        a,
        limits,
        first,
        start,
        results: Mutex::new(State {
            replies: replies
                .iter()
                .zip(records)
                .map(|(&s, r)| (s, None, r))
                .collect(),
            total: Answer::default(),
            running: (0..limits.threads.max(1)).map(|_| None).collect(),
        }),
        halt: AtomicBool::new(false),
    };
    while let Some(open) = run.open() {
        let next = Mutex::new(open.into_iter());
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| run.watch(&done, stop));
            let workers: Vec<_> = (0..limits.threads.max(1))
                .map(|w| {
                    let (next, run) = (&next, &run);
                    s.spawn(move || loop {
                        // The lock is let go before the search (a guard in the loop's
                        // condition would hold it through the body).
                        let Some(i) = lock(next).next() else {
                            break;
                        };
                        if run.halt.load(Ordering::Relaxed) || run.out_of_limits() {
                            break;
                        }
                        run.search_reply::<M>(w, i);
                    })
                })
                .collect();
            workers
                .into_iter()
                .for_each(|w| w.join().expect("a reply's search"));
            done.store(true, Ordering::Relaxed);
        });
        if run.out_of_limits() {
            break;
        }
    }
    let State {
        replies: results,
        total,
        ..
    } = run.results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut answer = total;
    answer.verdict = root_verdict(pos, a, limits, &results).unwrap_or_else(|e| {
        answer.store_error = Some(e.to_string());
        Verdict::Stopped
    });
    answer.refutation = results
        .iter()
        .find(|(_, o, _)| matches!(o, Some(Outcome::NotProven)))
        .map(|(stone, _, _)| vec![*stone]);
    if answer.store_error.is_some() {
        answer.verdict = Verdict::Stopped;
    }
    // The root's proof is kept when it fits (its replies' proofs are kept anyway, so the same
    // command rebuilds it from them); a store that fails here loses nothing of it: the proof
    // is still the answer, beside the error.
    if let (Some(store), Verdict::Proven(proof)) = (&limits.store, &answer.verdict) {
        let mut store = lock(store);
        store.put_proof(pos.board(), a, proof);
        if let Err(e) = store.flush() {
            answer.store_error = Some(e.to_string());
        }
    }
    answer.time = start.elapsed();
    let replies: Vec<ReplyResult> = results.into_iter().map(|(_, _, r)| r).collect();
    let total = costs_in_all(pos, a, limits, &replies);
    EachReply {
        answer,
        replies,
        total,
    }
}

/// `a`'s win in `pos` proven by one search, or, with `each_reply` (the first searches'
/// length), one reply at a time: the answer, and then the replies' records and their costs in
/// all (what [`add_json`] reports).
pub fn prove_or_each<M: Model>(
    pos: &Position,
    a: Color,
    limits: &Limits,
    each_reply: Option<Duration>,
    stop: &AtomicBool,
) -> (Answer, Option<(Vec<ReplyResult>, Effort)>) {
    match each_reply {
        None => (super::prove::<M>(pos, a, limits, stop), None),
        Some(first) => {
            let r = prove_each_reply::<M>(pos, a, limits, first, stop);
            (r.answer, Some((r.replies, r.total)))
        }
    }
}

/// Why `side`'s win in `pos` cannot be proven one reply at a time, if it cannot: the replies
/// are the other side's (so it must be to move), one stone each.
pub fn refusal(pos: &Position, side: Color) -> Option<&'static str> {
    if side == pos.to_move() {
        Some("the replies of the side to move are searched: ask for the other side's win")
    } else if pos.game().p() != 1 {
        Some("the games of one stone a move only")
    } else {
        None
    }
}

/// Add the replies and their costs to `json`, an answer's JSON (`each_reply`,
/// `each_reply_total`; docs/json.md).
pub fn add_json(json: &mut serde_json::Value, replies: &[ReplyResult], total: &Effort) {
    json["each_reply"] = serde_json::to_value(replies).expect("records are plain JSON");
    json["each_reply_total"] = serde_json::json!({"nodes": total.nodes, "time_ms": total.time_ms});
}

/// The position after `stone`.
fn after(pos: &Position, stone: Point) -> Position {
    pos.play(&[stone]).expect("a legal reply")
}

impl Run<'_> {
    /// The replies still open (not searched, or stopped), unless the run is halted or none is.
    fn open(&self) -> Option<Vec<usize>> {
        let open: Vec<usize> = lock(&self.results)
            .replies
            .iter()
            .enumerate()
            .filter(|(_, (_, o, _))| matches!(o, None | Some(Outcome::Stopped)))
            .map(|(i, _)| i)
            .collect();
        (!open.is_empty() && !self.halt.load(Ordering::Relaxed)).then_some(open)
    }

    /// Whether the whole search's `--time` or `--nodes` is spent.
    fn out_of_limits(&self) -> bool {
        let nodes = lock(&self.results).total.nodes;
        self.limits
            .max_time
            .is_some_and(|t| self.start.elapsed() >= t)
            || self.limits.max_nodes.is_some_and(|n| nodes >= n)
    }

    /// Search reply `i` on worker `w` once, for the time its record asks (`first` ×
    /// [`GROWTH`]^its searches), and record what it found and cost.
    fn search_reply<M: Model>(&self, w: usize, i: usize) {
        let progress = Arc::new(Progress::default());
        let (stone, spent, passes) = {
            let mut state = lock(&self.results);
            state.running[w] = Some(Running {
                reply: i,
                progress: progress.clone(),
                start: Instant::now(),
            });
            let (stone, _, record) = &state.replies[i];
            (*stone, state.total.nodes, record.effort.passes)
        };
        let slice = self.first.saturating_mul(GROWTH.saturating_pow(passes));
        let left = (self.limits.max_time).map(|t| t.saturating_sub(self.start.elapsed()));
        let l = Limits {
            threads: 1,
            progress: Some(progress),
            max_time: Some(left.map_or(slice, |left| left.min(slice))),
            max_nodes: self.limits.max_nodes.map(|n| n.saturating_sub(spent)),
            ..self.limits.clone()
        };
        let own_slice = l.max_time == Some(slice);
        let after = after(self.pos, stone);
        let mut got = super::prove::<M>(&after, self.a, &l, &self.halt);
        // A search counts as one of the reply's when it settled the reply or spent its own
        // time; one cut short by the run's limits or a signal only adds its costs.
        let whole = got.verdict != Verdict::Stopped || (own_slice && got.time >= slice);
        if got.verdict == Verdict::NotProven || got.store_error.is_some() {
            self.halt.store(true, Ordering::Relaxed);
        }
        let record = {
            let mut state = lock(&self.results);
            state.running[w] = None;
            state.total = sum(std::mem::take(&mut state.total), &got);
            state.replies[i].2.record(&got, whole);
            let outcome = match std::mem::replace(&mut got.verdict, Verdict::Stopped) {
                Verdict::Proven(proof) => {
                    Outcome::Proven(unless_stored(self.limits, &after, self.a, proof))
                }
                Verdict::NotProven => Outcome::NotProven,
                Verdict::Stopped => Outcome::Stopped,
            };
            state.replies[i].1 = Some(outcome);
            publish(self.limits, &state);
            state.replies[i].2.effort.clone()
        };
        if let Err(e) = keep_record(self.limits, after.board(), self.a, &record, true) {
            self.failed_store(e);
        }
    }

    /// Publish the progress every half second, record the searches under way in the store
    /// every [`RECORD_EVERY`], and turn `stop` into `halt`, until `done`.
    fn watch(&self, done: &AtomicBool, stop: &AtomicBool) {
        let mut recorded = Instant::now();
        for tick in 0.. {
            if done.load(Ordering::Relaxed) {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                self.halt.store(true, Ordering::Relaxed);
            }
            if tick % 25 == 0 {
                publish(self.limits, &lock(&self.results));
            }
            if recorded.elapsed() >= RECORD_EVERY {
                recorded = Instant::now();
                for (stone, effort) in under_way(&lock(&self.results)) {
                    let after = after(self.pos, stone);
                    if let Err(e) = keep_record(self.limits, after.board(), self.a, &effort, false)
                    {
                        self.failed_store(e);
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A store that failed ends the run, its error in the answer.
    fn failed_store(&self, e: StoreError) {
        lock(&self.results)
            .total
            .store_error
            .get_or_insert(e.to_string());
        self.halt.store(true, Ordering::Relaxed);
    }
}

/// The searches under way, each as its reply and its record were it to end now (stopped).
fn under_way(state: &State) -> Vec<(Point, Effort)> {
    let running = state.running.iter().flatten();
    running
        .map(|r| {
            let (stone, _, record) = &state.replies[r.reply];
            let mut effort = record.effort.clone();
            effort.result = "stopped".to_string();
            effort.threats = r.progress.threats.load(Ordering::Relaxed);
            effort.nodes += r.progress.nodes.load(Ordering::Relaxed);
            effort.time_ms += r.start.elapsed().as_secs_f64() * 1e3;
            (*stone, effort)
        })
        .collect()
}

/// The record of the position `after` a reply (none without a store, or before its first).
fn recorded(limits: &Limits, after: &Position, a: Color) -> Result<Effort, StoreError> {
    let Some(store) = &limits.store else {
        return Ok(Effort::default());
    };
    let effort = lock(store).effort(after.board(), a, &Fingerprint::of(limits))?;
    Ok(effort.unwrap_or_default())
}

/// Keep `effort` as the record of the position `after` a reply, committed `now` or when due.
fn keep_record(
    limits: &Limits,
    after: &Board,
    a: Color,
    effort: &Effort,
    now: bool,
) -> Result<(), StoreError> {
    let Some(store) = &limits.store else {
        return Ok(());
    };
    let mut store = lock(store);
    store.put_effort(after, a, &Fingerprint::of(limits), effort);
    match now {
        true => store.flush(),
        false => store.flush_if_due(),
    }
}

/// The replies' costs summed; with a store, each position once (a reply and its mirror lead
/// to one record).
fn costs_in_all(pos: &Position, a: Color, limits: &Limits, replies: &[ReplyResult]) -> Effort {
    let mut seen = std::collections::HashSet::new();
    let mut total = Effort {
        result: String::new(),
        ..Effort::default()
    };
    for r in replies {
        let (key, _) = canonical(after(pos, r.stone).board(), a);
        if limits.store.is_none() || seen.insert(key) {
            total.nodes += r.effort.nodes;
            total.time_ms += r.effort.time_ms;
            total.passes = total.passes.max(r.effort.passes);
        }
    }
    total
}

/// `proof`, a reply's, unless the store holds it (then it is read back at the end).
fn unless_stored(
    limits: &Limits,
    after: &Position,
    a: Color,
    proof: ThreatProof,
) -> Option<ThreatProof> {
    let held = limits
        .store
        .as_ref()
        .is_some_and(|s| lock(s).holds_proof_of(after.board(), a).unwrap_or(false));
    (!held).then_some(proof)
}

/// The root's verdict from its replies' searches: proven when all are (the proof lists them
/// all, those the store holds read back from it), not proven when one is not, else stopped.
fn root_verdict(
    pos: &Position,
    a: Color,
    limits: &Limits,
    results: &[(Point, Option<Outcome>, ReplyResult)],
) -> Result<Verdict, StoreError> {
    if results
        .iter()
        .any(|(_, o, _)| matches!(o, Some(Outcome::NotProven)))
    {
        return Ok(Verdict::NotProven);
    }
    if !results
        .iter()
        .all(|(_, o, _)| matches!(o, Some(Outcome::Proven(_))))
    {
        return Ok(Verdict::Stopped);
    }
    let mut replies = Vec::with_capacity(results.len());
    for (stone, outcome, _) in results {
        let Some(Outcome::Proven(proof)) = outcome else {
            unreachable!("every reply proven")
        };
        let next = match (proof, &limits.store) {
            (Some(proof), _) => proof.clone(),
            (None, Some(store)) => lock(store).held_proof(after(pos, *stone).board(), a)?,
            (None, None) => unreachable!("a proof not held is in the store"),
        };
        replies.push(Reply::Move {
            stones: vec![*stone],
            next: Arc::new(next),
        });
    }
    Ok(Verdict::Proven(ThreatProof::Defence {
        pass: None,
        replies,
    }))
}

/// The replies a run of `pos` searches one by one (the legal moves of the side to move, in the
/// run's order), each with whether `store` holds `a`'s win after it: what a long run has
/// proven so far (`cpbim store replies`). `pos` is one [`refusal`] accepts.
pub fn replies_held(
    store: &Store,
    pos: &Position,
    a: Color,
) -> Result<Vec<(Point, bool)>, StoreError> {
    farthest_first(pos, a.opponent())
        .into_iter()
        .map(|x| Ok((x, store.holds_proof_of(after(pos, x).board(), a)?)))
        .collect()
}

/// The root's proof from the store, when it holds one.
fn stored_proof(pos: &Position, a: Color, limits: &Limits) -> Option<ThreatProof> {
    let store = lock(limits.store.as_ref()?);
    store.proof_of(pos.board(), a).ok().flatten()
}

/// The legal moves of `d` on `pos`, those farthest from every stone first (they are proven
/// soonest, and their proofs fill the store with what the nearer ones reuse).
fn farthest_first(pos: &Position, d: Color) -> Vec<Point> {
    let b = pos.board();
    let forbidden = |x: Point| renju::applies(b.game(), d) && renju::is_forbidden(b, x);
    let stones: Vec<Point> = b.iter().map(|(x, _)| x).collect();
    let distance = |x: Point| {
        stones
            .iter()
            .map(|s| s.col().abs_diff(x.col()).max(s.row().abs_diff(x.row())))
            .min()
            .unwrap_or(0)
    };
    let mut moves: Vec<Point> = super::zone::empty_points(b)
        .iter()
        .filter(|&x| !forbidden(x))
        .collect();
    moves.sort_by_key(|&x| (std::cmp::Reverse(distance(x)), x.index()));
    moves
}

/// Publish the replies settled so far as the root's progress, with the nodes and leaf
/// searches of every search, those under way included.
fn publish(limits: &Limits, state: &State) {
    let Some(p) = &limits.progress else {
        return;
    };
    let results = &state.replies;
    let proven = results
        .iter()
        .filter(|(_, o, _)| matches!(o, Some(Outcome::Proven(_))))
        .count();
    let running = state.running.iter().flatten().map(|r| &r.progress);
    let load = |x: &std::sync::atomic::AtomicU64| x.load(Ordering::Relaxed);
    let (nodes, leaves, known) = running.clone().fold(
        (state.total.nodes, state.total.leaf_searches, 0),
        |(n, l, k), r| {
            (
                n + load(&r.nodes),
                l + load(&r.leaf_searches),
                k + load(&r.known),
            )
        },
    );
    p.root_done.store(proven as u64, Ordering::Relaxed);
    p.root_total.store(results.len() as u64, Ordering::Relaxed);
    p.nodes.store(nodes, Ordering::Relaxed);
    p.leaf_searches.store(leaves, Ordering::Relaxed);
    p.known.store(known, Ordering::Relaxed);
    if let Some(stored) = running.clone().map(|r| load(&r.stored)).max() {
        p.stored.store(stored, Ordering::Relaxed);
    }
    let threats = results.iter().map(|(_, _, r)| r.effort.threats);
    let threats = threats.chain(running.map(|r| r.threats.load(Ordering::Relaxed)));
    p.threats
        .store(threats.max().unwrap_or(0), Ordering::Relaxed);
}

impl ReplyResult {
    /// Count a search of this reply that ended with `got`, as one of its searches when
    /// `whole`; a proof the store held at once is no search.
    fn record(&mut self, got: &Answer, whole: bool) {
        let e = &mut self.effort;
        e.result = got.verdict.name().to_string();
        e.threats = got.threats_reached();
        if got.store_hits > 0 && got.nodes == 0 && got.leaf_searches == 0 {
            return;
        }
        e.nodes += got.nodes;
        e.time_ms += got.time.as_secs_f64() * 1e3;
        e.passes += u32::from(whole);
    }
}

/// `s` with the costs of `a` added, and the larger threat count.
fn sum(mut s: Answer, a: &Answer) -> Answer {
    s.threats = s.threats.max(a.threats_reached());
    s.add_costs(a);
    s
}
