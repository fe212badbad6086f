//! `cpbim prove` (issue 27; the design is `docs/design/prove.md`): threat-space proof search
//! above the double-threat / VCF solver. Built so far: the relevance zone of a proof
//! ([`zone`]), the piece that lets a proof search answer only the defences that matter; the
//! proofs it writes ([`tree`]); and a depth-first threat-space search ([`lambda`]).

pub mod lambda;
pub mod tree;
pub mod zone;

pub use lambda::{prove, Answer, Limits, Verdict};
pub use tree::{Reply, ThreatProof};
