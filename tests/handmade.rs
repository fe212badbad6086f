//! Positions with known answers: built by hand (stone lists per colour; "fence" white stones
//! kill lines that would give shortcuts), plus a few from real games for the cases that are
//! hard to build. Every answer is also checked by the brute-force reference search where it
//! is cheap enough, and every win by the proof checker.

mod common;

use common::{check_proof, point, reference_solve, Plain};
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{solve, Config, Outcome, Solution};
use cpbim::Game;
use cpbim::{Board, Color, Cpbim, Point, Position, Raw};
use serde_json::Value;

/// Eight white stones spread on row 1: no white window holds more than three.
const WHITE_ROW_1: &str = "A1 C1 E1 G1 J1 L1 N1 Q1";

fn position(black: &str, white: &str) -> Position {
    let mut b = Board::new(Game::CONNECT6);
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for t in list.split_whitespace() {
            let p: Point = t.parse().unwrap();
            assert!(b.is_empty(p), "{t} twice");
            b.set(p, Some(c));
        }
    }
    Position::from_board(b).expect("a legal position")
}

fn plain(pos: &Position) -> Plain {
    let mut cells = vec![0u8; 361];
    for (p, c) in pos.board().iter() {
        cells[point(&p.to_string())] = if c == Color::Black { 1 } else { 2 };
    }
    Plain::new(cells)
}

fn real(game: u64, back: usize) -> Position {
    let games = load_games(&bundled_games_path()).unwrap();
    let g = games.iter().find(|g| g.id == game).unwrap();
    let keep = g.moves.len() - 2 * back;
    let keep = if keep.is_multiple_of(2) {
        keep - 1
    } else {
        keep
    };
    Position::from_stones(Game::CONNECT6, &g.moves[..keep]).unwrap()
}

/// Solve with a proof, check the proof by brute force, and compare with the reference search
/// when `reference_budget` is given.
fn solve_known(pos: &Position, depth: u32, reference_budget: Option<u64>) -> (Solution, Value) {
    let first_cfg = Config {
        depth,
        proof: true,
        ..Config::default()
    };
    // The known answers are the smallest depths: the shortest search; the first-win search
    // must reach the same result with a proof that checks, no shorter.
    let cfg = Config {
        shortest: true,
        ..first_cfg.clone()
    };
    let s = solve::<Cpbim>(pos, &cfg);
    let first = solve::<Cpbim>(pos, &first_cfg);
    assert_eq!(first.outcome, s.outcome);
    assert!(first.depth >= s.depth || first.outcome == Outcome::Nowin);
    if first.outcome == Outcome::Win {
        let b = plain(pos);
        let proof = serde_json::to_value(&first.proof).unwrap();
        let d = check_proof(&b, b.to_move(), &proof).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d, first.depth);
    }
    // Raw, with its own scans and the table-free classifier, must agree exactly.
    let r = solve::<Raw>(pos, &cfg);
    assert_eq!((r.outcome, r.depth, r.nodes), (s.outcome, s.depth, s.nodes));
    let b = plain(pos);
    let proof = serde_json::to_value(&s.proof).unwrap();
    if s.outcome == Outcome::Win {
        let d = check_proof(&b, b.to_move(), &proof).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d, s.depth);
    }
    if let Some(budget) = reference_budget {
        let (result, d) = reference_solve(&b, depth, budget).expect("reference within budget");
        assert_eq!((s.outcome.name(), s.depth), (result, d));
    }
    (s, proof)
}

#[test]
fn win_at_depth_0_an_open_four() {
    let pos = position("J10 K10 L10 M10 A19", "A1 C1 E1 G1 J1 L1");
    let (s, _) = solve_known(&pos, 28, Some(1000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 0));
    // The line is the six itself: two of H10, I10, N10, O10 around J10..M10.
    assert_eq!(s.line.len(), 1);
    assert_eq!(s.proof.unwrap().size(), 1);
}

#[test]
fn win_at_depth_4_two_threes() {
    // A three on row 10 and one on column D: two stones make two fours, thn >= 3.
    let pos = position("J10 K10 L10 D4 D5 D6 S19", WHITE_ROW_1);
    let (s, proof) = solve_known(&pos, 28, Some(100_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 4));
    assert_eq!(
        proof["defenses"],
        serde_json::json!([]),
        "no defence against thn >= 3"
    );
}

#[test]
fn win_at_depth_8_four_then_double_four() {
    // Row 10 C10 D10; columns E and F hold two stones each at rows 12-13; C10 E12 F13 lie on
    // one diagonal. No two stones make three threats, but a four (thn 2) forces a block, after
    // which two stones make three or more: win at 8.
    let pos = position("C10 D10 E12 E13 F12 F13 S19", WHITE_ROW_1);
    let (s, _) = solve_known(&pos, 28, Some(2_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 8));
    // White fences on that diagonal (B9, G14) take one route away; the rows and columns still
    // win at 8.
    let fenced = position("C10 D10 E12 E13 F12 F13 S19", "A1 C1 E1 G1 J1 L1 B9 G14");
    let (s, _) = solve_known(&fenced, 28, Some(2_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 8));
    // With a depth limit of 4 the same position is `nowin`, not `none`: the tree was cut.
    let (s, _) = solve_known(&pos, 4, Some(2_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Nowin, 4));
}

#[test]
fn win_at_depth_12_from_a_real_game() {
    // Game 62, three moves before its end.
    let pos = real(62, 3);
    let (s, _) = solve_known(&pos, 16, Some(5_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 12));
    assert_eq!(
        s.line.len(),
        5,
        "attack, defence, attack, defence, last attack: {:?}",
        s.line
    );
}

