//! Proof trees of double-threat wins (SPEC §4):
//!
//! ```text
//! NODE := {"six": ["K10","K11"]}                    A completes six from a live window
//!       | {"attack": ["K10","L11"], "defenses": [ {"stones": ["M12","N13"], "next": NODE}, ... ]}
//! ```
//!
//! `defenses` lists every defender pair that hits all of the attacker's live windows after the
//! attack (empty when none does: `thn ≥ 3`).

use crate::geom::Point;

/// A node of a proof tree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ProofNode {
    /// The attacker completes six with these stones (one or two).
    Six {
        /// Stones completing six.
        six: Vec<Point>,
    },
    /// The attacker plays two stones; every defence is answered by a sub-proof.
    Attack {
        /// The attacker's two stones.
        attack: [Point; 2],
        /// Every defender pair that blocks all live windows, with the proof that follows.
        defenses: Vec<Defense>,
    },
}

/// One defence and the proof that follows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Defense {
    /// The defender's two stones.
    pub stones: [Point; 2],
    /// The attacker's continuation.
    pub next: ProofNode,
}

impl ProofNode {
    /// Number of attacker nodes (six and attack) in the tree.
    pub fn size(&self) -> usize {
        match self {
            ProofNode::Six { .. } => 1,
            ProofNode::Attack { defenses, .. } => {
                1 + defenses.iter().map(|d| d.next.size()).sum::<usize>()
            }
        }
    }

    /// Plies until the six on the longest branch (an attack with no defence counts 4).
    pub fn depth(&self) -> u32 {
        match self {
            ProofNode::Six { .. } => 0,
            ProofNode::Attack { defenses, .. } => {
                4 + defenses.iter().map(|d| d.next.depth()).max().unwrap_or(0)
            }
        }
    }
}
