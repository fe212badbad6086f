//! `cpbim bench`: Table 5 and Figures 9-10 over the test sets, or the solve-time distribution
//! over positions rewound from the ends of real games.

use super::progress::Progress;
use super::{limits, stopped, with_game_model, with_model, ModelName, STOP};
use anyhow::{bail, Context, Result};
use clap::Args;
use cpbim::bench::{bench_config, builtin_sets, load_sets, run_model, sample, Report};
use cpbim::search::Config;
use std::path::PathBuf;

#[derive(Args)]
pub struct BenchArgs {
    /// Print JSON (docs/json.md) instead of tables.
    #[arg(long)]
    json: bool,
    /// A fixed small sample: the first (cheapest) 4 positions of each subset.
    #[arg(long)]
    quick: bool,
    /// Write figure9.svg, figure10.svg and bench.csv into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Read the test sets from DIR (W12.txt … N28.txt, all twelve) instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    sets: Option<PathBuf>,
    /// Models to run, comma-separated (the rate column needs raw).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [ModelName::Raw, ModelName::Iu, ModelName::Cpbm, ModelName::Cpbim])]
    models: Vec<ModelName>,
    /// Threads (positions run in parallel; each position's time is its own search's).
    #[arg(long)]
    threads: Option<usize>,
    /// Search with plain move ordering (candidates in point order), to measure the heuristics.
    #[arg(long)]
    plain_ordering: bool,
    /// Instead of the test sets: every game of the data rewound FROM to TO whole moves from its
    /// end (e.g. `2..4`), printing the distribution of solve times.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_range)]
    rewound: Option<(usize, usize)>,
    /// Game records for --rewound (default: the bundled data/connect6_games.csv).
    #[arg(long, requires = "rewound")]
    games: Option<PathBuf>,
    /// Instead of the test sets: the 55 published VCF problems (built in), each solved on one
    /// thread with the first-win search and the shortest, with per-problem times.
    #[arg(long, conflicts_with_all = ["rewound", "sets", "quick", "out"])]
    vcf: bool,
    /// With --vcf: the problems of FILE instead (the format of tests/data/vcf/problems.txt).
    #[arg(long, value_name = "FILE", requires = "vcf")]
    problems: Option<PathBuf>,
    /// With --vcf: runs of each search per problem (the median time is reported).
    #[arg(long, default_value_t = 3, requires = "vcf")]
    runs: usize,
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let num = |t: &str| {
        t.trim().parse::<usize>().map_err(|_| {
            format!(
                "`{}` is not a number of moves (expected FROM..TO, e.g. 2..4)",
                cpbim::text::excerpt(t)
            )
        })
    };
    let (a, b) = (num(a)?, num(b)?);
    if a == 0 || a > b {
        return Err(format!("`{s}`: need 1 <= FROM <= TO"));
    }
    Ok((a, b))
}

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.vcf {
        return vcf(args);
    }
    let cfg = Config {
        ordering: super::ordering(args.plain_ordering),
        ..bench_config()
    };
    let threads = limits::threads(args.threads);
    limits::check_tables(cfg.tt_entries, threads + 1)?;
    let pool = super::pool(threads)?;
    let mut models = args.models.clone();
    models.sort();
    models.dedup();
    if let Some((from, to)) = args.rewound {
        return rewound(args, &models, &cfg, &pool, from, to);
    }
    // The figures' folder before minutes of benchmark, not after.
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut sets = match &args.sets {
        Some(dir) => load_sets(dir)?,
        None => builtin_sets(),
    };
    if args.quick {
        sets = sample(&sets, 4);
    }
    let positions: usize = sets.iter().map(|s| s.positions.len()).sum();
    let bar = Progress::new(
        (positions * models.len()) as u64,
        "{spinner} {msg} {pos}/{len} [{elapsed_precise}, ~{eta} left] {wide_bar}",
    );
    let start = std::time::Instant::now();
    let mut runs = Vec::new();
    for &m in &models {
        bar.message(m.name());
        let tick = || bar.inc(1);
        runs.push(pool.install(|| with_model!(m, M => run_model::<M>(&sets, &cfg, &STOP, &tick))));
        if stopped() {
            bail!("stopped by a signal before every model ran");
        }
    }
    bar.finish();
    let report = Report { sets, models: runs };
    report
        .check()
        .map_err(|e| anyhow::anyhow!("the models disagree, the benchmark is void: {e}"))?;
    if args.json {
        outln!("{}", report.json())?;
    } else {
        outln!(
            "{} positions, {} models, {} threads, {:.0} s wall",
            positions,
            report.models.len(),
            pool.current_num_threads(),
            start.elapsed().as_secs_f64()
        )?;
        outln!("{}", report.table5())?;
        outln!("Per subset (Figures 9-10 data): total search time in seconds")?;
        out!("{}", report.subsets_table())?;
        outln!("All models visited identical node counts on every position.")?;
    }
    if let Some(dir) = &args.out {
        report.write_figures(dir)?;
        eprintln!("wrote {}", dir.display());
    }
    Ok(())
}

