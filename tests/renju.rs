//! Renju's forbidden points (RIF 9.2–9.3) of the library against the reference of
//! `tests/common/renju.rs`, written from the rules alone: the textbook cases worked out by hand
//! (both must give the stated verdict), then thousands of random positions where the two must
//! agree on every empty point.
//!
//! Diagrams: a line is a row number and the row's 15 points, A to O; `X` black, `O` white, `.`
//! empty, `*` the (empty) point examined. Rows left out are empty; other lines are ignored.

mod common;

use common::{name_on, renju as reference, Rules};
use cpbim::renju::{self, Forbidden};
use cpbim::{Board, Color, Game, Point};
use std::collections::BTreeMap;

fn rules() -> Rules {
    Rules::of(&Game::RENJU)
}

/// The library's point of the oracle's point `i` (`row · 15 + col`), through its name.
fn lib_point(i: usize) -> Point {
    Game::RENJU
        .parse_point(&name_on(&rules(), i))
        .expect("on the board")
}

/// The library's board of the oracle's cells.
fn board_of(cells: &[u8]) -> Board {
    let mut board = Board::new(Game::RENJU);
    for (i, &c) in cells.iter().enumerate() {
        let stone = match c {
            0 => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        };
        board.set(lib_point(i), stone);
    }
    board
}

/// The diagram of `cells`, `*` on `mark`.
fn diagram(cells: &[u8], mark: Option<usize>) -> String {
    let r = rules();
    let mut s = String::from("    A B C D E F G H I J K L M N O\n");
    for row in (0..r.n).rev() {
        s += &format!("{:>3}", row + 1);
        for col in 0..r.m {
            let i = row * r.m + col;
            let ch = match cells[i] {
                _ if Some(i) == mark => '*',
                0 => '.',
                1 => 'X',
                _ => 'O',
            };
            s.push(' ');
            s.push(ch);
        }
        s.push('\n');
    }
    s
}

/// The cells of a diagram and its `*` point.
fn parse(text: &str) -> (Vec<u8>, usize) {
    let r = rules();
    let mut cells = vec![0u8; r.m * r.n];
    let mut mark = None;
    for line in text.lines() {
        let mut tokens = line.split_whitespace();
        let Some(row) = tokens.next().and_then(|t| t.parse::<usize>().ok()) else {
            continue;
        };
        let points: Vec<&str> = tokens.collect();
        assert_eq!(points.len(), r.m, "row {row} has {} points", points.len());
        for (col, t) in points.into_iter().enumerate() {
            let i = (row - 1) * r.m + col;
            match t {
                "." => {}
                "X" => cells[i] = 1,
                "O" => cells[i] = 2,
                "*" => {
                    assert!(mark.is_none(), "two points marked");
                    mark = Some(i);
                }
                _ => panic!("unknown point {t:?} in row {row}"),
            }
        }
    }
    (cells, mark.expect("a point marked *"))
}

/// The library's verdict on the oracle's point `i`.
fn library(board: &Board, i: usize) -> Option<&'static str> {
    renju::forbidden(board, lib_point(i)).map(Forbidden::name)
}

/// Both verdicts on the marked point must be `expected`; and on every empty point of the
/// diagram, the library (point by point and by `forbidden_points`) must agree with the reference.
fn case(text: &str, expected: Option<&str>) {
    let (cells, p) = parse(text);
    let r = rules();
    let board = board_of(&cells);
    let pic = diagram(&cells, Some(p));
    let at = name_on(&r, p);
    assert_eq!(
        reference::forbidden(&r, &cells, p),
        expected,
        "reference on {at}\n{pic}"
    );
    assert_eq!(library(&board, p), expected, "library on {at}\n{pic}");
    agree_everywhere(&cells);
}

/// The verdict (which must be the same for both) on `at` of the diagram's position with
/// black also on each of `more`.
fn verdict_after(text: &str, more: &[&str], at: &str) -> Option<&'static str> {
    let r = rules();
    let (mut cells, _) = parse(text);
    for m in more {
        cells[common::point_on(&r, m)] = 1;
    }
    let q = common::point_on(&r, at);
    let board = board_of(&cells);
    let (want, got) = (reference::forbidden(&r, &cells, q), library(&board, q));
    assert_eq!(
        got,
        want,
        "library and reference on {at}\n{}",
        diagram(&cells, Some(q))
    );
    want
}

