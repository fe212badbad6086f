//! SIGINT and SIGTERM (docs/failures.md). A command ends at once with status 130 (SIGINT) or
//! 143 (SIGTERM), as programs do, until it calls [`soften`] at the start of long work that
//! looks at [`STOP`]: then the first signal stops the work, which keeps what is complete and
//! reports it before the process exits 130 / 143; a second signal ends the process at once.
//! Every end by a signal first kills the engine processes `match` runs.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Set by the first SIGINT or SIGTERM: searches end with what is known so far, loops stop.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Set by [`soften`]: the first signal stops the work instead of the process.
static SOFT: AtomicBool = AtomicBool::new(false);

/// The exit status the signal asks for: 130 after SIGINT, 143 after SIGTERM, 0 before any.
static STATUS: AtomicI32 = AtomicI32::new(0);

/// Has SIGINT or SIGTERM come?
pub fn stopped() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The exit status of an interrupted command (`None` when no signal came).
pub fn status() -> Option<i32> {
    match STATUS.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// From now on the first SIGINT / SIGTERM sets [`STOP`] (the command looks at it and ends
/// by itself) instead of ending the process.
pub fn soften() {
    SOFT.store(true, Ordering::SeqCst);
}

/// Install the handlers (once, before any thread starts).
pub fn install() {
    for (signal, status) in [
        (signal_hook::consts::SIGINT, 130),
        (signal_hook::consts::SIGTERM, 143),
    ] {
        // SAFETY: the handler only touches atomics, `kill(2)` and `_exit(2)`, all
        // async-signal-safe; it allocates nothing and takes no lock.
        let registered = unsafe {
            signal_hook::low_level::register(signal, move || {
                if !SOFT.load(Ordering::SeqCst) || STOP.swap(true, Ordering::SeqCst) {
                    cpbim::matches::process::kill_all();
                    signal_hook::low_level::exit(status);
                }
                STATUS.store(status, Ordering::SeqCst);
            })
        };
        if let Err(e) = registered {
            eprintln!("note: no handler for signal {signal}: {e}");
        }
    }
}
