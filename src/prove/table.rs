//! The depth-first proof search's table of positions known ([`super::lambda`]): exact keys
//! (the whole board), what the search found of each, and a bound on how many it keeps.
//!
//! A full table keeps its newer half. It holds two generations: entries go into the newer
//! one, and when that is full it becomes the older and the older is dropped; an entry found
//! in the older moves back into the newer. So a long search always keeps the positions it
//! has used lately (emptying the whole table when it filled, as it did before, made one
//! budget of a long search take twice as long: docs/search.md, "The table").

use super::tree::ThreatProof;
use crate::board::{Board, PACKED_WORDS};
use fxhash::FxHashMap;
use std::hash::Hasher;

/// Entries of one generation: a table holds at most twice this many.
pub(super) const GENERATION: usize = 1 << 20;

/// What the search knows of an attacker node, or of the defender's after a move of A.
pub(super) enum Known {
    /// Proven (boxed: most entries are not, and an entry's size is the largest kind's).
    Proven(Box<ThreatProof>),
    /// Not proven with this many threats or fewer.
    Failed(u32),
    /// After a move of A: no leaf win were D to pass, so the move was no threat (a quiet
    /// move may still win from here).
    NoThreat,
}

/// A table's key: the whole board (of the search's game), packed two bits a point, and its
/// hash computed once. A growing table moves every entry and asks for each key's hash again;
/// hashing the boards afresh there, and moving them whole, was a sixth of a Gomoku proof
/// search's time.
#[derive(PartialEq, Eq)]
pub(super) struct BoardKey {
    hash: u64,
    cells: [u64; PACKED_WORDS],
}

impl BoardKey {
    pub(super) fn of(board: &Board) -> BoardKey {
        let cells = board.packed();
        let mut hasher = fxhash::FxHasher::default();
        cells.iter().for_each(|&w| hasher.write_u64(w));
        BoardKey {
            hash: hasher.finish(),
            cells,
        }
    }
}

impl std::hash::Hash for BoardKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// One table of positions known, in two generations of at most `generation` entries.
pub(super) struct Table {
    newer: FxHashMap<BoardKey, Known>,
    older: FxHashMap<BoardKey, Known>,
    generation: usize,
}

impl Table {
    pub(super) fn new(generation: usize) -> Table {
        Table {
            newer: FxHashMap::default(),
            older: FxHashMap::default(),
            generation: generation.max(1),
        }
    }

    /// What the table knows of `key`; an entry of the older generation moves to the newer.
    pub(super) fn get(&mut self, key: BoardKey) -> Option<&Known> {
        if !self.newer.contains_key(&key) {
            let (key, known) = self.older.remove_entry(&key)?;
            self.insert(key, known);
        }
        self.newer.get(&key)
    }

    /// Remember `known` of `key`, the older generation dropped when the newer is full.
    pub(super) fn insert(&mut self, key: BoardKey, known: Known) {
        if self.newer.len() >= self.generation && !self.newer.contains_key(&key) {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(key, known);
    }

    /// Entries held (an entry may be in both generations, counted twice).
    pub(super) fn len(&self) -> usize {
        self.newer.len() + self.older.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::geom::Color;

    /// A key for each `n`: the first `n` points of a Gomoku board taken, alternately.
    fn key(n: usize) -> BoardKey {
        let mut b = Board::new(Game::GOMOKU);
        for (i, x) in Game::GOMOKU.points().take(n).enumerate() {
            b.set(
                x,
                Some(if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }),
            );
        }
        BoardKey::of(&b)
    }

    fn failed(t: &mut Table, n: usize) -> Option<u32> {
        match t.get(key(n)) {
            Some(Known::Failed(m)) => Some(*m),
            Some(_) => panic!("{n} is not what was put"),
            None => None,
        }
    }

    #[test]
    fn a_full_table_keeps_its_newer_generation_and_what_it_used_lately() {
        let mut t = Table::new(4);
        for n in 0..5 {
            t.insert(key(n), Known::Failed(n as u32));
        }
        // 0..4 the older generation, 4 the newer; 0 used now moves to the newer.
        assert_eq!(failed(&mut t, 0), Some(0));
        for n in 5..8 {
            t.insert(key(n), Known::Failed(n as u32));
        }
        // 7 turned the generations over: 4, 0, 5, 6 older, 7 newer; 1, 2, 3 dropped.
        assert_eq!(t.len(), 5);
        for n in 1..4 {
            assert_eq!(failed(&mut t, n), None, "{n} kept");
        }
        for n in [0, 4, 5, 6, 7] {
            assert_eq!(failed(&mut t, n), Some(n as u32), "{n} lost");
        }
        assert!(t.len() <= 8);
    }
}
