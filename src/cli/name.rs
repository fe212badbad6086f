//! `cpbim name`: DIF opening names of lines, of every first move within a distance, or of the
//! thesis's named openings.

use super::input::{line_items, line_record};
use super::InputArgs;
use anyhow::Result;
use clap::Args;
use cpbim::opening::{all_within, name_line, parse_name, Opening, NAMED};

#[derive(Args)]
pub struct NameArgs {
    /// A Connect6 line (in any format with its play order; its first three stones are named), a
    /// name to normalise (`X-J8`, `I9-J8`), a file of lines, or `-` for standard input.
    #[command(flatten)]
    input: InputArgs,
    /// Print `{"name", "short", "stones"}` as JSON.
    #[arg(long)]
    json: bool,
    /// List every distinct white first move with both stones within this distance of J10.
    #[arg(long, value_name = "DISTANCE", conflicts_with = "position")]
    all: Option<usize>,
    /// List the 26 named openings of the thesis (000 §2.2.1).
    #[arg(long, conflicts_with_all = ["position", "all"])]
    named: bool,
}

fn opening_json(o: &Opening) -> serde_json::Value {
    serde_json::json!({"name": o.name(), "short": o.short(), "stones": o.stones()})
}

pub fn run(args: &NameArgs) -> Result<()> {
    args.input.connect6_only("name")?;
    if let Some(reach) = args.all {
        return all(reach, args.json);
    }
    if args.named {
        return named(args.json);
    }
    let Some(arg) = &args.input.position else {
        super::usage!("give a line, a name, --all DISTANCE or --named");
    };
    let items = line_items(
        Some(arg),
        args.input.game_id,
        args.input.reading(),
        line_record,
    )?;
    let single = items.len() == 1 && items[0].line.is_none();
    let (games, mut failed) = (items.len(), 0);
    for item in items {
        let named = item.record.and_then(|r| Ok(name_line(r.stones())?));
        match named {
            Ok(o) if args.json => outln!("{}", opening_json(&o))?,
            Ok(o) => outln!("{:<8} {}", o.short(), o.name())?,
            Err(e) if single => return Err(e),
            Err(e) => {
                failed += 1;
                let msg = format!("line {}: {e:#}", item.line.unwrap_or(0));
                if args.json {
                    outln!("{}", cpbim::report::error_json(&msg))?;
                } else {
                    outln!("error: {msg}")?;
                }
            }
        }
    }
    super::input::batch_end(games, failed)
}

fn all(reach: usize, json: bool) -> Result<()> {
    let all = all_within(reach);
    if json {
        let v: Vec<_> = all.iter().map(opening_json).collect();
        outln!("{}", serde_json::Value::Array(v))?;
    } else {
        outln!(
            "{} distinct white first moves with both stones within distance {reach} of J10:",
            all.len()
        )?;
        for o in &all {
            outln!("{:<8} {}", o.short(), o.name())?;
        }
    }
    Ok(())
}

fn named(json: bool) -> Result<()> {
    for n in NAMED {
        let o = parse_name(n.short)?;
        if json {
            let mut v = opening_json(&o);
            v["figure"] = n.figure.into();
            v["printed"] = n.printed.into();
            outln!("{v}")?;
        } else {
            let printed = if n.printed != n.short {
                format!("  (printed `{}`)", n.printed)
            } else {
                String::new()
            };
            outln!(
                "fig. {:<5} {:<7} {:<7} {}{printed}",
                n.figure,
                n.printed,
                o.short(),
                o.name(),
            )?;
        }
    }
    Ok(())
}
