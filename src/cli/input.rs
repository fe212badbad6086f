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
use cpbim::files::{self, LineRead, MAX_FILE, MAX_LINE, MAX_RECORD};
use cpbim::notation::{self, csv, Format};
use cpbim::Reading;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, IsTerminal};
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
    /// One game per line, read as they are needed.
    Lines(Lines),
}

/// The lines of a batch, read from their source as they are asked for, so that a batch of any
/// length needs only the memory of the lines in use; each line at most [`MAX_LINE`] bytes
/// (a longer one ends the batch with an error naming it).
pub struct Lines {
    reader: Box<dyn BufRead>,
    origin: String,
    /// Lines read ahead (to tell the format), given out first.
    ahead: VecDeque<Line>,
    /// Lines read from the source so far.
    read: usize,
    done: bool,
    /// Game lines given out or skipped so far, and the ones to give out: `[from, to)`
    /// (`--shard`; every one by default).
    games: usize,
    keep: (usize, Option<usize>),
}

impl Lines {
    fn new(reader: Box<dyn BufRead>, origin: String) -> Lines {
        Lines {
            reader,
            origin,
            ahead: VecDeque::new(),
            read: 0,
            done: false,
            games: 0,
            keep: (0, None),
        }
    }

    /// No lines at all.
    pub fn empty() -> Lines {
        let mut lines = Lines::new(Box::new(std::io::empty()), String::new());
        lines.done = true;
        lines
    }

    /// Only the game lines `from` (counted from 0) up to `to` (exclusive; `None`: to the
    /// end); a line the source cannot give still ends the lines with its error.
    pub fn within(mut self, from: usize, to: Option<usize>) -> Lines {
        self.keep = (from, to);
        self
    }

    /// The games of a collection read whole (`games`, slices of `text`), each a "line"
    /// numbered by the line of `text` where it starts.
    fn of_games(text: &str, games: &[&str], origin: String) -> Lines {
        let mut lines = Lines::new(Box::new(std::io::empty()), origin);
        lines.done = true;
        for game in games {
            let start = game.as_ptr() as usize - text.as_ptr() as usize;
            lines.ahead.push_back(Line {
                number: 1 + text[..start].matches('\n').count(),
                bytes: game.as_bytes().to_vec(),
            });
        }
        lines
    }

    /// The next line from the source itself (not from the lines read ahead).
    fn read_next(&mut self) -> Option<Result<Line>> {
        if self.done {
            return None;
        }
        let mut bytes = Vec::new();
        let found = files::read_line(&mut self.reader, &mut bytes, MAX_LINE);
        let number = self.read + 1;
        match found {
            Ok(LineRead::Line) => {
                self.read = number;
                Some(Ok(Line { number, bytes }))
            }
            Ok(LineRead::End) => {
                self.done = true;
                None
            }
            Ok(LineRead::TooLong) => {
                self.done = true;
                Some(Err(anyhow::anyhow!(
                    "{}, line {number}: longer than {}, the cap on a line",
                    self.origin,
                    files::size(MAX_LINE as u64)
                )))
            }
            Err(e) => {
                self.done = true;
                Some(Err(anyhow::anyhow!("reading {}: {e}", self.origin)))
            }
        }
    }

    /// Every line, kept: at most [`MAX_FILE`] bytes of them.
    pub fn collect_all(self) -> Result<Vec<Line>> {
        let origin = self.origin.clone();
        let mut total = 0u64;
        let mut lines = Vec::new();
        for line in self {
            let line = line?;
            total += line.bytes.len() as u64 + 1;
            if total > MAX_FILE {
                return Err(files::too_large(&origin, MAX_FILE).into());
            }
            lines.push(line);
        }
        Ok(lines)
    }
}

/// The lines of a batch that hold a game: blank and comment-only lines are skipped, by every
/// command alike (docs/formats.md, "Arguments, files and standard input").
impl Iterator for Lines {
    type Item = Result<Line>;

