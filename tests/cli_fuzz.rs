//! The mutation run through the binary: a few thousand mutated records (`common::mutate`) as
//! batch lines, as arguments and as files. Zero crashes: every run ends with status 0, 1 (a
//! reported error) or 2 (clap refusing an argument that looks like an option), never with a
//! panic or a signal, and a batch answers every line.

mod common;

use common::binary::cpbim;
use common::mutate::mutated;
use std::ffi::OsStr;

#[test]
fn three_thousand_mutated_lines_in_one_batch() {
    let mut inputs = mutated(3000, 20261123);
    // A first line that reads as a diagram row would make the whole input one diagram (the
    // rule for files and standard input): start with a plain stone list.
    inputs.insert(0, b"J10".to_vec());
    let mut stdin = Vec::new();
    for line in &inputs {
        stdin.extend(
            line.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
        stdin.push(b'\n');
    }
    let o = cpbim(
        &["solve", "--json", "--nodes", "2000", "--tt-entries", "4096"],
        &stdin,
        &[],
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    // Blank and comment-only lines (some mutations make them) are not games: every other line
    // is answered, in order, naming its line.
    let games: Vec<u64> = stdin
        .split(|&b| b == b'\n')
        .take(inputs.len())
        .enumerate()
        .filter(|(_, l)| {
            let text = String::from_utf8_lossy(l);
            !text.split('#').next().unwrap_or("").trim().is_empty()
        })
        .map(|(i, _)| i as u64 + 1)
        .collect();
    let lines = o.lines();
    assert_eq!(lines.len(), games.len());
    let mut answered = 0;
    for (l, &number) in lines.iter().zip(&games) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["input_line"], number, "{l}");
        let error = v["error"].as_str();
        assert!(v["result"].is_string() || error.is_some(), "{l}");
        assert!(!error.is_some_and(|e| e.contains("internal error")), "{l}");
        answered += usize::from(v["result"].is_string());
    }
    // The mutations keep some inputs valid: the run solves those too; the lines that are not
    // games make the batch exit 1.
    assert!(answered > 100, "{answered}");
    let failed = games.len() - answered;
    assert_eq!(o.code, if failed > 0 { 1 } else { 0 }, "{}", o.stderr);
}

/// `cpbim store replies STORE POSITION` for black in Gomoku.
fn store_replies<'a>(store: &'a OsStr, position: &'a OsStr) -> Vec<&'a OsStr> {
    let mut args: Vec<&OsStr> = vec!["store".as_ref(), "replies".as_ref(), store, position];
    args.extend(["--game", "gomoku", "--side", "black"].map(OsStr::new));
    args
}

#[test]
fn mutated_arguments_and_files() {
    for (i, input) in mutated(300, 7).iter().enumerate() {
        // An argument cannot hold a NUL byte (the operating system's limit, not ours).
        let text = String::from_utf8_lossy(input).replace('\0', "");
        for cmd in ["position", "name"] {
            let o = cpbim(&[cmd, text.as_str()], b"", &[]);
            assert!(
                o.clean(),
                "input {i} {cmd} {text:?}: {} {}",
                o.code,
                o.stderr
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("cpbim-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, input) in mutated(200, 11).iter().enumerate() {
        let file = dir.join(format!("input{i}.txt"));
        std::fs::write(&file, input).unwrap();
        let f = file.as_os_str();
        let merged = dir.join("merged.redb");
        let os = |s: &'static str| -> &OsStr { s.as_ref() };
        for args in [
            vec![
                os("solve"),
                f,
                os("--nodes"),
                os("2000"),
                os("--tt-entries"),
                os("4096"),
            ],
            vec![
                os("analyze"),
                f,
                os("--nodes"),
                os("300"),
                os("--tt-entries"),
                os("4096"),
            ],
            vec![os("position"), f, os("--format"), os("sgf")],
            vec![
                os("prove"),
                f,
                os("--depth"),
                os("8"),
                os("--leaf-depth"),
                os("8"),
                os("--leaf-nodes"),
                os("2000"),
                os("--nodes"),
                os("50"),
            ],
            // Quiet moves, and a root where the side asked about is not to move.
            vec![
                os("prove"),
                f,
                os("--game"),
                os("gomoku"),
                os("--side"),
                os("white"),
                os("--quiet"),
                os("4"),
                os("--quiet-depth"),
                os("2"),
                os("--depth"),
                os("8"),
                os("--leaf-depth"),
                os("8"),
                os("--leaf-nodes"),
                os("2000"),
                os("--nodes"),
                os("50"),
            ],
            // A mutated file given as a proof store: refused, never a panic.
            vec![os("store"), os("info"), f],
            store_replies(f, os("H8 H9 I9")),
            // A mutated position for `store replies` (read before the store, here none).
            store_replies(merged.as_os_str(), f),
            vec![
                os("store"),
                os("merge"),
                f,
                os("--into"),
                merged.as_os_str(),
            ],
        ] {
            let o = cpbim(&args, b"", &[]);
            assert!(o.clean(), "input {i} {args:?}: {} {}", o.code, o.stderr);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
