//! Reading positions: the three formats, and one clear error for every kind of bad input.

use cpbim::Game;
use cpbim::{parse_position, Color, ParseError, Point, PositionError};
use proptest::prelude::*;

fn err(text: &str) -> ParseError {
    parse_position(text, Game::CONNECT6).expect_err(text)
}

fn msg(text: &str) -> String {
    err(text).to_string()
}

#[test]
fn stone_list_basics() {
    let p = parse_position("J10 K11 I11 H11 I10", Game::CONNECT6).unwrap();
    assert_eq!(p.stones().len(), 5);
    assert_eq!(p.to_move(), Color::White);
    assert_eq!(p.board().get("H11".parse().unwrap()), Some(Color::Black));
    assert_eq!(
        parse_position("", Game::CONNECT6).unwrap().to_move(),
        Color::Black
    );
    assert_eq!(
        parse_position("# nothing yet\n", Game::CONNECT6)
            .unwrap()
            .stones()
            .len(),
        0
    );
}

#[test]
fn off_board_point_names_the_token() {
    let m = msg("J10 T11 I11");
    assert!(m.contains("\"T11\"") && m.contains("off the board"), "{m}");
    let m = msg("J10 K20 I11");
    assert!(
        m.contains("\"K20\"") && m.contains("rows run from 1 to 19"),
        "{m}"
    );
}

#[test]
fn not_a_point_names_the_token() {
    let m = msg("J10 K11 hello");
    assert!(m.contains("\"hello\"") && m.contains("not a point"), "{m}");
    let m = msg("J10 K11 $");
    assert!(m.contains("\"$\""), "{m}");
}

#[test]
fn occupied_point() {
    assert_eq!(
        err("J10 K11 j10"),
        ParseError::Position(PositionError::Occupied {
            token: "j10".into()
        })
    );
}

#[test]
fn illegal_stone_count() {
    assert!(matches!(
        err("J10 K11"),
        ParseError::Position(PositionError::StoneCount { count: 2, .. })
    ));
    assert!(msg("J10 K11 I11 H11").contains("4 stones is not a move boundary"));
}

#[test]
fn already_won() {
    // Black completes D5..I5 with its last move.
    let line = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5";
    let m = msg(line);
    assert!(
        m.contains("already won") && m.contains("black") && m.contains("D5 E5 F5 G5 H5 I5"),
        "{m}"
    );
}

#[test]
fn diagram_reads_and_round_trips() {
    let p = parse_position("J10 K11 I11 H11 I10", Game::CONNECT6).unwrap();
    let d = p.to_diagram();
    let q = parse_position(&d, Game::CONNECT6).unwrap();
    assert_eq!(q.board(), p.board());
    // Without margins, with B/W letters and no spaces.
    let bare: String = d
        .lines()
        .skip(1)
        .take(19)
        .map(|l| {
            l[3..3 + 37]
                .replace(' ', "")
                .replace('X', "B")
                .replace('O', "W")
                + "\n"
        })
        .collect();
    assert_eq!(
        parse_position(&bare, Game::CONNECT6).unwrap().board(),
        p.board()
    );
}

#[test]
fn diagram_errors() {
    let p = parse_position("J10", Game::CONNECT6).unwrap();
    let d = p.to_diagram();
    // Unknown character, with its line and column.
    let bad = d.replacen(" . ", " ? ", 1);
    match err(&bad) {
        ParseError::UnknownChar { ch, line, .. } => {
            assert_eq!(ch, '?');
            assert_eq!(line, 2);
        }
        e => panic!("{e}"),
    }
    // Too few rows.
    let short: String = d.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert!(
        msg(&short).contains("board lines, expected 19"),
        "{}",
        msg(&short)
    );
    // A short row.
    let row = d.replacen(" . 19\n", " 19\n", 1);
    assert!(msg(&row).contains("cells"), "{}", msg(&row));
    // Impossible colour counts: two black stones, no white.
    let two = d.replacen('.', "X", 1);
    assert!(matches!(
        err(&two),
        ParseError::Position(PositionError::ColorCounts {
            black: 2,
            white: 0,
            ..
        })
    ));
    // Wrong row label.
    let lab = d.replacen("19 .", "18 .", 1);
    assert!(msg(&lab).contains("row label"), "{}", msg(&lab));
}

