//! `cpbim tune`: the engine's parameters tuned by playing it (docs/tune.md).

use super::{limits, stopped, STOP};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::engine::Tuning;
use cpbim::matches::wire::Wire;
use cpbim::matches::{Rules, TimeControl};
use cpbim::tune::spec::Spec;
use cpbim::tune::{self, plot, MethodName, Settings};
use cpbim::Game;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The methods, by name.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
enum MethodArg {
    /// SPSA with OpenBench's schedule: θ+ against θ−, every parameter perturbed at once.
    Spsa,
    /// Li Guo's adaptive genetic algorithm (2007): groups, round robins, champions, uniform
    /// crossover and mutation at adaptive rates.
    Ga,
    /// The particle swarm of Li Cuizhu's Connect6 thesis (inertia and constriction), pBest and
    /// gBest decided by game
    /// pairs.
    Pso,
}

/// The options that decide a run's games: fixed by the state directory once it has started.
const RUN_OPTIONS: [&str; 15] = [
    "method",
    "params",
    "base",
    "game",
    "tc",
    "depth",
    "openings",
    "opening_stones",
    "seed",
    "iterations",
    "games_per_step",
    "r_end",
    "population",
    "groups",
    "opponent",
];

#[derive(Args)]
pub struct TuneArgs {
    /// The state directory: the run's settings, every finished game, the history, the best
    /// set and the plot. A new run needs one without a run in it.
    #[arg(long, value_name = "DIR")]
    state: PathBuf,
    /// Continue the run in `--state DIR` where it stopped (its settings are the stored ones).
    #[arg(long, conflicts_with_all = RUN_OPTIONS)]
    resume: bool,
    /// The tuning method.
    #[arg(long, value_enum, default_value = "spsa")]
    method: MethodArg,
    /// The SPEC: a JSON file naming the parameter-file keys to tune (`own[5]`,
    /// `tempo[1].opponent[3]`, `width`) with their bounds and step,
    /// `{"own[5]": {"min": 20, "max": 120, "step": 6}}` (docs/tune.md).
    #[arg(long, value_name = "SPEC", required_unless_present_any = ["resume", "round_robin"])]
    params: Option<PathBuf>,
    /// The parameter file the tune starts from (keys left out: the game's built-in set).
    #[arg(long, value_name = "FILE")]
    base: Option<PathBuf>,
    /// The game (connect6, or a game of five with one stone a move).
    #[arg(long, default_value = "connect6", value_parser = super::parse_game)]
    game: Game,
    /// Seconds a move (`S`) or a game clock (`BASE+INC`), as `cpbim match --tc` (default
    /// 0.1 s a move).
    #[arg(long, value_name = "S|BASE+INC", conflicts_with = "depth")]
    tc: Option<String>,
    /// Both engines search to this depth in whole moves instead of a time control (the same
    /// game every time from the same opening and parameters).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Where games start: `named`, `data` (connect6's real games) or a file, as `cpbim match
    /// --openings` (default: `data` for connect6, `named` otherwise).
    #[arg(long, value_name = "SPEC")]
    openings: Option<String>,
    /// Stones of each opening taken from the real games (`--openings data`).
    #[arg(long, default_value_t = 3, value_name = "N")]
    opening_stones: usize,
    /// The seed of every random choice (perturbation signs, rounding).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Iterations (SPSA: one game pair or more each; GA: generations; PSO: moves of the
    /// swarm).
    #[arg(long, default_value_t = 200, value_name = "N")]
    iterations: u64,
    /// Games per iteration (SPSA: θ+ against θ−, an even number: each opening with both
    /// colours).
    #[arg(long, default_value_t = 2, value_name = "N")]
    games_per_step: usize,
    /// SPSA's learning rate at the end, per step² (OpenBench: 0.002, made for tens of
    /// thousands of games; shorter runs need more).
    #[arg(long, default_value_t = tune::spsa::R_END, value_name = "R")]
    r_end: f64,
    /// GA: individuals in the population (4 or more); PSO: particles in the swarm (2 or more).
    #[arg(long, default_value_t = 20, value_name = "M")]
    population: usize,
    /// GA: groups the population is split into at random each generation, a round robin in
    /// each (2 or more, at most half the population).
    #[arg(long, default_value_t = 4, value_name = "N")]
    groups: usize,
    /// Li Guo's experiment (his Figure 1) on the run in `--state DIR`: the best sets after these rounds
    /// (`50,100,150`; GA: generations) and `--random` random players in one round robin, each
    /// pair with both colours (its games in `DIR/round-robin/`; run it again to continue).
    #[arg(long, value_name = "ROUNDS", conflicts_with_all = RUN_OPTIONS, conflicts_with = "resume")]
    round_robin: Option<String>,
    /// Random players in the round robin (drawn within the SPEC's bounds).
    #[arg(long, default_value_t = 2, value_name = "N", requires = "round_robin")]
    random: usize,
    /// A fixed engine every game is also played against, as `cpbim match --engine` (the
    /// game's protocol: Cloudict's for connect6, Gomocup's otherwise); repeat for more. Each
    /// game between two candidates is played again by each of them against each opponent, in
    /// the same colours and opening (docs/tune.md, "Fixed opponents").
    #[arg(long, value_name = "CMD")]
    opponent: Vec<String>,
    /// Write every game as an SGF record into DIR (`rRRRR-gGGG.sgf`: round and game).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Games played at the same time (the run's games are the same whatever this is).
    #[arg(long, default_value_t = 1, value_name = "N")]
    concurrency: usize,
    /// A program that plays each round's games instead (run with `sh -c`; docs/tune.md,
    /// "Games elsewhere"): `python -m cpbim.runner SCHEDULER` plays them as Dask tasks.
    #[arg(long, value_name = "CMD", conflicts_with = "concurrency")]
    runner: Option<String>,
}

