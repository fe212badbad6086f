//! The baseline players (`cpbim::engine::{seed000, seed004}`, `--player`): the theses'
//! constants, rows completed and blocked, legal moves over self-play games (Renju: never a
//! forbidden point of black, by the tests' own reference), the same answer twice, and the
//! option on the command line.

mod common;

use common::binary::cpbim;
use common::{assert_legal, Plain, Rules};
use cpbim::engine::{player_for, seed000, seed004, Choice, Limits, Params, Player, PlayerKind};
use cpbim::{Board, Color, Game, Point, Position, Record};

fn player(kind: PlayerKind, game: &Game) -> Box<dyn Player> {
    player_for(kind, game, Params::default()).expect("the player plays the game")
}

fn choose(kind: PlayerKind, pos: &Position) -> Choice {
    player(kind, pos.game()).choose(pos, Limits::default())
}

/// The position of `game` with these stones of each colour, `side` to move.
fn position(game: Game, black: &[&str], white: &[&str], side: Color) -> Position {
    let mut b = Board::new(game);
    for (stones, c) in [(black, Color::Black), (white, Color::White)] {
        for s in stones {
            let p = game.parse_point(s).expect("a point");
            assert!(b.is_empty(p), "{s} twice");
            b.set(p, Some(c));
        }
    }
    Record::from_board(b, Some(side))
        .and_then(|r| r.position())
        .expect("a position")
}

/// The board after the side to move of `pos` plays `stones`.
fn after(pos: &Position, stones: &[Point]) -> Board {
    let mut b = pos.board().clone();
    for &p in stones {
        b.set(p, Some(pos.to_move()));
    }
    b
}

fn names(stones: &[Point]) -> Vec<String> {
    stones.iter().map(Point::to_string).collect()
}

/// Play `kind` against itself from `opening` for at most `plies` moves or until the game ends;
/// every move checked legal and, for the player, the same when asked twice. Returns the
/// winner, if any.
fn self_play(kind: PlayerKind, game: Game, opening: &str, plies: usize) -> Option<Color> {
    let mut pos = cpbim::parse_position(opening, game).expect("an opening");
    let mut p = player(kind, &game);
    for _ in 0..plies {
        if pos.board().stones() + pos.stones_to_place() > game.point_count() {
            return None;
        }
        let c = p.choose(&pos, Limits::default());
        assert_legal(&pos, &c.stones);
        let again = player(kind, &game).choose(&pos, Limits::default());
        assert_eq!(c.stones, again.stones, "not deterministic");
        let board = after(&pos, &c.stones);
        if board.find_win_of(pos.to_move()).is_some() {
            return Some(pos.to_move());
        }
        pos = Record::from_board(board, Some(pos.to_move().opponent()))
            .and_then(|r| r.position())
            .expect("a position");
    }
    None
}

// ---- seed000 (Connect6) ----

#[test]
fn seed000_constants_are_thesis_000s() {
    assert_eq!(seed000::C, [7, 65, 122, 298, 525]);
    assert_eq!(seed000::P, [9, 60, 150, 330, 903]);
    assert_eq!(seed000::WIDTH, 3);
    assert_eq!(seed000::DEPTH, 2);
}

#[test]
fn seed000_completes_a_six() {
    let far_white = ["A1", "A3", "A5", "C1", "C5", "E1"];
    // Five in a row: one stone completes it.
    let pos = position(
        Game::CONNECT6,
        &["J10", "K10", "L10", "M10", "N10"],
        &far_white,
        Color::Black,
    );
    let c = choose(PlayerKind::Seed000, &pos);
    assert_legal(&pos, &c.stones);
    assert!(
        after(&pos, &c.stones).find_win_of(Color::Black).is_some(),
        "{:?}",
        names(&c.stones)
    );
    // Four on a diagonal with a white stone below it: both stones are needed.
    let pos = position(
        Game::CONNECT6,
        &["F6", "G7", "H8", "I9", "S19"],
        &["E5", "A3", "A5", "C1", "C5", "E1"],
        Color::Black,
    );
    let c = choose(PlayerKind::Seed000, &pos);
    assert_legal(&pos, &c.stones);
    assert!(
        after(&pos, &c.stones).find_win_of(Color::Black).is_some(),
        "{:?}",
        names(&c.stones)
    );
}

