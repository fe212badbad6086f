//! The connection-based position (Definition 30) and the three models built on it: CPBIM
//! (knowledge base + delta stack), IU (classifier + delta stack) and CPBM (knowledge base,
//! rebuilt from the board after every change).
//!
//! A line of the board holds, per colour, at most γ(19,6) = 2 connections (Theorem 4), each
//! `(from, |c|, f(c))` — the paper's `Position[color][line][uc]` — together with what is derived
//! from it: its type, its threat count and the masks of empty points lying in windows with at
//! least 2, 3 and 4 of its stones.

use super::{cover_number, Model, Threat};
use crate::board::Board;
use crate::game::CONNECT6_GEOMETRY as GEOMETRY;
use crate::geom::{Color, Dir, Point, PointSet, MAX_POINTS};
use crate::kb::{self, ConnType};
use crate::model::Played;
use crate::zobrist;
use cpbim_kb::{bits, classify_direct, point_type as upgrade_type, shape_index, window_stats};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

/// Stones in a row that win: the models are Connect6's so far (`docs/design/games.md`).
pub const K: usize = 6;
/// Lines of the 19×19 board at least six long: χ(19,6) = 6n − 4k + 2 (paper §6.1).
pub const LINES: usize = 92;
/// Potential connections of one colour in a line: γ(19,6) = ⌊(n+1)/(k+1)⌋ (Theorem 4).
pub const GAMMA: usize = 2;

/// One potential connection of a line (Definition 29/30) and what is derived from it.
/// `len == 0` is the paper's φ: no connection.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Conn {
    /// Offset in the line of the connection's first point.
    pub from: u8,
    /// `|c|`, 6..=19, or 0 for none.
    pub len: u8,
    /// Connection type code.
    pub ty: u8,
    /// `thn(c)` capped at 3 (3 for a six).
    pub thn: u8,
    /// `f(c)`: bit `i` = stone on the connection's point `i`.
    pub f: u32,
    /// Line-offset masks of the empty points in windows with ≥ 2, ≥ 3, ≥ 4 stones.
    pub masks: [u32; 3],
}

impl Conn {
    #[inline]
    fn contains(&self, offset: u32) -> bool {
        self.len > 0 && offset.wrapping_sub(self.from as u32) < self.len as u32
    }
}

/// A line's stones and its connections, per colour.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct LineState {
    /// Stones by colour index, bit = offset.
    pub stones: [u32; 2],
    /// Connections by colour index, ordered by `from`, unused slots `len == 0`.
    pub conns: [[Conn; GAMMA]; 2],
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
    /// Shape number ‖c‖.
    pub fn shape(&self) -> u32 {
        shape_index(K as u32, self.len, self.f)
    }
}

/// Maximal runs of at least six points without a stone of `opp`, as `(from, len)`.
#[inline]
fn runs(line_len: u32, opp: u32) -> impl Iterator<Item = (u32, u32)> {
    let mut free = !opp & ((1u32 << line_len) - 1);
    std::iter::from_fn(move || loop {
        if free == 0 {
            return None;
        }
        let from = free.trailing_zeros();
        let len = (!(free >> from)).trailing_zeros();
        free &= !(((1u32 << len) - 1) << from);
        if len >= K as u32 {
            return Some((from, len));
        }
    })
}