#[test]
fn none_a_lone_two() {
    // Black can make one four (thn 2) from J10 K10; every block ends all threats: the
    // exhausted tree proves no double-threat win at depth 4.
    let pos = position("J10 K10 S19", "A1 C1 E1 G1");
    let (s, _) = solve_known(&pos, 28, Some(100_000));
    assert_eq!((s.outcome, s.depth), (Outcome::None, 4));
    // Fewer stones still: no window with two black stones, R is empty.
    let pos = position("J10 A19 S19", "A1 C1 E1 G1");
    let (s, _) = solve_known(&pos, 28, Some(1000));
    assert_eq!((s.outcome, s.depth), (Outcome::None, 0));
}

#[test]
fn nowin_when_the_depth_limit_cuts() {
    let pos = real(62, 3);
    let (s, _) = solve_known(&pos, 8, Some(2_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Nowin, 8));
}

#[test]
fn defender_threat_the_attacker_must_block_while_attacking() {
    // The depth-4 position plus a white four on row 18 (B18..E18, one window to block at
    // F18, or A18 and G18 together). Black's two-fours win is gone: every attack must block.
    let pos = position("J10 K10 L10 D4 D5 D6 S19", "B18 C18 D18 E18 J1 L1 N1 Q1");
    let (s, proof) = solve_known(&pos, 28, None);
    assert_eq!(s.outcome, Outcome::Win);
    assert!(s.depth > 4, "depth {}", s.depth);
    let first: Vec<String> = s.line[0].iter().map(Point::to_string).collect();
    assert!(
        first
            .iter()
            .any(|p| ["A18", "F18", "G18"].contains(&p.as_str())),
        "the first attack {first:?} blocks the white four"
    );
    // Every attack in the proof was checked to leave white without a live window; the root
    // attack is one of the blocking stones and a black threat.
    assert_eq!(proof["attack"], serde_json::json!(s.line[0]));
    let limited = solve::<Cpbim>(
        &pos,
        &Config {
            depth: 4,
            ..Config::default()
        },
    );
    assert_eq!(limited.outcome, Outcome::Nowin);
}

/// Walk a proof; for every defence after which the defender has a live window, return the
/// position and the attack that answers it.
fn defences_making_threats(
    board: &Plain,
    a: u8,
    node: &Value,
    out: &mut Vec<(Plain, Vec<String>)>,
) {
    if node.get("six").is_some() {
        return;
    }
    let mut b = board.clone();
    for p in node["attack"].as_array().unwrap() {
        b.cells[point(p.as_str().unwrap())] = a;
    }
    for d in node["defenses"].as_array().unwrap() {
        let mut c = b.clone();
        for p in d["stones"].as_array().unwrap() {
            c.cells[point(p.as_str().unwrap())] = 3 - a;
        }
        if !c.live(3 - a).is_empty() {
            if let Some(att) = d["next"]["attack"].as_array() {
                out.push((
                    c.clone(),
                    att.iter()
                        .map(|x| x.as_str().unwrap().to_string())
                        .collect(),
                ));
            }
        }
        defences_making_threats(&c, a, &d["next"], out);
    }
}

#[test]
fn a_defence_that_creates_a_defender_threat() {
    // Game 10, five moves before its end: a win at depth 8.
    let pos = real(10, 5);
    let (s, _) = solve_known(&pos, 12, Some(5_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 8));
    // After the attack L6 H7 the defence H5 M5 gives white a live window: black's next attack
    // must block it while keeping the attack. Both searches find such a one, at depth 4.
    let mut stones = pos.stones().to_vec();
    stones.extend(["L6", "H7", "H5", "M5"].map(|x| x.parse::<Point>().unwrap()));
    let after_pos = Position::from_stones(Game::CONNECT6, &stones).unwrap();
    let b = plain(&after_pos);
    let white = b.live(3 - b.to_move());
    assert!(!white.is_empty(), "H5 M5 makes a white live window");
    let (s, proof) = solve_known(&after_pos, 12, Some(5_000_000));
    assert_eq!((s.outcome, s.depth), (Outcome::Win, 4));
    // The proof seen as the answer to an empty defence, so that its root attack is checked
    // with the others.
    let mut found = Vec::new();
    let root = serde_json::json!({"attack": [], "defenses": [{"stones": [], "next": proof}]});
    defences_making_threats(&b, b.to_move(), &root, &mut found);
    assert!(!found.is_empty(), "the root answers a white threat");
    for (board, attack) in &found {
        let windows = board.live(3 - b.to_move());
        for w in &windows {
            assert!(
                attack.iter().any(|p| w.contains(&point(p))),
                "attack {attack:?} leaves a white live window"
            );
        }
    }
}

#[test]
fn the_proof_checker_rejects_tampered_proofs() {
    let pos = position("C10 D10 E12 E13 F12 F13 S19", WHITE_ROW_1);
    let (_, proof) = solve_known(&pos, 28, None);
    let b = plain(&pos);
    let a = b.to_move();
    assert!(check_proof(&b, a, &proof).is_ok());
    // A defence left out.
    let mut t = proof.clone();
    t["defenses"].as_array_mut().unwrap().pop();
    assert!(check_proof(&b, a, &t)
        .unwrap_err()
        .contains("not every blocking move"));
    // An attack stone moved off R.
    let mut t = proof.clone();
    t["attack"][0] = "S1".into();
    assert!(check_proof(&b, a, &t).is_err());
    // A six that is not one.
    let mut t = proof.clone();
    t["defenses"][0]["next"] = serde_json::json!({"six": ["A19", "B19"]});
    assert!(check_proof(&b, a, &t).unwrap_err().contains("does not win"));
    // The defender's reply swapped for a pair that does not block.
    let mut t = proof.clone();
    t["defenses"][0]["stones"] = serde_json::json!(["R19", "S18"]);
    assert!(check_proof(&b, a, &t).is_err());
}
