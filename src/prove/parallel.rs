//! The root's alternatives as jobs, on one thread or several (`--threads`; docs/search.md,
//! "Threads"): job level, as Wu et al.'s job-level proof-number search, at the root. At an
//! attacker root each threat move, then each quiet move, is a job (the first proven ends the
//! others); at a defender root each first stone of the defender is one (the first refuted ends
//! the others). Every worker is a whole prover (its leaf solver, its defence order); they share
//! the table of positions known and the store when there is one, which is how one worker's
//! result reaches another. On one thread the jobs run in order on the prover itself.
//!
//! Verdicts are the serial search's within the same limits: an OR of the same alternatives,
//! an AND of the same defences. The proof may differ (another threat may be proven first).

use super::lambda::Prover;
use super::limits::Answer;
use super::lock;
use super::tree::{Reply, ThreatProof};
use crate::board::Board;
use crate::geom::Point;
use crate::model::Model;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A job: the `i`-th alternative searched by a worker on its own board.
type Job<'j, M, T> = dyn Fn(&mut Prover<'_, M>, &mut Board, usize) -> Option<T> + Sync + 'j;

/// How jobs combine.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// The first success is the answer.
    Any,
    /// Every job must succeed.
    All,
}

impl<M: Model> Prover<'_, M> {
    /// The attacker's `threats`, then its `quiets`, each with its threat budget, on `b` as
    /// jobs (the first proven is the proof).
    pub(super) fn root_moves(
        &mut self,
        b: &Board,
        threats: &[(Vec<Point>, u32)],
        quiets: &[(Vec<Point>, u32)],
    ) -> Option<ThreatProof> {
        let jobs = threats.len() + quiets.len();
        let proven = self.jobs(b, jobs, Combine::Any, &|w, b, i| match threats.get(i) {
            Some((threat, t)) => w.threat(b, threat, *t),
            None => {
                let (quiet, t) = &quiets[i - threats.len()];
                w.quiet(b, quiet, *t)
            }
        });
        proven.and_then(|mut proofs| proofs.pop())
    }

    /// The defender's moves at the root as jobs: D to move on `b`, placing `stones`, every
    /// move whose first stone is in `firsts` answered with `t` threats (a pair whose other
    /// stone comes earlier in `firsts` is answered there).
    pub(super) fn defender_root_moves(
        &mut self,
        b: &Board,
        firsts: &[Point],
        stones: usize,
        t: u32,
    ) -> Option<Vec<Reply>> {
        let found = self.jobs(b, firsts.len(), Combine::All, &|w, b, i| {
            let done = firsts[..i]
                .iter()
                .fold(crate::PointSet::EMPTY, |mut set, &x| {
                    set.insert(x);
                    set
                });
            w.first_stone(b, firsts[i], stones, &done, t)
        })?;
        Some(found.into_iter().flatten().collect())
    }

    /// Run `jobs` jobs here, in order (one thread), or on workers; the combination's results
    /// in job order, or `None` when it fails or the search stopped (then marked stopped).
    fn jobs<T: Send>(
        &mut self,
        b: &Board,
        jobs: usize,
        combine: Combine,
        job: &Job<'_, M, T>,
    ) -> Option<Vec<T>> {
        self.root_progress(0, jobs);
        let threads = self.limits.threads.min(jobs);
        if threads > 1 {
            return self.jobs_on(b, threads, jobs, combine, job);
        }
        let mut b = b.clone();
        let mut results = Vec::new();
        for i in 0..jobs {
            let found = job(self, &mut b, i);
            if self.stopped {
                return None;
            }
            self.root_progress(i + 1, jobs);
            match (found, combine) {
                (Some(r), Combine::Any) => return Some(vec![r]),
                (Some(r), Combine::All) => results.push(r),
                (None, Combine::All) => return None,
                (None, Combine::Any) => {}
            }
        }
        (combine == Combine::All).then_some(results)
    }

    /// [`Prover::jobs`] on `threads` workers, each a prover of its own on a copy of `b`.
    fn jobs_on<T: Send>(
        &mut self,
        b: &Board,
        threads: usize,
        jobs: usize,
        combine: Combine,
        job: &Job<'_, M, T>,
    ) -> Option<Vec<T>> {
        let shared = Shared {
            halt: AtomicBool::new(false),
            next: AtomicUsize::new(0),
            results: Mutex::new(Vec::new()),
            refuted: AtomicBool::new(false),
            answers: Mutex::new(Vec::new()),
            refutation: Mutex::new(None),
            running: AtomicUsize::new(threads),
        };
        let parent = &*self;
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| parent.work(b, jobs, combine, job, &shared));
            }
            // The caller's signal reaches the workers through `halt`.
            while shared.running.load(Ordering::Relaxed) > 0 {
                if parent.signalled() {
                    shared.halt.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        self.combined(shared, jobs, combine)
    }

    /// One worker: jobs taken in turn until none is left or the search halts.
    fn work<T: Send>(
        &self,
        b: &Board,
        jobs: usize,
        combine: Combine,
        job: &Job<'_, M, T>,
        shared: &Shared<T>,
    ) {
        let mut w = self.worker(&shared.halt);
        let mut b = b.clone();
        loop {
            let i = shared.next.fetch_add(1, Ordering::Relaxed);
            if i >= jobs || shared.halt.load(Ordering::Relaxed) {
                break;
            }
            let found = job(&mut w, &mut b, i);
            if w.stopped {
                break;
            }
            w.root_progress_step();
            let decides = match found {
                Some(found) => {
                    lock(&shared.results).push((i, found));
                    combine == Combine::Any
                }
                None if combine == Combine::All => {
                    let mut first = lock(&shared.refutation);
                    if first.is_none() {
                        *first = w.refutation.take();
                    }
                    true
                }
                None => false,
            };
            if decides {
                shared
                    .refuted
                    .store(combine == Combine::All, Ordering::Relaxed);
                shared.halt.store(true, Ordering::Relaxed);
            }
        }
        w.flush_store(true);
        // Stopped by its own limits, not because the search was decided.
        let limit = w.stopped && !shared.halt.load(Ordering::Relaxed);
        lock(&shared.answers).push((w.answer, limit));
        shared.running.fetch_sub(1, Ordering::Relaxed);
    }

    /// The workers' answers counted, and their results combined.
    fn combined<T>(&mut self, shared: Shared<T>, jobs: usize, combine: Combine) -> Option<Vec<T>> {
        let mut stopped = self.signalled();
        if let Some(refutation) = shared
            .refutation
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            self.refutation = Some(refutation);
        }
        for (answer, limit) in shared
            .answers
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            self.absorb(answer);
            stopped |= limit;
        }
        let mut results = shared
            .results
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        results.sort_by_key(|&(i, _)| i);
        let (any, all) = (!results.is_empty(), results.len() == jobs);
        let results = results.into_iter().map(|(_, r)| r);
        match combine {
            Combine::Any if any => Some(results.take(1).collect()),
            Combine::Any => {
                self.stopped |= stopped;
                None
            }
            Combine::All if shared.refuted.load(Ordering::Relaxed) => None,
            Combine::All if all => Some(results.collect()),
            Combine::All => {
                // Neither refuted nor answered everywhere: stopped.
                self.stopped = true;
                None
            }
        }
    }
}

/// What the workers of one [`Prover::jobs`] share.
struct Shared<T> {
    /// Set when the combination is decided or the caller's signal came: the workers stop.
    halt: AtomicBool,
    /// The next job to take.
    next: AtomicUsize,
    /// The jobs that succeeded, with their indices.
    results: Mutex<Vec<(usize, T)>>,
    /// A job of an `All` failed.
    refuted: AtomicBool,
    /// The defence that failed the first job of an `All` to fail (its worker's
    /// [`Prover::refutation`]).
    refutation: Mutex<Option<Vec<Point>>>,
    /// Each worker's answer, and whether its own limits stopped it.
    answers: Mutex<Vec<(Answer, bool)>>,
    /// Workers still running.
    running: AtomicUsize,
}
