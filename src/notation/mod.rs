//! Reading and writing games and positions in the formats users have (`docs/formats.md`):
//!
//! * **stone list** ([`list`]): `J10 K11 I11 H11 I10`, one token per stone in play order;
//! * **diagram** ([`diagram`]): 19 lines of 19 cells, the top line being row 19;
//! * **SGF** ([`sgf`]): Little Golem's Connect6 style and the one-stone-per-node style;
//! * **contest record** ([`contest`]): the record of the Chinese computer-games contests,
//!   `{[C6][B name][W name][result][date place][event];B(J,10);W(K,11);…}`;
//! * **CSV row** ([`csv`]): a line of the game-record CSV, `game_id,"j10,k11,…",winner,…`.
//!
//! [`parse_record`] recognises the format ([`detect`]) and reads a [`Record`]: a game in
//! progress or a finished one. [`parse_position`] reads a position to solve (a game in
//! progress), [`parse_line`] a game whose play order is known (not a diagram). [`write`] writes
//! a record in any format.
//!
//! Text is UTF-8; [`decode`] turns bytes into text, reading a contest record that is not UTF-8
//! as GB18030 (the encoding Chinese contest software writes).

pub mod contest;
pub mod csv;
mod cursor;
pub mod diagram;
pub mod list;
pub mod sgf;

use crate::board::{Position, PositionError};
use crate::game::Game;
use crate::geom::{Color, PointError};
use crate::record::Record;
use std::borrow::Cow;

pub use contest::parse_contest;
pub use csv::parse_csv_row;
pub use diagram::parse_diagram;
pub use list::parse_stone_list;
pub use sgf::parse_sgf;

