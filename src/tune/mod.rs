//! Tuning the engine's parameters by playing it (docs/tune.md, docs/design/tune.md).
//!
//! A method ([`Method`]) is a deterministic function from its seed and the results of the
//! rounds so far to the next [`Round`]: candidate parameter sets and the games between them.
//! The driver ([`drive`]) plays each round's games through the match runner, logs every
//! finished game in the state directory, and on `--resume` replays the log: rounds whose games
//! are all logged are recomputed, not played, so a stop loses only the games in flight.

pub mod ga;
pub mod log;
pub mod opponents;
pub mod plot;
pub mod pso;
pub mod remote;
pub mod round_robin;
pub mod spec;
pub mod spsa;

use crate::matches::openings::Opening;
use crate::matches::{play_game, Played, Rules};
use anyhow::Context;
use log::{GameLog, Logged};
use serde::{Deserialize, Serialize};
use spec::Spec;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The tuning methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MethodName {
    /// Simultaneous perturbation stochastic approximation (OpenBench's schedule).
    Spsa,
    /// Li Guo's adaptive genetic algorithm (groups, tournaments, champions).
    Ga,
    /// Particle swarm optimisation as Li Cuizhu's thesis (pBest and gBest decided by game pairs).
    Pso,
}

impl MethodName {
    /// Its name on the command line: `spsa`.
    pub fn name(self) -> &'static str {
        match self {
            MethodName::Spsa => "spsa",
            MethodName::Ga => "ga",
            MethodName::Pso => "pso",
        }
    }
}

/// Everything that decides a run's games, kept in `DIR/tune.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The method.
    pub method: MethodName,
    /// The game (`connect6`, `gomoku`, …).
    pub game: String,
    /// The SPEC: the tuned parameters with their bounds and steps.
    pub spec: serde_json::Value,
    /// The whole base parameter set the tune starts from.
    pub base: serde_json::Value,
    /// The time control of `cpbim match --tc` (none with `depth`).
    pub tc: Option<String>,
    /// A fixed alpha-beta depth for both engines instead of a time control.
    pub depth: Option<u32>,
    /// The openings, stone lists in play order.
    pub openings: Vec<String>,
    /// The seed of every random choice.
    pub seed: u64,
    /// Rounds in all (SPSA: iterations).
    pub rounds: u64,
    /// Games of one round (SPSA: θ+ against θ−; an even number, both colours per opening).
    pub games_per_step: usize,
    /// SPSA: the learning rate's end value r_end (OpenBench's 0.002 by default).
    pub r_end: f64,
    /// GA: individuals in the population; PSO: particles in the swarm.
    #[serde(default)]
    pub population: usize,
    /// GA: groups the population is split into (one champion each).
    #[serde(default)]
    pub groups: usize,
    /// Fixed engines (commands) every game is played against too ([`opponents`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
}

/// One side of a game: a candidate of the round.
pub type Side = usize;

/// One game of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The two candidates; the game's score is counted for `sides[0]`.
    pub sides: [Side; 2],
    /// Which of `sides` has black (0 or 1).
    pub black: usize,
    /// The opening's index in the run's openings.
    pub opening: usize,
}

/// A round: candidate parameter sets (whole numbers, in SPEC order) and the games among them.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// The candidates' tuned values.
    pub candidates: Vec<Vec<i64>>,
    /// The games.
    pub games: Vec<Pairing>,
}

/// What a round changed, for the history.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The method's current best values after the round (unrounded).
    pub values: Vec<f64>,
    /// The round's score: the points of `sides[0]` over the games, as a fraction.
    pub score: f64,
    /// The method's own columns ([`Method::columns`]).
    pub extra: Vec<f64>,
}

/// A tuning method.
pub trait Method {
    /// The games of round `r` (from 0).
    fn round(&mut self, r: u64) -> Round;
    /// The results of the round last asked for: the score of each game's `sides[0]`.
    fn finish(&mut self, round: &Round, scores: &[f64]) -> Step;
    /// The method's own history columns.
    fn columns(&self) -> Vec<&'static str>;
}

