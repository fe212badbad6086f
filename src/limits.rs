//! Checks on the limits a user gives a search — depths and times — with the messages the
//! command line and the server both show (the server's fields carry the options' names).

use crate::search::tt::MAX_ROUNDS;
use crate::Game;
use std::time::Duration;

/// `NAME SECONDS` as a duration: a positive number; values beyond what a duration holds
/// are refused (anything above a few centuries is no limit at all). `name` is the option or
/// field as the user wrote it (`--time`, `time`).
pub fn seconds(name: &str, t: f64) -> Result<Duration, String> {
    if !(t.is_finite() && t > 0.0) {
        return Err(format!("{name} {t}: give a positive number of seconds"));
    }
    Duration::try_from_secs_f64(t)
        .map_err(|_| format!("{name} {t}: too large (at most {} seconds)", u64::MAX))
}

/// The longest a protocol's manager may give the engine for one move (`INFO timeout_turn`,
/// `timeout_match`, `time_left`): one hour; larger values are read as this.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(3600);

/// The deepest alpha-beta search the engine is given (`move --depth`, `engine --depth`, the
/// Cloudict protocol's `depth`), in whole moves: depth 10 took minutes for one move.
pub const MAX_ENGINE_DEPTH: u32 = 9;

/// `--depth` of the engine: 1 to [`MAX_ENGINE_DEPTH`] whole moves.
pub fn engine_depth(d: u32) -> Result<u32, String> {
    if (1..=MAX_ENGINE_DEPTH).contains(&d) {
        Ok(d)
    } else {
        Err(format!(
            "--depth {d}: give 1 to {MAX_ENGINE_DEPTH} whole moves (deeper searches take \
             hours a move; give --time to think longer)"
        ))
    }
}

/// A search depth `NAME d` (`--depth`, `depth`): whole rounds of `game` (2p plies: 4 in
/// Connect6, 2 in Gomoku), at most the deepest budget the search holds. Other depths are
/// refused, never rounded, by the command line and the board alike.
pub fn depth(name: &str, d: u32, game: &Game) -> Result<u32, String> {
    let round = 2 * game.p() as u32;
    if !d.is_multiple_of(round) {
        return Err(format!("{name} {d}: depths are whole rounds of {round} plies in {game} (an attack and its defence): give {} or {}", d / round * round, (d / round + 1) * round));
    }
    if d > MAX_ROUNDS * round {
        return Err(format!(
            "{name} {d}: at most {} plies in {game}",
            MAX_ROUNDS * round
        ));
    }
    Ok(d)
}
