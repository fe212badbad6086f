//! The `cpbim` command-line tool: a thin layer over the library, one file per command.
//! Every command's options, formats and outputs are described in the README and `docs/`.

/// `println!` that returns a failed write to standard output as an error (`error: writing to
/// standard output: No space left on device`, exit status 1) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::cli::stdout_error)
    }};
}

/// `print!` that returns a failed write to standard output as an error.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*).map_err($crate::cli::stdout_error)
    }};
}

mod analyze;
mod bench;
mod engine;
mod input;
pub mod interrupt;
mod kb;
mod limits;
mod r#match;
mod r#move;
mod name;
mod position;
mod progress;
mod prove;
mod serve;
mod shard;
mod solve;
mod store;
mod testsets;
mod tune;

use anyhow::Result;
use clap::{Args, Parser, Subcommand, ValueEnum};
use cpbim::search::{
    tt::DEFAULT_ENTRIES, Config, Ordering as SearchOrdering, Strategy, DEFAULT_DEPTH,
};
use cpbim::{Color, Game, Reading};

/// A command line that cannot run as given: a missing argument, options that do not go
/// together, a value out of range. Exit status 2, as clap's own usage errors
/// (docs/failures.md, "Exit status").
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// Return early with a [`Usage`] error (exit status 2): `usage!("give a game")`.
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::cli::Usage(format!($($arg)*))).into())
    };
}
pub(crate) use usage;

/// `e` (a message) as a [`Usage`] error.
pub fn usage_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::Error::new(Usage(e.to_string()))
}

/// The exit status of a command that ended with `e`: 2 for bad usage, else 1.
pub fn exit_status(e: &anyhow::Error) -> i32 {
    if e.downcast_ref::<Usage>().is_some() {
        2
    } else {
        1
    }
}

/// The error of a failed write to standard output.
pub fn stdout_error(e: std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("writing to standard output: {e}")
}

/// Flush standard output: what is still buffered when a command ends is written here, and a
/// failure is an error like any other write's (the runtime's own flush at exit ignores it).
pub fn flush_stdout() -> Result<()> {
    use std::io::Write as _;
    std::io::stdout().flush().map_err(stdout_error)
}

pub use interrupt::{stopped, STOP};

