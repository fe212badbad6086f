//! What a position argument means — one rule for every command (`docs/formats.md`,
//! "Arguments, files and standard input"):
//!
//! * `-`, or no argument where a command reads standard input: standard input, read like a
//!   file;
//! * a path that exists: that file;
//! * a single line that contains `.`, `/` or `\` (outside a `#` comment) and is neither SGF, a
//!   contest record nor a CSV row: a path, and when it does not exist, "no such file";
//! * anything else: the text of one game.
//!
//! A file (or standard input) holding a diagram, or an SGF game or contest record spread over
//! several lines, is one game; otherwise it holds one game per line (a batch). A first line
//! that is a CSV header is skipped, and `--game-id N` picks one game of a CSV.

use anyhow::{bail, Context, Result};
use cpbim::notation::{self, csv, Format};
use cpbim::Reading;
use std::io::{IsTerminal, Read};
use std::path::Path;

/// One line of a batch: its 1-based number in the input and its bytes (not yet decoded, so
/// that a line that is not UTF-8 gets its own error).
#[derive(Clone, Debug)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The line without its line break.
    pub bytes: Vec<u8>,
}

/// The games an argument stands for.
pub enum Inputs {
    /// One game (its text).
    One(String),
    /// One game per line.
    Lines(Vec<Line>),
}

/// Where the argument's text comes from.
enum Source<'a> {
    Stdin,
    File(&'a Path),
    Text(&'a str),
}

fn looks_like_path(arg: &str) -> bool {
    let t = arg.trim_start();
    if arg.contains('\n') || t.starts_with('(') || t.starts_with('{') || csv::looks_like_row(t) {
        return false;
    }
    let body = notation::without_comment(arg);
    body.contains(['.', '/', '\\'])
}

fn source(arg: &str) -> Result<Source<'_>> {
    if arg == "-" {
        return Ok(Source::Stdin);
    }
    let path = Path::new(arg);
    if !arg.contains('\n') && path.exists() {
        if path.is_dir() {
            bail!("{arg} is a directory, not a file of games");
        }
        return Ok(Source::File(path));
    }
    if looks_like_path(arg) {
        bail!(
            "no such file: {} (an argument holding '.', '/' or '\\' on one line is taken as a path)",
            cpbim::text::excerpt(arg)
        );
    }
    Ok(Source::Text(arg))
}

/// Read the games of `arg` (`None` = standard input); `game_id` picks one game of a CSV.
pub fn read(arg: Option<&str>, game_id: Option<u64>) -> Result<Inputs> {
    let (bytes, origin) = match source(arg.unwrap_or("-"))? {
        Source::Text(text) => {
            if game_id.is_some() {
                bail!("--game-id picks a game of a game-record CSV file; give the file");
            }
            return Ok(Inputs::One(text.to_string()));
        }
        Source::Stdin => {
            let mut stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("reading games from standard input, one per line; end with Ctrl-D");
            }
            let mut bytes = Vec::new();
            stdin
                .read_to_end(&mut bytes)
                .context("reading standard input")?;
            (bytes, "standard input".to_string())
        }
        Source::File(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            (bytes, path.display().to_string())
        }
    };
    from_bytes(&bytes, &origin, game_id)
}

/// The games of a file's bytes.
fn from_bytes(bytes: &[u8], origin: &str, game_id: Option<u64>) -> Result<Inputs> {
    let lossy = String::from_utf8_lossy(bytes);
    let format = notation::detect(&lossy);
    if let Some(id) = game_id {
        return csv_game(bytes, origin, format, id).map(Inputs::One);
    }
    if notation::is_one_game(&lossy) {
        let text = notation::decode(bytes).with_context(|| format!("reading {origin}"))?;
        return Ok(Inputs::One(text.into_owned()));
    }
    let mut lines: Vec<Line> = split_lines(bytes).collect();
    // A CSV's header line is not a game.
    if lines
        .first()
        .is_some_and(|l| csv::is_header(&String::from_utf8_lossy(&l.bytes)))
    {
        lines.remove(0);
    }
    Ok(Inputs::Lines(lines))
}

/// The lines of `bytes`, without their line breaks (`\n` or `\r\n`).
fn split_lines(bytes: &[u8]) -> impl Iterator<Item = Line> + '_ {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = bytes.is_empty();
    body.split(|&b| b == b'\n')
        .enumerate()
        .filter(move |_| !empty)
        .map(|(i, l)| Line {
            number: i + 1,
            bytes: l.strip_suffix(b"\r").unwrap_or(l).to_vec(),
        })
}

