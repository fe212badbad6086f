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
use crate::geom::{Color, Dir, Point, PointSet};
use crate::prove::tree::{Reply, ThreatProof};
use crate::renju;
use crate::search::proof::ProofNode;

/// Z(`proof`) for attacker `a` on `board` (A to move), read from the stones alone (no model,
/// no knowledge base).
pub fn zone(board: &Board, a: Color, proof: &ProofNode) -> PointSet {
    zone_against(board, a, proof, 1)
}

/// Z(`proof`) against `moves` defender moves outside it (each of at most p stones): item 3
/// takes the windows holding k − (`moves` + 1)·p of D's stones at an attack node, k − `moves`·p
/// at one that completes the row. [`zone`] is one move; a quiet move's zone (below) is two.
pub fn zone_against(board: &Board, a: Color, proof: &ProofNode, moves: usize) -> PointSet {
    let mut z = PointSet::EMPTY;
    add(&mut board.clone(), a, proof, moves, &mut z);
    z
}

/// Add the zone of the subtree `node` (A to move on `b`) against `moves` outside moves to
/// `z`; `b` is left as it was.
fn add(b: &mut Board, a: Color, node: &ProofNode, moves: usize, z: &mut PointSet) {
    let (k, p) = (b.game().k(), b.game().p());
    let d = a.opponent();
    match node {
        ProofNode::Six { six } => {
            // Nothing is asked of D here but that it has not completed a row: only its
            // windows that the outside stones complete matter.
            windows(b, d, k.saturating_sub(moves * p), z);
            six.iter().for_each(|&x| z.insert(x));
        }
        ProofNode::Attack { attack, defenses } => {
            windows(b, d, k.saturating_sub((moves + 1) * p), z);
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
                add(b, a, &defense.next, moves, z);
                defense.stones.iter().for_each(|&x| b.set(x, None));
            }
            attack.iter().for_each(|&x| b.set(x, None));
        }
    }
}

/// The zone of a quiet move's pass proof `proof` (A to move on `board`): a defender move M
/// outside it, played before A's first move, leaves `proof` a proof (`docs/search.md`, "The
/// zone of a quiet move"). It is the union, over the nodes of `proof`, of
///
/// - every point it plays, for A and for D (and in Renju the points A's threat and quiet
///   stones' forbidden checks read, when A is black);
/// - at each leaf and each threat's pass win, that proof's zone against one move more than
///   the outside moves the node must withstand ([`zone_against`]): M, and every reply a quiet
///   move above it left out; a reply R the search left out at a threat lies outside the pass
///   win's zone against one move, and M and R together, each outside their zones, can
///   neither make a live window of D nor complete its row;
/// - at each quiet move inside, the zone of its own pass proof, against one more move (the
///   replies that quiet move left out);
/// - in Renju, when D is black, the points read by the forbidden check of every point of a
///   threat's or quiet move's zone that D could not play (an outside black stone could make
///   one playable).
///
/// A node the argument does not cover (a two-stone defence) gives every empty point: nothing
/// is left out that the argument does not cover.
pub fn threat_zone(board: &Board, a: Color, proof: &ThreatProof) -> PointSet {
    let mut z = PointSet::EMPTY;
    match add_threats(&mut board.clone(), a, proof, 1, &mut z) {
        Some(()) => z,
        None => empty_points(board),
    }
}

/// Every empty point of `b`.
pub(crate) fn empty_points(b: &Board) -> PointSet {
    b.game().points().filter(|&x| b.is_empty(x)).collect()
}

/// Add the zone of `node` (A to move on `b`) against `moves` outside moves to `z`; `None`
/// when it is of a kind [`threat_zone`] does not cover. `b` is left as it was.
fn add_threats(
    b: &mut Board,
    a: Color,
    node: &ThreatProof,
    moves: usize,
    z: &mut PointSet,
) -> Option<()> {
    let d = a.opponent();
    let (stones, replies) = match node {
        ThreatProof::Leaf { leaf } => {
            add(b, a, leaf, moves + 1, z);
            return Some(());
        }
        ThreatProof::Threat {
            threat, replies, ..
        } => (threat, replies),
        ThreatProof::Quiet { quiet, replies, .. } => (quiet, replies),
        ThreatProof::Defence { .. } => return None,
    };
    for &x in stones {
        if renju::applies(b.game(), a) {
            renju::forbidden_reading(b, x, z);
        }
        z.insert(x);
        b.set(x, Some(a));
    }
    // The zone of the node's pass win against one more outside move.
    let mut done = match node {
        ThreatProof::Threat { pass, .. } => {
            add(b, a, pass, moves + 1, z);
            Some(())
        }
        ThreatProof::Quiet { pass, .. } => add_threats(b, a, pass, moves + 1, z),
        _ => unreachable!("a threat or a quiet move"),
    };
    if renju::applies(b.game(), d) {
        // The node's own zone (the replies it answered), for the points black could not play.
        let own = match node {
            ThreatProof::Threat { pass, .. } => zone(b, a, pass),
            ThreatProof::Quiet { pass, .. } => {
                let mut own = PointSet::EMPTY;
                add_threats(b, a, pass, 1, &mut own).map_or(PointSet::EMPTY, |()| own)
            }
            _ => unreachable!("a threat or a quiet move"),
        };
        for x in own.iter().filter(|&x| b.is_empty(x)) {
            let mut read = PointSet::EMPTY;
            if renju::forbidden_reading(b, x, &mut read).is_some() {
                *z = z.union(&read);
            }
        }
    }
    for reply in replies {
        if done.is_none() {
            break;
        }
        let Reply::Move { stones, next } = reply else {
            done = None;
            break;
        };
        stones.iter().for_each(|&x| {
            z.insert(x);
            b.set(x, Some(d));
        });
        done = add_threats(b, a, next, moves, z);
        stones.iter().for_each(|&x| b.set(x, None));
    }
    stones.iter().for_each(|&x| b.set(x, None));
    done
}

