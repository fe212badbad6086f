//! The `cpbim` command-line tool: a thin layer over the library (SPEC §5).

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use cpbim::kb::{self, ConnType};
use cpbim::search::{Config, Ordering as SearchOrdering, DEFAULT_DEPTH};
use cpbim::{Cpbim, Cpbm, Iu, Model, Raw};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set by Ctrl-C: searches end with what is known so far.
static STOP: AtomicBool = AtomicBool::new(false);

/// The built-in example of the README: black to move, a double-threat win at depth 16.
const EXAMPLE: &str = include_str!("../examples/positions/example.txt");

#[derive(Parser)]
#[command(
    name = "cpbim",
    version,
    about = "Connect6 double-threat solver on the connection-pattern incremental model (CPBIM)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decide whether the side to move has a double-threat win (SPEC §4, §5).
    Solve(SolveArgs),
    /// Build the test sets W12…W28 and N4…N28 from game records (SPEC §6).
    Testsets(TestsetArgs),
    /// The speed benchmark: Table 5 and Figures 9-10 over the test sets, every model (SPEC §6).
    Bench(BenchArgs),
    /// The knowledge base: Table 1 and 2 statistics, export and verification of the tables.
    Kb {
        #[command(subcommand)]
        command: KbCommand,
    },
    /// DIF opening names (J10 plus white's first two stones, normalised under the 8 symmetries).
    Name(NameArgs),
    /// Move-by-move threat analysis of an opening line.
    Analyze(AnalyzeArgs),
    /// Read a position in any supported format and write it back.
    Position {
        /// A stone list, diagram or SGF text, or the path of a file holding one; `-` reads stdin.
        position: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Diagram)]
        format: Format,
    },
}

#[derive(Args)]
struct NameArgs {
    /// A line (stone list or SGF; its first three stones are named), a name to normalise
    /// (`X-J8`, `I9-J8`), or the path of a file of lines.
    line: Option<String>,
    /// Print `{"name", "short", "stones"}` as JSON.
    #[arg(long)]
    json: bool,
    /// List every distinct white first move with both stones within this distance of J10.
    #[arg(long, value_name = "DISTANCE", conflicts_with = "line")]
    all: Option<usize>,
    /// List the 26 named openings of the thesis (000 §2.2.1).
    #[arg(long, conflicts_with_all = ["line", "all"])]
    named: bool,
}

#[derive(Args)]
struct AnalyzeArgs {
    /// An opening line (stone list or SGF, or a file holding one per line; `-` reads stdin),
    /// or a DIF name (`X-J8`). Without it, use --named.
    line: Option<String>,
    /// Analyse the 24 distinct named openings of the thesis (000 §2.2.1).
    #[arg(long, conflicts_with = "line")]
    named: bool,
    /// Also find which moves of the side to move answer the opponent's threat.
    #[arg(long)]
    defenses: bool,
    /// Candidate points for --defenses: empty points within this distance of a stone.
    #[arg(long, default_value_t = 2)]
    radius: usize,
    /// Deepest search in plies (a multiple of 4).
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Stop each search after this many nodes (result `unknown`).
    #[arg(long)]
    nodes: Option<u64>,
    /// One JSON object per move boundary (for several lines: one array per line).
    #[arg(long)]
    json: bool,
    /// Write a board diagram per move boundary into DIR (last move and threat points marked).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ModelName {
    /// Intersection array, types by the classifier at query time.
    Raw,
    /// Incremental updating with the delta stack, no knowledge base.
    Iu,
    /// Connection-based position with the knowledge base, rebuilt after every change.
    Cpbm,
    /// Connection-based position with the knowledge base and the delta stack.
    Cpbim,
}

impl ModelName {
    fn name(self) -> &'static str {
        match self {
            ModelName::Raw => Raw::NAME,
            ModelName::Iu => Iu::NAME,
            ModelName::Cpbm => Cpbm::NAME,
            ModelName::Cpbim => Cpbim::NAME,
        }
    }
}

