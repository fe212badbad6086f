//! The connection-based position (Definition 30) and the three models built on it: CPBIM
//! (knowledge base + delta stack), IU (classifier + delta stack) and CPBM (knowledge base,
//! rebuilt from the board after every change).
//!
//! A line of the board holds, per colour, at most γ(n,k) = ⌊(n+1)/(k+1)⌋ connections (Theorem
//! 4), each `(from, |c|, f(c))` — the paper's `Position[color][line][uc]` — together with what is
//! derived from it: its type, its threat count and the masks of empty points lying in windows
//! with enough of its stones to matter to the search (`Level`).
//!
//! The models are generic over k, γ and the number of line slots (compile-time constants, so
//! Connect6's windows of six and two slots per line compile to what they were when those numbers
//! were written in) and over where types come from ([`TypeSource`]); the board size, p and the
//! rule are the game's, at run time (`docs/design/games.md`).

use super::{cover_number, Level, Model, Threat, TypeCounts};
use crate::board::Board;
use crate::game::Game;
use crate::geom::{Color, Dir, Geometry, LineSlot, Point, PointSet, MAX_SIDE};
use crate::kb::{self, Composite, ConnType, Params, Tables};
use crate::model::Played;
use crate::zobrist;
use cpbim_kb::{bits, point_type as upgrade_type, shape_index};
use std::cell::{Cell, RefCell};

/// One potential connection of a line (Definition 29/30) and what is derived from it.
/// `len == 0` is the paper's φ: no connection.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Conn {
    /// Offset in the line of the connection's first point.
    pub from: u8,
    /// `|c|`, k..=n, or 0 for none.
    pub len: u8,
    /// Connection type code.
    pub ty: u8,
    /// `thn(c)` capped at 3 (3 for a win).
    pub thn: u8,
    /// `f(c)`: bit `i` = stone on the connection's point `i`.
    pub f: u32,
    /// Line-offset masks of the empty points of the windows of each [`Level`].
    pub masks: [u32; 3],
}

impl Conn {
    #[inline]
    fn contains(&self, offset: u32) -> bool {
        // An empty slot (len 0) contains nothing: no offset is below 0.
        offset.wrapping_sub(self.from as u32) < self.len as u32
    }
}

/// A line's stones and its connections, per colour (at most `G` each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LineState<const G: usize> {
    /// Stones by colour index, bit = offset.
    pub stones: [u32; 2],
    /// Connections by colour index, ordered by `from`, unused slots `len == 0`.
    pub conns: [[Conn; G]; 2],
}

impl<const G: usize> Default for LineState<G> {
    fn default() -> Self {
        LineState {
            stones: [0; 2],
            conns: [[Conn::default(); G]; 2],
        }
    }
}

/// A connection of a line as Definitions 2–5 describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connection {
    /// Its colour.
    pub color: Color,
    /// Offset of its first point in the line.
    pub from: u32,
    /// `|c|`.
    pub len: u32,
    /// `f(c)`.
    pub f: u32,
}

impl Connection {
    /// Shape number ‖c‖ in a game of `k` in a row.
    pub fn shape(&self, k: u32) -> u32 {
        shape_index(k, self.len, self.f)
    }
}

/// Maximal runs of at least `k` points without a stone of `opp`, as `(from, len)`.
#[inline]
fn runs(k: u32, line_len: u32, opp: u32) -> impl Iterator<Item = (u32, u32)> {
    let mut free = !opp & ((1u32 << line_len) - 1);
    std::iter::from_fn(move || loop {
        if free == 0 {
            return None;
        }
        let from = free.trailing_zeros();
        let len = (!(free >> from)).trailing_zeros();
        free &= !(((1u32 << len) - 1) << from);
        if len >= k {
            return Some((from, len));
        }
    })
}

/// Split a line of `len` points into its connections (Definitions 2–5) for `k` in a row:
/// black's first, each colour's in order. An empty line is a connection of both colours.
pub fn line_connections(k: usize, len: usize, black: u32, white: u32) -> Vec<Connection> {
    let mut out = Vec::new();
    for (color, own, opp) in [(Color::Black, black, white), (Color::White, white, black)] {
        for (from, l) in runs(k as u32, len as u32, opp) {
            out.push(Connection {
                color,
                from,
                len: l,
                f: (own >> from) & ((1u32 << l) - 1),
            });
        }
    }
    out
}

/// The stones a window needs for each [`Level`] in a game of `k` in a row and `p` per move:
/// `k − 2p` (the candidate set R), `k − p − 1`, `k − p` (live).
#[inline(always)]
pub fn level_stones(k: u32, p: u32) -> [u32; 3] {
    [k.saturating_sub(2 * p), k - p - 1, k - p]
}