/// Counted (besides the verdicts) by [`agree_everywhere`]: points that are a double three only
/// if false threes were counted as threes.
const FALSE_THREE: &str = "(no double three for a false three)";
/// Points whose verdict needs the recursion two levels deep or more.
const NESTED: &str = "(verdict needs depth 2 or more)";

/// Counts of the verdicts on the empty points of `cells`, after checking that the library and the
/// reference agree on each and that `forbidden_points` lists exactly the forbidden ones.
fn agree_everywhere(cells: &[u8]) -> BTreeMap<&'static str, usize> {
    let r = rules();
    let board = board_of(cells);
    let mut counts = BTreeMap::new();
    let mut expected_list = Vec::new();
    for i in 0..cells.len() {
        if cells[i] != 0 {
            continue;
        }
        let want = reference::forbidden(&r, cells, i);
        let got = library(&board, i);
        assert_eq!(
            got,
            want,
            "library {got:?}, reference {want:?} on {}\n{}",
            name_on(&r, i),
            diagram(cells, Some(i))
        );
        *counts.entry(want.unwrap_or("allowed")).or_insert(0) += 1;
        // Points where the recursion matters: a double three when every straight-four point
        // counts, and (deeper) a different verdict when those points are checked one level only.
        if reference::forbidden_to_depth(&r, cells, i, 0) == Some("double three") {
            if want != Some("double three") {
                *counts.entry(FALSE_THREE).or_insert(0) += 1;
            }
            if reference::forbidden_to_depth(&r, cells, i, 1) != want {
                *counts.entry(NESTED).or_insert(0) += 1;
            }
        }
        if let Some(why) = want {
            expected_list.push((lib_point(i), why));
        }
    }
    let mut listed: Vec<(Point, &'static str)> = renju::forbidden_points(&board)
        .into_iter()
        .map(|(q, f)| (q, f.name()))
        .collect();
    listed.sort();
    expected_list.sort();
    assert_eq!(
        listed,
        expected_list,
        "forbidden_points differs\n{}",
        diagram(cells, None)
    );
    counts
}

// ---------------------------------------------------------------------------------------------
// The rules' cases, worked out by hand.

/// F8 G8 · H8 makes the open three F8 G8 H8 (E8 makes the straight four E8–H8: D8 and I8
/// empty, C8 and J8 not black), H6 H7 · H8 the open three H6–H8 (H9 makes H6–H9). Neither E8
/// nor H9 is forbidden (each makes only that four), so both threes are real: double three.
#[test]
fn double_three_is_forbidden() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . X X * . . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
     5  . . . . . . . . . . . . . . .
        ",
        Some("double three"),
    );
    // A split three F8 · H8 I8 (G8 makes the straight four F8–I8) and a diagonal one F6 G7 H8.
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . X . * X . . . . . .
     7  . . . . . . X . . . . . . . .
     6  . . . . . X . . . . . . . . .
     5  . . . . . . . . . . . . . . .
        ",
        Some("double three"),
    );
}

/// The three F8 G8 H8 with white on E8: I8 makes F8–I8, whose end E8 is white, so no straight
/// four (E8 blocks it, and D8, J8 make no run of four). Only the vertical three is left:
/// allowed. With the white stone one point further (D8), I8 makes the straight four F8–I8 (E8
/// gives E8–I8 with D8 white beyond: exactly five; J8 gives F8–J8): a three again, forbidden.
#[test]
fn three_blocked_by_white_is_no_three() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . O X X * . . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . O . X X * . . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
        ",
        Some("double three"),
    );
}

/// F8 G8 H8 with white on J8 and black on C8. I8 makes F8–I8, blocked by J8: no straight four.
/// E8 makes E8–H8, but its end D8 would make C8–H8, six: an overline, not a five, so no
/// straight four either. No three in row 8 (and no four: no five through H8 takes four of its
/// stones), only the vertical three: allowed. Without C8, E8 makes a straight four (D8 gives
/// D8–H8, I8 gives E8–I8 with J8 white beyond): double three.
#[test]
fn false_three_whose_four_would_need_an_overline() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . X . . X X * . O . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . X X * . O . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
        ",
        Some("double three"),
    );
}

