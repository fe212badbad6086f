//! An analysis as the CLI and the server show it: each boundary as JSON or a text block, the
//! end of the line, the summary rows of a batch, and the board drawn as SVG.

use super::verdict::{eval_json, first_mistake, review_json, review_text};
use super::{Analysis, Boundary};
use crate::board::{points_text, Board};
use crate::geom::{Color, Point};
use crate::search::{Outcome, Solution};

/// The objects of `cpbim analyze --json` for one analysis: one per boundary, then the end of a
/// finished game.
pub fn analysis_json(a: &Analysis) -> Vec<serde_json::Value> {
    a.boundaries
        .iter()
        .map(boundary_json)
        .chain(end_json(a))
        .collect()
}

/// The JSON object of one boundary: `{"stones", "to_move", "last_move", "live_windows",
/// "thn", "win", "threat"}` and, when computed, `"defenses"`. `win` and `threat` are the
/// objects of `cpbim solve --json`.
pub fn boundary_json(b: &Boundary) -> serde_json::Value {
    use crate::report::solution_json;
    use serde_json::json;
    let mut v = json!({
        "stones": b.stones,
        "to_move": b.to_move.name(),
        "last_move": b.last_move,
        "live_windows": {"black": b.live_windows.black, "white": b.live_windows.white},
        "thn": {"black": b.thn.black, "white": b.thn.white},
        "win": solution_json(&b.win),
        "threat": solution_json(&b.threat),
    });
    if let Some(answer) = &b.proved {
        v["prove"] = proved_json(answer);
    }
    if let Some(e) = &b.eval {
        v["eval"] = eval_json(e);
    }
    if let Some(r) = &b.review {
        v["review"] = review_json(r);
    }
    if let Some(d) = b.defenses.as_ref().filter(|d| !d.needed || d.stopped) {
        v["defenses"] = json!({ "needed": d.needed, "stopped": d.stopped });
    } else if let Some(d) = &b.defenses {
        v["defenses"] = json!({
            "needed": true,
            "stopped": false,
            "points": d.points,
            "pairs": d.pairs,
            "holding": d.holding,
            "unknown": d.unknown,
            "carried": d.carried,
            "nodes": d.nodes,
            "time_ms": (d.time.as_secs_f64() * 1e6).round() / 1e3,
            "key_points": d.key_points.iter().map(|(p, n)| json!([p, n])).collect::<Vec<_>>(),
            "moves": d.moves,
        });
    }
    v
}

/// `proven with 1 threat (first M9 L10), 0.012 s`, or why not.
fn proved_text(a: &crate::prove::Answer) -> String {
    use crate::prove::Verdict;
    let time = a.time.as_secs_f64();
    match &a.verdict {
        Verdict::Proven(proof) => {
            let first = proof
                .first_threat()
                .map_or(String::new(), |t| format!(" (first {})", points_text(t)));
            let threats = crate::text::counted(proof.threats(), "threat");
            format!("proven with {threats}{first}, {time:.3} s")
        }
        Verdict::NotProven => format!("not proven within the limits, {time:.3} s"),
        Verdict::Stopped => format!("stopped after {time:.3} s: not proven"),
    }
}

/// The `prove` object of a boundary's JSON.
fn proved_json(a: &crate::prove::Answer) -> serde_json::Value {
    let first = match &a.verdict {
        crate::prove::Verdict::Proven(proof) => proof.first_threat(),
        _ => None,
    };
    serde_json::json!({
        "result": a.verdict.name(),
        "threats": a.threats_reached(),
        "first": first,
        "nodes": a.nodes,
        "time_ms": (a.time.as_secs_f64() * 1e6).round() / 1e3,
    })
}

