//! `cpbim prove`: threat-space proof search (docs/search.md, "Threat-space proofs").

use super::progress::Progress;
use super::{input, limits, InputArgs, ModelName};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::prove::{self, Answer, Limits, Verdict};
use cpbim::report::{line_text, stones_text};
use cpbim::{Color, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The searches, by name.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
enum SearchName {
    /// Depth-first proof-number search.
    ProofNumber,
    /// Depth-first, the threat budget deepened from 0.
    DepthFirst,
}

#[derive(Args)]
pub struct ProveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The side whose win is to be proven (default: the side to move). For the other side,
    /// every move of the side to move must be answered: the three-stone openings of the games
    /// of five are white to move, and black's win is the question.
    #[arg(long, value_enum, value_name = "SIDE")]
    side: Option<super::Side>,
    /// Threat moves on any line of the proof before the leaf search's win (the search tries
    /// 0, 1, … up to this).
    #[arg(long, default_value_t = 2, value_name = "N")]
    threats: u32,
    /// Search every N-th budget of threats (and `--threats` always) instead of each: fewer
    /// budgets that fail, at the risk of proving with one threat more than needed, at more
    /// cost (docs/design/prove.md, step 14).
    #[arg(long, default_value_t = 1, value_name = "N")]
    threat_step: u32,
    /// From this rank on, an attacker's move costs one threat more (0: never): the first few
    /// moves at a node search a threat deeper for the same budget, the others a budget later
    /// (docs/search.md, "Late moves").
    #[arg(long, default_value_t = 0, value_name = "RANK")]
    late: usize,
    /// The depth in plies of the first search, at the root: `solve`'s (so `prove` proves
    /// every win `solve` finds).
    #[arg(long, default_value_t = cpbim::search::DEFAULT_DEPTH, value_name = "PLIES")]
    depth: u32,
    /// The leaf search's depth in plies below the root (whole rounds: a multiple of 4 in
    /// Connect6, of 2 in the games of five).
    #[arg(long, default_value_t = 24, value_name = "PLIES")]
    leaf_depth: u32,
    /// Nodes of one leaf search (one that runs out counts as no win).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    leaf_nodes: u64,
    /// Threat moves tried at each attacker node, the most promising first.
    #[arg(long, default_value_t = 24, value_name = "N")]
    width: usize,
    /// Quiet moves at each attacker node once its threats fail (0: none): those of its N best
    /// candidates that are no threats, tried as moves after which, were the defender to pass,
    /// the attacker would win by threats (a quiet move spends one threat; the games of one
    /// stone a move only; either search).
    #[arg(long, default_value_t = 0, value_name = "N")]
    quiet: usize,
    /// How deep quiet moves nest: 1, a quiet move's pass win uses threats only; 2, it may use
    /// quiet moves of its own (whose pass wins use threats only); and so on. With `--side`,
    /// the root's pass win is searched as a quiet move's is (one level down).
    #[arg(long, default_value_t = 1, value_name = "N")]
    quiet_depth: usize,
    /// Stop after this many nodes (result `stopped`).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Stop after this many seconds (result `stopped`).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// How the tree is searched: `depth-first` or `proof-number` (df-pn: where the proof
    /// looks cheapest first), each with the threat budget deepened from 0. The same positions
    /// are proven within the same limits.
    #[arg(long, value_enum, default_value_t = SearchName::DepthFirst)]
    search: SearchName,
    /// Threads (default: all cores). The depth-first search runs the root's threat moves (or,
    /// with `--side`, the defender's moves) as jobs on them; the proof-number search runs on
    /// one.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// With `--side`, in the games of one stone a move: prove each reply of the side to move
    /// in a search of its own, SECONDS each at first, then those still open with 4× as long,
    /// and so on (`--time` bounds the whole), farthest from the stones first, on `--threads`
    /// at once; one hard reply no longer holds up the others (docs/search.md, "Each reply on
    /// its own"). With `--store`, run again to resume.
    #[arg(long, value_name = "SECONDS")]
    each_reply: Option<f64>,
    /// Answer every legal defence, not only those inside the relevance zone (the reference
    /// the zone is measured against; much slower).
    #[arg(long)]
    full_width: bool,
    /// Keep proven and failed positions in this redb database (created when absent): a
    /// stopped search run again with the same store resumes where it was, and later searches
    /// reuse every proof in it (docs/search.md, "The store").
    #[arg(long, value_name = "PATH")]
    store: Option<std::path::PathBuf>,
    /// Only positions whose search took at least this many nodes go to the store (the root
    /// always; 0: every position, which grows the store by gigabytes an hour).
    #[arg(long, default_value_t = prove::limits::DEFAULT_STORE_MIN_NODES, value_name = "N")]
    store_min_nodes: u64,
    /// Try first, at each position this book knows, the move that proved it before, and
    /// start the root's budgets at the book's threats (a file `cpbim store book` wrote;
    /// docs/search.md, "Books"): the proof is found again, and checked, at the cost of the
    /// proof.
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Write the proof, when one is found, to this file as JSON (docs/json.md).
    #[arg(long, value_name = "FILE")]
    proof: Option<std::path::PathBuf>,
    /// Write the proof, when one is found, to this file as SGF: the position, then the proof
    /// as variations (every defence it lists, and the pass win for the others).
    #[arg(long, value_name = "FILE")]
    sgf: Option<std::path::PathBuf>,
    /// One JSON object, the proof included (docs/json.md).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ProveArgs) -> Result<()> {
    let text = input::one_game(&args.input, "prove")?;
    let record = input::game_record(&text, args.input.reading())?;
    let pos = cpbim::report::to_play(&record).map_err(anyhow::Error::msg)?;
    let game = *pos.game();
    let side = args.side.map_or(pos.to_move(), super::Side::color);
    if let Some(why) = prove::cannot_start(&pos, side) {
        anyhow::bail!(why);
    }
    let limits = limits_of(args, &pos)?;
    let each_reply = match args.each_reply {
        None => None,
        Some(s) => match prove::each_reply::refusal(&pos, side) {
            Some(why) => super::usage!("--each-reply: {why}"),
            None => Some(limits::seconds("each-reply", s)?),
        },
    };
    super::interrupt::soften();
    let progress = limits.progress.clone().expect("set by limits_of");
    let stop = &super::STOP;
    let (answer, replies) = with_progress(&progress, || {
        super::with_game_model!(game, ModelName::Cpbim, M => {
            Ok::<_, anyhow::Error>(prove::each_reply::prove_or_each::<M>(&pos, side, &limits, each_reply, stop))
        })
    })?;
    // A store that failed ends the command with its error, after the answer and the proof
    // are written: nothing found is lost with it.
    if let (Some(path), Verdict::Proven(proof)) = (&args.proof, &answer.verdict) {
        let json = serde_json::to_string(proof)?;
        cpbim::files::write(path, json + "\n")
            .with_context(|| format!("writing the proof to {}", path.display()))?;
    }
    if let (Some(path), Verdict::Proven(proof)) = (&args.sgf, &answer.verdict) {
        let sgf = prove::sgf::proof_sgf(&pos, side, proof);
        cpbim::files::write(path, sgf + "\n")
            .with_context(|| format!("writing the proof to {}", path.display()))?;
    }
    if args.json {
        let mut json = prove::report::AnswerJson::new(&pos, side, &limits, &answer);
        if let Some((replies, total)) = &replies {
            prove::each_reply::add_json(&mut json.head, replies, total);
        }
        outln!("{}", serde_json::to_string(&json)?)?;
    } else {
        outln!("{}", text_of(side, &limits, &answer))?;
        if let Some((replies, total)) = &replies {
            outln!("  {}", replies_text(replies, total))?;
        }
    }
    match (&answer.store_error, &answer.verdict) {
        (Some(e), Verdict::Proven(_)) => {
            anyhow::bail!("{e}; the proof is in the answer above but not in the store")
        }
        (Some(e), _) => {
            anyhow::bail!("{e}; the search stopped (what was committed before stays in the store)")
        }
        (None, _) => Ok(()),
    }
}