/// A method for `settings` over `spec` (its games against the fixed opponents too, if any).
pub fn method_for(settings: &Settings, spec: &Spec) -> Box<dyn Method + Send> {
    let method: Box<dyn Method + Send> = match settings.method {
        MethodName::Spsa => Box::new(spsa::Spsa::new(spec, settings)),
        MethodName::Ga => Box::new(ga::Ga::new(spec, settings)),
        MethodName::Pso => Box::new(pso::Pso::new(spec, settings)),
    };
    match settings.opponents.len() {
        0 => method,
        n => Box::new(opponents::WithOpponents::new(method, n)),
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    /// Every round done.
    Done,
    /// Stopped by the flag; the rounds done so far are in the history.
    Stopped,
}

/// Where and how a method's games are played.
pub struct Run<'a> {
    /// The SPEC read over the base.
    pub spec: &'a Spec,
    /// The openings.
    pub openings: &'a [Opening],
    /// The game and time control.
    pub rules: &'a Rules,
    /// The state directory.
    pub dir: &'a Path,
    /// The command line of candidate `i` with the parameter file `path`.
    pub engine: &'a (dyn Fn(&Path) -> String + Sync),
    /// The fixed opponents' commands: the sides after a round's candidates.
    pub opponents: &'a [String],
    /// Where each game is written as an SGF record (`rRRRR-gGGG.sgf`), if anywhere.
    pub records: Option<&'a Path>,
    /// Games at the same time.
    pub concurrency: usize,
    /// The program that plays the games instead ([`remote`]: `--runner`).
    pub runner: Option<&'a remote::Runner>,
}

/// A game as it ends, for progress reports.
pub struct Report<'a> {
    /// The round (from 0).
    pub round: u64,
    /// Games of the round finished (logged ones included).
    pub done: usize,
    /// Games of the round.
    pub of: usize,
    /// The game just logged.
    pub game: &'a Logged,
}

/// The candidate files of a round: `DIR/candidates/I.json`.
fn candidate_path(dir: &Path, i: usize) -> PathBuf {
    dir.join("candidates").join(format!("{i}.json"))
}

/// What the driver calls after each round: its index, the history so far, and whether the
/// round was replayed from the log (not played).
pub type AfterRound<'a> = dyn FnMut(u64, &[Step], bool) -> anyhow::Result<()> + 'a;

/// Play the first `rounds` rounds of `method` over `run`, replaying the logged ones and
/// playing the rest; `report` sees
/// each game as it ends, `after` each round's history (with whether it was replayed).
pub fn drive(
    run: &Run,
    method: &mut dyn Method,
    rounds: u64,
    stop: &AtomicBool,
    report: &(dyn Fn(&Report) + Sync),
    after: &mut AfterRound,
) -> anyhow::Result<Ended> {
    std::fs::create_dir_all(run.dir.join("candidates"))?;
    let log = GameLog::open(run.dir)?;
    let mut history = Vec::new();
    for r in 0..rounds {
        let round = method.round(r);
        let mut scores: Vec<Option<f64>> = vec![None; round.games.len()];
        for g in log.round(r) {
            let Some(p) = round.games.get(g.game) else {
                anyhow::bail!("games.csv: round {} has no game {}", r + 1, g.game + 1);
            };
            if (p.sides, p.black, p.opening) != (g.sides, g.black, g.opening) {
                anyhow::bail!(
                    "games.csv: game {} of round {} is not this run's (another seed or SPEC?)",
                    g.game + 1,
                    r + 1
                );
            }
            scores[g.game] = Some(g.score);
        }
        let replayed = scores.iter().all(Option::is_some);
        if !replayed {
            play_round(run, &log, r, &round, &mut scores, stop, report)?;
            if scores.iter().any(Option::is_none) {
                return Ok(Ended::Stopped);
            }
        }
        let scores: Vec<f64> = scores.into_iter().flatten().collect();
        history.push(method.finish(&round, &scores));
        after(r, &history, replayed)?;
    }
    Ok(Ended::Done)
}

