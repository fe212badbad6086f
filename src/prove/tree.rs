//! Threat-space proofs (`docs/search.md`, "Threat-space proofs"): what `prove` writes, and what
//! the test suite's brute-force checker reads.
//!
//! ```text
//! PROOF := {"leaf": NODE}                                      the leaf search's proof (NODE of docs/json.md)
//!        | {"threat": [..], "pass": NODE, "replies": [REPLY, ...]}
//!        | {"quiet": [..], "pass": PROOF, "replies": [REPLY, ...]}   (one stone a move)
//!        | {"pass": PROOF | null, "replies": [REPLY, ...]}        the defender to move (a root)
//! REPLY := {"stones": [..], "next": PROOF}                     a defender move and the proof after it
//!        | {"stone": "K10", "pass": NODE, "replies": [REPLY, ...]}   (two stones a move) a first stone
//! ```
//!
//! After a `threat` the defender may play any legal move. One that `replies` lists is answered
//! by its own proof. Every other is answered by `pass`: the attacker's threat win as if the
//! defender had passed, which still holds after any move outside its relevance zone — the
//! search lists every reply inside it. In the games of two stones a move a `stone` entry does
//! the same for the moves whose first stone is `stone`: its `pass` is the win after that one
//! stone, its `replies` the second stones inside that proof's zone.
//!
//! A `quiet` move threatens more slowly: were the defender to pass, the attacker would win by a
//! threat-space proof (`pass`, whose own threats answer with leaf wins), and the replies are
//! the defences inside that whole proof's zone (`zone::threat_zone`).
//!
//! At a root where the defender is to move, `pass` is the attacker's win were the defender to
//! pass (a leaf proof as `{"leaf": NODE}`, or, with quiet moves, a threat-space proof), and
//! `replies` the moves inside its zone; without a pass win every legal move is listed.

use crate::geom::Point;
use crate::search::proof::{Defense, NodeFields, ProofNode, NOT_A_NODE};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::sync::Arc;

/// A proof that the attacker, to move, wins.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum ThreatProof {
    /// The leaf search (`solve`'s double threats or fours) wins from here.
    Leaf {
        /// Its proof (shared: a table entry, a recall and a drop cost one count, not a tree).
        leaf: Arc<ProofNode>,
    },
    /// A move that threatens a leaf win, and the answer to every defence.
    Threat {
        /// The attacker's stones.
        threat: Vec<Point>,
        /// The leaf win after the threat if the defender passed.
        pass: Arc<ProofNode>,
        /// The defences `pass` does not answer, each answered.
        replies: Vec<Reply>,
    },
    /// A quiet move (one that wins by threats, not by the leaf search, were the defender to
    /// pass), and the answer to every defence.
    Quiet {
        /// The attacker's stones.
        quiet: Vec<Point>,
        /// The threat-space win after the move if the defender passed.
        pass: Arc<ThreatProof>,
        /// The defences `pass` does not answer, each answered.
        replies: Vec<Reply>,
    },
    /// The defender is to move (the root of a proof asked for the side not to move): every
    /// move answered.
    Defence {
        /// The attacker's win were the defender to pass, if there is one: it answers every
        /// move outside its zone. Without it every move is listed.
        pass: Option<Arc<ThreatProof>>,
        /// The moves `pass` does not answer, each answered.
        replies: Vec<Reply>,
    },
}

/// A defence after a threat, answered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Reply {
    /// A whole defender move and the proof after it.
    Move {
        /// The defender's stones.
        stones: Vec<Point>,
        /// The attacker's win after them.
        next: Arc<ThreatProof>,
    },
    /// The defender's moves that begin with one stone (two stones a move).
    Stone {
        /// The first stone.
        stone: Point,
        /// The leaf win after it if the defender placed no second stone.
        pass: Arc<ProofNode>,
        /// The whole moves through `stone` that `pass` does not answer, each answered.
        replies: Vec<Reply>,
    },
}

/// A proof's fields as they are read (serde's untagged enums copy every subtree at each level:
/// see [`NodeFields`]). The first of `leaf`, `threat`, `quiet` there tells the kind; with none
/// of them it is a defender's root. A `pass` after a threat is a leaf proof node, whose fields
/// are the last three.
#[derive(Deserialize)]
struct ProofFields {
    leaf: Option<ProofNode>,
    threat: Option<Vec<Point>>,
    quiet: Option<Vec<Point>>,
    /// Absent (`None`), `null` (`Some(None)`) or a proof or node.
    #[serde(default, deserialize_with = "present")]
    pass: Option<Option<Box<ProofFields>>>,
    replies: Option<Vec<Reply>>,
    six: Option<Vec<Point>>,
    attack: Option<Vec<Point>>,
    defenses: Option<Vec<Defense>>,
}

