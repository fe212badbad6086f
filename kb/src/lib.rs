//! Shape indexing and the connection classifiers of the cpbim knowledge base.
//!
//! This crate is shared by the root package's `build.rs` (which generates the binary tables
//! once, at build time) and by the library and its tests at run time, so there is exactly one
//! copy of the generator. It has no dependencies and holds only pure functions.
//!
//! Terms follow Xu, Ma and Xu, *The connection-pattern based incremental model in k-in-a-row
//! computer games* (§2–§5):
//!
//! * a **connection** `c` is a maximal run, at least `k` long, of points of one line that hold no
//!   opponent stone; `|c|` is its length and `f(c) = Σ s(c,i)·2^i` its stones, point `i = 0`
//!   being the connection's first point;
//! * its **shape** number is `‖c‖ = f(c) + 2^|c| − 2^k` (Theorem 1), a bijection onto
//!   `0 .. 2^(n+1) − 2^k` (Theorem 2, Corollary 1);
//! * its **type** is one of the twelve [`ConnType`]s (Definitions 10–13), and each empty point of
//!   it has a type too (Algorithm 3, [`point_types`]).
//!
//! The classification here reproduces the paper's Table 1 exactly; see [`classify_all`] for the
//! reading of the definitions that does so. It is written for every game of the family: with
//! [`Params`] (k in a row, p stones per move, and whether exactly k wins) in place of
//! Connect6's k = 6 and p = 2; the Connect6 functions are those with [`Params::CONNECT6`].

#![deny(missing_docs)]

pub mod composite;
pub mod reference;

pub use composite::{
    composite_class, composite_class_for, composite_table, composite_table_for, Composite,
    COMPOSITE_TABLE_LEN,
};

/// What the classification of a game depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Stones in a row that win.
    pub k: u32,
    /// Stones per move: a threat window holds at least `k − p` stones.
    pub p: u32,
    /// Only exactly k wins: a row longer than k does not, and a window whose completion would
    /// make one is no threat.
    pub exact: bool,
}

impl Params {
    /// Connect6: six or more in a row, two stones per move.
    pub const CONNECT6: Params = Params {
        k: 6,
        p: 2,
        exact: false,
    };
    /// Freestyle Gomoku (and Renju's white): five or more, one stone per move.
    pub const FIVE_OR_MORE: Params = Params {
        k: 5,
        p: 1,
        exact: false,
    };
    /// Standard Gomoku (and Renju's black): exactly five, one stone per move.
    pub const EXACTLY_FIVE: Params = Params {
        k: 5,
        p: 1,
        exact: true,
    };
}

/// Stones in a row needed to win in Connect6 (the `k` of Connect(m,n,k,p,q)).
pub const K: u32 = 6;
/// Longest line of the 19×19 board.
pub const N: u32 = 19;
/// Number of Connect6 shapes on a 19×19 board: `2^(n+1) − 2^k` = 1,048,512.
pub const SHAPES: usize = shape_count(N, K);
/// Bytes per shape in the empty-point type table (one per point of the longest line).
pub const TI_STRIDE: usize = N as usize;
/// Length in bytes of the empty-point type table (`ti.bin`).
pub const TI_LEN: usize = SHAPES * TI_STRIDE;
/// The byte the empty-point type table holds where a point has no type: `i ≥ |c|`, the point
/// holds a stone, or the shape is `WIN`.
pub const NO_POINT_TYPE: u8 = 255;

/// Number of shapes of connections `k ..= n` long: `2^(n+1) − 2^k` (Theorem 2).
pub const fn shape_count(n: u32, k: u32) -> usize {
    (1usize << (n + 1)) - (1usize << k)
}

/// Size in KB (1024 bytes) of a connection-type table with 4-bit entries, as in the paper's
/// Table 2: `(2^(n+1) − 2^k) · 4 / 8 / 1024`.
pub fn table_size_kb(n: u32, k: u32) -> f64 {
    shape_count(n, k) as f64 * 4.0 / 8.0 / 1024.0
}

