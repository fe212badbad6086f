//! The transposition table: 2^21 entries in two levels (paper §8.1): each bucket holds a
//! depth-preferred entry and an always-replace entry. An entry is 16 bytes.
//!
//! Entries record exact facts about an attacker-to-move position, in budgets of plies (always
//! multiples of 4, stored divided by 4):
//!
//! * `win_at`: the search proved a win with any budget ≥ `win_at`;
//! * `cut_to`: it proved "no win, not exhausted" for every budget ≤ `cut_to`;
//! * `ex_from`: it proved the tree exhausted (no win at any depth) for every budget ≥ `ex_from`.
//!
//! These are monotone facts about the position alone, so a probe never changes what the search
//! decides, only how much it searches. Entries of earlier searches are ignored (an 8-bit
//! generation), so every solve starts from an effectively empty table and node counts do not
//! depend on what was solved before.

use super::Status;
use crate::geom::Point;

const NONE: u8 = u8::MAX;

/// One entry: 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    /// Budget / 4 from which a win is proven, `NONE` if not.
    win_at: u8,
    /// 1 + budget / 4 up to which "cut" is proven, 0 if not.
    cut_to: u8,
    /// Budget / 4 from which exhaustion is proven, `NONE` if not.
    ex_from: u8,
    generation: u8,
    /// Best pair: first point (9 bits), second (9 bits), 1 + budget/4 searched (6 bits);
    /// 0 in the point bits means none.
    data: u32,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

impl Entry {
    fn best(&self) -> Option<(Point, Point)> {
        let p = (self.data & 0x1FF) as usize;
        let q = ((self.data >> 9) & 0x1FF) as usize;
        if p == 0 && q == 0 {
            return None;
        }
        Some((Point::from_index(p)?, Point::from_index(q)?))
    }

    fn depth(&self) -> u32 {
        self.data >> 18
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// A status the table proves for the budget asked, if any.
    pub status: Option<Status>,
    /// The best pair stored for the position, for move ordering.
    pub best: Option<(Point, Point)>,
}

/// The two-level table.
pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    mask: u64,
    generation: u8,
}

/// Default number of entries: 2^21 (32 MB).
pub const DEFAULT_ENTRIES: usize = 1 << 21;

impl TranspositionTable {
    /// A table of `entries` entries (rounded down to a power of two, at least 2); 0 disables it.
    pub fn new(entries: usize) -> TranspositionTable {
        let buckets = if entries < 2 {
            0
        } else {
            1usize << (usize::BITS - 1 - (entries / 2).leading_zeros())
        };
        TranspositionTable {
            buckets: vec![[Entry::default(); 2]; buckets],
            mask: (buckets as u64).wrapping_sub(1),
            generation: 1,
        }
    }

    /// Entries held (both levels).
    pub fn entries(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<[Entry; 2]>()
    }

    /// Forget everything (cheaply: a new generation; the memory is cleared on wrap-around).
    pub fn new_search(&mut self) {
        if self.generation == u8::MAX {
            for b in &mut self.buckets {
                *b = [Entry::default(); 2];
            }
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    #[inline]
    fn bucket(&mut self, key: u64) -> Option<&mut [Entry; 2]> {
        if self.buckets.is_empty() {
            return None;
        }
        let i = (key & self.mask) as usize;
        Some(&mut self.buckets[i])
    }

    /// What the table knows of position `key` searched with `budget` plies.
    #[inline]
    pub fn probe(&mut self, key: u64, budget: u32) -> Probe {
        let generation = self.generation;
        let b = (budget / 4) as u8;
        let none = Probe {
            status: None,
            best: None,
        };
        let Some(bucket) = self.bucket(key) else {
            return none;
        };
        for e in bucket.iter() {
            if e.key == key && e.generation == generation {
                let status = if e.win_at != NONE && b >= e.win_at {
                    Some(Status::Win)
                } else if b < e.cut_to {
                    Some(Status::Cut)
                } else if e.ex_from != NONE && b >= e.ex_from {
                    Some(Status::Exhausted)
                } else {
                    None
                };
                return Probe {
                    status,
                    best: e.best(),
                };
            }
        }
        none
    }

    /// Record that position `key` searched with `budget` plies has `status`, with the best pair
    /// found (the winning attack, or the first attack tried).
    pub fn store(&mut self, key: u64, budget: u32, status: Status, best: Option<(Point, Point)>) {
        let generation = self.generation;
        let b = (budget / 4).min(62) as u8;
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        let slot = if bucket[0].key == key && bucket[0].generation == generation {
            0
        } else if bucket[1].key == key && bucket[1].generation == generation {
            1
        } else {
            // A new position: it takes the depth-preferred slot if it is at least as deep as
            // what is there (or that is stale), pushing the old entry to the always-replace
            // slot; otherwise the always-replace slot.
            let deep = &bucket[0];
            if deep.generation != generation || b as u32 + 1 >= deep.depth() {
                bucket[1] = bucket[0];
                0
            } else {
                1
            }
        };
        let e = &mut bucket[slot];
        if e.key != key || e.generation != generation {
            *e = Entry {
                key,
                win_at: NONE,
                cut_to: 0,
                ex_from: NONE,
                generation,
                data: 0,
            };
        }
        match status {
            Status::Win => e.win_at = e.win_at.min(b),
            Status::Cut => e.cut_to = e.cut_to.max(b + 1),
            Status::Exhausted => e.ex_from = e.ex_from.min(b),
            Status::Abort => return,
        }
        let depth = (e.depth()).max(b as u32 + 1).min(63);
        let moves = match best {
            Some((p, q)) => p.index() as u32 | (q.index() as u32) << 9,
            None => e.data & 0x3FFFF,
        };
        e.data = moves | depth << 18;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_monotone_in_the_budget() {
        let mut tt = TranspositionTable::new(1 << 10);
        assert_eq!(tt.probe(42, 8).status, None);
        tt.store(42, 8, Status::Cut, None);
        assert_eq!(tt.probe(42, 0).status, Some(Status::Cut));
        assert_eq!(tt.probe(42, 8).status, Some(Status::Cut));
        assert_eq!(tt.probe(42, 12).status, None);
        tt.store(
            42,
            16,
            Status::Win,
            Some((Point::CENTER, Point::from_index(0).unwrap())),
        );
        assert_eq!(tt.probe(42, 12).status, None);
        assert_eq!(tt.probe(42, 20).status, Some(Status::Win));
        assert_eq!(tt.probe(42, 20).best.unwrap().0, Point::CENTER);
        tt.store(7, 12, Status::Exhausted, None);
        assert_eq!(tt.probe(7, 8).status, None);
        assert_eq!(tt.probe(7, 28).status, Some(Status::Exhausted));
        tt.new_search();
        assert_eq!(tt.probe(42, 20).status, None);
    }

    #[test]
    fn sizes() {
        let tt = TranspositionTable::new(DEFAULT_ENTRIES);
        assert_eq!(tt.entries(), 1 << 21);
        assert_eq!(tt.bytes(), 32 << 20);
        assert_eq!(TranspositionTable::new(0).entries(), 0);
    }
}
