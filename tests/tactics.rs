//! Tactical soundness of the engine on real positions (the bundled Connect6 games rewound
//! 1 to 8 moves from their end):
//! * `win` positions: the side to move has a double-threat win (within 16 plies). The engine
//!   must play a winning move: it says so, and its proof tree checks on the plain board by
//!   brute force, rooted at the move it plays.
//! * `defend` positions: the opponent would have a double-threat win if the side to move
//!   passed, and the move played in the real game holds (after it the opponent has no
//!   double-threat win within 16 plies, the search exhausted). The engine's move must hold
//!   too, checked by the same search.
//!
//! `cargo test --release --test tactics` checks the first 25 of each; the full measurement
//! (500 of each at 0.35 s per move, the time of the Cloudict matches) is
//! `cargo test --release --test tactics -- --ignored --nocapture`
//! (`CPBIM_TACTICS_TIME=S` changes the time).

mod common;

use common::{check_proof, Plain, Rules};
use cpbim::engine::{Engine, Limits, Params, Verdict};
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{Config, Outcome, Solver};
use cpbim::{Board, Color, Cpbim, Game, Point, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The depth in plies of the double-threat searches that pick and check the positions.
const DEPTH: u32 = 16;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Win,
    Defend,
}

fn solver(max_nodes: u64) -> Solver<Cpbim> {
    Solver::new(Config {
        depth: DEPTH,
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
    let mut s = solver(200_000);
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
            if holds(&mut s, &pos, real) == Some(true) {
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

fn colour(c: Color) -> u8 {
    if c == Color::Black {
        1
    } else {
        2
    }
}

/// Play every position with `time` per move; the failures (and positions the check could not
/// settle) of each kind.
fn play(list: &[(Kind, Position)], time: Duration) -> (Vec<String>, Vec<String>, [u32; 2]) {
    let mut engine = Engine::<Cpbim>::new(Params::default());
    let mut check = solver(2_000_000);
    let (mut failed, mut unsettled, mut counts) = (Vec::new(), Vec::new(), [0u32; 2]);
    for (kind, pos) in list {
        counts[(*kind == Kind::Defend) as usize] += 1;
        let c = engine.choose(pos, Limits::per_move(time));
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
    (failed, unsettled, counts)
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
    let (failed, _, counts) = play(&list, Duration::from_secs(2));
    assert_eq!(counts, [25, 25]);
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
#[ignore = "the full measurement, several minutes"]
fn tactics_500_and_500() {
    let time: f64 = std::env::var("CPBIM_TACTICS_TIME")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.35);
    let t0 = std::time::Instant::now();
    let list = positions(500);
    eprintln!("{} positions chosen in {:.1?}", list.len(), t0.elapsed());
    let t0 = std::time::Instant::now();
    let (failed, unsettled, counts) = play(&list, Duration::from_secs_f64(time));
    eprintln!(
        "win {} / defend {} positions at {time} s per move in {:.1?}: {} failed, {} unsettled",
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
