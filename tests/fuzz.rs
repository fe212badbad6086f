//! The fuzz harness: arbitrary bytes, arbitrary Unicode and mutated real records fed to every
//! reader, to the batch line handler and to the engine protocols. Nothing may panic; the batch
//! answers every line; and what a reader accepts, every writer writes in a form the readers
//! read back.
//!
//! The same mutations go through the binary in `tests/cli_fuzz.rs`.

mod common;

use common::mutate::{corpus, mutate, Rng};
use cpbim::notation::{self, csv, Format};
use cpbim::search::Config;
use cpbim::Game;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;

/// Every reader on `bytes`, and on its text when it is UTF-8. Panics are the failure.
fn every_reader(bytes: &[u8]) {
    let _ = notation::decode(bytes);
    let _ = cpbim::batch::read_line(bytes, Game::CONNECT6.into());
    if let Ok(text) = std::str::from_utf8(bytes) {
        every_text_reader(text);
    }
    let lossy = String::from_utf8_lossy(bytes);
    every_text_reader(&lossy);
}

/// The games the readers are fed with: every preset, a small rectangle, the largest board.
fn games() -> Vec<Game> {
    let mut games: Vec<Game> = cpbim::game::Preset::ALL.map(|p| p.game()).to_vec();
    games.push("connect(7,5,4,2,2)".parse().unwrap());
    games.push("gomoku:20".parse().unwrap());
    games
}

fn every_text_reader(text: &str) {
    let _ = notation::detect(text);
    let _ = text.parse::<Game>();
    for game in games() {
        for to_move in [None, Some(cpbim::Color::White)] {
            let how = cpbim::Reading { game, to_move };
            let _ = notation::parse_record(text, how);
            let _ = notation::parse_position(text, how);
            let _ = notation::parse_line(text, how);
            let _ = notation::parse_diagram(text, game, to_move);
        }
        let _ = notation::parse_stone_list(text, game);
        let _ = notation::parse_sgf(text, game);
        let _ = notation::parse_contest(text, game);
        let _ = notation::parse_csv_row(text, game);
        let _ = game.parse_point(text);
    }
    let _ = csv::parse_row(text);
    let _ = cpbim::games::parse_games(text, "fuzz");
    let _ = cpbim::opening::parse_name(text);
    let _ = text.parse::<cpbim::Point>();
    for token in text.split_whitespace() {
        let _ = token.parse::<cpbim::Point>();
        let _ = cpbim::opening::parse_name(token);
    }
}