/// `--rewound FROM..TO`: the solve-time distribution over positions rewound from game ends.
fn rewound(
    args: &BenchArgs,
    models: &[ModelName],
    cfg: &Config,
    pool: &rayon::ThreadPool,
    from: usize,
    to: usize,
) -> Result<()> {
    use cpbim::batch::solve_positions;
    let path = args
        .games
        .clone()
        .unwrap_or_else(cpbim::games::bundled_games_path);
    let games = cpbim::games::load_games(&path)?;
    let positions = cpbim::bench::rewound_positions(&games, from, to);
    let bar = Progress::new(
        (positions.len() * models.len()) as u64,
        "{spinner} {msg} {pos}/{len} [{elapsed_precise}, ~{eta} left] {wide_bar}",
    );
    let mut runs = Vec::new();
    for &m in models {
        bar.message(m.name());
        let tick = |_| bar.inc(1);
        let sols = pool
            .install(|| with_model!(m, M => solve_positions::<M>(&positions, cfg, &STOP, &tick)));
        if stopped() {
            bail!("stopped by a signal");
        }
        runs.push((m.name(), sols));
    }
    bar.finish();
    let table = cpbim::bench::latency_table(&runs)
        .map_err(|e| anyhow::anyhow!("the models disagree, the benchmark is void: {e}"))?;
    outln!(
        "{} positions: {} games rewound {from}..{to} whole moves, depth limit {}, {} threads",
        positions.len(),
        games.len(),
        cfg.depth,
        pool.current_num_threads()
    )?;
    out!("{table}")?;
    Ok(())
}

/// `--vcf`: the VCF problems in both searches, one after another on this thread.
fn vcf(args: &BenchArgs) -> Result<()> {
    use cpbim::bench::vcf::{json, run_problem, table};
    let (text, source) = match &args.problems {
        None => (
            cpbim::problems::BUILT_IN_VCF.to_string(),
            "the built-in problems".to_string(),
        ),
        Some(file) => (
            cpbim::files::read_text(file, cpbim::files::MAX_FILE)?,
            file.display().to_string(),
        ),
    };
    let problems =
        cpbim::problems::parse_problems(&text).map_err(|e| anyhow::anyhow!("{source}: {e}"))?;
    if problems.is_empty() {
        bail!("no problems in {source}");
    }
    limits::check_tables(cpbim::search::tt::DEFAULT_ENTRIES, 2)?;
    let bar = Progress::new(
        problems.len() as u64,
        "{spinner} {pos}/{len} [{elapsed_precise}] {wide_bar}",
    );
    let mut rows = Vec::with_capacity(problems.len());
    for p in &problems {
        let row =
            with_game_model!(p.game, ModelName::Cpbim, M => run_problem::<M>(p, args.runs, &STOP));
        rows.push(row.map_err(anyhow::Error::msg)?);
        bar.inc(1);
        if stopped() {
            bail!("stopped by a signal");
        }
    }
    bar.finish();
    if args.json {
        outln!("{}", json(&rows, args.runs))?;
    } else {
        outln!(
            "{} problems, depth limit N + 2 attacker stones (2N + 2 plies), 1 thread, median of {} runs",
            rows.len(),
            args.runs
        )?;
        out!("{}", table(&rows))?;
    }
    Ok(())
}
