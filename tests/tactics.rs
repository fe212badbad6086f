//! Tactical soundness of the engine on real positions (the bundled Connect6 games rewound
//! 1 to 8 moves from their end):
//! * `win` positions: the side to move has a double-threat win (within 16 plies). The engine
//!   must play a winning move: it says so, and its proof tree checks on the plain board by
//!   brute force, rooted at the move it plays.
//! * `defend` positions: the opponent would have a double-threat win (within 16 plies) if the
//!   side to move passed, and the move played in the real game holds: after it the opponent
//!   has no double-threat win within 24 plies (the engine's own threat depth), the search
//!   exhausted. The engine's move must hold too, checked by the same search.
//!
//! `cargo test --release --test tactics` checks the first 25 of each; the full measurement
//! (500 of each at 0.35 s per move, the time of the Cloudict matches) is
//! `cargo test --release --test tactics -- --ignored --nocapture`
//! (`CPBIM_TACTICS_TIME=S` changes the time, `CPBIM_TACTICS_DEPTH=D` plays to a depth
//! without a time limit instead, `CPBIM_TACTICS_THREADS=N` sets the engine's threads).

mod common;

use common::{check_proof, colour, Plain, Rules};
use cpbim::engine::{Engine, Limits, Params, Verdict};
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{Config, Outcome, Solver};
use cpbim::{Board, Color, Cpbim, Game, Point, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The depth in plies of the double-threat searches that find wins.
const WIN_DEPTH: u32 = 16;
/// The depth in plies of the searches that check that a defence holds.
const HOLD_DEPTH: u32 = 24;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Win,
    Defend,
}

fn solver(depth: u32, max_nodes: u64) -> Solver<Cpbim> {
    Solver::new(Config {
        depth,
        max_nodes: Some(max_nodes),
        ..Config::default()
    })
}

/// Does `attacker` have a double-threat win on `board`? `None` when the budget ran out.
fn wins(s: &mut Solver<Cpbim>, board: &Board, attacker: Color) -> Option<bool> {
    match s
        .solve_for(board, attacker, &AtomicBool::new(false))
        .outcome
    {
        Outcome::Win => Some(true),
        Outcome::None | Outcome::Nowin => Some(false),
        Outcome::Unknown => None,
    }
}

/// The first `count` positions of each kind, in file order of the games, each game rewound
/// 1 to 8 whole moves (distinct positions).
fn positions(count: usize) -> Vec<(Kind, Position)> {
    let games = load_games(&bundled_games_path()).expect("the bundled games");
    let mut s = solver(WIN_DEPTH, 200_000);
    let mut hold = solver(HOLD_DEPTH, 2_000_000);
    let mut out: Vec<(Kind, Position)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let full = |out: &Vec<(Kind, Position)>, k| out.iter().filter(|e| e.0 == k).count() >= count;
    'games: for g in &games {
        for back in 1..=8 {
            if full(&out, Kind::Win) && full(&out, Kind::Defend) {
                break 'games;
            }
            let Some(pos) = cpbim::testsets::rewind(g, back) else {
                continue;
            };
            if !seen.insert(pos.to_stone_list()) {
                continue;
            }
            let (board, side) = (pos.board(), pos.to_move());
            if !full(&out, Kind::Win) && wins(&mut s, board, side) == Some(true) {
                out.push((Kind::Win, pos));
                continue;
            }
            if full(&out, Kind::Defend) || wins(&mut s, board, side.opponent()) != Some(true) {
                continue;
            }
            // The move the game went on with.
            let at = pos.board().stones();
            let Some(real) = g.moves.get(at..at + pos.stones_to_place()) else {
                continue;
            };
            if holds(&mut hold, &pos, real) == Some(true) {
                out.push((Kind::Defend, pos));
            }
        }
    }
    out
}

