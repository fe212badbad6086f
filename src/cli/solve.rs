//! `cpbim solve`: the double-threat search for one game or a batch, one answer per input line.

use super::input::{self, Inputs, Lines};
use super::progress::Progress;
use super::shard::{self, Shard};
use super::{limits, stopped, with_game_model, InputArgs, ModelName, SearchArgs, STOP};
use anyhow::Result;
use clap::Args;
use cpbim::batch::{self, Answer, LineResult};
use cpbim::report::{answer_json, answer_text, error_json};
use cpbim::search::{Config, Outcome};
use cpbim::text::counted;
use cpbim::Model;
use std::io::Write;

/// The built-in example of the README: black to move, a double-threat win at depth 16.
const EXAMPLE: &str = include_str!("../../examples/positions/example.txt");

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Position model.
    #[arg(long, value_enum, default_value_t = ModelName::Cpbim)]
    model: ModelName,
    /// One JSON object per game (docs/json.md).
    #[arg(long)]
    json: bool,
    /// Attach the proof tree of a win: in JSON as "proof"; in text printed after the answer
    /// (one game) or as compact JSON at the end of the answer's line (a batch).
    #[arg(long)]
    proof: bool,
    /// Try candidates in point order (no history, killer, table or composite ordering).
    #[arg(long)]
    plain_ordering: bool,
    /// Solve the built-in example position.
    #[arg(long, conflicts_with = "position")]
    example: bool,
    /// Answer only shard I of N of a file's game lines (contiguous blocks: the outputs of
    /// 1/N … N/N concatenated are the whole batch's); `auto` takes I and N from a Slurm job
    /// array, `auto/N` I from Slurm or a Kubernetes indexed Job (README, "cpbim solve").
    #[arg(long, value_name = "I/N|auto", conflicts_with = "example")]
    shard: Option<String>,
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let game = args.input.game;
    let config = Config {
        ordering: super::ordering(args.plain_ordering),
        proof: args.proof,
        ..args.search.config(&game)?
    };
    let position = args.input.position.as_deref();
    let inputs = match (&args.shard, args.example) {
        (_, true) => Inputs::One(EXAMPLE.to_string()),
        (Some(spec), false) => {
            let shard = Shard::parse(spec, &|name| std::env::var(name).ok())
                .map_err(|e| super::usage_error(format!("--shard {spec}: {e}")))?;
            shard::read(position, args.input.game_id, shard)?
        }
        (None, false) => input::read(position, args.input.game_id)?,
    };
    super::interrupt::soften();
    with_game_model!(game, args.model, M => match inputs {
        Inputs::One(text) => one::<M>(args, &config, &text),
        Inputs::Lines(lines) => lines_batch::<M>(args, &config, lines),
    })
}

/// One game: its answer, or an error (exit status 1).
fn one<M: Model>(args: &SolveArgs, config: &Config, text: &str) -> Result<()> {
    let record = cpbim::parse_record(text, args.input.reading())?;
    limits::check_tables(config.tt_entries, 1)?;
    let answer = batch::answer::<M>(&record, config, &STOP);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", answer_json(&answer))?;
        return Ok(());
    }
    if args.example {
        writeln!(
            out,
            "{} to move:\n{}",
            record.to_move(),
            cpbim::board::diagram(record.board(), None)
        )?;
    }
    writeln!(out, "{}", answer_text(&answer))?;
    if let Answer::Solved(s) = &answer {
        if let Some(p) = &s.proof {
            writeln!(out, "{}", serde_json::to_string_pretty(p)?)?;
        }
    }
    Ok(())
}

/// The line printed for the answer to input line `number` of a batch: JSON with the line's
/// number first, or text (an error names the line).
fn batch_line(args: &SolveArgs, result: &LineResult, number: usize) -> String {
    let numbered = |answer: serde_json::Value| {
        let mut object = serde_json::Map::new();
        object.insert("input_line".into(), number.into());
        if let serde_json::Value::Object(fields) = answer {
            object.extend(fields);
        }
        serde_json::Value::Object(object).to_string()
    };
    match (result, args.json) {
        (Ok(a), true) => numbered(answer_json(a)),
        (Ok(a), false) => {
            let mut text = answer_text(a);
            if let Answer::Solved(s) = a {
                if let Some(p) = &s.proof {
                    text += &format!(
                        "  proof {}",
                        serde_json::to_string(p).expect("proofs serialise")
                    );
                }
            }
            text
        }
        (Err(e), true) => numbered(error_json(e)),
        (Err(e), false) => format!("error: line {number}: {e}"),
    }
}

/// Lines solved at a time: read, solved in parallel, printed in order.
const CHUNK: usize = 256;

/// A batch: one answer per line, in order, printed as each chunk of lines completes; the
/// input is read a chunk at a time, so a batch of any length runs in the memory of one chunk.
/// After SIGINT or SIGTERM the lines answered before it stay; the first line the stop cut
/// short (answered `unknown`) and every line after it are left out, so the output holds only
/// finished work.
fn lines_batch<M: Model>(args: &SolveArgs, config: &Config, mut lines: Lines) -> Result<()> {
    let pool = args.search.pool(1)?;
    let bar = Progress::new(
        0,
        "{spinner} solving: {pos} lines answered [{elapsed_precise}, {per_sec}]",
    );
    let start = std::time::Instant::now();
    let (mut wins, mut finished, mut errors, mut done) = (0, 0, 0, 0);
    let mut out = std::io::stdout().lock();
    'chunks: loop {
        // The lines before one the input cannot give (too long, a read error) are answered;
        // then the batch ends with that error.
        let (mut chunk, mut numbers) = (Vec::new(), Vec::new());
        let mut failure = None;
        for line in (&mut lines).take(CHUNK) {
            match line {
                Ok(l) => {
                    chunk.push(l.bytes);
                    numbers.push(l.number);
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if chunk.is_empty() && failure.is_none() {
            break;
        }
        let results = pool.install(|| {
            batch::solve_lines::<M>(&chunk, args.input.reading(), config, &STOP, &|_| bar.inc(1))
        });
        for (r, &number) in results.iter().zip(&numbers) {
            match r {
                Ok(Answer::Solved(s)) if s.outcome == Outcome::Unknown && stopped() => {
                    break 'chunks
                }
                Ok(Answer::Solved(s)) => wins += usize::from(s.outcome == Outcome::Win),
                Ok(Answer::Finished(_)) => finished += 1,
                Err(_) => errors += 1,
            }
            bar.suspend(|| writeln!(out, "{}", batch_line(args, r, number)))
                .map_err(super::stdout_error)?;
            done += 1;
        }
        out.flush().map_err(super::stdout_error)?;
        if let Some(e) = failure {
            bar.finish();
            return Err(e.context(format!("after {done} lines answered")));
        }
        if stopped() {
            break;
        }
    }
    out.flush().map_err(super::stdout_error)?;
    bar.finish();
    eprintln!(
        "{} ({wins} win, {finished} finished, {}) in {:.2} s with {}{}",
        counted(done as u64, "game"),
        counted(errors as u64, "error"),
        start.elapsed().as_secs_f64(),
        counted(pool.current_num_threads() as u64, "thread"),
        if stopped() {
            "; stopped by a signal: the lines after these were not answered"
        } else {
            ""
        }
    );
    input::batch_end(done, errors)
}
