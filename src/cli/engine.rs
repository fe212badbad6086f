//! `cpbim engine`: the engine as a process speaking a protocol on standard input and output
//! (docs/protocols.md). Replies go to standard output, flushed line by line; nothing else does.

use super::limits;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use cpbim::engine::{Clock, Limits, PlayerKind, Tuning};
use cpbim::protocol::{cloudict::Cloudict, gomocup::Gomocup, gtp::Gtp, sau::Sau, serve, Protocol};
use cpbim::Game;
use std::path::Path;

#[derive(Args)]
pub struct EngineArgs {
    /// The protocol.
    #[arg(long, value_enum)]
    protocol: ProtocolName,
    /// The game (gomocup: the rule and size come from the manager; this is the start).
    #[arg(long, default_value = "connect6", value_parser = super::parse_game)]
    game: Game,
    /// Seconds per move when the protocol does not say (default 1).
    #[arg(long, value_name = "S")]
    time: Option<f64>,
    /// Alpha-beta depth in whole moves instead of a time (the same moves on every run).
    #[arg(long, value_name = "D", conflicts_with_all = ["time", "game_time"])]
    depth: Option<u32>,
    /// Seconds for the whole game: the engine keeps its own clock and gives each move a share
    /// (with `--time`, never more than that per move). A new game starts a new clock.
    #[arg(long, value_name = "S")]
    game_time: Option<f64>,
    /// Seconds added to the game clock after every move (with `--game-time`).
    #[arg(long, value_name = "S", requires = "game_time")]
    increment: Option<f64>,
    /// The engine's weights and widths, a JSON file (docs/engine.md); keys left out keep
    /// the built-in values of the game being played.
    #[arg(long, value_name = "FILE")]
    params: Option<String>,
    /// Threads for the engine's safety checks (0: every core; default: the parameter file's
    /// `threads`, 1).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Who plays: `cpbim` (the engine), or a baseline player of docs/engine.md: `seed000`
    /// (Connect6), `seed004` (gomoku, gomoku-standard, renju).
    #[arg(long, value_name = "NAME", default_value = "cpbim")]
    player: PlayerKind,
}

#[derive(Clone, Copy, ValueEnum)]
enum ProtocolName {
    /// Cloudict / ConnectMore text protocol (Connect6).
    Cloudict,
    /// Gomocup / Piskvork brain protocol (gomoku, gomoku-standard, renju).
    Gomocup,
    /// The Chinese championships' referee platform (Connect6).
    Sau,
    /// GTP 2 with GoGui's rules commands, one stone a GTP move (Connect6; other games).
    Gtp,
}

/// The parameters of `--params FILE` over each game's built-in set; `--threads` over them.
pub fn tuning(path: Option<&str>, threads: Option<usize>) -> Result<Tuning> {
    let keys = path
        .map(|path| {
            cpbim::files::read_text(Path::new(path), cpbim::files::MAX_RECORD)
                .with_context(|| "--params")
        })
        .transpose()?;
    let threads = threads.map(|n| limits::threads(Some(n)));
    Tuning::read(keys, threads)
        .map_err(|e| anyhow::anyhow!("--params {}: {e}", path.unwrap_or_default()))
}

pub fn run(args: &EngineArgs) -> Result<()> {
    let tuning = tuning(args.params.as_deref(), args.threads)?;
    let limits = match (args.depth, args.game_time) {
        (Some(d), _) => Limits::depth(cpbim::limits::engine_depth(d).map_err(super::usage_error)?),
        (None, None) => Limits::per_move(limits::seconds("time", args.time.unwrap_or(1.0))?),
        (None, Some(game)) => Limits {
            time: args.time.map(|t| limits::seconds("time", t)).transpose()?,
            depth: None,
            clock: Some(Clock {
                left: limits::seconds("game-time", game)?,
                increment: (args.increment)
                    .filter(|&i| i != 0.0)
                    .map(|i| limits::seconds("increment", i))
                    .transpose()?
                    .unwrap_or_default(),
                per_move: None,
            }),
        },
    };
    let mut proto: Box<dyn Protocol> = match args.protocol {
        ProtocolName::Cloudict => Box::new(Cloudict::new(args.game, tuning, limits)),
        ProtocolName::Gomocup => {
            let game = if args.game.is_connect6() {
                Game::GOMOKU
            } else {
                args.game
            };
            Box::new(Gomocup::new(game, tuning, limits))
        }
        ProtocolName::Sau => Box::new(Sau::new(args.game, tuning, limits)),
        ProtocolName::Gtp => Box::new(Gtp::new(args.game, tuning, limits)),
    };
    let stdin = std::io::stdin();
    super::r#move::check_player(args.player, args.params.as_deref())?;
    proto
        .set_player(args.player)
        .map_err(|e| super::usage_error(format!("--player: {e}")))?;
    serve(proto.as_mut(), stdin.lock(), std::io::stdout())?;
    Ok(())
}