/// Does the window of `k` points at offset `w` of a connection `len` long holding `f` have no
/// stone of the connection just outside it (so that filling it makes exactly k)?
#[inline(always)]
fn clean(k: u32, len: u32, f: u32, w: u32) -> bool {
    let left = w > 0 && f >> (w - 1) & 1 == 1;
    let right = w + k < len && f >> (w + k) & 1 == 1;
    !left && !right
}

/// Empty points (connection offsets) of the windows of each [`Level`]: windows with at least
/// `level_stones` stones; for the live level, windows that would win once filled (exactly k
/// under an exact rule).
#[inline(always)]
fn window_masks<const K: u32>(len: u32, f: u32, params: Params) -> [u32; 3] {
    let levels = level_stones(K, params.p);
    if K == 6 && levels == [2, 3, 4] && !params.exact {
        return window_masks_six(len, f);
    }
    let window = (1u32 << K) - 1;
    let empty = !f & ((1u32 << len) - 1);
    let mut m = [0u32; 3];
    for w in 0..=len - K {
        let n = ((f >> w) & window).count_ones();
        for (t, mask) in m.iter_mut().enumerate() {
            let live_ok = t < 2 || (n < K && (!params.exact || clean(K, len, f, w)));
            if n >= levels[t] && live_ok {
                *mask |= window << w;
            }
        }
    }
    m.map(|x| x & empty)
}

/// Connect6's masks (windows of six with ≥ 2, ≥ 3, ≥ 4 stones), bit-parallel: bit `w` of
/// `f >> j` is the stone at `w + j`, so adding the six shifted masks in carry-save fashion gives
/// every window's stone count at once, as three bit planes (`ones`, `twos`, `fours`); a window
/// mask is then dilated over its six points.
#[inline]
fn window_masks_six(len: u32, f: u32) -> [u32; 3] {
    let a = [f, f >> 1, f >> 2, f >> 3, f >> 4, f >> 5];
    // Full adders over (a0 a1 a2) and (a3 a4 a5).
    let (s1, c1) = (a[0] ^ a[1] ^ a[2], (a[0] & a[1]) | (a[2] & (a[0] ^ a[1])));
    let (s2, c2) = (a[3] ^ a[4] ^ a[5], (a[3] & a[4]) | (a[5] & (a[3] ^ a[4])));
    let ones = s1 ^ s2;
    let c3 = s1 & s2;
    let twos = c1 ^ c2 ^ c3;
    let fours = (c1 & c2) | (c3 & (c1 ^ c2));
    let starts = (1u32 << (len + 1 - 6)) - 1;
    let empty = !f & ((1u32 << len) - 1);
    let cover = |w: u32| {
        let w = w & starts;
        let d = w | (w << 1);
        let d = d | (d << 2);
        (d | (d << 2)) & empty
    };
    [
        cover(fours | twos),
        cover(fours | (twos & ones)),
        cover(fours),
    ]
}

