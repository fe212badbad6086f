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
        eval: false,
        review: false,
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
        eval: false,
        review: false,
        ..AnalyzeConfig::default()
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

/// Moves of `side` (pairs of candidate points within `radius`) on `board` after which the
/// opponent has no double-threat win, by a fresh search of each; at most `enough` are looked
/// for (all of them when `enough` is `usize::MAX`).
fn holding(
    solver: &mut cpbim::search::Solver<Cpbim>,
    board: &cpbim::Board,
    side: Color,
    enough: usize,
) -> usize {
    let stop = AtomicBool::new(false);
    let points = candidate_points(board, 2);
    let mut found = 0;
    for (i, &x) in points.iter().enumerate() {
        for &y in &points[i + 1..] {
            let mut after = board.clone();
            after.set(x, Some(side));
            after.set(y, Some(side));
            if solver.solve_for(&after, side.opponent(), &stop).outcome != Outcome::Win {
                found += 1;
                if found >= enough {
                    return found;
                }
            }
        }
    }
    found
}

/// Every move's verdict against `solve` from both sides: a fresh search of the position before
/// the move (the mover's win) and after it (the opponent's win), and a search of the moves
/// that hold where a verdict says one did or did not exist.
#[test]
fn verdicts_agree_with_solve_from_both_sides() {
    use cpbim::analyze::{analyze_record, MoveVerdict as V};
    let stop = AtomicBool::new(false);
    let search = Config {
        depth: 12,
        ..Config::default()
    };
    let cfg = AnalyzeConfig {
        search: search.clone(),
        ..AnalyzeConfig::default()
    };
    let mut solver = cpbim::search::Solver::<Cpbim>::new(search);
    let mut seen = std::collections::BTreeMap::new();
    let games = load_games(&bundled_games_path()).unwrap();
    for id in [2, 4, 6, 8] {
        let g = games.iter().find(|g| g.id == id).unwrap();
        let record = cpbim::Record::from_stones(Game::CONNECT6, &g.moves).unwrap();
        let a = analyze_record::<Cpbim>(&record, &cfg, &stop, &|_| {}).unwrap();
        let bs = &a.boundaries;
        for (i, b) in bs.iter().enumerate() {
            let r = b
                .review
                .as_ref()
                .unwrap_or_else(|| panic!("game {id}: no review at {}", b.stones));
            *seen.entry(r.verdict.name()).or_insert(0) += 1;
            let what = format!(
                "game {id}, {} stones, {} {:?}",
                b.stones,
                r.verdict.name(),
                r.stones
            );
            let before = Position::from_stones(Game::CONNECT6, &g.moves[..b.stones]).unwrap();
            let mover_wins =
                solver.solve_for(before.board(), b.to_move, &stop).outcome == Outcome::Win;
            if r.verdict == V::Won {
                assert_eq!(i, bs.len() - 1, "{what}");
                assert!(record.win().is_some(), "{what}");
                continue;
            }
            let after_stones = b.stones + r.stones.len();
            assert_eq!(&g.moves[b.stones..after_stones], &r.stones[..], "{what}");
            let after = Position::from_stones(Game::CONNECT6, &g.moves[..after_stones]).unwrap();
            let opponent = b.to_move.opponent();
            let opponent_wins =
                solver.solve_for(after.board(), opponent, &stop).outcome == Outcome::Win;
            match r.verdict {
                V::Held => assert!(!mover_wins && !opponent_wins, "{what}"),
                V::WalkedIntoLoss => {
                    assert!(!mover_wins && opponent_wins, "{what}");
                    assert!(
                        holding(&mut solver, before.board(), b.to_move, 1) > 0,
                        "{what}"
                    );
                }
                V::AlreadyLost => {
                    assert!(opponent_wins, "{what}");
                    assert_eq!(
                        holding(&mut solver, before.board(), b.to_move, usize::MAX),
                        0,
                        "{what}"
                    );
                }
                V::KeptWin => {
                    assert!(mover_wins && !opponent_wins, "{what}");
                    assert_eq!(
                        holding(&mut solver, after.board(), opponent, usize::MAX),
                        0,
                        "{what}"
                    );
                }
                V::ThrewAwayWin => {
                    assert!(mover_wins, "{what}");
                    assert!(
                        opponent_wins || holding(&mut solver, after.board(), opponent, 1) > 0,
                        "{what}"
                    );
                }
                V::Won | V::Unclear => panic!("{what}"),
            }
        }
    }
    eprintln!("verdicts: {seen:?}");
    for kind in ["held", "won"] {
        assert!(seen.contains_key(kind), "{seen:?}");
    }
    assert!(
        seen.contains_key("walked into a loss") || seen.contains_key("already lost"),
        "{seen:?}"
    );
}