/// Shape number `‖c‖ = f + 2^len − 2^k` of a connection `len` points long holding stones `f`
/// (Theorem 1). `len` must be in `k ..= 31` and `f < 2^len`.
#[inline]
pub const fn shape_index(k: u32, len: u32, f: u32) -> u32 {
    f + (1u32 << len) - (1u32 << k)
}

/// Inverse of [`shape_index`]: the `(len, f)` of shape number `index`.
#[inline]
pub const fn shape_from_index(k: u32, index: u32) -> (u32, u32) {
    let v = index + (1u32 << k);
    let len = 31 - v.leading_zeros();
    (len, v - (1u32 << len))
}

/// The twelve connection types of Connect6 in the paper's strict order (worst first); the
/// discriminant is the type code used in every export (`ct.bin`, `ti.bin`, JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ConnType {
    /// Little or no value: dead-2, live-1, dead-1 and empty connections.
    O = 0,
    /// Live two: two more stones can make a live four.
    L2 = 1,
    /// Dead three.
    D3 = 2,
    /// Sleeping three: no single stone makes a live four, some two make a live four or five.
    S3 = 3,
    /// Live three: one more stone can make a live four.
    L3 = 4,
    /// Dead four: one threat, no stone makes it live.
    D4 = 5,
    /// Sleeping four: one threat, one more stone makes a live four or five.
    S4 = 6,
    /// Live four: four stones in a window, two threats.
    L4 = 7,
    /// Dead five: five stones in a window, one threat.
    D5 = 8,
    /// Live five: five stones in a window, two threats.
    L5 = 9,
    /// Definitely win: three or more threats.
    DW = 10,
    /// Six (or more) in a row.
    WIN = 11,
}

impl ConnType {
    /// Every type, in code order.
    pub const ALL: [ConnType; 12] = [
        ConnType::O,
        ConnType::L2,
        ConnType::D3,
        ConnType::S3,
        ConnType::L3,
        ConnType::D4,
        ConnType::S4,
        ConnType::L4,
        ConnType::D5,
        ConnType::L5,
        ConnType::DW,
        ConnType::WIN,
    ];
    /// Number of types.
    pub const COUNT: usize = 12;

    /// The type with code `code`, if any.
    #[inline]
    pub const fn from_code(code: u8) -> Option<ConnType> {
        if (code as usize) < Self::COUNT {
            Some(Self::ALL[code as usize])
        } else {
            None
        }
    }

    /// The type code (the discriminant).
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The paper's name: `O`, `L2`, `D3`, …, `DW`, `WIN`.
    pub const fn name(self) -> &'static str {
        match self {
            ConnType::O => "O",
            ConnType::L2 => "L2",
            ConnType::D3 => "D3",
            ConnType::S3 => "S3",
            ConnType::L3 => "L3",
            ConnType::D4 => "D4",
            ConnType::S4 => "S4",
            ConnType::L4 => "L4",
            ConnType::D5 => "D5",
            ConnType::L5 => "L5",
            ConnType::DW => "DW",
            ConnType::WIN => "WIN",
        }
    }

    /// Direct-threat connection (DTC, Definition 10): at least one threat but not yet six.
    #[inline]
    pub const fn is_direct_threat(self) -> bool {
        (self as u8) >= (ConnType::D4 as u8) && (self as u8) <= (ConnType::DW as u8)
    }
}

impl std::fmt::Display for ConnType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the windows of k points of a connection show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowStats {
    /// Some window holds k stones that win (Connect6: six in a row).
    pub six: bool,
    /// `l(c)`: the most stones in any window (Definition 11).
    pub most: u32,
    /// `thn(c)`, capped at 3: the fewest opponent stones that hit every threat window — a
    /// window holding k − p stones or more (four in Connect6) whose completion would win
    /// (Definition 9).
    pub threats: u32,
}

/// Window statistics of the Connect6 connection `len` points long holding stones `f`.
#[inline]
pub fn window_stats(len: u32, f: u32) -> WindowStats {
    window_stats_of::<6, 2, false>(len, f)
}