pub fn run(args: &TuneArgs) -> Result<()> {
    // SAFETY: setting a signal disposition before this command starts any thread (as
    // `match`: an engine that exits must not take the tuner with it).
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let (settings, new) = load_settings(args)?;
    let game: Game = settings.game.parse().map_err(anyhow::Error::msg)?;
    let spec = spec_of(&settings, &game)?;
    let openings = cpbim::matches::openings::from_text(&settings.openings.join("\n"), &game)
        .map_err(|e| anyhow::anyhow!("the run's openings: {e}"))?;
    let wire = Wire::for_game(&game).map_err(anyhow::Error::msg)?;
    let time = match &settings.tc {
        Some(tc) => TimeControl::parse(tc).map_err(|e| super::usage_error(format!("--tc {e}")))?,
        None => TimeControl::None,
    };
    let rules = Rules { game, wire, time };
    let engine_line = engine_command(&settings, wire, time)?;
    let engine = |path: &Path| engine_line.replace("{PARAMS}", &shell_quoted(path));
    let first = engine(&base_file(&args.state, &spec)?);
    let opponents: &[String] = match args.round_robin {
        Some(_) => &[],
        None => &settings.opponents,
    };
    let mut check = vec![("the tuned engine:", first.as_str())];
    check.extend(opponents.iter().map(|o| ("--opponent", o.as_str())));
    super::r#match::check_engines(&check)?;
    if new {
        save_settings(&args.state, &settings)?;
    }
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("--records {}", dir.display()))?;
    }
    let robin_dir = args.state.join("round-robin");
    let runner =
        (args.runner.as_deref()).map(|cmd| tune::remote::Runner::new(cmd, settings.tc.as_deref()));
    let run = tune::Run {
        spec: &spec,
        openings: &openings,
        rules: &rules,
        dir: if args.round_robin.is_some() {
            &robin_dir
        } else {
            &args.state
        },
        engine: &engine,
        opponents,
        records: args.records.as_deref(),
        concurrency: limits::per_core("concurrency", Some(args.concurrency)),
        runner: runner.as_ref(),
    };
    super::interrupt::soften();
    match &args.round_robin {
        Some(generations) => round_robin(args, &settings, &run, generations),
        None => tune(&settings, &run, wire, time),
    }
}

/// The run's settings: read from the state directory (`--resume`, `--round-robin`), or made
/// from the command line (a new run: `true`; [`save_settings`] writes them once its engines
/// start).
fn load_settings(args: &TuneArgs) -> Result<(Settings, bool)> {
    let dir = &args.state;
    let settings_path = dir.join("tune.json");
    if args.resume || args.round_robin.is_some() {
        let text = cpbim::files::read_text(&settings_path, 64 << 20)
            .with_context(|| format!("--state {} holds no run", dir.display()))?;
        let settings = serde_json::from_str::<Settings>(&text)
            .with_context(|| format!("{}", settings_path.display()))?;
        return Ok((settings, false));
    }
    if settings_path.exists() {
        super::usage!(
            "--state {}: it holds a run already; add --resume to continue it, or give another directory",
            dir.display()
        );
    }
    Ok((new_settings(args)?, true))
}

