//! Where types come from ([`TypeSource`]: the knowledge base or the classifier, Connect6's or a
//! game's), and which compiled model shape serves a game ([`Kind`]).

use crate::game::Game;
use crate::geom::Color;
use crate::kb::{self, Composite, ConnType, Params, Tables};
use cpbim_kb::{point_type as upgrade_type, shape_index};

/// Where connection and point types come from, per colour (Renju's black and white classify
/// differently).
pub trait TypeSource: Sized + Send {
    /// Name of the incremental model over this source.
    const INCREMENTAL: &'static str;
    /// Name of the rebuilt model over this source.
    const REBUILT: &'static str;
    /// The source for `game`.
    fn for_game(game: &Game) -> Self;
    /// What the classification of colour index `c` depends on.
    fn params(&self, c: usize) -> Params;
    /// Type of the connection of colour index `c` with shape `(len, f)`.
    fn classify(&self, c: usize, len: u32, f: u32) -> ConnType;
    /// Type of empty point `i` of that connection, which has type `t`: the type the connection
    /// takes with a stone on `i` when that is better than `t` (Algorithm 3's definition, by
    /// which `ti.bin` is built from `ct.bin`: [`cpbim_kb::point_types_for`]), else `O`.
    ///
    /// Every source reads it through its own [`TypeSource::classify`]; the knowledge bases
    /// thereby read `ct.bin` rather than `ti.bin`, which holds the same byte (2026-11-27): `ti`
    /// is 20 MB for Connect6 where `ct` is 1 MB (960 KB against 64 KB a colour for the games of
    /// five), and on real Connect6 positions the search took 0.92–0.94 of the time; a fresh
    /// process takes a page fault on every 64 KB of a table it touches (docs/knowledge-base.md).
    #[inline]
    fn point_type(&self, c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            return ConnType::O;
        }
        upgrade_type(t, self.classify(c, len, f | 1 << i))
    }
    /// Composite class of four directional point types.
    fn composite(&self, types: [ConnType; 4]) -> Composite;
}

/// `thn` of a connection of type `t` (capped at 3; 3 for a win), in a game of `p` per move: the
/// type says it, but for a `DW` of a one-stone-per-move game (2 or 3 threats), which the window
/// counts settle.
#[inline(always)]
pub(super) fn thn_of(t: ConnType, params: Params, len: u32, f: u32) -> u8 {
    use ConnType::*;
    match t {
        WIN => 3,
        DW if params.p >= 2 => 3,
        DW => cpbim_kb::window_stats_for(params, len, f).threats as u8,
        L5 | L4 => params.p as u8,
        D5 | S4 | D4 => 1,
        _ => 0,
    }
}

/// Connect6's types from the build-time knowledge base (`ct.bin`, `ti.bin`).
pub struct KnowledgeBase;

impl TypeSource for KnowledgeBase {
    const INCREMENTAL: &'static str = "cpbim";
    const REBUILT: &'static str = "cpbm";
    fn for_game(game: &Game) -> Self {
        debug_assert_eq!(kind_of(game), Kind::Connect6, "{game}");
        KnowledgeBase
    }
    #[inline(always)]
    fn params(&self, _c: usize) -> Params {
        Params::CONNECT6
    }
    #[inline]
    fn classify(&self, _c: usize, len: u32, f: u32) -> ConnType {
        kb::conn_type(shape_index(6, len, f))
    }
    #[inline]
    fn composite(&self, types: [ConnType; 4]) -> Composite {
        kb::composite(types)
    }
}

/// Connect6's types computed on the spot by the table-free classifier (no knowledge base).
pub struct Classifier;

impl TypeSource for Classifier {
    const INCREMENTAL: &'static str = "iu";
    const REBUILT: &'static str = "rebuilt-classifier";
    fn for_game(game: &Game) -> Self {
        debug_assert_eq!(kind_of(game), Kind::Connect6, "{game}");
        Classifier
    }
    #[inline(always)]
    fn params(&self, _c: usize) -> Params {
        Params::CONNECT6
    }
    #[inline]
    fn classify(&self, _c: usize, len: u32, f: u32) -> ConnType {
        cpbim_kb::classify_direct(len, f)
    }
    #[inline]
    fn composite(&self, types: [ConnType; 4]) -> Composite {
        kb::composite(types)
    }
}

/// Any game's types from its knowledge base ([`kb::game_tables`]): built in for the presets,
/// generated (and cached) for the others.
pub struct GameKb {
    tables: [&'static Tables; 2],
}

impl TypeSource for GameKb {
    const INCREMENTAL: &'static str = "cpbim";
    const REBUILT: &'static str = "cpbm";
    fn for_game(game: &Game) -> Self {
        GameKb {
            tables: kb::game_tables(game),
        }
    }
    #[inline]
    fn params(&self, c: usize) -> Params {
        self.tables[c].params
    }
    #[inline]
    fn classify(&self, c: usize, len: u32, f: u32) -> ConnType {
        let t = self.tables[c];
        t.conn_type(shape_index(t.params.k, len, f))
    }
    #[inline]
    fn composite(&self, types: [ConnType; 4]) -> Composite {
        self.tables[0].composite(types)
    }
}

/// Any game's types from the table-free classifier.
pub struct GameClassifier {
    params: [Params; 2],
}

impl TypeSource for GameClassifier {
    const INCREMENTAL: &'static str = "iu";
    const REBUILT: &'static str = "rebuilt-classifier";
    fn for_game(game: &Game) -> Self {
        GameClassifier {
            params: [Color::Black, Color::White].map(|c| kb::params_of(game, c)),
        }
    }
    #[inline]
    fn params(&self, c: usize) -> Params {
        self.params[c]
    }
    #[inline]
    fn classify(&self, c: usize, len: u32, f: u32) -> ConnType {
        cpbim_kb::classify_direct_for(self.params[c], len, f)
    }
    #[inline]
    fn composite(&self, types: [ConnType; 4]) -> Composite {
        cpbim_kb::composite_class_for(self.params[0].p, types)
    }
}

/// The compile-time shape a game's models take: k in a row, connection slots per colour and
/// line, line slots. Connect6 and the games of five on 15×15 have their own; every other game
/// takes the one of its k with room for the largest board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// k = 6, p = 2, k or more wins, sides up to 19: 2 slots, 92 lines.
    Connect6,
    /// k = 5, sides up to 16: 2 slots, 78 lines.
    Five,
    /// Other games with k = 4: 4 slots, 106 lines.
    K4,
    /// Other games with k = 5 (sides 17 to 20): 3 slots, 102 lines.
    K5,
    /// Other games with k = 6: 3 slots, 98 lines.
    K6,
    /// Games with k = 7: 2 slots, 94 lines.
    K7,
    /// Games with k = 8: 2 slots, 90 lines.
    K8,
}

/// The kind whose models serve `game`.
pub fn kind_of(game: &Game) -> Kind {
    let side = game.m().max(game.n());
    match game.k() {
        6 if game.p() == 2 && game.rule() == crate::Rule::Free && side <= 19 => Kind::Connect6,
        5 if side <= 16 => Kind::Five,
        4 => Kind::K4,
        5 => Kind::K5,
        6 => Kind::K6,
        7 => Kind::K7,
        _ => Kind::K8,
    }
}
