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

use super::limits::{Answer, Limits, Progress, Verdict};
use super::lock;
use super::store::Stored;
use super::tree::{Reply, ThreatProof};
use crate::board::Position;
use crate::geom::{Color, Point};
use crate::model::Model;
use crate::renju;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Each pass over the replies still open gives each this many times the time of the pass
/// before.
pub const GROWTH: u32 = 4;

/// One reply's search, as it last ended.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReplyResult {
    /// The reply.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub stone: Point,
    /// `proven`, `not proven` or `stopped`; `not searched` when the run ended before it.
    pub result: &'static str,
    /// The threats on the proof's longest line when proven, else the budget reached.
    pub threats: u32,
    /// Nodes of its searches, over every pass.
    pub nodes: u64,
    /// Wall time of its searches, over every pass, in milliseconds.
    pub time_ms: f64,
    /// The passes that searched it (the last one settled it, unless it is still stopped).
    pub passes: u32,
}

fn as_text<S: serde::Serializer>(x: &Point, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&x.to_string())
}

/// The replies' searches so far: each reply with its last answer and its record, and the
/// costs of every search (every pass) summed.
struct State {
    replies: Vec<(Point, Option<Answer>, ReplyResult)>,
    total: Answer,
    /// The progress of each worker's search under way.
    running: Vec<Option<Arc<Progress>>>,
}

/// The answer for the root and every reply's last search, farthest from the stones first.
#[derive(Clone, Debug)]
pub struct EachReply {
    /// The root's answer: its costs summed over the replies' searches.
    pub answer: Answer,
    /// Every reply searched.
    pub replies: Vec<ReplyResult>,
}