/// How the replies' searches ended: how many proven, in how many rounds, and what they cost
/// over every run.
fn replies_text(replies: &[prove::each_reply::ReplyResult], total: &prove::Effort) -> String {
    if replies.is_empty() {
        return "the root's proof was in the store".to_string();
    }
    let count = |r: &str| replies.iter().filter(|x| x.effort.result == r).count();
    format!(
        "each reply on its own: {} of {} proven, {} not proven, {} stopped, {} not searched, \
         in {}; {} in all, {:.1} s",
        count("proven"),
        replies.len(),
        count("not proven"),
        count("stopped"),
        count("not searched"),
        cpbim::text::counted(total.passes as u64, "round"),
        cpbim::text::counted(total.nodes, "node"),
        total.time_ms / 1e3,
    )
}

/// The search's limits from the options (checked).
fn limits_of(args: &ProveArgs, pos: &Position) -> Result<Limits> {
    let mut limits = Limits {
        threats: args.threats,
        threat_step: args.threat_step,
        late: args.late,
        root_depth: limits::depth("depth", args.depth, pos.game())?,
        leaf_depth: limits::depth("leaf-depth", args.leaf_depth, pos.game())?,
        leaf_nodes: args.leaf_nodes,
        width: args.width,
        quiet: args.quiet,
        quiet_depth: args.quiet_depth,
        max_nodes: args.nodes,
        max_time: args.time.map(|t| limits::seconds("time", t)).transpose()?,
        zone: !args.full_width,
        search: match args.search {
            SearchName::ProofNumber => prove::Search::ProofNumber,
            SearchName::DepthFirst => prove::Search::DepthFirst,
        },
        threads: match (args.search, args.threads) {
            (SearchName::ProofNumber, Some(n)) if n > 1 => super::usage!(
                "--threads {n}: the proof-number search runs on one thread (the depth-first one on many)"
            ),
            (SearchName::ProofNumber, _) => 1,
            (SearchName::DepthFirst, n) => limits::threads(n),
        },
        progress: Some(Arc::new(prove::Progress::default())),
        store: None,
        store_min_nodes: args.store_min_nodes,
        book: None,
    };
    if let Some(why) = limits.refusal(pos.game()) {
        super::usage!("{why}");
    }
    if let Some(path) = &args.store {
        limits.store = Some(Arc::new(Mutex::new(prove::Store::open(path)?)));
    }
    if let Some(path) = &args.book {
        limits.book = Some(Arc::new(read_book(path, *pos.game())?));
    }
    Ok(limits)
}

