//! The threat search of every game against the brute-force reference of `tests/common`
//! (which reads the game's numbers only): on random positions of Gomoku, standard Gomoku and
//! games of every k, p and board, the result and its depth are the reference's, every proof
//! checks on the plain board, and Raw visits the same nodes as the game's CPBIM.

mod common;

use common::{check_proof, reference_solve, Plain, Rules};
use cpbim::model::{self, Kind};
use cpbim::search::{solve, Config, Outcome, Solution};
use cpbim::{Game, Point, Position, Raw};

/// Solve with the game's CPBIM and with Raw (which must agree to the node).
fn solve_game(pos: &Position, cfg: &Config) -> Solution {
    let s = match model::kind_of(pos.game()) {
        Kind::Connect6 => solve::<cpbim::Cpbim>(pos, cfg),
        Kind::Five => solve::<model::Cpbim5>(pos, cfg),
        Kind::K4 => solve::<model::CpbimK4>(pos, cfg),
        Kind::K5 => solve::<model::CpbimK5>(pos, cfg),
        Kind::K6 => solve::<model::CpbimK6>(pos, cfg),
        Kind::K7 => solve::<model::CpbimK7>(pos, cfg),
        Kind::K8 => solve::<model::CpbimK8>(pos, cfg),
    };
    let r = solve::<Raw>(pos, cfg);
    assert_eq!(
        (r.outcome, r.depth, r.nodes),
        (s.outcome, s.depth, s.nodes),
        "Raw and CPBIM differ on {pos:?}"
    );
    s
}

/// A random position of `game`: stones played near the others, `count` of them, without a win.
fn random_position(game: Game, seed: u64, count: usize) -> Option<Position> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut stones: Vec<Point> = vec![game.center()];
    let mut board = cpbim::Board::new(game);
    board.set(game.center(), Some(game.color_of_stone(0)));
    while stones.len() < count {
        let last = stones[next(stones.len())];
        let near: Vec<Point> = game
            .points()
            .filter(|&p| board.is_empty(p) && p.distance(last) <= 2)
            .collect();
        if near.is_empty() {
            return None;
        }
        let p = near[next(near.len())];
        let c = game.color_of_stone(stones.len());
        board.set(p, Some(c));
        stones.push(p);
        if board.win_through(p, c).is_some() {
            return None;
        }
    }
    // A position at a move boundary.
    while !game.is_move_boundary(stones.len()) {
        stones.pop();
    }
    Position::from_stones(game, &stones).ok()
}

fn plain(pos: &Position) -> Plain {
    let names: Vec<String> = pos.stones().iter().map(Point::to_string).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Plain::from_stones_of(Rules::of(pos.game()), &refs)
}

/// Solve `positions` positions of `game` and compare each with the reference; returns how many
/// were compared and how many of those were wins.
fn agree(game: &str, positions: usize, depth: u32, work: u64) -> (usize, usize) {
    let game: Game = game.parse().unwrap();
    let cfg = Config {
        depth,
        proof: true,
        ..Config::default()
    };
    let (mut compared, mut wins) = (0, 0);
    let mut by = std::collections::BTreeMap::new();
    for seed in 0..positions as u64 * 3 {
        if compared >= positions {
            break;
        }
        let count = 6 + (seed as usize * 7) % 18;
        let Some(pos) = random_position(game, seed, count) else {
            continue;
        };
        let b = plain(&pos);
        let Some((result, d)) = reference_solve(&b, depth, work) else {
            continue;
        };
        let s = solve_game(&pos, &cfg);
        assert_eq!(
            (s.outcome.name(), s.depth),
            (result, d),
            "{game}: {}",
            pos.to_stone_list()
        );
        if s.outcome == Outcome::Win {
            wins += 1;
            let proof = serde_json::to_value(s.proof.as_ref().unwrap()).unwrap();
            let pd = check_proof(&b, b.to_move(), &proof)
                .unwrap_or_else(|e| panic!("{game}: bad proof for {pos:?}: {e}\n{proof}"));
            assert_eq!(pd, s.depth, "{game}: proof depth");
        }
        compared += 1;
        *by.entry((result, d)).or_insert(0) += 1;
    }
    eprintln!("{game}: {compared} compared: {by:?}");
    (compared, wins)
}

#[test]
fn gomoku_vcf_agrees_with_the_reference() {
    let (n, wins) = agree("gomoku", 60, 12, 200_000);
    assert!(n >= 50 && wins >= 5, "{n} compared, {wins} wins");
}

#[test]
fn standard_gomoku_vcf_agrees_with_the_reference() {
    let (n, wins) = agree("gomoku-standard", 60, 12, 200_000);
    assert!(n >= 50 && wins >= 5, "{n} compared, {wins} wins");
}

#[test]
fn games_of_every_k_p_and_board_agree_with_the_reference() {
    for (game, depth) in [
        ("connect(9,9,5,2,1)", 8),
        ("connect(10,10,4,2,1)", 8),
        ("connect(11,11,6,2,2)", 8),
        ("connect(12,12,6,1,1)", 10),
        ("connect(13,13,7,2,1)", 8),
        ("gomoku:17", 10),
        ("connect(9,7,4,1,1)", 10),
    ] {
        let (n, _) = agree(game, 25, depth, 150_000);
        assert!(n >= 15, "{game}: {n} compared");
    }
}

#[test]
fn a_vcf_of_three_fours() {
    // Black H8 I8 J8 on row 8 and the three D10 E10 F10: a four on row 10 (G10), white
    // blocks at C10, then the open four on row 8 wins. Black to move.
    let game = Game::GOMOKU;
    let pos = cpbim::parse_position("h8 a1 i8 a15 j8 o1 d10 o15 e10 b2 f10 n14", game).unwrap();
    let s = solve_game(
        &pos,
        &Config {
            proof: true,
            ..Config::default()
        },
    );
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 2));
    let b = plain(&pos);
    let proof = serde_json::to_value(s.proof.as_ref().unwrap()).unwrap();
    assert_eq!(check_proof(&b, b.to_move(), &proof), Ok(2));
}
