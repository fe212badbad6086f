//! `cpbim kb`: the knowledge base's statistics (Tables 1 and 2), export and verification.

use anyhow::{Context, Result};
use clap::Subcommand;
use cpbim::kb::{self, ConnType};
use cpbim::Game;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum KbCommand {
    /// Print Table 1 (shapes per connection type) and Table 2 (table sizes); with --game, the
    /// type table of any game.
    Stats {
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// The game whose tables to show (connect6, gomoku, renju, gomoku:20, connect(m,n,k,p,q)…).
        #[arg(long, value_parser = super::parse_game)]
        game: Option<Game>,
    },
    /// Write ct.bin and ti.bin (layout in docs/knowledge-base.md) into DIR.
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

pub fn run(command: KbCommand) -> Result<()> {
    match command {
        KbCommand::Stats { json, game: None } => stats(json),
        KbCommand::Stats {
            json,
            game: Some(game),
        } => game_stats(&game, json),
        KbCommand::Export { dir } => {
            kb::export(&dir).with_context(|| format!("writing tables into {}", dir.display()))?;
            outln!(
                "wrote {} ({} bytes) and {} ({} bytes)",
                dir.join("ct.bin").display(),
                kb::SHAPES,
                dir.join("ti.bin").display(),
                kb::TI_LEN
            )?;
            Ok(())
        }
        KbCommand::Verify { dir } => {
            let [ct, ti] = kb::verify(&dir)?;
            for (name, diff) in [("ct.bin", ct), ("ti.bin", ti)] {
                match diff {
                    None => outln!("{name}: identical to the built-in table")?,
                    Some(at) => anyhow::bail!("{name}: first difference at byte {at}"),
                }
            }
            Ok(())
        }
    }
}

fn stats(json: bool) -> Result<()> {
    let s = kb::stats();
    if json {
        outln!("{}", cpbim::report::kb_stats_json(&s))?;
        return Ok(());
    }
    outln!("Table 1: connection shapes of Connect(19,19,6,2,1) per type")?;
    outln!("{:<4} {:>8} {:>8}", "CT", "Num", "Per(%)")?;
    // The paper prints Table 1 best type first.
    for &t in ConnType::ALL.iter().rev() {
        let n = s.counts[t as usize];
        outln!(
            "{:<4} {:>8} {:>8.3}",
            t.name(),
            n,
            100.0 * n as f64 / s.total as f64
        )?;
    }
    outln!("{:<4} {:>8} {:>8.3}", "all", s.total, 100.0)?;
    outln!()?;
    outln!("Table 2: knowledge-base size, 4-bit entries (KB)")?;
    let z = &s.sizes_kb;
    outln!("Connect6 19x19  {:>9.3}", z.connect6_19)?;
    outln!("Connect6 15x15  {:>9.3}", z.connect6_15)?;
    outln!("Connect6 13x13  {:>9.3}", z.connect6_13)?;
    outln!("Gomoku   15x15  {:>9.3}", z.gomoku_15)?;
    Ok(())
}

fn game_stats(game: &Game, json: bool) -> Result<()> {
    let start = std::time::Instant::now();
    let tables = kb::colour_tables(game);
    let took = start.elapsed();
    if json {
        outln!("{}", cpbim::report::kb_game_json(game, &tables))?;
        return Ok(());
    }
    for (colour, t) in &tables {
        let counts = t.counts();
        let total: u64 = counts.iter().sum();
        let who = match *colour {
            "both" => String::new(),
            c => format!(", {c}"),
        };
        outln!(
            "Connection types of {game}{who}: {} in a row{}, {} per move; lines up to {} long",
            t.params.k,
            if t.params.exact {
                " exactly"
            } else {
                " or more"
            },
            cpbim::text::counted(t.params.p as u64, "stone"),
            t.n
        )?;
        outln!("{:<4} {:>8} {:>8}  what it is", "CT", "Num", "Per(%)")?;
        for &c in ConnType::ALL.iter().rev() {
            let n = counts[c as usize];
            outln!(
                "{:<4} {:>8} {:>8.3}  {}",
                c.name(),
                n,
                100.0 * n as f64 / total as f64,
                kb::role(c, t.params)
            )?;
        }
        outln!("{:<4} {:>8} {:>8.3}", "all", total, 100.0)?;
        outln!(
            "table size, 4-bit entries: {:.3} KB; {} ({:.0} ms)",
            t.size_kb(),
            t.origin.describe(),
            took.as_secs_f64() * 1e3
        )?;
        outln!()?;
    }
    Ok(())
}