/// Prove `a`'s win in `pos`, the other side to move, each of its replies in a search of its
/// own: `first` long each at first, [`GROWTH`] times longer each pass after (see the module).
/// `limits.max_time` and `limits.max_nodes` bound the whole; `stop` ends it.
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
        };
    }
    let replies = farthest_first(pos, a.opponent());
    let results = Mutex::new(State {
        replies: replies
            .iter()
            .map(|&stone| (stone, None, ReplyResult::new(stone)))
            .collect(),
        total: Answer::default(),
        running: vec![None; limits.threads.max(1)],
    });
    let halt = AtomicBool::new(false);
    let mut slice = first;
    let mut pass = 0;
    loop {
        pass += 1;
        let open: Vec<usize> = lock(&results)
            .replies
            .iter()
            .enumerate()
            .filter(|(_, (_, a, _))| a.as_ref().is_none_or(|a| a.verdict == Verdict::Stopped))
            .map(|(i, _)| i)
            .collect();
        if open.is_empty() || halt.load(Ordering::Relaxed) {
            break;
        }
        let next = Mutex::new(open.into_iter());
        let pass_limits = |spent: u64, progress: &Arc<Progress>| {
            let left = limits.max_time.map(|t| t.saturating_sub(start.elapsed()));
            Limits {
                threads: 1,
                progress: Some(progress.clone()),
                max_time: Some(left.map_or(slice, |left| left.min(slice))),
                max_nodes: limits.max_nodes.map(|n| n.saturating_sub(spent)),
                ..limits.clone()
            }
        };
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                for tick in 0.. {
                    if done.load(Ordering::Relaxed) {
                        break;
                    }
                    if stop.load(Ordering::Relaxed) {
                        halt.store(true, Ordering::Relaxed);
                    }
                    if tick % 25 == 0 {
                        publish(limits, &lock(&results));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let workers: Vec<_> = (0..limits.threads.max(1))
                .map(|w| {
                    let (next, results, halt) = (&next, &results, &halt);
                    let pass_limits = &pass_limits;
                    s.spawn(move || {
                        loop {
                            // The lock is let go before the search (a guard in the loop's
                            // condition would hold it through the body).
                            let Some(i) = lock(next).next() else {
                                break;
                            };
                            if halt.load(Ordering::Relaxed) || out_of_limits(limits, start, results)
                            {
                                break;
                            }
                            let progress = Arc::new(Progress::default());
                            let (stone, spent) = {
                                let mut state = lock(results);
                                state.running[w] = Some(progress.clone());
                                (state.replies[i].0, state.total.nodes)
                            };
                            let after = pos.play(&[stone]).expect("a legal reply");
                            let l = pass_limits(spent, &progress);
                            let got = super::prove::<M>(&after, a, &l, halt);
                            if got.verdict == Verdict::NotProven || got.store_error.is_some() {
                                halt.store(true, Ordering::Relaxed);
                            }
                            let mut state = lock(results);
                            state.running[w] = None;
                            state.total = sum(std::mem::take(&mut state.total), &got);
                            state.replies[i].2.record(&got, pass);
                            state.replies[i].1 = Some(got);
                            publish(limits, &state);
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .for_each(|w| w.join().expect("a reply's search"));
            done.store(true, Ordering::Relaxed);
        });
        if out_of_limits(limits, start, &results) {
            break;
        }
        slice = slice.saturating_mul(GROWTH);
    }
    let State {
        replies: results,
        total,
        ..
    } = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut answer = total;
    answer.verdict = root_verdict(&results);
    answer.refutation = results
        .iter()
        .find(|(_, a, _)| a.as_ref().is_some_and(|a| a.verdict == Verdict::NotProven))
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
    EachReply {
        answer,
        replies: results.into_iter().map(|(_, _, r)| r).collect(),
    }
}

/// The root's verdict from its replies' answers: proven when all are (the proof lists them
/// all), not proven when one is not, else stopped.
fn root_verdict(results: &[(Point, Option<Answer>, ReplyResult)]) -> Verdict {
    let mut replies = Vec::with_capacity(results.len());
    let mut stopped = false;
    for (stone, answer, _) in results {
        match answer.as_ref().map(|a| &a.verdict) {
            Some(Verdict::Proven(next)) => replies.push(Reply::Move {
                stones: vec![*stone],
                next: next.clone(),
            }),
            Some(Verdict::NotProven) => return Verdict::NotProven,
            _ => stopped = true,
        }
    }
    match stopped {
        true => Verdict::Stopped,
        false => Verdict::Proven(ThreatProof::Defence {
            pass: None,
            replies,
        }),
    }
}

/// The root's proof from the store, when it holds one.
fn stored_proof(pos: &Position, a: Color, limits: &Limits) -> Option<ThreatProof> {
    let store = lock(limits.store.as_ref()?);
    let any = super::store::Fingerprint::default();
    match store.lookup(pos.board(), a, &any) {
        Ok(Some(Stored::Proven(proof))) => Some(proof),
        _ => None,
    }
}

/// Whether the whole search's `--time` or `--nodes` is spent.
fn out_of_limits(limits: &Limits, start: Instant, results: &Mutex<State>) -> bool {
    let nodes = lock(results).total.nodes;
    limits.max_time.is_some_and(|t| start.elapsed() >= t)
        || limits.max_nodes.is_some_and(|n| nodes >= n)
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
        .filter(|(_, a, _)| {
            a.as_ref()
                .is_some_and(|a| matches!(a.verdict, Verdict::Proven(_)))
        })
        .count();
    let running = state.running.iter().flatten();
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
    let threats = results.iter().map(|(_, _, r)| r.threats);
    let threats = threats.chain(running.map(|r| r.threats.load(Ordering::Relaxed)));
    p.threats
        .store(threats.max().unwrap_or(0), Ordering::Relaxed);
}

impl ReplyResult {
    fn new(stone: Point) -> Self {
        ReplyResult {
            stone,
            result: "not searched",
            threats: 0,
            nodes: 0,
            time_ms: 0.0,
            passes: 0,
        }
    }

    /// Count a search of this reply in pass `pass`.
    fn record(&mut self, got: &Answer, pass: u32) {
        self.result = got.verdict.name();
        self.threats = got.threats_reached();
        self.nodes += got.nodes;
        self.time_ms += got.time.as_secs_f64() * 1e3;
        self.passes = pass;
    }
}

/// `s` with the costs of `a` added, and the larger threat count.
fn sum(mut s: Answer, a: &Answer) -> Answer {
    s.threats = s.threats.max(a.threats_reached());
    s.add_costs(a);
    s
}
