//! Whole moves for the engine: the stones a side may play now, best first by the points'
//! values. When the opponent has live windows, only moves that hit all of them are generated
//! (any other move loses at once); otherwise the best empty points and pairs of them.

use super::eval::Params;
use crate::geom::{Color, Point, PointSet};
use crate::model::{blocking_pairs, blocking_points, cover_number, Level, Model, Threat};
use crate::renju;

/// A move: its stones (one or two) and its ordering value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The stones, ascending.
    pub stones: Vec<Point>,
    /// Sum of the stones' point values.
    pub value: i32,
}

/// What the side to move may do.
pub enum Moves {
    /// The opponent has more live windows than one move can block: every move loses.
    Lost,
    /// Candidate moves, best first (never empty on a board with room).
    Some(Vec<Move>),
}

/// May `side` put a stone on `p`: empty and, in Renju, not forbidden to black?
pub fn playable<M: Model>(m: &M, side: Color, p: Point) -> bool {
    m.board().is_empty(p) && !(renju::applies(m.game(), side) && renju::is_forbidden(m.board(), p))
}

/// Empty points near the stones (within two points), or the centre on an empty board, that
/// `side` may play (Renju: black's forbidden points left out), ranked by value.
fn ranked_points<M: Model>(m: &M, side: Color, params: &Params) -> Vec<(Point, i32)> {
    let board = m.board();
    let game = board.game();
    let mut near = PointSet::EMPTY;
    for (s, _) in board.iter() {
        for dc in -2..=2isize {
            for dr in -2..=2isize {
                let (c, r) = (s.col() as isize + dc, s.row() as isize + dr);
                if let (Ok(c), Ok(r)) = (usize::try_from(c), usize::try_from(r)) {
                    match Point::new(c, r) {
                        Some(q) if game.contains(q) => near.insert(q),
                        _ => {}
                    }
                }
            }
        }
    }
    if board.stones() == 0 {
        return vec![(game.center(), 0)];
    }
    let mut pts: Vec<(Point, i32)> = near
        .iter()
        .filter(|&p| playable(m, side, p))
        .map(|p| (p, params.point_value(m, p, side)))
        .collect();
    if pts.is_empty() {
        pts = game
            .points()
            .filter(|&p| playable(m, side, p))
            .map(|p| (p, 0))
            .collect();
    }
    pts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    pts
}

/// The moves of `n` stones (1 or 2) for `side`.
pub fn generate<M: Model>(m: &M, side: Color, n: usize, params: &Params) -> Moves {
    let mut windows: Vec<Threat> = Vec::new();
    m.live_windows(side.opponent(), &mut windows);
    let ranked = ranked_points(m, side, params);
    let value = |p: Point| ranked.iter().find(|r| r.0 == p).map_or(0, |r| r.1);
    let mut moves: Vec<Move> = Vec::new();
    if !windows.is_empty() {
        let need = cover_number(&windows) as usize;
        if need > n {
            return Moves::Lost;
        }
        if need == 1 {
            for x in blocking_points(&windows)
                .into_iter()
                .filter(|&x| playable(m, side, x))
            {
                if n == 1 {
                    moves.push(single(x, value(x)));
                } else {
                    let partners = ranked.iter().filter(|r| r.0 != x).take(params.width);
                    moves.extend(partners.map(|&(y, v)| pair(x, y, value(x) + v)));
                }
            }
        } else {
            for (x, y) in blocking_pairs(&windows) {
                if playable(m, side, x) && playable(m, side, y) {
                    moves.push(pair(x, y, value(x) + value(y)));
                }
            }
        }
        if moves.is_empty() {
            return Moves::Lost;
        }
    } else {
        let top = &ranked[..ranked.len().min(params.width)];
        // One point left: a single stone, even when two are due.
        moves = combinations(top, if top.len() < 2 { 1 } else { n });
    }
    moves.sort_by(|a, b| b.value.cmp(&a.value).then(a.stones.cmp(&b.stones)));
    moves.dedup_by(|a, b| a.stones == b.stones);
    if n == 2 {
        moves.truncate(params.pairs);
    }
    Moves::Some(moves)
}

fn single(p: Point, value: i32) -> Move {
    Move {
        stones: vec![p],
        value,
    }
}

fn pair(x: Point, y: Point, value: i32) -> Move {
    Move {
        stones: if x < y { vec![x, y] } else { vec![y, x] },
        value,
    }
}

/// Moves of `n` stones for `side` that put at least one stone on `key` (points the opponent
/// needs): each key point with each of the best points, and pairs of key points; best first.
pub fn through<M: Model>(
    m: &M,
    side: Color,
    n: usize,
    key: &[Point],
    params: &Params,
) -> Vec<Move> {
    let ranked = ranked_points(m, side, params);
    let value = |p: Point| ranked.iter().find(|r| r.0 == p).map_or(0, |r| r.1);
    let key: Vec<Point> = key
        .iter()
        .copied()
        .filter(|&p| playable(m, side, p))
        .collect();
    let mut moves = Vec::new();
    for (i, &x) in key.iter().enumerate() {
        if n == 1 {
            moves.push(single(x, value(x)));
            continue;
        }
        for &y in &key[i + 1..] {
            moves.push(pair(x, y, value(x) + value(y)));
        }
        let partners = ranked.iter().filter(|r| r.0 != x).take(params.width / 2);
        moves.extend(partners.map(|&(y, v)| pair(x, y, value(x) + v)));
    }
    moves.sort_by(|a, b| b.value.cmp(&a.value).then(a.stones.cmp(&b.stones)));
    moves.dedup_by(|a, b| a.stones == b.stones);
    moves.truncate(params.pairs);
    moves
}

/// Every move of `n` stones (1 or 2) among `points` (with their values): the single points,
/// or each pair once.
fn combinations(points: &[(Point, i32)], n: usize) -> Vec<Move> {
    if n == 1 {
        return points.iter().map(|&(p, v)| single(p, v)).collect();
    }
    let mut moves = Vec::new();
    for (i, &(x, vx)) in points.iter().enumerate() {
        moves.extend(points[i + 1..].iter().map(|&(y, vy)| pair(x, y, vx + vy)));
    }
    moves
}

/// Moves of `n` stones for `side` that make a live window of its own (the opponent must
/// answer them, which may stop its attack): pairs of the points of `side`'s attack windows
/// (one point when `n` is 1), most live windows first, then by value; at most `pairs`.
pub fn counter_threats<M: Model>(m: &mut M, side: Color, n: usize, params: &Params) -> Vec<Move> {
    let points: Vec<(Point, i32)> = m
        .candidates(side, Level::Attack)
        .iter()
        .filter(|&p| playable(m, side, p))
        .map(|p| (p, params.point_value(m, p, side)))
        .collect();
    let mut found: Vec<(u8, Move)> = Vec::new();
    for mv in combinations(&points, n) {
        for &p in &mv.stones {
            m.make(p, side);
        }
        let threats = m.thn(side);
        for _ in &mv.stones {
            m.unmake();
        }
        if threats > 0 {
            found.push((threats, mv));
        }
    }
    found.sort_by(|a, b| {
        (b.0, b.1.value)
            .cmp(&(a.0, a.1.value))
            .then(a.1.stones.cmp(&b.1.stones))
    });
    found.into_iter().map(|f| f.1).take(params.pairs).collect()
}