/// F8 G8 H8 with J8 white: the only straight-four point of row 8 is E8 (as above). But E8, with
/// H8 on the board, makes E5–E10 in column E: an overline, forbidden (its four in row 8 is no
/// five). So the three in row 8 is false; the vertical three H6–H8 is real (H9 makes only the
/// straight four H6–H9): one three, allowed.
#[test]
fn false_three_whose_four_point_is_forbidden() {
    let text = "
        A B C D E F G H I J K L M N O
    11  . . . . . . . . . . . . . . .
    10  . . . . X . . . . . . . . . .
     9  . . . . X . . . . . . . . . .
     8  . . . . . X X * . O . . . . .
     7  . . . . X . . X . . . . . . .
     6  . . . . X . . X . . . . . . .
     5  . . . . X . . . . . . . . . .
     4  . . . . . . . . . . . . . . .
        ";
    case(text, None);
    assert_eq!(verdict_after(text, &["H8"], "E8"), Some("overline"));
    assert_eq!(verdict_after(text, &["H8"], "H9"), None);
}

/// The nested case. H8 has the vertical three H6–H8 (real: H9 makes only a straight four) and
/// the row-8 three F8 G8 H8 whose only straight-four point is E8 (J8 white blocks I8). Whether
/// that three is real depends on E8, with H8 on the board: E8 makes a four in row 8 (D8 or I8
/// give the five E8–… of the same stones), a three E6 E7 E8 in column E whose only
/// straight-four point is E5 (E10 white blocks E9), and a three E8 F9 G10 on the diagonal
/// (H11 makes E8–H11, ends D7 and I12).
///
/// * Row 5 empty: E5 (with H8, E8) makes just the straight four E5–E8, so it is allowed, E8's
///   column three is real, E8 is a double three (with a four) and forbidden, H8's row-8 three
///   is false: H8 is allowed.
/// * Row 5 with B5 C5 D5 F5 G5: E5 makes B5–G5, an overline, so E8's column three is false; its
///   diagonal three stays real (H11 allowed; D7 no longer helps since C6 would give B5–G10,
///   six), so E8 is a four-three, allowed, H8's row-8 three is real: H8 is a double three.
#[test]
fn nested_three_depends_on_a_double_three_two_levels_down() {
    let without = "
        A B C D E F G H I J K L M N O
    12  . . . . . . . . . . . . . . .
    11  . . . . . . . . . . . . . . .
    10  . . . . O . X . . . . . . . .
     9  . . . . . X . . . . . . . . .
     8  . . . . . X X * . O . . . . .
     7  . . . . X . . X . . . . . . .
     6  . . . . X . . X . . . . . . .
     5  . . . . . . . . . . . . . . .
     4  . . . . . . . . . . . . . . .
        ";
    case(without, None);
    assert_eq!(verdict_after(without, &["H8"], "E8"), Some("double three"));
    assert_eq!(verdict_after(without, &["H8", "E8"], "E5"), None);
    assert_eq!(verdict_after(without, &["H8", "E8"], "H11"), None);

    let with = "
        A B C D E F G H I J K L M N O
    12  . . . . . . . . . . . . . . .
    11  . . . . . . . . . . . . . . .
    10  . . . . O . X . . . . . . . .
     9  . . . . . X . . . . . . . . .
     8  . . . . . X X * . O . . . . .
     7  . . . . X . . X . . . . . . .
     6  . . . . X . . X . . . . . . .
     5  . X X X . X X . . . . . . . .
     4  . . . . . . . . . . . . . . .
        ";
    case(with, Some("double three"));
    // One level of recursion is not enough here: E8 would look like a double three.
    let (cells, h8) = parse(with);
    let r = rules();
    assert_eq!(reference::forbidden_to_depth(&r, &cells, h8, 1), None);
    assert_eq!(
        reference::forbidden_to_depth(&r, &cells, h8, 2),
        Some("double three")
    );
    assert_eq!(verdict_after(with, &["H8"], "E8"), None);
    assert_eq!(verdict_after(with, &["H8", "E8"], "E5"), Some("overline"));
    assert_eq!(verdict_after(with, &["H8", "E8"], "H11"), None);
    assert_eq!(verdict_after(with, &["H8"], "H5"), None);
}

/// F8 G8 H8 I8 is a four (E8 or J8 make a five of the same four stones: one four), H6 H7 H8 a
/// three (H9 allowed). Four-three is allowed.
#[test]
fn four_three_is_allowed() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . X X * X . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
        ",
        None,
    );
}

/// F8 G8 H8 I8 (closed by E8: only J8 makes the five) and H5 H6 H7 H8 (closed by H4: only H9):
/// two fours in two directions.
#[test]
fn double_four_in_two_directions_is_forbidden() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . O X X * X . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
     5  . . . . . . . X . . . . . . .
     4  . . . . . . . O . . . . . . .
        ",
        Some("double four"),
    );
}

