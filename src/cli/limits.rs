//! Checks on option values that could otherwise crash the program or take the machine's
//! memory: threads, table sizes, times and depths.

use anyhow::Result;
use cpbim::search::tt::TranspositionTable;
use cpbim::Game;
use std::time::Duration;

/// Cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads to use for `--threads requested`: all cores when not given (or 0); more than the
/// cores would only share them, so a larger request is capped, with a note on stderr.
pub fn threads(requested: Option<usize>) -> usize {
    per_core("threads", requested)
}

/// [`threads`] for an option of another name (`--concurrency`).
pub fn per_core(flag: &str, requested: Option<usize>) -> usize {
    let cores = cores();
    match requested {
        None | Some(0) => cores,
        Some(n) if n > cores => {
            eprintln!("note: --{flag} {n}: using {cores}, the cores of this machine");
            cores
        }
        Some(n) => n,
    }
}

/// Open files this process may keep for sockets besides the connections: the listener,
/// standard streams, the job threads' files.
const SPARE_FILES: u64 = 64;

/// `--max-connections n`: at least 1; above what the open-file limit leaves (the soft
/// `RLIMIT_NOFILE` less [`SPARE_FILES`]) it is capped, with a note on stderr, since a server out
/// of open files can accept no connection at all.
pub fn connections(n: usize) -> Result<usize> {
    if n == 0 {
        super::usage!("--max-connections 0: give at least 1 (the connections open at once)");
    }
    let Some(limit) = open_file_limit() else {
        return Ok(n);
    };
    let most = limit.saturating_sub(SPARE_FILES).max(1);
    if n as u64 > most {
        eprintln!("note: --max-connections {n}: using {most}, what this process's open-file limit ({limit}) leaves");
        return Ok(most as usize);
    }
    Ok(n)
}

/// The soft limit on open files of this process, if it has one.
#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` through a valid pointer.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    // rlim_t is u64 on the common systems, not on all.
    #[allow(clippy::unnecessary_cast)]
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

/// Bytes of memory the system can still give (Linux: `MemAvailable`), if known.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Search tables may take at most this share of the available memory.
const MEMORY_SHARE: f64 = 0.5;

fn gib(bytes: f64) -> String {
    format!("{:.1} GiB", bytes / f64::from(1u32 << 30))
}

/// Check that `tables` transposition tables of `entries` entries each fit: within the address
/// space, and within half the memory available (where the system tells it).
pub fn check_tables(entries: usize, tables: usize) -> Result<()> {
    let total = TranspositionTable::bytes_for(entries)
        .and_then(|b| b.checked_mul(tables))
        .map(|b| b as f64);
    let Some(total) = total else {
        super::usage!("--tt-entries {entries}: far more memory than any machine has")
    };
    if let Some(avail) = available_memory() {
        let budget = avail as f64 * MEMORY_SHARE;
        if total > budget {
            let per_table = budget / tables as f64;
            let most = (per_table / 16.0).max(2.0);
            let most = 1u64 << (most.log2().floor() as u32);
            super::usage!(
                "--tt-entries {entries}: {} (one per thread) would take {}, more than half of the {} available; use at most --tt-entries {most} here, or fewer --threads",
                cpbim::text::counted(tables as u64, "table"),
                gib(total),
                gib(avail as f64)
            );
        }
    }
    Ok(())
}

/// `--FLAG SECONDS` as a duration ([`cpbim::limits::seconds`]).
pub fn seconds(flag: &str, t: f64) -> Result<Duration> {
    cpbim::limits::seconds(&format!("--{flag}"), t).map_err(super::usage_error)
}

/// `--FLAG PLIES` in whole rounds of `game` ([`cpbim::limits::depth`]).
pub fn depth(flag: &str, d: u32, game: &Game) -> Result<u32> {
    cpbim::limits::depth(&format!("--{flag}"), d, game).map_err(super::usage_error)
}
