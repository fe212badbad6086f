//! The `cpbim` command-line tool: a thin layer over the library (SPEC §5).

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use cpbim::kb::{self, ConnType};
use std::path::PathBuf;

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
    /// The knowledge base: Table 1 and 2 statistics, export and verification of the tables.
    Kb {
        #[command(subcommand)]
        command: KbCommand,
    },
    /// Read a position in any supported format and write it back.
    Position {
        /// A stone list, diagram or SGF text, or the path of a file holding one; `-` reads stdin.
        position: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Diagram)]
        format: Format,
    },
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
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
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
