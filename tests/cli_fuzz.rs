//! The mutation run through the binary: a few thousand mutated records (`common::mutate`) as
//! batch lines, as arguments and as files. Zero crashes: every run ends with status 0, 1 (a
//! reported error) or 2 (clap refusing an argument that looks like an option), never with a
//! panic or a signal, and a batch answers every line.

mod common;

use common::mutate::mutated;
use std::io::Write;
use std::process::{Command, Stdio};

fn cpbim(args: &[&std::ffi::OsStr], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpbim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

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
    let (code, stdout, stderr) = cpbim(
        &[
            os("solve"),
            os("--json"),
            os("--nodes"),
            os("2000"),
            os("--tt-entries"),
            os("4096"),
        ],
        &stdin,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), inputs.len());
    let mut answered = 0;
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let error = v["error"].as_str();
        assert!(v["result"].is_string() || error.is_some(), "{l}");
        assert!(!error.is_some_and(|e| e.contains("internal error")), "{l}");
        answered += usize::from(v["result"].is_string());
    }
    // The mutations keep some inputs valid: the run solves those too.
    assert!(answered > 100, "{answered}");
}

fn clean(code: i32, stderr: &str) -> bool {
    matches!(code, 0..=2) && !stderr.contains("panicked")
}

#[test]
fn mutated_arguments_and_files() {
    for (i, input) in mutated(300, 7).iter().enumerate() {
        // An argument cannot hold a NUL byte (the operating system's limit, not ours).
        let text = String::from_utf8_lossy(input).replace('\0', "");
        for cmd in ["position", "name"] {
            let (code, _, stderr) = cpbim(&[os(cmd), os(&text)], b"");
            assert!(
                clean(code, &stderr),
                "input {i} {cmd} {text:?}: {code} {stderr}"
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("cpbim-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, input) in mutated(200, 11).iter().enumerate() {
        let file = dir.join(format!("input{i}.txt"));
        std::fs::write(&file, input).unwrap();
        let f = file.as_os_str();
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
        ] {
            let (code, _, stderr) = cpbim(&args, b"");
            assert!(clean(code, &stderr), "input {i} {args:?}: {code} {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
