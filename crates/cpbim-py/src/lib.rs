//! `cpbim._cpbim`, the native module of the `cpbim` Python package: the library's answers as
//! Python objects. Every answer is the JSON object the command line prints with `--json`
//! (docs/json.md), built by the same library functions and converted by `pythonize`, so a
//! dict from Python equals the CLI's object key for key.
//!
//! Every search runs on a thread of its own while the calling thread waits with the
//! interpreter lock released (`Python::detach`): other Python threads run meanwhile, several
//! searches run in parallel, and Ctrl-C (a signal the interpreter sees while it waits) stops the
//! search and raises `KeyboardInterrupt`. Bad input and bad options raise `ValueError` with the
//! command line's message; a panic inside the library raises `RuntimeError`.

mod games;

use cpbim::batch::{self, LineResult};
use cpbim::notation::Format;
use cpbim::search::{tt::DEFAULT_ENTRIES, Config, DEFAULT_DEPTH};
use cpbim::{Color, Game, Reading, Record};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Stack of the thread a search runs on: the command line's main thread has 8 MiB; the
/// calling Python thread may have less.
const STACK: usize = 16 << 20;

/// How often the waiting thread looks for a signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// `message` as a Python `ValueError`.
fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// The `RuntimeError` of a panic caught inside the library.
fn internal_error(panic: &(dyn std::any::Any + Send)) -> PyErr {
    PyRuntimeError::new_err(batch::internal_error(panic))
}

/// Run `work` on a thread of its own while this one waits without the interpreter lock, so
/// other Python threads run. The waiting thread checks for signals every [`SIGNAL_POLL`]: on
/// Ctrl-C it sets the stop flag `work` is given, waits for `work` to end (searches end at once
/// when stopped) and raises the signal's exception. A panic in `work` is a `RuntimeError`.
fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> T + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let (tx, rx) = mpsc::channel();
    // Shared with the closures that wait without the lock (a receiver alone is not `Sync`).
    let rx = std::sync::Mutex::new(rx);
    let receive = |timeout: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        }
    };
    std::thread::Builder::new()
        .name("cpbim".into())
        .stack_size(STACK)
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&flag)));
            // The receiver waits until this is sent; it is gone only if the waiting thread
            // itself failed, and then nobody wants the answer.
            let _ = tx.send(result);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("starting a search thread: {e}")))?;
    loop {
        match py.detach(|| receive(Some(SIGNAL_POLL))) {
            Ok(result) => return result.map_err(|panic| internal_error(panic.as_ref())),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    // The work ends soon once stopped; its answer is dropped.
                    let _ = py.detach(|| receive(None));
                    return Err(signal);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread ended without an answer",
                ))
            }
        }
    }
}

/// `value` (a JSON object of the library) as Python objects: dicts, lists, str, int, float,
/// bool, None.
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: converting an answer: {e}")))
}

/// The game `name` names (`connect6`, `gomoku:20`, `connect(9,9,5,1,1)`, …).
fn game_of(name: &str) -> PyResult<Game> {
    name.parse::<Game>()
        .map_err(|e| value_error(format!("game {name:?}: {e}")))
}

/// `"black"` or `"white"` (or `None`) as a side.
fn side_of(side: Option<&str>) -> PyResult<Option<Color>> {
    match side {
        None => Ok(None),
        Some(name) => Color::of_name(name)
            .map(Some)
            .ok_or_else(|| value_error(format!("to_move {name:?}: give \"black\" or \"white\""))),
    }
}

/// How to read games of `game` with `to_move` for a puzzle diagram.
fn reading(game: &str, to_move: Option<&str>) -> PyResult<Reading> {
    Ok(Reading {
        game: game_of(game)?,
        to_move: side_of(to_move)?,
    })
}

