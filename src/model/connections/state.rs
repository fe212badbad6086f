//! The connection-based position itself (Definition 30): every line's connections for both
//! colours, built from a board and updated stone by stone, and what the models read from it.

use super::line::{clean, level_stones, runs, window_masks, Conn, LineState};
use super::source::{thn_of, TypeSource};
use crate::board::Board;
use crate::geom::{Color, Dir, Geometry, LineSlot, Point, PointSet, MAX_SIDE};
use crate::kb::{ConnType, Params};
use crate::model::{cover_number, Level, Threat, TypeCounts};
use cpbim_kb::bits;

/// Refuse a game whose rows are not the `K` a model `name` is built for: such a model would
/// answer wrongly, not fail ([`super::kind_of`] names the right one).
pub(super) fn check_rows<const K: u32>(name: &str, board: &Board) {
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
pub(super) fn place<S: TypeSource, const K: u32, const G: usize>(
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
pub(super) struct ConnState<const K: u32, const G: usize, const L: usize> {
    pub(super) geo: &'static Geometry,
    pub(super) lines: [LineState<G>; L],
    pub(super) threat_lines: [u128; 2],
}

impl<const K: u32, const G: usize, const L: usize> ConnState<K, G, L> {
    pub(super) fn build<S: TypeSource>(src: &S, board: &Board) -> Self {
        let mut s = ConnState {
            geo: board.game().geometry(),
            lines: [LineState::default(); L],
            threat_lines: [0; 2],
        };
        s.rebuild(src, board, false);
        s
    }

    /// This state made the state of `board`, in place (a batch of unrelated positions builds
    /// one model after another: moving a fresh 8 KB state into place cost more than filling it).
    /// With `same_game` (this state is a state of `board`'s game, from the same source) a line
    /// whose stones are already `board`'s is kept as it is: a line's state is a function of its
    /// stones.
    pub(super) fn rebuild<S: TypeSource>(&mut self, src: &S, board: &Board, same_game: bool) {
        let geo = board.game().geometry();
        assert!(
            geo.lines.len() <= L && geo.lines.len() <= 128,
            "{} has more lines than this kind holds",
            board.game()
        );
        let n = geo.lines.len();
        if !same_game {
            // Lines the last game had and this one lacks go back to empty (never read).
            let before = self.geo.lines.len().max(n);
            self.lines[n..before].fill(LineState::default());
            self.geo = geo;
            self.threat_lines = [0; 2];
        }
        // Each line's stones, from one pass over the board's stones.
        let mut stones = [[0u32; 2]; L];
        for (p, c) in board.iter() {
            for slot in geo.slots[p.index()].iter().flatten() {
                stones[slot.line as usize][c.index()] |= 1 << slot.offset;
            }
        }
        // An empty line's state depends on its length only: derived once per length.
        let mut empty: [Option<LineState<G>>; MAX_SIDE + 1] = [None; MAX_SIDE + 1];
        for (l, &stones) in stones[..n].iter().enumerate() {
            if same_game && self.lines[l].stones == stones {
                continue;
            }
            let len = geo.lines[l].len as u32;
            self.lines[l] = if stones == [0, 0] {
                *empty[len as usize].get_or_insert_with(|| build_line::<S, K, G>(src, len, stones))
            } else {
                build_line::<S, K, G>(src, len, stones)
            };
            self.mark_threats(l);
        }
    }

    pub(super) fn type_counts(&self, c: Color) -> TypeCounts {
        let mut n = [0u16; 12];
        for line in &self.lines[..self.geo.lines.len()] {
            for cn in line.conns[c.index()].iter().filter(|cn| cn.f != 0) {
                n[cn.ty as usize] += 1;
            }
        }
        n
    }

    #[inline]
    pub(super) fn mark_threats(&mut self, l: usize) {
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
    pub(super) fn threat_conns(&self, c: Color) -> impl Iterator<Item = (usize, &Conn)> + '_ {
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
    pub(super) fn push_windows(
        &self,
        params: Params,
        l: usize,
        cn: &Conn,
        out: &mut impl Extend<Threat>,
    ) {
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

    pub(super) fn live_windows<S: TypeSource>(&self, src: &S, c: Color, out: &mut Vec<Threat>) {
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
    pub(super) fn conn_at(&self, slot: LineSlot, c: Color) -> Option<(u32, &Conn)> {
        let i = slot.offset as u32;
        self.lines[slot.line as usize].conns[c.index()]
            .iter()
            .find(|cn| cn.contains(i))
            .map(|cn| (i, cn))
    }

    pub(super) fn thn<S: TypeSource>(&self, src: &S, c: Color) -> u8 {
        self.cover(src.params(c.index()), || self.threat_conns(c))
    }

    /// `thn(c)` once `c` plays the empty point `p`, read without playing it. The stone joins
    /// `c`'s connection through `p` in each direction (at most one a line) and changes no other
    /// connection of `c`: the threat connections are today's with those (at most four)
    /// replaced by their successors.
    pub(super) fn thn_if_played<S: TypeSource>(&self, src: &S, p: Point, c: Color) -> u8 {
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
    pub(super) fn threats_if_played<S: TypeSource>(
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
    pub(super) fn candidates_if_played<S: TypeSource>(
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
    pub(super) fn cover<'a, I>(&'a self, params: Params, conns: impl Fn() -> I) -> u8
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

    pub(super) fn blockers(&self, c: Color) -> PointSet {
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

    pub(super) fn candidates(&self, c: Color, level: Level) -> PointSet {
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

    pub(super) fn has_win(&self, c: Color) -> bool {
        self.threat_conns(c)
            .any(|(_, cn)| cn.ty == ConnType::WIN as u8)
    }

    pub(super) fn point_type<S: TypeSource>(
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