/// Add to `z` the empty points of every window of `c` on `b` (k points in a line, none of the
/// opponent's stones) that holds at least `min` stones of `c`.
fn windows(b: &Board, c: Color, min: usize, z: &mut PointSet) {
    let on_line = |stones: [usize; 2]| stones[c.index()] >= min;
    for_each_window(b, on_line, |cells, stones| {
        if stones[c.opponent().index()] == 0 && stones[c.index()] >= min {
            cells
                .iter()
                .filter(|&&x| b.is_empty(x))
                .for_each(|&x| z.insert(x));
        }
    });
}

/// Call `f` with every window of `b`'s game (k consecutive points of a line, in line order)
/// and the stones of each colour in it (by [`Color::index`]), on the lines whose stones of
/// each colour `on_line` accepts (a window holds no more of them than its line). The counts
/// slide along each line a point at a time: the zone of every pass proof and the threat moves
/// of every node read the windows, and counting each window afresh on every line was a fifth
/// of a Gomoku proof search's time.
pub(crate) fn for_each_window(
    b: &Board,
    on_line: impl Fn([usize; 2]) -> bool,
    mut f: impl FnMut(&[Point], [usize; 2]),
) {
    let (k, geometry) = (b.game().k(), b.game().geometry());
    // Line ids are a `u8` (`LineSlot::line`).
    let mut per_line = [[0; 2]; 256];
    for (x, c) in b.iter() {
        for dir in Dir::ALL {
            if let Some(slot) = geometry.slot(x, dir) {
                per_line[slot.line as usize][c.index()] += 1;
            }
        }
    }
    for (line, &stones) in geometry.lines.iter().zip(&per_line) {
        if !on_line(stones) {
            continue;
        }
        let points = &line.points[..line.len as usize];
        let mut stones = [0; 2];
        for (i, &x) in points.iter().enumerate() {
            if let Some(c) = b.get(x) {
                stones[c.index()] += 1;
            }
            if i >= k {
                if let Some(c) = b.get(points[i - k]) {
                    stones[c.index()] -= 1;
                }
            }
            if i + 1 >= k {
                f(&points[i + 1 - k..=i], stones);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;

    /// The definition: every window of k points in a line, counted afresh.
    fn windows_by_definition(b: &Board, c: Color, min: usize) -> PointSet {
        let mut z = PointSet::EMPTY;
        let k = b.game().k();
        for line in &b.game().geometry().lines {
            for cells in line.points[..line.len as usize].windows(k) {
                let own = cells.iter().filter(|&&x| b.get(x) == Some(c)).count();
                let blocked = cells.iter().any(|&x| b.get(x) == Some(c.opponent()));
                if !blocked && own >= min {
                    cells
                        .iter()
                        .filter(|&&x| b.is_empty(x))
                        .for_each(|&x| z.insert(x));
                }
            }
        }
        z
    }

    proptest! {
        #[test]
        fn sliding_windows_are_the_windows_counted_afresh(
            game in 0..4usize,
            stones in proptest::collection::vec((0..400usize, any::<bool>()), 0..120),
            min in 0..9usize,
        ) {
            let game = [
                Game::CONNECT6,
                Game::RENJU,
                Game::connect(9, 9, 5, 1, 1).unwrap(),
                Game::connect(8, 7, 4, 2, 1).unwrap(),
            ][game];
            let mut b = Board::new(game);
            let points: Vec<Point> = game.points().collect();
            for (i, black) in stones {
                let colour = if black { Color::Black } else { Color::White };
                b.set(points[i % points.len()], Some(colour));
            }
            for c in [Color::Black, Color::White] {
                let mut z = PointSet::EMPTY;
                windows(&b, c, min, &mut z);
                prop_assert_eq!(z, windows_by_definition(&b, c, min));
            }
        }
    }
}