/// After `stones` of the side to move, has the opponent no double-threat win?
fn holds(s: &mut Solver<Cpbim>, pos: &Position, stones: &[Point]) -> Option<bool> {
    let mut board = pos.board().clone();
    for &p in stones {
        board.set(p, Some(pos.to_move()));
    }
    if board.find_win_of(pos.to_move()).is_some() {
        return Some(true);
    }
    wins(s, &board, pos.to_move().opponent()).map(|w| !w)
}

/// Play every position under `limits` with `threads`; the failures (and positions the check
/// could not settle) of each kind.
fn play(
    list: &[(Kind, Position)],
    limits: Limits,
    threads: usize,
) -> (Vec<String>, Vec<String>, [u32; 2], u64) {
    let mut engine = Engine::<Cpbim>::new(Params {
        threads,
        ..Params::default()
    });
    let mut check = solver(HOLD_DEPTH, 2_000_000);
    let (mut failed, mut unsettled, mut counts, mut nodes) = (Vec::new(), Vec::new(), [0u32; 2], 0);
    for (kind, pos) in list {
        counts[(*kind == Kind::Defend) as usize] += 1;
        let c = engine.choose(pos, limits);
        nodes += c.nodes;
        let what = format!("{kind:?} {} → {:?}", pos.to_stone_list(), c.stones);
        let ok = match kind {
            Kind::Win => win_checks(pos, &c),
            Kind::Defend => match holds(&mut check, pos, &c.stones) {
                Some(h) => h && c.verdict != Verdict::Loss,
                None => {
                    unsettled.push(what.clone());
                    true
                }
            },
        };
        if !ok {
            failed.push(format!("{what} {:?}", c.verdict));
        }
    }
    (failed, unsettled, counts, nodes)
}

/// A win said and proved from the stones played.
fn win_checks(pos: &Position, c: &cpbim::engine::Choice) -> bool {
    let (Verdict::Win(d), Some(proof)) = (c.verdict, c.proof.as_ref()) else {
        return matches!(c.verdict, Verdict::Win(0));
    };
    let proof = serde_json::to_value(proof).expect("a proof as JSON");
    let plain = Plain::from_position(Rules::of(pos.game()), pos);
    let mut first: Vec<String> = proof["attack"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut played: Vec<String> = c.stones.iter().map(|p| p.to_string()).collect();
    first.sort();
    played.sort();
    check_proof(&plain, colour(pos.to_move()), &proof) == Ok(d) && first == played
}

#[test]
fn the_engine_plays_wins_and_holding_defences() {
    let list = positions(25);
    assert_eq!(list.len(), 50, "25 positions of each kind in the games");
    assert_eq!(list[0].1.game(), &Game::CONNECT6);
    let (failed, _, counts, _) = play(&list, Limits::per_move(Duration::from_secs(2)), 1);
    assert_eq!(counts, [25, 25]);
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
#[ignore = "the full measurement, several minutes"]
fn tactics_500_and_500() {
    let var = |name: &str| std::env::var(name).ok();
    let time: f64 = var("CPBIM_TACTICS_TIME").map_or(0.35, |s| s.parse().expect("seconds"));
    let threads: usize = var("CPBIM_TACTICS_THREADS").map_or(1, |s| s.parse().expect("a count"));
    let limits = match var("CPBIM_TACTICS_DEPTH") {
        Some(d) => Limits::depth(d.parse().expect("a depth")),
        None => Limits::per_move(Duration::from_secs_f64(time)),
    };
    let t0 = std::time::Instant::now();
    let list = positions(500);
    eprintln!("{} positions chosen in {:.1?}", list.len(), t0.elapsed());
    let t0 = std::time::Instant::now();
    let (failed, unsettled, counts, nodes) = play(&list, limits, threads);
    eprintln!(
        "win {} / defend {} positions, {limits:?}, {threads} threads, in {:.1?} ({nodes} nodes): {} failed, {} unsettled",
        counts[0],
        counts[1],
        t0.elapsed(),
        failed.len(),
        unsettled.len()
    );
    for f in failed.iter().chain(&unsettled) {
        eprintln!("  {f}");
    }
    assert_eq!(counts, [500, 500]);
    assert!(failed.is_empty());
}
