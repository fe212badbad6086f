//! Checks on the limits a user gives a search — depths and times — with the messages the
//! command line and the server both show (the server's fields carry the options' names).

use crate::search::tt::MAX_ROUNDS;
use crate::Game;
use std::time::Duration;

/// `--FLAG SECONDS` as a duration: a positive number; values beyond what a duration holds
/// are refused (anything above a few centuries is no limit at all).
pub fn seconds(flag: &str, t: f64) -> Result<Duration, String> {
    if !(t.is_finite() && t > 0.0) {
        return Err(format!("--{flag} {t}: give a positive number of seconds"));
    }
    Duration::try_from_secs_f64(t)
        .map_err(|_| format!("--{flag} {t}: too large (at most {} seconds)", u64::MAX))
}

/// `--depth`: whole rounds of `game` (2p plies: 4 in Connect6, 2 in Gomoku), at most the
/// deepest budget the search holds.
pub fn depth(d: u32, game: &Game) -> Result<u32, String> {
    let round = 2 * game.p() as u32;
    if !d.is_multiple_of(round) {
        return Err(format!("--depth {d}: depths are whole rounds of {round} plies in {game} (an attack and its defence)"));
    }
    if d > MAX_ROUNDS * round {
        return Err(format!(
            "--depth {d}: at most {} plies in {game}",
            MAX_ROUNDS * round
        ));
    }
    Ok(d)
}
