//! Output formats of `cpbim solve` (SPEC §5).

use crate::search::Solution;
use serde_json::{json, Value};

/// The JSON object of SPEC §5: `{"result", "depth", "line", "nodes", "time_ms"}`, plus
/// `"proof"` when the solution carries one.
pub fn solution_json(s: &Solution) -> Value {
    let mut v = json!({
        "result": s.outcome.name(),
        "depth": s.depth,
        "line": s.line,
        "nodes": s.nodes,
        "time_ms": (s.time.as_secs_f64() * 1e6).round() / 1e3,
    });
    if let Some(p) = &s.proof {
        v["proof"] = serde_json::to_value(p).expect("proofs serialise");
    }
    v
}

/// `{"error": "…"}` for an input line that is not a position.
pub fn error_json(message: &str) -> Value {
    json!({ "error": message })
}

/// One line of text: `win 12  K10 L11 | M12 N13 | …  (1234 nodes, 0.8 ms)`.
pub fn solution_text(s: &Solution) -> String {
    let line: Vec<String> = s
        .line
        .iter()
        .map(|m| {
            m.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut out = format!("{} {}", s.outcome.name(), s.depth);
    if !line.is_empty() {
        out.push_str("  ");
        out.push_str(&line.join(" | "));
    }
    out.push_str(&format!(
        "  ({} nodes, {:.3} ms)",
        s.nodes,
        s.time.as_secs_f64() * 1e3
    ));
    out
}
