//! The exit status of every command that reads games, case by case, against the table in
//! docs/failures.md ("Exit status"): the table is what users read, so the test runs each of its
//! cells and compares.

mod common;

use common::binary::cpbim;

const COMMANDS: [&str; 6] = ["solve", "position", "analyze", "name", "move", "prove"];

/// A game every command answers at once (the README's example: black to move, a double-threat
/// win that `prove` takes from its first search).
const GAME: &str = "examples/positions/example.txt";

/// The arguments (before the command's own) and standard input of one case for `command`.
fn case(row: &str, command: &str) -> (Vec<&'static str>, &'static [u8]) {
    match row {
        "one game, answered" => (vec![GAME], b""),
        "a batch, every game line answered (blank and comment lines skipped)" => (
            vec!["-"],
            b"# a comment line\nJ10 K11 I11\n\n   # another\nJ10 K11 I11 H11 I10\n",
        ),
        "a batch with a line that is not a game (the others answered)" => {
            (vec!["-"], b"J10 K11 I11\nJ10 J10\nJ10 K11 I11 H11 I10\n")
        }
        "one game that cannot be read (`J10 J10`)" => (vec!["J10 J10"], b""),
        "a path that does not exist" => (vec!["no/such/file.txt"], b""),
        "an option the command does not have" => (vec![GAME, "--no-such-option"], b""),
        "an option value out of range" => (
            match command {
                "solve" | "analyze" => vec![GAME, "--depth", "6"],
                "position" => vec![GAME, "--forbidden"],
                "name" => vec!["--all", "-1"],
                "move" => vec![GAME, "--depth", "0"],
                "prove" => vec![GAME, "--threats", "99"],
                _ => unreachable!(),
            },
            b"",
        ),
        "no game given" => (vec![], b""),
        _ => panic!("docs/failures.md has a case the test does not know: {row}"),
    }
}

/// The rows of the command × case table of docs/failures.md: the case and its six statuses.
fn documented() -> Vec<(String, Vec<i32>)> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/failures.md"))
        .expect("docs/failures.md");
    let head = format!("| case | {} |", COMMANDS.join(" | "));
    let table = doc.split_once(&head).expect("the exit-status table").1;
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let codes = cells[1..].iter().map(|c| c.parse().unwrap()).collect();
            (cells[0].to_string(), codes)
        })
        .collect()
}

#[test]
fn every_command_exits_as_the_table_says() {
    let rows = documented();
    assert_eq!(rows.len(), 8, "the table's rows");
    let mut wrong = Vec::new();
    for (row, expected) in &rows {
        assert_eq!(expected.len(), COMMANDS.len(), "{row}");
        for (command, &want) in COMMANDS.iter().zip(expected) {
            let (rest, stdin) = case(row, command);
            let mut args = vec![*command];
            args.extend(rest);
            let o = cpbim(&args, stdin, &[]);
            if o.code != want {
                wrong.push(format!(
                    "{row} / {command}: exit {} (the table says {want}); stderr: {}",
                    o.code,
                    o.stderr.trim()
                ));
            }
            // Whatever the status, never a panic, and an error always says what.
            assert!(!o.stderr.contains("panicked"), "{args:?}: {}", o.stderr);
            if o.code != 0 {
                assert!(o.stderr.contains("error"), "{args:?}: {}", o.stderr);
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_failed_line_leaves_the_others_answered() {
    let o = cpbim(
        &["solve", "-", "--json"],
        b"J10 K11 I11\n# comment\nJ10 J10\nJ10 K11 I11 H11 I10\n",
        &[],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    let lines: Vec<serde_json::Value> = o
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<u64> = lines
        .iter()
        .map(|v| v["input_line"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3, 4]);
    assert!(lines[0]["result"].is_string() && lines[2]["result"].is_string());
    assert!(lines[1]["error"].as_str().unwrap().contains("occupied"));
    assert!(
        o.stderr
            .contains("error: 1 of 3 games could not be answered"),
        "{}",
        o.stderr
    );
}
