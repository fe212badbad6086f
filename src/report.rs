//! Output formats of `cpbim solve`, `move`, `position` and `kb stats` (`docs/json.md`), shared
//! by the command line, the server and the Python package.

use crate::batch::Answer;
use crate::board::{points_text, Board, Position};
use crate::engine::{Choice, Verdict};
use crate::game::Game;
use crate::geom::Point;
use crate::kb::{self, ConnType};
use crate::notation::{self, Format, WriteError};
use crate::record::{Record, Win};
use crate::renju;
use crate::search::{Outcome, Solution};
use serde_json::{json, Value};

/// The JSON object of a search: `{"result", "depth", "minimal", "line", "nodes", "time_ms"}`,
/// plus `"proof"` when the solution carries one.
pub fn solution_json(s: &Solution) -> Value {
    let mut v = json!({
        "result": s.outcome.name(),
        "depth": s.depth,
        "minimal": s.minimal,
        "line": s.line,
        "nodes": s.nodes,
        "time_ms": (s.time.as_secs_f64() * 1e7).round() / 1e4,
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

/// The JSON object of one line of a batch: its answer, or `{"error": "…"}` (without the
/// `"input_line"` the command line puts first).
pub fn line_json(r: &crate::batch::LineResult) -> Value {
    match r {
        Ok(a) => answer_json(a),
        Err(e) => error_json(e),
    }
}

/// `{"error": "…"}` for an input line that is not a game.
pub fn error_json(message: &str) -> Value {
    json!({ "error": message })
}

/// `cpbim kb stats --json`: Table 1 (`"types"`: shapes per connection type, `"total"`) and
/// Table 2 (`"sizes_kb"`).
pub fn kb_stats_json(s: &kb::Stats) -> Value {
    let mut types = serde_json::Map::new();
    for t in ConnType::ALL {
        types.insert(t.name().into(), s.counts[t as usize].into());
    }
    json!({
        "types": types,
        "total": s.total,
        "sizes_kb": s.sizes_kb,
    })
}

/// `cpbim kb stats --game G --json`: the game's tables ([`kb::colour_tables`]) with their
/// counts per type, size and origin, and Table 2.
pub fn kb_game_json(game: &Game, tables: &[(&str, &kb::Tables)]) -> Value {
    let tables: Vec<_> = tables
        .iter()
        .map(|(colour, t)| {
            let counts = t.counts();
            let mut types = serde_json::Map::new();
            for c in ConnType::ALL {
                types.insert(c.name().into(), counts[c as usize].into());
            }
            json!({
                "colour": colour,
                "k": t.params.k, "p": t.params.p, "exact": t.params.exact, "n": t.n,
                "shapes": counts.iter().sum::<u64>(),
                "types": types,
                "size_kb": t.size_kb(),
                "origin": t.origin.describe(),
            })
        })
        .collect();
    json!({"game": game.to_string(), "tables": tables, "sizes_kb": kb::stats().sizes_kb})
}

/// Points as the game writes them, space-separated: `J10 K10`.
pub fn stones_text(points: &[Point]) -> String {
    points_text(points)
}

/// Moves in order, a move's stones space-separated: `K10 L11 | M12 N13`.
pub fn line_text(line: &[Vec<Point>]) -> String {
    line.iter()
        .map(|m| points_text(m))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// One line of text: `win 12  K10 L11 | M12 N13 | …  (1234 nodes, 0.8 ms, shortest)`; the
/// last word says whether the depth of a win or of `none` is proven the smallest (`shortest`)
/// or is that of the first one found (`first found`).
pub fn solution_text(s: &Solution) -> String {
    let mut out = format!("{} {}", s.outcome.name(), s.depth);
    if !s.line.is_empty() {
        out.push_str("  ");
        out.push_str(&line_text(&s.line));
    }
    out.push_str(&format!(
        "  ({} nodes, {:.3} ms",
        s.nodes,
        s.time.as_secs_f64() * 1e3
    ));
    match (s.outcome, s.minimal) {
        (Outcome::Win | Outcome::None, true) => out.push_str(", shortest)"),
        (Outcome::Win | Outcome::None, false) => out.push_str(", first found)"),
        _ => out.push(')'),
    }
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

/// The JSON object of the engine's choice (`cpbim move --json`): `{"move", "eval", "verdict",
/// "win_depth", "depth", "pv", "nodes", "time_ms"}`.
pub fn choice_json(c: &Choice) -> Value {
    let names = |s: &[Point]| s.iter().map(Point::to_string).collect::<Vec<_>>();
    let (verdict, depth) = match c.verdict {
        Verdict::Win(d) => ("win", Some(d)),
        Verdict::Loss => ("loss", None),
        Verdict::Open => ("open", None),
    };
    json!({
        "move": names(&c.stones),
        "eval": c.eval,
        "verdict": verdict,
        "win_depth": depth,
        "depth": c.depth,
        "pv": c.pv.iter().map(|m| names(m)).collect::<Vec<_>>(),
        "nodes": c.nodes,
        "time_ms": (c.time.as_secs_f64() * 1e6).round() / 1e3,
    })
}

/// The position a player moves in: the record's game in progress, or why there is no move to
/// play (the game is over, the board is full).
pub fn to_play(record: &Record) -> Result<Position, String> {
    if let Some(w) = record.win() {
        return Err(format!("the game is over: {}", finished_text(w)));
    }
    let pos = record.position().map_err(|e| e.to_string())?;
    if pos.board().stones() == pos.game().point_count() {
        return Err("the board is full: no move to play".to_string());
    }
    Ok(pos)
}

/// `record` in `format` as `cpbim position --format` writes it: a finished game written as a
/// stone list or diagram says so in a comment (which the readers skip); with `forbidden`, a
/// comment lists black's forbidden points.
pub fn position_text(
    record: &Record,
    format: Format,
    forbidden: bool,
) -> Result<String, WriteError> {
    let mut text = notation::write(record, format)?;
    let mut comment = |line: String| {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text += &format!("# {line}\n");
    };
    if let (Some(w), Format::List | Format::Diagram) = (record.win(), format) {
        comment(finished_text(w));
    }
    if forbidden {
        comment(forbidden_text(record.board()));
    }
    Ok(text.trim_end_matches('\n').to_string())
}

/// `forbidden to black: H8 (double three), …` or `…: none`.
pub fn forbidden_text(board: &Board) -> String {
    let points: Vec<String> = renju::forbidden_points(board)
        .into_iter()
        .map(|(p, why)| format!("{p} ({})", why.name()))
        .collect();
    let list = if points.is_empty() {
        "none".to_string()
    } else {
        points.join(", ")
    };
    format!("forbidden to black: {list}")
}