/// `X.XXX.X` with H8 the middle stone: F8 makes E8–I8 (D8, J8 empty: exactly five) from the
/// stones E8 G8 H8 I8, J8 makes G8–K8 (F8, L8 empty) from G8 H8 I8 K8: two fours in one line.
/// Likewise `XX.XX.XX`: F8 makes D8–H8 from D8 E8 G8 H8, I8 makes G8–K8 from G8 H8 J8 K8.
#[test]
fn four_four_in_one_line_is_forbidden() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . X . X * X . X . . . .
     7  . . . . . . . . . . . . . . .
        ",
        Some("double four"),
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . X X . X * . X X . . . .
     7  . . . . . . . . . . . . . . .
        ",
        Some("double four"),
    );
}

/// E8 F8 G8 · I8 J8: H8 makes a run of six. C8–G8 · H8: six again, from one end.
#[test]
fn overline_is_forbidden() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . X X X * X X . . . . .
     7  . . . . . . . . . . . . . . .
        ",
        Some("overline"),
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . X X X X X * . . . . . . .
     7  . . . . . . . . . . . . . . .
        ",
        Some("overline"),
    );
}

/// D8–G8 · H8 is exactly five (C8 and I8 empty): allowed, also with H8 in the middle of the five
/// (F8 G8 · I8 J8). With black on C8 the same move is an overline.
#[test]
fn exactly_five_is_allowed() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . X X X X * . . . . . . .
     7  . . . . . . . . . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . X X * X X . . . . .
     7  . . . . . . . . . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . X X X X X * . . . . . . .
     7  . . . . . . . . . . . . . . .
        ",
        Some("overline"),
    );
}

/// H8 makes the five D8–H8 and also the fours H5–H8 and E5–H8 (a double four), or the overline
/// H5–H10: a five wins, allowed. Without D8–G8 the same stones are forbidden.
#[test]
fn five_beats_double_four_and_overline() {
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . X X X X * . . . . . . .
     7  . . . . . . X X . . . . . . .
     6  . . . . . X . X . . . . . . .
     5  . . . . X . . X . . . . . . .
     4  . . . . . . . . . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
     9  . . . . . . . . . . . . . . .
     8  . . . . . . . * . . . . . . .
     7  . . . . . . X X . . . . . . .
     6  . . . . . X . X . . . . . . .
     5  . . . . X . . X . . . . . . .
     4  . . . . . . . . . . . . . . .
        ",
        Some("double four"),
    );
    case(
        "
        A B C D E F G H I J K L M N O
    11  . . . . . . . . . . . . . . .
    10  . . . . . . . X . . . . . . .
     9  . . . . . . . X . . . . . . .
     8  . . . X X X X * . . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
     5  . . . . . . . X . . . . . . .
     4  . . . . . . . . . . . . . . .
        ",
        None,
    );
    case(
        "
        A B C D E F G H I J K L M N O
    11  . . . . . . . . . . . . . . .
    10  . . . . . . . X . . . . . . .
     9  . . . . . . . X . . . . . . .
     8  . . . . . . . * . . . . . . .
     7  . . . . . . . X . . . . . . .
     6  . . . . . . . X . . . . . . .
     5  . . . . . . . X . . . . . . .
     4  . . . . . . . . . . . . . . .
        ",
        Some("overline"),
    );
}

/// The restrictions are black's: `applies` is true for black in Renju only. White stones in the
/// shapes of a double three, a double four and an overline forbid nothing (H8, I3 and C12 would
/// be forbidden for white were the shapes black), and no point is forbidden on the board.
#[test]
fn white_has_no_forbidden_points() {
    assert!(renju::applies(&Game::RENJU, Color::Black));
    assert!(!renju::applies(&Game::RENJU, Color::White));
    assert!(!renju::applies(&Game::GOMOKU, Color::Black));
    assert!(!renju::applies(&Game::GOMOKU_STANDARD, Color::Black));
    assert!(!renju::applies(&Game::CONNECT6, Color::Black));
    let text = "
        A B C D E F G H I J K L M N O
    13  . . . . . . . . . . . . . . .
    12  O O . O O O . . . . . . . . .
    11  . . . . . . . . . . . . . . .
     9  . . . . . . . . . . . . . . .
     8  . . . . . O O * . . . . . . .
     7  . . . . . . . O . . . . . . .
     6  . . . . . . . O . . . . . . .
     5  . . . . . . . . . . . . . . .
     4  . . . . . . . . O . . . . . .
     3  . . . . . O O O . . . . . . .
     2  . . . . . . . . O . . . . . .
     1  . . . . . . . . O . . . . . .
        ";
    case(text, None);
    let (cells, _) = parse(text);
    let counts = agree_everywhere(&cells);
    assert_eq!(counts.len(), 1, "nothing forbidden: {counts:?}");
    assert!(renju::forbidden_points(&board_of(&cells)).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Random positions.

/// xorshift64*, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (near enough).
    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }
}

