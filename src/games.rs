//! Game files: the CSV of `data/connect6_games.csv` (`game_id,moves,winner,original_winner_label`,
//! moves one stone per entry, lower case, `"j10,k11,i11,…"`), read row by row with
//! [`crate::notation::csv`].

use crate::geom::{Color, Point};
use crate::notation::csv::{is_header, parse_row};
use std::path::Path;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// `game_id` column.
    pub id: u64,
    /// Stones in play order.
    pub moves: Vec<Point>,
    /// The winner, if the record names one.
    pub winner: Option<Color>,
}

/// Why a game file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The file could not be read (the cause, which names the file, follows as the error's
    /// source).
    #[error("cannot read the game file")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line that is not a game record.
    #[error("{path}:{line}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// Parse the CSV text of a game file (`path` only names it in errors). The header line and
/// blank lines are skipped.
pub fn parse_games(text: &str, path: &str) -> Result<Vec<Recorded>, GamesError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || (i == 0 && is_header(line)) {
            continue;
        }
        let row = parse_row(line).map_err(|reason| GamesError::Format {
            path: path.to_string(),
            line: i + 1,
            reason,
        })?;
        games.push(Recorded {
            id: row.id,
            moves: row.moves.into_iter().map(|m| m.0).collect(),
            winner: row.winner,
        });
    }
    Ok(games)
}

/// Read a game file.
pub fn load_games(path: &Path) -> Result<Vec<Recorded>, GamesError> {
    let bytes =
        crate::files::read(path, crate::files::MAX_FILE).map_err(|source| GamesError::Io {
            path: path.display().to_string(),
            source,
        })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        GamesError::Format {
            path: path.display().to_string(),
            line,
            reason: format!("byte {at} is not UTF-8 text"),
        }
    })?;
    parse_games(&text, &path.display().to_string())
}

/// The game file shipped in the repository (`data/connect6_games.csv`), for tests and benches.
pub fn bundled_games_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/connect6_games.csv")
}
