//! A round's games played by another program (`cpbim tune --runner CMD`; docs/tune.md,
//! "Games elsewhere"): the tuner stays the driver (its rounds, log, resumption), the runner
//! plays the games wherever it likes (the Python package's `python -m cpbim.runner` plays
//! them as Dask tasks on a cluster).
//!
//! The runner is started once for the run. For each round it reads one JSON object a line, a
//! game each, then the line `end`:
//! `{"game": I, "engines": [CMD, CMD], "params": [JSON | null, JSON | null], "rules":
//! {"game": NAME, "tc": TC | null}, "opening": "STONES", "black": 0 | 1}` — an engine's
//! command holds `{PARAMS}` where the path of a file holding its `params` goes (a candidate;
//! `null` for a fixed opponent). It writes one JSON object a line as each game ends, in any
//! order: `{"game": I, "black", "winner": "black" | "white" | null, "ending": "row" |
//! "full board" | "illegal" | "time" | "crash", "reason": TEXT | null, "stones": [POINT, …],
//! "moves": [N, N], "move_ms": [MS, MS]}` (`cpbim.play_game`'s object); then it waits for
//! the next round, and exits at `quit` or the end of its input. The tuner checks each answer against the game asked for: the opening's stones first,
//! the stones a legal game of the rules, a row where the ending says so, and the winner the
//! row's.

