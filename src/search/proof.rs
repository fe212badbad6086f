//! Proof trees of threat wins (`docs/search.md`):
//!
//! ```text
//! NODE := {"six": ["K10","K11"]}                    A completes its winning row from a live window
//!       | {"attack": ["K10","L11"], "defenses": [ {"stones": ["M12","N13"], "next": NODE}, ... ]}
//! ```
//!
//! A move is two stones in Connect6 and one in Gomoku and Renju. `defenses` lists every defender
//! move that hits all of the attacker's live windows after the attack (empty when none does:
//! `thn > p`). The node that completes the row is called `six` whatever the game.

use crate::geom::Point;
use crate::renju;

/// A node of a proof tree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum ProofNode {
    /// The attacker completes its winning row with these stones.
    Six {
        /// Stones completing the row.
        six: Vec<Point>,
    },
    /// The attacker plays a move; every defence is answered by a sub-proof.
    Attack {
        /// The attacker's stones (p of them).
        attack: Vec<Point>,
        /// Every defender move that blocks all live windows, with the proof that follows.
        defenses: Vec<Defense>,
    },
}

/// One defence and the proof that follows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Defense {
    /// The defender's stones (p of them).
    pub stones: Vec<Point>,
    /// The attacker's continuation.
    pub next: ProofNode,
}

/// A node's fields as they are read: which of them are there tells the kind of node. (serde's
/// own untagged enums read each subtree into a buffer and copy it at every level below, which
/// made reading a proof of 126 MB take 55 s and 4.8 GB.)
#[derive(serde::Deserialize)]
pub(crate) struct NodeFields {
    pub(crate) six: Option<Vec<Point>>,
    pub(crate) attack: Option<Vec<Point>>,
    pub(crate) defenses: Option<Vec<Defense>>,
}

impl NodeFields {
    /// The node, or `None` without `six` and without both `attack` and `defenses`.
    pub(crate) fn into_node(self) -> Option<ProofNode> {
        match self {
            NodeFields { six: Some(six), .. } => Some(ProofNode::Six { six }),
            NodeFields {
                attack: Some(attack),
                defenses: Some(defenses),
                ..
            } => Some(ProofNode::Attack { attack, defenses }),
            _ => None,
        }
    }
}

/// What a proof node must hold, for a reader's error.
pub(crate) const NOT_A_NODE: &str = "a proof node has \"six\", or \"attack\" and \"defenses\"";

impl<'de> serde::Deserialize<'de> for ProofNode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        NodeFields::deserialize(d)?
            .into_node()
            .ok_or_else(|| serde::de::Error::custom(NOT_A_NODE))
    }
}

impl ProofNode {
    /// The same proof with every point `x` replaced by `f(x)` (a symmetry of the board).
    pub fn map_points(&self, f: &impl Fn(Point) -> Point) -> ProofNode {
        let map = |v: &[Point]| v.iter().map(|&x| f(x)).collect();
        match self {
            ProofNode::Six { six } => ProofNode::Six { six: map(six) },
            ProofNode::Attack { attack, defenses } => ProofNode::Attack {
                attack: map(attack),
                defenses: defenses
                    .iter()
                    .map(|d| Defense {
                        stones: map(&d.stones),
                        next: d.next.map_points(f),
                    })
                    .collect(),
            },
        }
    }

    /// Number of attacker nodes (six and attack) in the tree.
    pub fn size(&self) -> usize {
        match self {
            ProofNode::Six { .. } => 1,
            ProofNode::Attack { defenses, .. } => {
                1 + defenses.iter().map(|d| d.next.size()).sum::<usize>()
            }
        }
    }

    /// The principal line of the proof: its attack, the defence with the deepest sub-proof
    /// (the first of them), its attack, …, ending with the stones that complete the row or with
    /// the attack no defence answers. Its depth is the proof's.
    pub fn line(&self) -> Vec<Vec<Point>> {
        let mut line = Vec::new();
        let mut node = self;
        loop {
            match node {
                ProofNode::Six { six } => {
                    line.push(six.clone());
                    return line;
                }
                ProofNode::Attack { attack, defenses } => {
                    line.push(attack.clone());
                    let mut deepest: Option<&Defense> = None;
                    for d in defenses {
                        if deepest.is_none_or(|x| d.next.depth() > x.next.depth()) {
                            deepest = Some(d);
                        }
                    }
                    let Some(d) = deepest else {
                        return line;
                    };
                    line.push(d.stones.clone());
                    node = &d.next;
                }
            }
        }
    }

