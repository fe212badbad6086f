//! `cpbim store`: what a proof store of `cpbim prove --store` holds, and merging stores
//! (docs/search.md, "The store"): searches run apart — two processes, two machines — each with
//! a store of its own, and their stores merged into one book that a later search reads whole.

use anyhow::Result;
use clap::Subcommand;
use cpbim::prove::{Merged, Store};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum StoreCommand {
    /// How many positions the store holds proven and not proven.
    Info {
        /// The store (a file `cpbim prove --store` wrote).
        store: PathBuf,
        /// One JSON object (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Take into STORE what each SOURCE holds: the proofs it lacks, and the failures of a larger
    /// threat budget. Nothing is written into the sources; STORE is created when absent. A
    /// stopped merge (Ctrl-C) keeps what it took: run it again to finish.
    Merge {
        /// The stores to read.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// The store to write into.
        #[arg(long, value_name = "STORE")]
        into: PathBuf,
        /// One JSON object (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Write the book of STORE's proofs of one game: each position proven with the attacker to
    /// move, the move its proof starts with and its threats, one a line (docs/search.md,
    /// "Books"). `cpbim prove --book` finds the proofs again from it, at their own cost.
    Book {
        /// The store to read.
        store: PathBuf,
        /// The game whose positions are written.
        #[arg(long, default_value = "connect6", value_parser = super::parse_game)]
        game: cpbim::Game,
        /// The book's file (written whole or not at all).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Which replies of a `prove --side A --each-reply` run's position STORE holds A's win
    /// after: each legal move of the side to move, proven or still open (a long run's
    /// progress; read a copy of the store while the run holds it).
    Replies {
        /// The store to read.
        store: PathBuf,
        #[command(flatten)]
        input: super::InputArgs,
        /// The side whose win the run proves (the side not to move).
        #[arg(long, value_enum, value_name = "SIDE")]
        side: super::Side,
        /// One JSON object (docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: StoreCommand) -> Result<()> {
    match command {
        StoreCommand::Info { store, json } => info(&store, json),
        StoreCommand::Merge {
            sources,
            into,
            json,
        } => merge(&sources, &into, json),
        StoreCommand::Book { store, game, out } => book(&store, game, &out),
        StoreCommand::Replies {
            store,
            input,
            side,
            json,
        } => replies(&store, &input, side.color(), json),
    }
}

fn replies(path: &Path, input: &super::InputArgs, a: cpbim::Color, json: bool) -> Result<()> {
    let text = super::input::one_game(input, "store replies")?;
    let record = super::input::game_record(&text, input.reading())?;
    let pos = cpbim::report::to_play(&record).map_err(anyhow::Error::msg)?;
    if let Some(why) = cpbim::prove::each_reply::refusal(&pos, a) {
        super::usage!("store replies: {why}");
    }
    let store = existing(path)?;
    let replies = cpbim::prove::each_reply::replies_held(&store, &pos, a)?;
    let (proven, open): (Vec<_>, Vec<_>) = replies.iter().partition(|(_, held)| *held);
    let names = |l: &[&(cpbim::Point, bool)]| -> Vec<String> {
        l.iter().map(|(x, _)| x.to_string()).collect()
    };
    if json {
        let v = serde_json::json!({
            "side": a.name(),
            "replies": replies.len(),
            "proven": names(&proven),
            "open": names(&open),
        });
        outln!("{v}")?;
    } else {
        outln!(
            "{} of {} replies proven for {}; open: {}",
            proven.len(),
            replies.len(),
            a.name(),
            if open.is_empty() {
                "none".to_string()
            } else {
                names(&open).join(" ")
            }
        )?;
    }
    Ok(())
}

/// The store at `path`, which must exist (opening creates a store where there is none).
fn existing(path: &Path) -> Result<Store> {
    if !path.is_file() {
        anyhow::bail!(missing(path));
    }
    Ok(Store::open(path)?)
}

fn missing(path: &Path) -> String {
    format!("proof store {}: no such file", path.display())
}

fn book(path: &Path, game: cpbim::Game, out: &Path) -> Result<()> {
    let store = existing(path)?;
    super::interrupt::soften();
    let book = cpbim::prove::Book::of_store(&store, game, &super::STOP)?;
    if super::stopped() {
        anyhow::bail!("stopped: {} not written", out.display());
    }
    cpbim::files::write(out, book.to_text())?;
    outln!(
        "{}: {} positions of {game} from {}",
        out.display(),
        book.len(),
        path.display()
    )?;
    Ok(())
}

fn info(path: &Path, json: bool) -> Result<()> {
    let contents = existing(path)?.contents()?;
    let bytes = std::fs::metadata(path)?.len();
    if json {
        let mut v = serde_json::to_value(contents)?;
        v["bytes"] = bytes.into();
        outln!("{v}")?;
    } else {
        outln!(
            "{}: {} proven, {} not proven, {} reply records, {} bytes",
            path.display(),
            contents.proven,
            contents.not_proven,
            contents.reply_records,
            bytes
        )?;
    }
    Ok(())
}

fn merge(sources: &[PathBuf], into: &Path, json: bool) -> Result<()> {
    for source in sources {
        if !source.is_file() {
            anyhow::bail!(missing(source));
        }
        if same_file(source, into) {
            super::usage!("{} is both a source and --into", source.display());
        }
    }
    let mut store = Store::open(into)?;
    super::interrupt::soften();
    let mut results = Vec::new();
    for source in sources {
        let merged = store.merge(source, &super::STOP)?;
        if !json {
            outln!("{}", line(source, into, &merged))?;
        }
        results.push((source, merged));
        if !merged.complete {
            break;
        }
    }
    let contents = store.contents()?;
    if json {
        let merged: Vec<_> = results
            .iter()
            .map(|(source, m)| {
                let mut v = serde_json::to_value(m).expect("counts are plain JSON");
                v["source"] = source.display().to_string().into();
                v
            })
            .collect();
        let v = serde_json::json!({"into": into.display().to_string(), "merged": merged,
            "proven": contents.proven, "not_proven": contents.not_proven});
        outln!("{v}")?;
    } else {
        outln!(
            "{}: {} proven, {} not proven",
            into.display(),
            contents.proven,
            contents.not_proven
        )?;
    }
    if super::stopped() {
        eprintln!("stopped: what was merged is in the store; run the same command again to finish");
    }
    Ok(())
}

/// One source's merge in words.
fn line(source: &Path, into: &Path, m: &Merged) -> String {
    let mut s = format!(
        "{} into {}: {} proofs taken ({} known already), {} failures taken ({} known already)",
        source.display(),
        into.display(),
        m.proofs_added,
        m.proofs_known,
        m.failures_added,
        m.failures_known
    );
    if m.records_added > 0 {
        s += &format!(", {} reply records taken", m.records_added);
    }
    if m.other_format > 0 {
        s += &format!(", {} entries of another format left out", m.other_format);
    }
    if !m.complete {
        s += ", stopped before the end";
    }
    s
}

/// Whether `a` and `b` name the same file (`b` may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