/// A record accepted by the readers is written by every writer in a form read back to the
/// same game (a finished diagram has no play order and is written only as a diagram).
fn round_trip(bytes: &[u8], game: Game) -> Result<(), TestCaseError> {
    let Ok(r) = cpbim::batch::read_line(bytes, game.into()) else {
        return Ok(());
    };
    for f in Format::ALL {
        let Ok(text) = notation::write(&r, f) else {
            let unordered = !r.ordered() && (r.win().is_some() || !r.order_replays());
            let no_contest = f == Format::Contest && !game.is_connect6();
            prop_assert!((unordered || no_contest) && f != Format::Diagram);
            continue;
        };
        let back = notation::parse_record(&text, game);
        prop_assert!(
            back.is_ok(),
            "{:?} of {:?}: {:?}\n{}",
            f,
            String::from_utf8_lossy(bytes),
            back,
            text
        );
        let back = back.unwrap();
        prop_assert_eq!(back.board(), r.board());
        if f != Format::Diagram {
            prop_assert_eq!(back.stones(), r.stones());
        }
    }
    Ok(())
}

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (any::<u64>()).prop_map(|seed| {
        let corpus = corpus();
        let mut rng = Rng(seed);
        let s = &corpus[rng.below(corpus.len())];
        mutate(s, &corpus, &mut rng)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_reader_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        every_reader(&bytes);
    }

    #[test]
    fn every_reader_survives_arbitrary_unicode(text in any::<String>()) {
        every_text_reader(&text);
    }

    #[test]
    fn every_reader_survives_near_misses(
        text in "[(;)\\[\\]{}BWjJaAsSéX中0-9 .,\"#\n-]{0,300}"
    ) {
        every_text_reader(&text);
    }

    #[test]
    fn every_reader_survives_mutated_records(bytes in mutated()) {
        every_reader(&bytes);
    }

    #[test]
    fn what_is_read_is_written_back(bytes in mutated(), game in 0usize..6) {
        round_trip(&bytes, games()[game])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The batch line handler answers every line, in order, and never fails as a whole.
    #[test]
    fn the_batch_answers_every_line(lines in prop::collection::vec(mutated(), 0..24)) {
        let config = Config { max_nodes: Some(2_000), tt_entries: 1 << 12, ..Config::default() };
        let stop = AtomicBool::new(false);
        let answers = cpbim::batch::solve_lines::<cpbim::Cpbim>(&lines, Game::CONNECT6.into(), &config, &stop, &|_| {});
        prop_assert_eq!(answers.len(), lines.len());
        for (line, answer) in lines.iter().zip(&answers) {
            // An error exactly when the line does not read as a game.
            prop_assert_eq!(answer.is_err(), cpbim::batch::read_line(line, Game::CONNECT6.into()).is_err());
            if let Err(e) = answer {
                prop_assert!(!e.contains("internal error"), "{}", e);
                prop_assert!(e.len() < 400, "{}", e);
            }
        }
    }
}

/// Protocol sessions with a quick engine (depth 1, shallow threat searches).
fn sessions() -> Vec<Box<dyn cpbim::protocol::Protocol>> {
    use cpbim::engine::{Limits, Params};
    use cpbim::protocol::{cloudict::Cloudict, gomocup::Gomocup, gtp::Gtp, sau::Sau};
    let params = Params {
        win_depth: 4,
        threat_depth: 4,
        leaf_depth: 0,
        ..Params::default()
    };
    let limits = Limits::depth(1);
    vec![
        Box::new(Cloudict::new(Game::CONNECT6, params.clone(), limits)),
        Box::new(Gomocup::new(Game::GOMOKU, params.clone(), limits)),
        Box::new(Sau::new(Game::CONNECT6, params.clone(), limits)),
        Box::new(Gtp::new(Game::CONNECT6, params.clone(), limits)),
        Box::new(Gtp::new(Game::RENJU, params, limits)),
    ]
}

/// Lines a protocol peer might send: real commands, their near misses, and noise.
fn protocol_line() -> impl Strategy<Value = String> {
    let commands = prop::sample::select(vec![
        "name",
        "new black",
        "new white",
        "move JJ",
        "move KJKK",
        "move ZZZZ",
        "move jj",
        "black JJ",
        "white KK",
        "next",
        "depth 3",
        "depth 0",
        "time 0.01",
        "print",
        "vcf",
        "START 15",
        "START 20",
        "START 4",
        "RECTSTART 10,8",
        "INFO rule 4",
        "INFO rule 1",
        "INFO timeout_turn 10",
        "BEGIN",
        "TURN 7,7",
        "TURN 99,1",
        "TURN 7",
        "BOARD",
        "7,7,1",
        "8,8,2",
        "8,8,3",
        "DONE",
        "TAKEBACK 7,7",
        "RESTART",
        "ABOUT",
        "YXSHOWFORBID",
        "name?",
        "move JJ@@",
        "move KK@@",
        "move @@JJ",
        "move JJ@",
        "error",
        "end",
        "quit",
        "protocol_version",
        "1 name",
        "list_commands",
        "known_command play",
        "boardsize 19",
        "boardsize 15",
        "boardsize 7",
        "boardsize 99999999999999999999",
        "clear_board",
        "komi 6.5",
        "play b K10",
        "play w K10",
        "play b pass",
        "play w A1",
        "play black T19",
        "play w Z99",
        "play b I5",
        "genmove b",
        "genmove w",
        "genmove white",
        "undo",
        "showboard",
        "time_settings 1 0 0",
        "time_left b 0.01 0",
        "time_left w 5 2",
        "gogui-rules_legal_moves",
        "gogui-rules_final_result",
        "gogui-rules_board",
        "gogui-rules_side_to_move",
        "3 # comment",
        "\t\x01play\tb\tJ9",
    ]);
    prop_oneof![
        4 => commands.prop_map(str::to_string),
        1 => any::<String>(),
        1 => "[A-Z ,0-9]{0,12}",
        1 => "(play|genmove|boardsize|undo|move) [a-zA-Z@]{0,2}[0-9]{0,3}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// No line sequence makes a protocol panic.
    #[test]
    fn protocols_survive_any_line_sequence(lines in prop::collection::vec(protocol_line(), 0..40)) {
        for mut session in sessions() {
            for line in &lines {
                let _ = session.handle(line);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// GTP's framing holds for every line: no reply (a blank or comment line), or one reply
    /// starting `=` or `?` and ended by its only empty line.
    #[test]
    fn gtp_replies_are_framed(lines in prop::collection::vec(protocol_line(), 0..30)) {
        use cpbim::engine::{Limits, Params};
        use cpbim::protocol::{gtp::Gtp, Protocol};
        let params = Params { win_depth: 4, threat_depth: 4, leaf_depth: 0, ..Params::default() };
        let limits = Limits::depth(1);
        let mut gtp = Gtp::new(Game::CONNECT6, params, limits);
        for line in &lines {
            let replies = gtp.handle(line).replies;
            if replies.is_empty() {
                continue;
            }
            prop_assert!(replies[0].starts_with('=') || replies[0].starts_with('?'), "{line:?}: {replies:?}");
            prop_assert_eq!(replies.last().map(String::as_str), Some(""));
            prop_assert_eq!(replies.iter().filter(|r| r.is_empty()).count(), 1, "{:?}", replies);
        }
    }
}

/// A parameter file (`--params`): the built-in JSON with a piece replaced.
fn spliced_params(at: usize, cut: usize, piece: &str) -> String {
    let json = serde_json::to_string(&cpbim::engine::Params::default()).expect("JSON");
    let at = at % json.len();
    let end = (at + cut).min(json.len());
    format!("{}{piece}{}", &json[..at], &json[end..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parameter_files_are_read_or_refused(
        at in any::<usize>(),
        cut in 0usize..12,
        piece in "[0-9\\-\\[\\]{}\",:.a-z_ e]{0,10}",
        threads in prop::option::of(0usize..300),
    ) {
        let text = spliced_params(at, cut, &piece);
        if let Ok(t) = cpbim::engine::Tuning::read(Some(text), threads) {
            for game in games() {
                let p = t.for_game(&game);
                prop_assert!(p.width >= 2 && p.pairs >= 1 && p.safe_moves >= 1);
            }
        }
    }
}