/// The book at `path`, of `game` (a book of another game is a usage error).
pub fn read_book(path: &std::path::Path, game: cpbim::Game) -> Result<prove::Book> {
    let text = cpbim::files::read_text(path, cpbim::files::MAX_FILE)?;
    let book = prove::Book::parse(&text).with_context(|| format!("book {}", path.display()))?;
    if let Some(why) = prove::book::refusal(&book, game) {
        super::usage!("book {}: {why}", path.display());
    }
    Ok(book)
}

/// Run `work` with a progress line on stderr (nodes, threat budget, leaf searches, table).
fn with_progress<T>(progress: &prove::Progress, work: impl FnOnce() -> T) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let bar = Progress::spinner();
            let mut waited = Duration::ZERO;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                waited += Duration::from_millis(100);
                if waited >= Duration::from_secs(1) {
                    let root = match (
                        progress.root_pn.load(Ordering::Relaxed),
                        progress.root_dn.load(Ordering::Relaxed),
                        progress.root_total.load(Ordering::Relaxed),
                    ) {
                        (0, 0, 0) => String::new(),
                        (0, 0, total) => format!(
                            ", root {} of {total} settled",
                            progress.root_done.load(Ordering::Relaxed)
                        ),
                        (pn, dn, _) => format!(", root pn {pn} dn {dn}"),
                    };
                    bar.message(format!(
                        "proving: threats ≤ {}{root}, {} nodes, {} leaf searches, {} positions known{}",
                        progress.threats.load(Ordering::Relaxed),
                        progress.nodes.load(Ordering::Relaxed),
                        progress.leaf_searches.load(Ordering::Relaxed),
                        progress.known.load(Ordering::Relaxed),
                        match progress.stored.load(Ordering::Relaxed) {
                            0 => String::new(),
                            n => format!(", store {n}"),
                        },
                    ));
                    bar.inc(0);
                }
            }
            bar.finish();
        });
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    })
}