use crate::geom::{Color, Point};
use crate::matches::process::{EngineProcess, Failure};
use crate::matches::{Ending, Played};
use crate::record::Record;
use crate::Game;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One game to play: its index in the round, its engines' commands (`{PARAMS}` where a
/// candidate's parameter file goes) and parameters, its opening and which engine has black.
pub struct Request<'a> {
    /// The game's index in the round.
    pub game: usize,
    /// The engines' command lines.
    pub engines: [&'a str; 2],
    /// The parameter files' contents (`None` for a fixed opponent).
    pub params: [Option<&'a str>; 2],
    /// The opening's stones.
    pub opening: &'a [Point],
    /// The engine (0 or 1) with black.
    pub black: usize,
}

/// The runner program of a tune: started at its first round, kept for the next ones (a Dask
/// client connects once), asked to quit when the run ends.
pub struct Runner {
    command: String,
    tc: Option<String>,
    process: Mutex<Option<EngineProcess>>,
}

impl Runner {
    /// The runner `command` for games at time control `tc` (as `cpbim match --tc`).
    pub fn new(command: &str, tc: Option<&str>) -> Runner {
        Runner {
            command: command.to_string(),
            tc: tc.map(str::to_string),
            process: Mutex::new(None),
        }
    }

    /// Play `requests` of `game`; `done` sees each game as it ends (an error from it ends the
    /// round). `Ok(false)` when `stop` ended the round first.
    pub fn play(
        &self,
        game: &Game,
        requests: &[Request],
        stop: &AtomicBool,
        done: &mut dyn FnMut(usize, Played) -> anyhow::Result<()>,
    ) -> anyhow::Result<bool> {
        let mut process = self.process.lock().unwrap_or_else(|e| e.into_inner());
        if process.is_none() {
            *process = Some(
                EngineProcess::spawn_showing_errors(&self.command)
                    .map_err(|e| anyhow::anyhow!("--runner: {}", failure(e)))?,
            );
        }
        let runner = process.as_mut().expect("started");
        let played = self.round(runner, game, requests, stop, done);
        if !matches!(played, Ok(true)) {
            // A runner that failed, or whose round was stopped, is not asked again.
            *process = None;
        }
        played
    }

    fn round(
        &self,
        runner: &mut EngineProcess,
        game: &Game,
        requests: &[Request],
        stop: &AtomicBool,
        done: &mut dyn FnMut(usize, Played) -> anyhow::Result<()>,
    ) -> anyhow::Result<bool> {
        for r in requests {
            runner
                .send(&request_json(r, game, self.tc.as_deref()).to_string())
                .map_err(|e| anyhow::anyhow!("--runner: {}", failure(e)))?;
        }
        runner
            .send("end")
            .map_err(|e| anyhow::anyhow!("--runner: {}", failure(e)))?;
        let mut left: Vec<usize> = requests.iter().map(|r| r.game).collect();
        // A game may take long (engines thinking): the runner is waited for while it runs.
        let forever = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        while !left.is_empty() {
            let line = match runner.expect(forever, stop, |l| l.trim_start().starts_with('{')) {
                Ok(line) => line,
                Err(Failure::Stopped) => return Ok(false),
                Err(e) => anyhow::bail!(
                    "--runner: {} with {} of the round's games unanswered",
                    failure(e),
                    left.len()
                ),
            };
            let (g, played) = answer(&line, game, requests).map_err(|e| {
                anyhow::anyhow!("--runner answered {}: {e}", crate::text::excerpt(&line))
            })?;
            let Some(at) = left.iter().position(|&x| x == g) else {
                anyhow::bail!("--runner answered game {} twice", g + 1);
            };
            left.swap_remove(at);
            done(g, played)?;
        }
        Ok(true)
    }
}

/// The line that asks for the game `r`.
fn request_json(r: &Request, game: &Game, tc: Option<&str>) -> Value {
    let params = r
        .params
        .map(|p| p.and_then(|text| serde_json::from_str::<Value>(text).ok()));
    let opening: Vec<String> = r.opening.iter().map(|x| x.to_string()).collect();
    json!({
        "game": r.game,
        "engines": r.engines,
        "params": params,
        "rules": {"game": game.to_string(), "tc": tc},
        "opening": opening.join(" "),
        "black": r.black,
    })
}

fn failure(f: Failure) -> String {
    match f {
        Failure::Crash(why) => format!("it ended ({why})"),
        Failure::Time => "no answer in time".to_string(),
        Failure::Malformed(line) => format!("unreadable: {line}"),
        Failure::Stopped => "stopped".to_string(),
    }
}

/// A runner's answer read and checked against the game asked for.
fn answer(line: &str, game: &Game, requests: &[Request]) -> Result<(usize, Played), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let g = v["game"].as_u64().ok_or("no \"game\" index")? as usize;
    let r = requests
        .iter()
        .find(|r| r.game == g)
        .ok_or_else(|| format!("game {} was not asked for", g + 1))?;
    if v["black"].as_u64() != Some(r.black as u64) {
        return Err(format!("\"black\" is not {}", r.black));
    }
    let stones: Vec<Point> = v["stones"]
        .as_array()
        .ok_or("no \"stones\" list")?
        .iter()
        .map(|x| {
            x.as_str()
                .and_then(|s| s.parse().ok())
                .ok_or("a stone that is no point")
        })
        .collect::<Result<_, _>>()?;
    if !stones.starts_with(r.opening) {
        return Err("the stones do not start with the opening".into());
    }
    let record = Record::from_stones(*game, &stones).map_err(|e| format!("the stones: {e}"))?;
    let winner = match v["winner"].as_str() {
        None => None,
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some(other) => return Err(format!("winner {other:?}")),
    };
    let reason = || v["reason"].as_str().unwrap_or("").to_string();
    let ending = match v["ending"].as_str() {
        Some("row") => Ending::Row,
        Some("full board") => Ending::FullBoard,
        Some("illegal") => Ending::Illegal(reason()),
        Some("time") => Ending::Time,
        Some("crash") => Ending::Crash(reason()),
        other => return Err(format!("ending {other:?}")),
    };
    let row_of = record.win().map(|w| w.winner);
    match (&ending, winner) {
        (Ending::Row, Some(w)) if row_of == Some(w) => {}
        (Ending::Row, _) => return Err("a win by a row that is not on the board".into()),
        (Ending::FullBoard, None)
            if row_of.is_none() && record.stones().len() == game.m() * game.n() => {}
        (Ending::FullBoard, _) => return Err("a draw on a board that is not full".into()),
        (_, Some(_)) if row_of.is_none() => {}
        _ => return Err("an adjudication without a winner, or after a row".into()),
    }
    let count = |k: usize| v["moves"][k].as_u64().unwrap_or(0) as u32;
    let ms = |k: usize| {
        v["move_ms"][k]
            .as_f64()
            .filter(|x| x.is_finite() && *x >= 0.0)
    };
    let moves = [count(0), count(1)];
    let time = [0, 1].map(|k| {
        Duration::from_secs_f64((ms(k).unwrap_or(0.0) * f64::from(moves[k]) / 1e3).min(1e9))
    });
    Ok((
        g,
        Played {
            black: r.black,
            winner,
            ending,
            stones,
            time,
            moves,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::{answer, Request};
    use crate::geom::Point;
    use crate::Game;

    fn points(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|x| x.parse().unwrap()).collect()
    }

    #[test]
    fn answers_are_checked_against_the_game_asked_for() {
        let game = Game::CONNECT6;
        let opening = points("J10");
        let requests = [Request {
            game: 3,
            engines: ["a", "b"],
            params: [None, None],
            opening: &opening,
            black: 1,
        }];
        let line = |winner: &str, ending: &str, stones: &str, black: u32| {
            let stones: Vec<String> = stones
                .split_whitespace()
                .map(|s| format!("{s:?}"))
                .collect();
            format!(
                r#"{{"game": 3, "black": {black}, "winner": {winner}, "ending": "{ending}", "reason": "x", "stones": [{}], "moves": [1, 1], "move_ms": [2.0, 3.0]}}"#,
                stones.join(", ")
            )
        };
        let six = "J10 A1 B1 J12 J13 C1 D1 J15 J16 E1 F1";
        let ok = answer(&line("\"white\"", "row", six, 1), &game, &requests).unwrap();
        assert_eq!(
            (ok.0, ok.1.winner, ok.1.stones.len()),
            (3, Some(crate::Color::White), 11)
        );
        let crash = answer(
            &line("\"black\"", "crash", "J10 K11 L11", 1),
            &game,
            &requests,
        );
        assert!(crash.is_ok());
        for (bad, why) in [
            (line("\"black\"", "row", six, 1), "a row of white won"),
            (line("\"white\"", "row", "J10 K11 L11", 1), "no row"),
            (line("null", "full board", "J10 K11 L11", 1), "not full"),
            (line("\"white\"", "row", six, 0), "black is engine 1"),
            (
                line("\"white\"", "crash", "K10 K11 L11", 1),
                "not the opening",
            ),
            (
                line("\"white\"", "crash", "J10 J10 L11", 1),
                "an occupied point",
            ),
            (line("\"white\"", "crash", six, 1), "a crash after the row"),
            (
                line("\"white\"", "resign", "J10 K11 L11", 1),
                "no such ending",
            ),
            (
                line("\"white\"", "crash", "J10 K11 Z99", 1),
                "off the board",
            ),
            (r#"{"game": 4}"#.to_string(), "not asked for"),
            ("{".to_string(), "not JSON"),
        ] {
            assert!(answer(&bad, &game, &requests).is_err(), "{why}: {bad}");
        }
    }
}
