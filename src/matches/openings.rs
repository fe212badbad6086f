//! Where a match's games start: the 24 named Connect6 openings, the 26 three-stone openings
//! of the games of five, the first moves of the real games of a CSV file, or a file of stone
//! lists (one opening per line).

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

/// The built-in openings of `game`: the 24 named ones for Connect6 ([`named`]), the 26
/// three-stone ones ([`three_stones`]) for games of one stone per move.
pub fn built_in(game: &Game) -> Result<Vec<Opening>, String> {
    if game.is_connect6() {
        Ok(named())
    } else if game.p() == 1 && game.q() == 1 && game.m().min(game.n()) >= 5 {
        Ok(three_stones(game))
    } else {
        Err(format!("no built-in openings for {game}: give a file"))
    }
}

/// The 26 openings of Renju's tournament rule, for any game of one stone per move: black in
/// the centre, white beside it (13 direct openings) or diagonally (13 indirect), black's
/// second stone anywhere in the centre's 5×5 square, one of each pair of mirror images. Named
/// by their stones (`h8 h9 h10`).
pub fn three_stones(game: &Game) -> Vec<Opening> {
    let at = |dx: isize, dy: isize| {
        game.from_center(dx, dy)
            .expect("within the centre's 5×5 square")
    };
    let mut out = Vec::new();
    // Direct: white above black, mirror x ↔ −x; indirect: white up right, mirror x ↔ y.
    for (white, keep) in [
        (
            (0, 1),
            (|x: isize, _y: isize| x >= 0) as fn(isize, isize) -> bool,
        ),
        ((1, 1), |x, y| x >= y),
    ] {
        for dy in (-2..=2).rev() {
            for dx in -2..=2 {
                if (dx, dy) == (0, 0) || (dx, dy) == white || !keep(dx, dy) {
                    continue;
                }
                let stones = vec![at(0, 0), at(white.0, white.1), at(dx, dy)];
                let name = stones
                    .iter()
                    .map(|p| p.to_string().to_lowercase())
                    .collect::<Vec<_>>()
                    .join(" ");
                out.push(Opening { name, stones });
            }
        }
    }
    out
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