/// A field that is there, `null` or not.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl ProofFields {
    fn into_proof(self) -> Result<ThreatProof, String> {
        let need = |what: &str| format!("a proof with {what}");
        if let Some(leaf) = self.leaf {
            return Ok(ThreatProof::Leaf {
                leaf: Arc::new(leaf),
            });
        }
        let replies = self
            .replies
            .ok_or_else(|| need("\"leaf\" or \"replies\""))?;
        if let Some(threat) = self.threat {
            let pass = self
                .pass
                .flatten()
                .ok_or_else(|| need("\"threat\" has a \"pass\""))?;
            let pass = Arc::new(pass.into_node().ok_or(NOT_A_NODE)?);
            return Ok(ThreatProof::Threat {
                threat,
                pass,
                replies,
            });
        }
        let pass = match self.pass.flatten() {
            Some(p) => Some(Arc::new(p.into_proof()?)),
            None => None,
        };
        Ok(match (self.quiet, pass) {
            (Some(quiet), Some(pass)) => ThreatProof::Quiet {
                quiet,
                pass,
                replies,
            },
            (Some(_), None) => return Err(need("\"quiet\" has a \"pass\"")),
            (None, pass) => ThreatProof::Defence { pass, replies },
        })
    }

    fn into_node(self) -> Option<ProofNode> {
        NodeFields {
            six: self.six,
            attack: self.attack,
            defenses: self.defenses,
        }
        .into_node()
    }
}

impl<'de> Deserialize<'de> for ThreatProof {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ProofFields::deserialize(d)?
            .into_proof()
            .map_err(D::Error::custom)
    }
}

/// A reply's fields as they are read: `stones` and `next`, or `stone`, `pass` and `replies`.
#[derive(Deserialize)]
struct ReplyFields {
    stones: Option<Vec<Point>>,
    next: Option<Arc<ThreatProof>>,
    stone: Option<Point>,
    pass: Option<ProofNode>,
    replies: Option<Vec<Reply>>,
}

impl<'de> Deserialize<'de> for Reply {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match ReplyFields::deserialize(d)? {
            ReplyFields {
                stones: Some(stones),
                next: Some(next),
                ..
            } => Ok(Reply::Move { stones, next }),
            ReplyFields {
                stone: Some(stone),
                pass: Some(pass),
                replies: Some(replies),
                ..
            } => Ok(Reply::Stone {
                stone,
                pass: Arc::new(pass),
                replies,
            }),
            _ => Err(D::Error::custom(
                "a reply has \"stones\" and \"next\", or \"stone\", \"pass\" and \"replies\"",
            )),
        }
    }
}

impl ThreatProof {
    /// The same proof with every point `x` replaced by `f(x)` (a symmetry of the board).
    pub fn map_points(&self, f: &impl Fn(Point) -> Point) -> ThreatProof {
        match self {
            ThreatProof::Leaf { leaf } => ThreatProof::Leaf {
                leaf: Arc::new(leaf.map_points(f)),
            },
            ThreatProof::Threat {
                threat,
                pass,
                replies,
            } => ThreatProof::Threat {
                threat: threat.iter().map(|&x| f(x)).collect(),
                pass: Arc::new(pass.map_points(f)),
                replies: replies.iter().map(|r| r.map_points(f)).collect(),
            },
            ThreatProof::Quiet {
                quiet,
                pass,
                replies,
            } => ThreatProof::Quiet {
                quiet: quiet.iter().map(|&x| f(x)).collect(),
                pass: Arc::new(pass.map_points(f)),
                replies: replies.iter().map(|r| r.map_points(f)).collect(),
            },
            ThreatProof::Defence { pass, replies } => ThreatProof::Defence {
                pass: pass.as_ref().map(|p| Arc::new(p.map_points(f))),
                replies: replies.iter().map(|r| r.map_points(f)).collect(),
            },
        }
    }

    /// The proof's first threat (or quiet move), when it starts with one.
    pub fn first_threat(&self) -> Option<&[Point]> {
        match self {
            ThreatProof::Threat { threat, .. } => Some(threat),
            ThreatProof::Quiet { quiet, .. } => Some(quiet),
            _ => None,
        }
    }