/// Call `$f::<K, P, EXACT>($args)` with the parameters of `$params` as constants (k 4..=8,
/// p 1..=2): every function of the classification is compiled for each game it may serve, so
/// the constants fold (Connect6's code is what it was when 6 and 2 were written in).
macro_rules! with_params {
    ($params:expr, $f:ident ( $($arg:expr),* )) => {{
        let p: Params = $params;
        match (p.k, p.p, p.exact) {
            (4, 1, false) => $f::<4, 1, false>($($arg),*),
            (4, 1, true) => $f::<4, 1, true>($($arg),*),
            (4, 2, false) => $f::<4, 2, false>($($arg),*),
            (4, 2, true) => $f::<4, 2, true>($($arg),*),
            (5, 1, false) => $f::<5, 1, false>($($arg),*),
            (5, 1, true) => $f::<5, 1, true>($($arg),*),
            (5, 2, false) => $f::<5, 2, false>($($arg),*),
            (5, 2, true) => $f::<5, 2, true>($($arg),*),
            (6, 1, false) => $f::<6, 1, false>($($arg),*),
            (6, 1, true) => $f::<6, 1, true>($($arg),*),
            (6, 2, false) => $f::<6, 2, false>($($arg),*),
            (6, 2, true) => $f::<6, 2, true>($($arg),*),
            (7, 1, false) => $f::<7, 1, false>($($arg),*),
            (7, 1, true) => $f::<7, 1, true>($($arg),*),
            (7, 2, false) => $f::<7, 2, false>($($arg),*),
            (7, 2, true) => $f::<7, 2, true>($($arg),*),
            (8, 1, false) => $f::<8, 1, false>($($arg),*),
            (8, 1, true) => $f::<8, 1, true>($($arg),*),
            (8, 2, false) => $f::<8, 2, false>($($arg),*),
            (8, 2, true) => $f::<8, 2, true>($($arg),*),
            _ => panic!("the knowledge base covers k 4..=8 and p 1..=2, not {p:?}"),
        }
    }};
}

/// Window statistics of the connection `len` points long holding stones `f`, under `params`.
///
/// `thn` is found with the interval-stabbing greedy of Algorithm 1: scan the windows left to
/// right and, for each threat window not yet hit, mark its rightmost empty point. Windows all
/// have the same length, so the greedy is optimal. Under an exact rule a full window wins, and
/// a window is a threat, only when the points just outside it hold no stone of the connection
/// (beyond the connection lie opponent stones or the edge).
pub fn window_stats_for(params: Params, len: u32, f: u32) -> WindowStats {
    with_params!(params, window_stats_of(len, f))
}

/// [`window_stats_for`] with the parameters as constants.
#[inline(always)]
pub fn window_stats_of<const K: u32, const P: u32, const EXACT: bool>(
    len: u32,
    f: u32,
) -> WindowStats {
    let (k, p, exact) = (K, P, EXACT);
    let window = (1u32 << k) - 1;
    let mut marked = 0u32;
    let mut threats = 0;
    let mut most = 0;
    let mut six = false;
    for w in 0..=(len - k) {
        let m = window << w;
        let n = (f & m).count_ones();
        most = most.max(n);
        let clean = !exact || {
            let left = w > 0 && f >> (w - 1) & 1 == 1;
            let right = w + k < len && f >> (w + k) & 1 == 1;
            !left && !right
        };
        if n == k {
            six |= clean;
        } else if n >= k - p && clean && marked & m == 0 {
            threats += 1;
            let empty = !f & m;
            marked |= 1 << (31 - empty.leading_zeros());
        }
    }
    WindowStats {
        six,
        most,
        threats: threats.min(3),
    }
}

