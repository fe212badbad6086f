//! Long operations of the server: each job runs on tokio's blocking pool with its own solver
//! or engine, so a slow one blocks neither the page nor another job. A job has a stop flag
//! (the one every search takes), set by `DELETE /api/jobs/{id}` or when the job has run
//! [`Options::job_time`]; its progress and result are published on a watch channel that the
//! event stream and `?wait=1` read.

use super::{ApiError, Options};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How often the event stream reports progress while a job runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// How often [`polled`] reads the progress of work that publishes it in shared counters.
const POLL_EVERY: Duration = Duration::from_millis(100);

/// Finished jobs kept for `GET /api/jobs/{id}`; older ones are forgotten.
const KEPT: usize = 64;

/// Where a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    /// Still working.
    Running,
    /// Answered: the result is there.
    Done,
    /// Failed: the error is there.
    Failed,
    /// Cancelled by a request; whatever it would have answered is dropped.
    Cancelled,
}

impl JobState {
    /// `running`, `done`, `failed`, `cancelled`.
    pub fn name(self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }
}

/// What is known of a job.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Its state.
    pub state: JobState,
    /// The last progress the work reported (an object; `null` before any).
    pub progress: Value,
    /// The result, once done: the object of the CLI's `--json` output.
    pub result: Option<Value>,
    /// Why it failed.
    pub error: Option<String>,
    /// Wall time, once it ended.
    pub elapsed: Option<Duration>,
}

/// One job.
pub struct Job {
    /// Its number.
    pub id: u64,
    /// `solve`, `analyze` or `move`.
    pub kind: &'static str,
    started: Instant,
    stop: AtomicBool,
    tx: watch::Sender<Snapshot>,
}

impl Job {
    /// What is known now.
    pub fn snapshot(&self) -> Snapshot {
        self.tx.borrow().clone()
    }

    /// Ask the work to stop and drop its answer.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let elapsed = self.started.elapsed();
        self.tx.send_if_modified(|s| {
            let running = s.state == JobState::Running;
            if running {
                s.state = JobState::Cancelled;
                s.elapsed = Some(elapsed);
            }
            running
        });
    }

    /// Wait until the job has ended.
    pub async fn ended(&self) -> Snapshot {
        let mut rx = self.tx.subscribe();
        let s = rx
            .wait_for(|s| s.state != JobState::Running)
            .await
            .map(|s| s.clone());
        s.unwrap_or_else(|_| self.snapshot())
    }

    fn elapsed_ms(&self, s: &Snapshot) -> f64 {
        let d = s.elapsed.unwrap_or_else(|| self.started.elapsed());
        (d.as_secs_f64() * 1e6).round() / 1e3
    }

    /// `{"id", "kind", "state", "elapsed_ms", "progress", "result", "error"}`.
    pub fn status_json(&self, s: &Snapshot) -> Value {
        json!({
            "id": self.id,
            "kind": self.kind,
            "state": s.state.name(),
            "elapsed_ms": self.elapsed_ms(s),
            "progress": s.progress,
            "result": s.result,
            "error": s.error,
        })
    }

    /// The progress event: the work's own progress object with `elapsed_ms`.
    fn progress_json(&self, s: &Snapshot) -> Value {
        let mut v = match &s.progress {
            Value::Object(o) => Value::Object(o.clone()),
            _ => json!({}),
        };
        v["elapsed_ms"] = json!(self.elapsed_ms(s));
        v
    }
}

/// The work of a job: given the stop flag and a way to report progress, the result object or
/// an error message.
pub type Work =
    Box<dyn FnOnce(&AtomicBool, &(dyn Fn(Value) + Sync)) -> Result<Value, String> + Send>;

/// The job table.
pub struct Jobs {
    options: Options,
    table: Mutex<BTreeMap<u64, Arc<Job>>>,
    next: AtomicU64,
    /// Blocking threads still working (a cancelled job's thread counts until its search
    /// has stopped).
    busy: Arc<AtomicUsize>,
}

