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
pub fn generate<M: Model>(m: &mut M, side: Color, n: usize, params: &Params) -> Moves {
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
            for x in blocking_points(&windows).filter(|&x| playable(m, side, x)) {
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
    } else if n == 1 || ranked.len() < 2 {
        // One point left: a single stone, even when two are due.
        let top = &ranked[..ranked.len().min(params.width)];
        moves = combinations(top, 1);
    } else if params.partners == 0 {
        moves = combinations(&ranked[..ranked.len().min(params.width)], 2);
    } else {
        moves = conditional_pairs(m, side, &ranked, params);
    }
    best_first(&mut moves);
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

/// Pairs for a quiet position: each of the `width` best points with the `partners` best
/// second stones valued with the first one on the board (so two stones that build or block
/// together are seen together), valued by the sum. (`partners` 0: the pairs of the `width`
/// best points valued one by one.)
fn conditional_pairs<M: Model>(
    m: &mut M,
    side: Color,
    ranked: &[(Point, i32)],
    params: &Params,
) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut second: Vec<(i32, Point)> = Vec::with_capacity(ranked.len());
    for &(x, vx) in &ranked[..ranked.len().min(params.width)] {
        m.make(x, side);
        second.clear();
        second.extend(
            ranked
                .iter()
                .filter(|r| r.0 != x)
                .map(|&(y, _)| (-params.point_value(m, y, side), y)),
        );
        m.unmake();
        second.sort_unstable();
        let best = second.iter().take(params.partners);
        moves.extend(best.map(|&(vy, y)| pair(x, y, vx - vy)));
    }
    moves
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
    best_first(&mut moves);
    moves.dedup_by(|a, b| a.stones == b.stones);
    moves.truncate(params.pairs);
    moves
}

/// Every move of `n` stones for `side` among its `k` best points, best first.
pub fn wide<M: Model>(m: &M, side: Color, n: usize, k: usize, params: &Params) -> Vec<Move> {
    let ranked = ranked_points(m, side, params);
    let mut moves = combinations(&ranked[..k.min(ranked.len())], n);
    best_first(&mut moves);
    moves
}

/// Sort `moves` by value, best first (ties by their stones, so the order is the same on every
/// run).
fn best_first(moves: &mut [Move]) {
    moves.sort_by(|a, b| b.value.cmp(&a.value).then(a.stones.cmp(&b.stones)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cpbim, Game, Position};

    #[test]
    fn quiet_pairs_value_the_second_stone_with_the_first_on_the_board() {
        // Black J10 K10 L10 against white's scattered stones; black to move, two stones.
        let game = Game::CONNECT6;
        let pts: Vec<Point> = "J10 C3 D16 K10 L10 Q3 Q16"
            .split_whitespace()
            .map(|s| game.parse_point(s).unwrap())
            .collect();
        let pos = Position::from_stones(game, &pts).unwrap();
        assert_eq!(pos.to_move(), Color::Black);
        let mut m = Cpbim::from_board(pos.board());
        let params = Params::default();
        let Moves::Some(moves) = generate(&mut m, Color::Black, 2, &params) else {
            panic!("black has moves");
        };
        assert!(moves.len() <= params.pairs);
        // The best pair extends the row to five: two live windows, a won game.
        let best = &moves[0];
        for &p in &best.stones {
            m.make(p, Color::Black);
        }
        assert!(m.thn(Color::Black) >= 2, "{:?}", best.stones);
        for _ in &best.stones {
            m.unmake();
        }
        // Each pair's value is the first stone's plus the second's with the first played.
        for mv in &moves {
            let [x, y] = [mv.stones[0], mv.stones[1]];
            let with = |a: Point, b: Point, m: &mut Cpbim| {
                let va = params.point_value(m, a, Color::Black);
                m.make(a, Color::Black);
                let vb = params.point_value(m, b, Color::Black);
                m.unmake();
                va + vb
            };
            let both = [with(x, y, &mut m), with(y, x, &mut m)];
            assert!(
                both.contains(&mv.value),
                "{:?}: {} not in {both:?}",
                mv.stones,
                mv.value
            );
        }
    }
}
