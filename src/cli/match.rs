//! `cpbim match`: two engine processes play each other (docs/match.md).

use super::{limits, STOP};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::matches::openings::{self, Opening};
use cpbim::matches::process::EngineProcess;
use cpbim::matches::run::{self, Plan};
use cpbim::matches::stats::Sprt;
use cpbim::matches::wire::Wire;
use cpbim::matches::{Rules, TimeControl};
use cpbim::Game;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct MatchArgs {
    /// An engine's command line (run with `sh -c`), speaking the game's protocol (Cloudict
    /// for connect6, Gomocup for the games of five); give it twice. With one, the second is
    /// this program's own engine (`cpbim engine --protocol …`).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// The game: connect6, or a game of five with one stone per move (gomoku,
    /// gomoku-standard, renju, gomoku:N, …).
    #[arg(long, default_value = "connect6", value_parser = super::parse_game)]
    game: Game,
    /// Games to play: each opening twice, colours swapped.
    #[arg(long, default_value_t = 48)]
    games: usize,
    /// `named` (connect6: the 24 named openings; games of five: the 26 three-stone
    /// openings), `data` (connect6: the first moves of the bundled real games) or a file with
    /// one stone list per line.
    #[arg(long, default_value = "named")]
    openings: String,
    /// Stones of each opening taken from real games (`--openings data`).
    #[arg(long, default_value_t = 3)]
    opening_stones: usize,
    /// `S`: seconds a move may take; a move later than this (plus a quarter, at least 0.5 s,
    /// for process overhead) loses on time. `BASE+INC`: a game clock per engine, BASE seconds
    /// and INC added after each move; an engine whose clock runs out loses (Gomocup engines
    /// are told their time; Cloudict-protocol engines must keep their own, e.g. `cpbim engine
    /// --game-time`). Without it, only a 10-minute cap per move.
    #[arg(long, value_name = "S|BASE+INC")]
    tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop when a sequential probability ratio test decides: elo0,elo1,alpha,beta.
    #[arg(long, value_name = "E0,E1,A,B")]
    sprt: Option<String>,
    /// Write every game as SGF into this directory.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Print the summary as one JSON object (docs/json.md).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MatchArgs) -> Result<()> {
    // An engine that exits must not take the referee with it: writing to it then fails with
    // an error (a crash of that engine) instead of killing this process.
    // SAFETY: setting a signal disposition before this command starts any thread.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let game = args.game;
    let wire = Wire::for_game(&game).map_err(anyhow::Error::msg)?;
    let mut engines = args.engines.clone();
    if engines.len() == 1 {
        let me = std::env::current_exe().context("finding this program")?;
        engines.push(match wire {
            Wire::Cloudict => format!("'{}' engine --protocol cloudict", me.display()),
            Wire::Gomocup => format!("'{}' engine --protocol gomocup", me.display()),
        });
    }
    let [a, b]: [String; 2] = engines.try_into().map_err(|e: Vec<String>| {
        super::usage_error(format!("give one or two --engine, not {}", e.len()))
    })?;
    let openings = read_openings(&args.openings, args.opening_stones, &game)?;
    let plan = Plan {
        rules: Rules {
            game,
            wire,
            time: match &args.tc {
                None => TimeControl::None,
                Some(tc) => {
                    TimeControl::parse(tc).map_err(|e| super::usage_error(format!("--tc {e}")))?
                }
            },
        },
        engines: [a, b],
        openings,
        games: args.games,
        concurrency: limits::per_core("concurrency", Some(args.concurrency)),
        sprt: args
            .sprt
            .as_deref()
            .map(Sprt::parse)
            .transpose()
            .map_err(super::usage_error)?,
    };
    check_engines(&plan.engines.each_ref().map(|e| ("--engine", e.as_str())))?;
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("--records {}", dir.display()))?;
    }
    eprintln!(
        "match: {}, {}, concurrency {}",
        cpbim::text::counted(plan.games as u64, "game"),
        cpbim::text::counted(plan.openings.len() as u64, "opening"),
        plan.concurrency
    );
    let unwritten = std::sync::atomic::AtomicUsize::new(0);
    let report =
        |slot: &run::Slot, g: &cpbim::matches::Played, t: &cpbim::matches::stats::Tally| {
            eprintln!("{}", run::game_line(&plan, slot, g, t));
            if let Some(dir) = &args.records {
                if let Err(e) = write_record(dir, slot.index, &game, &g.stones) {
                    eprintln!("game {}: record not written: {e:#}", slot.index + 1);
                    unwritten.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        };
    let games = run::play(&plan, &STOP, &report);
    if super::interrupt::status().is_some() {
        eprintln!(
            "stopped by a signal after {} games; the games in progress are not counted",
            games.len()
        );
    }
    let summary = run::summary_json(&plan, &games);
    if args.json {
        outln!("{summary}")?;
    } else {
        outln!("{}", summary_text(&summary))?;
    }
    match unwritten.into_inner() {
        0 => Ok(()),
        n => anyhow::bail!("{n} game records not written (the reasons are above)"),
    }
}

/// A command that cannot run at all would lose every game "by crash": say so instead (the
/// engines, each named by its option, watched at once for 0.2 s).
pub(super) fn check_engines(engines: &[(&str, &str)]) -> Result<()> {
    let wait = std::time::Duration::from_millis(200);
    let checks: Vec<_> = std::thread::scope(|s| {
        let running: Vec<_> = engines
            .iter()
            .map(|&(_, e)| s.spawn(move || EngineProcess::check_runs(e, wait)))
            .collect();
        running
            .into_iter()
            .map(|h| h.join().unwrap_or(Ok(())))
            .collect()
    });
    for (&(option, engine), check) in engines.iter().zip(checks) {
        check.map_err(|e| anyhow::anyhow!("{option} {}: {e}", cpbim::text::excerpt(engine)))?;
    }
    Ok(())
}

pub(super) fn read_openings(spec: &str, stones: usize, game: &Game) -> Result<Vec<Opening>> {
    let list = match spec {
        "named" => openings::built_in(game).map_err(anyhow::Error::msg)?,
        "data" if !game.is_connect6() => {
            super::usage!("--openings data: the bundled games are connect6, not {game}")
        }
        "data" => openings::from_games(&cpbim::games::bundled_games_path(), game, stones)
            .map_err(anyhow::Error::msg)?,
        path => {
            if !std::path::Path::new(path).exists() {
                anyhow::bail!("--openings {path}: no such file (give named, data or a file)");
            }
            let text =
                cpbim::files::read_text(std::path::Path::new(path), cpbim::files::MAX_RECORD)
                    .context("--openings")?;
            openings::from_text(&text, game)
                .map_err(|e| anyhow::anyhow!("--openings {path}: {e}"))?
        }
    };
    Ok(list)
}

fn write_record(dir: &Path, index: usize, game: &Game, stones: &[cpbim::Point]) -> Result<()> {
    cpbim::matches::write_sgf(
        &dir.join(format!("game-{:04}.sgf", index + 1)),
        game,
        stones,
    )
}

/// `W-D-L`, score, Elo ± interval, LOS, adjudications, time per move, SPRT.
fn summary_text(s: &serde_json::Value) -> String {
    let num = |v: &serde_json::Value, inf: &str| {
        v.as_f64().map_or(inf.to_string(), |x| format!("{x:.1}"))
    };
    let elo_inf = if s["score"].as_f64().unwrap_or(0.5) >= 0.5 {
        "+inf"
    } else {
        "-inf"
    };
    let mut out = format!(
        "engine 1 against engine 2: +{} ={} -{} of {}, score {:.3}\nElo {} (95 %: {} to {}), LOS {:.3}\nadjudications: illegal {}, time {}, crash {}\nmean time per move: engine 1 {:.1} ms, engine 2 {:.1} ms",
        s["wins"], s["draws"], s["losses"], cpbim::text::counted(s["games"].as_u64().unwrap_or(0), "game"),
        s["score"].as_f64().unwrap_or(0.0),
        num(&s["elo"], elo_inf), num(&s["elo_95"][0], "-inf"), num(&s["elo_95"][1], "+inf"),
        s["los"].as_f64().unwrap_or(0.5),
        s["adjudications"]["illegal"], s["adjudications"]["time"], s["adjudications"]["crash"],
        s["mean_move_ms"][0].as_f64().unwrap_or(0.0), s["mean_move_ms"][1].as_f64().unwrap_or(0.0),
    );
    if !s["sprt"].is_null() {
        out += &format!(
            "\nSPRT: LLR {:.2} (bounds {:.2}, {:.2}){}",
            s["sprt"]["llr"].as_f64().unwrap_or(0.0),
            s["sprt"]["lower"].as_f64().unwrap_or(0.0),
            s["sprt"]["upper"].as_f64().unwrap_or(0.0),
            s["sprt"]["accepted"]
                .as_str()
                .map_or(String::new(), |h| format!(", {h} accepted"))
        );
    }
    out
}
