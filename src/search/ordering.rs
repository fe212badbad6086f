//! Move ordering of the threat search (`docs/search.md`, "Move ordering"): the table's best
//! move, killer pairs, the history heuristic and the composite classes of the points. Ordering
//! only changes the order in which the same moves are examined, never what the search decides.

use super::tree::Searcher;
use crate::geom::{Color, Point, PointSet, MAX_POINTS as POINTS};
use crate::Model;

/// Which move-ordering heuristics are on. Off, candidates are tried in point order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ordering {
    /// Try the transposition table's best pair first.
    pub tt_move: bool,
    /// Killer pairs per ply.
    pub killers: bool,
    /// History heuristic per colour and point.
    pub history: bool,
    /// Composite classes of the points (§5.2), in the games of two stones a move.
    pub composite: bool,
}

impl Ordering {
    /// Every heuristic on (the default).
    pub const ALL: Ordering = Ordering {
        tt_move: true,
        killers: true,
        history: true,
        composite: true,
    };
    /// Plain ordering: candidates in point order.
    pub const PLAIN: Ordering = Ordering {
        tt_move: false,
        killers: false,
        history: false,
        composite: false,
    };
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering::ALL
    }
}

impl<M: Model> Searcher<'_, M> {
    /// Ordering score of the pair `(p, q)` for `c`; `value[x]` is the static value of point
    /// `x` (its composite classes), computed once per node.
    fn score(
        &self,
        c: Color,
        (p, q): (Point, Point),
        ply: usize,
        tt_best: Option<(Point, Point)>,
        value: &[u8; POINTS],
    ) -> u64 {
        let o = self.ordering;
        let mut s = 0u64;
        if o.tt_move && tt_best == Some((p, q)) {
            s |= 1 << 62;
        }
        if let Some(k) = self.scratch.killers.get(ply).filter(|_| o.killers) {
            if k[0] == Some((p, q)) {
                s |= 1 << 61;
            } else if k[1] == Some((p, q)) {
                s |= 1 << 60;
            }
        }
        if o.history {
            let h = &self.history[c.index()];
            s += ((h[p.index()] as u64 + h[q.index()] as u64).min(1 << 40)) << 8;
        }
        if o.composite {
            s += value[p.index()] as u64 + value[q.index()] as u64;
        }
        s
    }

    pub(super) fn reward(&mut self, c: Color, p: Point, q: Point, ply: usize, budget: u32) {
        if self.ordering.history {
            let bonus = (budget / 4 + 1) * (budget / 4 + 1);
            let h = &mut self.history[c.index()];
            h[p.index()] = h[p.index()].saturating_add(bonus);
            h[q.index()] = h[q.index()].saturating_add(bonus);
        }
        if self.ordering.killers {
            if self.scratch.killers.len() <= ply {
                self.scratch.killers.resize(ply + 1, [None; 2]);
            }
            let k = &mut self.scratch.killers[ply];
            if k[0] != Some((p, q)) {
                k[1] = k[0];
                k[0] = Some((p, q));
            }
        }
    }

    /// Order `pairs` best first (stable: ties keep point order).
    pub(super) fn order(
        &mut self,
        c: Color,
        pairs: &mut [(Point, Point)],
        ply: usize,
        tt_best: Option<(Point, Point)>,
    ) {
        self.order_by(c, pairs, |&pair| pair, ply, tt_best);
    }

    /// Order `items` best first by the pairs `pair` reads from them (stable: ties keep their
    /// order), in place: a search orders at every node, and allocating lists for it was 5 % of
    /// a VCF's instructions.
    pub(super) fn order_by<T: Copy>(
        &mut self,
        c: Color,
        items: &mut [T],
        pair: impl Fn(&T) -> (Point, Point),
        ply: usize,
        tt_best: Option<(Point, Point)>,
    ) {
        if self.ordering == Ordering::PLAIN {
            return;
        }
        // Static value of each point once: its composite class for `c` counts double, for the
        // opponent once (a stone that also spoils the opponent's shape is worth more).
        let mut value = [0u8; POINTS];
        if self.ordering.composite {
            let mut done = PointSet::EMPTY;
            for (p, q) in items.iter().map(&pair) {
                for x in [p, q] {
                    if !done.contains(x) {
                        done.insert(x);
                        value[x.index()] = 2 * self.m.composite(x, c) as u8
                            + self.m.composite(x, c.opponent()) as u8;
                    }
                }
            }
        }
        // Each score once, with its place: sorted, ties keep their places (a stable order).
        let mut keys = std::mem::take(&mut self.scratch.order_keys);
        keys.clear();
        keys.extend(items.iter().enumerate().map(|(i, item)| {
            let score = self.score(c, pair(item), ply, tt_best, &value);
            (std::cmp::Reverse(score), i)
        }));
        keys.sort_unstable();
        permute(items, &mut keys);
        self.scratch.order_keys = keys;
    }
}

/// Put `items[keys[k].1]` at place k for every k, in place, by following the permutation's
/// cycles; `keys` is left marking every place as its own.
fn permute<T: Copy, K>(items: &mut [T], keys: &mut [(K, usize)]) {
    for start in 0..items.len() {
        let first = items[start];
        let mut at = start;
        while keys[at].1 != start {
            let from = keys[at].1;
            items[at] = items[from];
            keys[at].1 = at;
            at = from;
        }
        if keys[at].1 != at {
            items[at] = first;
            keys[at].1 = at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::permute;
    use proptest::prelude::*;

    proptest! {
        /// `permute` puts at each place the item its key names, as gathering into a new list
        /// would, and leaves every key naming its own place.
        #[test]
        fn permute_gathers(perm in (0usize..60).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle())) {
            let items: Vec<u32> = (0..perm.len() as u32).map(|i| 7 * i + 1).collect();
            let mut keys: Vec<((), usize)> = perm.iter().map(|&i| ((), i)).collect();
            let mut out = items.clone();
            permute(&mut out, &mut keys);
            let gathered: Vec<u32> = perm.iter().map(|&i| items[i]).collect();
            prop_assert_eq!(out, gathered);
            prop_assert!(keys.iter().enumerate().all(|(k, &(_, i))| i == k));
        }
    }
}
