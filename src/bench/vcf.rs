//! `cpbim bench --vcf`: published VCF problems ([`crate::problems`]), each solved on one thread
//! with the first-win search and with the shortest search, per-problem times and nodes: the
//! benchmark of `docs/search.md` ("Speed") that a change on the hot path is measured with,
//! side by side with the binary before it.

use crate::problems::Problem;
use crate::search::{Config, Outcome, Solution, Solver};
use crate::Model;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One search's answer on a problem: the median time over the runs.
#[derive(Clone, Debug)]
pub struct Timed {
    /// The result (the same on every run).
    pub outcome: Outcome,
    /// Its depth.
    pub depth: u32,
    /// Nodes (the same on every run).
    pub nodes: u64,
    /// The median search time.
    pub time: Duration,
}

/// One problem's line of the benchmark.
#[derive(Clone, Debug)]
pub struct VcfRow {
    /// The problem's id.
    pub id: String,
    /// Its known length in attacker stones, if known.
    pub stones: Option<u32>,
    /// The depth limit searched.
    pub limit: u32,
    /// The first-win search.
    pub first: Timed,
    /// The shortest search.
    pub shortest: Timed,
}

/// The depth limit of a problem in the benchmark: N + 2 attacker stones (2N + 2 plies) for a
/// win of N stones, the slack of the comparison with quintet in `docs/search.md`; 60 plies
/// when the length is unknown.
pub fn limit(p: &Problem) -> u32 {
    p.stones.map_or(60, |n| 2 * n + 2)
}

/// Solve `p` with model `M` `runs` times in each search. An error when a run's answer differs
/// from the first run's (the search must be deterministic) or the problem does not read.
pub fn run_problem<M: Model>(
    p: &Problem,
    runs: usize,
    stop: &AtomicBool,
) -> Result<VcfRow, String> {
    let pos = p.position(p.game)?;
    let limit = limit(p);
    let [shortest, first] = [true, false].map(|shortest| -> Result<Timed, String> {
        let config = Config {
            depth: limit,
            shortest,
            ..Config::default()
        };
        let mut times = Vec::with_capacity(runs);
        let mut first: Option<Solution> = None;
        for _ in 0..runs.max(1) {
            let s = Solver::<M>::new(config.clone()).solve(&pos, stop);
            times.push(s.time);
            match &first {
                Some(f) if (f.outcome, f.depth, f.nodes) != (s.outcome, s.depth, s.nodes) => {
                    return Err(format!("{}: runs differ", p.id));
                }
                Some(_) => {}
                None => first = Some(s),
            }
        }
        times.sort();
        let s = first.expect("at least one run");
        Ok(Timed {
            outcome: s.outcome,
            depth: s.depth,
            nodes: s.nodes,
            time: times[times.len() / 2],
        })
    });
    Ok(VcfRow {
        id: p.id.clone(),
        stones: p.stones,
        limit,
        first: first?,
        shortest: shortest?,
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The median of `xs` (0 for none).
fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The table of the rows and a summary line.
pub fn table(rows: &[VcfRow]) -> String {
    let mut out = format!(
        "{:38} {:>4} {:>5}  {:>14} {:>9} {:>10}  {:>14} {:>9} {:>10}\n",
        "problem", "N", "limit", "first", "nodes", "ms", "shortest", "nodes", "ms"
    );
    let answer = |t: &Timed| format!("{} {}", t.outcome.name(), t.depth);
    for r in rows {
        let n = r.stones.map_or("?".to_string(), |n| n.to_string());
        out += &format!(
            "{:38} {:>4} {:>5}  {:>14} {:>9} {:>10.3}  {:>14} {:>9} {:>10.3}\n",
            r.id,
            n,
            r.limit,
            answer(&r.first),
            r.first.nodes,
            ms(r.first.time),
            answer(&r.shortest),
            r.shortest.nodes,
            ms(r.shortest.time)
        );
    }
    let (first, shortest) = summary(rows);
    out += &format!(
        "{} problems: median {:.3} ms first win, {:.3} ms shortest; total {:.1} ms and {:.1} ms\n",
        rows.len(),
        first.0,
        shortest.0,
        first.1,
        shortest.1
    );
    out
}

/// (median, total) milliseconds of the first-win and of the shortest search.
fn summary(rows: &[VcfRow]) -> ((f64, f64), (f64, f64)) {
    let of = |f: fn(&VcfRow) -> &Timed| {
        let times: Vec<f64> = rows.iter().map(|r| ms(f(r).time)).collect();
        (median(times.clone()), times.iter().sum())
    };
    (of(|r| &r.first), of(|r| &r.shortest))
}

/// The JSON object of the benchmark (`docs/json.md`).
pub fn json(rows: &[VcfRow], runs: usize) -> Value {
    let timed = |t: &Timed| {
        json!({
            "result": t.outcome.name(),
            "depth": t.depth,
            "nodes": t.nodes,
            "time_ms": (ms(t.time) * 1e3).round() / 1e3,
        })
    };
    let (first, shortest) = summary(rows);
    json!({
        "runs": runs,
        "problems": rows.iter().map(|r| json!({
            "id": r.id,
            "stones": r.stones,
            "limit": r.limit,
            "first": timed(&r.first),
            "shortest": timed(&r.shortest),
        })).collect::<Vec<_>>(),
        "median_ms": {"first": first.0, "shortest": shortest.0},
        "total_ms": {"first": first.1, "shortest": shortest.1},
    })
}