fn limits_text(l: &Limits) -> String {
    format!(
        "threats ≤ {}{}{}, leaf depth {} plies, width {}{}{}",
        l.threats,
        match l.threat_step {
            1 => String::new(),
            n => format!(" (budgets in steps of {n})"),
        },
        match l.late {
            0 => String::new(),
            n => format!(", moves from rank {n} a threat dearer"),
        },
        l.leaf_depth,
        l.width,
        match (l.quiet, l.quiet_depth) {
            (0, _) => String::new(),
            (n, 1) => format!(", {n} quiet moves"),
            (n, d) => format!(", {n} quiet moves nested {d} deep"),
        },
        if l.zone { "" } else { ", full width" }
    )
}

/// `proven: black wins with 1 threat (first I8)  (…)`, or why not.
fn text_of(a: Color, l: &Limits, answer: &Answer) -> String {
    let head = match &answer.verdict {
        Verdict::Proven(proof) => {
            let first = match proof {
                prove::ThreatProof::Leaf { leaf } => {
                    format!("the leaf search's win, {}", line_text(&leaf.line()))
                }
                prove::ThreatProof::Threat { threat, .. } => {
                    format!("first threat {}", stones_text(threat))
                }
                prove::ThreatProof::Quiet { quiet, .. } => {
                    format!("first a quiet move, {}", stones_text(quiet))
                }
                prove::ThreatProof::Defence { replies, .. } => format!(
                    "{} to move: every move answered, {} by a proof of its own",
                    a.opponent().name(),
                    replies.len()
                ),
            };
            format!(
                "proven: {} wins with {} on the longest line ({first})",
                a.name(),
                cpbim::text::counted(proof.threats(), "threat"),
            )
        }
        Verdict::NotProven => format!(
            "not proven within the limits ({}); this says nothing of who wins{}",
            limits_text(l),
            match &answer.refutation {
                Some(stones) => format!(
                    "\n  {}'s {} is not answered within them",
                    a.opponent().name(),
                    stones_text(stones)
                ),
                None => String::new(),
            }
        ),
        Verdict::Stopped => format!(
            "stopped at threat budget {} ({}): not proven",
            answer.threats,
            limits_text(l)
        ),
    };
    format!(
        "{head}\n  {} nodes, {} leaf searches ({} nodes), {:.3} s ({}){}{}",
        answer.nodes,
        answer.leaf_searches,
        answer.leaf_nodes,
        answer.time.as_secs_f64(),
        match l.threads {
            1 => format!(
                "{:.0} % in leaf searches",
                100.0 * answer.leaf_time.as_secs_f64() / answer.time.as_secs_f64().max(1e-9)
            ),
            n => format!(
                "{:.3} s of leaf searches on {n} threads",
                answer.leaf_time.as_secs_f64()
            ),
        },
        match (&l.store, answer.store_hits) {
            (None, _) => String::new(),
            (Some(_), 1) => ", 1 position answered by the store".to_string(),
            (Some(_), n) => format!(", {n} positions answered by the store"),
        },
        match (&l.book, answer.book_moves) {
            (None, _) => String::new(),
            (Some(_), 1) => ", 1 position proven by the book's move".to_string(),
            (Some(_), n) => format!(", {n} positions proven by the book's move"),
        }
    )
}