#[derive(Parser)]
#[command(
    name = "cpbim",
    version,
    about = "Threat-space solver for Connect6, Gomoku, Renju and the k-in-a-row family on the connection-pattern incremental model (CPBIM)",
    after_help = "A POSITION argument is the text of a game (stone list, diagram, SGF, contest record or CSV row), the path of a file, or `-` for standard input; see docs/formats.md."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decide whether the side to move has a double-threat win (docs/search.md).
    Solve(solve::SolveArgs),
    /// Build the test sets W12…W28 and N4…N28 from game records (testsets/README.md).
    Testsets(testsets::TestsetArgs),
    /// The speed benchmark: Table 5 and Figures 9-10 over the test sets, every model.
    Bench(bench::BenchArgs),
    /// The knowledge base: Table 1 and 2 statistics, export and verification of the tables.
    Kb {
        #[command(subcommand)]
        command: kb::KbCommand,
    },
    /// DIF opening names (J10 plus white's first two stones, normalised under the 8 symmetries).
    Name(name::NameArgs),
    /// Move-by-move threat analysis of a game or an opening line.
    Analyze(analyze::AnalyzeArgs),
    /// Read a game or position in any supported format and write it in another.
    Position(position::PositionArgs),
    /// The move the engine plays: stones, evaluation, principal variation, forced win or loss (no candidate holds).
    Move(r#move::MoveArgs),
    /// Run as an engine process speaking a protocol on standard input and output.
    Engine(engine::EngineArgs),
    /// Play two engine processes against each other and report the result with Elo.
    Match(r#match::MatchArgs),
    /// Prove a win that needs threats before the double threats or fours `solve` finds:
    /// threat-space proof search with relevance zones (docs/search.md).
    Prove(prove::ProveArgs),
    /// The proof store of `prove --store`: what it holds; merging stores into one.
    Store {
        #[command(subcommand)]
        command: store::StoreCommand,
    },
    /// Tune the engine's parameters by playing it (SPSA, GA, PSO; docs/tune.md).
    Tune(tune::TuneArgs),
    /// The analysis board in the browser: a local web server with the page and a JSON API.
    Serve(serve::ServeArgs),
}

/// Where the games come from and how to read them: a position argument, a game of a CSV file,
/// the game, the side to move of a puzzle.
#[derive(Args, Clone)]
pub struct InputArgs {
    /// A game (stone list, diagram, SGF, contest record, CSV row), the path of a file of games,
    /// or `-` for standard input.
    pub position: Option<String>,
    /// With a game-record CSV file: the game whose `game_id` is N.
    #[arg(long, value_name = "N")]
    pub game_id: Option<u64>,
    /// The game: connect6, gomoku, gomoku-standard, renju, NAME:SIZE (gomoku:20) or
    /// connect(m,n,k,p,q).
    #[arg(long, default_value = "connect6", value_parser = parse_game)]
    pub game: Game,
    /// The side to move of a diagram whose stone counts do not tell it (a puzzle).
    #[arg(long, value_enum, value_name = "SIDE")]
    pub to_move: Option<Side>,
}

impl InputArgs {
    /// How to read the games.
    pub fn reading(&self) -> Reading {
        Reading {
            game: self.game,
            to_move: self.to_move.map(Side::color),
        }
    }

    /// Refuse a game the command does not cover yet.
    pub fn connect6_only(&self, command: &str) -> Result<()> {
        if !self.game.is_connect6() {
            usage!(
                "`{command}` covers connect6 so far, not {}; `position` reads and writes every game",
                self.game
            );
        }
        Ok(())
    }
}

pub(crate) fn parse_game(s: &str) -> Result<Game, String> {
    s.parse::<Game>().map_err(|e| e.to_string())
}

/// A side, for `--to-move`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Side {
    /// Black to move.
    Black,
    /// White to move.
    White,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// The limits of every search, and the threads.
#[derive(Args, Clone)]
pub struct SearchArgs {
    /// Deepest search in plies (whole rounds: a multiple of 4 in Connect6, of 2 in Gomoku; at
    /// most 250 rounds).
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Stop each search after this many nodes (result `unknown`).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop each search after this many seconds (result `unknown`).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Transposition-table entries per thread (2^21 = 32 MB by default; 0 turns the table off).
    #[arg(long, default_value_t = DEFAULT_ENTRIES)]
    pub tt_entries: usize,
    /// Threads (default: all cores; a larger number is capped at the cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The paper's attack rule: both stones of an attack from the candidate set R (the test
    /// sets and the benchmark use it). By default a stone that alone makes the attack may come
    /// with any second stone (docs/search.md).
    #[arg(long)]
    pub canonical: bool,
    /// Find the shortest win (iterative deepening; slower). By default the search returns the
    /// first win it proves within the depth limit, whose depth may exceed the smallest.
    #[arg(long)]
    pub shortest: bool,
    /// How the search is driven: `depth-first` (one search at the whole depth limit),
    /// `deepening` (a search at every depth from 0), or `auto`: depth-first in the games of one
    /// stone a move, deepening in the others. The result never depends on it.
    #[arg(long, value_enum, default_value_t = StrategyName::Auto)]
    pub strategy: StrategyName,
}

/// The search strategies, by name.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum StrategyName {
    /// Depth-first in the games of one stone a move, deepening in the others.
    Auto,
    /// One search at the whole depth limit.
    DepthFirst,
    /// Iterative deepening: a search at every depth from 0.
    Deepening,
}

impl From<StrategyName> for Strategy {
    fn from(s: StrategyName) -> Strategy {
        match s {
            StrategyName::Auto => Strategy::Auto,
            StrategyName::DepthFirst => Strategy::DepthFirst,
            StrategyName::Deepening => Strategy::Deepening,
        }
    }
}

impl SearchArgs {
    /// The search configuration these options ask for in `game` (checked).
    pub fn config(&self, game: &Game) -> Result<Config> {
        Ok(Config {
            depth: limits::depth("depth", self.depth, game)?,
            max_nodes: self.nodes,
            max_time: self.time.map(|t| limits::seconds("time", t)).transpose()?,
            tt_entries: self.tt_entries,
            complete: !self.canonical,
            shortest: self.shortest,
            strategy: self.strategy.into(),
            ..Config::default()
        })
    }

