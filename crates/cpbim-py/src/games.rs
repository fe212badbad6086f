//! Engine games from Python: one game between two engine processes (`play_game`, the referee
//! of `cpbim match`) and the statistics of many (`tally`), for matches and tournaments whose
//! games run elsewhere, as Dask tasks (`cpbim.dask.match`).

use super::{game_of, run, to_python, value_error};
use cpbim::matches::openings as built;
use cpbim::matches::stats::{Sprt, Tally};
use cpbim::matches::{wire::Wire, Ending, Rules, TimeControl};
use cpbim::Color;
use pyo3::prelude::*;
use serde_json::json;

/// `play_game(engines, game="connect6", opening=None, black=0, tc=None)`: one game between
/// the engine commands `engines` (a pair; run with `sh -c`, speaking the game's protocol as in
/// `cpbim match`), engine `black` (0 or 1) playing black, from the stones of `opening` (a
/// stone list, whole moves); `tc` as `cpbim match --tc` (`S` a move, `BASE+INC` a clock; none:
/// 10 minutes a move). `{"black", "winner": "black" | "white" | None, "score" (engine 0's
/// points), "ending": "row" | "full board" | "illegal" | "time" | "crash", "reason",
/// "stones", "moves", "move_ms"}`. An engine that cannot start loses by `crash`.
#[pyfunction]
#[pyo3(signature = (engines, game="connect6", opening=None, black=0, tc=None))]
pub fn play_game<'py>(
    py: Python<'py>,
    engines: (String, String),
    game: &str,
    opening: Option<&str>,
    black: i64,
    tc: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = game_of(game)?;
    let wire = Wire::for_game(&game).map_err(value_error)?;
    let time = match tc {
        None => TimeControl::None,
        Some(tc) => TimeControl::parse(tc).map_err(|e| value_error(format!("tc {e}")))?,
    };
    let black = match black {
        0 | 1 => black as usize,
        _ => {
            return Err(value_error(format!(
                "black {black}: give 0 or 1 (an engine's index)"
            )))
        }
    };
    let stones = match opening {
        Some(text) if !text.trim().is_empty() => {
            let mut found = built::from_text(text, &game).map_err(value_error)?;
            if found.len() != 1 {
                return Err(value_error("opening: give one stone list"));
            }
            found.remove(0).stones
        }
        _ => Vec::new(),
    };
    if !game.is_move_boundary(stones.len()) {
        return Err(value_error("opening: give whole moves"));
    }
    let rules = Rules { game, wire, time };
    let played = run(py, move |stop| {
        cpbim::matches::play_game(&rules, [&engines.0, &engines.1], black, &stones, stop)
    })?;
    let Some(g) = played else {
        return Err(value_error("the game was stopped"));
    };
    let reason = match &g.ending {
        Ending::Illegal(why) | Ending::Crash(why) => Some(why.clone()),
        _ => None,
    };
    let move_ms = [0, 1].map(|k| g.time[k].as_secs_f64() * 1e3 / f64::from(g.moves[k].max(1)));
    let answer = json!({
        "black": g.black,
        "winner": g.winner.map(Color::name),
        "score": g.score0(),
        "ending": g.ending.name(),
        "reason": reason,
        "stones": g.stones.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
        "moves": g.moves,
        "move_ms": move_ms,
    });
    to_python(py, &answer)
}

/// `tally(scores, sprt=None)`: the statistics `cpbim match --json` reports for games that
/// scored `scores` (1, ½ or 0 each) for the first engine: `{"games", "wins", "losses",
/// "draws", "score", "elo", "elo_95", "los", "sprt"}` (`elo` and the interval's bounds `None`
/// where infinite; `sprt`, given as `"elo0,elo1,alpha,beta"`, where the test stands).
#[pyfunction]
#[pyo3(signature = (scores, sprt=None))]
pub fn tally<'py>(
    py: Python<'py>,
    scores: Vec<f64>,
    sprt: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let sprt = sprt
        .map(|s| Sprt::parse(s).map_err(|e| value_error(format!("sprt {e}"))))
        .transpose()?;
    let mut t = Tally::default();
    for s in scores {
        if ![0.0, 0.5, 1.0].contains(&s) {
            return Err(value_error(format!("score {s}: a game scores 1, 0.5 or 0")));
        }
        t.add(s);
    }
    let mut answer = cpbim::matches::run::tally_json(&t);
    answer["sprt"] = match sprt {
        Some(s) => serde_json::to_value(s.state(&t)).expect("plain data"),
        None => serde_json::Value::Null,
    };
    to_python(py, &answer)
}

/// `openings(game="connect6")`: `cpbim match`'s built-in openings of `game` as stone lists
/// (Connect6: the 24 named openings; a game of one stone a move: the 26 three-stone ones).
#[pyfunction]
#[pyo3(signature = (game="connect6"))]
pub fn openings(game: &str) -> PyResult<Vec<String>> {
    let game = game_of(game)?;
    let found = built::built_in(&game).map_err(value_error)?;
    Ok(found
        .iter()
        .map(|o| {
            let stones: Vec<String> = o.stones.iter().map(|x| x.to_string()).collect();
            stones.join(" ")
        })
        .collect())
}