/// An optional whole-number option: `None`, or an `int` within `T`'s range (`ValueError`
/// otherwise; a value of another type is a `TypeError`).
fn whole<T>(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<T>>
where
    T: for<'a, 'py> FromPyObject<'a, 'py> + num::Bounded,
{
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    value.extract::<T>().map(Some).map_err(|_| {
        value_error(format!(
            "{name} {value}: give a whole number from 0 to {}",
            T::MAX_TEXT
        ))
    })
}

/// The largest value of an integer option's type, for messages.
mod num {
    /// An unsigned integer type with its largest value written out.
    pub trait Bounded {
        /// `u32::MAX` or `u64::MAX` in digits.
        const MAX_TEXT: &'static str;
    }
    impl Bounded for u32 {
        const MAX_TEXT: &'static str = "4294967295";
    }
    impl Bounded for u64 {
        const MAX_TEXT: &'static str = "18446744073709551615";
    }
}

/// The search configuration of `cpbim solve` with these limits (checked as the command line
/// checks them: whole rounds, at most 250 of them; a positive number of seconds).
fn solve_config(
    game: &Game,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    proof: bool,
) -> PyResult<Config> {
    Ok(Config {
        depth: cpbim::limits::depth("depth", depth.unwrap_or(DEFAULT_DEPTH), game)
            .map_err(value_error)?,
        max_nodes: nodes,
        max_time: time
            .map(|t| cpbim::limits::seconds("time", t))
            .transpose()
            .map_err(value_error)?,
        tt_entries: DEFAULT_ENTRIES,
        complete: true,
        proof,
        ..Config::default()
    })
}

/// `solve(position, game="connect6", depth=None, nodes=None, time=None, proof=False,
/// to_move=None)`: the object `cpbim solve --json` prints for the game `position`.
#[pyfunction]
#[pyo3(signature = (position, game="connect6", depth=None, nodes=None, time=None, proof=false, to_move=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    position: &str,
    game: &str,
    depth: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    proof: bool,
    to_move: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let how = reading(game, to_move)?;
    let config = solve_config(
        &how.game,
        whole("depth", depth)?,
        whole("nodes", nodes)?,
        time,
        proof,
    )?;
    let text = position.to_string();
    let answer = run(py, move |stop| {
        let record = cpbim::parse_record(&text, how).map_err(|e| e.to_string())?;
        Ok::<_, String>(cpbim::report::answer_json(&batch::answer_cpbim(
            &record, &config, stop,
        )))
    })?
    .map_err(value_error)?;
    to_python(py, &answer)
}

/// `solve_batch(lines, game="connect6", depth=None, nodes=None, time=None, proof=False,
/// to_move=None, threads=1)`: one object per line, in order, as `cpbim solve --json` prints
/// them for a file of these lines (without `"input_line"`: the list's index is the line);
/// a line that is not a game gets `{"error": …}`.
#[pyfunction]
#[pyo3(signature = (lines, game="connect6", depth=None, nodes=None, time=None, proof=false, to_move=None, threads=1))]
#[allow(clippy::too_many_arguments)]
fn solve_batch<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    game: &str,
    depth: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    proof: bool,
    to_move: Option<&str>,
    threads: i64,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let how = reading(game, to_move)?;
    let config = solve_config(
        &how.game,
        whole("depth", depth)?,
        whole("nodes", nodes)?,
        time,
        proof,
    )?;
    let threads = thread_count(threads)?;
    if lines.is_instance_of::<PyString>() || lines.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "lines must be a list of lines (str or bytes), not one string",
        ));
    }
    let mut bytes = Vec::new();
    for item in lines.try_iter()? {
        let item = item?;
        if let Ok(s) = item.cast::<PyString>() {
            bytes.push(s.to_cow()?.as_bytes().to_vec());
        } else if let Ok(b) = item.cast::<PyBytes>() {
            bytes.push(b.as_bytes().to_vec());
        } else {
            return Err(PyTypeError::new_err(format!(
                "lines must hold str or bytes, not {}",
                item.get_type().name()?
            )));
        }
    }
    // Blank and comment-only lines are not games, as in every reader of a batch (docs/formats.md):
    // they answer None, so that answer i stays the answer to line i.
    let games: Vec<bool> = bytes
        .iter()
        .map(|b| !cpbim::notation::is_blank(&String::from_utf8_lossy(b)))
        .collect();
    let lines: Vec<Vec<u8>> = bytes
        .into_iter()
        .zip(&games)
        .filter(|(_, &game)| game)
        .map(|(b, _)| b)
        .collect();
    let results: Vec<LineResult> = run(py, move |stop| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("starting threads: {e}"))?;
        Ok::<_, String>(
            pool.install(|| batch::solve_lines_cpbim(&lines, how, &config, stop, &|_| {})),
        )
    })?
    .map_err(PyRuntimeError::new_err)?;
    let mut results = results.iter();
    games
        .iter()
        .map(|&game| {
            if !game {
                return Ok(py.None().into_bound(py));
            }
            let r = results.next().expect("an answer for every game line");
            to_python(py, &cpbim::report::line_json(r))
        })
        .collect()
}