    /// Plies until the winning row on the longest branch (a round counts 2p plies; an attack
    /// with no defence counts a round).
    pub fn depth(&self) -> u32 {
        match self {
            ProofNode::Six { .. } => 0,
            ProofNode::Attack { attack, defenses } => {
                2 * attack.len() as u32 + defenses.iter().map(|d| d.next.depth()).max().unwrap_or(0)
            }
        }
    }
}

/// Does `node` prove a win for `a` in the position of `m` (under the search's rules,
/// `docs/search.md`)? Checked with the model's queries: the attack is p empty stones, all in R
/// — or, with `complete`, one of them in R meeting the attack conditions alone and the other
/// anywhere — leaving no live window of the defender and `thn ≥ p`, and in Renju no black
/// stone on a forbidden point; the listed defences cover every blocking move (black's
/// forbidden points are none; extra listed ones are ignored); every `six` completes
/// the row. Used to carry a known proof over to a position with more defender stones
/// (`cpbim analyze --defenses`): if it still holds, the attacker still wins there, without a
/// search. `m` is left as it was.
pub fn proof_holds<M: crate::Model>(
    m: &mut M,
    a: crate::Color,
    complete: bool,
    node: &ProofNode,
) -> bool {
    use crate::model::{blocking_pairs, blocking_points, candidate_set, cover_number};
    let d = a.opponent();
    let p = m.game().p();
    match node {
        ProofNode::Six { six } => {
            if six.is_empty() || six.iter().any(|&x| !m.board().is_empty(x)) {
                return false;
            }
            for &x in six {
                m.make(x, a);
            }
            let ok = m.has_win(a);
            for _ in six {
                m.unmake();
            }
            ok
        }
        ProofNode::Attack { attack, defenses } => {
            let distinct = attack.len() < 2 || attack[0] != attack[1];
            if attack.len() != p || !distinct || attack.iter().any(|&x| !m.board().is_empty(x)) {
                return false;
            }
            let r = candidate_set(m, a);
            let in_r = attack.iter().filter(|&&x| r.contains(x)).count();
            let game = *m.game();
            if renju::applies(&game, a) && attack.iter().any(|&x| renju::is_forbidden(m.board(), x))
            {
                return false;
            }
            if in_r < p && !(complete && p == 2 && in_r == 1 && alone_attacks(m, a, attack, &r)) {
                return false;
            }
            for &x in attack {
                m.make(x, a);
            }
            let mut windows = Vec::new();
            m.live_windows(d, &mut windows);
            let mut ok = windows.is_empty();
            if ok {
                m.live_windows(a, &mut windows);
                ok = cover_number(&windows) >= p as u8;
            }
            if ok {
                let moves: Vec<Vec<Point>> = if p == 1 {
                    let forbids = renju::applies(&game, d);
                    blocking_points(&windows)
                        .filter(|&x| !(forbids && renju::is_forbidden(m.board(), x)))
                        .map(|x| vec![x])
                        .collect()
                } else {
                    blocking_pairs(&windows)
                        .into_iter()
                        .map(|(u, v)| vec![u, v])
                        .collect()
                };
                if cover_number(&windows) > p as u8 {
                    // No defence exists: nothing more to check.
                } else {
                    for mv in moves {
                        let same = |df: &&Defense| {
                            df.stones.len() == mv.len() && mv.iter().all(|x| df.stones.contains(x))
                        };
                        let Some(def) = defenses.iter().find(same) else {
                            ok = false;
                            break;
                        };
                        for &x in &mv {
                            m.make(x, d);
                        }
                        ok = proof_holds(m, a, complete, &def.next);
                        for _ in &mv {
                            m.unmake();
                        }
                        if !ok {
                            break;
                        }
                    }
                }
            }
            for _ in attack {
                m.unmake();
            }
            ok
        }
    }
}

/// With the complete rule: does the stone of `attack` that lies in `r` alone leave the defender
/// no live window and the attacker two threats or more?
fn alone_attacks<M: crate::Model>(
    m: &mut M,
    a: crate::Color,
    attack: &[Point],
    r: &crate::PointSet,
) -> bool {
    let Some(&x) = attack.iter().find(|&&x| r.contains(x)) else {
        return false;
    };
    m.make(x, a);
    let mut windows = Vec::new();
    m.live_windows(a.opponent(), &mut windows);
    let ok = windows.is_empty() && m.thn(a) >= 2;
    m.unmake();
    ok
}
