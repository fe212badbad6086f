//! `cpbim prove` (issue 27; the design is `docs/design/prove.md`): threat-space proof search
//! above the double-threat / VCF solver. Built so far: the relevance zone of a proof
//! ([`zone`]), the piece that lets a proof search answer only the defences that matter; the
//! proofs it writes ([`tree`]); and the threat-space search ([`lambda`]: depth-first, or by proof numbers).

mod dfpn;
pub mod lambda;
pub mod tree;
pub mod zone;

pub use lambda::{prove, Answer, Limits, Search, Verdict};
pub use tree::{Reply, ThreatProof};