/// A new run's settings written as `DIR/tune.json`.
fn save_settings(dir: &Path, settings: &Settings) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--state {}", dir.display()))?;
    cpbim::files::write(
        &dir.join("tune.json"),
        serde_json::to_string_pretty(settings)? + "\n",
    )?;
    Ok(())
}

/// The tune itself: every round, a progress line each, the outputs rewritten.
fn tune(settings: &Settings, run: &tune::Run, wire: Wire, time: TimeControl) -> Result<()> {
    let (spec, dir) = (run.spec, run.dir);
    eprintln!(
        "tune: {} of {} over {}, {}, concurrency {}, state {}",
        settings.method.name(),
        cpbim::text::counted(spec.knobs.len() as u64, "parameter"),
        settings.game,
        rounds_text(settings),
        run.concurrency,
        dir.display()
    );
    let mut method = tune::method_for(settings, spec);
    let columns = method.columns();
    let started = Instant::now();
    let mut played_rounds = 0u64;
    let games_played = std::sync::atomic::AtomicU64::new(0);
    let mut after = |r: u64, history: &[tune::Step], replayed: bool| -> Result<()> {
        if !replayed {
            played_rounds += 1;
            let played = (played_rounds, games_played.load(Ordering::Relaxed));
            eprintln!(
                "{}",
                round_line(spec, settings, r, history, started, played)
            );
        }
        if !replayed || r + 1 == settings.rounds {
            let title = format!("cpbim tune: {}, {}", settings.method.name(), settings.game);
            plot::write_outputs(dir, spec, &columns, history, &title)?;
        }
        Ok(())
    };
    let report = |_: &tune::Report| {
        games_played.fetch_add(1, Ordering::Relaxed);
    };
    let ended = tune::drive(
        run,
        method.as_mut(),
        settings.rounds,
        &STOP,
        &report,
        &mut after,
    )?;
    if ended == tune::Ended::Stopped || stopped() {
        eprintln!(
            "stopped: every finished game is in {}; `cpbim tune --state {} --resume` continues",
            dir.join("games.csv").display(),
            dir.display()
        );
        return Ok(());
    }
    outln!("best: {}", dir.join("best.json").display())?;
    let flags = time_flags(settings, time);
    outln!(
        "confirm it: cpbim match --game {} --engine \"cpbim engine --protocol {p} --params {} {flags}\" --engine \"cpbim engine --protocol {p} {flags}\" --sprt 0,10,0.05,0.05 --concurrency 2{}",
        settings.game,
        dir.join("best.json").display(),
        settings.tc.as_ref().map(|t| format!(" --tc {t}")).unwrap_or_default(),
        p = protocol_name(wire),
    )?;
    Ok(())
}

/// `800 iterations of 2 games`, `300 generations, population 20 in 4 groups`, ….
fn rounds_text(settings: &Settings) -> String {
    let rounds = |noun| cpbim::text::counted(settings.rounds, noun);
    match settings.method {
        MethodName::Spsa => format!(
            "{} of {}",
            rounds("iteration"),
            cpbim::text::counted(settings.games_per_step as u64, "game")
        ),
        MethodName::Ga => format!(
            "{}, population {} in {} groups",
            rounds("generation"),
            settings.population,
            settings.groups
        ),
        MethodName::Pso => format!("{}, {} particles", rounds("iteration"), settings.population),
    }
}

/// The parameter values of each row of `history.csv` (its last `knobs` columns), refused with
/// the line named where a row is short or a value is not a finite number.
fn history_rows(history: &str, knobs: usize) -> Result<Vec<Vec<f64>>> {
    history
        .lines()
        .enumerate()
        .skip(1)
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(',').collect();
            let values = fields.len().checked_sub(knobs).map(|from| &fields[from..]);
            values
                .and_then(|v| {
                    v.iter()
                        .map(|x| x.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
                        .collect::<Option<Vec<f64>>>()
                })
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--round-robin: the run's history.csv, line {}: not {knobs} parameter values: {l:?}",
                        i + 1
                    )
                })
        })
        .collect()
}

