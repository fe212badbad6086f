//! Where a match's games start: the 24 named Connect6 openings, the first moves of the real
//! games of a CSV file, or a file of stone lists (one opening per line).

use crate::games::load_games;
use crate::geom::Point;
use crate::opening::named_openings;
use crate::{Game, Position};
use std::path::Path;

/// An opening: a name for the reports and its stones (whole moves, black's first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name in reports (a DIF name, `game N`, `line N`).
    pub name: String,
    /// Its stones in play order.
    pub stones: Vec<Point>,
}

/// The 24 distinct named openings (J10 and white's first two stones).
pub fn named() -> Vec<Opening> {
    named_openings()
        .into_iter()
        .map(|(o, _)| Opening {
            name: o.short(),
            stones: o.stones().to_vec(),
        })
        .collect()
}

/// The first `stones` stones of each game of a game-record CSV, distinct, in file order, as
/// long as they end at a move boundary and nobody has won.
pub fn from_games(path: &Path, game: &Game, stones: usize) -> Result<Vec<Opening>, String> {
    if !game.is_move_boundary(stones) {
        return Err(format!("{stones} stones is not a move boundary of {game}"));
    }
    let games = load_games(path).map_err(|e| e.to_string())?;
    let mut out: Vec<Opening> = Vec::new();
    for g in games.iter().filter(|g| g.moves.len() > stones) {
        let first = &g.moves[..stones];
        if Position::from_stones(*game, first).is_ok() && !out.iter().any(|o| o.stones == first) {
            out.push(Opening {
                name: format!("game {}", g.id),
                stones: first.to_vec(),
            });
        }
    }
    Ok(out)
}

/// One opening per line of `text` (stone lists; blank lines and `#` comments skipped).
pub fn from_text(text: &str, game: &Game) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if crate::notation::is_blank(line) {
            continue;
        }
        let body = crate::notation::without_comment(line);
        let pos = crate::parse_position(body, *game).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(Opening {
            name: format!("line {}", i + 1),
            stones: pos.stones().to_vec(),
        });
    }
    if out.is_empty() {
        return Err("no opening in the file".to_string());
    }
    Ok(out)
}
