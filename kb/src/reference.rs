//! A slow, obviously-correct classifier written straight from the paper's definitions, kept
//! as the oracle that the fast generator ([`crate::classify_all`]) is swept against.
//!
//! Nothing here is clever: a connection is a `Vec<bool>`, windows are slices, `thn` is the size
//! of the smallest set of empty points (tried by brute force, sizes 0, 1, 2) that meets every
//! window holding four or more stones, and types are defined by recursion on "one or two more
//! stones", memoised only so the sweep finishes.

use crate::{ConnType, K};
use std::collections::HashMap;

/// A connection as a plain list of points: `true` holds a stone of the connection's owner.
pub type Stones = Vec<bool>;

/// Stones of the connection `len` points long described by `f` (bit `i` = point `i`).
pub fn stones(len: u32, f: u32) -> Stones {
    (0..len).map(|i| f >> i & 1 == 1).collect()
}

fn windows(c: &[bool]) -> impl Iterator<Item = &[bool]> + '_ {
    c.windows(K as usize)
}

fn count(w: &[bool]) -> usize {
    w.iter().filter(|&&s| s).count()
}

/// `l(c)`: the most stones in any window of six (Definition 11).
pub fn closeness(c: &[bool]) -> usize {
    windows(c).map(count).max().unwrap_or(0)
}

/// Contains six stones in a row.
pub fn has_six(c: &[bool]) -> bool {
    windows(c).any(|w| count(w) == K as usize)
}

/// `thn(c)` capped at 3: the fewest empty points that meet every window with ≥ 4 stones.
pub fn threats(c: &[bool]) -> usize {
    let threat_windows: Vec<usize> = (0..c.len() + 1 - K as usize)
        .filter(|&w| count(&c[w..w + K as usize]) >= K as usize - 2)
        .collect();
    let empties: Vec<usize> = (0..c.len()).filter(|&i| !c[i]).collect();
    let hits = |set: &[usize]| {
        threat_windows
            .iter()
            .all(|&w| set.iter().any(|&p| p >= w && p < w + K as usize))
    };
    if hits(&[]) {
        return 0;
    }
    for &a in &empties {
        if hits(&[a]) {
            return 1;
        }
    }
    for (x, &a) in empties.iter().enumerate() {
        for &b in &empties[x + 1..] {
            if hits(&[a, b]) {
                return 2;
            }
        }
    }
    3
}

/// The reference classifier, with its memo.
#[derive(Default)]
pub struct Reference {
    memo: HashMap<Stones, ConnType>,
}

impl Reference {
    /// A classifier with an empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    fn with(&mut self, c: &[bool], extra: &[usize]) -> ConnType {
        let mut d = c.to_vec();
        for &i in extra {
            d[i] = true;
        }
        self.classify(&d)
    }

    /// Type of connection `c` by Definitions 10–13 (see [`crate::classify_all`] for the reading
    /// that reproduces Table 1).
    pub fn classify(&mut self, c: &[bool]) -> ConnType {
        if let Some(&t) = self.memo.get(c) {
            return t;
        }
        use ConnType::*;
        let l = closeness(c);
        let thn = threats(c);
        let empties: Vec<usize> = (0..c.len()).filter(|&i| !c[i]).collect();
        let mut pairs = Vec::new();
        for (x, &a) in empties.iter().enumerate() {
            for &b in &empties[x + 1..] {
                pairs.push([a, b]);
            }
        }
        let t = if has_six(c) {
            WIN
        } else if thn >= 3 {
            DW
        } else if thn == 2 {
            if l == 5 {
                L5
            } else {
                L4
            }
        } else if thn == 1 {
            if l == 5 {
                D5
            } else if empties
                .iter()
                .any(|&i| matches!(self.with(c, &[i]), L4 | L5))
            {
                S4
            } else {
                D4
            }
        } else if l == 3 {
            if empties.iter().any(|&i| self.with(c, &[i]) == L4) {
                L3
            } else if pairs.iter().any(|p| matches!(self.with(c, p), L4 | L5)) {
                S3
            } else {
                D3
            }
        } else if l == 2 && pairs.iter().any(|p| self.with(c, p) == L4) {
            L2
        } else {
            O
        };
        self.memo.insert(c.to_vec(), t);
        t
    }

    /// Type of empty point `i` of `c` (Definition 26): the type `c` becomes with a stone at `i`
    /// when that is strictly better, else `O`.
    pub fn point_type(&mut self, c: &[bool], i: usize) -> ConnType {
        let before = self.classify(c);
        let after = self.with(c, &[i]);
        if after > before {
            after
        } else {
            ConnType::O
        }
    }
}
