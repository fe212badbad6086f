//! Zobrist keys: one fixed pseudo-random 64-bit number per (colour, point), generated at compile
//! time with splitmix64 from a fixed seed, so keys are the same in every build and run.
//!
//! The sequence is drawn in the order of the 19×19 board first (black's 361 points row by row,
//! then white's), then for the points of the 20th column and row: a Connect6 position has the
//! keys it had when the board was fixed at 19×19, so transposition-table behaviour, and with it
//! every node count, is unchanged.

use crate::geom::{Color, Point, MAX_POINTS, MAX_SIDE};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Side of the board whose keys come first in the sequence.
const FIRST: usize = 19;

const fn build() -> [[u64; MAX_POINTS]; 2] {
    let mut t = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x0C0F_FEE6_C0DE_6A11u64;
    // The 19×19 points of each colour, row by row.
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < FIRST * FIRST {
            let (s, v) = splitmix(state);
            state = s;
            t[c][(i / FIRST) * MAX_SIDE + i % FIRST] = v;
            i += 1;
        }
        c += 1;
    }
    // Then the rest of the 20×20 board, in index order.
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            if i / MAX_SIDE >= FIRST || i % MAX_SIDE >= FIRST {
                let (s, v) = splitmix(state);
                state = s;
                t[c][i] = v;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

static KEYS: [[u64; MAX_POINTS]; 2] = build();

/// The key of a stone of `c` on `p`; a board's key is the XOR of its stones' keys.
#[inline]
pub fn key(c: Color, p: Point) -> u64 {
    KEYS[c.index()][p.index()]
}

/// The key of a whole board.
pub fn board_key(board: &crate::board::Board) -> u64 {
    board.iter().fold(0, |k, (p, c)| k ^ key(c, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_connect6_keeps_its_sequence() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * MAX_POINTS);
        // The first key drawn is black's A1, the 362nd white's A1 (as on the old 19×19 table).
        let (s, first) = splitmix(0x0C0F_FEE6_C0DE_6A11);
        assert_eq!(key(Color::Black, Point::new(0, 0).unwrap()), first);
        let mut state = s;
        let mut v = 0;
        for _ in 0..361 {
            (state, v) = splitmix(state);
        }
        assert_eq!(key(Color::White, Point::new(0, 0).unwrap()), v);
    }
}