#[test]
fn sgf_both_styles() {
    let lg = parse_position(
        "(;FF[4]EV[connect6.ch]PB[a]PW[b];B[j10];W[j9l11];B[k9l8])",
        Game::CONNECT6,
    )
    .unwrap();
    assert_eq!(lg.to_stone_list(), "J10  J9 L11  K9 L8");
    let per_node = parse_position(
        "(;GM[Connect6];B[JJ];W[LH];W[HH];B[KK];B[JK])",
        Game::CONNECT6,
    )
    .unwrap();
    assert_eq!(per_node.to_stone_list(), "J10  L12 H12  K9 J9");
    // Variations: the main line is read.
    let var = parse_position("(;B[j10](;W[j9l11])(;W[a1a2]))", Game::CONNECT6).unwrap();
    assert_eq!(var.to_stone_list(), "J10  J9 L11");
}

#[test]
fn sgf_errors() {
    assert!(matches!(
        err("(;B[j10];W[j9l11]"),
        ParseError::SgfTruncated(_)
    ));
    assert!(matches!(
        err("(;B[j10];W[j9l1"),
        ParseError::SgfTruncated(_)
    ));
    let m = msg("(;B[j10];W[zz])");
    assert!(m.contains("\"zz\"") && m.contains("off the board"), "{m}");
    let m = msg("(;B[j10];B[j9l11])");
    assert!(m.contains("white's"), "{m}");
    let m = msg("(;B[j10];W[j9l11k3])");
    assert!(m.contains("one or two stones"), "{m}");
    let m = msg("(;B[j10];W[hello])");
    assert!(m.contains("hello"), "{m}");
    let m = msg("(;B[j10]X;W[a1a2])");
    assert!(m.contains("malformed SGF") || m.contains("no value"), "{m}");
    let m = msg("(;AB[j10])");
    assert!(m.contains("setup property AB"), "{m}");
    let m = msg("(;B[j10];W[j10a1])");
    assert!(m.contains("already occupied"), "{m}");
    let m = msg("(;B[j10];W[a1a2]) trailing");
    assert!(m.contains("after the game tree"), "{m}");
}

#[test]
fn point_notation_is_case_insensitive_and_output_upper() {
    let p: Point = "s19".parse().unwrap();
    assert_eq!(p.to_string(), "S19");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn parsers_never_panic_on_arbitrary_strings(s in "\\PC{0,200}") {
        let _ = parse_position(&s, Game::CONNECT6);
        let _ = cpbim::notation::parse_sgf(&s, Game::CONNECT6);
        let _ = cpbim::notation::parse_diagram(&s, Game::CONNECT6, None);
        let _ = cpbim::notation::parse_stone_list(&s, Game::CONNECT6);
    }

    #[test]
    fn parsers_never_panic_on_near_miss_inputs(
        s in "[(;)\\[\\]BWjJaAsS0-9 .XO\n#,]{0,300}"
    ) {
        let _ = parse_position(&s, Game::CONNECT6);
        let _ = cpbim::notation::parse_sgf(&s, Game::CONNECT6);
        let _ = cpbim::notation::parse_diagram(&s, Game::CONNECT6, None);
    }

    #[test]
    fn stone_lists_round_trip(n in 0usize..40, seed in any::<u64>()) {
        // A random legal game prefix without six, written and read back.
        let mut rng = seed;
        let mut stones: Vec<Point> = Vec::new();
        let count = if n == 0 { 0 } else { 2 * (n / 2) + 1 };
        while stones.len() < count {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let i = (rng >> 33) as usize % 361;
            let p = Point::new(i % 19, i / 19).unwrap();
            if !stones.contains(&p) { stones.push(p); }
        }
        if let Ok(pos) = cpbim::Position::from_stones(Game::CONNECT6, &stones) {
            let back = parse_position(&pos.to_stone_list(), Game::CONNECT6).unwrap();
            prop_assert_eq!(&back, &pos);
            let d = parse_position(&pos.to_diagram(), Game::CONNECT6).unwrap();
            prop_assert_eq!(d.board(), pos.board());
            let sgf = parse_position(&cpbim::notation::to_sgf(&pos), Game::CONNECT6).unwrap();
            prop_assert_eq!(sgf, pos);
        }
    }
}

#[test]
fn a_line_is_not_a_diagram() {
    let diagram = cpbim::Position::from_stones(Game::CONNECT6, &["J10".parse().unwrap()])
        .unwrap()
        .to_diagram();
    assert_eq!(
        cpbim::notation::parse_line(&diagram, Game::CONNECT6),
        Err(cpbim::ParseError::NotALine)
    );
    let line = cpbim::notation::parse_line("J10 K11 I11", Game::CONNECT6).unwrap();
    assert_eq!(cpbim::notation::list::write(&line), "J10  K11 I11");
    let sgf = cpbim::notation::parse_line("(;B[j10];W[k11i11])", Game::CONNECT6).unwrap();
    assert_eq!(sgf, line);
}
