//! The engine behind a trait object, for callers that learn the game at run time (the
//! protocols, the match runner): one model type per kind of game, chosen once.

use super::{Choice, Engine, Limits, Params};
use crate::model::{self, Kind};
use crate::{Game, Position};
use std::sync::atomic::AtomicBool;

/// Something that chooses moves.
pub trait Player: Send {
    /// The move for the side to move of `pos`.
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice;

    /// The same, ended early (with the best move so far) once `stop` is set from another
    /// thread; players that answer at once ignore it.
    fn choose_until(&mut self, pos: &Position, limits: Limits, stop: &AtomicBool) -> Choice {
        let _ = stop;
        self.choose(pos, limits)
    }
}

impl<M: crate::Model + 'static> Player for Engine<M> {
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice {
        Engine::choose(self, pos, limits)
    }

    fn choose_until(&mut self, pos: &Position, limits: Limits, stop: &AtomicBool) -> Choice {
        Engine::choose_until(self, pos, limits, stop)
    }
}

/// The engine for `game`, on the CPBIM of its kind.
pub fn engine_for(game: &Game, params: Params) -> Box<dyn Player> {
    match model::kind_of(game) {
        Kind::Connect6 => Box::new(Engine::<crate::Cpbim>::new(params)),
        Kind::Five => Box::new(Engine::<model::Cpbim5>::new(params)),
        Kind::K4 => Box::new(Engine::<model::CpbimK4>::new(params)),
        Kind::K5 => Box::new(Engine::<model::CpbimK5>::new(params)),
        Kind::K6 => Box::new(Engine::<model::CpbimK6>::new(params)),
        Kind::K7 => Box::new(Engine::<model::CpbimK7>::new(params)),
        Kind::K8 => Box::new(Engine::<model::CpbimK8>::new(params)),
    }
}

/// Which player to build: the engine or one of the baseline players (`docs/engine.md`,
/// "Baseline players").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// The engine on the CPBIM (every game).
    #[default]
    Cpbim,
    /// Thesis 000's Connect6 system: empty-point valuation, shape vectors, two-ply minimax
    /// (six in a row, two stones a move).
    Seed000,
    /// Thesis 004's Gomoku program: line pattern scores, alpha-beta, Renju's forbidden points
    /// kept (five in a row, one stone a move).
    Seed004,
}

impl PlayerKind {
    /// Every player.
    pub const ALL: [PlayerKind; 3] = [PlayerKind::Cpbim, PlayerKind::Seed000, PlayerKind::Seed004];

    /// `cpbim`, `seed000`, `seed004`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Cpbim => "cpbim",
            PlayerKind::Seed000 => "seed000",
            PlayerKind::Seed004 => "seed004",
        }
    }

    /// Does this player play `game`?
    pub fn supports(self, game: &Game) -> bool {
        match self {
            PlayerKind::Cpbim => true,
            PlayerKind::Seed000 => super::seed000::supports(game),
            PlayerKind::Seed004 => super::seed004::supports(game),
        }
    }

    /// What this player plays, for messages.
    fn games(self) -> &'static str {
        match self {
            PlayerKind::Cpbim => "every game",
            PlayerKind::Seed000 => "six in a row with two stones a move (connect6)",
            PlayerKind::Seed004 => {
                "five in a row with one stone a move (gomoku, gomoku-standard, renju)"
            }
        }
    }
}

impl std::fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PlayerKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        PlayerKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = PlayerKind::ALL.iter().map(|k| k.name()).collect();
                format!("no player {s:?} (players: {})", names.join(", "))
            })
    }
}

/// The player `kind` for `game` (`params` weigh the engine; the baselines have their theses'
/// constants), or why it does not play that game.
pub fn player_for(
    kind: PlayerKind,
    game: &Game,
    params: Params,
) -> Result<Box<dyn Player>, String> {
    if !kind.supports(game) {
        return Err(format!(
            "the player {kind} plays only {}, not {game}",
            kind.games()
        ));
    }
    Ok(match kind {
        PlayerKind::Cpbim => engine_for(game, params),
        PlayerKind::Seed000 => Box::new(super::seed000::Seed000),
        PlayerKind::Seed004 => Box::new(super::seed004::Seed004),
    })
}
