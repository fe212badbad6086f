//! A slow, obviously-correct classifier written straight from the paper's definitions (with k
//! and p for 6 and 2, and the exact-k rule), kept as the oracle that the fast generator
//! ([`crate::classify_all_for`]) is swept against.
//!
//! Nothing here is clever: a connection is a `Vec<bool>`; a win is a maximal run of stones of
//! the winning length; a threat window is a window of k points holding at least k − p stones
//! that becomes a win when its empty points are filled; `thn` is the size of the smallest set of
//! empty points (tried by brute force, sizes 0, 1, 2) that meets every threat window; types are
//! defined by recursion on "one or two more stones", memoised only so the sweep finishes.

use crate::{ConnType, Params};
use std::collections::HashMap;

/// A connection as a plain list of points: `true` holds a stone of the connection's owner.
pub type Stones = Vec<bool>;

/// Stones of the connection `len` points long described by `f` (bit `i` = point `i`).
pub fn stones(len: u32, f: u32) -> Stones {
    (0..len).map(|i| f >> i & 1 == 1).collect()
}

fn count(w: &[bool]) -> usize {
    w.iter().filter(|&&s| s).count()
}

/// The lengths of the maximal runs of stones.
fn runs(c: &[bool]) -> Vec<usize> {
    c.split(|&s| !s)
        .map(<[bool]>::len)
        .filter(|&n| n > 0)
        .collect()
}

/// Does a run of `n` stones win under `params`?
fn wins(params: Params, n: usize) -> bool {
    let k = params.k as usize;
    if params.exact {
        n == k
    } else {
        n >= k
    }
}

/// Does `c` hold a winning row?
pub fn has_win(params: Params, c: &[bool]) -> bool {
    runs(c).into_iter().any(|n| wins(params, n))
}

/// `l(c)`: the most stones in any window of k points (Definition 11).
pub fn closeness(params: Params, c: &[bool]) -> usize {
    c.windows(params.k as usize).map(count).max().unwrap_or(0)
}

/// The threat windows of `c`, by start: k − p stones or more, not yet a win, and a winning row
/// through the window once its empty points are filled.
fn threat_windows(params: Params, c: &[bool]) -> Vec<usize> {
    let k = params.k as usize;
    (0..=c.len() - k)
        .filter(|&w| {
            let n = count(&c[w..w + k]);
            if n < k - params.p as usize || n == k {
                return false;
            }
            let mut filled = c.to_vec();
            filled[w..w + k].iter_mut().for_each(|s| *s = true);
            // The run through the window once it is filled.
            let mut a = w;
            while a > 0 && filled[a - 1] {
                a -= 1;
            }
            let mut b = w + k;
            while b < c.len() && filled[b] {
                b += 1;
            }
            wins(params, b - a)
        })
        .collect()
}

/// `thn(c)` capped at 3: the fewest empty points that meet every threat window.
pub fn threats(params: Params, c: &[bool]) -> usize {
    let k = params.k as usize;
    let windows = threat_windows(params, c);
    let empties: Vec<usize> = (0..c.len()).filter(|&i| !c[i]).collect();
    let hits = |set: &[usize]| {
        windows
            .iter()
            .all(|&w| set.iter().any(|&p| p >= w && p < w + k))
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

/// The reference classifier of one game's connections, with its memo.
pub struct Reference {
    params: Params,
    memo: HashMap<Stones, ConnType>,
}

impl Default for Reference {
    fn default() -> Self {
        Reference::new()
    }
}

impl Reference {
    /// A Connect6 classifier with an empty memo.
    pub fn new() -> Self {
        Reference::for_params(Params::CONNECT6)
    }

    /// A classifier for `params` with an empty memo.
    pub fn for_params(params: Params) -> Self {
        Reference {
            params,
            memo: HashMap::new(),
        }
    }

    fn with(&mut self, c: &[bool], extra: &[usize]) -> ConnType {
        let mut d = c.to_vec();
        for &i in extra {
            d[i] = true;
        }
        self.classify(&d)
    }

    /// Is `c` with `extra` stones live: exactly p threats (`L4` or `L5`)?
    fn live_with(&mut self, c: &[bool], extra: &[usize]) -> bool {
        matches!(self.with(c, extra), ConnType::L4 | ConnType::L5)
    }

    /// Type of connection `c` by Definitions 10–13 with k and p (see
    /// [`crate::classify_all_for`] for the reading that reproduces Table 1).
    pub fn classify(&mut self, c: &[bool]) -> ConnType {
        if let Some(&t) = self.memo.get(c) {
            return t;
        }
        use ConnType::*;
        let (k, p) = (self.params.k as usize, self.params.p as usize);
        let l = closeness(self.params, c);
        let thn = threats(self.params, c);
        let empties: Vec<usize> = (0..c.len()).filter(|&i| !c[i]).collect();
        let mut pairs = Vec::new();
        for (x, &a) in empties.iter().enumerate() {
            for &b in &empties[x + 1..] {
                pairs.push([a, b]);
            }
        }
        let t = if has_win(self.params, c) {
            WIN
        } else if thn > p {
            DW
        } else if thn == p && thn > 0 {
            if l == k - 1 {
                L5
            } else {
                L4
            }
        } else if thn > 0 {
            if l == k - 1 {
                D5
            } else if empties.iter().any(|&i| self.live_with(c, &[i])) {
                S4
            } else {
                D4
            }
        } else if l + p + 1 == k {
            if empties.iter().any(|&i| self.live_with(c, &[i])) {
                L3
            } else if pairs.iter().any(|pair| self.live_with(c, pair)) {
                S3
            } else {
                D3
            }
        } else if l + p + 2 == k && pairs.iter().any(|pair| self.live_with(c, pair)) {
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
