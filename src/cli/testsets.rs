//! `cpbim testsets`: build the test sets from game records into a directory the user names.

use super::progress::Progress;
use super::{stopped, STOP};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::testsets::{generate, readme, subset_file, GenConfig, SUBSETS};
use cpbim::Cpbim;
use std::path::PathBuf;

#[derive(Args)]
pub struct TestsetArgs {
    /// Directory to write W12.txt … N28.txt and README.md into (created if missing; files of
    /// those names in it are replaced, all together once every one is written). The committed sets are in `testsets/`.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
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
}

pub fn run(args: &TestsetArgs) -> Result<()> {
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
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let bar = Progress::spinner();
    let start = std::time::Instant::now();
    let generated = generate::<Cpbim>(&games, &cfg, &STOP, &|g| {
        let fill: Vec<String> = SUBSETS
            .iter()
            .zip(&g.sets)
            .map(|(s, v)| format!("{} {}", s.name, v.len()))
            .collect();
        bar.message(format!(
            "{} positions, {} over budget, {} games | {}",
            g.examined,
            g.over_budget,
            g.games_used,
            fill.join(" ")
        ));
    });
    bar.finish();
    if stopped() {
        anyhow::bail!(
            "stopped by a signal after {} positions: nothing written, {} is as it was",
            generated.examined,
            args.out.display()
        );
    }
    let command = format!(
        "cpbim testsets --out {} --seed {} --per-set {} --max-nodes {} --max-back {}",
        args.out.display(),
        args.seed,
        args.per_set,
        args.max_nodes,
        args.max_back
    );
    // All thirteen files are written before the first replaces its old version.
    let mut staged = cpbim::files::Staged::new();
    for (subset, entries) in SUBSETS.iter().zip(&generated.sets) {
        let file = args.out.join(format!("{}.txt", subset.name));
        let text = subset_file(subset, entries, &format!("Made by `{command}`."));
        staged.add(&file, text)?;
    }
    let source = match &args.games {
        Some(p) => p.display().to_string(),
        None => "data/connect6_games.csv".to_string(),
    };
    let text = readme(&generated, &cfg, &command, &source, games.len());
    staged.add(&args.out.join("README.md"), text)?;
    staged.commit()?;
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
