//! The alpha-beta's transposition table, one for all its threads: a fixed array of buckets of
//! two slots, each slot two atomic words — the key xor the data, and the data — so that a slot
//! half written by one thread while another reads it fails the key check and reads as a miss
//! (no lock, no allocation). Kept between moves; each move's search is a new generation, and
//! entries of older generations give way first.

use crate::geom::Point;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact = 0,
    /// At least the score (the search was cut above).
    Lower = 1,
    /// At most the score (no move reached alpha).
    Upper = 2,
}

/// One position's stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Whole moves searched below the position.
    pub depth: u32,
    /// Its score for the side to move.
    pub score: i32,
    /// What the score is.
    pub bound: Bound,
    /// The best move's stones (one or two).
    pub best: [Option<Point>; 2],
}

impl Entry {
    /// The best move's stones.
    pub fn best_stones(&self) -> Vec<Point> {
        self.best.iter().flatten().copied().collect()
    }
}

// The data word: depth 8 bits, bound 2, score 22 (offset), two points 10 bits each (index + 1,
// 0 for none), generation 8.
const SCORE_OFFSET: i64 = 1 << 21;
const DEPTH_SHIFT: u32 = 0;
const BOUND_SHIFT: u32 = 8;
const SCORE_SHIFT: u32 = 10;
const POINT_SHIFT: [u32; 2] = [32, 42];
const GEN_SHIFT: u32 = 52;

fn pack(e: &Entry, generation: u8) -> u64 {
    let point = |p: Option<Point>| p.map_or(0, |p| p.index() as u64 + 1);
    let score = (i64::from(e.score) + SCORE_OFFSET) as u64 & ((1 << 22) - 1);
    (u64::from(e.depth.min(255)) << DEPTH_SHIFT)
        | ((e.bound as u64) << BOUND_SHIFT)
        | (score << SCORE_SHIFT)
        | (point(e.best[0]) << POINT_SHIFT[0])
        | (point(e.best[1]) << POINT_SHIFT[1])
        | (u64::from(generation) << GEN_SHIFT)
}

fn unpack(data: u64) -> Entry {
    let field = |shift: u32, bits: u32| (data >> shift) & ((1 << bits) - 1);
    let point = |shift| match field(shift, 10) {
        0 => None,
        i => Point::from_index(i as usize - 1),
    };
    Entry {
        depth: depth_of(data),
        bound: match field(BOUND_SHIFT, 2) {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        score: (field(SCORE_SHIFT, 22) as i64 - SCORE_OFFSET) as i32,
        best: [point(POINT_SHIFT[0]), point(POINT_SHIFT[1])],
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> GEN_SHIFT) as u8
}

fn depth_of(data: u64) -> u32 {
    ((data >> DEPTH_SHIFT) & 0xff) as u32
}

/// The shared table.
pub struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    generation: AtomicU8,
}

impl Table {
    /// A table of `2^bits` slots (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits.max(1);
        Table {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// A new search begins: what is stored from now on is newer than what is there.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1) & !1
    }

    fn read(&self, i: usize) -> (u64, u64) {
        let [k, d] = &self.slots[i];
        let data = d.load(Ordering::Relaxed);
        (k.load(Ordering::Relaxed) ^ data, data)
    }

    /// The entry stored for `key`, if any.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        (b..b + 2).find_map(|i| {
            let (k, data) = self.read(i);
            (k == key && data != 0).then(|| unpack(data))
        })
    }

    /// Store `entry` for `key`: over the slot of the same key in its bucket, else over the
    /// slot of an older generation or, both current, of the shallower search. A score beyond
    /// ±2^21 (weights of a parameter file can make one) is not stored.
    pub fn put(&self, key: u64, entry: &Entry) {
        if i64::from(entry.score).abs() >= SCORE_OFFSET {
            return;
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let slots = [self.read(b), self.read(b + 1)];
        let at = match slots.iter().position(|&(k, d)| k == key && d != 0) {
            Some(i) => i,
            None => {
                let worth = |(_, d): (u64, u64)| {
                    let current = d != 0 && generation_of(d) == generation;
                    (current, depth_of(d))
                };
                usize::from(worth(slots[1]) < worth(slots[0]))
            }
        };
        let data = pack(entry, generation);
        let [k, d] = &self.slots[b + at];
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u32, score: i32, bound: Bound, best: &[usize]) -> Entry {
        let p = |i: Option<&usize>| i.and_then(|&i| Point::from_index(i));
        Entry {
            depth,
            score,
            bound,
            best: [p(best.first()), p(best.get(1))],
        }
    }

    #[test]
    fn entries_round_trip_through_the_packed_word() {
        let win = super::super::eval::WIN;
        for e in [
            entry(1, 0, Bound::Exact, &[0]),
            entry(255, win + 1, Bound::Lower, &[399, 398]),
            entry(7, -win - 1, Bound::Upper, &[180, 200]),
            entry(3, -12_345, Bound::Exact, &[]),
        ] {
            for generation in [0, 1, 255] {
                let data = pack(&e, generation);
                assert_eq!(unpack(data), e);
                assert_eq!(generation_of(data), generation);
            }
        }
    }

    #[test]
    fn a_bucket_keeps_the_deeper_current_entry_and_reads_misses_as_none() {
        let t = Table::new(4);
        let e = |d| entry(d, d as i32, Bound::Exact, &[d as usize]);
        // Three keys of one bucket (the low bits equal).
        let (a, b, c) = (0x100u64, 0x200u64, 0x300u64);
        assert_eq!(t.get(a), None);
        t.put(a, &e(5));
        t.put(b, &e(2));
        assert_eq!(t.get(a), Some(e(5)));
        assert_eq!(t.get(b), Some(e(2)));
        // The shallower of the two gives way.
        t.put(c, &e(3));
        assert_eq!(
            (t.get(a), t.get(b), t.get(c)),
            (Some(e(5)), None, Some(e(3)))
        );
        // A score the word cannot hold is not stored.
        t.put(0x500, &entry(9, 1 << 21, Bound::Exact, &[1]));
        t.put(0x600, &entry(9, -(1 << 21), Bound::Exact, &[1]));
        assert_eq!((t.get(0x500), t.get(0x600)), (None, None));
        assert_eq!((t.get(a), t.get(c)), (Some(e(5)), Some(e(3))));
        // The same key is overwritten in place, whatever its depth.
        t.put(a, &e(1));
        assert_eq!(t.get(a), Some(e(1)));
        // A new generation: the older entries give way first, deep or not.
        t.new_generation();
        t.put(b, &e(1));
        t.put(0x400, &e(1));
        assert_eq!(t.get(b), Some(e(1)));
        assert_eq!(t.get(0x400), Some(e(1)));
        assert_eq!((t.get(a), t.get(c)), (None, None));
    }

    #[test]
    fn threads_writing_one_bucket_never_read_a_torn_entry() {
        let t = Table::new(2);
        let keys: Vec<u64> = (1..=8).map(|i| i << 8).collect();
        let of = |key: u64| {
            entry(
                (key >> 8) as u32,
                (key >> 8) as i32 * 1000,
                Bound::Lower,
                &[(key >> 8) as usize],
            )
        };
        std::thread::scope(|s| {
            for w in 0..2 {
                let (t, keys) = (&t, &keys);
                s.spawn(move || {
                    for round in 0..20_000 {
                        let key = keys[(round * 3 + w) % keys.len()];
                        t.put(key, &of(key));
                        for &k in keys {
                            if let Some(e) = t.get(k) {
                                assert_eq!(e, of(k), "a torn entry for {k:#x}");
                            }
                        }
                    }
                });
            }
        });
    }
}