    /// A defender's proof with a pass win: the pass win and the replies (what a threat's
    /// proof holds after its stones).
    pub fn into_pass_and_replies(self) -> Option<(Arc<ProofNode>, Vec<Reply>)> {
        match self {
            ThreatProof::Defence {
                pass: Some(pass),
                replies,
            } => match Arc::unwrap_or_clone(pass) {
                ThreatProof::Leaf { leaf } => Some((leaf, replies)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The threat moves on the longest line of the proof (0 for a leaf); a quiet move counts
    /// one, and its pass proof's line is a line too.
    pub fn threats(&self) -> u32 {
        match self {
            ThreatProof::Leaf { .. } => 0,
            ThreatProof::Threat { replies, .. } => {
                1 + replies.iter().map(Reply::threats).max().unwrap_or(0)
            }
            ThreatProof::Quiet { pass, replies, .. } => {
                1 + replies
                    .iter()
                    .map(Reply::threats)
                    .chain([pass.threats()])
                    .max()
                    .unwrap_or(0)
            }
            ThreatProof::Defence { pass, replies } => replies
                .iter()
                .map(Reply::threats)
                .chain(pass.as_ref().map(|p| p.threats()))
                .max()
                .unwrap_or(0),
        }
    }

    /// Attacker nodes of the proof: its threats and leaves, the leaf proofs' nodes counted.
    pub fn size(&self) -> usize {
        match self {
            ThreatProof::Leaf { leaf } => leaf.size(),
            ThreatProof::Threat { pass, replies, .. } => {
                1 + pass.size() + replies.iter().map(Reply::size).sum::<usize>()
            }
            ThreatProof::Quiet { pass, replies, .. } => {
                1 + pass.size() + replies.iter().map(Reply::size).sum::<usize>()
            }
            ThreatProof::Defence { pass, replies } => {
                pass.as_ref().map_or(0, |p| p.size())
                    + replies.iter().map(Reply::size).sum::<usize>()
            }
        }
    }
}

impl Reply {
    fn map_points(&self, f: &impl Fn(Point) -> Point) -> Reply {
        match self {
            Reply::Move { stones, next } => Reply::Move {
                stones: stones.iter().map(|&x| f(x)).collect(),
                next: Arc::new(next.map_points(f)),
            },
            Reply::Stone {
                stone,
                pass,
                replies,
            } => Reply::Stone {
                stone: f(*stone),
                pass: Arc::new(pass.map_points(f)),
                replies: replies.iter().map(|r| r.map_points(f)).collect(),
            },
        }
    }

    fn threats(&self) -> u32 {
        match self {
            Reply::Move { next, .. } => next.threats(),
            Reply::Stone { replies, .. } => replies.iter().map(Reply::threats).max().unwrap_or(0),
        }
    }

    fn size(&self) -> usize {
        match self {
            Reply::Move { next, .. } => next.size(),
            Reply::Stone { pass, replies, .. } => {
                pass.size() + replies.iter().map(Reply::size).sum::<usize>()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read and written again, each kind of proof, reply and node gives back the same text.
    #[test]
    fn every_kind_reads_back_as_written() {
        let six = r#"{"six":["K10"]}"#;
        let node =
            format!(r#"{{"attack":["J10"],"defenses":[{{"stones":["L10"],"next":{six}}}]}}"#);
        let leaf = format!(r#"{{"leaf":{node}}}"#);
        let threat = format!(
            r#"{{"threat":["H8"],"pass":{six},"replies":[{{"stones":["G8"],"next":{leaf}}}]}}"#
        );
        let quiet = format!(r#"{{"quiet":["H9"],"pass":{threat},"replies":[]}}"#);
        let stone = format!(
            r#"{{"threat":["A1","A2"],"pass":{node},"replies":[{{"stone":"B1","pass":{six},"replies":[{{"stones":["B1","B2"],"next":{leaf}}}]}}]}}"#
        );
        let texts = [
            leaf.clone(),
            threat.clone(),
            quiet.clone(),
            stone,
            format!(r#"{{"pass":{quiet},"replies":[{{"stones":["C3"],"next":{threat}}}]}}"#),
            format!(r#"{{"pass":null,"replies":[{{"stones":["C3"],"next":{leaf}}}]}}"#),
        ];
        for text in texts {
            let proof: ThreatProof = serde_json::from_str(&text).expect(&text);
            assert_eq!(serde_json::to_string(&proof).unwrap(), text);
        }
        // A root without "pass" is a defender's root without a pass win, as with null.
        let bare: ThreatProof = serde_json::from_str(r#"{"replies":[]}"#).unwrap();
        assert_eq!(
            bare,
            ThreatProof::Defence {
                pass: None,
                replies: Vec::new()
            }
        );
    }

    /// What is not a proof is refused, saying what one needs.
    #[test]
    fn what_is_not_a_proof_is_refused() {
        let refused = |text: &str, says: &str| {
            let e = serde_json::from_str::<ThreatProof>(text).unwrap_err();
            assert!(e.to_string().contains(says), "{text}: {e}");
        };
        refused(
            r#"{"threat":["H8"],"replies":[]}"#,
            r#""threat" has a "pass""#,
        );
        refused(
            r#"{"threat":["H8"],"pass":{"leaf":{"six":["K10"]}},"replies":[]}"#,
            "a proof node has",
        );
        refused(
            r#"{"quiet":["H8"],"replies":[]}"#,
            r#""quiet" has a "pass""#,
        );
        refused(r#"{"pass":null}"#, r#""leaf" or "replies""#);
        refused(r#"{"leaf":{"attack":["J10"]}}"#, "a proof node has");
        refused(
            r#"{"replies":[{"stones":["C3"]}]}"#,
            r#"a reply has "stones" and "next""#,
        );
        refused(r#"{"leaf":{"six":["Z99"]}}"#, "Z99");
    }
}