/// `kb_stats(game=None)`: `cpbim kb stats --json` (Tables 1 and 2), or with a game
/// `cpbim kb stats --game GAME --json` (the game's tables).
#[pyfunction]
#[pyo3(signature = (game=None))]
fn kb_stats<'py>(py: Python<'py>, game: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let game = game.map(game_of).transpose()?;
    let value = run(py, move |_| match game {
        None => cpbim::report::kb_stats_json(&cpbim::kb::stats()),
        Some(game) => cpbim::report::kb_game_json(&game, &cpbim::kb::colour_tables(&game)),
    })?;
    to_python(py, &value)
}

/// `move(position, game="connect6", depth=None, time=None, to_move=None, player="cpbim")`: the
/// object `cpbim move --json` prints: the engine's move with its evaluation and line.
#[pyfunction(name = "move")]
#[pyo3(signature = (position, game="connect6", depth=None, time=None, to_move=None, player="cpbim"))]
fn engine_move<'py>(
    py: Python<'py>,
    position: &str,
    game: &str,
    depth: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    to_move: Option<&str>,
    player: &str,
) -> PyResult<Bound<'py, PyAny>> {
    use cpbim::engine::{player_for, Limits, PlayerKind, Tuning};
    let how = reading(game, to_move)?;
    let depth = whole::<u32>("depth", depth)?;
    if depth.is_some() && time.is_some() {
        return Err(value_error("give depth or time, not both"));
    }
    let limits = Limits {
        time: time
            .map(|t| cpbim::limits::seconds("time", t))
            .transpose()
            .map_err(value_error)?,
        depth: depth
            .map(cpbim::limits::engine_depth)
            .transpose()
            .map_err(|e| value_error(e.replacen("--depth", "depth", 1)))?,
        clock: None,
    };
    let kind: PlayerKind = player.parse().map_err(value_error)?;
    let text = position.to_string();
    let choice = run(py, move |stop| {
        let record = cpbim::parse_record(&text, how).map_err(|e| e.to_string())?;
        let pos = cpbim::report::to_play(&record)?;
        let tuning = Tuning::read(None, None)?;
        let mut player = player_for(kind, pos.game(), tuning.for_game(pos.game()))
            .map_err(|e| format!("player: {e}"))?;
        Ok::<_, String>(cpbim::report::choice_json(
            &player.choose_until(&pos, limits, stop),
        ))
    })?
    .map_err(value_error)?;
    to_python(py, &choice)
}

/// `analyze(position, game="connect6", depth=None, nodes=None, time=None, to_move=None,
/// defenses=False, radius=2, eval=True, verdicts=True, threads=1)`: the objects
/// `cpbim analyze --json` prints for one game, one per move boundary and one for the end of a
/// finished game.
#[pyfunction]
#[pyo3(signature = (position, game="connect6", depth=None, nodes=None, time=None, to_move=None, defenses=false, radius=2, eval=true, verdicts=true, threads=1))]
#[allow(clippy::too_many_arguments)]
fn analyze<'py>(
    py: Python<'py>,
    position: &str,
    game: &str,
    depth: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    to_move: Option<&str>,
    defenses: bool,
    radius: usize,
    eval: bool,
    verdicts: bool,
    threads: i64,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    use cpbim::analyze::{analysis_json, analyze_record, AnalyzeConfig};
    let how = reading(game, to_move)?;
    let cfg = AnalyzeConfig {
        search: solve_config(
            &how.game,
            whole("depth", depth)?,
            whole("nodes", nodes)?,
            time,
            false,
        )?,
        defenses,
        radius,
        prove: None,
        eval,
        review: verdicts,
    };
    let threads = thread_count(threads)?;
    let text = position.to_string();
    let objects = run(py, move |stop| {
        let record = cpbim::opening::parse_game_or_name(&text, how).map_err(|e| e.to_string())?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("starting threads: {e}"))?;
        let analysis = pool
            .install(|| {
                cpbim::with_cpbim_model!(record.game(), M => {
                    analyze_record::<M>(&record, &cfg, stop, &|_| {})
                })
            })
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(analysis_json(&analysis))
    })?
    .map_err(value_error)?;
    objects.iter().map(|v| to_python(py, v)).collect()
}

