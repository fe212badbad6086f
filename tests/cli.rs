//! The command line as users meet it, through the real binary: bad input never kills a run,
//! finished games are read, arguments follow one rule, option values cannot crash it.

mod common;

use common::binary::{cpbim, Out};
use std::process::{Command, Stdio};
use std::time::Duration;

fn run_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    cpbim(args, stdin, env)
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    cpbim(args, stdin, &[])
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[test]
fn the_readme_example_wins_at_depth_16() {
    let o = run(&["solve", "--example", "--json"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = json(o.lines()[0]);
    assert_eq!(
        (v["result"].as_str(), v["depth"].as_u64()),
        (Some("win"), Some(16))
    );
}

// 1. A multi-byte character in an SGF value.
#[test]
fn a_multi_byte_sgf_value_is_an_error_not_a_panic() {
    let o = run(&["position", "(;B[é])"], b"");
    assert_eq!(o.code, 1);
    assert!(o.stderr.starts_with("error: malformed SGF"), "{}", o.stderr);
    // The other line is answered; the batch exits 1 (a line failed).
    let o = run(&["solve", "--json"], "J10 K11 I11\n(;B[é])\n".as_bytes());
    assert!(o.clean() && o.code == 1, "{}", o.stderr);
    let lines = o.lines();
    assert_eq!(lines.len(), 2);
    assert!(json(lines[0])["result"].is_string());
    assert!(json(lines[1])["error"].as_str().unwrap().contains("SGF"));
}

// 2. A byte that is not UTF-8 costs its own line only.
#[test]
fn a_line_that_is_not_utf8_gets_its_own_error() {
    let input = b"J10 K11 I11\nJ10 K11 I11 # caf\xe9\nJ10 K11 I11 H11 I10\n";
    let o = run(&["solve", "--json"], input);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let lines = o.lines();
    assert_eq!(lines.len(), 3);
    assert!(json(lines[0])["result"].is_string());
    assert_eq!(json(lines[1])["input_line"], 2);
    assert!(json(lines[1])["error"]
        .as_str()
        .unwrap()
        .contains("not UTF-8"));
    assert!(json(lines[2])["result"].is_string());
}

// 3. Finished games.
#[test]
fn finished_games_are_read_solved_and_analysed() {
    // Game 84 ends on the first stone of black's move; game 1 with white's whole move.
    let o = run(
        &[
            "solve",
            "data/connect6_games.csv",
            "--game-id",
            "84",
            "--json",
        ],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = json(o.lines()[0]);
    assert_eq!(v["result"], "finished");
    assert_eq!(v["last_move"].as_array().unwrap().len(), 1);
    assert_eq!(v["row"].as_array().unwrap().len(), 6);
    let o = run(&["solve", "data/connect6_games.csv", "--game-id", "1"], b"");
    assert!(
        o.stdout
            .starts_with("finished: white won, six K11 L12 M13 N14 O15 P16 (last move O15 P16)"),
        "{}",
        o.stdout
    );
    // position reads it and writes every format; analyze goes to the end.
    for format in ["list", "diagram", "sgf", "contest", "csv"] {
        let o = run(
            &[
                "position",
                "data/connect6_games.csv",
                "--game-id",
                "1",
                "--format",
                format,
            ],
            b"",
        );
        assert_eq!(o.code, 0, "{format}: {}", o.stderr);
        let back = run(&["solve", "-"], o.stdout.as_bytes());
        assert!(
            back.stdout.starts_with("finished: white won"),
            "{format}: {}{}",
            back.stdout,
            back.stderr
        );
    }
    let o = run(
        &[
            "analyze",
            "data/connect6_games.csv",
            "--game-id",
            "1",
            "--json",
        ],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let objects: Vec<_> = o.lines().into_iter().map(json).collect();
    assert_eq!(objects.len(), 22);
    let end = objects.last().unwrap();
    assert_eq!(
        (end["result"].as_str(), end["winner"].as_str()),
        (Some("finished"), Some("white"))
    );
    assert_eq!(end["stones"], 43);
    // Every game of the CSV is a finished game.
    let o = run(&["solve", "data/connect6_games.csv", "--json"], b"");
    assert_eq!(o.lines().len(), 8282);
    assert!(o.lines().iter().all(|l| json(l)["result"] == "finished"));
}

// 4. One rule for arguments.
#[test]
fn arguments_are_paths_or_games_by_one_rule() {
    let o = run(&["solve", "positions.txt"], b"");
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.starts_with("error: no such file: positions.txt"),
        "{}",
        o.stderr
    );
    // A file of lines is a batch: W12 has 2 comment lines (skipped) and 80 positions, each
    // answer naming its input line.
    let o = run(&["solve", "testsets/W12.txt", "--json"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let answers: Vec<serde_json::Value> = o.lines().iter().map(|l| json(l)).collect();
    assert_eq!(answers.len(), 80);
    assert!(answers.iter().all(|a| a["result"] == "win"));
    let numbers: Vec<u64> = answers
        .iter()
        .map(|a| a["input_line"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (3..=82).collect::<Vec<u64>>());
    // The README's example file: its comment lines are not games.
    let o = run(&["solve", "examples/positions/example.txt"], b"");
    assert_eq!(o.lines().len(), 1, "{}", o.stdout);
    assert!(o.stdout.starts_with("win 16"), "{}", o.stdout);
    // `-` reads standard input like a file: lines, or one diagram / SGF.
    let o = run(&["solve", "-", "--json"], b"J10 K11 I11\nJ10\n");
    assert_eq!(o.lines().len(), 2);
    let diagram = run(&["position", "J10 K11 I11"], b"").stdout;
    let o = run(&["solve", "-", "--json"], diagram.as_bytes());
    assert_eq!(o.lines().len(), 1, "{}", o.stderr);
    let o = run(&["solve", "--json"], b"(;B[j10]\n;W[k11i11])\n");
    assert_eq!(o.lines().len(), 1, "{}", o.stderr);
    let dir = common::scratch("cli-args");
    let o = run(&["solve", dir.to_str().unwrap()], b"");
    assert!(o.stderr.contains("is a directory"), "{}", o.stderr);
    let o = run(&["solve", "J10 K11 I11", "--game-id", "3"], b"");
    assert!(o.stderr.contains("--game-id"), "{}", o.stderr);
}

#[test]
fn other_games_are_read_and_written() {
    let o = run(
        &[
            "position",
            "--game",
            "gomoku",
            "h8 i9 j10",
            "--format",
            "sgf",
        ],
        b"",
    );
    assert_eq!(
        o.stdout.trim(),
        "(;FF[4]GM[4]SZ[15];B[hh];W[ig];B[jf])",
        "{}",
        o.stderr
    );
    let o = run(&["position", "--game", "gomoku", "p8"], b"");
    assert!(o.stderr.contains("columns run from A to O"), "{}", o.stderr);
    // Five wins Renju for black; six does not (it is not a five).
    let five = "h8 a1 i8 a2 j8 a3 k8 a4 l8";
    let o = run(
        &["position", "--game", "renju", five, "--format", "list"],
        b"",
    );
    assert!(
        o.stdout
            .contains("# finished: black won, five H8 I8 J8 K8 L8"),
        "{}",
        o.stdout
    );
    let six = "h8 a1 i8 a2 j8 a3 k8 a4 m8 a6 l8";
    let o = run(
        &["position", "--game", "renju", six, "--format", "list"],
        b"",
    );
    assert!(
        o.code == 0 && !o.stdout.contains("finished"),
        "{}{}",
        o.stdout,
        o.stderr
    );
    // A puzzle diagram: three black stones, black to move by --to-move.
    let diagram = run(&["position", "--game", "gomoku", "h8 a1 i8 a2 j8"], b"").stdout;
    let no_white: String = diagram
        .lines()
        .map(
            |l| match l.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                true => l.replace('O', ".") + "\n",
                false => format!("{l}\n"),
            },
        )
        .collect();
    let o = run(&["position", "--game", "gomoku", "-"], no_white.as_bytes());
    assert!(o.stderr.contains("--to-move"), "{}", o.stderr);
    let o = run(
        &["position", "--game", "gomoku", "--to-move", "black", "-"],
        no_white.as_bytes(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // analyze takes the puzzle as its one position (and draws its own board, not a replay of
    // a made-up order); name refuses it.
    let dir = common::scratch("cli-puzzle-svg");
    let svg = dir.to_str().unwrap();
    let args = [
        "analyze",
        "--game",
        "gomoku",
        "--to-move",
        "black",
        "--svg",
        svg,
        &no_white,
    ];
    let o = run(&args, b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .starts_with("  3 stones  black to move  (a diagram)  live windows B 0 W 0"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("black wins?     win 2"), "{}", o.stdout);
    let drawn = std::fs::read_to_string(dir.join("boundary_003.svg")).unwrap();
    assert_eq!(drawn.matches("<circle").count(), 3, "{drawn}");
    assert_eq!(drawn.matches("fill=\"#111\"").count(), 3, "{drawn}");
    let c6 = run(&["position", "J10 K11 I11", "--format", "diagram"], b"").stdout;
    let o = run(&["name", &c6], b"");
    assert!(o.stderr.contains("in which order"), "{}", o.stderr);
    // The solver covers every game: an open three of Gomoku is a VCF of one four.
    let o = run(&["solve", "--game", "gomoku", "h8 a1 i8 a2 j8 a3"], b"");
    assert!(o.stdout.starts_with("win 2  "), "{}{}", o.stdout, o.stderr);
    let o = run(&["solve", "--game", "gomoku", "--depth", "3", "h8"], b"");
    assert!(
        o.stderr.contains("whole rounds of 2 plies in gomoku"),
        "{}",
        o.stderr
    );
    let o = run(
        &["solve", "--game", "gomoku:20", "--model", "iu", "h8"],
        b"",
    );
    assert!(o.stderr.contains("runs raw or cpbim"), "{}", o.stderr);
    // Renju: black's forbidden points, listed; H8 makes two open threes.
    let threes = "F8 A1 G8 A2 H9 A3 H10 O15";
    let o = run(
        &[
            "position",
            "--game",
            "renju",
            "--forbidden",
            "--format",
            "list",
            threes,
        ],
        b"",
    );
    assert!(
        o.stdout
            .ends_with("# forbidden to black: H8 (double three)\n"),
        "{}{}",
        o.stdout,
        o.stderr
    );
    let o = run(&["position", "--forbidden", "J10"], b"");
    assert!(
        o.stderr.contains("only Renju has forbidden points"),
        "{}",
        o.stderr
    );
    // H8 makes two fours: it wins freestyle Gomoku; in Renju black may not play it.
    let fours = "E8 D8 F8 H12 G8 A1 H9 O1 H10 A15 H11 O15";
    let o = run(&["solve", "--game", "gomoku", fours], b"");
    assert!(
        o.stdout.starts_with("win 2  H8 "),
        "{}{}",
        o.stdout,
        o.stderr
    );
    let o = run(&["solve", "--game", "renju", fours], b"");
    assert!(o.stdout.starts_with("none 2 "), "{}{}", o.stdout, o.stderr);
    let o = run(&["position", "--game", "chess", "h8"], b"");
    assert!(
        o.code == 2 && o.stderr.contains("the games are"),
        "{}",
        o.stderr
    );
}

#[test]
fn kb_stats_of_any_game() {
    let o = run(&["kb", "stats", "--game", "gomoku", "--json"], b"");
    let v = json(o.lines()[0]);
    let t = &v["tables"][0];
    assert_eq!(
        (t["k"].as_u64(), t["p"].as_u64(), t["shapes"].as_u64()),
        (Some(5), Some(1), Some(65504))
    );
    assert_eq!(t["origin"], "built into the binary");
    let o = run(&["kb", "stats", "--game", "renju"], b"");
    assert!(
        o.stdout.contains("renju, black: 5 in a row exactly")
            && o.stdout.contains("renju, white: 5 in a row or more"),
        "{}",
        o.stdout
    );
    // Another game: generated on first use, cached, then read from the cache.
    let cache = common::scratch("cli-kbcache");
    let env = [("CPBIM_CACHE_DIR", cache.to_str().unwrap())];
    let args = ["kb", "stats", "--game", "connect(11,11,4,2,1)"];
    let first = run_env(&args, b"", &env);
    assert!(
        first.stdout.contains("generated and cached in"),
        "{}{}",
        first.stdout,
        first.stderr
    );
    let again = run_env(&args, b"", &env);
    assert!(
        again.stdout.contains("read from the cache"),
        "{}",
        again.stdout
    );
    let counts = |o: &Out| {
        o.stdout
            .lines()
            .filter(|l| !l.contains("table size"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(counts(&first), counts(&again));
    let o = run(&["kb", "stats", "--game", "connect(9,9,9,2,1)"], b"");
    assert!(
        o.code == 2 && o.stderr.contains("k runs from 4 to 8"),
        "{}",
        o.stderr
    );
}

// 5. Option values.
#[test]
fn huge_option_values_get_errors_or_caps() {
    let o = run(&["solve", "--time", "1e19", "J10 K11 I11"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    for (args, says) in [
        (vec!["--time", "1e20"], "too large"),
        (vec!["--time", "0"], "positive"),
        (
            vec!["--tt-entries", "1000000000000"],
            "use at most --tt-entries",
        ),
        (
            vec!["--tt-entries", "18446744073709551615"],
            "far more memory",
        ),
        (vec!["--depth", "1004"], "at most 1000 plies"),
        (vec!["--depth", "6"], "whole rounds of 4 plies"),
    ] {
        let mut all = vec!["solve"];
        all.extend(args.iter().copied());
        all.push("J10 K11 I11");
        let o = run(&all, b"");
        // Bad usage: status 2, as clap's own errors.
        assert!(
            o.code == 2 && o.stderr.contains(says),
            "{args:?}: {}",
            o.stderr
        );
    }
    let o = run(&["solve", "--threads", "1000", "--json"], b"J10 K11 I11\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("note: --threads 1000: using"),
        "{}",
        o.stderr
    );
}

/// `prove`'s limits that do not fit are bad usage (status 2), named.
#[test]
fn prove_refuses_limits_that_do_not_fit() {
    for (args, says) in [
        (vec!["--threats", "99"], "--threats 99: at most"),
        (vec!["--quiet-depth", "0"], "--quiet-depth 0: from 1 to"),
        (vec!["--quiet-depth", "9"], "--quiet-depth 9: from 1 to"),
        (vec!["--quiet", "4"], "the games of one stone a move only"),
    ] {
        let mut all = vec!["prove"];
        all.extend(args.iter().copied());
        all.push("J10 K11 I11");
        let o = run(&all, b"");
        assert!(
            o.code == 2 && o.stderr.contains(says),
            "{args:?}: {}",
            o.stderr
        );
    }
}

// 6. The benchmark's and the generator's directories.
#[test]
fn bench_and_testsets_name_their_directories() {
    let dir = common::scratch("cli-sets");
    let o = run(&["bench", "--quick", "--sets", dir.to_str().unwrap()], b"");
    assert!(o.code == 1 && o.stderr.contains("W12.txt"), "{}", o.stderr);
    for f in std::fs::read_dir("testsets").unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "txt") && !f.ends_with("N20.txt") {
            std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
        }
    }
    let o = run(&["bench", "--quick", "--sets", dir.to_str().unwrap()], b"");
    assert!(o.code == 1 && o.stderr.contains("N20.txt"), "{}", o.stderr);
    let o = run(&["testsets"], b"");
    assert!(o.code == 2 && o.stderr.contains("--out"), "{}", o.stderr);
}

// 7. Long analyses: progress without a terminal, no defence search without a threat, quick
// Ctrl-C.
#[test]
fn analyze_shows_progress_and_searches_defences_only_against_threats() {
    let o = run_env(
        &[
            "analyze",
            "examples/positions/line20.txt",
            "--defenses",
            "--radius",
            "1",
            "--depth",
            "12",
        ],
        b"",
        &[("CPBIM_PROGRESS_SECS", "0")],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("progress: line 1/1: boundary"),
        "{}",
        o.stderr
    );
    let mut needed = 0;
    for block in o.stdout.split("stones  ").skip(1) {
        let threat = block.lines().find(|l| l.contains("threat?")).unwrap();
        let defences = block.lines().find(|l| l.contains("defences:")).unwrap();
        let no_threat = threat.contains("none ") || threat.contains("nowin ");
        assert_eq!(no_threat, defences.contains("not needed"), "{block}");
        needed += usize::from(!no_threat);
    }
    assert!(needed > 0);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_analysis_at_once() {
    let (o, took) = common::binary::signalled(
        &["analyze", "examples/positions/line20.txt", "--defenses"],
        std::time::Duration::from_secs(3),
        libc::SIGINT,
    );
    assert!(took.as_secs_f64() < 2.0, "took {took:?}");
    assert!(o.stderr.contains("stopped by a signal"), "{}", o.stderr);
    assert_eq!(o.code, 130, "{}", o.stderr);
}

// 8. Smaller items.
#[test]
fn help_proofs_long_tokens_and_messages() {
    let o = run(&["analyze", "--help"], b"");
    assert!(
        o.stdout
            .contains("One JSON object per move boundary, then one for the end of a finished game"),
        "{}",
        o.stdout
    );
    // --proof in a text batch: the proof on the answer's own line.
    let o = run(&["solve", "--proof"], b"J10 K11 I11\nJ10 I9 H11 J8 K9 L8 L10 J7 J9 J6 J11 L9 K11 K7 M9 I5 N10 I6 K12 I10 K6 G10 H9 L5 M4 N3 K5 I7 H6 G7 G5 G8 I8 H8 L11 M6 K8 N5 N7 L4 M10 N11 K4 M5 M3 M7 M2\n");
    let lines = o.lines();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[1].starts_with("win 16") && lines[1].contains("  proof {\"attack\""),
        "{}",
        lines[1]
    );
    // A megabyte token is not echoed whole.
    let big = format!("J10 {}", "K".repeat(1 << 20));
    let o = run(&["solve", "--json"], big.as_bytes());
    assert!(o.stdout.len() < 300, "{} bytes", o.stdout.len());
    let dir = common::scratch("cli-kb");
    let o = run(&["kb", "verify", dir.to_str().unwrap()], b"");
    assert!(o.code == 1 && o.stderr.contains("ct.bin"), "{}", o.stderr);
    let o = run(
        &["bench", "--rewound", "2..2", "--games", "/no/such.csv"],
        b"",
    );
    assert_eq!(o.stderr.matches("No such file").count(), 1, "{}", o.stderr);
    let o = run(&["name", "X-I9"], b"");
    assert!(
        o.stderr.contains("both white stones would be on I9"),
        "{}",
        o.stderr
    );
}

#[test]
fn rust_version_covers_every_locked_dependency() {
    let meta = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        meta.status.success(),
        "{}",
        String::from_utf8_lossy(&meta.stderr)
    );
    let v = json(&String::from_utf8_lossy(&meta.stdout));
    let version = |s: &str| -> Vec<u64> { s.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    let packages = v["packages"].as_array().unwrap();
    let ours = packages.iter().find(|p| p["name"] == "cpbim").unwrap();
    let ours = version(ours["rust_version"].as_str().expect("rust-version is set"));
    for p in packages {
        if let Some(needs) = p["rust_version"].as_str() {
            assert!(version(needs) <= ours, "{} needs Rust {needs}", p["name"]);
        }
    }
}

#[test]
fn move_plays_the_example_win_and_refuses_what_it_cannot_play() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/positions/example.txt"
    );
    let o = run(&["move", "--json", example], b"");
    let v = json(o.stdout.trim());
    assert_eq!(
        (v["verdict"].as_str(), v["win_depth"].as_u64()),
        (Some("win"), Some(16))
    );
    assert_eq!(v["move"].as_array().map(Vec::len), Some(2), "{}", o.stdout);
    // The built-in parameters round-trip through a file; a misspelt key is an error.
    let o = run(&["move", "--print-params"], b"");
    let params = common::scratch("cli-params");
    let file = params.join("params.json");
    std::fs::write(&file, &o.stdout).unwrap();
    let path = file.to_str().unwrap();
    let o = run(&["move", "--params", path, "--depth", "1", "J10"], b"");
    assert!(o.stdout.starts_with("move "), "{}{}", o.stdout, o.stderr);
    std::fs::write(&file, "{\"widht\": 3}").unwrap();
    let o = run(&["move", "--params", path, "J10"], b"");
    assert!(o.code == 1 && o.stderr.contains("widht"), "{}", o.stderr);
    // A finished game has no move.
    let csv = concat!(env!("CARGO_MANIFEST_DIR"), "/data/connect6_games.csv");
    let o = run(&["move", csv, "--game-id", "1"], b"");
    assert!(
        o.code == 1 && o.stderr.contains("the game is over"),
        "{}",
        o.stderr
    );
    // Renju: one stone, never a forbidden point (H8 would be a double four here).
    let fours = "E8 D8 F8 H12 G8 A1 H9 O1 H10 A15 H11 O15";
    let o = run(&["move", "--game", "renju", "--json", fours], b"");
    let v = json(o.stdout.trim());
    assert_eq!(v["move"].as_array().map(Vec::len), Some(1), "{}", o.stdout);
    assert_ne!(v["move"][0].as_str(), Some("H8"));
}

/// Issue 33, item 1: standard output that cannot be written (a full disk: `/dev/full`) is an
/// error naming it, exit status 1, never a panic — for every command that prints.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    let example = "examples/positions/example.txt";
    for args in [
        &["position", "J10"][..],
        &["position", "J10", "--format", "sgf"],
        &["kb", "stats"],
        &["kb", "stats", "--json"],
        &["name", "J10 K11 I11"],
        &["name", "--named"],
        &["solve", "J10 K11 I11"],
        &["solve", "--example", "--json"],
        &["move", example, "--depth", "1"],
        &["move", example, "--depth", "1", "--json"],
        &["analyze", "J10 K11 I11"],
        &["analyze", "J10 K11 I11", "--json"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let o = Command::new(env!("CARGO_BIN_EXE_cpbim"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

/// Every regular file of `dir` and its bytes.
fn contents(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// A copy of the committed test sets in a scratch folder.
fn copied_testsets(name: &str) -> common::Scratch {
    let dir = common::scratch(name);
    for f in std::fs::read_dir("testsets").unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

// The failure policy (docs/failures.md): interrupts keep only finished work.
#[cfg(unix)]
#[test]
fn a_signal_stops_a_batch() {
    let dir = common::scratch("cli-batch-signal");
    let file = dir.join("many.txt");
    let sets = std::fs::read_to_string("testsets/W28.txt").unwrap();
    std::fs::write(&file, sets.repeat(40)).unwrap();
    let lines = sets.lines().count() * 40;
    for (signal, status) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let args = ["solve", file.to_str().unwrap(), "--json", "--threads", "1"];
        let (o, took) = common::binary::signalled(&args, Duration::from_millis(1500), signal);
        assert_eq!(o.code, status, "{}", o.stderr);
        assert!(took.as_secs_f64() < 2.0, "took {took:?}");
        let answered = o.lines();
        assert!(
            !answered.is_empty() && answered.len() < lines,
            "{}",
            answered.len()
        );
        for line in answered {
            let v = json(line);
            assert_ne!(v["result"], "unknown", "a line the stop cut short: {line}");
        }
        assert!(o.stderr.contains("were not answered"), "{}", o.stderr);
    }
}

#[cfg(unix)]
#[test]
fn a_signal_leaves_the_test_sets_as_they_were() {
    let dir = copied_testsets("testsets-signal");
    let before = contents(&dir);
    let args = ["testsets", "--out", dir.to_str().unwrap()];
    let (o, took) = common::binary::signalled(&args, Duration::from_secs(2), libc::SIGTERM);
    assert_eq!(o.code, 143, "{}", o.stderr);
    assert!(took.as_secs_f64() < 2.0, "took {took:?}");
    assert!(o.stderr.contains("nothing written"), "{}", o.stderr);
    assert_eq!(contents(&dir), before, "the folder changed");
}

/// A write beyond the file-size limit fails as on a full disk: the old files stay whole and no
/// temporary file is left.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_old_files() {
    let dir = common::scratch("cli-full-disk");
    std::fs::write(dir.join("ct.bin"), "the old table").unwrap();
    let o = common::binary::with_file_limit(&["kb", "export", dir.to_str().unwrap()], 65536);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("ct.bin") && o.stderr.contains("large"),
        "{}",
        o.stderr
    );
    assert_eq!(
        contents(&dir),
        vec![("ct.bin".to_string(), b"the old table".to_vec())]
    );
    let svg = common::scratch("cli-full-disk-svg");
    std::fs::write(svg.join("boundary_003.svg"), "old").unwrap();
    let o = common::binary::with_file_limit(
        &["analyze", "J10 K11 I11", "--svg", svg.to_str().unwrap()],
        512,
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        contents(&svg),
        vec![("boundary_003.svg".to_string(), b"old".to_vec())]
    );
}

#[test]
fn engine_depths_are_bounded() {
    for args in [
        &["move", "J10", "--depth", "1000000000"][..],
        &["move", "J10", "--depth", "0"],
        &["engine", "--protocol", "cloudict", "--depth", "10"],
    ] {
        let o = run(args, b"");
        assert!(
            o.code == 2 && o.stderr.contains("give 1 to 9 whole moves"),
            "{args:?}: {}",
            o.stderr
        );
    }
    let o = run(
        &["engine", "--protocol", "cloudict"],
        b"depth 1000000000\nquit\n",
    );
    assert!(o.stderr.contains("give 1 to 9"), "{}", o.stderr);
    let o = run(&["serve", "--jobs", "0"], b"");
    assert_eq!(o.code, 2, "{}", o.stderr);
}

// Bounded input: every reader stops at its cap and names the source and the cap.
#[test]
fn inputs_beyond_their_caps_are_refused_without_reading_them_whole() {
    let dir = common::scratch("cli-caps");
    let long = dir.join("long.txt");
    std::fs::write(&long, "J10".repeat(700_000)).unwrap();
    let long = long.to_str().unwrap();
    for (args, says) in [
        (vec!["solve", "/dev/zero"], "line 1: longer than 1 MiB"),
        (vec!["position", long], "line 1: longer than 1 MiB"),
        (vec!["analyze", long], "line 1: longer than 1 MiB"),
        (
            vec!["move", "J10", "--params", "/dev/zero"],
            "--params: /dev/zero: larger than 16 MiB",
        ),
        (
            vec!["match", "--engine", "x", "--openings", "/dev/zero"],
            "--openings: /dev/zero: larger than 16 MiB",
        ),
    ] {
        let o = run(&args, b"");
        assert!(
            o.code == 1 && o.stderr.contains(says),
            "{args:?}: {}",
            o.stderr
        );
    }
    // A batch is answered up to the line beyond the cap, which ends it with its error.
    let mixed = dir.join("mixed.txt");
    std::fs::write(
        &mixed,
        format!("J10 K11 I11\n{}\nJ10\n", "K11".repeat(400_000)),
    )
    .unwrap();
    let o = run(&["solve", mixed.to_str().unwrap(), "--json"], b"");
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(o.lines().len(), 1, "{}", o.stdout);
    assert!(
        o.stderr.contains("line 2: longer than 1 MiB"),
        "{}",
        o.stderr
    );
}

#[test]
fn protocols_pass_over_huge_lines_and_never_echo_much() {
    let mut input = "A".repeat(3 << 20).into_bytes();
    input.extend_from_slice(b"\nABOUT\n");
    input.extend_from_slice("B".repeat(100_000).as_bytes());
    input.extend_from_slice(b"\nEND\n");
    let o = run(&["engine", "--protocol", "gomocup"], &input);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("passed over"), "{}", o.stderr);
    let lines = o.lines();
    assert!(lines[0].starts_with("name=\"cpbim\""), "{lines:?}");
    assert!(
        lines[1].starts_with("UNKNOWN BBBB") && lines[1].len() < 100,
        "{}",
        lines[1]
    );
    assert_eq!(lines.len(), 2);
    for protocol in ["cloudict", "sau", "gtp"] {
        let o = run(&["engine", "--protocol", protocol], &input);
        assert!(
            o.stdout.len() + o.stderr.len() < 10_000,
            "{protocol}: echoed the input"
        );
    }
}

/// An answer without its time (`0.28 ms`, `"time_ms":0.28`), which differs from run to run.
fn untimed(out: &str) -> String {
    out.lines()
        .map(|l| {
            l.split([' ', ','])
                .filter(|w| !w.starts_with("\"time_ms\"") && w.parse::<f64>().is_err())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shards_of_a_batch_concatenate_to_the_whole_batch() {
    // A test set with its comment header, a blank line and a line that is not a game.
    let dir = common::scratch("cli-shards");
    let file = dir.join("batch.txt");
    let set = std::fs::read_to_string("testsets/W12.txt").unwrap();
    let mut text: String = set.lines().take(13).collect::<Vec<_>>().join("\n");
    text += "\n\nQ99 is not a point\n# a comment\nJ10 K11 I11\n";
    std::fs::write(&file, &text).unwrap();
    let f = file.to_str().unwrap();
    for json in [false, true] {
        let mut base = vec!["solve", f, "--nodes", "20000"];
        if json {
            base.push("--json");
        }
        let whole = run(&base, b"");
        assert_eq!(whole.code, 1, "{}", whole.stderr);
        for n in [1, 2, 3, 5, 20] {
            let mut joined = String::new();
            let mut codes = Vec::new();
            for i in 1..=n {
                let shard = format!("{i}/{n}");
                let o = run(&[&base[..], &["--shard", &shard]].concat(), b"");
                assert!(o.clean(), "{shard}: {}", o.stderr);
                codes.push(o.code);
                joined += &o.stdout;
            }
            assert_eq!(
                untimed(&joined),
                untimed(&whole.stdout),
                "{n} shards, json {json}"
            );
            // The one line that is not a game fails its own shard only.
            assert_eq!(codes.iter().filter(|&&c| c == 1).count(), 1, "{codes:?}");
        }
    }
    // The scheduler's variables; standard input and bad shards are refused.
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let by_env = run_env(
        &["solve", f, "--nodes", "20000", "--shard", "auto"],
        b"",
        &slurm,
    );
    let by_arg = run(&["solve", f, "--nodes", "20000", "--shard", "3/4"], b"");
    assert_eq!(untimed(&by_env.stdout), untimed(&by_arg.stdout));
    assert!(!by_arg.stdout.is_empty());
    let k8s = [("JOB_COMPLETION_INDEX", "2")];
    let o = run_env(
        &["solve", f, "--nodes", "20000", "--shard", "auto/4"],
        b"",
        &k8s,
    );
    assert_eq!(untimed(&o.stdout), untimed(&by_arg.stdout));
    for (args, says) in [
        (vec!["solve", "--shard", "1/2"], "standard input"),
        (vec!["solve", f, "--shard", "0/2"], "from 1"),
        (vec!["solve", f, "--shard", "3/2"], "does not exist"),
        (
            vec!["solve", f, "--shard", "auto"],
            "SLURM_ARRAY_TASK_COUNT",
        ),
        (
            vec!["solve", f, "--shard", "auto/2"],
            "JOB_COMPLETION_INDEX",
        ),
    ] {
        let o = run(&args, b"J10\n");
        assert!(
            o.code == 2 && o.stderr.contains(says),
            "{args:?}: {}",
            o.stderr
        );
    }
}