/// A random position: 10 to 60 stones in a box of half-side 2 to 7 around a centre anywhere
/// from D4 to L12 (so that the edges come in), black 50–75 % of them.
fn random_cells(rng: &mut Rng) -> Vec<u8> {
    let r = rules();
    let mut cells = vec![0u8; r.m * r.n];
    let half = 2 + rng.below(6);
    let (cc, cr) = (3 + rng.below(9), 3 + rng.below(9));
    let cols = cc.saturating_sub(half)..(cc + half + 1).min(r.m);
    let rows = cr.saturating_sub(half)..(cr + half + 1).min(r.n);
    let room = cols.len() * rows.len();
    let stones = (10 + rng.below(51)).min(room * 3 / 4);
    let black_percent = 50 + 5 * rng.below(6);
    let mut placed = 0;
    while placed < stones {
        let col = cols.start + rng.below(cols.len());
        let row = rows.start + rng.below(rows.len());
        let i = row * r.m + col;
        if cells[i] == 0 {
            cells[i] = if rng.below(100) < black_percent { 1 } else { 2 };
            placed += 1;
        }
    }
    cells
}

/// On 5,000 random positions, every empty point: the library's verdict is the reference's, and
/// `forbidden_points` lists exactly the forbidden points.
#[test]
fn random_positions_agree_with_the_reference() {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut totals: BTreeMap<&'static str, usize> = BTreeMap::new();
    let positions = 5_000;
    for _ in 0..positions {
        let cells = random_cells(&mut rng);
        for (why, n) in agree_everywhere(&cells) {
            *totals.entry(why).or_insert(0) += n;
        }
    }
    println!("verdicts on the empty points of {positions} positions: {totals:?}");
    for (why, min) in [
        ("allowed", 100_000),
        ("overline", 1_000),
        ("double four", 1_000),
        ("double three", 1_000),
        (FALSE_THREE, 100),
        (NESTED, 10),
    ] {
        let n = totals.get(why).copied().unwrap_or(0);
        assert!(n >= min, "only {n} points {why} (want {min}): {totals:?}");
    }
}

/// `forbidden_reading` (what the relevance zone of a Renju proof is built from): on 600 random
/// positions, at every empty point where some shape is near (a double three when every
/// straight-four point counts), its verdict is `forbidden`'s, and a stone of either colour on
/// any empty point outside the points it read leaves the reference's verdict as it was.
#[test]
fn a_stone_outside_the_points_read_changes_no_verdict() {
    let r = rules();
    let mut rng = Rng(0x5eed_0000_7ead_0001);
    let (mut checked, mut changes, mut changed_inside) = (0usize, 0usize, 0usize);
    for _ in 0..600 {
        let mut cells = random_cells(&mut rng);
        let board = board_of(&cells);
        for i in 0..cells.len() {
            if cells[i] != 0 || reference::forbidden_to_depth(&r, &cells, i, 0).is_none() {
                continue;
            }
            let mut reads = cpbim::PointSet::EMPTY;
            let got = renju::forbidden_reading(&board, lib_point(i), &mut reads).map(|f| f.name());
            let want = reference::forbidden(&r, &cells, i);
            assert_eq!(got, want, "{}", diagram(&cells, Some(i)));
            for j in 0..cells.len() {
                if j == i || cells[j] != 0 {
                    continue;
                }
                for c in [1, 2] {
                    cells[j] = c;
                    let after = reference::forbidden(&r, &cells, i);
                    cells[j] = 0;
                    if reads.contains(lib_point(j)) {
                        changed_inside += usize::from(after != want);
                        continue;
                    }
                    checked += 1;
                    changes += usize::from(after != want);
                    assert_eq!(
                        after,
                        want,
                        "a stone {c} on {} outside the points read changes {}\n{}",
                        name_on(&r, j),
                        name_on(&r, i),
                        diagram(&cells, Some(i))
                    );
                }
            }
        }
    }
    println!("{checked} stones outside the points read, {changes} changed a verdict; {changed_inside} inside did");
    assert!(checked >= 100_000, "only {checked}");
    assert!(changed_inside >= 1_000, "only {changed_inside}");
}
