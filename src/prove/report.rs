//! A proof search's answer and progress as JSON (docs/json.md, `prove`): what `cpbim prove
//! --json` prints and what the board's prove job sends.

use super::limits::{Answer, Limits, Progress, Search, Verdict};
use crate::board::Position;
use crate::geom::Color;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;

/// The answer of a search for `side`'s win in `pos` within `l`, the proof included.
pub fn answer_json(pos: &Position, side: Color, l: &Limits, answer: &Answer) -> Value {
    let (proof, size) = match &answer.verdict {
        Verdict::Proven(proof) => (
            serde_json::to_value(proof).expect("a proof serialises"),
            json!(proof.size()),
        ),
        _ => (Value::Null, Value::Null),
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
        "refutation": answer.refutation.as_ref().map(|stones| {
            stones.iter().map(|x| x.to_string()).collect::<Vec<_>>()
        }),
        "proof_size": size,
        "proof": proof,
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
