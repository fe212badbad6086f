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
use cpbim::problems::{parse_problems, Problem, BUILT_IN_VCF};
use cpbim::search::{Config, Outcome, Solution, Solver};
use cpbim::{Color, Game, Position};
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

fn problems() -> Vec<Problem> {
    parse_problems(BUILT_IN_VCF).expect("the bundled problems")
}

/// The problem's position in `game`.
fn position(p: &Problem, game: Game) -> Position {
    p.position(game).unwrap_or_else(|e| panic!("{e}"))
}

/// The depth limit for a problem: its known length, or 60 plies when only a win is known.
fn limit(p: &Problem) -> u32 {
    p.known_depth().unwrap_or(60)
}

fn solve(pos: &Position, depth: u32, shortest: bool) -> Solution {
    let cfg = Config {
        depth,
        proof: true,
        shortest,
        ..Config::default()
    };
    Solver::<cpbim::model::Cpbim5>::new(cfg).solve(pos, &AtomicBool::new(false))
}

/// Solve `p` in `game` with both searches: each a win within its length whose proof checks;
/// returns the shortest search's answer.
fn check(p: &Problem, game: Game) -> Result<Solution, String> {
    let pos = position(p, game);
    let [shortest, first] = [true, false].map(|shortest| solve(&pos, limit(p), shortest));
    for s in [&shortest, &first] {
        let mode = if s.minimal { "shortest" } else { "first win" };
        if s.outcome != Outcome::Win {
            let (result, depth) = (s.outcome.name(), s.depth);
            return Err(format!("{} ({game}, {mode}): {result} {depth}", p.id));
        }
        let cells = Plain::from_position(Rules::of(&game), &pos);
        let proof = serde_json::to_value(s.proof.as_ref().expect("a proof")).unwrap();
        let a = if p.to_move == Color::Black { 1 } else { 2 };
        match check_proof(&cells, a, &proof) {
            Ok(d) if d == s.depth => {}
            Ok(d) => return Err(format!("{}: proof depth {d}, answer {}", p.id, s.depth)),
            Err(e) => return Err(format!("{} ({game}, {mode}): bad proof: {e}", p.id)),
        }
    }
    if !shortest.minimal {
        return Err(format!("{}: the shortest search is not minimal", p.id));
    }
    if first.depth < shortest.depth || (first.minimal && first.depth != shortest.depth) {
        let (f, s) = (first.depth, shortest.depth);
        return Err(format!("{}: first win {f}, shortest {s}", p.id));
    }
    Ok(shortest)
}

#[test]
fn published_vcf_problems_are_solved_within_their_length() {
    // All 55, the 73-move "Kokou no rotenburo" among them (its shortest search takes seconds:
    // it took two minutes before the first-win search, and was run only on request).
    let problems = problems();
    assert_eq!(problems.len(), 55);
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
    let problems: Vec<Problem> = problems().into_iter().filter(|p| p.freestyle).collect();
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
