//! A proof as SGF (`cpbim prove --sgf FILE`; docs/json.md, "prove"): the position's moves as
//! the main line's start, then the proof as a tree of variations, readable in any SGF viewer.
//!
//! - After a threat (and at a defender's root) every defence the proof lists is a variation,
//!   followed by the attacker's answer; the last variation is the pass win: an empty move of
//!   the defender (`W[]`), commented "any other move", and the win that answers every defence
//!   outside the relevance zone.
//! - In the games of two stones a move a defence listed by its first stone alone comes as a
//!   one-stone move, commented "with any other second stone", followed by its pass win.
//! - A leaf's proof (`solve`'s double threats or fours) branches the same way on each of its
//!   defences; its last move completes the row.
//!
//! The main line (the first variation at every branch) is a legal sequence of moves whenever
//! the proof lists a defence; SGF readers that play only the main line (cpbim's own among
//! them) read the position and one line of the proof.

use super::tree::{Reply, ThreatProof};
use crate::geom::{Color, Point};
use crate::search::proof::ProofNode;
use crate::Position;

/// `proof` of `a`'s win in `pos` as one SGF game tree.
pub fn proof_sgf(pos: &Position, a: Color, proof: &ThreatProof) -> String {
    let head = crate::notation::to_sgf(pos);
    let mut w = Writer {
        out: head.strip_suffix(')').unwrap_or(&head).to_string(),
        a,
        game: *pos.game(),
    };
    w.comment(&format!(
        "{} wins: the proof of cpbim prove ({} on the longest line)",
        a.name(),
        crate::text::counted(proof.threats(), "threat")
    ));
    w.threat_proof(proof);
    w.out.push(')');
    w.out
}

/// The comment on a pass win's variation.
const OUTSIDE: &str = "any other move (outside the relevance zone of the win below), or a pass";

struct Writer {
    out: String,
    a: Color,
    game: crate::Game,
}

impl Writer {
    fn play(&mut self, c: Color, stones: &[Point]) {
        self.out
            .push_str(if c == Color::Black { ";B[" } else { ";W[" });
        self.out
            .push_str(&crate::notation::sgf::move_value(&self.game, stones));
        self.out.push(']');
    }

    fn comment(&mut self, text: &str) {
        self.out.push_str("C[");
        self.out
            .push_str(&text.replace('\\', "\\\\").replace(']', "\\]"));
        self.out.push(']');
    }

    /// A variation: `(`, what `body` writes, `)`.
    fn variation(&mut self, body: impl FnOnce(&mut Self)) {
        self.out.push('(');
        body(self);
        self.out.push(')');
    }

    fn threat_proof(&mut self, proof: &ThreatProof) {
        match proof {
            ThreatProof::Leaf { leaf } => self.node(leaf),
            ThreatProof::Threat {
                threat,
                pass,
                replies,
            } => {
                self.play(self.a, threat);
                self.comment("threat");
                self.replies(replies, Some(pass), &[]);
            }
            ThreatProof::Quiet {
                quiet,
                pass,
                replies,
            } => {
                self.play(self.a, quiet);
                self.comment("quiet move");
                self.replies_and_threats(replies, pass);
            }
            ThreatProof::Defence { pass, replies } => match pass.as_deref() {
                Some(ThreatProof::Leaf { leaf }) => self.replies(replies, Some(leaf), &[]),
                Some(pass) => self.replies_and_threats(replies, pass),
                None => self.replies(replies, None, &[]),
            },
        }
    }

    /// The defences `replies` as variations, then the threat-space win `pass` after a pass.
    fn replies_and_threats(&mut self, replies: &[Reply], pass: &ThreatProof) {
        self.replies(replies, None, &[]);
        self.variation(|w| {
            w.play(w.a.opponent(), &[]);
            w.comment(OUTSIDE);
            w.threat_proof(pass);
        });
    }

    /// The defences `replies` as variations, then the pass win `pass` (after the defender's
    /// `first` stone, when the move began with it).
    fn replies(&mut self, replies: &[Reply], pass: Option<&ProofNode>, first: &[Point]) {
        let d = self.a.opponent();
        for r in replies {
            match r {
                Reply::Move { stones, next } => self.variation(|w| {
                    w.play(d, stones);
                    w.threat_proof(next);
                }),
                Reply::Stone {
                    stone,
                    pass,
                    replies,
                } => self.replies(replies, Some(pass), &[*stone]),
            }
        }
        if let Some(pass) = pass {
            self.variation(|w| {
                w.play(d, first);
                w.comment(if first.is_empty() {
                    OUTSIDE
                } else {
                    "with any other second stone (outside the relevance zone of the win below)"
                });
                w.node(pass);
            });
        }
    }

    fn node(&mut self, node: &ProofNode) {
        match node {
            ProofNode::Six { six } => {
                self.play(self.a, six);
                self.comment("wins");
            }
            ProofNode::Attack { attack, defenses } => {
                self.play(self.a, attack);
                if defenses.is_empty() {
                    self.comment("no defence stops every threat");
                }
                let d = self.a.opponent();
                for defense in defenses {
                    self.variation(|w| {
                        w.play(d, &defense.stones);
                        w.node(&defense.next);
                    });
                }
            }
        }
    }
}