/// Why a text is not a game or a position. Every variant names the offending token (shortened
/// when long) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A token that is not a point, or a point off the board.
    #[error(transparent)]
    Point(#[from] PointError),
    /// The stones do not make a legal game.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A character that has no meaning where it stands.
    #[error("unknown character {ch:?} at line {line}, column {column}: {expected}")]
    UnknownChar {
        /// The character.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A diagram of the wrong shape.
    #[error("diagram: {0}")]
    Diagram(String),
    /// Malformed SGF.
    #[error("malformed SGF at byte {offset}: {reason}")]
    Sgf {
        /// Byte offset in the input.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// SGF that ends too early.
    #[error("truncated SGF: {0}")]
    SgfTruncated(String),
    /// A malformed contest record.
    #[error("contest record, byte {offset}: {reason}")]
    Contest {
        /// Byte offset in the input.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A malformed CSV game record.
    #[error("CSV record: {0}")]
    Csv(String),
    /// Bytes that are not UTF-8 text.
    #[error("byte {offset} (0x{byte:02X}) is not UTF-8 text")]
    NotUtf8 {
        /// Byte offset of the first bad byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A diagram where a line (stones in play order) is needed.
    #[error("a diagram does not say in which order the stones were played: give the line as a stone list, SGF, contest record or CSV row")]
    NotALine,
}

/// The formats of games and positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Stone list in play order: `J10  K11 I11`.
    List,
    /// 19×19 diagram with coordinates.
    Diagram,
    /// SGF, Little Golem style.
    Sgf,
    /// Chinese computer-games contest record: `{[C6]…;B(J,10);…}`.
    Contest,
    /// One row of the game-record CSV: `game_id,"j10,k11,…",winner,winner`.
    Csv,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [
        Format::List,
        Format::Diagram,
        Format::Sgf,
        Format::Contest,
        Format::Csv,
    ];

    /// `list`, `diagram`, `sgf`, `contest`, `csv`.
    pub fn name(self) -> &'static str {
        match self {
            Format::List => "list",
            Format::Diagram => "diagram",
            Format::Sgf => "sgf",
            Format::Contest => "contest",
            Format::Csv => "csv",
        }
    }
}

/// Does `text` hold one game spread over its lines — a diagram, or an SGF game or contest
/// record that goes on past its first line — rather than one game per line (stone lists,
/// CSV rows, and SGF games or contest records written one per line)?
pub fn is_one_game(text: &str) -> bool {
    match detect(text) {
        Format::Diagram => true,
        Format::Sgf | Format::Contest => !first_record_ends_on_its_line(text),
        Format::List | Format::Csv => false,
    }
}

/// Does the SGF game tree or contest record at the start of `text` close on its first line?
/// Brackets count outside property values (`[…]`, where `\` escapes a character).
fn first_record_ends_on_its_line(text: &str) -> bool {
    let line = text
        .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
        .lines()
        .next()
        .unwrap_or("");
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    for c in line.chars() {
        match (in_value, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (true, ']') => in_value = false,
            (true, _) => {}
            (false, '[') => in_value = true,
            (false, '(' | '{') => depth += 1,
            (false, ')' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// `line` without its `#` comment.
pub fn without_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("")
}

/// Does `line` hold nothing but blanks and a `#` comment?
pub fn is_blank(line: &str) -> bool {
    without_comment(line).trim().is_empty()
}

/// The lines of `text` that carry content: without `#` comments, blank ones skipped.
pub(crate) fn significant_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(without_comment)
        .filter(|l| !l.trim().is_empty())
}

/// Which format `text` is in: SGF if it starts with `(`, a contest record if it starts with
/// `{`, a CSV row if its first line is a CSV header or starts `123,"`, a diagram if its first
/// line with content is a row of cells or the column letters, else a stone list.
pub fn detect(text: &str) -> Format {
    let t = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if t.starts_with('(') {
        return Format::Sgf;
    }
    if t.starts_with('{') {
        return Format::Contest;
    }
    let Some(first) = significant_lines(text).next() else {
        return Format::List;
    };
    if csv::is_header(first) || csv::looks_like_row(first) {
        Format::Csv
    } else if diagram::is_diagram_line(first) {
        Format::Diagram
    } else {
        Format::List
    }
}

/// How to read a game: which game it is, and, for a puzzle diagram whose stone counts do not
/// tell it, the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The game.
    pub game: Game,
    /// The side to move of a diagram (`--to-move`); for a record with its play order it must
    /// agree with the order.
    pub to_move: Option<Color>,
}

impl From<Game> for Reading {
    fn from(game: Game) -> Reading {
        Reading {
            game,
            to_move: None,
        }
    }
}

/// Read a game in any format ([`detect`]).
pub fn parse_record(text: &str, how: impl Into<Reading>) -> Result<Record, ParseError> {
    let Reading { game, to_move } = how.into();
    let record = match detect(text) {
        Format::List => parse_stone_list(text, game),
        Format::Diagram => return parse_diagram(text, game, to_move),
        Format::Sgf => parse_sgf(text, game),
        Format::Contest => parse_contest(text, game),
        Format::Csv => parse_csv_row(text, game),
    }?;
    match to_move {
        Some(side) => Ok(record.with_to_move(side)?),
        None => Ok(record),
    }
}

/// Read a position to solve: a game in progress in any format. A finished game is refused
/// with [`PositionError::AlreadyWon`].
pub fn parse_position(text: &str, how: impl Into<Reading>) -> Result<Position, ParseError> {
    Ok(parse_record(text, how)?.position()?)
}

/// Read a line: a game whose play order is known (any format but a diagram).
pub fn parse_line(text: &str, how: impl Into<Reading>) -> Result<Record, ParseError> {
    let record = parse_record(text, how)?;
    if record.ordered() {
        Ok(record)
    } else {
        Err(ParseError::NotALine)
    }
}

/// Bytes as text: UTF-8 (a leading byte-order mark is dropped), or GB18030 for a contest
/// record that is not UTF-8. Anything else that is not UTF-8 is refused, naming the first
/// bad byte.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, ParseError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(Cow::Borrowed(s)),
        Err(e) => {
            let contest = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
            if contest {
                let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
                return Ok(text);
            }
            let offset = e.valid_up_to();
            Err(ParseError::NotUtf8 {
                offset,
                byte: bytes[offset],
            })
        }
    }
}

/// Why a record cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// A finished game or a puzzle read from a diagram: no play order reaches it legally.
    #[error("a {0} read from a diagram has no play order: write it as a diagram")]
    NoOrder(&'static str),
    /// A format that does not hold this game.
    #[error("{0}")]
    Format(String),
}

/// Write `record` in `format`. A diagram has no play order: the formats that need one write a
/// made-up order ([`Record::ordered`]), which is refused for a finished game and for a puzzle
/// whose stone counts no game reaches.
pub fn write(record: &Record, format: Format) -> Result<String, WriteError> {
    if format != Format::Diagram && !record.ordered() {
        if record.win().is_some() {
            return Err(WriteError::NoOrder("finished game"));
        }
        if !record.order_replays() {
            return Err(WriteError::NoOrder("puzzle"));
        }
    }
    if format == Format::Contest && !record.game().is_connect6() {
        return Err(WriteError::Format(format!(
            "contest records ([C6]) hold Connect6 games, not {}",
            record.game()
        )));
    }
    Ok(match format {
        Format::List => list::write(record),
        Format::Diagram => diagram::write(record),
        Format::Sgf => sgf::write(record),
        Format::Contest => contest::write(record),
        Format::Csv => csv::write(record),
    })
}

/// A position as Little Golem SGF: `(;FF[4]GM[Connect6]SZ[19];B[j10];W[j9l11])`.
pub fn to_sgf(pos: &Position) -> String {
    sgf::write(&Record::from(pos.clone()))
}

/// Whose stone a record says it is, compared with the play order: the error reason when they
/// differ.
pub(crate) fn check_turn(game: Game, said: Color, index: usize, token: &str) -> Result<(), String> {
    let expected = game.color_of_stone(index);
    if said == expected {
        Ok(())
    } else {
        Err(format!(
            "{}: stone {} of the game is {expected}'s, the record gives it to {said}",
            crate::text::excerpt(token),
            index + 1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C6: Game = Game::CONNECT6;

    #[test]
    fn puzzles_and_other_games() {
        let go = Game::GOMOKU;
        let r = parse_record("h8 i9 j10", go).unwrap();
        assert_eq!(r.to_move(), Color::White);
        // A diagram with three black stones and none white: a puzzle, black to move.
        let mut d = String::new();
        for row in (1..=15).rev() {
            let line: String = (0..15)
                .map(|c| if row == 8 && c < 3 { 'X' } else { '.' })
                .collect();
            d += &format!("{line}\n");
        }
        assert!(parse_record(&d, go).is_err());
        let how = Reading {
            game: go,
            to_move: Some(Color::Black),
        };
        let p = parse_position(&d, how).unwrap();
        assert_eq!((p.to_move(), p.board().stones()), (Color::Black, 3));
        let r = parse_record(&d, how).unwrap();
        assert_eq!(write(&r, Format::List), Err(WriteError::NoOrder("puzzle")));
        // Its diagram names its side to move, and reads back the same without `--to-move`.
        let written = write(&r, Format::Diagram).unwrap();
        assert!(written.starts_with("# black to move\n"), "{written}");
        let back = parse_record(&written, go).unwrap();
        assert_eq!((back.to_move(), back.board()), (Color::Black, r.board()));
        // The same stones with white to move (also not what the counts give) say so, and
        // `--to-move` overrides the comment.
        let white = parse_record(
            &d,
            Reading {
                game: go,
                to_move: Some(Color::White),
            },
        )
        .unwrap();
        assert!(write(&white, Format::Diagram)
            .unwrap()
            .starts_with("# white to move\n"));
        let over = Reading {
            game: go,
            to_move: Some(Color::White),
        };
        assert_eq!(
            parse_record(&written, over).unwrap().to_move(),
            Color::White
        );
        // A diagram whose counts give the side to move is written without the comment.
        let plain = parse_record("h8 i9", go).unwrap();
        assert!(!write(&plain, Format::Diagram).unwrap().starts_with('#'));
        // A record's own order decides.
        let e = parse_record(
            "h8",
            Reading {
                game: go,
                to_move: Some(Color::Black),
            },
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("the record has white to move"),
            "{e}"
        );
        assert!(parse_record(
            "h8",
            Reading {
                game: go,
                to_move: Some(Color::White)
            }
        )
        .is_ok());
        assert!(write(&r, Format::Contest).is_err());
    }

    #[test]
    fn the_formats_agree() {
        let list = parse_position("J10 K11 I11 H11 I10", Game::CONNECT6).unwrap();
        let lg =
            parse_position("(;FF[4]EV[x];B[j10];W[k11i11];B[h11i10])", Game::CONNECT6).unwrap();
        let diagram = parse_position(&list.to_diagram(), Game::CONNECT6).unwrap();
        let contest = parse_position(
            "{[C6][a B][b W][][][];B(J,10);W(K,11);W(I,11);B(H,11);B(I,10)}",
            Game::CONNECT6,
        )
        .unwrap();
        let csv = parse_position("7,\"j10,k11,i11,h11,i10\",,", Game::CONNECT6).unwrap();
        assert_eq!(list.board(), lg.board());
        assert_eq!(list.board(), diagram.board());
        assert_eq!(list.stones(), lg.stones());
        assert_eq!(list, contest);
        assert_eq!(list, csv);
        assert_eq!(parse_position(&to_sgf(&list), C6).unwrap(), list);
    }

    #[test]
    fn detection() {
        assert_eq!(detect("  (;B[j10])"), Format::Sgf);
        assert_eq!(detect("\n{[C6]}"), Format::Contest);
        assert_eq!(detect("game_id,moves,winner\n1,\"j10\",black"), Format::Csv);
        assert_eq!(detect("12,\"j10\",black,black"), Format::Csv);
        assert_eq!(detect("# c\n . . X\n"), Format::Diagram);
        assert_eq!(
            detect("   A B C D E F G H I J K L M N O P Q R S\n"),
            Format::Diagram
        );
        assert_eq!(detect("J10 K11 I11"), Format::List);
        assert_eq!(detect("X14"), Format::List);
        assert_eq!(detect("B7\n"), Format::List);
        assert_eq!(detect("J10 K11. I11"), Format::List);
        assert_eq!(detect(""), Format::List);
    }

    #[test]
    fn one_game_or_one_per_line() {
        assert!(is_one_game("(;B[j10]\n;W[k11i11])"));
        assert!(!is_one_game("(;B[j10];W[k11i11])\n(;B[j10])\n"));
        assert!(!is_one_game("(;C[a ) \\] b];B[j10])\n(;B[j10])"));
        assert!(is_one_game("{[C6][x];B(J,10)\n;W(K,11);W(L,10)}"));
        assert!(!is_one_game("{[C6][x];B(J,10)}\n{[C6][y];B(J,10)}"));
        assert!(is_one_game(
            &parse_position("J10", C6).unwrap().to_diagram()
        ));
        assert!(!is_one_game("J10\nJ10 K11 I11"));
    }

    #[test]
    fn decoding() {
        assert_eq!(decode(b"\xEF\xBB\xBFJ10").unwrap(), "J10");
        assert_eq!(
            decode(b"J10 # caf\xe9").unwrap_err(),
            ParseError::NotUtf8 {
                offset: 9,
                byte: 0xE9
            }
        );
        // GB2312 for "先手胜" inside a contest record.
        let gb = b"{[C6][][][\xCF\xC8\xCA\xD6\xCA\xA4]}";
        assert!(decode(gb).unwrap().contains("先手胜"));
    }
}