/// Classify a shape from its window statistics and the types of shapes with one or two more
/// stones, given by `put`. This is the single rule shared by the table generator
/// ([`classify_all_for`]) and the table-free classifier ([`classify_direct_for`]).
///
/// The reading of Definitions 10–13 and Algorithms 1–2 that reproduces Table 1 exactly, with
/// k and p in place of 6 and 2 (a connection is *live* when its `thn` is exactly p):
///
/// * `WIN`: some window holds k stones that win;
/// * direct threats (`thn ≥ 1`): `thn ≥ p + 1` → `DW`; `thn = p` → `L5` if `l = k − 1` else
///   `L4`; `0 < thn < p` → `D5` if `l = k − 1`; else `S4` if one more stone makes it live
///   (Algorithm 1, lines 19–24), else `D4`;
/// * indirect (`thn = 0`), by `d = k − l`: `d = p + 1` → `L3` if one more stone makes it live;
///   else `S3` if two more stones do (Definition 12's "live-4 or live-5"; Algorithm 2 line 15
///   prints only `L5`, which misses Table 1 by 2,706 shapes); else `D3`. `d = p + 2` → `L2` if
///   two more stones make it live, else `O`; any other `d` → `O`.
///
/// For Connect6 (k = 6, p = 2) the levels are l = 5, 4 (direct) and 3, 2 (indirect). For
/// p = 1 the roles `D5`, `S4`, `D4` and `L4` are empty: a four of Gomoku is `L5`.
#[inline(always)]
fn classify_with<const K: u32, const P: u32, const EXACT: bool>(
    len: u32,
    f: u32,
    put: &mut impl FnMut(u32) -> ConnType,
) -> ConnType {
    use ConnType::*;
    let (k, p) = (K, P);
    let s = window_stats_of::<K, P, EXACT>(len, f);
    if s.six {
        return WIN;
    }
    let empties = !f & ((1u32 << len) - 1);
    let mut live = |g: u32| matches!(put(g), L4 | L5);
    match s.threats {
        t if t > p => DW,
        t if t == p && t > 0 => {
            if s.most == k - 1 {
                L5
            } else {
                L4
            }
        }
        t if t > 0 => {
            if s.most == k - 1 {
                D5
            } else if bits(empties).any(|i| live(f | 1 << i)) {
                S4
            } else {
                D4
            }
        }
        _ => match k.saturating_sub(s.most) {
            d if d == p + 1 => {
                if bits(empties).any(|i| live(f | 1 << i)) {
                    L3
                } else if pairs(empties).any(|m| live(f | m)) {
                    S3
                } else {
                    D3
                }
            }
            d if d == p + 2 => {
                if pairs(empties).any(|m| live(f | m)) {
                    L2
                } else {
                    O
                }
            }
            _ => O,
        },
    }
}

/// Indices of the set bits of `m`, lowest first.
#[inline]
pub fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros();
            m &= m - 1;
            Some(i)
        }
    })
}

/// Masks with exactly two bits, both from `m`.
#[inline]
fn pairs(m: u32) -> impl Iterator<Item = u32> {
    bits(m).flat_map(move |i| bits(m & !((2u32 << i) - 1)).map(move |j| (1 << i) | (1 << j)))
}

/// Classify every Connect6 shape of lines up to `n` long; the result is indexed by shape number.
pub fn classify_all(n: u32) -> Vec<u8> {
    classify_all_for(Params::CONNECT6, n)
}

/// Classify every shape of lines up to `n` long under `params`; indexed by shape number.
///
/// For each length the stone sets are visited in decreasing numeric order, so every shape with
/// more stones (`f | 1 << i` > `f`) is already classified when it is needed.
pub fn classify_all_for(params: Params, n: u32) -> Vec<u8> {
    with_params!(params, classify_all_of(n))
}

fn classify_all_of<const K: u32, const P: u32, const EXACT: bool>(n: u32) -> Vec<u8> {
    let k = K;
    let mut table = vec![u8::MAX; shape_count(n, k)];
    for len in k..=n {
        let base = shape_index(k, len, 0) as usize;
        let row = &mut table[base..base + (1usize << len)];
        for f in (0..1u32 << len).rev() {
            let t = classify_with::<K, P, EXACT>(len, f, &mut |g| {
                debug_assert!(g > f, "supersets are classified first");
                ConnType::ALL[row[g as usize] as usize]
            });
            row[f as usize] = t as u8;
        }
    }
    table
}

/// Classify one Connect6 shape without any table ([`classify_direct_for`]).
#[inline]
pub fn classify_direct(len: u32, f: u32) -> ConnType {
    classify_direct_of::<6, 2, false>(len, f)
}

/// Classify one shape without any table: the same rule as [`classify_all_for`], evaluated on
/// the spot. Adding stones to a shape only ever needs to know whether the result is live
/// (`thn = p`), which window statistics alone decide, so this never recurses more than one
/// level.
pub fn classify_direct_for(params: Params, len: u32, f: u32) -> ConnType {
    with_params!(params, classify_direct_of(len, f))
}