#[test]
fn seed000_blocks_the_opponents_six() {
    let far_black = ["A1", "A3", "A5", "C1", "C5"];
    let cases: [(&[&str], &[&str]); 3] = [
        // Five with one end blocked: one stone must go on the other.
        (&["J10", "K10", "L10", "M10", "N10"], &["I10"]),
        // Five open at both ends: both stones must block.
        (&["J10", "K10", "L10", "M10", "N10"], &[]),
        // Four open at both ends (windows needing two stones): two stones block it.
        (&["K8", "K9", "K10", "K11"], &[]),
    ];
    for (threat, blockers) in cases {
        let black: Vec<&str> = threat.iter().chain(&far_black).copied().collect();
        let mut white: Vec<&str> = blockers.to_vec();
        // White has one stone fewer than black when white is to move.
        let fill = [
            "S19", "S17", "S15", "Q19", "Q15", "O19", "O17", "O15", "Q17",
        ];
        white.extend(fill.iter().take(black.len() - 1 - white.len()));
        let pos = position(Game::CONNECT6, &black, &white, Color::White);
        let c = choose(PlayerKind::Seed000, &pos);
        assert_legal(&pos, &c.stones);
        let next = Record::from_board(after(&pos, &c.stones), Some(Color::Black))
            .and_then(|r| r.position())
            .unwrap();
        let after = Plain::from_position(Rules::CONNECT6, &next);
        assert!(
            after.live(1).is_empty(),
            "black {threat:?}: white played {:?}\n{}",
            names(&c.stones),
            pos.to_diagram()
        );
    }
}

#[test]
fn seed000_plays_legal_deterministic_games() {
    // Every move is checked inside; who wins does not matter here.
    for opening in ["J10", "J10 K10 K11", "J10 J11 K9", "D4 E5 E6"] {
        self_play(PlayerKind::Seed000, Game::CONNECT6, opening, 60);
    }
}

// ---- seed004 (Gomoku, Renju) ----

#[test]
fn seed004_scores_are_thesis_004s() {
    use seed004::*;
    assert_eq!(
        [ONE, TWO, THREE, FOUR, OPEN_FOUR, FIVE],
        [10, 100, 1_000, 10_000, 50_000, 100_000]
    );
    assert_eq!(DEPTH, 3);
}

#[test]
fn seed004_completes_a_five() {
    for game in [Game::GOMOKU, Game::GOMOKU_STANDARD, Game::RENJU] {
        // Black four blocked on the left; white has an open three to distract.
        let pos = position(
            game,
            &["E8", "F8", "G8", "H8", "C3"],
            &["D8", "K10", "L10", "M10", "B14"],
            Color::Black,
        );
        let c = choose(PlayerKind::Seed004, &pos);
        assert_legal(&pos, &c.stones);
        assert_eq!(names(&c.stones), ["I8"], "{game}");
        // White completes its own four rather than blocking black's.
        let pos = position(
            game,
            &["E8", "F8", "G8", "A1", "C3"],
            &["K10", "L10", "M10", "N10"],
            Color::White,
        );
        let c = choose(PlayerKind::Seed004, &pos);
        assert!(
            ["J10", "O10"].contains(&names(&c.stones)[0].as_str()),
            "{game}"
        );
    }
}

#[test]
fn seed004_blocks_fours() {
    for game in [Game::GOMOKU, Game::RENJU] {
        // White's four blocked on one side: black takes the other end.
        let pos = position(
            game,
            &["D8", "C3", "A1", "A15"],
            &["E8", "F8", "G8", "H8"],
            Color::Black,
        );
        let c = choose(PlayerKind::Seed004, &pos);
        assert_legal(&pos, &c.stones);
        assert_eq!(names(&c.stones), ["I8"], "{game}");
        // An open four cannot be stopped: still an end is taken.
        let pos = position(
            game,
            &["C3", "A1", "A15", "O1"],
            &["E8", "F8", "G8", "H8"],
            Color::Black,
        );
        let c = choose(PlayerKind::Seed004, &pos);
        assert!(
            ["D8", "I8"].contains(&names(&c.stones)[0].as_str()),
            "{game}"
        );
        // A broken four (the gap is the only point).
        let pos = position(
            game,
            &["C3", "A1", "A15", "O1"],
            &["E8", "F8", "H8", "I8"],
            Color::Black,
        );
        let c = choose(PlayerKind::Seed004, &pos);
        assert_eq!(names(&c.stones), ["G8"], "{game}");
    }
}

