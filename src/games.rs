//! Game records: the CSV format of `data/connect6_games.csv`
//! (`game_id,moves,winner,original_winner_label`, moves one stone per entry, lower case,
//! `"j10,k11,i11,…"`).

use crate::geom::{Color, Point};
use std::path::Path;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `game_id` column.
    pub id: u32,
    /// Stones in play order.
    pub moves: Vec<Point>,
    /// The winner, if the record names one.
    pub winner: Option<Color>,
}

/// Why a game file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The file could not be read.
    #[error("{path}: {source}")]
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

/// Parse the CSV text of a game file (`path` only names it in errors).
pub fn parse_games(text: &str, path: &str) -> Result<Vec<Game>, GamesError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if i == 0 && line.starts_with("game_id") || line.is_empty() {
            continue;
        }
        let err = |reason: String| GamesError::Format {
            path: path.to_string(),
            line: i + 1,
            reason,
        };
        let (id, rest) = line
            .split_once(',')
            .ok_or_else(|| err("expected game_id,\"moves\",winner,…".into()))?;
        let rest = rest
            .strip_prefix('"')
            .ok_or_else(|| err("moves must be quoted".into()))?;
        let (moves, rest) = rest
            .split_once('"')
            .ok_or_else(|| err("unterminated moves".into()))?;
        let winner = match rest.trim_start_matches(',').split(',').next() {
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            _ => None,
        };
        let moves = moves
            .split(',')
            .filter(|m| !m.is_empty())
            .map(|m| m.parse::<Point>().map_err(|e| err(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        games.push(Game {
            id: id.parse().map_err(|_| err(format!("bad game_id {id:?}")))?,
            moves,
            winner,
        });
    }
    Ok(games)
}

/// Read a game file.
pub fn load_games(path: &Path) -> Result<Vec<Game>, GamesError> {
    let text = std::fs::read_to_string(path).map_err(|source| GamesError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse_games(&text, &path.display().to_string())
}

/// The game file shipped in the repository (`data/connect6_games.csv`), for tests and benches.
pub fn bundled_games_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/connect6_games.csv")
}
