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
    /// The smallest budget in rounds from which a win is proven, if any.
    pub won_within: Option<u32>,
    /// The smallest budget in rounds from which the tree is proven exhausted, if any.
    pub exhausted_within: Option<u32>,
}

/// `n` empty buckets, from zeroed memory: the system maps zero pages on first touch instead of
/// this process writing every byte. Measured on a one-position `cpbim solve` of a 46-node VCF
/// (callgrind): filling the 32 MB default table entry by entry took 33.6 million of the
/// process's 35 million instructions and faulted in all 8,192 pages before the search began.
fn zeroed_buckets(n: usize) -> Vec<[Entry; 2]> {
    if n == 0 {
        return Vec::new();
    }
    let layout = std::alloc::Layout::array::<[Entry; 2]>(n).expect("a table that fits in memory");
    // SAFETY: `Entry` is `repr(C)` plain integers without padding (8 + 4 + 4 bytes, checked
    // above), for which all-zero bytes are a valid value, `Entry::default()`. The pointer comes
    // from the global allocator with the layout of exactly `n` buckets and is not null, so the
    // vector of length and capacity `n` owns it with the layout it was allocated with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<[Entry; 2]>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// The two-level table.
///
/// A search starts on the first [`FIRST_BUCKETS`] buckets and doubles the part in use each
/// time it has entered as many positions as half that part's buckets (a quarter of its
/// entries), up to the whole table: a small search touches a few pages of memory instead of
/// one page per position, and memory in use follows what the search needs. Doubling splits each bucket in place (an entry moves to
/// bucket `i + old` when the new bit of its key is set), so nothing is lost.
pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    /// The buckets in use, minus one (a power of two, minus one).
    mask: u64,
    /// Positions entered since the part in use last doubled.
    entered: usize,
    /// The most buckets in use since the memory was last cleared.
    used: usize,
    generation: u8,
}

/// The buckets a search starts with (8 KB): at least 256, so that a key's bit that decides a
/// split lies above the generation bits of the stored key. Measured with `cpbim bench --vcf`
/// (median of the 55 problems' first-win times): 4,096 first buckets 0.13–0.15 ms, 256
/// buckets 0.05–0.06 ms; the whole table from the start (zeroed pages touched one by one)
/// made the long problems slower still.
const FIRST_BUCKETS: usize = 1 << 8;

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
        let first = buckets.min(FIRST_BUCKETS);
        TranspositionTable {
            buckets: zeroed_buckets(buckets),
            mask: (first as u64).wrapping_sub(1),
            entered: 0,
            used: first,
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

    /// Entries in use by the current search (both levels): the table grows with the search.
    pub fn entries_in_use(&self) -> usize {
        if self.buckets.is_empty() {
            0
        } else {
            (self.mask as usize + 1) * 2
        }
    }

    /// Forget everything (cheaply: a new generation; the memory used is cleared on
    /// wrap-around) and start again on the first buckets.
    pub fn new_search(&mut self) {
        if self.generation == u8::MAX {
            for b in &mut self.buckets[..self.used] {
                *b = [Entry::default(); 2];
            }
            self.generation = 1;
        } else {
            self.generation += 1;
        }
        let first = self.buckets.len().min(FIRST_BUCKETS);
        self.mask = (first as u64).wrapping_sub(1);
        self.entered = 0;
    }

    /// Double the buckets in use: every live entry of bucket `i` whose key has the new bit of
    /// the index set moves to bucket `i + old`, in its order.
    fn grow(&mut self) {
        let old = self.mask as usize + 1;
        let generation = self.generation;
        let (low, high) = self.buckets[..2 * old].split_at_mut(old);
        for (stay, moved) in low.iter_mut().zip(high.iter_mut()) {
            let entries = *stay;
            *stay = [Entry::default(); 2];
            *moved = [Entry::default(); 2];
            let (mut s, mut m) = (0, 0);
            for e in entries.into_iter().filter(|e| e.live(generation)) {
                if e.key & old as u64 == 0 {
                    stay[s] = e;
                    s += 1;
                } else {
                    moved[m] = e;
                    m += 1;
                }
            }
        }
        self.mask = (2 * old - 1) as u64;
        self.used = self.used.max(2 * old);
        self.entered = 0;
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
                won_within: None,
                exhausted_within: None,
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
        Probe {
            answer,
            best,
            won_within: won_ever.then_some(f.win_at),
            exhausted_within: exhausted_ever.then_some(f.ex_from),
        }
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
            self.entered += 1;
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
        if 2 * self.entered > self.mask as usize && (self.mask as usize + 1) < self.buckets.len() {
            self.grow();
        }
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
    fn the_table_grows_without_losing_entries() {
        let mut tt = TranspositionTable::new(1 << 16);
        assert_eq!(tt.entries_in_use(), 2 * FIRST_BUCKETS);
        // One key per starting bucket; the odd ones have the bit that splits them off set.
        let keys: Vec<u64> = (0..FIRST_BUCKETS as u64)
            .map(|i| i + FIRST_BUCKETS as u64 * (i & 1))
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            tt.store(k, n as u32 % 7, Question::Win, true, None);
        }
        assert_eq!(tt.entries_in_use(), 4 * FIRST_BUCKETS, "grown once");
        for (n, &k) in keys.iter().enumerate() {
            assert_eq!(tt.probe(k, 7, Question::Win).won_within, Some(n as u32 % 7));
        }
        tt.new_search();
        assert_eq!(tt.entries_in_use(), 2 * FIRST_BUCKETS);
        assert_eq!(tt.probe(keys[1], 7, Question::Win).answer, None);
        // A table smaller than the first buckets is used whole.
        assert_eq!(TranspositionTable::new(64).entries_in_use(), 64);
    }

    #[test]
    fn sizes() {
        let tt = TranspositionTable::new(DEFAULT_ENTRIES);
        assert_eq!(tt.entries(), 1 << 21);
        assert_eq!(tt.bytes(), 32 << 20);
        assert_eq!(TranspositionTable::new(0).entries(), 0);
    }
}