/// Li Guo's experiment: the best sets of the chosen rounds (from `history.csv`) and random
/// players in one round robin; points per player on standard output, the table and a plot in
/// `DIR/round-robin/`.
fn round_robin(
    args: &TuneArgs,
    settings: &Settings,
    run: &tune::Run,
    generations: &str,
) -> Result<()> {
    let history = cpbim::files::read_text(&args.state.join("history.csv"), 256 << 20)
        .context("--round-robin: the run's history.csv")?;
    let knobs = run.spec.knobs.len();
    let rows = history_rows(&history, knobs)?;
    let mut chosen = Vec::new();
    let mut names = Vec::new();
    for g in generations.split(',') {
        let n: usize = g.trim().parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            super::usage_error(format!(
                "--round-robin: {g:?} is not a round number (1, 2, …)"
            ))
        })?;
        let row = rows.get(n - 1).ok_or_else(|| {
            super::usage_error(format!(
                "--round-robin: the run has {} rounds, not {n}",
                rows.len()
            ))
        })?;
        chosen.push(row.clone());
        names.push(format!("round {n}"));
    }
    names.extend((1..=args.random).map(|i| format!("random {i}")));
    let mut method = tune::round_robin::RoundRobin::new(
        run.spec,
        chosen,
        args.random,
        settings.seed,
        run.openings.len(),
    );
    eprintln!(
        "round robin: {} players, {} games, concurrency {}, games in {}",
        names.len(),
        names.len() * (names.len() - 1),
        run.concurrency,
        run.dir.join("games.csv").display()
    );
    let mut points = Vec::new();
    let mut after = |_: u64, history: &[tune::Step], _: bool| -> Result<()> {
        points = history.last().map(|s| s.extra.clone()).unwrap_or_default();
        Ok(())
    };
    let report = |r: &tune::Report| eprintln!("game {}/{}", r.done, r.of);
    if tune::drive(run, &mut method, 1, &STOP, &report, &mut after)? == tune::Ended::Stopped {
        eprintln!("stopped: the same command continues the round robin");
        return Ok(());
    }
    let mut table = String::from("player,points\n");
    for (name, p) in names.iter().zip(&points) {
        outln!("{name:>12}  {p:+}")?;
        table += &format!("{name},{p}\n");
    }
    let title = format!(
        "round robin of the {} run in {}",
        settings.method.name(),
        args.state.display()
    );
    let mut files = cpbim::files::Staged::new();
    files.add(&run.dir.join("scores.csv"), table)?;
    files.add(
        &run.dir.join("scores.svg"),
        plot::round_robin_svg(&names, &points, &title)?,
    )?;
    files.commit()?;
    Ok(())
}

