//! Published VCF problems with their known answers (`tests/data/vcf/problems.txt`; where each
//! comes from and what the keys mean: `tests/data/vcf/SOURCES.md`). Every problem is solved
//! with its game's CPBIM: the known win must be found within its length (N attacker stones with
//! the five: depth 2(N − 1)), exactly at it when no shorter one exists (by the source or the
//! collectors' own search), and
//! the proof must check on the plain board by brute force (Renju's forbidden points by the
//! tests' own reference). Problems whose line is also a VCF without forbidden points are solved
//! as freestyle Gomoku too.

mod common;

use common::{check_proof, Plain, Rules};
use cpbim::search::{Config, Outcome, Solution, Solver};
use cpbim::{Color, Game, Position, Reading};
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

/// One problem of the file.
#[derive(Debug)]
struct Problem {
    id: String,
    game: Game,
    to_move: Color,
    /// Attacker stones of the known win, the five included; `None` when the source says only
    /// that a VCF exists.
    stones: Option<u32>,
    /// No shorter win exists: the source proves it ("yes (source)"), or the collectors'
    /// independent exhaustive search found none ("yes (our check)", see SOURCES.md).
    shortest_proven: bool,
    /// A shorter win the collectors found and checked (attacker stones).
    shorter: Option<u32>,
    /// The line is also a VCF under freestyle rules.
    freestyle: bool,
    diagram: String,
}

fn problems() -> Vec<Problem> {
    let text = include_str!("data/vcf/problems.txt");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut keys = std::collections::HashMap::new();
        let mut notes = String::new();
        let mut diagram = String::new();
        for line in block.lines() {
            if line.starts_with("##") {
                continue;
            }
            if let Some(kv) = line.strip_prefix("# ") {
                let (k, v) = kv.split_once(": ").expect("a key: value line");
                if k == "note" {
                    notes += v;
                    notes.push('\n');
                } else {
                    keys.insert(k.to_string(), v.to_string());
                }
            } else {
                diagram += line;
                diagram.push('\n');
            }
        }
        let Some(id) = keys.get("id") else { continue };
        let answer = &keys["answer"];
        let stones = answer
            .strip_prefix("win ")
            .and_then(|n| n.parse::<u32>().ok());
        assert!(
            stones.is_some() || answer == "win N?",
            "{id}: answer {answer:?}"
        );
        let minimal = keys.get("minimal").map_or("", String::as_str);
        let shorter = minimal
            .strip_prefix("no (our check: ")
            .and_then(|r| r.split_whitespace().next())
            .map(|n| n.parse().expect("a number of moves"));
        out.push(Problem {
            id: id.clone(),
            game: keys["game"].parse().expect("a game"),
            to_move: match keys["to-move"].as_str() {
                "black" => Color::Black,
                "white" => Color::White,
                other => panic!("{id}: to-move {other:?}"),
            },
            stones,
            shortest_proven: minimal.starts_with("yes"),
            shorter,
            freestyle: notes.contains("also a legal VCF under freestyle"),
            diagram,
        });
    }
    out
}

/// The problem's position in `game`.
fn position(p: &Problem, game: Game) -> Position {
    let how = Reading {
        game,
        to_move: Some(p.to_move),
    };
    cpbim::parse_position(&p.diagram, how).unwrap_or_else(|e| panic!("{}: {e}", p.id))
}

/// The depth limit for a problem: its known length, or 60 plies when only a win is known.
fn limit(p: &Problem) -> u32 {
    p.stones.map_or(60, |n| 2 * (n - 1))
}

fn solve(pos: &Position, depth: u32) -> Solution {
    let cfg = Config {
        depth,
        proof: true,
        ..Config::default()
    };
    Solver::<cpbim::model::Cpbim5>::new(cfg).solve(pos, &AtomicBool::new(false))
}

/// Solve `p` in `game`: a win within its length whose proof checks.
fn check(p: &Problem, game: Game) -> Result<Solution, String> {
    let pos = position(p, game);
    let s = solve(&pos, limit(p));
    if s.outcome != Outcome::Win {
        return Err(format!(
            "{} ({game}): {} {}",
            p.id,
            s.outcome.name(),
            s.depth
        ));
    }
    let cells = Plain::from_position(Rules::of(&game), &pos);
    let proof = serde_json::to_value(s.proof.as_ref().expect("a proof")).unwrap();
    let a = if p.to_move == Color::Black { 1 } else { 2 };
    match check_proof(&cells, a, &proof) {
        Ok(d) if d == s.depth => Ok(s),
        Ok(d) => Err(format!("{}: proof depth {d}, answer {}", p.id, s.depth)),
        Err(e) => Err(format!("{} ({game}): bad proof: {e}", p.id)),
    }
}

/// Problems that take minutes rather than milliseconds: run by the ignored test
/// `slow_published_vcf_problems` (`cargo test --release --test vcf -- --ignored`). The
/// 73-move "Kokou no rotenburo" needs about 290 million nodes (its source marks it slow too).
const SLOW: &[&str] = &["quintet-kokou-no-rotenburo"];

fn is_slow(p: &Problem) -> bool {
    SLOW.contains(&p.id.as_str())
}

#[test]
fn published_vcf_problems_are_solved_within_their_length() {
    let problems: Vec<Problem> = problems().into_iter().filter(|p| !is_slow(p)).collect();
    assert!(problems.len() >= 30, "{} problems", problems.len());
    solve_all(&problems);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn slow_published_vcf_problems() {
    let problems: Vec<Problem> = problems().into_iter().filter(is_slow).collect();
    assert_eq!(problems.len(), SLOW.len());
    solve_all(&problems);
}

/// Solve every problem in its own game and check the answers against the known lengths.
fn solve_all(problems: &[Problem]) {
    let results: Vec<Result<Solution, String>> =
        problems.par_iter().map(|p| check(p, p.game)).collect();
    let mut failures = Vec::new();
    for (p, r) in problems.iter().zip(&results) {
        match r {
            Err(e) => failures.push(e.clone()),
            Ok(s) => {
                eprintln!(
                    "{:40} win {:3} of at most {:3}  {:>9} nodes {:>9.3} ms",
                    p.id,
                    s.depth,
                    limit(p),
                    s.nodes,
                    s.time.as_secs_f64() * 1e3
                );
                if p.shortest_proven && s.depth != limit(p) {
                    failures.push(format!("{}: win {} shorter than proven", p.id, s.depth));
                }
                if let Some(n) = p.shorter {
                    if s.depth > 2 * (n - 1) {
                        failures.push(format!("{}: win {} misses the shorter one", p.id, s.depth));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn their_freestyle_lines_win_freestyle_gomoku() {
    let problems: Vec<Problem> = problems()
        .into_iter()
        .filter(|p| p.freestyle && !is_slow(p))
        .collect();
    assert!(
        problems.len() >= 10,
        "{} freestyle problems",
        problems.len()
    );
    let failures: Vec<String> = problems
        .par_iter()
        .filter_map(|p| check(p, Game::GOMOKU).err())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}