/// A whole-number option given as an `int`: within `T`'s range, else `ValueError`.
fn count<T: TryFrom<i64>>(name: &str, value: i64) -> PyResult<T> {
    T::try_from(value).map_err(|_| value_error(format!("{name} {value}: out of range")))
}

/// `prove(position, game="connect6", side=None, threats=2, depth=None, leaf_depth=24,
/// leaf_nodes=1000000, width=24, quiet=0, quiet_depth=1, nodes=None, time=None,
/// full_width=False, search="depth-first", threads=1, to_move=None, threat_step=1,
/// each_reply=None, late=0, book=None)`: the object `cpbim prove --json` prints; `each_reply=S`
/// is `--each-reply S` (each reply of the side to move in a search of its own), `book=PATH`
/// `--book PATH` (a file `cpbim store book` wrote: `OSError` when it cannot be read,
/// `ValueError` when it does not read as a book of `game`).
#[pyfunction]
#[pyo3(signature = (position, game="connect6", side=None, threats=2, depth=None, leaf_depth=24, leaf_nodes=1_000_000, width=24, quiet=0, quiet_depth=1, nodes=None, time=None, full_width=false, search="depth-first", threads=1, to_move=None, threat_step=1, each_reply=None, late=0, book=None))]
#[allow(clippy::too_many_arguments)]
fn prove<'py>(
    py: Python<'py>,
    position: &str,
    game: &str,
    side: Option<&str>,
    threats: i64,
    depth: Option<&Bound<'py, PyAny>>,
    leaf_depth: i64,
    leaf_nodes: i64,
    width: i64,
    quiet: i64,
    quiet_depth: i64,
    nodes: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    full_width: bool,
    search: &str,
    threads: i64,
    to_move: Option<&str>,
    threat_step: i64,
    each_reply: Option<f64>,
    late: i64,
    book: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    use cpbim::prove::{self, Limits, Search};
    let how = reading(game, to_move)?;
    let side = prove_side(side)?;
    let search = match search {
        "depth-first" => Search::DepthFirst,
        "proof-number" => Search::ProofNumber,
        other => {
            return Err(value_error(format!(
                "search {other:?}: give \"depth-first\" or \"proof-number\""
            )))
        }
    };
    let on_cores = thread_count(threads)?;
    // As the CLI: the threads asked for, not those this machine gives (a machine of one core
    // would otherwise accept `threads=2` here).
    if search == Search::ProofNumber && threads > 1 {
        return Err(value_error(format!(
            "threads {threads}: the proof-number search runs on one thread (the depth-first one on many)"
        )));
    }
    let threads = match search {
        Search::ProofNumber => 1,
        Search::DepthFirst => on_cores,
    };
    let limits = Limits {
        threats: count("threats", threats)?,
        threat_step: count("threat_step", threat_step)?,
        late: count("late", late)?,
        book: book.map(|path| read_book(&path, &how.game)).transpose()?,
        root_depth: cpbim::limits::depth(
            "depth",
            whole("depth", depth)?.unwrap_or(cpbim::search::DEFAULT_DEPTH),
            &how.game,
        )
        .map_err(value_error)?,
        quiet: count("quiet", quiet)?,
        quiet_depth: count("quiet_depth", quiet_depth)?,
        max_nodes: whole("nodes", nodes)?,
        max_time: time
            .map(|t| cpbim::limits::seconds("time", t))
            .transpose()
            .map_err(value_error)?,
        search,
        threads,
        ..leaf_limits(&how.game, leaf_depth, leaf_nodes, width, full_width)?
    };
    if let Some(why) = limits.refusal(&how.game) {
        return Err(value_error(why));
    }
    let text = position.to_string();
    let answer = run(py, move |stop| {
        let (pos, side) = prove_start(&text, how, side)?;
        let first = match each_reply {
            None => None,
            Some(s) => match prove::each_reply::refusal(&pos, side) {
                Some(why) => return Err(format!("each_reply: {why}")),
                None => Some(cpbim::limits::seconds("each_reply", s)?),
            },
        };
        let (answer, replies) = cpbim::with_cpbim_model!(pos.game(), M => prove::each_reply::prove_or_each::<M>(&pos, side, &limits, first, stop));
        let mut json = prove::report::answer_json(&pos, side, &limits, &answer);
        if let Some((replies, total)) = &replies {
            prove::each_reply::add_json(&mut json, replies, total);
        }
        Ok::<_, String>(json)
    })?
    .map_err(value_error)?;
    to_python(py, &answer)
}