    fn next(&mut self) -> Option<Result<Line>> {
        let (from, to) = self.keep;
        loop {
            if to.is_some_and(|to| self.games >= to) {
                return None;
            }
            let line = match self.ahead.pop_front() {
                Some(line) => Ok(line),
                None => self.read_next()?,
            };
            match line {
                Ok(l) if notation::is_blank(&String::from_utf8_lossy(&l.bytes)) => continue,
                Ok(l) => {
                    self.games += 1;
                    if self.games > from {
                        return Some(Ok(l));
                    }
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }
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
    let (reader, origin): (Box<dyn BufRead>, String) = match source(arg.unwrap_or("-"))? {
        Source::Text(text) => {
            if game_id.is_some() {
                super::usage!("--game-id picks a game of a game-record CSV file; give the file");
            }
            return Ok(Inputs::One(text.to_string()));
        }
        Source::Stdin => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("reading games from standard input, one per line; end with Ctrl-D");
            }
            (
                Box::new(BufReader::new(stdin)),
                "standard input".to_string(),
            )
        }
        Source::File(path) => {
            let file =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            (Box::new(BufReader::new(file)), path.display().to_string())
        }
    };
    from_reader(reader, origin, game_id)
}

/// The games of a source: the lines up to the first with content tell the format (one game
/// spread over lines, or one game per line), as [`notation::detect`] reads it.
fn from_reader(reader: Box<dyn BufRead>, origin: String, game_id: Option<u64>) -> Result<Inputs> {
    let mut lines = Lines::new(reader, origin);
    let mut ahead_bytes = 0u64;
    while ahead_bytes <= MAX_RECORD {
        let Some(line) = lines.read_next().transpose()? else {
            break;
        };
        ahead_bytes += line.bytes.len() as u64 + 1;
        let significant = !notation::is_blank(&String::from_utf8_lossy(&line.bytes));
        lines.ahead.push_back(line);
        if significant {
            break;
        }
    }
    let head: Vec<&[u8]> = lines.ahead.iter().map(|l| l.bytes.as_slice()).collect();
    let head = String::from_utf8_lossy(&head.join(&b'\n')).into_owned();
    let format = notation::detect(&head);
    if let Some(id) = game_id {
        return csv_game(lines, format, id).map(Inputs::One);
    }
    if notation::is_one_game(&head) {
        let origin = lines.origin.clone();
        let text = one_record(lines)?;
        if format == Format::Sgf {
            let games = notation::sgf::split_collection(&text);
            if games.len() > 1 {
                return Ok(Inputs::Lines(Lines::of_games(&text, &games, origin)));
            }
        }
        return Ok(Inputs::One(text));
    }
    // A CSV's header line is not a game.
    if lines
        .ahead
        .front()
        .is_some_and(|l| l.number == 1 && csv::is_header(&String::from_utf8_lossy(&l.bytes)))
    {
        lines.ahead.pop_front();
    }
    Ok(Inputs::Lines(lines))
}

/// The whole source as one game's text, at most [`MAX_RECORD`] bytes.
fn one_record(mut lines: Lines) -> Result<String> {
    let mut bytes = Vec::new();
    for l in lines.ahead.drain(..) {
        bytes.extend_from_slice(&l.bytes);
        bytes.push(b'\n');
    }
    let room = MAX_RECORD.saturating_sub(bytes.len() as u64);
    let rest =
        files::read_capped(&mut lines.reader, room, &lines.origin).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => files::too_large(&lines.origin, MAX_RECORD),
            _ => e,
        })?;
    bytes.extend_from_slice(&rest);
    let text = notation::decode(&bytes).with_context(|| format!("reading {}", lines.origin))?;
    Ok(text.into_owned())
}

/// The row of game `id` in a game-record CSV.
fn csv_game(lines: Lines, format: Format, id: u64) -> Result<String> {
    let origin = lines.origin.clone();
    if format != Format::Csv {
        super::usage!(
            "--game-id {id}: {origin} is not a game-record CSV (it reads as {})",
            format.name()
        );
    }
    for line in lines {
        let line = line?;
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

/// The end of a batch of `games` game lines of which `failed` could not be answered: an error
/// (exit status 1) when any failed, the others' answers being out already (docs/failures.md,
/// "Exit status").
pub fn batch_end(games: usize, failed: usize) -> Result<()> {
    use cpbim::text::counted;
    if failed > 0 {
        bail!(
            "{failed} of {} could not be answered (their lines say why)",
            counted(games as u64, "game")
        );
    }
    Ok(())
}

/// One game of a command that takes lines (`analyze`, `name`): its line number in a batch
/// (`None` for a single game) and the game, or why the line is not one.
pub struct Item {
    /// 1-based line number in the input, for a batch.
    pub line: Option<usize>,
    /// The game.
    pub record: Result<cpbim::Record>,
}

/// The games of `arg`, each read by `parse` ([`line_record`] or [`game_record`]).
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
            .collect_all()?
            .iter()
            .map(|l| Item {
                line: Some(l.number),
                record: notation::decode(&l.bytes)
                    .map_err(anyhow::Error::from)
                    .and_then(|text| parse(&text, how)),
            })
            .collect(),
    })
}

/// The one game a command of one position reads (`move`, `prove`): the argument's text, or
/// the one line of a file or of standard input that holds a game (blank and comment lines
/// aside).
pub fn one_game(args: &super::InputArgs, command: &str) -> Result<String> {
    let lines = match read(args.position.as_deref(), args.game_id)? {
        Inputs::One(text) => return Ok(text),
        Inputs::Lines(lines) => lines.collect_all()?,
    };
    match lines.as_slice() {
        [one] => Ok(notation::decode(&one.bytes)
            .with_context(|| format!("line {}", one.number))?
            .into_owned()),
        _ => bail!(
            "`{command}` takes one game, not {} (the games of a file are its lines, or the trees of an SGF collection)",
            cpbim::text::counted(lines.len() as u64, "game")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_bytes(bytes: &[u8], origin: &str, game_id: Option<u64>) -> Result<Inputs> {
        let reader = Box::new(std::io::Cursor::new(bytes.to_vec()));
        from_reader(reader, origin.to_string(), game_id)
    }

    fn lines(inputs: Inputs) -> Vec<(usize, String)> {
        match inputs {
            Inputs::Lines(ls) => ls
                .collect_all()
                .unwrap()
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
        let l = lines(from_bytes(b"J10\r\n\n# a comment\nJ10 K11 I11\n", "x", None).unwrap());
        assert_eq!(l, vec![(1, "J10".into()), (4, "J10 K11 I11".into())]);
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
        assert!(lines(from_bytes(b"", "x", None).unwrap()).is_empty());
        // An SGF collection spread over lines is a batch of its games, numbered by the line
        // where each starts.
        let l = lines(from_bytes(b"(;B[j10]\n;W[k11i11])\n\n(;B[j10])", "x", None).unwrap());
        assert_eq!(
            l,
            vec![(1, "(;B[j10]\n;W[k11i11])".into()), (4, "(;B[j10])".into())]
        );
        // SGF games one per line are a batch.
        let l = lines(from_bytes(b"(;B[j10])\n(;B[j10];W[k11i11])\n", "x", None).unwrap());
        assert_eq!(l.len(), 2);
        // A line that is not UTF-8 stays a line of its own.
        let l = lines(from_bytes(b"J10\nJ10 K11 I11 # caf\xe9\n", "x", None).unwrap());
        assert_eq!(l.len(), 2);
    }
}
