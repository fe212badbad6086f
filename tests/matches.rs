//! `cpbim match` as a referee, through the binary: complete games between two engines with
//! records that replay to a win, and adjudications for illegal moves, crashes and time.

mod common;

use common::binary::cpbim;
use cpbim::{Game, Reading};

const BIN: &str = env!("CARGO_BIN_EXE_cpbim");

fn run_match(extra: &[&str]) -> (serde_json::Value, String) {
    let mut args = vec!["match", "--json"];
    args.extend_from_slice(extra);
    let o = cpbim(&args, b"", &[]);
    assert!(o.code == 0, "{}{}", o.stdout, o.stderr);
    (
        serde_json::from_str(o.stdout.trim()).expect("one JSON object"),
        o.stderr,
    )
}

/// `cpbim ARGS` exits with status 1 and says `text` on standard error.
fn refused(args: &[&str], text: &str) {
    let o = cpbim(args, b"", &[]);
    assert!(o.code == 1 && o.stderr.contains(text), "{}", o.stderr);
}

#[test]
fn two_engines_play_complete_games_with_records() {
    let dir = common::scratch("match-records");
    let engine = format!("{BIN} engine --protocol cloudict --depth 1");
    let (s, err) = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "4",
        "--concurrency",
        "2",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(s["games"], 4, "{s}");
    let (w, d, l) = (
        s["wins"].as_u64().unwrap(),
        s["draws"].as_u64().unwrap(),
        s["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 4);
    assert_eq!(s["adjudications"]["illegal"], 0, "{err}");
    // The same deterministic engine on both sides: each opening's two games mirror colours,
    // so every opening gives one win to each engine unless a game is drawn.
    assert_eq!(w, l, "{s}");
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("game-{i:04}.sgf"))).unwrap();
        let record = cpbim::parse_record(
            &text,
            Reading {
                game: Game::CONNECT6,
                to_move: None,
            },
        )
        .expect("the record reads back");
        assert!(
            record.win().is_some() || d > 0,
            "game {i} does not end in six"
        );
    }
    assert!(err.contains("game 4 "), "{err}");
}

#[test]
fn illegal_moves_crashes_and_time_lose_with_their_reason() {
    let good = format!("{BIN} engine --protocol cloudict --depth 1");
    // Answers every request with J10 (occupied from the first move on).
    let illegal = r#"while read l; do case "$l" in quit) exit;; new\ black|next|move*) echo "move JJKK";; esac; done"#;
    let (s, _) = run_match(&["--engine", illegal, "--engine", &good, "--games", "2"]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["illegal"].as_u64()),
        (Some(2), Some(2)),
        "{s}"
    );
    // An engine that ends before it is asked anything is refused before the first game…
    let o = cpbim(
        &[
            "match",
            "--engine",
            "echo no such option >&2; exit 3",
            "--engine",
            &good,
        ],
        b"",
        &[],
    );
    assert!(
        o.code == 1 && o.stderr.contains("ended at once") && o.stderr.contains("no such option"),
        "{}",
        o.stderr
    );
    // …one that crashes once asked loses its games by crash.
    let crash = "read l; exit 3";
    let (s, _) = run_match(&["--engine", crash, "--engine", &good, "--games", "2"]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["crash"].as_u64()),
        (Some(2), Some(2)),
        "{s}"
    );
    let slow = "while read l; do case \"$l\" in quit) exit;; next|move*) sleep 5;; esac; done";
    let (s, _) = run_match(&[
        "--engine", slow, "--engine", &good, "--games", "2", "--tc", "0.2",
    ]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["time"].as_u64()),
        (Some(2), Some(2)),
        "{s}"
    );
}