/// The settings of a new run from the command line.
fn new_settings(args: &TuneArgs) -> Result<Settings> {
    let game = args.game;
    let read = |path: &Path, what: &str| {
        cpbim::files::read_text(path, 1 << 20).with_context(|| format!("{what} {}", path.display()))
    };
    let spec_path = args.params.as_deref().expect("clap: --params or --resume");
    let spec: serde_json::Value = serde_json::from_str(&read(spec_path, "--params")?)
        .with_context(|| format!("--params {}", spec_path.display()))?;
    let base_text = args
        .base
        .as_deref()
        .map(|p| read(p, "--base"))
        .transpose()?;
    let base = Tuning::read(base_text, None)
        .map_err(|e| super::usage_error(format!("--base: {e}")))?
        .for_game(&game);
    if args.games_per_step < 2 || args.games_per_step % 2 == 1 {
        super::usage!(
            "--games-per-step: give an even number, 2 or more (each opening with both colours)"
        );
    }
    if args.method == MethodArg::Pso && args.population < 2 {
        super::usage!("--population: give 2 or more particles");
    }
    if args.method == MethodArg::Ga
        && (args.population < 4 || args.groups < 2 || args.groups > args.population / 2)
    {
        super::usage!("--population and --groups: give 4 or more individuals and 2 or more groups of at least 2 (--population {}, --groups {})", args.population, args.groups);
    }
    if args.iterations == 0 {
        super::usage!("--iterations: give 1 or more");
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        super::usage!("--r-end: give a number above 0");
    }
    // Checked here, before the run's directory and settings are written.
    Spec::parse(&spec.to_string(), &base)
        .map_err(|e| super::usage_error(format!("--params {}: {e}", spec_path.display())))?;
    let default_openings = if game.is_connect6() { "data" } else { "named" };
    let openings = super::r#match::read_openings(
        args.openings.as_deref().unwrap_or(default_openings),
        args.opening_stones,
        &game,
    )?;
    let tc = match (&args.tc, args.depth) {
        (Some(tc), _) => Some(tc.clone()),
        (None, Some(_)) => None,
        (None, None) => Some("0.1".to_string()),
    };
    if let Some(tc) = &tc {
        TimeControl::parse(tc).map_err(|e| super::usage_error(format!("--tc {e}")))?;
    }
    let depth = args
        .depth
        .map(cpbim::limits::engine_depth)
        .transpose()
        .map_err(super::usage_error)?;
    Ok(Settings {
        method: match args.method {
            MethodArg::Spsa => MethodName::Spsa,
            MethodArg::Ga => MethodName::Ga,
            MethodArg::Pso => MethodName::Pso,
        },
        game: game.to_string(),
        spec,
        base: serde_json::to_value(&base)?,
        tc,
        depth,
        openings: openings
            .iter()
            .map(|o| {
                o.stones
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect(),
        seed: args.seed,
        rounds: args.iterations,
        games_per_step: args.games_per_step,
        r_end: args.r_end,
        population: args.population,
        groups: args.groups,
        opponents: args.opponent.clone(),
    })
}

/// The run's SPEC over its stored base set.
fn spec_of(settings: &Settings, game: &Game) -> Result<Spec> {
    let base = Tuning::read(Some(settings.base.to_string()), None)
        .map_err(|e| anyhow::anyhow!("the run's base set: {e}"))?
        .for_game(game);
    Spec::parse(&settings.spec.to_string(), &base)
        .map_err(|e| anyhow::anyhow!("the run's SPEC: {e}"))
}

/// The base set written as `DIR/candidates/base.json` (for the engines' start check).
fn base_file(dir: &Path, spec: &Spec) -> Result<PathBuf> {
    let path = dir.join("candidates").join("base.json");
    std::fs::create_dir_all(dir.join("candidates"))?;
    cpbim::files::write(&path, plot::best_json(spec, &spec.start()))?;
    Ok(path)
}

fn protocol_name(wire: Wire) -> &'static str {
    match wire {
        Wire::Cloudict => "cloudict",
        Wire::Gomocup => "gomocup",
    }
}

/// The engine's options for the run's time control or depth.
fn time_flags(settings: &Settings, time: TimeControl) -> String {
    match (settings.depth, time) {
        (Some(d), _) => format!("--depth {d}"),
        (None, TimeControl::PerMove(t)) => format!("--time {}", t.as_secs_f64()),
        (None, TimeControl::Game { base, increment }) => format!(
            "--game-time {} --increment {}",
            base.as_secs_f64() * 0.9,
            increment.as_secs_f64()
        ),
        (None, TimeControl::None) => String::new(),
    }
}

/// This program as an engine, with `{PARAMS}` where the parameter file goes.
fn engine_command(settings: &Settings, wire: Wire, time: TimeControl) -> Result<String> {
    let me = std::env::current_exe().context("finding this program")?;
    Ok(format!(
        "{} engine --protocol {} --game {} --params {{PARAMS}} {}",
        shell_quoted(&me),
        protocol_name(wire),
        settings.game,
        time_flags(settings, time)
    ))
}

/// `path` in single quotes for `sh -c`.
fn shell_quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// `round 3/200: score 0.50; own[5] 52.1, …; 2400 games/h, 10 min left` (`played`: the
/// rounds and games played in this sitting).
fn round_line(
    spec: &Spec,
    settings: &Settings,
    r: u64,
    history: &[tune::Step],
    started: Instant,
    played: (u64, u64),
) -> String {
    let (played_rounds, games) = played;
    let step = &history[history.len() - 1];
    let values: Vec<String> = spec
        .knobs
        .iter()
        .zip(&step.values)
        .take(6)
        .map(|(k, v)| format!("{} {v:.1}", k.key))
        .collect();
    let more = if spec.knobs.len() > 6 { ", …" } else { "" };
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    let games = games as f64;
    let left = (settings.rounds - r - 1) as f64 * secs / played_rounds as f64;
    format!(
        "round {}/{}: score {:.2}; {}{more}; {:.0} games/h, {} left",
        r + 1,
        settings.rounds,
        step.score,
        values.join(", "),
        games * 3600.0 / secs,
        short_duration(left)
    )
}

/// `45 s`, `12 min`, `3.2 h`.
fn short_duration(secs: f64) -> String {
    if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 5400.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}
