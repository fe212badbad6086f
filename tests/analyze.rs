//! `cpbim analyze`: every move boundary agrees with `cpbim solve`, the threats agree with the
//! brute-force reference (attacker = the side not to move) and their proofs check, and the
//! defences agree pair by pair with the reference.

mod common;

use common::{check_proof, name, reference_solve_for, Plain};
use cpbim::analyze::{analyze_line, candidate_points, AnalyzeConfig};
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{solve, Config, Outcome};
use cpbim::Game;
use cpbim::{Color, Cpbim, Point, Position};
use std::sync::atomic::AtomicBool;

/// The first `moves` whole moves of bundled game `id`.
fn game_line(id: u64, moves: usize) -> Vec<Point> {
    let games = load_games(&bundled_games_path()).unwrap();
    let g = games.iter().find(|g| g.id == id).expect("game in the data");
    g.moves[..2 * moves - 1].to_vec()
}

fn plain(board: &cpbim::Board) -> Plain {
    let mut cells = vec![0u8; 361];
    for (p, c) in board.iter() {
        cells[common::point(&p.to_string())] = if c == Color::Black { 1 } else { 2 };
    }
    Plain::new(cells)
}

fn code(c: Color) -> u8 {
    if c == Color::Black {
        1
    } else {
        2
    }
}

#[test]
fn every_boundary_agrees_with_solve_and_the_reference() {
    let stop = AtomicBool::new(false);
    // Depth 12 keeps the brute-force reference affordable.
    let search = Config {
        depth: 12,
        proof: true,
        ..Config::default()
    };
    let cfg = AnalyzeConfig {
        search: search.clone(),
        ..AnalyzeConfig::default()
    };
    let mut checked_threats = 0;
    let mut threat_wins = 0;
    for id in [2, 4, 6] {
        let line = game_line(id, 20);
        let bs = analyze_line(&line, &cfg, &stop, &|_| {}).unwrap();
        assert_eq!(bs.len(), 20);
        for b in &bs {
            let pos = Position::from_stones(Game::CONNECT6, &line[..b.stones]).unwrap();
            assert_eq!(b.to_move, pos.to_move());
            let s = solve::<Cpbim>(&pos, &search);
            let what = format!("game {id}, {} stones", b.stones);
            assert_eq!(
                (b.win.outcome, b.win.depth, &b.win.line, b.win.nodes),
                (s.outcome, s.depth, &s.line, s.nodes),
                "{what}: win"
            );
            let board = plain(pos.board());
            assert_eq!(b.live_windows.black, board.live(1).len(), "{what}");
            assert_eq!(b.live_windows.white, board.live(2).len(), "{what}");
            let opp = code(b.to_move.opponent());
            if let Some((result, depth)) = reference_solve_for(&board, opp, 12, 1_000_000) {
                assert_eq!(
                    (b.threat.outcome.name(), b.threat.depth),
                    (result, depth),
                    "{what}: threat"
                );
                checked_threats += 1;
            }
            if b.threat.outcome == Outcome::Win {
                let proof = serde_json::to_value(b.threat.proof.as_ref().unwrap()).unwrap();
                let depth = check_proof(&board, opp, &proof)
                    .unwrap_or_else(|e| panic!("{what}: threat proof rejected: {e}"));
                assert_eq!(depth, b.threat.depth, "{what}");
                threat_wins += 1;
            }
        }
    }
    println!("{checked_threats} threats checked, {threat_wins} wins");
    assert!(
        checked_threats >= 45,
        "only {checked_threats} threats checked"
    );
    assert!(threat_wins >= 10, "only {threat_wins} threats are wins");
}

#[test]
fn defences_agree_with_the_reference_pair_by_pair() {
    let stop = AtomicBool::new(false);
    // Game 2 after 20 moves (39 stones): black to move, white threatens a win at depth 8.
    let line = game_line(2, 20);
    let cfg = AnalyzeConfig {
        search: Config {
            depth: 8,
            ..Config::default()
        },
        defenses: true,
        radius: 1,
        prove: None,
    };
    let bs = analyze_line(&line, &cfg, &stop, &|_| {}).unwrap();
    let b = bs.last().unwrap();
    assert_eq!((b.threat.outcome, b.threat.depth), (Outcome::Win, 8));
    let d = b.defenses.as_ref().unwrap();
    let pos = Position::from_stones(Game::CONNECT6, &line).unwrap();
    let points = candidate_points(pos.board(), 1);
    assert_eq!(d.points, points.len());
    assert_eq!(d.pairs, points.len() * (points.len() - 1) / 2);
    assert!(
        d.holding > 0 && d.holding < d.pairs,
        "{} of {}",
        d.holding,
        d.pairs
    );
    assert!(d.carried > 0);
    // Every pair against a full, independent search of the position after it (no proof
    // carried over, exhaustion included); every failing pair's proof checked by brute force…
    let side = b.to_move;
    let mut solver = cpbim::search::Solver::<Cpbim>::new(Config {
        proof: true,
        ..cfg.search.clone()
    });
    let mut holding = Vec::new();
    for (i, &x) in points.iter().enumerate() {
        for &y in &points[i + 1..] {
            let mut after = pos.board().clone();
            after.set(x, Some(side));
            after.set(y, Some(side));
            let s = solver.solve_for(&after, side.opponent(), &stop);
            let holds = d.moves.contains(&vec![x, y]);
            assert_eq!(
                holds,
                s.outcome != Outcome::Win,
                "{x} {y}: {}",
                s.outcome.name()
            );
            if holds {
                holding.push((x, y));
            } else {
                let proof = serde_json::to_value(s.proof.as_ref().unwrap()).unwrap();
                check_proof(&plain(&after), code(side.opponent()), &proof)
                    .unwrap_or_else(|e| panic!("{x} {y}: proof rejected: {e}"));
            }
        }
    }
    assert_eq!(d.unknown, 0);
    assert_eq!(holding.len(), d.holding);
    // …and a sample of holding pairs against the brute-force reference.
    let mut decided = 0;
    for &(x, y) in holding.iter().take(15) {
        let mut after = plain(pos.board());
        after.cells[common::point(&x.to_string())] = code(side);
        after.cells[common::point(&y.to_string())] = code(side);
        let Some((result, _)) = reference_solve_for(&after, code(side.opponent()), 8, 1_000_000)
        else {
            continue;
        };
        assert_ne!(result, "win", "{} {}", name(x.index()), name(y.index()));
        decided += 1;
    }
    println!(
        "{} pairs, {} hold; the reference confirmed {decided} holding pairs",
        d.pairs, d.holding
    );
    assert!(decided >= 10, "the reference decided only {decided} of 15");
}