#[test]
fn bad_arguments_are_refused() {
    let o = cpbim(
        &["match", "--engine", "a", "--engine", "b", "--engine", "c"],
        b"",
        &[],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    refused(
        &["match", "--engine", "a", "--openings", "/no/such/file"],
        "no such file",
    );
    let o = cpbim(
        &["match", "--engine", "a", "--sprt", "5,0,0.05,0.05"],
        b"",
        &[],
    );
    assert!(
        o.code == 2 && o.stderr.contains("elo0 < elo1"),
        "{}",
        o.stderr
    );
}

/// A Renju match of the engine at depth 1 against itself over the Gomocup protocol, its
/// records in `dir`, with `extra` arguments.
fn renju_self_match(dir: &std::path::Path, extra: &[&str]) -> (serde_json::Value, String) {
    let engine = format!("{BIN} engine --protocol gomocup --depth 1");
    let mut args = vec!["--game", "renju", "--engine", &engine, "--engine", &engine];
    args.extend_from_slice(&["--records", dir.to_str().unwrap()]);
    args.extend_from_slice(extra);
    run_match(&args)
}

/// Game `i`'s record of a Renju match, read back.
fn renju_record(dir: &std::path::Path, i: usize) -> cpbim::Record {
    let text = std::fs::read_to_string(dir.join(format!("game-{i:04}.sgf"))).unwrap();
    let reading = Reading {
        game: Game::RENJU,
        to_move: None,
    };
    cpbim::parse_record(&text, reading).expect("the record reads back")
}

/// Every black stone of `stones` (black first, alternating) was allowed in Renju when it was
/// played, by the tests' own reading of the rules.
fn assert_black_stones_allowed(stones: &[cpbim::Point], what: &str) {
    let rules = common::Rules::of(&Game::RENJU);
    let mut cells = vec![0u8; 15 * 15];
    for (j, p) in stones.iter().enumerate() {
        let at = p.row() * 15 + p.col();
        if j % 2 == 0 {
            assert_eq!(
                common::renju::forbidden(&rules, &cells, at),
                None,
                "{what}: black's stone {} ({p}) is forbidden",
                j + 1
            );
        }
        cells[at] = if j % 2 == 0 { 1 } else { 2 };
    }
}

#[test]
fn renju_games_over_the_gomocup_protocol_are_legal() {
    let dir = common::scratch("match-renju");
    let (s, err) = renju_self_match(&dir, &["--games", "4", "--concurrency", "2"]);
    assert_eq!(s["games"], 4, "{s}");
    assert_eq!(s["adjudications"]["illegal"], 0, "{err}");
    assert_eq!(s["wins"], s["losses"], "{s}");
    for i in 1..=4 {
        let record = renju_record(&dir, i);
        // The three opening stones, then every black stone allowed when it was played.
        assert_black_stones_allowed(record.stones(), &format!("game {i}"));
        assert!(record.win().is_some() || s["draws"] != 0, "game {i}");
    }
}

#[test]
fn a_gomocup_engine_that_plays_an_occupied_point_loses() {
    // Answers START with OK and every move request with the centre (taken by the opening).
    let bad = r#"while read l; do case "$l" in END) exit;; START*) echo OK;; BEGIN|DONE|TURN*) echo "7,7";; esac; done"#;
    let good = format!("{BIN} engine --protocol gomocup --depth 1");
    let (s, _) = run_match(&[
        "--game", "gomoku", "--engine", bad, "--engine", &good, "--games", "2",
    ]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["illegal"].as_u64()),
        (Some(2), Some(2)),
        "{s}"
    );
    refused(
        &["match", "--game", "connect(19,19,6,1,1)", "--engine", "a"],
        "no protocol plays",
    );
}

#[test]
fn game_clocks_are_kept_and_run_out() {
    // Our engine keeps its own clock (Cloudict protocol; it cannot see the time its lines
    // spend in the pipes, so it is given a little less) and Gomocup engines are told theirs:
    // no time losses on a 3-second game.
    let c6 = format!("{BIN} engine --protocol cloudict --game-time 2.5");
    let (s, err) = run_match(&[
        "--engine", &c6, "--engine", &c6, "--games", "2", "--tc", "3+0",
    ]);
    assert_eq!(s["adjudications"]["time"], 0, "{err}");
    let five = format!("{BIN} engine --protocol gomocup");
    let (s, err) = run_match(&[
        "--game", "gomoku", "--engine", &five, "--engine", &five, "--games", "2", "--tc", "3+0.05",
    ]);
    assert_eq!(s["adjudications"]["time"], 0, "{err}");
    // An engine that thinks 1.2 s a move, whatever its clock, overdraws a 0.6-second clock
    // (and its 0.3-second grace) on its first move; the other needs at most one move of its
    // own before that, however loaded the machine.
    let good = format!("{BIN} engine --protocol cloudict --depth 1");
    let (s, _) = run_match(&[
        "--engine",
        &format!("{BIN} engine --protocol cloudict --time 1.2"),
        "--engine",
        &good,
        "--games",
        "2",
        "--tc",
        "0.6+0",
    ]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["time"].as_u64()),
        (Some(2), Some(2)),
        "{s}"
    );
}

