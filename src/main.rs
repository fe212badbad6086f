//! The `cpbim` command-line tool ([`cli`]).

mod cli;

use clap::Parser;

fn main() {
    // Output piped into `head` and closed early: end quietly, like other command-line tools,
    // instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args = cli::Cli::parse();
    // First SIGINT / SIGTERM: stop, keep what is complete; second: quit at once.
    cli::interrupt::install();
    let result = cli::run(args).and_then(|()| cli::flush_stdout());
    if let Err(e) = &result {
        eprintln!("error: {e:#}");
    }
    // An interrupted command exits 130 (SIGINT) or 143 (SIGTERM), whatever it finished.
    if let Some(status) = cli::interrupt::status() {
        std::process::exit(status);
    }
    if let Err(e) = &result {
        std::process::exit(cli::exit_status(e));
    }
}
