//! The relevance zone of a threat proof (`cpbim::prove::zone`, issue 27): on small boards of
//! the family, where every defender reply can be tried, a proof stays a proof after any
//! defender move played wholly outside its zone. The brute-force checker on the raw board
//! judges it (any legal attack; every blocking reply the board allows answered): that is the
//! full-width answer for every reply the zone lets a proof search skip.

mod common;

use common::threats::moves;
use common::{check_proof_relaxed, colour, random_position, Plain, Rules};
use cpbim::search::{solve, Config, Outcome};
use cpbim::{Color, Game, Point, PointSet, Position, Raw};

/// What the zone test saw on one game.
#[derive(Default, Debug)]
struct Seen {
    proofs: usize,
    replies: usize,
    zone_points: usize,
    empty_points: usize,
}

fn zones_hold(game: Game, seeds: std::ops::Range<u64>, stones: usize) -> Seen {
    let rules = Rules::of(&game);
    let config = Config {
        depth: 16,
        proof: true,
        ..Config::default()
    };
    let mut seen = Seen::default();
    for seed in seeds {
        let Some(pos) = random_position(game, seed, stones) else {
            continue;
        };
        // Raw: the model of every game (Cpbim is Connect6's).
        let solution = solve::<Raw>(&pos, &config);
        if solution.outcome != Outcome::Win {
            continue;
        }
        let proof = solution.proof.expect("a win carries its proof");
        let a = pos.to_move();
        let zone = cpbim::prove::zone::zone(pos.board(), a, &proof).expect("a zone outside Renju");
        let json = serde_json::to_value(&proof).unwrap();
        let board = Plain::from_position(rules, &pos);
        let (ca, cd) = (colour(a), colour(a.opponent()));
        if let Err(e) = check_proof_relaxed(&board, ca, &json) {
            panic!(
                "{game} {pos:?} ({:?} to move, {:?} {} {:?}): the proof does not hold as it is: {e}\n{json}",
                pos.to_move(),
                solution.outcome,
                solution.depth,
                solution.line
            );
        }
        let outside: Vec<usize> = (0..board.cells.len())
            .filter(|&i| board.cells[i] == 0 && !zone.contains(point(&rules, i)))
            .collect();
        seen.proofs += 1;
        seen.zone_points += zone.len();
        seen.empty_points += board.cells.iter().filter(|&&c| c == 0).count();
        for m in moves(&outside, game.p()) {
            let mut after = board.clone();
            for &x in &m {
                after.cells[x] = cd;
            }
            seen.replies += 1;
            if let Err(e) = check_proof_relaxed(&after, ca, &json) {
                let names: Vec<String> = m.iter().map(|&x| board.name(x)).collect();
                panic!(
                    "{game} {pos:?}: the defence {names:?} outside the zone breaks the proof: {e}"
                );
            }
            assert!(
                !after.has_win(cd),
                "{game}: the defence {m:?} wins outright"
            );
        }
    }
    seen
}

/// The library point of a test-board index.
fn point(rules: &Rules, i: usize) -> Point {
    Point::new(i % rules.m, i / rules.m).unwrap()
}

#[test]
fn a_defence_outside_the_zone_leaves_the_proof_a_proof() {
    for (name, stones) in [
        ("connect(9,9,6,2,1)", 17),
        ("connect(9,9,5,2,1)", 11),
        ("connect(9,9,5,1,1)", 13),
        ("connect(8,8,4,1,1)", 9),
    ] {
        let game: Game = name.parse().unwrap();
        let seen = zones_hold(game, 0..400, stones);
        eprintln!(
            "{name}: {} proofs, {} replies outside their zones checked; zones hold {:.0} % of the empty points",
            seen.proofs,
            seen.replies,
            100.0 * seen.zone_points as f64 / seen.empty_points.max(1) as f64
        );
        assert!(seen.proofs >= 10, "{name}: only {} proofs", seen.proofs);
        assert!(seen.replies >= 100, "{name}: only {} replies", seen.replies);
    }
}

#[test]
fn renju_has_no_zone_yet() {
    let game = Game::RENJU;
    let pos = Position::from_stones(game, &[game.center()]).unwrap();
    let six = cpbim::search::proof::ProofNode::Six {
        six: vec![game.center()],
    };
    let zone = cpbim::prove::zone::zone(pos.board(), Color::White, &six);
    assert_eq!(zone, None::<PointSet>);
}
