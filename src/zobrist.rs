//! Zobrist keys: one fixed pseudo-random 64-bit number per (colour, point), generated at compile
//! time with splitmix64 from a fixed seed, so keys are the same in every build and run.

use crate::geom::{Color, Point, POINTS};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u64; POINTS]; 2] {
    let mut t = [[0u64; POINTS]; 2];
    let mut state = 0x0C0F_FEE6_C0DE_6A11u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < POINTS {
            let (s, v) = splitmix(state);
            state = s;
            t[c][p] = v;
            p += 1;
        }
        c += 1;
    }
    t
}

static KEYS: [[u64; POINTS]; 2] = build();

/// The key of a stone of `c` on `p`; a board's key is the XOR of its stones' keys.
#[inline]
pub fn key(c: Color, p: Point) -> u64 {
    KEYS[c.index()][p.index()]
}

/// The key of a whole board.
pub fn board_key(board: &crate::board::Board) -> u64 {
    board.iter().fold(0, |k, (p, c)| k ^ key(c, p))
}