/// Split a line of `len` points into its connections (Definitions 2–5): black's first, each
/// colour's in order. An empty line is a connection of both colours.
pub fn line_connections(len: usize, black: u32, white: u32) -> Vec<Connection> {
    let mut out = Vec::new();
    for (color, own, opp) in [(Color::Black, black, white), (Color::White, white, black)] {
        for (from, l) in runs(len as u32, opp) {
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

/// Empty points (connection offsets) of the windows of six with at least 2, 3 and 4 stones.
///
/// Bit-parallel: bit `w` of `f >> j` is the stone at `w + j`, so adding the six shifted masks in
/// carry-save fashion gives every window's stone count at once, as three bit planes
/// (`ones`, `twos`, `fours`); a window mask is then dilated over its six points.
#[inline]
fn window_masks(len: u32, f: u32) -> [u32; 3] {
    let a = [f, f >> 1, f >> 2, f >> 3, f >> 4, f >> 5];
    // Full adders over (a0 a1 a2) and (a3 a4 a5).
    let (s1, c1) = (a[0] ^ a[1] ^ a[2], (a[0] & a[1]) | (a[2] & (a[0] ^ a[1])));
    let (s2, c2) = (a[3] ^ a[4] ^ a[5], (a[3] & a[4]) | (a[5] & (a[3] ^ a[4])));
    let ones = s1 ^ s2;
    let c3 = s1 & s2;
    let twos = c1 ^ c2 ^ c3;
    let fours = (c1 & c2) | (c3 & (c1 ^ c2));
    let starts = (1u32 << (len + 1 - K as u32)) - 1;
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

/// The same masks window by window (the obviously-correct version, for tests).
#[cfg(test)]
fn window_masks_slow(len: u32, f: u32) -> [u32; 3] {
    let mut m = [0u32; 3];
    for w in 0..=len - K as u32 {
        let n = ((f >> w) & 63).count_ones();
        for (t, mask) in m.iter_mut().enumerate() {
            if n >= t as u32 + 2 {
                *mask |= 63 << w;
            }
        }
    }
    m.map(|x| x & !f & ((1u32 << len) - 1))
}

/// Threats a connection of type `t` carries (its `thn`, capped at 3; 3 for a six).
#[inline]
fn threats_of(t: ConnType) -> u8 {
    use ConnType::*;
    match t {
        WIN | DW => 3,
        L5 | L4 => 2,
        D5 | S4 | D4 => 1,
        _ => 0,
    }
}

/// Where connection and point types come from.
pub trait TypeSource {
    /// Name of the incremental model over this source.
    const INCREMENTAL: &'static str;
    /// Name of the rebuilt model over this source.
    const REBUILT: &'static str;
    /// Type and threat count of the connection `len` long holding `f`.
    fn classify(len: u32, f: u32) -> (ConnType, u8);
    /// Type of empty point `i` of that connection, which has type `t`.
    fn point_type(len: u32, f: u32, t: ConnType, i: u32) -> ConnType;
}

/// Types from the build-time knowledge base (`ct.bin`, `ti.bin`).
pub struct KnowledgeBase;

impl TypeSource for KnowledgeBase {
    const INCREMENTAL: &'static str = "cpbim";
    const REBUILT: &'static str = "cpbm";
    #[inline]
    fn classify(len: u32, f: u32) -> (ConnType, u8) {
        let t = kb::conn_type(shape_index(K as u32, len, f));
        (t, threats_of(t))
    }
    #[inline]
    fn point_type(len: u32, f: u32, _t: ConnType, i: u32) -> ConnType {
        let code = kb::point_type_row(shape_index(K as u32, len, f))[i as usize];
        ConnType::from_code(code).unwrap_or(ConnType::O)
    }
}

/// Types computed on the spot by the table-free classifier (no knowledge base).
pub struct Classifier;

impl TypeSource for Classifier {
    const INCREMENTAL: &'static str = "iu";
    const REBUILT: &'static str = "rebuilt-classifier";
    #[inline]
    fn classify(len: u32, f: u32) -> (ConnType, u8) {
        let s = window_stats(len, f);
        let t = classify_direct(len, f);
        (t, if s.six { 3 } else { s.threats as u8 })
    }
    #[inline]
    fn point_type(len: u32, f: u32, t: ConnType, i: u32) -> ConnType {
        if t == ConnType::WIN {
            ConnType::O
        } else {
            upgrade_type(t, classify_direct(len, f | 1 << i))
        }
    }
}

#[inline(always)]
fn derive<S: TypeSource>(from: u32, len: u32, f: u32) -> Conn {
    if f & f.wrapping_sub(1) == 0 {
        // At most one stone: l(c) ≤ 1, so the type is O (Definition 13), no threat, and no
        // window holds two stones. Every source agrees; skip the look-up and the arithmetic.
        return Conn {
            from: from as u8,
            len: len as u8,
            ty: ConnType::O as u8,
            thn: 0,
            f,
            masks: [0; 3],
        };
    }
    let (t, thn) = S::classify(len, f);
    Conn {
        from: from as u8,
        len: len as u8,
        ty: t as u8,
        thn,
        f,
        masks: window_masks(len, f).map(|m| m << from),
    }
}

fn build_line<S: TypeSource>(len: u32, stones: [u32; 2]) -> LineState {
    let mut st = LineState {
        stones,
        ..LineState::default()
    };
    for c in 0..2 {
        for (k, (from, l)) in runs(len, stones[1 - c]).enumerate() {
            st.conns[c][k] = derive::<S>(from, l, (stones[c] >> from) & ((1u32 << l) - 1));
        }
    }
    st
}

/// Put a stone of colour index `c` at offset `i` of a line: the owner's connection through `i`
/// gains a stone, the opponent's connection through `i` splits into at most two.
#[inline(always)]
fn place<S: TypeSource>(st: &mut LineState, i: u32, c: usize) {
    st.stones[c] |= 1 << i;
    for cn in st.conns[c].iter_mut() {
        if cn.contains(i) {
            *cn = derive::<S>(
                cn.from as u32,
                cn.len as u32,
                cn.f | 1 << (i - cn.from as u32),
            );
            break;
        }
    }
    let o = 1 - c;
    let old = st.conns[o];
    if old.iter().any(|cn| cn.contains(i)) {
        let mut new = [Conn::default(); GAMMA];
        let mut n = 0;
        for cn in old.iter().filter(|cn| cn.len > 0) {
            if !cn.contains(i) {
                new[n] = *cn;
                n += 1;
                continue;
            }
            let (from, len, rel) = (cn.from as u32, cn.len as u32, i - cn.from as u32);
            if rel >= K as u32 {
                new[n] = derive::<S>(from, rel, cn.f & ((1u32 << rel) - 1));
                n += 1;
            }
            let right = len - rel - 1;
            if right >= K as u32 {
                new[n] = derive::<S>(i + 1, right, cn.f >> (rel + 1));
                n += 1;
            }
        }
        st.conns[o] = new;
    }
}

/// The connection-based position: every line's state and, per colour, the set of lines holding
/// a connection with a threat.
#[derive(Clone)]
struct ConnState {
    lines: [LineState; LINES],
    threat_lines: [u128; 2],
}

impl ConnState {
    fn build<S: TypeSource>(board: &Board) -> ConnState {
        let mut s = ConnState {
            lines: [LineState::default(); LINES],
            threat_lines: [0; 2],
        };
        for l in 0..LINES {
            let line = &GEOMETRY.lines[l];
            let mut stones = [0u32; 2];
            for (i, &p) in line.points[..line.len as usize].iter().enumerate() {
                if let Some(c) = board.get(p) {
                    stones[c.index()] |= 1 << i;
                }
            }
            s.lines[l] = build_line::<S>(line.len as u32, stones);
            s.mark_threats(l);
        }
        s
    }

    #[inline]
    fn mark_threats(&mut self, l: usize) {
        for c in 0..2 {
            let [a, b] = &self.lines[l].conns[c];
            if a.thn + b.thn > 0 {
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

    /// Live windows of the connection `cn` of line `l`, pushed onto `out`.
    #[inline]
    fn push_windows(l: usize, cn: &Conn, out: &mut impl Extend<Threat>) {
        let line = &GEOMETRY.lines[l];
        for w in 0..=cn.len as u32 - K as u32 {
            let seg = (cn.f >> w) & 63;
            if seg.count_ones() >= 4 {
                let mut pts = [Point::CENTER; 2];
                let mut n = 0;
                for b in bits(!seg & 63) {
                    pts[n] = line.points[(cn.from as u32 + w + b) as usize];
                    n += 1;
                }
                out.extend(std::iter::once(Threat::new(&pts[..n])));
            }
        }
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        out.clear();
        for (l, cn) in self.threat_conns(c) {
            Self::push_windows(l, cn, out);
        }
        out.sort_unstable();
        out.dedup();
    }

    fn thn(&self, c: Color) -> u8 {
        let mut sum = 0u8;
        let mut lines = 0u128;
        for (l, cn) in self.threat_conns(c) {
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
        for (l, cn) in self.threat_conns(c) {
            Self::push_windows(l, cn, &mut buf);
        }
        match &buf.spill {
            Some(v) => cover_number(v),
            None => cover_number(&buf.items[..buf.len]),
        }
    }

    fn blockers(&self, c: Color) -> PointSet {
        let mut set = PointSet::EMPTY;
        for (l, _) in self.threat_conns(c) {
            let st = &self.lines[l];
            let m = st.conns[c.index()][0].masks[2] | st.conns[c.index()][1].masks[2];
            let line = &GEOMETRY.lines[l];
            for b in bits(m) {
                set.insert(line.points[b as usize]);
            }
        }
        set
    }

    fn candidates(&self, c: Color, min_stones: u32) -> PointSet {
        assert!((2..=4).contains(&min_stones), "min_stones in 2..=4");
        let k = (min_stones - 2) as usize;
        let mut set = PointSet::EMPTY;
        for (l, st) in self.lines.iter().enumerate() {
            let m = st.conns[c.index()][0].masks[k] | st.conns[c.index()][1].masks[k];
            if m != 0 {
                let line = &GEOMETRY.lines[l];
                for b in bits(m) {
                    set.insert(line.points[b as usize]);
                }
            }
        }
        set
    }

    fn has_six(&self, c: Color) -> bool {
        self.threat_conns(c)
            .any(|(_, cn)| cn.ty == ConnType::WIN as u8)
    }

    fn threats_if_played<S: TypeSource>(&self, p: Point, c: Color, dir: Dir) -> u8 {
        let Some(slot) = GEOMETRY.slot(p, dir) else {
            return 0;
        };
        let i = slot.offset as u32;
        for cn in &self.lines[slot.line as usize].conns[c.index()] {
            if cn.contains(i) {
                return S::classify(cn.len as u32, cn.f | 1 << (i - cn.from as u32)).1;
            }
        }
        0
    }

    fn point_type<S: TypeSource>(&self, board: &Board, p: Point, c: Color, dir: Dir) -> ConnType {
        if !board.is_empty(p) {
            return ConnType::O;
        }
        let Some(slot) = GEOMETRY.slot(p, dir) else {
            return ConnType::O;
        };
        let i = slot.offset as u32;
        for cn in &self.lines[slot.line as usize].conns[c.index()] {
            if cn.contains(i) {
                let t = ConnType::ALL[cn.ty as usize];
                return S::point_type(cn.len as u32, cn.f, t, i - cn.from as u32);
            }
        }
        ConnType::O
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
struct Frame {
    point: Point,
    zobrist: u64,
    threat_lines: [u128; 2],
    n: u8,
    saved: [(u8, LineState); 4],
}

/// The connection-based position with incremental updating: a stone rewrites only the lines
/// through it (≤ 12 connections), after saving their old values on the delta stack; unmake
/// copies them back.
#[derive(Clone)]
pub struct Incremental<S: TypeSource> {
    board: Board,
    state: ConnState,
    zobrist: u64,
    /// `Deta[ply]`: frames `0..ply` are live; later ones are kept allocated for reuse.
    deta: Vec<Frame>,
    ply: usize,
    _source: PhantomData<S>,
}

/// The paper's CPBIM: the connection-based position with knowledge-base look-ups and
/// incremental updating via the delta stack.
pub type Cpbim = Incremental<KnowledgeBase>;

/// The paper's IU: incremental updating via the delta stack, types from the classifier at
/// update time (connection types) and at query time (point types) — no knowledge base.
pub type Iu = Incremental<Classifier>;

impl<S: TypeSource> Incremental<S> {
    /// The connections of line `l` (Definition 30's `Position[·][l][·]`).
    pub fn line(&self, l: usize) -> &LineState {
        &self.state.lines[l]
    }

    /// Number of stones on the delta stack (the current ply).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Bytes of the position's state (board, lines, threat sets, key), delta stack excluded.
    pub const STATE_BYTES: usize = std::mem::size_of::<Board>()
        + std::mem::size_of::<[LineState; LINES]>()
        + std::mem::size_of::<[u128; 2]>()
        + std::mem::size_of::<u64>();

    /// Bytes one entry `Deta[ply]` of the delta stack takes.
    pub const FRAME_BYTES: usize = std::mem::size_of::<Frame>();
}

// The position's state (shared tables excluded) fits in 64 KB: checked at compile time.
const _: () = assert!(Cpbim::STATE_BYTES <= 64 * 1024);

impl<S: TypeSource> Model for Incremental<S> {
    const NAME: &'static str = S::INCREMENTAL;

    fn from_board(board: &Board) -> Self {
        Incremental {
            board: board.clone(),
            state: ConnState::build::<S>(board),
            zobrist: zobrist::board_key(board),
            deta: Vec::with_capacity(MAX_POINTS),
            ply: 0,
            _source: PhantomData,
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
        for slot in GEOMETRY.slots[p.index()].iter().flatten() {
            let l = slot.line as usize;
            frame.saved[frame.n as usize] = (slot.line, self.state.lines[l]);
            frame.n += 1;
            place::<S>(&mut self.state.lines[l], slot.offset as u32, c.index());
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

    fn has_six(&self, c: Color) -> bool {
        self.state.has_six(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state.live_windows(c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state.thn(c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state.blockers(c)
    }

    fn candidates(&self, c: Color, min_stones: u32) -> PointSet {
        self.state.candidates(c, min_stones)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.board.is_empty(p));
        self.state.threats_if_played::<S>(p, c, dir)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state.point_type::<S>(&self.board, p, c, dir)
    }
}

/// What one stone changed (paper §7.2): Definition 30 slots whose value changed, and the points
/// covered by those connections before or after. The paper bounds them by 12 and 4n − 3 = 73.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Connections (slots `Position[color][line][uc]`) whose value changed.
    pub connections: usize,
    /// Points of the changed connections, old or new.
    pub points: usize,
}

fn effect(frame: &Frame, state: &ConnState) -> Effect {
    let mut connections = 0;
    let mut points = PointSet::EMPTY;
    for &(l, ref old) in &frame.saved[..frame.n as usize] {
        let new = &state.lines[l as usize];
        let line = &GEOMETRY.lines[l as usize];
        for c in 0..2 {
            for k in 0..GAMMA {
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
fn check_effect_bounds(frame: &Frame, state: &ConnState) {
    let e = effect(frame, state);
    assert!(
        e.connections <= 12,
        "a stone changed {} connections",
        e.connections
    );
    let most = 4 * 19 - 3;
    assert!(e.points <= most, "a stone touched {} points", e.points);
}

/// The connection-based position without incremental updating: make and unmake change only the
/// board; the whole connection-based position (all 92 lines, both colours) is rebuilt from the
/// board before the first query after a change. No delta stack.
pub struct Rebuilt<S: TypeSource> {
    played: Played,
    state: RefCell<ConnState>,
    /// The board changed since `state` was built.
    stale: Cell<bool>,
    _source: PhantomData<S>,
}

/// The paper's CPBM: the connection-based position with knowledge-base look-ups, rebuilt
/// without the delta stack.
pub type Cpbm = Rebuilt<KnowledgeBase>;

impl<S: TypeSource> Rebuilt<S> {
    fn state(&self) -> std::cell::Ref<'_, ConnState> {
        if self.stale.get() {
            *self.state.borrow_mut() = ConnState::build::<S>(&self.played.board);
            self.stale.set(false);
        }
        self.state.borrow()
    }
}

impl<S: TypeSource> Model for Rebuilt<S> {
    const NAME: &'static str = S::REBUILT;

    fn from_board(board: &Board) -> Self {
        Rebuilt {
            played: Played::new(board),
            state: RefCell::new(ConnState::build::<S>(board)),
            stale: Cell::new(false),
            _source: PhantomData,
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

    fn has_six(&self, c: Color) -> bool {
        self.state().has_six(c)
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        self.state().live_windows(c, out)
    }

    fn thn(&self, c: Color) -> u8 {
        self.state().thn(c)
    }

    fn blockers(&self, c: Color) -> PointSet {
        self.state().blockers(c)
    }

    fn candidates(&self, c: Color, min_stones: u32) -> PointSet {
        self.state().candidates(c, min_stones)
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        debug_assert!(self.played.board.is_empty(p));
        self.state().threats_if_played::<S>(p, c, dir)
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        self.state().point_type::<S>(&self.played.board, p, c, dir)
    }
}

impl<S: TypeSource> Incremental<S> {
    /// What the last make changed (`None` at ply 0).
    pub fn last_effect(&self) -> Option<Effect> {
        self.ply
            .checked_sub(1)
            .map(|top| effect(&self.deta[top], &self.state))
    }

    /// Does the incremental state equal a fresh build from the board (tests)?
    pub fn matches_rebuild(&self) -> bool {
        let fresh = ConnState::build::<S>(&self.board);
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
        for len in K as u32..=19 {
            for f in 0..1u32 << len {
                assert_eq!(
                    window_masks(len, f),
                    window_masks_slow(len, f),
                    "len {len} f {f:#b}"
                );
            }
        }
    }
}