/// A few lines of text for one boundary.
pub fn boundary_text(b: &Boundary) -> String {
    use crate::report::solution_text;
    let mut s = format!(
        "{:>3} stones  {} to move  ({})  live windows B {} W {}, thn B {} W {}\n",
        b.stones,
        b.to_move,
        match b.last_move.as_slice() {
            [] => "a diagram".to_string(),
            m => format!("last: {}", points_text(m)),
        },
        b.live_windows.black,
        b.live_windows.white,
        b.thn.black,
        b.thn.white
    );
    s += &format!("      {} wins?     {}\n", b.to_move, solution_text(&b.win));
    s += &format!(
        "      {} threat?  {}\n",
        b.to_move.opponent(),
        solution_text(&b.threat)
    );
    if let Some(answer) = &b.proved {
        s += &format!("      {} proof?   {}\n", b.to_move, proved_text(answer));
    }
    if b.defenses.as_ref().is_some_and(|d| !d.needed) {
        s += "      defences: not needed, no threat to answer\n";
    } else if b.defenses.as_ref().is_some_and(|d| d.stopped) {
        s += "      defences: not searched, stopped by Ctrl-C\n";
    } else if let Some(d) = &b.defenses {
        s += &format!(
            "      defences: {} of {} moves hold ({} candidate points, {} refuted by a known proof, {:.2} s{})",
            d.holding,
            d.pairs,
            d.points,
            d.carried,
            d.time.as_secs_f64(),
            if d.unknown > 0 {
                format!(", {} undecided", d.unknown)
            } else {
                String::new()
            }
        );
        if d.holding > 0 && d.holding < d.pairs {
            let keys: Vec<String> = d
                .key_points
                .iter()
                .map(|(p, n)| format!("{p} ({n})"))
                .collect();
            s += &format!("; most used points: {}", keys.join(" "));
            if d.moves.len() <= 12 {
                let moves: Vec<String> = d.moves.iter().map(|m| points_text(m)).collect();
                s += &format!("; moves: {}", moves.join(", "));
            }
        }
        s.push('\n');
    }
    if let Some(r) = &b.review {
        s += &format!("      played:     {}\n", review_text(r));
    }
    s
}

/// The JSON object of a finished game's end: the finished answer of `cpbim solve --json` with
/// the game's stone count, `{"stones", "result": "finished", "winner", "six", "last_move"}`.
pub fn end_json(a: &Analysis) -> Option<serde_json::Value> {
    let w = a.end.as_ref()?;
    let mut v = serde_json::json!({ "stones": a.stones });
    if let (Some(obj), serde_json::Value::Object(end)) =
        (v.as_object_mut(), crate::report::finished_json(w))
    {
        obj.extend(end);
    }
    Some(v)
}

/// A line of text for a finished game's end.
pub fn end_text(a: &Analysis) -> Option<String> {
    let w = a.end.as_ref()?;
    Some(format!(
        "{:>3} stones  game over: {}\n",
        a.stones,
        crate::report::win_text(w)
    ))
}

/// One summary row for a whole line: at its last boundary the side to move, its search, the
/// opponent's threat and (when computed) how many moves hold; along the line the first
/// boundary where the side to move has a win and the boundaries where it faces a threat; the
/// winner of a finished game and its stone count.
pub fn summary_row(label: &str, a: &Analysis) -> String {
    let bs = &a.boundaries;
    let res = |s: &Solution| format!("{} {}", s.outcome.name(), s.depth);
    let ended = a
        .end
        .as_ref()
        .map_or("-".to_string(), |w| format!("{}@{}", w.winner, a.stones));
    let Some(last) = bs.last() else {
        return format!("{label:<24} (no boundary)");
    };
    let first_win = bs
        .iter()
        .find(|b| b.win.outcome == Outcome::Win)
        .map(|b| format!("{}@{}", b.to_move, b.stones))
        .unwrap_or_else(|| "-".into());
    let threats: Vec<String> = bs
        .iter()
        .filter(|b| b.threat.outcome == Outcome::Win)
        .map(|b| b.stones.to_string())
        .collect();
    let holding = match &last.defenses {
        Some(d) if d.stopped => "stopped".to_string(),
        Some(d) if d.needed => format!("{}/{}", d.holding, d.pairs),
        Some(_) => "no threat".to_string(),
        None => "-".to_string(),
    };
    format!(
        "{:<24} {:>6} {:<6} {:<9} {:<9} {:>11} {:<12} {:<12} {:<14} {}",
        label,
        last.stones,
        last.to_move.name(),
        res(&last.win),
        res(&last.threat),
        holding,
        first_win,
        ended,
        first_mistake(bs),
        if threats.is_empty() {
            "-".to_string()
        } else {
            threats.join(" ")
        }
    )
}

