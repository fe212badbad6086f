//! `cpbim analyze`: move-by-move threat analysis of games and opening lines.

use super::input::{game_record, line_items, Item};
use super::progress::Progress;
use super::{stopped, with_game_model, InputArgs, ModelName, SearchArgs, STOP};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::analyze::{
    analysis_json, analyze_record, board_svg, boundary_text, end_text, summary_header, summary_row,
    Analysis, AnalyzeConfig,
};
use cpbim::text::counted;
use cpbim::{Game, Record};
use std::path::PathBuf;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// The game or opening line to analyse (any format; finished games too; a DIF name like
    /// `X-J8`; a diagram is its one position, with --to-move for a puzzle), a file of lines,
    /// or `-`. Without it, --named.
    #[command(flatten)]
    input: InputArgs,
    /// Analyse the 24 distinct named openings of the thesis (000 §2.2.1).
    #[arg(long, conflicts_with = "position")]
    named: bool,
    /// Also find which moves of the side to move answer the opponent's threat (only where
    /// there is one).
    #[arg(long)]
    defenses: bool,
    /// Candidate points for --defenses: empty points within this distance of a stone.
    #[arg(long, default_value_t = 2)]
    radius: usize,
    /// Also run `cpbim prove` (its default limits) for the side to move at every boundary
    /// where the double-threat search finds no win: which of them the proof search settles.
    #[arg(long)]
    prove: bool,
    /// With --prove: seconds per boundary's proof search.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    prove_time: f64,
    /// Leave out the engine's evaluations (about 40 ms a boundary); the verdicts stay.
    #[arg(long)]
    no_eval: bool,
    /// Leave out the move verdicts (and the defence searches they need where a side's win
    /// changes hands).
    #[arg(long)]
    no_verdicts: bool,
    #[command(flatten)]
    search: SearchArgs,
    /// One JSON object per move boundary, then one for the end of a finished game; in a batch
    /// each object also has "line" (docs/json.md).
    #[arg(long)]
    json: bool,
    /// Write a board diagram per move boundary into DIR (last move and threat points marked).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

/// The games to analyse, each with its label (`None` when a line is not a game).
fn jobs(args: &AnalyzeArgs) -> Result<Vec<(String, Result<Record>)>> {
    if args.named {
        return cpbim::opening::named_openings()
            .into_iter()
            .map(|(o, figs)| {
                let label = format!("{} (fig. {})", o.short(), figs.join(", "));
                Ok((label, Ok(Record::from_stones(Game::CONNECT6, &o.stones())?)))
            })
            .collect();
    }
    let Some(arg) = &args.input.position else {
        super::usage!("give a game (any format, a DIF name or a file of lines) or --named");
    };
    let items = line_items(
        Some(arg),
        args.input.game_id,
        args.input.reading(),
        game_record,
    )?;
    Ok(items
        .into_iter()
        .map(|Item { line, record }| {
            let name = record
                .as_ref()
                .ok()
                .filter(|r| r.game().is_connect6())
                .and_then(|r| cpbim::opening::name_line(r.stones()).ok())
                .map(|o| o.short());
            let label = match (line, name) {
                (Some(n), Some(name)) => format!("{n}: {name}"),
                (Some(n), None) => n.to_string(),
                (None, Some(name)) => name,
                (None, None) => "the game".to_string(),
            };
            (label, record)
        })
        .collect())
}

