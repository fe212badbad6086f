//! The relevance zone Z(P) of a threat proof P (Wu & Lin's RZOP, 2010; the argument is in
//! `docs/search.md`, "The relevance zone").
//!
//! P proves that A, to move, wins. Z(P) is a set of points such that a defender's move whose
//! stones all lie outside it, played *before* A's first move (where a proof search asks "what if
//! the defender does not pass?"), leaves P a proof as it stands. It is the union, over every
//! node of P, of
//!
//! 1. the points P plays for A (its attacks and the stones that complete the row);
//! 2. the empty points of A's live windows after each attack (so the defender's extra stones
//!    change neither A's threats nor which defences block them);
//! 3. the empty points of every window of the defender that holds no stone of A and at least
//!    k − 2p of the defender's stones at an attack node (the only windows that p more stones
//!    could make live), k − p at a node that completes the row (the only ones they could
//!    complete).
//!
//! 4. in Renju, the points that black's forbidden points P relies on are read from: for black
//!    as A, the points each attack's check reads ([`renju::forbidden_reading`]: its lines
//!    within k, and those of the points its recursion examines); for black as D, those of
//!    every forbidden point among the empty points of A's live windows after an attack (a
//!    blocking point D may not play, which P therefore does not answer). An outside stone
//!    leaves every such check reading the same points, so answering the same.
//!
//! The defences of P are not in it: a defence an outside stone occupies can no longer be
//! played (nor one it makes forbidden), and the ones still possible are all in P.

use crate::board::Board;
use crate::geom::{Color, Point, PointSet};
use crate::renju;
use crate::search::proof::ProofNode;

/// Z(`proof`) for attacker `a` on `board` (A to move), read from the stones alone (no model,
/// no knowledge base).
pub fn zone(board: &Board, a: Color, proof: &ProofNode) -> PointSet {
    let mut z = PointSet::EMPTY;
    add(&mut board.clone(), a, proof, &mut z);
    z
}

/// Add the zone of the subtree `node` (A to move on `b`) to `z`; `b` is left as it was.
fn add(b: &mut Board, a: Color, node: &ProofNode, z: &mut PointSet) {
    let (k, p) = (b.game().k(), b.game().p());
    let d = a.opponent();
    match node {
        ProofNode::Six { six } => {
            // Nothing is asked of D here but that it has not completed a row: only its
            // windows that p stones complete matter.
            windows(b, d, k - p, z);
            six.iter().for_each(|&x| z.insert(x));
        }
        ProofNode::Attack { attack, defenses } => {
            windows(b, d, k.saturating_sub(2 * p), z);
            for &x in attack {
                if renju::applies(b.game(), a) {
                    renju::forbidden_reading(b, x, z);
                }
                z.insert(x);
                b.set(x, Some(a));
            }
            // A's live windows, and more (those that would not win once filled, in the
            // games of exactly k, are taken too).
            let mut blocks = PointSet::EMPTY;
            windows(b, a, k - p, &mut blocks);
            if renju::applies(b.game(), d) {
                // The blocking points forbidden to black: P need not answer them.
                for x in blocks.iter() {
                    let mut read = PointSet::EMPTY;
                    if renju::forbidden_reading(b, x, &mut read).is_some() {
                        *z = z.union(&read);
                    }
                }
            }
            *z = z.union(&blocks);
            for defense in defenses {
                defense.stones.iter().for_each(|&x| b.set(x, Some(d)));
                add(b, a, &defense.next, z);
                defense.stones.iter().for_each(|&x| b.set(x, None));
            }
            attack.iter().for_each(|&x| b.set(x, None));
        }
    }
}

/// Add to `z` the empty points of every window of `c` on `b` (k points in a line, none of the
/// opponent's stones) that holds at least `min` stones of `c`.
fn windows(b: &Board, c: Color, min: usize, z: &mut PointSet) {
    for_each_window(b, |cells| {
        let (own, blocked) = count(b, c, cells);
        if !blocked && own >= min {
            cells
                .iter()
                .filter(|&&x| b.is_empty(x))
                .for_each(|&x| z.insert(x));
        }
    });
}

/// Call `f` with every window of `b`'s game: k consecutive points of a line, in line order.
pub(crate) fn for_each_window(b: &Board, mut f: impl FnMut(&[Point])) {
    let k = b.game().k();
    for line in &b.game().geometry().lines {
        let points = &line.points[..line.len as usize];
        points.windows(k).for_each(&mut f);
    }
}

/// The stones of `c` in `cells`, and whether the opponent has one there.
pub(crate) fn count(b: &Board, c: Color, cells: &[Point]) -> (usize, bool) {
    let mut own = 0;
    let mut blocked = false;
    for &x in cells {
        match b.get(x) {
            Some(s) if s == c => own += 1,
            Some(_) => blocked = true,
            None => {}
        }
    }
    (own, blocked)
}