/// The book at `path`, of `game`, as `cpbim prove --book` reads it.
fn read_book(path: &std::path::Path, game: &Game) -> PyResult<Arc<cpbim::prove::Book>> {
    // A file read that is no text, or too large a one, does not read as a book: ValueError.
    let text =
        cpbim::files::read_text(path, cpbim::files::MAX_FILE).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => value_error(format!("book {e}")),
            _ => e.into(),
        })?;
    cpbim::prove::book::parse_for(&text, *game)
        .map(Arc::new)
        .map_err(|why| value_error(format!("book {}: {why}", path.display())))
}

/// `side` of `prove` and `prove_expand`: the side whose win is asked (`None`: the side to move).
fn prove_side(side: Option<&str>) -> PyResult<Option<Color>> {
    side_of(side).map_err(|_| value_error(format!("side {side:?}: give \"black\" or \"white\"")))
}

/// The position of a proof search read from `text`, and the side whose win is asked (`side`,
/// or the side to move); the refusal of a position where it cannot start.
fn prove_start(
    text: &str,
    how: Reading,
    side: Option<Color>,
) -> Result<(cpbim::Position, Color), String> {
    let record = cpbim::opening::parse_game_or_name(text, how).map_err(|e| e.to_string())?;
    let pos = cpbim::report::to_play(&record)?;
    let side = side.unwrap_or(pos.to_move());
    match cpbim::prove::cannot_start(&pos, side) {
        Some(why) => Err(why),
        None => Ok((pos, side)),
    }
}

/// The limits of a proof search's leaves and width (`leaf_depth`, `leaf_nodes`, `width`, the
/// zone unless `full_width`), the others at `cpbim prove`'s defaults.
fn leaf_limits(
    game: &Game,
    leaf_depth: i64,
    leaf_nodes: i64,
    width: i64,
    full_width: bool,
) -> PyResult<cpbim::prove::Limits> {
    Ok(cpbim::prove::Limits {
        leaf_depth: cpbim::limits::depth("leaf_depth", count("leaf_depth", leaf_depth)?, game)
            .map_err(value_error)?,
        leaf_nodes: count("leaf_nodes", leaf_nodes)?,
        width: count("width", width)?,
        zone: !full_width,
        ..cpbim::prove::Limits::default()
    })
}

/// `prove_expand(position, game="connect6", side=None, leaf_depth=24, leaf_nodes=1000000,
/// width=24, full_width=False, to_move=None)`: one node of `prove`'s search expanded, for a
/// proof-number tree kept in Python (`cpbim.dask.prove`): `{"node": "lost"}`, `{"node":
/// "leaf", "proof": {"leaf": NODE}}`, `{"node": "attacker", "moves": [[stones], …]}` (the
/// side's threat moves) or `{"node": "defender", "pass": NODE | None, "moves": [[stones],
/// …]}` (the moves inside the zone of the side's win were the defender to pass). Games of one
/// stone a move.
#[pyfunction]
#[pyo3(signature = (position, game="connect6", side=None, leaf_depth=24, leaf_nodes=1_000_000, width=24, full_width=false, to_move=None))]
#[allow(clippy::too_many_arguments)]
fn prove_expand<'py>(
    py: Python<'py>,
    position: &str,
    game: &str,
    side: Option<&str>,
    leaf_depth: i64,
    leaf_nodes: i64,
    width: i64,
    full_width: bool,
    to_move: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    use cpbim::prove;
    let how = reading(game, to_move)?;
    let side = prove_side(side)?;
    if how.game.p() != 1 {
        return Err(value_error(format!(
            "{}: the job level expands games of one stone a move",
            how.game
        )));
    }
    let limits = leaf_limits(&how.game, leaf_depth, leaf_nodes, width, full_width)?;
    let text = position.to_string();
    let answer = run(py, move |stop| {
        let (pos, side) = prove_start(&text, how, side)?;
        let e = cpbim::with_cpbim_model!(pos.game(), M => prove::expand::<M>(&pos, side, &limits, stop));
        Ok::<_, String>(prove::expansion_json(&e.expect("a game of one stone a move")))
    })?
    .map_err(value_error)?;
    to_python(py, &answer)
}

