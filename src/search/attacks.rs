//! The attacks of an A-node (`docs/search.md`, "The rules" and "The attack rule"): the moves
//! of p stones after which the defender has no live window and `thn(A) ≥ p`.

use super::tree::Searcher;
use crate::geom::{Dir, Point, PointSet};
use crate::model::{common_points, cover_number, Level, Model, Threat};
use crate::renju;

/// An attack: the attacker's stones — two, `p < q`, or one, `p == q` (games of one stone per
/// move) — and `thn(A)` after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Attack {
    pub(super) p: Point,
    pub(super) q: Point,
    pub(super) thn: u8,
}

impl<M: Model> Searcher<'_, M> {
    /// Every attack of the A-node (`docs/search.md`), with `thn(A)` after it. With `first_only` it
    /// stops at the first attack; with `win_only` at the first attack leaving `thn(A) ≥ p + 1`.
    fn generate(&mut self, first_only: bool, win_only: bool, out: &mut Vec<Attack>) {
        out.clear();
        let (a, d) = (self.a, self.d);
        let mut dw = std::mem::take(&mut self.scratch.windows);
        self.m.live_windows(d, &mut dw);
        if cover_number(&dw) > self.p {
            self.scratch.windows = dw;
            return;
        }
        let blockers: PointSet = dw.iter().flat_map(|t| t.points()).collect();
        let r = self.m.candidates(a, Level::Attack).union(&blockers);
        let w0 = dw.first().copied();
        if self.p == 1 {
            // One stone: a point of R meeting every live window of D, leaving thn(A) ≥ 1.
            let firsts: PointSet = match w0 {
                None => r,
                Some(w) => w
                    .points()
                    .filter(|&x| common_points(&dw, x).is_none())
                    .collect(),
            };
            self.scratch.windows = dw;
            out.reserve(firsts.len());
            // A has no live window at an A-node (it would have won), so every live window
            // after x passes through x, and windows of different directions share no empty
            // point: thn(A) after x is the sum over the four directions of the threats of x's
            // connection once x is played, read without playing x.
            debug_assert_eq!(self.m.thn(a), 0, "attacks are generated at A-nodes");
            for x in firsts.iter() {
                self.count_node();
                let t = self.threats_through(x);
                if t >= 1 && !(self.forbidden.0 && renju::is_forbidden(self.m.board(), x)) {
                    out.push(Attack { p: x, q: x, thn: t });
                    if first_only || (win_only && t >= 2) {
                        return;
                    }
                }
                if self.aborted {
                    return;
                }
            }
            return;
        }
        // Two stones: with no live window of D, any two of R; else a first stone on D's first
        // window and a second that meets every window the first misses.
        let mut firsts = [(Point::CENTER, PointSet::EMPTY, false); 2];
        if let Some(w) = w0 {
            for (slot, x) in firsts.iter_mut().zip(w.points()) {
                let common = common_points(&dw, x);
                let seconds = match common {
                    None => r,
                    Some(common) => common.into_iter().flatten().collect(),
                };
                *slot = (x, seconds, common.is_none());
            }
        }
        self.scratch.windows = dw;
        debug_assert_eq!(self.m.thn(a), 0, "attacks are generated at A-nodes");
        let near_live = self.m.candidates(a, Level::NearLive);
        self.new_stamp();
        match w0 {
            None => {
                // The first stones that make a threat first (those in a window one stone from
                // live): a winning pair (thn ≥ 3), which ends the generation, mostly starts
                // there. Every unordered pair is still met once, whatever the order.
                let (threats, others) = (r.intersection(&near_live), r.difference(&near_live));
                for p in threats.iter().chain(others.iter()) {
                    if self.attacks_from(p, r, r, w0, true, near_live, first_only, win_only, out) {
                        return;
                    }
                }
            }
            Some(w) => {
                for &(p, seconds, blocks_all) in &firsts[..w.points().count()] {
                    let (s, all) = (seconds, blocks_all);
                    if self.attacks_from(p, s, r, w0, all, near_live, first_only, win_only, out) {
                        return;
                    }
                }
            }
        }
    }

    /// A new A-node's pair generation: the threats read before are of another position.
    fn new_stamp(&mut self) {
        if self.scratch.threats_now.is_empty() {
            self.scratch.threats_now = vec![(0, [0; 4]); crate::geom::MAX_POINTS];
        }
        self.scratch.stamp = self.scratch.stamp.wrapping_add(1);
        if self.scratch.stamp == 0 {
            self.scratch.threats_now.fill((0, [0; 4]));
            self.scratch.stamp = 1;
        }
    }

    /// The threats of A's connection through the empty point `x` in each direction once A
    /// plays it, read once an A-node.
    #[inline]
    fn threats_now(&mut self, x: Point) -> [u8; 4] {
        let (stamp, threats) = self.scratch.threats_now[x.index()];
        if stamp == self.scratch.stamp {
            return threats;
        }
        let threats = Dir::ALL.map(|d| self.m.threats_if_played(x, self.a, d));
        self.scratch.threats_now[x.index()] = (self.scratch.stamp, threats);
        threats
    }

    /// `thn(A)` once A plays the empty point `x`, when A has no live window but through `x`:
    /// the sum over the four directions of the threats of x's connection (capped at 3).
    #[inline]
    fn threats_through(&self, x: Point) -> u8 {
        thn_of_threats(Dir::ALL.map(|d| self.m.threats_if_played(x, self.a, d)))
    }

    /// The two-stone attacks whose first stone is `p` and second one of `seconds` (each
    /// unordered pair once, both in `r`), pushed onto `out`; with the complete rule, when `p`
    /// alone (`blocks_all`: it meets every live window of D) leaves thn(A) ≥ 2, also every pair
    /// of `p` and an empty point outside `r`. `near_live` is A's near-live candidates now.
    /// True when generation should stop (the first attack was asked for, a winning one with
    /// `win_only`, or the limits ended the search).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn attacks_from(
        &mut self,
        p: Point,
        seconds: PointSet,
        r: PointSet,
        w0: Option<Threat>,
        blocks_all: bool,
        near_live: PointSet,
        first_only: bool,
        win_only: bool,
        out: &mut Vec<Attack>,
    ) -> bool {
        let a = self.a;
        // A has no live window at an A-node: thn(A) once p is played is read in place.
        let alone = thn_of_threats(self.threats_now(p));
        // If p alone leaves A no live window, every live window after the pair passes
        // through q, and windows of different directions share no empty point (they meet
        // only at q). So thn(A) after the pair is the sum over the four directions of the
        // threats of q's connection once p and q are played, and q must lie in a window
        // one stone from live once p is played: neither stone is played. Otherwise p is
        // played and each q's thn read in place. With p alone at thn(A) = 1 the pair reaches 2
        // only by a live window that p's live windows lack, which holds q (the others are
        // p's, or fewer in the games of exactly k), so q again lies in a window one stone
        // from live once p is played.
        let through_q_only = alone == 0;
        let allowed = if alone <= 1 {
            let near_live = self
                .m
                .candidates_if_played(p, a, Level::NearLive, near_live);
            seconds.intersection(&near_live)
        } else {
            seconds
        };
        if !through_q_only {
            self.m.make(p, a);
        }
        let mut done = false;
        for q in allowed.iter() {
            // Each unordered pair once.
            let dup = match w0 {
                None => q <= p,
                Some(w) => q == p || (w.contains(q) && q < p),
            };
            if dup || !r.contains(q) {
                continue;
            }
            // Every pair examined is a node, played or evaluated in place.
            self.count_node();
            let t = if through_q_only {
                // q's connections are today's but in the direction of the line through p
                // and q, if any.
                let mut t = self.threats_now(q);
                let (dc, dr) = (
                    q.col() as isize - p.col() as isize,
                    q.row() as isize - p.row() as isize,
                );
                let shared = Dir::ALL.into_iter().find(|d| {
                    let (x, y) = d.delta();
                    dc * y == dr * x
                });
                if let Some(d) = shared {
                    t[d.index()] = self.m.threats_if_played_with(q, p, a, d);
                }
                thn_of_threats(t)
            } else {
                self.m.thn_if_played(q, a)
            };
            if t >= 2 {
                out.push(Attack {
                    p: p.min(q),
                    q: p.max(q),
                    thn: t,
                });
                done = first_only || (win_only && t >= 3);
            }
            if done || self.aborted {
                break;
            }
        }
        if self.complete && blocks_all && alone >= 2 && !done && !self.aborted {
            // The complete rule: p alone is an attack, so the second stone is free. A stone
            // outside R lies in no window of A with two stones, so it adds no live window:
            // thn(A) is p's alone.
            for q in self.m.board().game().points() {
                if q == p || r.contains(q) || !self.m.board().is_empty(q) {
                    continue;
                }
                self.count_node();
                out.push(Attack {
                    p: p.min(q),
                    q: p.max(q),
                    thn: alone,
                });
                if first_only || (win_only && alone >= 3) || self.aborted {
                    done = true;
                    break;
                }
            }
        }
        if !through_q_only {
            self.m.unmake();
        }
        done || self.aborted
    }
    /// The attacks of the current A-node, ordered; `None` if the limits ended the search.
    /// Generation stops at an attack leaving `thn(A) ≥ p + 1` (returned first, alone); with
    /// `first_only` at the first attack, unless the node's attacks are known.
    pub(super) fn ordered_attacks(
        &mut self,
        ply: usize,
        best: Option<(Point, Point)>,
        first_only: bool,
    ) -> Option<Vec<Attack>> {
        // Only pairs are worth keeping: a stone's fours are read without playing it.
        let key = (self.p == 2).then(|| self.m.zobrist());
        let known = key.and_then(|k| self.scratch.known_attacks.get(k));
        let mut attacks = match known {
            Some(known) => known.to_vec(),
            None => {
                let mut attacks = Vec::new();
                self.generate(first_only, true, &mut attacks);
                if self.aborted {
                    return None;
                }
                if let Some(k) = key.filter(|_| !first_only) {
                    self.scratch.known_attacks.insert(k, &attacks);
                }
                attacks
            }
        };
        if let Some(i) = attacks.iter().position(|x| x.thn > self.p) {
            attacks.swap(0, i);
            attacks.truncate(1);
            return Some(attacks);
        }
        // Every attack leaves thn(A) ≥ p, and none more here.
        debug_assert!(attacks.iter().all(|x| x.thn == self.p));
        self.order_by(self.a, &mut attacks, |x| (x.p, x.q), ply, best);
        Some(attacks)
    }
}

