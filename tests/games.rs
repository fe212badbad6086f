//! The threat search of every game against the brute-force reference of `tests/common`
//! (which reads the game's numbers only): on random positions of Gomoku, standard Gomoku and
//! games of every k, p and board, the result and its depth are the reference's, every proof
//! checks on the plain board, and Raw visits the same nodes as the game's CPBIM.

mod common;

use common::{check_proof, random_position, reference_solve, Plain, Rules};
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

fn plain(pos: &Position) -> Plain {
    let names: Vec<String> = pos.stones().iter().map(Point::to_string).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Plain::from_stones_of(Rules::of(pos.game()), &refs)
}

/// Solve `positions` positions of `game` and compare each with the reference; returns how many
/// were compared and how many of those were wins.
fn agree(game: &str, positions: usize, depth: u32, work: u64) -> (usize, usize) {
    let (compared, wins, _) = agree_counting(game, positions, depth, work, 6..24);
    (compared, wins)
}

/// [`agree`] with the stone counts drawn from `counts`; also returns on how many compared
/// positions the reference's answer changes when Renju's forbidden points are ignored.
fn agree_counting(
    game: &str,
    positions: usize,
    depth: u32,
    work: u64,
    counts: std::ops::Range<usize>,
) -> (usize, usize, usize) {
    let game: Game = game.parse().unwrap();
    let cfg = Config {
        depth,
        proof: true,
        ..Config::default()
    };
    let shortest = Config {
        shortest: true,
        ..cfg.clone()
    };
    let (mut compared, mut wins, mut forbidden_mattered) = (0, 0, 0);
    let mut by = std::collections::BTreeMap::new();
    for seed in 0..positions as u64 * 20 {
        if compared >= positions {
            break;
        }
        let count = counts.start + (seed as usize * 7) % counts.len();
        let Some(pos) = random_position(game, seed, count) else {
            continue;
        };
        let b = plain(&pos);
        let cells = 0..b.cells.len();
        if b.rules.renju
            && !cells
                .into_iter()
                .any(|p| b.cells[p] == 0 && b.forbids(1, p))
        {
            // Renju: only positions where black has a forbidden point.
            continue;
        }
        let Some((result, d)) = reference_solve(&b, depth, work) else {
            continue;
        };
        if b.rules.renju && (result, d) == ("win", 0) {
            // Renju: a four to complete tells nothing about forbidden points.
            continue;
        }
        // The shortest search gives the reference's result and depth; the first-win search
        // the same result, no shorter. Both proofs check.
        let s = solve_game(&pos, &shortest);
        assert_eq!(
            (s.outcome.name(), s.depth),
            (result, d),
            "{game}: {}",
            pos.to_stone_list()
        );
        let first = solve_game(&pos, &cfg);
        assert_eq!(first.outcome, s.outcome, "{game}: {}", pos.to_stone_list());
        assert!(first.depth >= s.depth || first.outcome == Outcome::Nowin);
        assert!(
            !first.minimal || first.depth == s.depth,
            "{game}: minimal, not smallest"
        );
        for s in [&s, &first] {
            if s.outcome == Outcome::Win {
                let proof = serde_json::to_value(s.proof.as_ref().unwrap()).unwrap();
                let pd = check_proof(&b, b.to_move(), &proof)
                    .unwrap_or_else(|e| panic!("{game}: bad proof for {pos:?}: {e}\n{proof}"));
                assert_eq!(pd, s.depth, "{game}: proof depth");
            }
        }
        wins += usize::from(s.outcome == Outcome::Win);
        if b.rules.renju {
            let mut free = b.clone();
            free.rules.renju = false;
            if reference_solve(&free, depth, work) != Some((result, d)) {
                forbidden_mattered += 1;
            }
        }
        compared += 1;
        *by.entry((result, d)).or_insert(0) += 1;
    }
    eprintln!(
        "{game}: {compared} compared: {by:?}; forbidden points mattered in {forbidden_mattered}"
    );
    (compared, wins, forbidden_mattered)
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
fn renju_vcf_agrees_with_the_reference() {
    // Denser positions than the other games', each with a forbidden point of black and no four
    // to complete yet, so that the forbidden points come into play.
    let (n, wins, mattered) = agree_counting("renju", 120, 12, 200_000, 14..40);
    assert!(n >= 110 && wins >= 20, "{n} compared, {wins} wins");
    assert!(
        mattered >= 5,
        "forbidden points changed only {mattered} answers"
    );
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

/// The position of `black` and `white` stones on a 15×15 board of `game`, side to move by the
/// counts.
fn position(game: Game, black: &str, white: &str) -> Position {
    let mut board = cpbim::Board::new(game);
    for (stones, c) in [(black, cpbim::Color::Black), (white, cpbim::Color::White)] {
        for s in stones.split_whitespace() {
            board.set(game.parse_point(s).unwrap(), Some(c));
        }
    }
    Position::from_board(board).unwrap()
}

/// Solve with proof (the shortest search) and check the proof on the plain board; returns the
/// answer.
fn solve_checked(pos: &Position, depth: u32) -> (Outcome, u32) {
    let cfg = Config {
        depth,
        proof: true,
        shortest: true,
        ..Config::default()
    };
    let s = solve_game(pos, &cfg);
    let b = plain(pos);
    assert_eq!(
        reference_solve(&b, depth, 1_000_000),
        Some((s.outcome.name(), s.depth)),
        "the reference disagrees on {pos:?}"
    );
    if let Some(proof) = &s.proof {
        let proof = serde_json::to_value(proof).unwrap();
        assert_eq!(check_proof(&b, b.to_move(), &proof), Ok(s.depth));
    }
    (s.outcome, s.depth)
}

#[test]
fn a_white_four_whose_only_block_is_forbidden_wins() {
    // Black D8 E8 F8 G8 . I8 (C8 white): black on H8 makes six, an overline. White H9 H10 H11
    // between black H7 and H13: H12 makes a four whose only point of five is H8. In Renju black may not
    // block there: white wins with the four. Without forbidden points black blocks.
    let (black, white) = ("D8 E8 F8 G8 I8 H7 H13", "C8 H9 H10 H11 A1 O15");
    let renju = position(Game::RENJU, black, white);
    assert_eq!(renju.to_move(), cpbim::Color::White);
    assert_eq!(
        cpbim::renju::forbidden(renju.board(), Game::RENJU.parse_point("H8").unwrap()),
        Some(cpbim::renju::Forbidden::Overline)
    );
    assert_eq!(solve_checked(&renju, 12), (Outcome::Win, 2));
    let standard = position(Game::GOMOKU_STANDARD, black, white);
    assert_ne!(solve_checked(&standard, 12).0, Outcome::Win);
}

#[test]
fn black_may_not_attack_with_a_double_four() {
    // Black E8 F8 G8 (D8 white) and H9 H10 H11 (H12 white): H8 makes two fours, E8–H8 (five
    // on I8) and H8–H11 (five on H7). Freestyle: a win with the double four. Renju: H8 is
    // forbidden and the single fours (I8, H7) are blocked on H8.
    let (black, white) = ("E8 F8 G8 H9 H10 H11", "D8 H12 A1 O1 A15 O15");
    let gomoku = position(Game::GOMOKU, black, white);
    assert_eq!(gomoku.to_move(), cpbim::Color::Black);
    assert_eq!(solve_checked(&gomoku, 12), (Outcome::Win, 2));
    let renju = position(Game::RENJU, black, white);
    assert_eq!(
        cpbim::renju::forbidden(renju.board(), Game::RENJU.parse_point("H8").unwrap()),
        Some(cpbim::renju::Forbidden::DoubleFour)
    );
    assert_ne!(solve_checked(&renju, 12).0, Outcome::Win);
}