    /// A thread pool for these options, after checking that `tables_per_thread` tables per
    /// thread (plus one for the calling thread) fit in memory.
    pub fn pool(&self, tables_per_thread: usize) -> Result<rayon::ThreadPool> {
        let threads = limits::threads(self.threads);
        limits::check_tables(self.tt_entries, tables_per_thread * (threads + 1))?;
        pool(threads)
    }
}

/// A rayon pool of `threads` threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting threads")
}

/// The position models.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, PartialOrd, Ord)]
pub enum ModelName {
    /// Intersection array, types by the classifier at query time.
    Raw,
    /// Incremental updating with the delta stack, no knowledge base.
    Iu,
    /// Connection-based position with the knowledge base, rebuilt after every change.
    Cpbm,
    /// Connection-based position with the knowledge base and the delta stack.
    Cpbim,
}

/// Run `$body` with the type `$M` set to the model `$name` names.
macro_rules! with_model {
    ($name:expr, $M:ident => $body:expr) => {
        match $name {
            $crate::cli::ModelName::Raw => {
                type $M = cpbim::Raw;
                $body
            }
            $crate::cli::ModelName::Iu => {
                type $M = cpbim::Iu;
                $body
            }
            $crate::cli::ModelName::Cpbm => {
                type $M = cpbim::Cpbm;
                $body
            }
            $crate::cli::ModelName::Cpbim => {
                type $M = cpbim::Cpbim;
                $body
            }
        }
    };
}
pub(crate) use with_model;

/// Run `$body` with the type `$M` set to the model `$name` of the game `$game`'s kind: Raw for
/// every game, the four models for Connect6 and the games of five on boards up to 16×16, CPBIM
/// for every other game. Any other choice returns an error from the enclosing function.
macro_rules! with_game_model {
    ($game:expr, $name:expr, $M:ident => $body:expr) => {{
        use cpbim::model::{self, Kind};
        use $crate::cli::ModelName as N;
        match (model::kind_of(&$game), $name) {
            (_, N::Raw) => {
                type $M = cpbim::Raw;
                $body
            }
            (Kind::Connect6, N::Iu) => {
                type $M = cpbim::Iu;
                $body
            }
            (Kind::Connect6, N::Cpbm) => {
                type $M = cpbim::Cpbm;
                $body
            }
            (Kind::Five, N::Iu) => {
                type $M = model::Iu5;
                $body
            }
            (Kind::Five, N::Cpbm) => {
                type $M = model::Cpbm5;
                $body
            }
            (_, N::Cpbim) => cpbim::with_cpbim_model!(&$game, $M => $body),
            (_, other) => $crate::cli::usage!(
                "--model {}: the comparison models are built for connect6 and the games of five on boards up to 16×16; {} runs raw or cpbim",
                other.name(),
                $game
            ),
        }
    }};
}
pub(crate) use with_game_model;

impl ModelName {
    fn name(self) -> &'static str {
        with_model!(self, M => <M as cpbim::Model>::NAME)
    }
}

/// Move ordering for `--plain-ordering`.
pub fn ordering(plain: bool) -> SearchOrdering {
    if plain {
        SearchOrdering::PLAIN
    } else {
        SearchOrdering::ALL
    }
}

/// Run the command line.
pub fn run(cli: Cli) -> Result<()> {
    // Long work that looks at STOP from its start (solve and analyze after their input).
    if matches!(
        cli.command,
        Command::Testsets(_) | Command::Bench(_) | Command::Match(_) | Command::Serve(_)
    ) {
        interrupt::soften();
    }
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Testsets(args) => testsets::run(&args),
        Command::Name(args) => name::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Kb { command } => kb::run(command),
        Command::Position(args) => position::run(&args),
        Command::Move(args) => r#move::run(&args),
        Command::Engine(args) => engine::run(&args),
        Command::Match(args) => r#match::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Prove(args) => prove::run(&args),
        Command::Store { command } => store::run(command),
        Command::Tune(args) => tune::run(&args),
    }
}
