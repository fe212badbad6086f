//! Progress on stderr for long runs: a bar when stderr is a terminal; otherwise (a log file, a
//! pipe, CI) a plain line now and then, every `CPBIM_PROGRESS_SECS` seconds (default 10), so
//! that long runs show they are alive wherever their stderr goes.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between plain progress lines, unless `CPBIM_PROGRESS_SECS` says otherwise.
const PLAIN_EVERY_SECS: f64 = 10.0;

/// A progress report of `len` steps (0 when not known yet).
pub struct Progress {
    bar: ProgressBar,
    /// When stderr is not a terminal: the interval, and when the last line was printed.
    plain: Option<(Duration, Mutex<Instant>)>,
}

impl Progress {
    /// A bar drawn with `template` (indicatif's syntax) on a terminal, plain lines otherwise.
    pub fn new(len: u64, template: &str) -> Progress {
        let bar = ProgressBar::new(len);
        bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            let secs = std::env::var("CPBIM_PROGRESS_SECS")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(PLAIN_EVERY_SECS);
            (Duration::from_secs_f64(secs), Mutex::new(Instant::now()))
        });
        Progress { bar, plain }
    }

    /// A spinner with a message (no known length).
    pub fn spinner() -> Progress {
        let p = Progress::new(0, "{spinner} {msg} [{elapsed_precise}]");
        if p.plain.is_none() {
            p.bar.enable_steady_tick(Duration::from_millis(200));
        }
        p
    }

    /// `n` more steps done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        self.plain_line();
    }

    /// `done` of `len` steps.
    pub fn set(&self, done: u64, len: u64) {
        self.bar.set_length(len);
        self.bar.set_position(done);
        self.plain_line();
    }

    /// The message shown beside the bar.
    pub fn message(&self, msg: impl Into<String>) {
        self.bar.set_message(msg.into());
        self.plain_line();
    }

    /// Run `f` with the bar hidden (to print results between redraws).
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn plain_line(&self) {
        let Some((every, last)) = &self.plain else {
            return;
        };
        let Ok(mut last) = last.try_lock() else {
            return;
        };
        if last.elapsed() < *every {
            return;
        }
        *last = Instant::now();
        let (done, len) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let mut parts = vec![self.bar.message()];
        if len > 0 {
            parts.push(format!(
                "{done}/{len} ({:.0} %), ~{:.0} s left,",
                100.0 * done as f64 / len as f64,
                self.bar.eta().as_secs_f64()
            ));
        }
        parts.push(format!("{:.0} s elapsed", self.bar.elapsed().as_secs_f64()));
        parts.retain(|p| !p.is_empty());
        eprintln!("progress: {}", parts.join(" "));
    }
}
