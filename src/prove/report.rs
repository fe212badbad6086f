//! A proof search's answer and progress as JSON (docs/json.md, `prove`): what `cpbim prove
//! --json` prints and what the board's prove job sends.

use super::limits::{Answer, Limits, Progress, Search, Verdict};
use super::tree::ThreatProof;
use crate::board::Position;
use crate::geom::Color;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;

/// The answer of a search for `side`'s win in `pos` within `l`, the proof included.
pub fn answer_json(pos: &Position, side: Color, l: &Limits, answer: &Answer) -> Value {
    let mut json = answer_head(pos, side, l, answer);
    if let Verdict::Proven(proof) = &answer.verdict {
        json["proof"] = serde_json::to_value(proof).expect("a proof serialises");
    }
    json
}

/// [`answer_json`] with the proof written in place when serialised, not held as a [`Value`]
/// (which takes some 40 times the proof's size in memory: 4.8 GB for a proof of 126 MB).
pub struct AnswerJson<'a> {
    /// The answer with `"proof": null` ([`answer_head`]), and whatever the caller adds.
    pub head: Value,
    /// The proof, when there is one.
    pub proof: Option<&'a ThreatProof>,
}

impl<'a> AnswerJson<'a> {
    /// The answer of a search for `side`'s win in `pos` within `l`.
    pub fn new(pos: &Position, side: Color, l: &Limits, answer: &'a Answer) -> Self {
        AnswerJson {
            head: answer_head(pos, side, l, answer),
            proof: match &answer.verdict {
                Verdict::Proven(proof) => Some(proof),
                _ => None,
            },
        }
    }
}

impl serde::Serialize for AnswerJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let fields = self.head.as_object().expect("an answer is an object");
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (key, value) in fields {
            match key.as_str() {
                "proof" => map.serialize_entry(key, &self.proof)?,
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// The answer as [`answer_json`] gives it but for the proof: `"proof": null`.
fn answer_head(pos: &Position, side: Color, l: &Limits, answer: &Answer) -> Value {
    let size = match &answer.verdict {
        Verdict::Proven(proof) => json!(proof.size()),
        _ => Value::Null,
    };
    json!({
        "result": answer.verdict.name(),
        "game": pos.game().to_string(),
        "to_move": pos.to_move().name(),
        "side": side.name(),
        "threats": answer.threats_reached(),
        "limits": {
            "threats": l.threats,
            "threat_step": l.threat_step,
            "late": l.late,
            "depth": l.root_depth,
            "leaf_depth": l.leaf_depth,
            "leaf_nodes": l.leaf_nodes,
            "width": l.width,
            "quiet": l.quiet,
            "quiet_depth": l.quiet_depth,
            "nodes": l.max_nodes,
            "time": l.max_time.map(|t| t.as_secs_f64()),
            "zone": l.zone,
            "threads": l.threads,
            "search": match l.search {
                Search::ProofNumber => "proof-number",
                Search::DepthFirst => "depth-first",
            },
        },
        "nodes": answer.nodes,
        "leaf_searches": answer.leaf_searches,
        "leaf_nodes": answer.leaf_nodes,
        "time_ms": answer.time.as_secs_f64() * 1e3,
        "leaf_time_ms": answer.leaf_time.as_secs_f64() * 1e3,
        "store_hits": answer.store_hits,
        "store_time_ms": answer.store_time.as_secs_f64() * 1e3,
        "book_moves": answer.book_moves,
        "refutation": answer.refutation.as_ref().map(|stones| {
            stones.iter().map(|x| x.to_string()).collect::<Vec<_>>()
        }),
        "proof_size": size,
        "proof": null,
    })
}

/// A search's progress so far: the threat budget under way, nodes, leaf searches, positions
/// known, and at the root the alternatives settled (`root_done` of `root_total`) or df-pn's
/// proof and disproof numbers.
pub fn progress_json(p: &Progress) -> Value {
    json!({
        "threats": p.threats.load(Ordering::Relaxed),
        "nodes": p.nodes.load(Ordering::Relaxed),
        "leaf_searches": p.leaf_searches.load(Ordering::Relaxed),
        "known": p.known.load(Ordering::Relaxed),
        "root_done": p.root_done.load(Ordering::Relaxed),
        "root_total": p.root_total.load(Ordering::Relaxed),
        "root_pn": p.root_pn.load(Ordering::Relaxed),
        "root_dn": p.root_dn.load(Ordering::Relaxed),
    })
}
