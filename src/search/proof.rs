//! Proof trees of double-threat wins (`docs/search.md`):
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

/// Does `node` prove a win for `a` in the position of `m` (under the search's rules, `docs/search.md`)? Checked
/// with the model's queries: every attack stone empty and in R, no defender live window and
/// `thn ≥ 2` after it, the listed defences exactly cover every blocking pair (extra listed
/// ones are ignored), every six completes six. Used to carry a known proof over to a position
/// with more defender stones (`cpbim analyze --defenses`): if it still holds, the attacker
/// still wins there, without a search. `m` is left as it was.
pub fn proof_holds<M: crate::Model>(m: &mut M, a: crate::Color, node: &ProofNode) -> bool {
    use crate::model::{blocking_pairs, candidate_set, cover_number};
    let d = a.opponent();
    match node {
        ProofNode::Six { six } => {
            if six.is_empty() || six.iter().any(|&p| !m.board().is_empty(p)) {
                return false;
            }
            for &p in six {
                m.make(p, a);
            }
            let ok = m.has_win(a);
            for _ in six {
                m.unmake();
            }
            ok
        }
        ProofNode::Attack { attack, defenses } => {
            let [x, y] = *attack;
            if x == y || !m.board().is_empty(x) || !m.board().is_empty(y) {
                return false;
            }
            let r = candidate_set(m, a);
            if !r.contains(x) || !r.contains(y) {
                return false;
            }
            m.make(x, a);
            m.make(y, a);
            let mut windows = Vec::new();
            m.live_windows(d, &mut windows);
            let mut ok = windows.is_empty();
            if ok {
                m.live_windows(a, &mut windows);
                ok = cover_number(&windows) >= 2;
            }
            if ok {
                for (u, v) in blocking_pairs(&windows) {
                    let Some(def) = defenses
                        .iter()
                        .find(|df| df.stones == [u, v] || df.stones == [v, u])
                    else {
                        ok = false;
                        break;
                    };
                    m.make(u, d);
                    m.make(v, d);
                    ok = proof_holds(m, a, &def.next);
                    m.unmake();
                    m.unmake();
                    if !ok {
                        break;
                    }
                }
            }
            m.unmake();
            m.unmake();
            ok
        }
    }
}
