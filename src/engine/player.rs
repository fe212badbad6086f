//! The engine behind a trait object, for callers that learn the game at run time (the
//! protocols, the match runner): one model type per kind of game, chosen once.

use super::{Choice, Engine, Limits, Params};
use crate::model::{self, Kind};
use crate::{Game, Position};

/// Something that chooses moves.
pub trait Player: Send {
    /// The move for the side to move of `pos`.
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice;
}

impl<M: crate::Model + 'static> Player for Engine<M> {
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice {
        Engine::choose(self, pos, limits)
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
