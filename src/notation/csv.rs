//! Rows of the game-record CSV (`data/connect6_games.csv`):
//! `game_id,moves,winner,original_winner_label`, the moves quoted, one stone per entry in
//! play order, lower case: `1,"j10,k11,i11,…",white,white`. A text holding the header line
//! and one row is a row too. Rows are read for any game (its board bounds the points).

use super::{significant_lines, ParseError};
use crate::game::Game;
use crate::geom::{Color, Point};
use crate::record::{Info, Record};
use crate::text::excerpt;

/// One row of the CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `game_id`.
    pub id: u64,
    /// The stones in play order, each with its token as written.
    pub moves: Vec<(Point, String)>,
    /// The `winner` column, when it names a colour.
    pub winner: Option<Color>,
    /// The `winner` column as written (empty when blank).
    pub winner_text: String,
}

/// Is `line` the CSV header (`game_id,…`)?
pub fn is_header(line: &str) -> bool {
    line.trim_start().starts_with("game_id,")
}

/// Does `line` start like a row: a number, a comma, a quote?
pub fn looks_like_row(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && t[digits..]
            .trim_start()
            .strip_prefix(',')
            .is_some_and(|r| r.trim_start().starts_with('"'))
}

/// Read one row; the error is the reason, without the place.
pub fn parse_row(line: &str) -> Result<Row, String> {
    let line = line.trim();
    let (id, rest) = line
        .split_once(',')
        .ok_or("expected game_id,\"moves\",winner,…")?;
    let id = id
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("game_id {:?} is not a number", excerpt(id)))?;
    let rest = rest
        .trim_start()
        .strip_prefix('"')
        .ok_or("the moves must be quoted: \"j10,k11,…\"")?;
    let (moves, rest) = rest
        .split_once('"')
        .ok_or("the quoted moves have no closing quote")?;
    let winner_text = rest
        .trim_start()
        .trim_start_matches(',')
        .split(',')
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    let winner = Color::of_name(&winner_text);
    let moves = moves
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| {
            Ok((
                m.parse::<Point>().map_err(|e| e.to_string())?,
                m.to_string(),
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Row {
        id,
        moves,
        winner,
        winner_text,
    })
}

/// Read a record of `game` from one CSV row (optionally after the header line).
pub fn parse_csv_row(text: &str, game: Game) -> Result<Record, ParseError> {
    let rows: Vec<&str> = significant_lines(text).filter(|l| !is_header(l)).collect();
    let line = match rows.as_slice() {
        [line] => line,
        [] => {
            return Err(ParseError::Csv(
                "the text holds the header but no game".into(),
            ))
        }
        many => {
            return Err(ParseError::Csv(format!(
                "the text holds {} games: give one row, or the file with --game-id",
                many.len()
            )))
        }
    };
    let row = parse_row(line).map_err(ParseError::Csv)?;
    record_of(&row, game).map_err(ParseError::from)
}

/// The record of a row: its game, with the id and the winner column as the result.
pub fn record_of(row: &Row, game: Game) -> Result<Record, crate::PositionError> {
    let mut record = Record::from_tokens(game, &row.moves)?;
    record.info = Info {
        id: Some(row.id),
        result: Some(row.winner_text.clone()).filter(|w| !w.is_empty()),
        ..Info::default()
    };
    Ok(record)
}

/// A row: `id,"j10,k11,…",winner,winner` (id 0 when the record has none; the winner columns
/// are empty for a game in progress).
pub fn write(record: &Record) -> String {
    let moves: Vec<String> = record
        .stones()
        .iter()
        .map(|p| p.to_string().to_ascii_lowercase())
        .collect();
    let winner = record.win().map_or("", |w| w.winner.name());
    format!(
        "{},\"{}\",{winner},{winner}",
        record.info.id.unwrap_or(0),
        moves.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_and_write() {
        let text = "game_id,moves,winner,original_winner_label\n7,\"j10,k11,i11\",,\n";
        let r = parse_csv_row(text, Game::CONNECT6).unwrap();
        assert_eq!(r.info.id, Some(7));
        assert_eq!(r.stones().len(), 3);
        assert_eq!(write(&r), "7,\"j10,k11,i11\",,");
        assert_eq!(parse_csv_row(&write(&r), Game::CONNECT6).unwrap(), r);
    }

    #[test]
    fn row_errors() {
        let m = |t: &str| parse_csv_row(t, Game::CONNECT6).unwrap_err().to_string();
        assert!(m("7,j10,black").contains("quoted"));
        assert!(m("7,\"j10,k11").contains("closing quote"));
        assert!(m("x7,\"j10\",").contains("game_id"));
        assert!(m("7,\"j10,k11,zz\",").contains("zz"));
        assert!(m("1,\"j10\",\n2,\"j10\",").contains("2 games"));
    }
}