/// The row of game `id` in a game-record CSV.
fn csv_game(bytes: &[u8], origin: &str, format: Format, id: u64) -> Result<String> {
    if format != Format::Csv {
        bail!(
            "--game-id {id}: {origin} is not a game-record CSV (it reads as {})",
            format.name()
        );
    }
    for line in split_lines(bytes) {
        let text = String::from_utf8_lossy(&line.bytes);
        let first = text.split(',').next().unwrap_or("").trim();
        if first.parse::<u64>().ok() == Some(id) {
            let text = notation::decode(&line.bytes)
                .with_context(|| format!("{origin}, line {}", line.number))?;
            return Ok(text.into_owned());
        }
    }
    bail!("--game-id {id}: no such game in {origin}")
}

/// A game given as a DIF opening name (`X-J8`, Connect6) or in any format that keeps the play
/// order ([`cpbim::opening::parse_line_or_name`]).
pub fn line_record(text: &str, how: Reading) -> Result<cpbim::Record> {
    Ok(cpbim::opening::parse_line_or_name(text, how)?)
}

/// A game given as a DIF opening name (`X-J8`, Connect6) or in any format, a diagram too
/// ([`cpbim::opening::parse_game_or_name`]).
pub fn game_record(text: &str, how: Reading) -> Result<cpbim::Record> {
    Ok(cpbim::opening::parse_game_or_name(text, how)?)
}

/// One game of a command that takes lines (`analyze`, `name`): its line number in a batch
/// (`None` for a single game) and the game, or why the line is not one.
pub struct Item {
    /// 1-based line number in the input, for a batch.
    pub line: Option<usize>,
    /// The game.
    pub record: Result<cpbim::Record>,
}

/// The games of `arg`, each read by `parse` ([`line_record`] or [`game_record`]). Blank and
/// comment-only lines of a batch are skipped.
pub fn line_items(
    arg: Option<&str>,
    game_id: Option<u64>,
    how: Reading,
    parse: fn(&str, Reading) -> Result<cpbim::Record>,
) -> Result<Vec<Item>> {
    Ok(match read(arg, game_id)? {
        Inputs::One(text) => vec![Item {
            line: None,
            record: parse(&text, how),
        }],
        Inputs::Lines(lines) => lines
            .iter()
            .filter_map(|l| {
                let text = match notation::decode(&l.bytes) {
                    Ok(t) => t,
                    Err(e) => {
                        return Some(Item {
                            line: Some(l.number),
                            record: Err(e.into()),
                        })
                    }
                };
                let blank = notation::is_blank(&text);
                (!blank).then(|| Item {
                    line: Some(l.number),
                    record: parse(&text, how),
                })
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(inputs: Inputs) -> Vec<(usize, String)> {
        match inputs {
            Inputs::Lines(ls) => ls
                .into_iter()
                .map(|l| (l.number, String::from_utf8_lossy(&l.bytes).into_owned()))
                .collect(),
            Inputs::One(t) => panic!("one game: {t}"),
        }
    }

    #[test]
    fn paths_and_texts() {
        assert!(looks_like_path("positions.txt"));
        assert!(looks_like_path("dir/file"));
        assert!(!looks_like_path("J10 K11 I11"));
        assert!(!looks_like_path("J10 K11 I11 # see fig. 2"));
        assert!(!looks_like_path("(;B[j10])"));
        assert!(!looks_like_path("7,\"j10\",black,black"));
        assert!(!looks_like_path(". . .\n. . ."));
        let e = source("no/such.txt").err().unwrap().to_string();
        assert!(e.starts_with("no such file: no/such.txt"), "{e}");
    }

    #[test]
    fn files_of_lines_and_whole_files() {
        let l = lines(from_bytes(b"J10\r\n\nJ10 K11 I11\n", "x", None).unwrap());
        assert_eq!(
            l,
            vec![(1, "J10".into()), (2, "".into()), (3, "J10 K11 I11".into())]
        );
        let csv = b"game_id,moves,winner\n5,\"j10\",,\n6,\"j10,k11,i11\",,\n";
        let l = lines(from_bytes(csv, "x", None).unwrap());
        assert_eq!(l.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2, 3]);
        match from_bytes(csv, "x", Some(6)).unwrap() {
            Inputs::One(t) => assert!(t.starts_with("6,")),
            Inputs::Lines(_) => panic!(),
        }
        assert!(from_bytes(csv, "x", Some(7)).is_err());
        assert!(from_bytes(b"J10", "x", Some(7)).is_err());
        assert!(matches!(
            from_bytes(b"(;B[j10]\n;W[k11i11])", "x", None).unwrap(),
            Inputs::One(_)
        ));
        assert!(matches!(from_bytes(b"", "x", None).unwrap(), Inputs::Lines(l) if l.is_empty()));
        // SGF games one per line are a batch.
        let l = lines(from_bytes(b"(;B[j10])\n(;B[j10];W[k11i11])\n", "x", None).unwrap());
        assert_eq!(l.len(), 2);
        // A line that is not UTF-8 stays a line of its own.
        let l = lines(from_bytes(b"J10\nJ10 K11 I11 # caf\xe9\n", "x", None).unwrap());
        assert_eq!(l.len(), 2);
    }
}