/// [`classify_direct_for`] with the parameters as constants.
#[inline(always)]
pub fn classify_direct_of<const K: u32, const P: u32, const EXACT: bool>(
    len: u32,
    f: u32,
) -> ConnType {
    classify_with::<K, P, EXACT>(len, f, &mut |g| live_or_not::<K, P, EXACT>(len, g))
}

/// The type of a shape as far as it is live (`L4`, `L5`) or not (reported as `O`): all the
/// callers of `put` ever ask.
#[inline(always)]
fn live_or_not<const K: u32, const P: u32, const EXACT: bool>(len: u32, f: u32) -> ConnType {
    let s = window_stats_of::<K, P, EXACT>(len, f);
    match (s.six, s.threats == P, s.most == K - 1) {
        (false, true, true) => ConnType::L5,
        (false, true, false) => ConnType::L4,
        _ => ConnType::O,
    }
}

/// Type of the empty point `i` of a connection of type `t` (Definition 26, Algorithm 3): the
/// type the connection becomes when its owner plays at `i`, if that is strictly better than
/// `t`, else `O`.
#[inline]
pub fn point_type(t: ConnType, after: ConnType) -> ConnType {
    if after > t {
        after
    } else {
        ConnType::O
    }
}

/// The empty-point type table (TCIC, Algorithm 3) of Connect6 for lines up to `n` long
/// ([`point_types_for`]).
pub fn point_types(ct: &[u8], n: u32) -> Vec<u8> {
    point_types_for(K, ct, n)
}

/// The empty-point type table (TCIC, Algorithm 3) for lines up to `n` long of a game with `k` in
/// a row: `n` bytes per shape, byte `‖c‖·n + i` = type code of empty point `i`, and
/// [`NO_POINT_TYPE`] where `i ≥ |c|`, the point holds a stone, or `c` is `WIN`. `ct` is
/// [`classify_all_for`]`(params, n)`.
pub fn point_types_for(k: u32, ct: &[u8], n: u32) -> Vec<u8> {
    let stride = n as usize;
    let mut ti = vec![NO_POINT_TYPE; ct.len() * stride];
    for (index, &t) in ct.iter().enumerate() {
        let t = ConnType::ALL[t as usize];
        if t == ConnType::WIN {
            continue;
        }
        let (len, f) = shape_from_index(k, index as u32);
        let row = &mut ti[index * stride..(index + 1) * stride];
        for i in bits(!f & ((1u32 << len) - 1)) {
            let after = ConnType::ALL[ct[shape_index(k, len, f | 1 << i) as usize] as usize];
            row[i as usize] = point_type(t, after) as u8;
        }
    }
    ti
}

/// Number of shapes of each type in a connection-type table, indexed by type code.
pub fn type_counts(ct: &[u8]) -> [u64; ConnType::COUNT] {
    let mut counts = [0u64; ConnType::COUNT];
    for &t in ct {
        counts[t as usize] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_numbers_of_figure_1() {
        assert_eq!(shape_index(K, 11, 208), 2192);
        assert_eq!(shape_index(K, 11, 8), 1992);
        assert_eq!(shape_index(K, 7, 0), 64);
        assert_eq!(shape_index(K, 19, 0), 524_224);
        assert_eq!(shape_from_index(K, 2192), (11, 208));
    }

    #[test]
    fn pairs_enumerates_each_pair_once() {
        let v: Vec<u32> = pairs(0b1011).collect();
        assert_eq!(v, vec![0b0011, 0b1001, 0b1010]);
    }

    #[test]
    fn window_stats_small_cases() {
        // XXXX.. : one threat, four stones.
        assert_eq!(
            window_stats(6, 0b001111),
            WindowStats {
                six: false,
                most: 4,
                threats: 1
            }
        );
        // XXXXXX
        assert!(window_stats(6, 0b111111).six);
        // .XXXX. in 8 points with room: ..XXXX.. → two threats needed? windows 0..=2.
        let s = window_stats(8, 0b0011_1100);
        assert_eq!((s.most, s.threats), (4, 2));
    }
}