/// The bundled five-stone openings of the games of five (`data/five-openings.txt`): 100
/// distinct positions, every black stone allowed in Renju by the tests' own reading of the
/// rules, nobody with a five; and a match plays its games from them.
#[test]
fn the_bundled_five_stone_openings_are_distinct_and_legal() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/five-openings.txt");
    let text = std::fs::read_to_string(path).unwrap();
    // Read as `--openings` reads the file.
    let openings = cpbim::matches::openings::from_text(&text, &Game::RENJU).expect("openings");
    assert_eq!(openings.len(), 100);
    let mut seen = std::collections::HashSet::new();
    for o in &openings {
        let pos = cpbim::Position::from_stones(Game::RENJU, &o.stones).expect("an opening");
        assert_eq!(o.stones.len(), 5, "{}", o.name);
        assert!(seen.insert(o.stones.clone()), "{} twice", o.name);
        assert_black_stones_allowed(&o.stones, &o.name);
        let black = pos.board().find_win_of(cpbim::Color::Black);
        assert!(black.is_none(), "{}", o.name);
    }
    let dir = common::scratch("match-five-openings");
    let (s, err) = renju_self_match(&dir, &["--openings", path, "--games", "2"]);
    assert_eq!(s["games"], 2, "{s}{err}");
    for i in 1..=2 {
        let record = renju_record(&dir, i);
        assert_eq!(&record.stones()[..5], &openings[0].stones[..], "game {i}");
        assert_black_stones_allowed(record.stones(), &format!("game {i}"));
    }
}

#[test]
fn answers_that_name_no_point_lose_at_once() {
    let start = std::time::Instant::now();
    let good = format!("{BIN} engine --protocol cloudict --depth 1");
    for answer in ["move ZZZZ", "move JJKKLL", "move jjkk"] {
        let bad = format!(
            r#"while read l; do case "$l" in quit) exit;; new\ black|next|move*) echo "{answer}";; esac; done"#
        );
        let (s, err) = run_match(&["--engine", &bad, "--engine", &good, "--games", "2"]);
        assert_eq!(
            (s["losses"].as_u64(), s["adjudications"]["illegal"].as_u64()),
            (Some(2), Some(2)),
            "{answer}: {s} {err}"
        );
    }
    let good = format!("{BIN} engine --protocol gomocup --depth 1");
    for answer in ["99,99", "-1,-1", "99999999999999999999999,1"] {
        let bad = format!(
            r#"while read l; do case "$l" in END) exit;; START*) echo OK;; BEGIN|DONE|TURN*) echo "{answer}";; esac; done"#
        );
        let (s, err) = run_match(&[
            "--game", "gomoku", "--engine", &bad, "--engine", &good, "--games", "2",
        ]);
        assert_eq!(
            (s["losses"].as_u64(), s["adjudications"]["illegal"].as_u64()),
            (Some(2), Some(2)),
            "{answer}: {s} {err}"
        );
    }
    // Without a time control a move may take ten minutes: none of these waited for one.
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

/// Processes whose command line contains `mark`.
fn running_with(mark: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.unwrap().path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(mark))
        .count()
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_stops_a_match_with_hung_engines() {
    for (signal, status) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        // An engine that never answers and has a child of its own; no time control.
        let mark = format!("999.{}{}", std::process::id(), status);
        let hung = format!("while read l; do sleep {mark}; done");
        let args = [
            "match", "--engine", &hung, "--engine", &hung, "--games", "4",
        ];
        let (o, took) =
            common::binary::signalled(&args, std::time::Duration::from_millis(1500), signal);
        assert_eq!(o.code, status, "{}", o.stderr);
        assert!(took.as_secs_f64() < 2.0, "took {took:?}");
        assert!(
            o.stderr.contains("stopped by a signal after 0 games"),
            "{}",
            o.stderr
        );
        // Killed processes can linger a moment in /proc on a loaded machine: wait up to a
        // second for them to go.
        let gone = (0..20).any(|_| {
            let none = running_with(&mark) == 0;
            if !none {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            none
        });
        assert!(gone, "engines left running: {}", running_with(&mark));
    }
}

#[test]
fn an_engine_that_closes_its_output_loses_by_crash_at_once() {
    let start = std::time::Instant::now();
    let good = format!("{BIN} engine --protocol cloudict --depth 1");
    // Closes its standard output and keeps running; no time control (ten minutes a move).
    let closed = "sh -c 'exec 1>&-; sleep 30'";
    let (s, err) = run_match(&["--engine", closed, "--engine", &good, "--games", "2"]);
    assert_eq!(
        (s["losses"].as_u64(), s["adjudications"]["crash"].as_u64()),
        (Some(2), Some(2)),
        "{s} {err}"
    );
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn an_engine_that_cannot_run_is_an_error_not_a_match() {
    let o = cpbim(
        &["match", "--engine", "no-such-engine-here", "--games", "2"],
        b"",
        &[],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("--engine no-such-engine-here: cannot run it (exit status 127)")
            && o.stderr.contains("not found"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("game 1"), "{}", o.stderr);
}
