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
    /// Composite classes of the points (§5.2).
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
        if let Some(k) = self.killers.get(ply).filter(|_| o.killers) {
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
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None; 2]);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some((p, q)) {
                k[1] = k[0];
                k[0] = Some((p, q));
            }
        }
    }

    /// Order `pairs` best first (stable: ties keep point order).
    pub(super) fn order(
        &self,
        c: Color,
        pairs: &mut [(Point, Point)],
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
            for &(p, q) in pairs.iter() {
                for x in [p, q] {
                    if !done.contains(x) {
                        done.insert(x);
                        value[x.index()] = 2 * self.m.composite(x, c) as u8
                            + self.m.composite(x, c.opponent()) as u8;
                    }
                }
            }
        }
        let mut keyed: Vec<(u64, (Point, Point))> = pairs
            .iter()
            .map(|&pair| (self.score(c, pair, ply, tt_best, &value), pair))
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, pair)) in pairs.iter_mut().zip(keyed) {
            *slot = pair;
        }
    }
}