/// The attack lists of recently expanded A-nodes of the games of two stones a move, by
/// position key. Iterative deepening expands every A-node of an iteration again in the next
/// one, with one round more, and generating the pairs (a stone played and taken back for each
/// candidate) was most of Connect6's search time: keeping them made the W28 set about 1.14×
/// faster (median of 7 interleaved runs). In the games of one stone a move a stone's fours are
/// read without playing it, and keeping the lists made the VCF benchmark 1.2× slower. A list is a function of the position alone within one search (the
/// attacker and the rules are the search's), so a list kept is a list generated. The lists in
/// generation order; the search orders them at each visit as it would a fresh one. At most
/// [`KnownAttacks::CAPACITY`] lists are kept; when full, it starts afresh.
#[derive(Default)]
pub(super) struct KnownAttacks {
    lists: fxhash::FxHashMap<u64, Box<[Attack]>>,
}

impl KnownAttacks {
    /// The most lists kept.
    const CAPACITY: usize = 1 << 15;

    fn get(&self, key: u64) -> Option<&[Attack]> {
        self.lists.get(&key).map(|l| &l[..])
    }

    /// Empty for a new search (a large map is let go rather than cleared: clearing touches
    /// every slot).
    pub(super) fn clear(&mut self) {
        if self.lists.capacity() > 1 << 10 {
            self.lists = Default::default();
        } else {
            self.lists.clear();
        }
    }

    fn insert(&mut self, key: u64, attacks: &[Attack]) {
        if self.lists.len() >= Self::CAPACITY {
            self.lists.clear();
        }
        self.lists.insert(key, attacks.into());
    }
}

/// `thn` from the threats of one point's connections in the four directions, when every live
/// window passes through that point (windows of different directions share no empty point
/// there): their sum, capped at 3 as `thn` is.
#[inline]
fn thn_of_threats(threats: [u8; 4]) -> u8 {
    threats.iter().sum::<u8>().min(3)
}