/// `threads` of a call: 0 for every core, more than the cores capped at them.
fn thread_count(threads: i64) -> PyResult<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match usize::try_from(threads) {
        Err(_) => Err(value_error(format!(
            "threads {threads}: give 1 or more (0: every core)"
        ))),
        Ok(0) => Ok(cores),
        Ok(n) => Ok(n.min(cores)),
    }
}

/// A test hook: a panic inside the library, which must arrive as a `RuntimeError`.
#[pyfunction]
fn _panic(py: Python<'_>) -> PyResult<()> {
    run(py, |_| {
        panic!("a panic raised on purpose by cpbim._cpbim._panic")
    })
}

/// The formats `Position.to_text` writes, by name (`cpbim position --format`).
fn format_of(name: &str) -> PyResult<Format> {
    Ok(match name {
        "list" => Format::List,
        "diagram" => Format::Diagram,
        "sgf" => Format::Sgf,
        "contest" => Format::Contest,
        "csv" => Format::Csv,
        other => {
            return Err(value_error(format!(
                "format {other:?}: give list, diagram, sgf, contest or csv"
            )))
        }
    })
}

/// A game read from any format the command line reads.
#[pyclass(module = "cpbim", name = "Position", frozen)]
struct Position {
    record: Record,
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text, game="connect6", to_move=None))]
    fn new(text: &str, game: &str, to_move: Option<&str>) -> PyResult<Position> {
        let how = reading(game, to_move)?;
        let record = std::panic::catch_unwind(|| cpbim::parse_record(text, how))
            .map_err(|panic| internal_error(panic.as_ref()))?
            .map_err(value_error)?;
        Ok(Position { record })
    }

    /// The stones in play order (for a diagram, an order that replays to it).
    #[getter]
    fn stones(&self) -> Vec<String> {
        self.record.stones().iter().map(|p| p.to_string()).collect()
    }

    /// The side to move: `"black"` or `"white"` (for a finished game, the loser).
    #[getter]
    fn to_move(&self) -> &'static str {
        self.record.to_move().name()
    }

    /// The game, as `cpbim` names it (`connect6`, `gomoku`, …).
    #[getter]
    fn game(&self) -> String {
        self.record.game().to_string()
    }

    /// Stones placed in one move: 2 in Connect6, 1 in the games of five (`p` of
    /// connect(m,n,k,p,q)).
    #[getter]
    fn stones_per_move(&self) -> usize {
        self.record.game().p()
    }

    /// Whether the play order was read (false for a diagram).
    #[getter]
    fn ordered(&self) -> bool {
        self.record.ordered()
    }

    /// For a finished game, `cpbim solve --json`'s `finished` object; else `None`.
    #[getter]
    fn finished<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.record
            .win()
            .map(|w| to_python(py, &cpbim::report::finished_json(w)))
            .transpose()
    }

    /// The game in `format` (`list`, `diagram`, `sgf`, `contest`, `csv`), as
    /// `cpbim position --format FORMAT` writes it.
    #[pyo3(signature = (format="list"))]
    fn to_text(&self, format: &str) -> PyResult<String> {
        cpbim::report::position_text(&self.record, format_of(format)?, false).map_err(value_error)
    }

    /// The game as SGF (`cpbim position --format sgf`).
    fn to_sgf(&self) -> PyResult<String> {
        self.to_text("sgf")
    }

    fn __repr__(&self) -> String {
        let game = self.record.game().to_string();
        match cpbim::notation::write(&self.record, Format::List) {
            Ok(list) if self.record.ordered() => {
                format!("Position({list:?}, game={game:?})")
            }
            _ => format!(
                "<cpbim.Position: {game} diagram, {} stones, {} to move>",
                self.record.stones().len(),
                self.record.to_move()
            ),
        }
    }

    fn __str__(&self) -> PyResult<String> {
        self.to_text("diagram")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|o| o.get().record == self.record)
    }
}

/// The native module.
#[pymodule]
fn _cpbim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(kb_stats, m)?)?;
    m.add_function(wrap_pyfunction!(engine_move, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(prove_expand, m)?)?;
    m.add_function(wrap_pyfunction!(games::play_game, m)?)?;
    m.add_function(wrap_pyfunction!(games::tally, m)?)?;
    m.add_function(wrap_pyfunction!(games::openings, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add_class::<Position>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
