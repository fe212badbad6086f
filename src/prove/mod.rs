//! `cpbim prove` (issue 27; the design is `docs/design/prove.md`): threat-space proof search
//! above the double-threat / VCF solver. Built so far: the relevance zone of a proof
//! ([`zone`]), the piece that lets a proof search answer only the defences that matter; the
//! proofs it writes ([`tree`]); and the threat-space search ([`lambda`]: depth-first, or by proof numbers).

pub mod book;
mod canonical;
mod dfpn;
pub mod each_reply;
pub mod expand;
pub mod lambda;
pub mod limits;
mod moves;
mod parallel;
pub mod report;
pub mod sgf;
pub mod store;
mod table;
pub mod tree;
pub mod zone;

#[cfg(test)]
mod tests;

pub use book::{Book, Hint};
pub use expand::{expand, expansion_json, Expansion};
pub use lambda::prove;
pub use limits::{cannot_start, Answer, Limits, Progress, Search, Verdict};
pub use store::{Contents, Effort, Merged, Store};
pub use tree::{Reply, ThreatProof};

/// `m` locked. A thread that panicked while holding it leaves nothing half written in the
/// prover's tables and store (each update is one insertion), so the lock is taken anyway.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