/// The same masks window by window (the obviously-correct version, for tests): a live window
/// is one that, filled, lies in a run of exactly k (exact rule) or at least k stones.
#[cfg(test)]
fn window_masks_slow(k: u32, len: u32, f: u32, params: Params) -> [u32; 3] {
    let levels = level_stones(k, params.p);
    let window = (1u32 << k) - 1;
    let mut m = [0u32; 3];
    for w in 0..=len - k {
        let n = ((f >> w) & window).count_ones();
        let filled = f | window << w;
        let (mut a, mut b) = (w, w + k);
        while a > 0 && filled >> (a - 1) & 1 == 1 {
            a -= 1;
        }
        while b < len && filled >> b & 1 == 1 {
            b += 1;
        }
        let wins = if params.exact { b - a == k } else { b - a >= k };
        for (t, mask) in m.iter_mut().enumerate() {
            if n >= levels[t] && (t < 2 || (n < k && wins)) {
                *mask |= window << w;
            }
        }
    }
    m.map(|x| x & !f & ((1u32 << len) - 1))
}

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
fn thn_of(t: ConnType, params: Params, len: u32, f: u32) -> u8 {
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
    fn point_type(&self, _c: usize, len: u32, f: u32, _t: ConnType, i: u32) -> ConnType {
        let code = kb::point_type_row(shape_index(6, len, f))[i as usize];
        ConnType::from_code(code).unwrap_or(ConnType::O)
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
    #[inline]
    fn point_type(&self, c: usize, len: u32, f: u32, _t: ConnType, i: u32) -> ConnType {
        let t = self.tables[c];
        let code = t.point_type_row(shape_index(t.params.k, len, f))[i as usize];
        ConnType::from_code(code).unwrap_or(ConnType::O)
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

/// Refuse a game whose rows are not the `K` a model `name` is built for: such a model would
/// answer wrongly, not fail ([`kind_of`] names the right one).
fn check_rows<const K: u32>(name: &str, board: &Board) {
    assert_eq!(
        board.game().k() as u32,
        K,
        "{name} is built for rows of {K}, not {} (model::kind_of names the model)",
        board.game()
    );
}

#[inline(always)]
fn derive<S: TypeSource, const K: u32>(src: &S, c: usize, from: u32, len: u32, f: u32) -> Conn {
    let params = src.params(c);
    let levels = level_stones(K, params.p);
    if f & f.wrapping_sub(1) == 0 && levels[0] >= 2 && K > params.p + 3 {
        // At most one stone, in a game where that is type O (d = k − 1 > p + 2), no threat and
        // no window of any level. Every source agrees; skip the look-up and the arithmetic.
        return Conn {
            from: from as u8,
            len: len as u8,
            ty: ConnType::O as u8,
            thn: 0,
            f,
            masks: [0; 3],
        };
    }
    let t = src.classify(c, len, f);
    Conn {
        from: from as u8,
        len: len as u8,
        ty: t as u8,
        thn: thn_of(t, params, len, f),
        f,
        masks: window_masks::<K>(len, f, params).map(|m| m << from),
    }
}

fn build_line<S: TypeSource, const K: u32, const G: usize>(
    src: &S,
    len: u32,
    stones: [u32; 2],
) -> LineState<G> {
    let mut st = LineState {
        stones,
        ..LineState::default()
    };
    for c in 0..2 {
        for (slot, (from, l)) in runs(K, len, stones[1 - c]).enumerate() {
            st.conns[c][slot] =
                derive::<S, K>(src, c, from, l, (stones[c] >> from) & ((1u32 << l) - 1));
        }
    }
    st
}

/// Put a stone of colour index `c` at offset `i` of a line: the owner's connection through `i`
/// gains a stone, the opponent's connection through `i` splits into at most two.
#[inline(always)]
fn place<S: TypeSource, const K: u32, const G: usize>(
    src: &S,
    st: &mut LineState<G>,
    i: u32,
    c: usize,
) {
    st.stones[c] |= 1 << i;
    for cn in st.conns[c].iter_mut() {
        if cn.contains(i) {
            *cn = derive::<S, K>(
                src,
                c,
                cn.from as u32,
                cn.len as u32,
                cn.f | 1 << (i - cn.from as u32),
            );
            break;
        }
    }
    // The opponent's connection through `i` (if any) splits into what lies left and right of
    // it, written over the slots in place (a copy of the whole array built beside them cost
    // a stall on every stone), the connections after it moved up or down behind the parts.
    let o = 1 - c;
    let Some(j) = st.conns[o].iter().position(|cn| cn.contains(i)) else {
        return;
    };
    let old = st.conns[o];
    let cn = old[j];
    let (from, len, rel) = (cn.from as u32, cn.len as u32, i - cn.from as u32);
    let right = len - rel - 1;
    let conns = &mut st.conns[o];
    let mut n = j;
    if rel >= K {
        conns[n] = derive::<S, K>(src, o, from, rel, cn.f & ((1u32 << rel) - 1));
        n += 1;
    }
    if right >= K {
        conns[n] = derive::<S, K>(src, o, i + 1, right, cn.f >> (rel + 1));
        n += 1;
    }
    for next in old[j + 1..].iter().take_while(|cn| cn.len > 0) {
        conns[n] = *next;
        n += 1;
    }
    conns[n..].fill(Conn::default());
}

/// The connection-based position: every line's state and, per colour, the set of lines holding
/// a connection with a threat. `L` line slots; the game's geometry says how many are used.
#[derive(Clone)]
struct ConnState<const K: u32, const G: usize, const L: usize> {
    geo: &'static Geometry,
    lines: [LineState<G>; L],
    threat_lines: [u128; 2],
}

impl<const K: u32, const G: usize, const L: usize> ConnState<K, G, L> {
    fn build<S: TypeSource>(src: &S, board: &Board) -> Self {
        let geo = board.game().geometry();
        assert!(
            geo.lines.len() <= L && geo.lines.len() <= 128,
            "{} has more lines than this kind holds",
            board.game()
        );
        let mut s = ConnState {
            geo,
            lines: [LineState::default(); L],
            threat_lines: [0; 2],
        };
        // Each line's stones, from one pass over the board's points.
        for p in board.game().points() {
            if let Some(c) = board.get(p) {
                for slot in geo.slots[p.index()].iter().flatten() {
                    s.lines[slot.line as usize].stones[c.index()] |= 1 << slot.offset;
                }
            }
        }
        // An empty line's state depends on its length only: derived once per length.
        let mut empty: [Option<LineState<G>>; MAX_SIDE + 1] = [None; MAX_SIDE + 1];
        for l in 0..geo.lines.len() {
            let len = geo.lines[l].len as u32;
            let stones = s.lines[l].stones;
            s.lines[l] = if stones == [0, 0] {
                *empty[len as usize].get_or_insert_with(|| build_line::<S, K, G>(src, len, stones))
            } else {
                build_line::<S, K, G>(src, len, stones)
            };
            s.mark_threats(l);
        }
        s
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        let mut n = [0u16; 12];
        for line in &self.lines[..self.geo.lines.len()] {
            for cn in line.conns[c.index()].iter().filter(|cn| cn.f != 0) {
                n[cn.ty as usize] += 1;
            }
        }
        n
    }

    #[inline]
    fn mark_threats(&mut self, l: usize) {
        for c in 0..2 {
            let conns = &self.lines[l].conns[c];
            let any = if G == 2 {
                conns[0].thn + conns[G - 1].thn > 0
            } else {
                conns.iter().any(|cn| cn.thn > 0)
            };
            if any {
                self.threat_lines[c] |= 1u128 << l;
            } else {
                self.threat_lines[c] &= !(1u128 << l);
            }
        }
    }

    #[inline]
    fn threat_conns(&self, c: Color) -> impl Iterator<Item = (usize, &Conn)> + '_ {
        let mut set = self.threat_lines[c.index()];
        std::iter::from_fn(move || {
            if set == 0 {
                return None;
            }
            let l = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(l)
        })
        .flat_map(move |l| {
            self.lines[l].conns[c.index()]
                .iter()
                .filter(|cn| cn.thn > 0)
                .map(move |cn| (l, cn))
        })
    }

    /// Live windows of the connection `cn` of line `l`, pushed onto `out`: windows of k points
    /// with at least k − p stones that would win once filled (a winning row is one too, with no
    /// empty point).
    #[inline]
    fn push_windows(&self, params: Params, l: usize, cn: &Conn, out: &mut impl Extend<Threat>) {
        let line = &self.geo.lines[l];
        let window = (1u32 << K) - 1;
        let need = K - params.p;
        let len = cn.len as u32;
        for w in 0..=len - K {
            let seg = (cn.f >> w) & window;
            let n = seg.count_ones();
            if n >= need && (!params.exact || clean(K, len, cn.f, w)) {
                let mut pts = [Point::CENTER; 2];
                let mut k = 0;
                for b in bits(!seg & window) {
                    pts[k] = line.points[(cn.from as u32 + w + b) as usize];
                    k += 1;
                }
                out.extend(std::iter::once(Threat::new(&pts[..k])));
            }
        }
    }

    fn live_windows<S: TypeSource>(&self, src: &S, c: Color, out: &mut Vec<Threat>) {
        out.clear();
        let params = src.params(c.index());
        for (l, cn) in self.threat_conns(c) {
            self.push_windows(params, l, cn, out);
        }
        out.sort_unstable();
        out.dedup();
    }

    /// `c`'s connection through the point of `slot`, with the point's offset in the line.
    #[inline]
    fn conn_at(&self, slot: LineSlot, c: Color) -> Option<(u32, &Conn)> {
        let i = slot.offset as u32;
        self.lines[slot.line as usize].conns[c.index()]
            .iter()
            .find(|cn| cn.contains(i))
            .map(|cn| (i, cn))
    }

    fn thn<S: TypeSource>(&self, src: &S, c: Color) -> u8 {
        self.cover(src.params(c.index()), || self.threat_conns(c))
    }

    /// `thn(c)` once `c` plays the empty point `p`, read without playing it. The stone joins
    /// `c`'s connection through `p` in each direction (at most one a line) and changes no other
    /// connection of `c`: the threat connections are today's with those (at most four)
    /// replaced by their successors.
    fn thn_if_played<S: TypeSource>(&self, src: &S, p: Point, c: Color) -> u8 {
        let (ci, params) = (c.index(), src.params(c.index()));
        let mut grown = [(0usize, Conn::default()); 4];
        let mut n = 0;
        for dir in Dir::ALL {
            let Some(slot) = self.geo.slot(p, dir) else {
                continue;
            };
            if let Some((i, cn)) = self.conn_at(slot, c) {
                let (len, f) = (cn.len as u32, cn.f | 1 << (i - cn.from as u32));
                let ty = src.classify(ci, len, f);
                // No masks: the windows are read from the stones.
                let thn = thn_of(ty, params, len, f);
                grown[n] = (
                    slot.line as usize,
                    Conn {
                        ty: ty as u8,
                        thn,
                        f,
                        masks: [0; 3],
                        ..*cn
                    },
                );
                n += 1;
            }
        }
        let grown = &grown[..n];
        self.cover(params, || {
            self.threat_conns(c)
                .filter(|&(l, cn)| !grown.iter().any(|(g, x)| *g == l && x.from == cn.from))
                .chain(
                    grown
                        .iter()
                        .filter(|(_, x)| x.thn > 0)
                        .map(|(l, x)| (*l, x)),
                )
        })
    }

    /// [`Model::threats_if_played`], read in place; with `also`, [`Model::threats_if_played_with`].
    fn threats_if_played<S: TypeSource>(
        &self,
        src: &S,
        p: Point,
        also: Option<Point>,
        c: Color,
        dir: Dir,
    ) -> u8 {
        let Some(slot) = self.geo.slot(p, dir) else {
            return 0;
        };
        let Some((i, cn)) = self.conn_at(slot, c) else {
            return 0;
        };
        let mut f = cn.f | 1 << (i - cn.from as u32);
        let with = also.and_then(|q| self.geo.slot(q, dir));
        if let Some(s) = with.filter(|s| s.line == slot.line && cn.contains(s.offset as u32)) {
            f |= 1 << (s.offset as u32 - cn.from as u32);
        }
        let len = cn.len as u32;
        thn_of(
            src.classify(c.index(), len, f),
            src.params(c.index()),
            len,
            f,
        )
    }

    /// [`Model::candidates_if_played`]: `now` but `p`, and the windows of `level` of the
    /// connections through `p` grown by it.
    fn candidates_if_played<S: TypeSource>(
        &self,
        src: &S,
        p: Point,
        c: Color,
        level: Level,
        now: PointSet,
    ) -> PointSet {
        let mut set = now;
        set.remove(p);
        let params = src.params(c.index());
        for &slot in self.geo.slots[p.index()].iter().flatten() {
            if let Some((i, cn)) = self.conn_at(slot, c) {
                let (from, len) = (cn.from as u32, cn.len as u32);
                let m = window_masks::<K>(len, cn.f | 1 << (i - from), params)[level as usize];
                let line = &self.geo.lines[slot.line as usize];
                for b in bits(m) {
                    set.insert(line.points[(from + b) as usize]);
                }
            }
        }
        set
    }

    /// The cover number of the live windows of `conns` (each a line and a connection holding
    /// threats), capped at 3.
    #[inline]
    fn cover<'a, I>(&'a self, params: Params, conns: impl Fn() -> I) -> u8
    where
        I: Iterator<Item = (usize, &'a Conn)>,
    {
        let mut sum = 0u8;
        let mut lines = 0u128;
        for (l, cn) in conns() {
            if cn.thn >= 3 {
                return 3;
            }
            sum += cn.thn;
            lines |= 1u128 << l;
        }
        if sum <= 1 || lines.count_ones() == 1 {
            // Windows of different connections of one line are disjoint.
            return sum.min(3);
        }
        let mut buf = ThreatBuf::default();
        for (l, cn) in conns() {
            self.push_windows(params, l, cn, &mut buf);
        }
        match &buf.spill {
            Some(v) => cover_number(v),
            None => cover_number(&buf.items[..buf.len]),
        }
    }

    fn blockers(&self, c: Color) -> PointSet {
        let mut set = PointSet::EMPTY;
        for (l, _) in self.threat_conns(c) {
            let m = self.lines[l].conns[c.index()]
                .iter()
                .fold(0, |m, cn| m | cn.masks[Level::Live as usize]);
            let line = &self.geo.lines[l];
            for b in bits(m) {
                set.insert(line.points[b as usize]);
            }
        }
        set
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        let mut set = PointSet::EMPTY;
        for (l, st) in self.lines[..self.geo.lines.len()].iter().enumerate() {
            let m = st.conns[c.index()]
                .iter()
                .fold(0, |m, cn| m | cn.masks[level as usize]);
            if m != 0 {
                let line = &self.geo.lines[l];
                for b in bits(m) {
                    set.insert(line.points[b as usize]);
                }
            }
        }
        set
    }

    fn has_win(&self, c: Color) -> bool {
        self.threat_conns(c)
            .any(|(_, cn)| cn.ty == ConnType::WIN as u8)
    }

    fn point_type<S: TypeSource>(
        &self,
        src: &S,
        board: &Board,
        p: Point,
        c: Color,
        dir: Dir,
    ) -> ConnType {
        if !board.is_empty(p) {
            return ConnType::O;
        }
        let Some(slot) = self.geo.slot(p, dir) else {
            return ConnType::O;
        };
        let Some((i, cn)) = self.conn_at(slot, c) else {
            return ConnType::O;
        };
        let t = ConnType::ALL[cn.ty as usize];
        src.point_type(c.index(), cn.len as u32, cn.f, t, i - cn.from as u32)
    }
}

/// A small buffer of threats on the stack, spilling to the heap if a position has very many.
struct ThreatBuf {
    items: [Threat; 64],
    len: usize,
    spill: Option<Vec<Threat>>,
}

impl Default for ThreatBuf {
    fn default() -> Self {
        ThreatBuf {
            items: [Threat::new(&[]); 64],
            len: 0,
            spill: None,
        }
    }
}

impl Extend<Threat> for ThreatBuf {
    fn extend<I: IntoIterator<Item = Threat>>(&mut self, iter: I) {
        for t in iter {
            if let Some(v) = &mut self.spill {
                v.push(t);
            } else if self.len < self.items.len() {
                self.items[self.len] = t;
                self.len += 1;
            } else {
                let mut v = self.items.to_vec();
                v.push(t);
                self.spill = Some(v);
            }
        }
    }
}

/// What one make changed: `Deta[ply]` of the paper.
#[derive(Clone)]
struct Frame<const G: usize> {
    point: Point,
    zobrist: u64,
    threat_lines: [u128; 2],
    n: u8,
    saved: [(u8, LineState<G>); 4],
}

/// The connection-based position with incremental updating: a stone rewrites only the lines
/// through it (≤ 12 connections), after saving their old values on the delta stack; unmake
/// copies them back.
pub struct Incremental<S: TypeSource, const K: u32, const G: usize, const L: usize> {
    board: Board,
    state: ConnState<K, G, L>,
    src: S,
    zobrist: u64,
    /// `Deta[ply]`: frames `0..ply` are live; later ones are kept allocated for reuse.
    deta: Vec<Frame<G>>,
    ply: usize,
}

/// The paper's CPBIM for Connect6.
pub type Cpbim = Incremental<KnowledgeBase, 6, 2, 92>;

/// The paper's IU for Connect6: incremental updating via the delta stack, types from the
/// classifier at update time (connection types) and at query time (point types) — no knowledge
/// base.
pub type Iu = Incremental<Classifier, 6, 2, 92>;

/// CPBIM for the games of five on boards up to 16×16 (Gomoku, standard Gomoku, Renju).
pub type Cpbim5 = Incremental<GameKb, 5, 2, 78>;
/// CPBIM for the other games with k = 4 (boards up to 20×20).
pub type CpbimK4 = Incremental<GameKb, 4, 4, 106>;
/// CPBIM for the other games with k = 5 (boards 17×17 to 20×20).
pub type CpbimK5 = Incremental<GameKb, 5, 3, 102>;
/// CPBIM for the other games with k = 6.
pub type CpbimK6 = Incremental<GameKb, 6, 3, 98>;
/// CPBIM for the games with k = 7.
pub type CpbimK7 = Incremental<GameKb, 7, 2, 94>;
/// CPBIM for the games with k = 8.
pub type CpbimK8 = Incremental<GameKb, 8, 2, 90>;
/// IU for the games of five on boards up to 16×16.
pub type Iu5 = Incremental<GameClassifier, 5, 2, 78>;

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Incremental<S, K, G, L> {
    /// The connections of line `l` (Definition 30's `Position[·][l][·]`).
    pub fn line(&self, l: usize) -> &LineState<G> {
        &self.state.lines[l]
    }

    /// Number of stones on the delta stack (the current ply).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Bytes of the position's state (board, lines, threat sets, key), delta stack excluded.
    pub const STATE_BYTES: usize = std::mem::size_of::<Board>()
        + std::mem::size_of::<[LineState<G>; L]>()
        + std::mem::size_of::<[u128; 2]>()
        + std::mem::size_of::<u64>();

    /// Bytes one entry `Deta[ply]` of the delta stack takes.
    pub const FRAME_BYTES: usize = std::mem::size_of::<Frame<G>>();
}

// The position's state (shared tables excluded) fits in 64 KB: checked at compile time.
const _: () = assert!(Cpbim::STATE_BYTES <= 64 * 1024);
const _: () = assert!(CpbimK4::STATE_BYTES <= 64 * 1024);

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Model
    for Incremental<S, K, G, L>
{
    const NAME: &'static str = S::INCREMENTAL;

    fn from_board(board: &Board) -> Self {
        check_rows::<K>(Self::NAME, board);
        let src = S::for_game(board.game());
        Incremental {
            board: board.clone(),
            state: ConnState::build(&src, board),
            src,
            zobrist: zobrist::board_key(board),
            // Room for 64 stones: most searches go no deeper, and a full board's frames
            // (166 KB in Connect6) were a fresh mapping of memory for every search.
            deta: Vec::with_capacity(64),
            ply: 0,
        }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn make(&mut self, p: Point, c: Color) {
        debug_assert!(self.board.is_empty(p), "make on occupied {p}");
        if self.ply == self.deta.len() {
            self.deta.push(Frame {
                point: p,
                zobrist: 0,
                threat_lines: [0; 2],
                n: 0,
                saved: [(0, LineState::default()); 4],
            });
        }
        let frame = &mut self.deta[self.ply];
        self.ply += 1;
        frame.point = p;
        frame.zobrist = self.zobrist;
        frame.threat_lines = self.state.threat_lines;
        frame.n = 0;
        let slots = self.state.geo.slots[p.index()];
        for slot in slots.iter().flatten() {
            let l = slot.line as usize;
            frame.saved[frame.n as usize] = (slot.line, self.state.lines[l]);
            frame.n += 1;
            place::<S, K, G>(
                &self.src,
                &mut self.state.lines[l],
                slot.offset as u32,
                c.index(),
            );
            self.state.mark_threats(l);
        }
        #[cfg(debug_assertions)]
        check_effect_bounds(frame, &self.state);
        self.board.set(p, Some(c));
        self.zobrist ^= zobrist::key(c, p);
    }

    fn unmake(&mut self) {
        assert!(self.ply > 0, "unmake without make");
        self.ply -= 1;
        let frame = &self.deta[self.ply];
        for &(l, ref st) in frame.saved[..frame.n as usize].iter().rev() {
            self.state.lines[l as usize] = *st;
        }
        self.state.threat_lines = frame.threat_lines;
        self.zobrist = frame.zobrist;
        self.board.set(frame.point, None);
    }

    fn zobrist(&self) -> u64 {
        self.zobrist
    }

    fn has_win(&self, c: Color) -> bool {
        self.state.has_win(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state.live_windows(&self.src, c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state.thn(&self.src, c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state.blockers(c)
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        self.state.candidates(c, level)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.board.is_empty(p));
        self.state.threats_if_played(&self.src, p, None, c, dir)
    }

    fn thn_if_played(&mut self, p: Point, c: Color) -> u8 {
        debug_assert!(self.board.is_empty(p));
        self.state.thn_if_played(&self.src, p, c)
    }

    fn threats_if_played_with(&mut self, p: Point, also: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.board.is_empty(p) && self.board.is_empty(also) && p != also);
        self.state
            .threats_if_played(&self.src, p, Some(also), c, dir)
    }

    fn candidates_if_played(
        &mut self,
        p: Point,
        c: Color,
        level: Level,
        now: PointSet,
    ) -> PointSet {
        debug_assert!(level != Level::Live && self.board.is_empty(p));
        self.state.candidates_if_played(&self.src, p, c, level, now)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state.point_type(&self.src, &self.board, p, c, dir)
    }

    fn composite(&self, p: Point, c: Color) -> Composite {
        self.src
            .composite(Dir::ALL.map(|d| self.point_type(p, c, d)))
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        self.state.type_counts(c)
    }
}

/// What one stone changed (paper §7.2): Definition 30 slots whose value changed, and the points
/// covered by those connections before or after. The paper bounds them by 12 and 4n − 3 (73 on
/// 19×19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Connections (slots `Position[color][line][uc]`) whose value changed.
    pub connections: usize,
    /// Points of the changed connections, old or new.
    pub points: usize,
}

fn effect<const K: u32, const G: usize, const L: usize>(
    frame: &Frame<G>,
    state: &ConnState<K, G, L>,
) -> Effect {
    let mut connections = 0;
    let mut points = PointSet::EMPTY;
    for &(l, ref old) in &frame.saved[..frame.n as usize] {
        let new = &state.lines[l as usize];
        let line = &state.geo.lines[l as usize];
        for c in 0..2 {
            for k in 0..G {
                let (a, b) = (&old.conns[c][k], &new.conns[c][k]);
                if a != b {
                    connections += 1;
                    for cn in [a, b] {
                        for i in cn.from..cn.from + cn.len {
                            points.insert(line.points[i as usize]);
                        }
                    }
                }
            }
        }
    }
    Effect {
        connections,
        points: points.len(),
    }
}

/// Debug check of the paper's effect bounds after every make.
#[cfg(debug_assertions)]
fn check_effect_bounds<const K: u32, const G: usize, const L: usize>(
    frame: &Frame<G>,
    state: &ConnState<K, G, L>,
) {
    let e = effect(frame, state);
    assert!(
        e.connections <= 4 * (G + 1),
        "a stone changed {} connections",
        e.connections
    );
    let side = state
        .geo
        .lines
        .iter()
        .map(|l| l.len as usize)
        .max()
        .unwrap_or(0);
    let most = 4 * side - 3;
    assert!(e.points <= most, "a stone touched {} points", e.points);
}

/// The connection-based position without incremental updating: make and unmake change only the
/// board; the whole connection-based position (every line, both colours) is rebuilt from the
/// board before the first query after a change. No delta stack.
pub struct Rebuilt<S: TypeSource, const K: u32, const G: usize, const L: usize> {
    played: Played,
    src: S,
    state: RefCell<ConnState<K, G, L>>,
    /// The board changed since `state` was built.
    stale: Cell<bool>,
}

/// The paper's CPBM for Connect6: the connection-based position with knowledge-base look-ups,
/// rebuilt without the delta stack.
pub type Cpbm = Rebuilt<KnowledgeBase, 6, 2, 92>;
/// CPBM for the games of five on boards up to 16×16.
pub type Cpbm5 = Rebuilt<GameKb, 5, 2, 78>;

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Rebuilt<S, K, G, L> {
    fn state(&self) -> std::cell::Ref<'_, ConnState<K, G, L>> {
        if self.stale.get() {
            *self.state.borrow_mut() = ConnState::build(&self.src, &self.played.board);
            self.stale.set(false);
        }
        self.state.borrow()
    }
}

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Model for Rebuilt<S, K, G, L> {
    const NAME: &'static str = S::REBUILT;

    fn from_board(board: &Board) -> Self {
        check_rows::<K>(Self::NAME, board);
        let src = S::for_game(board.game());
        Rebuilt {
            played: Played::new(board),
            state: RefCell::new(ConnState::build(&src, board)),
            src,
            stale: Cell::new(false),
        }
    }

    fn board(&self) -> &Board {
        &self.played.board
    }

    fn make(&mut self, p: Point, c: Color) {
        self.played.make(p, c);
        self.stale.set(true);
    }

    fn unmake(&mut self) {
        self.played.unmake();
        self.stale.set(true);
    }

    fn zobrist(&self) -> u64 {
        self.played.zobrist
    }

    fn has_win(&self, c: Color) -> bool {
        self.state().has_win(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state().live_windows(&self.src, c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state().thn(&self.src, c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state().blockers(c)
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        self.state().candidates(c, level)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.played.board.is_empty(p));
        self.state().threats_if_played(&self.src, p, None, c, dir)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state()
            .point_type(&self.src, &self.played.board, p, c, dir)
    }

    fn composite(&self, p: Point, c: Color) -> Composite {
        self.src
            .composite(Dir::ALL.map(|d| self.point_type(p, c, d)))
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        self.state().type_counts(c)
    }
}

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Incremental<S, K, G, L> {
    /// What the last make changed (`None` at ply 0).
    pub fn last_effect(&self) -> Option<Effect> {
        self.ply
            .checked_sub(1)
            .map(|top| effect(&self.deta[top], &self.state))
    }

    /// Does the incremental state equal a fresh build from the board (tests)?
    pub fn matches_rebuild(&self) -> bool {
        let fresh = ConnState::<K, G, L>::build(&self.src, &self.board);
        fresh.lines == self.state.lines
            && fresh.threat_lines == self.state.threat_lines
            && self.zobrist == zobrist::board_key(&self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_parallel_window_masks_equal_the_window_loop_on_every_shape() {
        for len in 6..=19 {
            for f in 0..1u32 << len {
                assert_eq!(
                    window_masks::<6>(len, f, Params::CONNECT6),
                    window_masks_slow(6, len, f, Params::CONNECT6),
                    "len {len} f {f:#b}"
                );
                assert_eq!(
                    window_masks_six(len, f),
                    window_masks_slow(6, len, f, Params::CONNECT6)
                );
            }
        }
    }

    #[test]
    fn window_masks_of_other_games() {
        for params in [Params::FIVE_OR_MORE, Params::EXACTLY_FIVE] {
            for len in 5..=15 {
                for f in (0..1u32 << len).step_by(7) {
                    assert_eq!(
                        window_masks::<5>(len, f, params),
                        window_masks_slow(5, len, f, params),
                        "{params:?} len {len} f {f:#b}"
                    );
                }
            }
        }
    }
}
