//! The `cpbim` command-line tool ([`cli`]).

mod cli;

use clap::Parser;
use std::sync::atomic::Ordering;

fn main() {
    // Output piped into `head` and closed early: end quietly, like other command-line tools,
    // instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args = cli::Cli::parse();
    // First Ctrl-C: stop searching and report what is known; second: quit at once.
    let _ = ctrlc::set_handler(|| {
        if cli::STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = cli::run(args).and_then(|()| cli::flush_stdout()) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
