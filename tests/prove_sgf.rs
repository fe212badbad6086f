//! `cpbim prove --sgf FILE`: the proof as an SGF tree. Every line of the tree, played from the
//! position, is a sequence of legal moves alternating between the sides (a defender's pass
//! being an empty move) and ends with the attacker's row completed, or with an attack that no
//! defender move stops (checked by brute force on the board); the main line starts with the
//! position itself.

mod common;

use cpbim::{Color, Game};

/// An SGF game tree: its nodes' properties, then its variations.
#[derive(Debug, Default)]
struct Tree {
    nodes: Vec<Vec<(String, Vec<String>)>>,
    variations: Vec<Tree>,
}

/// A minimal SGF reader, enough for what `prove` writes (escapes in values kept as given).
fn parse(text: &[u8], at: &mut usize) -> Tree {
    let skip = |at: &mut usize| {
        while *at < text.len() && text[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    skip(at);
    assert_eq!(text[*at], b'(', "a tree opens at {at}");
    *at += 1;
    let mut tree = Tree::default();
    loop {
        skip(at);
        match text[*at] {
            b';' => {
                *at += 1;
                let mut props = Vec::new();
                loop {
                    skip(at);
                    let start = *at;
                    while text[*at].is_ascii_uppercase() {
                        *at += 1;
                    }
                    if start == *at {
                        break;
                    }
                    let ident = String::from_utf8(text[start..*at].to_vec()).unwrap();
                    let mut values = Vec::new();
                    while text[*at] == b'[' {
                        let mut value = Vec::new();
                        *at += 1;
                        while text[*at] != b']' {
                            if text[*at] == b'\\' {
                                *at += 1;
                            }
                            value.push(text[*at]);
                            *at += 1;
                        }
                        *at += 1;
                        values.push(String::from_utf8(value).unwrap());
                    }
                    props.push((ident, values));
                }
                tree.nodes.push(props);
            }
            b'(' => tree.variations.push(parse(text, at)),
            b')' => {
                *at += 1;
                return tree;
            }
            c => panic!("unexpected {:?} at {at}", c as char),
        }
    }
}

/// The points of a move value: `j10k11` (two stones a move), `hh` (one stone a move: column,
/// then row counted from the top).
fn points(game: &Game, value: &str) -> Vec<cpbim::Point> {
    if game.p() == 1 && !value.is_empty() {
        let v = value.as_bytes();
        assert_eq!(v.len(), 2, "{value}");
        let (col, from_top) = ((v[0] - b'a') as usize, (v[1] - b'a') as usize);
        return vec![cpbim::Point::new(col, game.n() - 1 - from_top).unwrap()];
    }
    let mut out = Vec::new();
    let mut token = String::new();
    for c in value.chars() {
        if c.is_ascii_alphabetic() && !token.is_empty() {
            out.push(game.parse_point(&token).unwrap());
            token.clear();
        }
        token.push(c);
    }
    if !token.is_empty() {
        out.push(game.parse_point(&token).unwrap());
    }
    out
}

/// What the walk saw.
#[derive(Default, Debug)]
struct Lines {
    lines: usize,
    rows: usize,
    unstoppable: usize,
    passes: usize,
}

/// The empty points of every window of k points on `board` that holds no stone of `a`'s
/// opponent and at least k − p of `a`'s: where `a` completes a row next move.
fn live_windows(game: &Game, board: &cpbim::Board, a: Color) -> Vec<Vec<cpbim::Point>> {
    let (k, p) = (game.k() as isize, game.p());
    let (m, n) = (game.m() as isize, game.n() as isize);
    let mut out = Vec::new();
    for col in 0..m {
        for row in 0..n {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let points: Option<Vec<_>> = (0..k)
                    .map(|i| {
                        let (c, r) = (col + i * dc, row + i * dr);
                        let inside = c >= 0 && r >= 0 && c < m && r < n;
                        inside.then(|| cpbim::Point::new(c as usize, r as usize).unwrap())
                    })
                    .collect();
                let Some(points) = points else { continue };
                let own = points.iter().filter(|&&x| board.get(x) == Some(a)).count();
                let theirs = points.iter().any(|&x| board.get(x) == Some(a.opponent()));
                if !theirs && own + p >= k as usize {
                    out.push(points.into_iter().filter(|&x| board.is_empty(x)).collect());
                }
            }
        }
    }
    out
}

/// No move of the defender (p stones) meets every window where `a` completes a row next move:
/// brute force over the windows' empty points.
fn unstoppable(game: &Game, board: &cpbim::Board, a: Color) -> bool {
    let windows = live_windows(game, board, a);
    let mut points: Vec<cpbim::Point> = windows.iter().flatten().copied().collect();
    points.sort();
    points.dedup();
    let hits_all = |d: &[cpbim::Point]| windows.iter().all(|w| w.iter().any(|x| d.contains(x)));
    let blocked = match game.p() {
        1 => points.iter().any(|&x| hits_all(&[x])),
        _ => points
            .iter()
            .enumerate()
            .any(|(i, &x)| points[i..].iter().any(|&y| hits_all(&[x, y]))),
    };
    !windows.is_empty() && !blocked
}

/// Play `tree` on `board` (the side `next` to move after `played` moves of the proof), checking
/// every move, and count its lines.
fn walk(
    game: &Game,
    tree: &Tree,
    board: &mut cpbim::Board,
    a: Color,
    next: Color,
    seen: &mut Lines,
) {
    let mut placed = Vec::new();
    let mut next = next;
    let mut last = String::new();
    for props in &tree.nodes {
        for (ident, values) in props {
            let colour = match ident.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                "C" => {
                    last = values[0].clone();
                    continue;
                }
                _ => continue,
            };
            assert_eq!(colour, next, "moves alternate");
            let stones = points(game, &values[0]);
            if stones.is_empty() {
                assert_ne!(colour, a, "only the defender passes");
                seen.passes += 1;
            }
            for x in stones {
                assert!(board.is_empty(x), "{x} is taken");
                board.set(x, Some(colour));
                placed.push(x);
            }
            next = colour.opponent();
        }
    }
    if tree.variations.is_empty() {
        seen.lines += 1;
        assert_eq!(next, a.opponent(), "a line ends with the attacker's move");
        if board.find_win_of(a).is_some() {
            seen.rows += 1;
        } else {
            assert_eq!(
                last, "no defence stops every threat",
                "a line ends unfinished"
            );
            assert!(
                unstoppable(game, board, a),
                "a line ends with a threat D can stop"
            );
            seen.unstoppable += 1;
        }
    }
    for v in &tree.variations {
        walk(game, v, board, a, next, seen);
    }
    for x in placed {
        board.set(x, None);
    }
}