impl Jobs {
    /// An empty table.
    pub fn new(options: Options) -> Jobs {
        Jobs {
            options,
            table: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            busy: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Job>>> {
        // A panic cannot leave the map half changed: every change is one insert or remove.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The job `id`.
    pub fn get(&self, id: u64) -> Result<Arc<Job>, ApiError> {
        self.table()
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no job {id}")))
    }

    /// Threads still working.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::SeqCst)
    }

    /// Every job known, oldest first.
    pub fn list(&self) -> Vec<Arc<Job>> {
        self.table().values().cloned().collect()
    }

    /// Start `work` as a job of `kind` on the blocking pool (inside a tokio runtime).
    pub fn start(&self, kind: &'static str, work: Work) -> Result<Arc<Job>, ApiError> {
        let mut table = self.table();
        let running = table
            .values()
            .filter(|j| j.snapshot().state == JobState::Running)
            .count();
        if running >= self.options.max_running {
            return Err(ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: format!(
                    "{running} jobs are running, the most this server runs at once; cancel one or wait"
                ),
            });
        }
        let ended: Vec<u64> = table
            .iter()
            .filter(|(_, j)| j.snapshot().state != JobState::Running)
            .map(|(&id, _)| id)
            .collect();
        for id in ended.iter().take(ended.len().saturating_sub(KEPT - 1)) {
            table.remove(id);
        }
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let (tx, _) = watch::channel(Snapshot {
            state: JobState::Running,
            progress: Value::Null,
            result: None,
            error: None,
            elapsed: None,
        });
        let job = Arc::new(Job {
            id,
            kind,
            started: Instant::now(),
            stop: AtomicBool::new(false),
            tx,
        });
        table.insert(id, job.clone());
        drop(table);
        let busy = self.busy.clone();
        busy.fetch_add(1, Ordering::SeqCst);
        let worker = job.clone();
        tokio::task::spawn_blocking(move || {
            let progress = |v: Value| {
                worker.tx.send_modify(|s| s.progress = v);
            };
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                work(&worker.stop, &progress)
            }))
            .unwrap_or_else(|panic| Err(crate::batch::internal_error(panic.as_ref())));
            let elapsed = worker.started.elapsed();
            worker.tx.send_if_modified(|s| {
                if s.state != JobState::Running {
                    return false;
                }
                s.elapsed = Some(elapsed);
                match out {
                    Ok(v) => {
                        s.state = JobState::Done;
                        s.result = Some(v);
                    }
                    Err(e) => {
                        s.state = JobState::Failed;
                        s.error = Some(e);
                    }
                }
                true
            });
            busy.fetch_sub(1, Ordering::SeqCst);
        });
        // The time limit of every job.
        let watched = job.clone();
        let limit = self.options.job_time;
        tokio::spawn(async move {
            tokio::select! {
                _ = tokio::time::sleep(limit) => watched.stop.store(true, Ordering::SeqCst),
                _ = watched.ended() => {}
            }
        });
        Ok(job)
    }
}

/// The job's events: `progress` every [`PROGRESS_EVERY`] while it runs (its progress object
/// with `elapsed_ms`), then `result` (the result object), `error` (`{"error": …}`) or
/// `cancelled`, then `end`.
pub fn events(job: Arc<Job>) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    #[derive(Clone, Copy)]
    enum Step {
        First,
        Next,
        End,
        Over,
    }
    let rx = job.tx.subscribe();
    let stream =
        futures_util::stream::unfold((job, rx, Step::First), |(job, mut rx, step)| async move {
            let event = match step {
                Step::Over => return None,
                Step::End => {
                    return Some((
                        Ok(Event::default().event("end").data("{}")),
                        (job, rx, Step::Over),
                    ))
                }
                Step::First | Step::Next => {
                    if let Step::Next = step {
                        tokio::select! {
                            _ = rx.wait_for(|s| s.state != JobState::Running) => {}
                            _ = tokio::time::sleep(PROGRESS_EVERY) => {}
                        }
                    }
                    rx.borrow_and_update().clone()
                }
            };
            let s = event;
            let (name, data, next) = match s.state {
                JobState::Running => ("progress", job.progress_json(&s), Step::Next),
                JobState::Done => ("result", s.result.clone().unwrap_or(Value::Null), Step::End),
                JobState::Failed => (
                    "error",
                    crate::report::error_json(s.error.as_deref().unwrap_or("failed")),
                    Step::End,
                ),
                JobState::Cancelled => ("cancelled", json!({"cancelled": true}), Step::End),
            };
            let ev = Event::default().event(name).data(data.to_string());
            Some((Ok(ev), (job, rx, next)))
        });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Run `work` on this thread while another one reports `poll()` as its progress at once and
/// then every [`POLL_EVERY`], for work that publishes its progress in counters (a search's
/// nodes) rather than by calling `progress` itself.
pub fn polled<T>(
    progress: &(dyn Fn(Value) + Sync),
    poll: &(dyn Fn() -> Value + Sync),
    work: impl FnOnce() -> T,
) -> T {
    let (done, ended) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            progress(poll());
            // Dropping `done` (the work ended, or panicked) disconnects the channel.
            while matches!(
                ended.recv_timeout(POLL_EVERY),
                Err(RecvTimeoutError::Timeout)
            ) {
                progress(poll());
            }
        });
        let out = work();
        drop(done);
        out
    })
}
