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
    /// Type of empty point `i` of that connection, which has type `t`.
    fn point_type(&self, c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType;
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
    /// Read from `ct.bin` as [`GameKb::point_type`] reads its type table: the byte `ti.bin`
    /// holds for this point is built from the same entry ([`cpbim_kb::point_types_for`]), and
    /// `ti.bin` is 19 times larger (20 MB): on real positions the search took 0.92–0.94 of the
    /// time (docs/knowledge-base.md).
    #[inline]
    fn point_type(&self, _c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            return ConnType::O;
        }
        upgrade_type(t, kb::conn_type(shape_index(6, len, f | 1 << i)))
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
    fn point_type(&self, _c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            ConnType::O
        } else {
            upgrade_type(t, cpbim_kb::classify_direct(len, f | 1 << i))
        }
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
    /// From the connection-type table alone, as the empty-point table is built from it
    /// ([`cpbim_kb::point_types_for`]): the type the connection would take with a stone on
    /// point `i`, when it is better than `t`. The 64 KB type table stays in the cache where the
    /// 15-byte rows of the point-type table (960 KB a colour) did not, and a fresh process
    /// takes a page fault on every 64 KB of a table it touches.
    #[inline]
    fn point_type(&self, c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            return ConnType::O;
        }
        let tables = self.tables[c];
        upgrade_type(
            t,
            tables.conn_type(shape_index(tables.params.k, len, f | 1 << i)),
        )
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
    fn point_type(&self, c: usize, len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            ConnType::O
        } else {
            upgrade_type(
                t,
                cpbim_kb::classify_direct_for(self.params[c], len, f | 1 << i),
            )
        }
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