#[derive(Args)]
struct SolveArgs {
    /// Deepest search in plies (a multiple of 4).
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Position model.
    #[arg(long, value_enum, default_value_t = ModelName::Cpbim)]
    model: ModelName,
    /// One JSON object per position.
    #[arg(long)]
    json: bool,
    /// Attach the proof tree of a win (JSON) or print it (text).
    #[arg(long)]
    proof: bool,
    /// Stop each search after this many nodes (result `unknown`).
    #[arg(long)]
    nodes: Option<u64>,
    /// Stop each search after this many seconds (result `unknown`).
    #[arg(long)]
    time: Option<f64>,
    /// Transposition-table entries (2^21 = 32 MB by default; 0 turns the table off).
    #[arg(long, default_value_t = cpbim::search::tt::DEFAULT_ENTRIES)]
    tt_entries: usize,
    /// Try candidates in point order (no history, killer, table or composite ordering).
    #[arg(long)]
    plain_ordering: bool,
    /// Threads for a batch (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Solve the built-in example position.
    #[arg(long, conflicts_with = "position")]
    example: bool,
    /// A stone list, diagram or SGF, or the path of a file holding one. Without it, positions
    /// are read from stdin, one per line (stone lists or SGF).
    position: Option<String>,
}

#[derive(Args)]
struct BenchArgs {
    /// Print JSON (SPEC §6) instead of tables.
    #[arg(long)]
    json: bool,
    /// A fixed small sample: the first (cheapest) 4 positions of each subset.
    #[arg(long)]
    quick: bool,
    /// Write figure9.svg, figure10.svg and bench.csv into DIR.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Read the test sets from DIR (W12.txt … N28.txt) instead of the built-in ones.
    #[arg(long)]
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
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{t}` is not a number of moves (expected FROM..TO, e.g. 2..4)"))
    };
    let (a, b) = (num(a)?, num(b)?);
    if a == 0 || a > b {
        return Err(format!("`{s}`: need 1 <= FROM <= TO"));
    }
    Ok((a, b))
}

#[derive(Args)]
struct TestsetArgs {
    /// Game records (CSV: game_id,"moves",winner,…); default: the bundled data/connect6_games.csv.
    #[arg(long)]
    games: Option<PathBuf>,
    /// Seed of the game order.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Positions per subset.
    #[arg(long, default_value_t = 80)]
    per_set: usize,
    /// Node budget per position; positions needing more are left out.
    #[arg(long, default_value_t = 500_000)]
    max_nodes: u64,
    /// Rewind each game at most this many whole moves.
    #[arg(long, default_value_t = 30)]
    max_back: usize,
    /// Directory to write W12.txt … N28.txt and README.md into.
    #[arg(long, default_value = "testsets")]
    out: PathBuf,
}

#[derive(Subcommand)]
enum KbCommand {
    /// Print Table 1 (shapes per connection type) and Table 2 (table sizes).
    Stats {
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
    },
    /// Write ct.bin and ti.bin (SPEC §2 layout) into DIR.
    Export {
        /// Directory to write into (created if missing).
        dir: PathBuf,
    },
    /// Check ct.bin and ti.bin in DIR against the built-in tables.
    Verify {
        /// Directory holding the two files.
        dir: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Stone list in play order.
    List,
    /// 19×19 diagram with coordinates.
    Diagram,
    /// Little Golem style SGF.
    Sgf,
}

fn main() {
    // Output piped into `head` and closed early: end quietly, like other command-line tools,
    // instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    // First Ctrl-C: stop searching and report what is known; second: quit at once.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Solve(args) => match args.model {
            ModelName::Raw => solve::<Raw>(&args),
            ModelName::Iu => solve::<Iu>(&args),
            ModelName::Cpbm => solve::<Cpbm>(&args),
            ModelName::Cpbim => solve::<Cpbim>(&args),
        },
        Command::Testsets(args) => testsets(&args),
        Command::Name(args) => name(&args),
        Command::Analyze(args) => analyze(&args),
        Command::Bench(args) => bench(&args),
        Command::Kb { command } => match command {
            KbCommand::Stats { json } => kb_stats(json),
            KbCommand::Export { dir } => {
                kb::export(&dir)
                    .with_context(|| format!("writing tables into {}", dir.display()))?;
                println!(
                    "wrote {} ({} bytes) and {} ({} bytes)",
                    dir.join("ct.bin").display(),
                    kb::SHAPES,
                    dir.join("ti.bin").display(),
                    kb::TI_LEN
                );
                Ok(())
            }
            KbCommand::Verify { dir } => {
                let [ct, ti] = kb::verify(&dir)
                    .with_context(|| format!("reading tables from {}", dir.display()))?;
                for (name, diff) in [("ct.bin", ct), ("ti.bin", ti)] {
                    match diff {
                        None => println!("{name}: identical to the built-in table"),
                        Some(at) => anyhow::bail!("{name}: first difference at byte {at}"),
                    }
                }
                Ok(())
            }
        },
        Command::Position { position, format } => {
            let text = read_position_arg(&position)?;
            let pos = cpbim::parse_position(&text)?;
            match format {
                Format::List => println!("{}", pos.to_stone_list()),
                Format::Diagram => print!("{}", pos.to_diagram()),
                Format::Sgf => println!("{}", cpbim::notation::to_sgf(&pos)),
            }
            Ok(())
        }
    }
}

/// A position argument: literal text, `-` for stdin, or the path of an existing file.
fn read_position_arg(arg: &str) -> Result<String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).context("reading stdin")?;
        return Ok(s);
    }
    let path = std::path::Path::new(arg);
    if path.is_file() {
        return std::fs::read_to_string(path).with_context(|| format!("reading {arg}"));
    }
    Ok(arg.to_string())
}

fn kb_stats(json: bool) -> Result<()> {
    let s = kb::stats();
    // The paper prints Table 1 best type first.
    let order: Vec<ConnType> = ConnType::ALL.iter().rev().copied().collect();
    if json {
        let mut types = serde_json::Map::new();
        for t in ConnType::ALL {
            types.insert(t.name().into(), s.counts[t as usize].into());
        }
        let out = serde_json::json!({
            "types": types,
            "total": s.total,
            "sizes_kb": s.sizes_kb,
        });
        println!("{out}");
        return Ok(());
    }
    println!("Table 1: connection shapes of Connect(19,19,6,2,1) per type");
    println!("{:<4} {:>8} {:>8}", "CT", "Num", "Per(%)");
    for t in order {
        let n = s.counts[t as usize];
        println!(
            "{:<4} {:>8} {:>8.3}",
            t.name(),
            n,
            100.0 * n as f64 / s.total as f64
        );
    }
    println!("{:<4} {:>8} {:>8.3}", "all", s.total, 100.0);
    println!();
    println!("Table 2: knowledge-base size, 4-bit entries (KB)");
    let z = &s.sizes_kb;
    println!("Connect6 19x19  {:>9.3}", z.connect6_19);
    println!("Connect6 15x15  {:>9.3}", z.connect6_15);
    println!("Connect6 13x13  {:>9.3}", z.connect6_13);
    println!("Gomoku   15x15  {:>9.3}", z.gomoku_15);
    Ok(())
}

fn solve_config(args: &SolveArgs) -> Result<Config> {
    if args.depth % 4 != 0 {
        anyhow::bail!(
            "--depth {}: depths are multiples of 4 plies (one round is 2 attacking and 2 defending stones)",
            args.depth
        );
    }
    let max_time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            anyhow::bail!("--time {t}: give a positive number of seconds")
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Config {
        depth: args.depth,
        max_nodes: args.nodes,
        max_time,
        tt_entries: args.tt_entries,
        ordering: if args.plain_ordering {
            SearchOrdering::PLAIN
        } else {
            SearchOrdering::ALL
        },
        proof: args.proof,
    })
}

fn solve<M: Model>(args: &SolveArgs) -> Result<()> {
    let config = solve_config(args)?;
    let single = if args.example {
        Some(EXAMPLE.to_string())
    } else {
        args.position
            .as_deref()
            .map(read_position_arg)
            .transpose()?
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    if let Some(text) = single {
        let pos = cpbim::parse_position(&text)?;
        let mut solver = cpbim::search::Solver::<M>::new(config);
        let s = solver.solve(&pos, &STOP);
        if args.json {
            writeln!(out, "{}", cpbim::report::solution_json(&s))?;
        } else {
            if args.example {
                writeln!(out, "{} to move:\n{}", pos.to_move(), pos.to_diagram())?;
            }
            writeln!(out, "{}", cpbim::report::solution_text(&s))?;
            if let Some(p) = &s.proof {
                writeln!(out, "{}", serde_json::to_string_pretty(p)?)?;
            }
        }
        return Ok(());
    }
    let lines: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .collect::<Result<_, _>>()
        .context("reading positions from stdin")?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting threads")?;
    let bar = progress_bar(
        lines.len() as u64,
        "{spinner} solving {pos}/{len} [{elapsed_precise}, ~{eta} left] {wide_bar}",
    );
    let start = std::time::Instant::now();
    let (mut wins, mut errors, mut count) = (0, 0, 0);
    // Solve in chunks and print each as it completes, in input order.
    for chunk in lines.chunks(256) {
        let results =
            pool.install(|| cpbim::batch::solve_lines::<M>(chunk, &config, &STOP, &|_| bar.inc(1)));
        for r in &results {
            count += 1;
            match r {
                Ok(s) => {
                    wins += (s.outcome == cpbim::search::Outcome::Win) as usize;
                    if args.json {
                        writeln!(out, "{}", cpbim::report::solution_json(s))?;
                    } else {
                        writeln!(out, "{}", cpbim::report::solution_text(s))?;
                    }
                }
                Err(e) => {
                    errors += 1;
                    if args.json {
                        writeln!(out, "{}", cpbim::report::error_json(e))?;
                    } else {
                        writeln!(out, "error: {e}")?;
                    }
                }
            }
        }
        out.flush()?;
    }
    bar.finish_and_clear();
    eprintln!(
        "{count} positions ({wins} win, {errors} errors) in {:.2} s with {} threads{}",
        start.elapsed().as_secs_f64(),
        pool.current_num_threads(),
        if STOP.load(Ordering::Relaxed) {
            "; stopped by Ctrl-C"
        } else {
            ""
        }
    );
    Ok(())
}

fn testsets(args: &TestsetArgs) -> Result<()> {
    use cpbim::testsets::{generate, subset_file, GenConfig, SUBSETS};
    let path = args
        .games
        .clone()
        .unwrap_or_else(cpbim::games::bundled_games_path);
    let games = cpbim::games::load_games(&path)?;
    let cfg = GenConfig {
        seed: args.seed,
        per_set: args.per_set,
        max_nodes: args.max_nodes,
        max_back: args.max_back,
        ..GenConfig::default()
    };
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(Duration::from_millis(200));
    let start = std::time::Instant::now();
    let generated = generate::<Cpbim>(&games, &cfg, &STOP, &|g| {
        let fill: Vec<String> = SUBSETS
            .iter()
            .zip(&g.sets)
            .map(|(s, v)| format!("{} {}", s.name, v.len()))
            .collect();
        bar.set_message(format!(
            "{} positions, {} over budget, {} games | {}",
            g.examined,
            g.over_budget,
            g.games_used,
            fill.join(" ")
        ));
    });
    bar.finish_and_clear();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let command = format!(
        "cpbim testsets --seed {} --per-set {} --max-nodes {} --max-back {}",
        args.seed, args.per_set, args.max_nodes, args.max_back
    );
    for (subset, entries) in SUBSETS.iter().zip(&generated.sets) {
        let file = args.out.join(format!("{}.txt", subset.name));
        std::fs::write(
            &file,
            subset_file(subset, entries, &format!("Made by `{command}`.")),
        )
        .with_context(|| format!("writing {}", file.display()))?;
    }
    let mut table =
        String::from("| subset | positions | total nodes | median nodes |\n|---|---|---|---|\n");
    for (subset, entries) in SUBSETS.iter().zip(&generated.sets) {
        let mut nodes: Vec<u64> = entries.iter().map(|e| e.nodes).collect();
        nodes.sort_unstable();
        let median = nodes.get(nodes.len() / 2).copied().unwrap_or(0);
        table.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            subset.name,
            entries.len(),
            nodes.iter().sum::<u64>(),
            median
        ));
    }
    let readme = format!(
        "# Test sets\n\nMade by `{command}` from `{}` ({} games).\n\n\
Games are taken in an order shuffled from the seed; each is rewound 1, 2, …, {} whole moves from its end; \
positions already seen are skipped; each position is solved by `cpbim` (CPBIM model) with a depth limit of 28 \
and a budget of {} nodes, and goes into its subset until the subset holds {}. Positions whose search \
needed more nodes are left out: the sets hold positions the solver settles within the budget.\n\n\
- `W<d>.txt`: the side to move has a double-threat win whose smallest depth is exactly d plies.\n\
- `N<d>.txt`: no double-threat win; the exhausted search tree proves it at depth d.\n\n\
One stone list per line (play order), a comment naming the game (`game_id` of the CSV) and how many \
moves it was rewound. {} positions were solved ({} over budget) from {} games.\n\n{table}",
        match &args.games {
            Some(p) => p.display().to_string(),
            None => "data/connect6_games.csv".to_string(),
        },
        games.len(),
        args.max_back,
        args.max_nodes,
        args.per_set,
        generated.examined,
        generated.over_budget,
        generated.games_used,
    );
    std::fs::write(args.out.join("README.md"), readme)?;
    eprintln!(
        "wrote {} in {:.0} s: {} positions solved",
        args.out.display(),
        start.elapsed().as_secs_f64(),
        generated.examined
    );
    for (subset, entries) in SUBSETS.iter().zip(&generated.sets) {
        if entries.len() < args.per_set {
            eprintln!(
                "{}: only {} positions found (asked for {})",
                subset.name,
                entries.len(),
                args.per_set
            );
        }
    }
    Ok(())
}

/// `cpbim bench --rewound FROM..TO`: solve-time distribution over positions rewound from game ends.
fn bench_rewound(
    args: &BenchArgs,
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
    let mut models = args.models.clone();
    models.sort_by_key(|m| *m as u8);
    models.dedup();
    let bar = progress_bar(
        (positions.len() * models.len()) as u64,
        "{spinner} {msg} {pos}/{len} [{elapsed_precise}, ~{eta} left] {wide_bar}",
    );
    let mut runs = Vec::new();
    for m in models {
        let tick = |_| bar.inc(1);
        bar.set_message(m.name());
        let sols = pool.install(|| match m {
            ModelName::Raw => solve_positions::<Raw>(&positions, cfg, &STOP, &tick),
            ModelName::Iu => solve_positions::<Iu>(&positions, cfg, &STOP, &tick),
            ModelName::Cpbm => solve_positions::<Cpbm>(&positions, cfg, &STOP, &tick),
            ModelName::Cpbim => solve_positions::<Cpbim>(&positions, cfg, &STOP, &tick),
        });
        if STOP.load(Ordering::Relaxed) {
            anyhow::bail!("stopped by Ctrl-C");
        }
        runs.push((m.name(), sols));
    }
    bar.finish_and_clear();
    let table = cpbim::bench::latency_table(&runs)
        .map_err(|e| anyhow::anyhow!("the models disagree, the benchmark is void: {e}"))?;
    println!(
        "{} positions: {} games rewound {from}..{to} whole moves, depth limit {}, {} threads",
        positions.len(),
        games.len(),
        cfg.depth,
        pool.current_num_threads()
    );
    print!("{table}");
    Ok(())
}

fn bench(args: &BenchArgs) -> Result<()> {
    use cpbim::bench::{bench_config, builtin_sets, load_sets, run_model, sample, Report};
    let cfg = Config {
        ordering: if args.plain_ordering {
            SearchOrdering::PLAIN
        } else {
            SearchOrdering::ALL
        },
        ..bench_config()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting threads")?;
    if let Some((from, to)) = args.rewound {
        return bench_rewound(args, &cfg, &pool, from, to);
    }
    let mut sets = match &args.sets {
        Some(dir) => load_sets(dir)?,
        None => builtin_sets(),
    };
    if args.quick {
        sets = sample(&sets, 4);
    }
    let positions: usize = sets.iter().map(|s| s.positions.len()).sum();
    let mut models = args.models.clone();
    models.sort_by_key(|m| *m as u8);
    models.dedup();
    let bar = progress_bar(
        (positions * models.len()) as u64,
        "{spinner} {msg} {pos}/{len} [{elapsed_precise}, ~{eta} left] {wide_bar}",
    );
    let start = std::time::Instant::now();
    let mut runs = Vec::new();
    for m in models {
        let tick = || bar.inc(1);
        let run = pool.install(|| match m {
            ModelName::Raw => {
                bar.set_message("raw");
                run_model::<Raw>(&sets, &cfg, &STOP, &tick)
            }
            ModelName::Iu => {
                bar.set_message("iu");
                run_model::<Iu>(&sets, &cfg, &STOP, &tick)
            }
            ModelName::Cpbm => {
                bar.set_message("cpbm");
                run_model::<Cpbm>(&sets, &cfg, &STOP, &tick)
            }
            ModelName::Cpbim => {
                bar.set_message("cpbim");
                run_model::<Cpbim>(&sets, &cfg, &STOP, &tick)
            }
        });
        runs.push(run);
        if STOP.load(Ordering::Relaxed) {
            anyhow::bail!("stopped by Ctrl-C before every model ran");
        }
    }
    bar.finish_and_clear();
    let report = Report { sets, models: runs };
    report
        .check()
        .map_err(|e| anyhow::anyhow!("the models disagree, the benchmark is void: {e}"))?;
    if args.json {
        println!("{}", report.json());
    } else {
        println!(
            "{} positions, {} models, {} threads, {:.0} s wall",
            positions,
            report.models.len(),
            pool.current_num_threads(),
            start.elapsed().as_secs_f64()
        );
        println!("{}", report.table5());
        println!("Per subset (Figures 9-10 data): total search time in seconds");
        print!("{}", report.subsets_table());
        println!("All models visited identical node counts on every position.");
    }
    if let Some(dir) = &args.out {
        report.write_figures(dir)?;
        eprintln!("wrote {}", dir.display());
    }
    Ok(())
}

/// The lines of a text argument: a file or stdin gives one line per non-blank, non-comment
/// line; anything else is one line.
fn lines_arg(arg: &str) -> Result<Vec<String>> {
    let is_source = arg == "-" || std::path::Path::new(arg).is_file();
    let text = read_position_arg(arg)?;
    if is_source && !text.trim_start().starts_with('(') {
        Ok(text
            .lines()
            .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
            .map(str::to_string)
            .collect())
    } else {
        Ok(vec![text])
    }
}

/// A line's stones from a DIF name or a stone list / SGF.
fn line_stones(text: &str) -> Result<Vec<cpbim::Point>> {
    if let Ok(o) = cpbim::opening::parse_name(text) {
        return Ok(o.stones().to_vec());
    }
    Ok(cpbim::notation::parse_line(text)?.stones().to_vec())
}

fn opening_json(o: &cpbim::opening::Opening) -> serde_json::Value {
    serde_json::json!({"name": o.name(), "short": o.short(), "stones": o.stones()})
}

fn name(args: &NameArgs) -> Result<()> {
    use cpbim::opening::{all_within, name_line, NAMED};
    if let Some(reach) = args.all {
        let all = all_within(reach);
        if args.json {
            let v: Vec<_> = all.iter().map(opening_json).collect();
            println!("{}", serde_json::Value::Array(v));
        } else {
            println!(
                "{} distinct white first moves with both stones within distance {reach} of J10:",
                all.len()
            );
            for o in &all {
                println!("{:<8} {}", o.short(), o.name());
            }
        }
        return Ok(());
    }
    if args.named {
        for n in NAMED {
            let o = cpbim::opening::parse_name(n.short)?;
            if args.json {
                let mut v = opening_json(&o);
                v["figure"] = n.figure.into();
                v["printed"] = n.printed.into();
                println!("{v}");
            } else {
                println!(
                    "fig. {:<5} {:<7} {:<7} {}{}",
                    n.figure,
                    n.printed,
                    o.short(),
                    o.name(),
                    if n.printed != n.short {
                        format!("  (printed `{}`)", n.printed)
                    } else {
                        String::new()
                    }
                );
            }
        }
        return Ok(());
    }
    let Some(arg) = &args.line else {
        anyhow::bail!("give a line, a name, --all DISTANCE or --named");
    };
    let lines = lines_arg(arg)?;
    let single = lines.len() == 1;
    for text in &lines {
        let named = line_stones(text).and_then(|s| Ok(name_line(&s)?));
        match named {
            Ok(o) if args.json => println!("{}", opening_json(&o)),
            Ok(o) => println!("{:<8} {}", o.short(), o.name()),
            Err(e) if single => return Err(e),
            Err(e) if args.json => println!("{}", cpbim::report::error_json(&format!("{e:#}"))),
            Err(e) => println!("error: {e:#}"),
        }
    }
    Ok(())
}

fn analyze(args: &AnalyzeArgs) -> Result<()> {
    use cpbim::analyze::{
        analyze_line, board_svg, boundary_json, boundary_text, summary_header, summary_row,
        AnalyzeConfig,
    };
    if args.depth % 4 != 0 {
        anyhow::bail!("--depth {} is not a multiple of 4", args.depth);
    }
    let mut jobs: Vec<(String, Vec<cpbim::Point>)> = Vec::new();
    if args.named {
        for (o, figs) in cpbim::opening::named_openings() {
            jobs.push((
                format!("{} (fig. {})", o.short(), figs.join(", ")),
                o.stones().to_vec(),
            ));
        }
    } else {
        let Some(arg) = &args.line else {
            anyhow::bail!("give a line (stone list, SGF, DIF name or a file of lines) or --named");
        };
        let lines = lines_arg(arg)?;
        let single = lines.len() == 1;
        for (i, text) in lines.iter().enumerate() {
            let stones = line_stones(text).with_context(|| {
                if single {
                    "reading the line".to_string()
                } else {
                    format!("line {}", i + 1)
                }
            })?;
            let label = cpbim::opening::name_line(&stones)
                .map(|o| format!("{}: {}", i + 1, o.short()))
                .unwrap_or_else(|_| format!("{}", i + 1));
            jobs.push((label, stones));
        }
    }
    let cfg = AnalyzeConfig {
        search: Config {
            depth: args.depth,
            max_nodes: args.nodes,
            ..Config::default()
        },
        defenses: args.defenses,
        radius: args.radius,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting threads")?;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bar = progress_bar(
        0,
        "{spinner} {msg} [{elapsed_precise}] {wide_bar} {pos}/{len} searches",
    );
    let batch = jobs.len() > 1;
    let mut summary = Vec::new();
    let start = std::time::Instant::now();
    for (j, (label, stones)) in jobs.iter().enumerate() {
        let progress = |p: cpbim::analyze::Progress| {
            bar.set_length(p.searches as u64);
            bar.set_position(p.searches_done as u64);
            bar.set_message(format!(
                "line {}/{}: boundary {}/{}",
                j + 1,
                jobs.len(),
                p.boundaries_done,
                p.boundaries
            ));
        };
        let result = pool.install(|| analyze_line(stones, &cfg, &STOP, &progress))?;
        bar.suspend(|| -> Result<()> {
            if args.json {
                for b in &result {
                    let mut v = boundary_json(b);
                    if batch {
                        v["line"] = label.clone().into();
                    }
                    println!("{v}");
                }
            } else {
                if batch {
                    println!("== {label}");
                }
                for b in &result {
                    print!("{}", boundary_text(b));
                }
            }
            Ok(())
        })?;
        if let Some(dir) = &args.svg {
            for b in &result {
                let board = cpbim::Position::from_stones(&stones[..b.stones])?;
                let threat: &[cpbim::Point] = b.threat.line.first().map_or(&[], |m| &m[..]);
                let title = format!(
                    "{} stones, {} to move; win: {} {}; threat: {} {}",
                    b.stones,
                    b.to_move,
                    b.win.outcome.name(),
                    b.win.depth,
                    b.threat.outcome.name(),
                    b.threat.depth
                );
                let file = if batch {
                    dir.join(format!("line{:03}_{:03}.svg", j + 1, b.stones))
                } else {
                    dir.join(format!("boundary_{:03}.svg", b.stones))
                };
                std::fs::write(
                    &file,
                    board_svg(board.board(), &b.last_move, threat, &title),
                )
                .with_context(|| format!("writing {}", file.display()))?;
            }
        }
        summary.push(summary_row(label, &result));
        if STOP.load(Ordering::Relaxed) {
            break;
        }
    }
    bar.finish_and_clear();
    if batch && !args.json {
        println!("\n{}", summary_header());
        for row in &summary {
            println!("{row}");
        }
    }
    eprintln!(
        "analysed {} line(s) in {:.1} s with {} threads{}",
        summary.len(),
        start.elapsed().as_secs_f64(),
        pool.current_num_threads(),
        if STOP.load(Ordering::Relaxed) {
            "; stopped by Ctrl-C (searches in flight answered unknown)"
        } else {
            ""
        }
    );
    Ok(())
}

/// A progress bar on stderr of `len` steps drawn with `template` (indicatif's syntax).
fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid template"));
    bar
}
