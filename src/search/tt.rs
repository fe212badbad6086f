//! The transposition table: 2^21 entries in two levels (paper §8.1): each bucket holds a
//! depth-preferred entry and an always-replace entry. An entry is 16 bytes.
//!
//! Entries record exact facts about an attacker-to-move position, as budgets in rounds (an
//! attack and its defence: 4 plies in Connect6, 2 in Gomoku), in 8 bits:
//!
//! * a win is proven for every budget ≥ `win_at`, and ruled out for every budget ≤ `nowin_to`;
//! * the tree is proven exhausted (no win at any depth) for every budget ≥ `ex_from`, and
//!   proven not exhausted for every budget ≤ `nex_to`.
//!
//! Both properties are monotone in the budget, so these are facts about the position alone: a
//! probe never changes what the search decides, only how much it searches. Entries of earlier
//! searches are ignored (an 8-bit generation), so every solve starts from an effectively empty
//! table and node counts do not depend on what was solved before. The generation takes the low
//! 8 bits of the stored key: they are the low bits of the bucket index, which the bucket
//! already tells (for tables of 256 buckets or more; smaller tables check 56 bits of the key).

use crate::geom::Point;

/// Largest budget in rounds an entry can hold; deeper budgets are stored as this (a win found
/// with more budget is then recorded only as a win from this budget on, which is still a fact
/// because no search budget exceeds [`MAX_ROUNDS`]).
const TOP: u32 = 250;
/// No fact.
const UNKNOWN: u32 = 255;

/// The deepest budget a search may use, in rounds: more than the moves of a 20×20 board.
pub const MAX_ROUNDS: u32 = TOP;
/// The deepest budget of Connect6 (and any game of two stones per move), in plies.
pub const MAX_BUDGET: u32 = TOP * 4;

/// The bits of a stored key that hold the generation.
const GENERATION: u64 = 0xFF;

/// The bit of `Entry::data` saying a best move is stored.
const HAS_BEST: u32 = 1 << 26;

/// One entry: 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    /// The position's key, its low 8 bits replaced by the generation.
    key: u64,
    /// win_at (8 bits) | nowin_to+1 (8) | ex_from (8) | nex_to+1 (8).
    facts: u32,
    /// First point of the best move (9 bits) | second (9, the first again for one stone) |
    /// 1 + rounds searched (8) | a best move is stored (1).
    data: u32,
}

impl Entry {
    /// Is this the entry of `key` in the search of `generation`?
    #[inline]
    fn holds(&self, key: u64, generation: u8) -> bool {
        self.key == (key & !GENERATION) | generation as u64
    }

    /// Does it belong to the search of `generation`?
    #[inline]
    fn live(&self, generation: u8) -> bool {
        (self.key & GENERATION) as u8 == generation
    }

    /// 1 + the rounds searched.
    #[inline]
    fn depth(&self) -> u32 {
        (self.data >> 18) & 0xFF
    }
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Facts {
    win_at: u32,
    nowin_to: u32,
    ex_from: u32,
    nex_to: u32,
}

impl Facts {
    const NONE: Facts = Facts {
        win_at: UNKNOWN,
        nowin_to: 0,
        ex_from: UNKNOWN,
        nex_to: 0,
    };

    fn unpack(x: u32) -> Facts {
        Facts {
            win_at: x & 0xFF,
            nowin_to: (x >> 8) & 0xFF,
            ex_from: (x >> 16) & 0xFF,
            nex_to: x >> 24,
        }
    }

    fn pack(self) -> u32 {
        self.win_at | self.nowin_to << 8 | self.ex_from << 16 | self.nex_to << 24
    }
}

/// Which property a probe or a store is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Is there a win within the budget?
    Win,
    /// Is the tree exhausted within the budget?
    Exhausted,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The answer the table proves for the budget asked, if any.
    pub answer: Option<bool>,
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
    /// Buckets of a table asked for `entries` entries: entries / 2 rounded down to a power of
    /// two (none below 2 entries).
    fn buckets_for(entries: usize) -> usize {
        if entries < 2 {
            0
        } else {
            1usize << (usize::BITS - 1 - (entries / 2).leading_zeros())
        }
    }

    /// Bytes a table of `entries` entries takes ([`TranspositionTable::new`] rounds), or
    /// `None` beyond the address space.
    pub fn bytes_for(entries: usize) -> Option<usize> {
        Self::buckets_for(entries).checked_mul(std::mem::size_of::<[Entry; 2]>())
    }