pub fn run(args: &AnalyzeArgs) -> Result<()> {
    let cfg = AnalyzeConfig {
        search: args.search.config(&args.input.game)?,
        defenses: args.defenses,
        radius: args.radius,
        prove: args
            .prove
            .then(|| -> Result<cpbim::prove::Limits> {
                Ok(cpbim::prove::Limits {
                    max_time: Some(super::limits::seconds("prove-time", args.prove_time)?),
                    ..cpbim::prove::Limits::default()
                })
            })
            .transpose()?,
        eval: !args.no_eval,
        review: !args.no_verdicts,
    };
    let jobs = jobs(args)?;
    super::interrupt::soften();
    let batch = jobs.len() > 1 || args.input.position.as_deref() == Some("-");
    if let (false, [(_, Err(e))]) = (batch, jobs.as_slice()) {
        anyhow::bail!("{e:#}");
    }
    // Two solvers per thread: one for the questions, one for the proofs of the defences.
    let pool = args.search.pool(2)?;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bar = Progress::new(
        0,
        "{spinner} {msg} [{elapsed_precise}] {wide_bar} {pos}/{len} searches",
    );
    let (mut summary, mut failed) = (Vec::new(), 0);
    let start = std::time::Instant::now();
    for (j, (label, record)) in jobs.iter().enumerate() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                failed += 1;
                bar.suspend(|| print_error(args, label, e))?;
                continue;
            }
        };
        let progress = |p: cpbim::analyze::Progress| {
            bar.set(p.searches_done as u64, p.searches as u64);
            bar.message(format!(
                "line {}/{}: boundary {}/{}",
                j + 1,
                jobs.len(),
                p.boundaries_done,
                p.boundaries
            ));
        };
        let analyze = || {
            with_game_model!(record.game(), ModelName::Cpbim, M => {
                analyze_record::<M>(record, &cfg, &STOP, &progress).map_err(anyhow::Error::from)
            })
        };
        let analysis = match pool.install(analyze) {
            Ok(a) => a,
            Err(e) => {
                failed += 1;
                bar.suspend(|| print_error(args, label, &e))?;
                continue;
            }
        };
        bar.suspend(|| print_analysis(args, batch.then_some(label.as_str()), &analysis))?;
        if let Some(dir) = &args.svg {
            write_svgs(dir, batch.then_some(j + 1), record, &analysis)?;
        }
        summary.push(summary_row(label, &analysis));
        if stopped() {
            break;
        }
    }
    bar.finish();
    if batch && !args.json {
        outln!("\n{}", summary_header())?;
        for row in &summary {
            outln!("{row}")?;
        }
    }
    eprintln!(
        "analysed {} in {:.1} s with {}{}",
        counted(summary.len() as u64, "game"),
        start.elapsed().as_secs_f64(),
        counted(pool.current_num_threads() as u64, "thread"),
        if stopped() {
            "; stopped by a signal (searches in flight answered unknown)"
        } else {
            ""
        }
    );
    super::input::batch_end(jobs.len(), failed)
}

fn print_error(args: &AnalyzeArgs, label: &str, e: &anyhow::Error) -> Result<()> {
    let msg = format!("line {label}: {e:#}");
    if args.json {
        outln!("{}", cpbim::report::error_json(&msg))
    } else {
        outln!("error: {msg}")
    }
}

fn print_analysis(args: &AnalyzeArgs, batch_label: Option<&str>, a: &Analysis) -> Result<()> {
    if args.json {
        for mut v in analysis_json(a) {
            if let Some(label) = batch_label {
                v["line"] = label.into();
            }
            outln!("{v}")?;
        }
    } else {
        if let Some(label) = batch_label {
            outln!("== {label}")?;
        }
        for b in &a.boundaries {
            out!("{}", boundary_text(b))?;
        }
        if let Some(end) = end_text(a) {
            out!("{end}")?;
        }
    }
    Ok(())
}

fn write_svgs(
    dir: &std::path::Path,
    line: Option<usize>,
    record: &Record,
    a: &Analysis,
) -> Result<()> {
    for b in &a.boundaries {
        // A diagram's one boundary is its board (its made-up order need not replay).
        let board = if record.ordered() {
            cpbim::Position::from_stones(*record.game(), &record.stones()[..b.stones])?
                .board()
                .clone()
        } else {
            record.board().clone()
        };
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
        let file = match line {
            Some(j) => dir.join(format!("line{j:03}_{:03}.svg", b.stones)),
            None => dir.join(format!("boundary_{:03}.svg", b.stones)),
        };
        cpbim::files::write(&file, board_svg(&board, &b.last_move, threat, &title))?;
    }
    Ok(())
}
