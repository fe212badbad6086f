//! A line's connections (Definition 29/30): the connections of a stone pattern, the levels of
//! stones that make a window matter, and the masks of the empty points in such windows.

use crate::geom::Color;
use crate::kb::Params;
use cpbim_kb::shape_index;

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
    /// Line-offset masks of the empty points of the windows of each [`Level`](crate::model::Level).
    pub masks: [u32; 3],
}

impl Conn {
    #[inline]
    pub(super) fn contains(&self, offset: u32) -> bool {
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
pub(super) fn runs(k: u32, line_len: u32, opp: u32) -> impl Iterator<Item = (u32, u32)> {
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

/// The stones a window needs for each [`Level`](crate::model::Level) in a game of `k` in a row and `p` per move:
/// `k − 2p` (the candidate set R), `k − p − 1`, `k − p` (live).
#[inline(always)]
pub fn level_stones(k: u32, p: u32) -> [u32; 3] {
    [k.saturating_sub(2 * p), k - p - 1, k - p]
}

/// Does the window of `k` points at offset `w` of a connection `len` long holding `f` have no
/// stone of the connection just outside it (so that filling it makes exactly k)?
#[inline(always)]
pub(super) fn clean(k: u32, len: u32, f: u32, w: u32) -> bool {
    let left = w > 0 && f >> (w - 1) & 1 == 1;
    let right = w + k < len && f >> (w + k) & 1 == 1;
    !left && !right
}

/// Empty points (connection offsets) of the windows of each [`Level`](crate::model::Level): windows with at least
/// `level_stones` stones; for the live level, windows that would win once filled (exactly k
/// under an exact rule). Bit-parallel: every window's stone count at once (Connect6's own
/// adder below, a general one for the other games).
#[inline(always)]
pub(super) fn window_masks<const K: u32>(len: u32, f: u32, params: Params) -> [u32; 3] {
    let levels = level_stones(K, params.p);
    if K == 6 && levels == [2, 3, 4] && !params.exact {
        return window_masks_six(len, f);
    }
    if K == 5 && levels == [3, 3, 4] {
        return window_masks_five(len, f, params.exact);
    }
    // Bit w of plane b is bit b of the stone count of the window starting at w (k ≤ 8 stones:
    // four planes): the k shifted copies of `f` added bit-serially.
    let mut planes = [0u32; 4];
    for j in 0..K {
        let mut carry = f >> j;
        for plane in planes.iter_mut() {
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
        }
    }
    let starts = (1u32 << (len + 1 - K)) - 1;
    let count_is = |v: u32| {
        (0..4).fold(starts, |m, b| {
            m & if v >> b & 1 == 1 {
                planes[b]
            } else {
                !planes[b]
            }
        })
    };
    let counts = |range: std::ops::Range<u32>| range.fold(0, |m, v| m | count_is(v));
    // A window fills to exactly k when no stone of the connection lies just outside it.
    let clean = if params.exact {
        !(f << 1) & !(f >> K)
    } else {
        u32::MAX
    };
    let empty = !f & ((1u32 << len) - 1);
    let cover = |w: u32| (0..K).fold(0, |m, j| m | w << j) & empty;
    [
        cover(counts(levels[0]..K + 1)),
        cover(counts(levels[1]..K + 1)),
        cover(counts(levels[2]..K) & clean),
    ]
}

/// Connect6's masks (windows of six with ≥ 2, ≥ 3, ≥ 4 stones), bit-parallel: bit `w` of
/// `f >> j` is the stone at `w + j`, so adding the six shifted masks in carry-save fashion gives
/// every window's stone count at once, as three bit planes (`ones`, `twos`, `fours`); a window
/// mask is then dilated over its six points.
#[inline]
pub(super) fn window_masks_six(len: u32, f: u32) -> [u32; 3] {
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

/// The games of five's masks (one stone a move: windows of five with ≥ 3, ≥ 3 and exactly 4
/// stones), bit-parallel as Connect6's: the five shifted masks added in carry-save fashion
/// into three bit planes. With `exact` (Renju's black) a live window must not touch a stone of
/// the connection on either side, or filling it would make six or more.
#[inline]
pub(super) fn window_masks_five(len: u32, f: u32, exact: bool) -> [u32; 3] {
    let a = [f, f >> 1, f >> 2, f >> 3, f >> 4];
    // A full adder over (a0 a1 a2), a half adder over (a3 a4).
    let (s1, c1) = (a[0] ^ a[1] ^ a[2], (a[0] & a[1]) | (a[2] & (a[0] ^ a[1])));
    let (s2, c2) = (a[3] ^ a[4], a[3] & a[4]);
    let ones = s1 ^ s2;
    let c3 = s1 & s2;
    let twos = c1 ^ c2 ^ c3;
    let fours = (c1 & c2) | (c3 & (c1 ^ c2));
    let starts = (1u32 << (len + 1 - 5)) - 1;
    let empty = !f & ((1u32 << len) - 1);
    let cover = |w: u32| {
        let w = w & starts;
        let d = w | (w << 1);
        let d = d | (d << 2);
        (d | (w << 4)) & empty
    };
    let three = cover(fours | (twos & ones));
    // Exactly four: 100 in the planes (five stones are 101, a row already made).
    let four = fours & !ones;
    let clean = if exact {
        !(f << 1) & !(f >> 5)
    } else {
        u32::MAX
    };
    [three, three, cover(four & clean)]
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

    /// The bit-parallel masks against the window loop, for every k and p of the models and
    /// both rules, on every connection shape up to 16 points (a sample of the longer ones).
    #[test]
    fn window_masks_of_every_game_equal_the_window_loop() {
        fn check<const K: u32>() {
            for p in 1..K {
                for exact in [false, true] {
                    let params = Params { k: K, p, exact };
                    for len in K..=20 {
                        let step = if len <= 16 { 1 } else { 97 };
                        for f in (0..1u32 << len).step_by(step) {
                            assert_eq!(
                                window_masks::<K>(len, f, params),
                                window_masks_slow(K, len, f, params),
                                "{params:?} len {len} f {f:#b}"
                            );
                        }
                    }
                }
            }
        }
        check::<4>();
        check::<5>();
        check::<6>();
        check::<7>();
        check::<8>();
    }

    #[test]
    fn the_masks_of_the_games_of_five_equal_the_window_loop_on_every_shape() {
        for params in [Params::FIVE_OR_MORE, Params::EXACTLY_FIVE] {
            for len in 5..=16 {
                for f in 0..1u32 << len {
                    assert_eq!(
                        window_masks_five(len, f, params.exact),
                        window_masks_slow(5, len, f, params),
                        "{params:?} len {len} f {f:#b}"
                    );
                }
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
