//! `cpbim kb`: the knowledge base's statistics (Tables 1 and 2), export and verification.

use anyhow::{Context, Result};
use clap::Subcommand;
use cpbim::kb::{self, ConnType};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum KbCommand {
    /// Print Table 1 (shapes per connection type) and Table 2 (table sizes).
    Stats {
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
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
        KbCommand::Stats { json } => stats(json),
        KbCommand::Export { dir } => {
            kb::export(&dir).with_context(|| format!("writing tables into {}", dir.display()))?;
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
            let [ct, ti] = kb::verify(&dir)?;
            for (name, diff) in [("ct.bin", ct), ("ti.bin", ti)] {
                match diff {
                    None => println!("{name}: identical to the built-in table"),
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
    // The paper prints Table 1 best type first.
    for &t in ConnType::ALL.iter().rev() {
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