    /// A table of `entries` entries (rounded down to a power of two, at least 2); 0 disables it.
    /// The memory is allocated at once: check [`TranspositionTable::bytes_for`] first when
    /// `entries` comes from a user.
    pub fn new(entries: usize) -> TranspositionTable {
        let buckets = Self::buckets_for(entries);
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
    fn find(&self, key: u64) -> Option<&Entry> {
        if self.buckets.is_empty() {
            return None;
        }
        let bucket = &self.buckets[(key & self.mask) as usize];
        bucket.iter().find(|e| e.holds(key, self.generation))
    }

    /// What the table knows of position `key` for `question` with a budget of `rounds`.
    #[inline]
    pub fn probe(&self, key: u64, rounds: u32, question: Question) -> Probe {
        let Some(e) = self.find(key) else {
            return Probe {
                answer: None,
                best: None,
            };
        };
        let f = Facts::unpack(e.facts);
        let b = rounds;
        let won_ever = f.win_at != UNKNOWN;
        let exhausted_ever = f.ex_from != UNKNOWN;
        let answer = match question {
            Question::Win => {
                if won_ever && b >= f.win_at {
                    Some(true)
                } else if b < f.nowin_to || exhausted_ever {
                    Some(false)
                } else {
                    None
                }
            }
            Question::Exhausted => {
                if exhausted_ever && b >= f.ex_from {
                    Some(true)
                } else if b < f.nex_to || won_ever {
                    Some(false)
                } else {
                    None
                }
            }
        };
        let p = (e.data & 0x1FF) as usize;
        let q = ((e.data >> 9) & 0x1FF) as usize;
        let best = if e.data & HAS_BEST == 0 {
            None
        } else {
            Point::from_index(p).zip(Point::from_index(q))
        };
        Probe { answer, best }
    }

    /// Record the answer to `question` for position `key` searched with a budget of `rounds`,
    /// with the best move found, if any.
    pub fn store(
        &mut self,
        key: u64,
        rounds: u32,
        question: Question,
        answer: bool,
        best: Option<(Point, Point)>,
    ) {
        if self.buckets.is_empty() {
            return;
        }
        let generation = self.generation;
        let b = rounds.min(TOP);
        let bucket = &mut self.buckets[(key & self.mask) as usize];
        let fresh = Entry {
            key: (key & !GENERATION) | generation as u64,
            facts: Facts::NONE.pack(),
            data: 0,
        };
        let slot = if bucket[0].holds(key, generation) {
            0
        } else if bucket[1].holds(key, generation) {
            1
        } else {
            // A new position takes the depth-preferred slot if it is at least as deep as what
            // is there (or that is stale), pushing the old entry to the always-replace slot;
            // otherwise the always-replace slot.
            let deep = &bucket[0];
            if !deep.live(generation) || b + 1 >= deep.depth() {
                bucket[1] = bucket[0];
                bucket[0] = fresh;
                0
            } else {
                bucket[1] = fresh;
                1
            }
        };
        let e = &mut bucket[slot];
        let mut f = Facts::unpack(e.facts);
        match (question, answer) {
            (Question::Win, true) => f.win_at = f.win_at.min(b),
            (Question::Win, false) => f.nowin_to = f.nowin_to.max(b + 1),
            (Question::Exhausted, true) => f.ex_from = f.ex_from.min(b),
            (Question::Exhausted, false) => f.nex_to = f.nex_to.max(b + 1),
        }
        e.facts = f.pack();
        let depth = e.depth().max(b + 1);
        let moves = match best {
            Some((p, q)) => p.index() as u32 | (q.index() as u32) << 9 | HAS_BEST,
            None => e.data & (0x3FFFF | HAS_BEST),
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
        let w = Question::Win;
        let x = Question::Exhausted;
        assert_eq!(tt.probe(42, 2, w).answer, None);
        tt.store(42, 2, w, false, None);
        assert_eq!(tt.probe(42, 0, w).answer, Some(false));
        assert_eq!(tt.probe(42, 2, w).answer, Some(false));
        assert_eq!(tt.probe(42, 3, w).answer, None);
        let pair = (Point::CENTER, Point::from_index(0).unwrap());
        tt.store(42, 4, w, true, Some(pair));
        assert_eq!(tt.probe(42, 3, w).answer, None);
        assert_eq!(tt.probe(42, 5, w).answer, Some(true));
        assert_eq!(tt.probe(42, 5, w).best, Some(pair));
        // A win rules out exhaustion at every budget.
        assert_eq!(tt.probe(42, 0, x).answer, Some(false));
        tt.store(7, 3, x, true, None);
        assert_eq!(tt.probe(7, 2, x).answer, None);
        assert_eq!(tt.probe(7, 7, x).answer, Some(true));
        // Exhaustion rules out a win at every budget.
        assert_eq!(tt.probe(7, 1, w).answer, Some(false));
        tt.store(9, 2, x, false, None);
        assert_eq!(tt.probe(9, 1, x).answer, Some(false));
        assert_eq!(tt.probe(9, 3, x).answer, None);
        tt.new_search();
        assert_eq!(tt.probe(42, 5, w).answer, None);
    }

    #[test]
    fn sizes() {
        let tt = TranspositionTable::new(DEFAULT_ENTRIES);
        assert_eq!(tt.entries(), 1 << 21);
        assert_eq!(tt.bytes(), 32 << 20);
        assert_eq!(TranspositionTable::new(0).entries(), 0);
    }
}