#[test]
fn seed004_never_plays_a_forbidden_point_in_renju() {
    // I8 makes two open threes for black (G8 H8 across, I9 I10 up): forbidden, though the
    // shape scores high.
    let pos = position(
        Game::RENJU,
        &["G8", "H8", "I9", "I10"],
        &["A1", "A15", "O1", "O15"],
        Color::Black,
    );
    let plain = Plain::from_position(Rules::of(pos.game()), &pos);
    let i8 = Game::RENJU.parse_point("I8").unwrap();
    assert!(
        plain.forbids(1, i8.row() * 15 + i8.col()),
        "the test's premise"
    );
    let c = choose(PlayerKind::Seed004, &pos);
    assert_legal(&pos, &c.stones);
    assert_ne!(c.stones, [i8]);
    // In freestyle Gomoku the same point is the one it wants.
    let free = position(
        Game::GOMOKU,
        &["G8", "H8", "I9", "I10"],
        &["A1", "A15", "O1", "O15"],
        Color::Black,
    );
    assert_eq!(choose(PlayerKind::Seed004, &free).stones, [i8]);
    // Self-play from several openings: every black move checked by the reference.
    for opening in ["H8", "H8 I9 I8", "H8 H9 I7", "H8 J9 I7 I8", "D4 E5 F4"] {
        self_play(PlayerKind::Seed004, Game::RENJU, opening, 80);
    }
}

#[test]
fn seed004_plays_legal_deterministic_gomoku_games() {
    for game in [Game::GOMOKU, Game::GOMOKU_STANDARD] {
        for opening in ["H8", "H8 I9 I8"] {
            self_play(PlayerKind::Seed004, game, opening, 60);
        }
    }
}

// ---- the choice of player ----

#[test]
fn players_refuse_games_they_do_not_play() {
    assert!(player_for(PlayerKind::Seed000, &Game::GOMOKU, Params::default()).is_err());
    assert!(player_for(PlayerKind::Seed004, &Game::CONNECT6, Params::default()).is_err());
    assert!(player_for(PlayerKind::Seed004, &Game::RENJU, Params::default()).is_ok());
    assert!(player_for(PlayerKind::Cpbim, &Game::RENJU, Params::default()).is_ok());
    for k in PlayerKind::ALL {
        assert_eq!(k.name().parse::<PlayerKind>(), Ok(k));
    }
    assert!("seed001".parse::<PlayerKind>().is_err());
}

#[test]
fn the_player_option_on_move_and_engine() {
    let out = cpbim(&["move", "--player", "seed000", "J10 K11 K10"], b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("move "), "{}", out.stdout);
    let out = cpbim(
        &["move", "--game", "renju", "--player", "seed004", "H8 I9 I8"],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The wrong game, an unknown player, --params with a baseline: clear errors.
    let out = cpbim(&["move", "--player", "seed004", "J10"], b"", &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("seed004 plays only"), "{}", out.stderr);
    let out = cpbim(&["move", "--player", "nobody", "J10"], b"", &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("players: cpbim, seed000, seed004"),
        "{}",
        out.stderr
    );
    let out = cpbim(
        &["engine", "--protocol", "gomocup", "--player", "seed000"],
        b"",
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("seed000 plays only"), "{}", out.stderr);
    // Playing as the baselines over the protocols.
    let out = cpbim(
        &["engine", "--protocol", "cloudict", "--player", "seed000"],
        b"new black\nmove KKJK\nquit\n",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = out.lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], "move JJ");
    assert!(
        lines[1].starts_with("move ") && lines[1].len() == 9,
        "{lines:?}"
    );
    let out = cpbim(
        &["engine", "--protocol", "gomocup", "--player", "seed004"],
        b"START 15\nINFO rule 4\nBEGIN\nTURN 8,8\nEND\n",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines()[0], "OK");
    assert_eq!(out.lines().len(), 3, "{:?}", out.lines());
}