/// The header of [`summary_row`]'s table.
pub fn summary_header() -> String {
    format!(
        "{:<24} {:>6} {:<6} {:<9} {:<9} {:>11} {:<12} {:<12} {:<14} {}\n{:<24} {:>6} {:<6} {:<9} {:<9} {:>11} {:<12} {:<12} {:<14} {}",
        "line",
        "stones",
        "to",
        "wins?",
        "threat?",
        "defences",
        "first win",
        "won by",
        "first mistake",
        "threats faced at",
        "",
        "(last)",
        "move",
        "(last)",
        "(last)",
        "hold/moves",
        "side@stones",
        "side@stones",
        "side@stones",
        "(stones)"
    )
}

/// An SVG board diagram of `pos`: stones, the last move ringed in red, and the points of the
/// opponent's threat (its first attack if the side to move passed) marked with blue crosses.
pub fn board_svg(board: &Board, last: &[Point], threat: &[Point], title: &str) -> String {
    const CELL: usize = 28;
    const MARGIN: usize = 36;
    let (cols, rows) = (board.game().m(), board.game().n());
    let (right, bottom) = (MARGIN + CELL * (cols - 1), MARGIN + CELL * (rows - 1));
    let (width, height) = (right + MARGIN, bottom + MARGIN + 20);
    let xy = |p: Point| {
        (
            MARGIN + CELL * p.col(),
            MARGIN + CELL * (rows - 1 - p.row()),
        )
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n\
<rect width=\"{width}\" height=\"{height}\" fill=\"#e8c07a\"/>\n<text x=\"{MARGIN}\" y=\"{ty}\" font-size=\"14\">{title}</text>\n",
        ty = bottom + MARGIN + 12,
        title = title.replace('&', "&amp;").replace('<', "&lt;"),
    );
    for c in 0..cols {
        let x = MARGIN + CELL * c;
        let letter = (b'A' + c as u8) as char;
        s += &format!(
            "<line x1=\"{x}\" y1=\"{MARGIN}\" x2=\"{x}\" y2=\"{bottom}\" stroke=\"#333\"/>\
<text x=\"{x}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{letter}</text>\n",
            MARGIN - 16
        );
    }
    for r in 0..rows {
        let y = MARGIN + CELL * r;
        s += &format!(
            "<line x1=\"{MARGIN}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\" stroke=\"#333\"/>\
<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
            MARGIN - 12,
            y + 4,
            rows - r
        );
    }
    for (p, c) in board.iter() {
        let (x, y) = xy(p);
        let (fill, stroke) = match c {
            Color::Black => ("#111", "#000"),
            Color::White => ("#fafafa", "#333"),
        };
        s += &format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>\n",
            CELL / 2 - 2
        );
    }
    for &p in last {
        let (x, y) = xy(p);
        s += &format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"5\" fill=\"none\" stroke=\"#d00\" stroke-width=\"2.5\"/>\n"
        );
    }
    for &p in threat {
        let (x, y) = xy(p);
        let d = 7;
        s += &format!(
            "<path d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#06c\" stroke-width=\"3\"/>\n",
            x - d,
            y - d,
            x + d,
            y + d,
            x - d,
            y + d,
            x + d,
            y - d
        );
    }
    s += "</svg>\n";
    s
}
