//! Output formats of `cpbim solve` (`docs/json.md`).

use crate::batch::Answer;
use crate::board::points_text;
use crate::record::Win;
use crate::search::Solution;
use serde_json::{json, Value};

/// The JSON object of a search: `{"result", "depth", "line", "nodes", "time_ms"}`, plus
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

/// The JSON object of a finished game: `{"result": "finished", "winner", "row", "last_move"}`
/// (`row`: the first k points of the winning row; `last_move` is empty when the play order is
/// unknown).
pub fn finished_json(w: &Win) -> Value {
    json!({
        "result": "finished",
        "winner": w.winner.name(),
        "row": w.row,
        "last_move": w.last_move,
    })
}

/// The JSON object of an answer.
pub fn answer_json(a: &Answer) -> Value {
    match a {
        Answer::Solved(s) => solution_json(s),
        Answer::Finished(w) => finished_json(w),
    }
}

/// `{"error": "…"}` for an input line that is not a game.
pub fn error_json(message: &str) -> Value {
    json!({ "error": message })
}

/// One line of text: `win 12  K10 L11 | M12 N13 | …  (1234 nodes, 0.8 ms)`.
pub fn solution_text(s: &Solution) -> String {
    let line: Vec<String> = s.line.iter().map(|m| points_text(m)).collect();
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

/// How a game ended: `black won, six D5 E5 F5 G5 H5 I5 (last move H5 I5)` (`five …` in a game of
/// five).
pub fn win_text(w: &Win) -> String {
    let word = crate::game::row_word(w.row.len());
    let mut out = format!("{} won, {word} {}", w.winner, points_text(&w.row));
    if !w.last_move.is_empty() {
        out.push_str(&format!(" (last move {})", points_text(&w.last_move)));
    }
    out
}

/// One line of text: `finished: black won, six D5 E5 F5 G5 H5 I5 (last move H5 I5)`.
pub fn finished_text(w: &Win) -> String {
    format!("finished: {}", win_text(w))
}

/// One line of text for an answer.
pub fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Solved(s) => solution_text(s),
        Answer::Finished(w) => finished_text(w),
    }
}