/// Play the games of round `r` missing from `scores`, `run.concurrency` at once, each logged
/// as it ends.
fn play_round(
    run: &Run,
    log: &GameLog,
    r: u64,
    round: &Round,
    scores: &mut [Option<f64>],
    stop: &AtomicBool,
    report: &(dyn Fn(&Report) + Sync),
) -> anyhow::Result<()> {
    let mut commands = Vec::new();
    let mut params = Vec::new();
    for (i, values) in round.candidates.iter().enumerate() {
        let path = candidate_path(run.dir, i);
        let json = serde_json::to_string_pretty(&run.spec.json(values))?;
        crate::files::write(&path, json.clone() + "\n")?;
        commands.push((run.engine)(&path));
        params.push(Some(json));
    }
    commands.extend(run.opponents.iter().cloned());
    params.extend(run.opponents.iter().map(|_| None));
    let missing: Vec<usize> = (0..scores.len()).filter(|&i| scores[i].is_none()).collect();
    if let Some(runner) = run.runner {
        let placeholder = (run.engine)(Path::new("{PARAMS}"));
        let command = |side: usize| match params[side] {
            Some(_) => placeholder.as_str(),
            None => commands[side].as_str(),
        };
        let requests: Vec<remote::Request> = missing
            .iter()
            .map(|&g| {
                let p = round.games[g];
                remote::Request {
                    game: g,
                    engines: p.sides.map(command),
                    params: p.sides.map(|side| params[side].as_deref()),
                    opening: &run.openings[p.opening].stones,
                    black: p.black,
                }
            })
            .collect();
        let mut done = scores.len() - missing.len();
        let of = scores.len();
        runner.play(&run.rules.game, &requests, stop, &mut |g, played| {
            let logged = keep(run, log, r, g, &round.games[g], &played)
                .context("a finished game could not be kept")?;
            scores[g] = Some(logged.score);
            done += 1;
            report(&Report {
                round: r,
                done,
                of,
                game: &logged,
            });
            Ok(())
        })?;
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(scores.len() - missing.len());
    let results: Mutex<Vec<(usize, f64)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..run.concurrency.clamp(1, missing.len().max(1)) {
            s.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let Some(&g) = missing.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let p = round.games[g];
                let cmds = [commands[p.sides[0]].as_str(), commands[p.sides[1]].as_str()];
                let opening = &run.openings[p.opening].stones;
                let Some(played) = play_game(run.rules, cmds, p.black, opening, stop) else {
                    return;
                };
                let logged = match keep(run, log, r, g, &p, &played) {
                    Ok(logged) => logged,
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((g, logged.score));
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                report(&Report {
                    round: r,
                    done: n,
                    of: scores.len(),
                    game: &logged,
                });
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e.context("a finished game could not be kept"));
    }
    for (g, score) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        scores[g] = Some(score);
    }
    Ok(())
}

/// Game `g` of round `r` (`p`), just `played`: logged in `games.csv`, written as a record when
/// asked; its log line.
fn keep(
    run: &Run,
    log: &GameLog,
    r: u64,
    g: usize,
    p: &Pairing,
    played: &Played,
) -> anyhow::Result<Logged> {
    let logged = Logged::of(r, g, p, played);
    if let Some(dir) = run.records {
        let name = format!("r{:04}-g{:03}.sgf", logged.round + 1, logged.game + 1);
        crate::matches::write_sgf(&dir.join(name), &run.rules.game, &played.stones)?;
    }
    log.append(&logged)
        .map_err(|e| anyhow::Error::from(e).context("games.csv"))?;
    Ok(logged)
}

/// The settings and SPEC the methods' unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{MethodName, Settings};
    use crate::engine::Params;
    use crate::tune::spec::Spec;

    /// Settings of `method` at depth 1 over `openings` openings: 10 rounds of 4 games (SPSA),
    /// a population of 8 in 2 groups (GA; PSO: 8 particles), r_end 0.05, seed `seed`.
    pub fn settings(method: MethodName, seed: u64, openings: usize) -> Settings {
        Settings {
            method,
            game: "connect6".into(),
            spec: serde_json::Value::Null,
            base: serde_json::Value::Null,
            tc: None,
            depth: Some(1),
            openings: vec!["J10".into(); openings],
            seed,
            rounds: 10,
            games_per_step: 4,
            r_end: 0.05,
            population: 8,
            groups: 2,
            opponents: Vec::new(),
        }
    }

    /// Two of Connect6's weights: `own[5]` in [40, 60], `opponent[5]` in [0, 30].
    pub fn spec() -> Spec {
        Spec::parse(
            r#"{"own[5]": {"min": 40, "max": 60, "step": 3},
                "opponent[5]": {"min": 0, "max": 30, "step": 2}}"#,
            &Params::connect6(),
        )
        .unwrap()
    }
}
