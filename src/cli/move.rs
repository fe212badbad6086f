//! `cpbim move`: the move the engine plays in a position (docs/engine.md).

use super::input;
use super::{limits, InputArgs};
use anyhow::Result;
use clap::Args;
use cpbim::engine::{player_for, Choice, Limits, PlayerKind, Verdict};
use cpbim::report::choice_json;
use cpbim::report::{line_text, stones_text};

#[derive(Args)]
pub struct MoveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Seconds for the move (the engine answers within them).
    #[arg(long, value_name = "S", conflicts_with = "depth")]
    time: Option<f64>,
    /// Alpha-beta depth in whole moves, without a time limit (default 2; the same answer on
    /// every run).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// The engine's weights and widths, a JSON file (docs/engine.md); keys left out keep
    /// the game's built-in values.
    #[arg(long, value_name = "FILE")]
    params: Option<String>,
    /// Threads for the engine's safety checks (0: every core; default: the parameter file's
    /// `threads`, 1).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print the parameters for `--game` as JSON (the built-in set, with `--params` and
    /// `--threads` over it) and exit.
    #[arg(long, conflicts_with = "position")]
    print_params: bool,
    /// Who plays: `cpbim` (the engine), or a baseline player of docs/engine.md: `seed000`
    /// (Connect6), `seed004` (gomoku, gomoku-standard, renju).
    #[arg(long, value_name = "NAME", default_value = "cpbim")]
    player: PlayerKind,
    /// One JSON object (docs/json.md).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MoveArgs) -> Result<()> {
    let tuning = super::engine::tuning(args.params.as_deref(), args.threads)?;
    if args.print_params {
        let params = tuning.for_game(&args.input.game);
        outln!("{}", serde_json::to_string_pretty(&params)?)?;
        return Ok(());
    }
    check_player(args.player, args.params.as_deref())?;
    let limits = Limits {
        time: args.time.map(|s| limits::seconds("time", s)).transpose()?,
        depth: args
            .depth
            .map(cpbim::limits::engine_depth)
            .transpose()
            .map_err(super::usage_error)?,
        clock: None,
    };
    let text = input::one_game(&args.input, "move")?;
    let record = cpbim::parse_record(&text, args.input.reading())?;
    let pos = cpbim::report::to_play(&record).map_err(anyhow::Error::msg)?;
    let choice = player_for(args.player, pos.game(), tuning.for_game(pos.game()))
        .map_err(|e| super::usage_error(format!("--player: {e}")))?
        .choose(&pos, limits);
    if args.json {
        outln!("{}", choice_json(&choice))?;
    } else {
        outln!("{}", choice_text(&choice))?;
    }
    Ok(())
}

/// `--params` weighs only the engine: refused with a baseline player.
pub fn check_player(kind: PlayerKind, params: Option<&str>) -> Result<()> {
    if kind != PlayerKind::Cpbim && params.is_some() {
        super::usage!("--params weighs only the cpbim engine, not the baseline player {kind}");
    }
    Ok(())
}

fn verdict_name(v: Verdict) -> String {
    match v {
        Verdict::Win(d) => format!("forced win {d}"),
        Verdict::Loss => "loss: no candidate holds".to_string(),
        Verdict::Open => "open".to_string(),
    }
}

/// `move J10 K11  eval 123  depth 2  pv J10 K11 | L12 M13  open  (nodes, time)`.
fn choice_text(c: &Choice) -> String {
    format!(
        "move {}  eval {}  depth {}  pv {}  {}  ({} nodes, {:.3} ms)",
        stones_text(&c.stones),
        c.eval,
        c.depth,
        line_text(&c.pv),
        verdict_name(c.verdict),
        c.nodes,
        c.time.as_secs_f64() * 1e3
    )
}