/// Prove `side`'s win in `stones` through the CLI with `--sgf` (and `extra` options); walk
/// every line of the tree.
fn proof_lines(stones: &str, game: &str, side: &str, extra: &[&str]) -> Lines {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("proof.sgf");
    let mut args = vec![
        "prove",
        stones,
        "--game",
        game,
        "--side",
        side,
        "--sgf",
        file.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("proven"), "{}", out.stdout);
    let text = std::fs::read_to_string(&file).unwrap();
    let game: Game = game.parse().unwrap();
    let a = if side == "black" {
        Color::Black
    } else {
        Color::White
    };
    // The main line starts with the position: cpbim's own reader plays it.
    let pos = cpbim::parse_position(stones, game).unwrap();
    let main = cpbim::notation::sgf::parse_sgf(&text, game).unwrap();
    assert_eq!(&main.stones()[..pos.stones().len()], pos.stones());
    // Every line, from the empty board.
    let tree = parse(text.as_bytes(), &mut 0);
    let mut board = cpbim::Board::new(game);
    let mut seen = Lines::default();
    walk(&game, &tree, &mut board, a, Color::Black, &mut seen);
    seen
}

#[test]
fn every_line_of_a_connect6_proof_is_legal_and_ends_won() {
    let seen = proof_lines(
        "j10 j11 k10 k11 i12 l12 l9 m8 l11 n11 n9 n10 o12 k8 j9 i6 k9 i10 h11 g12 l7 h12 g11 f11 h9 h13 g10 h14 i13 g15 i15",
        "connect6",
        "black",
        &[],
    );
    assert!(seen.lines > 10, "{seen:?}");
    assert!(seen.rows + seen.unstoppable == seen.lines, "{seen:?}");
    assert!(seen.passes > 0, "{seen:?}");
}

#[test]
fn every_line_of_a_gomoku_proof_is_legal_and_ends_unstoppable() {
    // The double three (black to move), and the position after it (white to move).
    for stones in ["H8 A1 J8 C1 I7 A3 I9 O15", "H8 A1 J8 C1 I7 A3 I9 O15 I8"] {
        let seen = proof_lines(stones, "gomoku", "black", &[]);
        assert!(seen.lines > 1 && seen.passes > 0, "{seen:?}");
        assert_eq!(seen.rows + seen.unstoppable, seen.lines, "{seen:?}");
    }
}

#[test]
fn every_line_of_a_defender_roots_threat_space_pass_is_legal_and_ends_unstoppable() {
    // White to move; were white to pass, black would win by threats, not by the leaf search.
    let quiet = [
        "--threats",
        "3",
        "--quiet",
        "6",
        "--quiet-depth",
        "2",
        "--width",
        "12",
        "--depth",
        "8",
        "--leaf-depth",
        "8",
    ];
    let by_proof_numbers = [&quiet[..], &["--search", "proof-number"]].concat();
    for args in [&quiet[..], &by_proof_numbers] {
        let seen = proof_lines(
            "E6 C9 D4 B5 G4 D2 F7 C1 D6",
            "connect(9,9,5,1,1)",
            "black",
            args,
        );
        assert!(seen.lines > 20 && seen.passes > 1, "{args:?}: {seen:?}");
        assert_eq!(
            seen.rows + seen.unstoppable,
            seen.lines,
            "{args:?}: {seen:?}"
        );
    }
}
