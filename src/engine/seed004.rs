//! The baseline player `seed004`: the Gomoku program of thesis 004 (a Gomoku/Renju program:
//! line pattern scores, minimax with alpha-beta), as a yardstick (`docs/engine.md`, "Baseline
//! players").
//!
//! * **Evaluation** (thesis §3.1): the board is scored line by line (rows, columns and the
//!   diagonals at least five long), `h = Σ h_c(line) − h_m(line)`, the side's pattern scores
//!   minus the opponent's. A line scores its maximal runs of one colour: a five (a winning row
//!   under the game's rule) [`FIVE`], an open four (both ends empty) [`OPEN_FOUR`], a four
//!   with one end empty [`FOUR`], an open three [`THREE`], an open two [`TWO`], an open one
//!   [`ONE`] — the runs of 1 to 4 only when no opponent stone or edge leaves them less than
//!   five points of room. Other runs (dead threes and twos, broken shapes) score nothing, as
//!   in the thesis's table.
//! * **Search** (§3.2): minimax with alpha-beta pruning, [`DEPTH`] plies (computer, opponent,
//!   computer: the thesis's example and its "three steps ahead"), the static evaluation at the
//!   leaves; a move that makes five ends its branch as a win (sooner wins score higher).
//! * **Forbidden points** (§3.4): in Renju black never plays a forbidden point, neither at the
//!   root nor inside the search (the thesis leaves such points out of the score table and
//!   counts them as a loss); the project's Renju rules decide them.
//!
//! Deviation, for speed: the thesis generates every empty point of the board in order; the
//! candidates here are the empty points within two of a stone (the centre on an empty board),
//! ordered by how much the point changes the evaluation for either side (a better order only
//! makes the alpha-beta prune more; with no time limit the answer is the minimax one). Time
//! limits are ignored; a move takes milliseconds.

use super::eval::WIN;
use super::{Choice, Limits, Player, Verdict};
use crate::geom::{ByColor, Color, Dir, Point, PointSet};
use crate::{renju, Board, Game, Position};
use std::time::Instant;

/// An open one (thesis 004: `+++*++`).
pub const ONE: i32 = 10;
/// An open two (`++**++`).
pub const TWO: i32 = 100;
/// An open three (`+***++`).
pub const THREE: i32 = 1_000;
/// A four with one end blocked (`O****+`).
pub const FOUR: i32 = 10_000;
/// An open four (`+****+`).
pub const OPEN_FOUR: i32 = 50_000;
/// Five in a row.
pub const FIVE: i32 = 100_000;

/// Plies of the alpha-beta search (thesis 004: three).
pub const DEPTH: u32 = 3;

/// The row length the scores are written for.
const K: usize = 5;

/// Does `seed004` play `game`? Five in a row, one stone a move (Gomoku, standard Gomoku,
/// Renju, on any board size).
pub fn supports(game: &Game) -> bool {
    game.k() == K && game.p() == 1
}

/// The score of colour `c`'s runs in the points of one line.
pub fn line_score(board: &Board, points: &[Point], c: Color) -> i32 {
    let game = board.game();
    let mut total = 0;
    for r in board.runs(points, c) {
        if r.len >= K {
            if game.wins(c, r.len) {
                total += FIVE;
            }
            continue;
        }
        if !r.has_room(K) {
            continue;
        }
        let open_ends = usize::from(r.start > 0 && board.is_empty(points[r.start - 1]))
            + usize::from(r.end() < points.len() && board.is_empty(points[r.end()]));
        total += match (r.len, open_ends) {
            (4, 2) => OPEN_FOUR,
            (4, 1) => FOUR,
            (3, 2) => THREE,
            (2, 2) => TWO,
            (1, 2) => ONE,
            _ => 0,
        };
    }
    total
}

/// The static evaluation of `board` for `side` (thesis 004, §3.1).
pub fn evaluate(board: &Board, side: Color) -> i32 {
    let mut h = 0;
    for line in &board.game().geometry().lines {
        let points = &line.points[..line.len as usize];
        h += line_score(board, points, side) - line_score(board, points, side.opponent());
    }
    h
}

/// The search state: the board, each line's scores per colour and their totals.
struct Search {
    board: Board,
    lines: Vec<ByColor<i32>>,
    total: ByColor<i32>,
    nodes: u64,
}

impl Search {
    fn new(board: Board) -> Search {
        let geo = board.game().geometry();
        let lines: Vec<ByColor<i32>> = geo
            .lines
            .iter()
            .map(|l| ByColor::new(|c| line_score(&board, &l.points[..l.len as usize], c)))
            .collect();
        let total = ByColor::new(|c| lines.iter().map(|l| l[c]).sum());
        Search {
            board,
            lines,
            total,
            nodes: 0,
        }
    }

    /// Set `p` and rescore its lines.
    fn set(&mut self, p: Point, stone: Option<Color>) {
        self.board.set(p, stone);
        let geo = self.board.game().geometry();
        for dir in Dir::ALL {
            let Some(slot) = geo.slot(p, dir) else {
                continue;
            };
            let line = &geo.lines[slot.line as usize];
            let points = &line.points[..line.len as usize];
            for c in Color::ALL {
                let new = line_score(&self.board, points, c);
                self.total[c] += new - self.lines[slot.line as usize][c];
                self.lines[slot.line as usize][c] = new;
            }
        }
    }

    fn eval(&self, side: Color) -> i32 {
        self.total[side] - self.total[side.opponent()]
    }

    /// May `side` play the empty point `p` (Renju: black not on a forbidden point)?
    fn playable(&self, side: Color, p: Point) -> bool {
        if !self.board.is_empty(p) {
            return false;
        }
        if !renju::applies(self.board.game(), side) {
            return true;
        }
        // Every forbidden shape needs at least four other black stones within four points
        // on p's lines; skip the full check when there are fewer.
        let game = *self.board.game();
        let near: usize = Dir::ALL
            .iter()
            .map(|&d| {
                (-4..=4isize)
                    .filter(|&s| s != 0)
                    .filter_map(|s| game.step(p, d, s))
                    .filter(|&q| self.board.get(q) == Some(Color::Black))
                    .count()
            })
            .sum();
        near < 4 || !renju::is_forbidden(&self.board, p)
    }

    /// The moves of `side`, best first by how much the point changes the evaluation for
    /// either side.
    fn moves(&mut self, side: Color) -> Vec<Point> {
        let game = *self.board.game();
        if self.board.stones() == 0 {
            return vec![game.center()];
        }
        let mut near = PointSet::EMPTY;
        for (s, _) in self.board.iter() {
            for d in Dir::ALL {
                for step in -2..=2isize {
                    if let Some(q) = game.step(s, d, step) {
                        near.insert(q);
                    }
                }
            }
            // The knight-like points within two that no line through `s` reaches.
            for (dc, dr) in [(1, 2), (2, 1), (-1, 2), (-2, 1)] {
                for sign in [1isize, -1] {
                    let (c, r) = (s.col() as isize + sign * dc, s.row() as isize + sign * dr);
                    if let (Ok(c), Ok(r)) = (usize::try_from(c), usize::try_from(r)) {
                        if let Some(q) = Point::new(c, r).filter(|&q| game.contains(q)) {
                            near.insert(q);
                        }
                    }
                }
            }
        }
        let mut pts: Vec<Point> = near.iter().filter(|&p| self.playable(side, p)).collect();
        if pts.is_empty() {
            pts = game.points().filter(|&p| self.playable(side, p)).collect();
        }
        let mut ranked: Vec<(i32, Point)> = pts
            .into_iter()
            .map(|p| {
                let mut gain = 0;
                for c in [side, side.opponent()] {
                    let before = self.eval(c);
                    self.set(p, Some(c));
                    gain += self.eval(c) - before;
                    self.set(p, None);
                }
                (-gain, p)
            })
            .collect();
        ranked.sort();
        ranked.into_iter().map(|r| r.1).collect()
    }

    /// Negamax with alpha-beta: the value of the position for `side` to move.
    fn search(&mut self, side: Color, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return self.eval(side);
        }
        let moves = self.moves(side);
        if moves.is_empty() {
            return self.eval(side);
        }
        let mut best = -WIN;
        for p in moves {
            let v = self.value_of(p, side, depth, alpha, beta, ply);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The value for `side` of playing `p`.
    fn value_of(
        &mut self,
        p: Point,
        side: Color,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.set(p, Some(side));
        let v = if self.board.win_through(p, side).is_some() {
            self.nodes += 1;
            WIN - ply - 1
        } else if self.board.stones() == self.board.game().point_count() {
            0
        } else {
            -self.search(side.opponent(), depth - 1, -beta, -alpha, ply + 1)
        };
        self.set(p, None);
        v
    }
}

/// The player.
#[derive(Default)]
pub struct Seed004;

impl Player for Seed004 {
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice {
        let start = Instant::now();
        let side = pos.to_move();
        let depth = limits.depth.unwrap_or(DEPTH).clamp(1, 5);
        let mut s = Search::new(pos.board().clone());
        let moves = s.moves(side);
        let mut best: Option<(Point, i32)> = None;
        let mut alpha = -WIN - 1;
        for p in moves {
            let v = s.value_of(p, side, depth, alpha, WIN + 1, 0);
            if best.is_none_or(|b| v > b.1) {
                best = Some((p, v));
            }
            alpha = alpha.max(v);
        }
        let (stones, eval) = match best {
            Some((p, v)) => (vec![p], v),
            // No legal point (a board full but for black's forbidden points): nothing to say.
            None => (Vec::new(), -WIN),
        };
        Choice {
            pv: vec![stones.clone()],
            verdict: if eval >= WIN - 1 {
                Verdict::Win(0)
            } else {
                Verdict::Open
            },
            stones,
            eval,
            depth,
            nodes: s.nodes,
            time: start.elapsed(),
            proof: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_the_theses() {
        assert_eq!(
            [ONE, TWO, THREE, FOUR, OPEN_FOUR, FIVE],
            [10, 100, 1_000, 10_000, 50_000, 100_000]
        );
        assert_eq!(DEPTH, 3);
    }

    #[test]
    fn lines_score_their_runs() {
        let game = Game::GOMOKU;
        let p = |s: &str| game.parse_point(s).unwrap();
        let mut b = Board::new(game);
        for s in ["E8", "F8", "G8"] {
            b.set(p(s), Some(Color::Black));
        }
        // An open three across, three lone stones in three directions each.
        assert_eq!(evaluate(&b, Color::Black), THREE + 9 * ONE);
        b.set(p("H8"), Some(Color::Black));
        b.set(p("D8"), Some(Color::White));
        // A four blocked on one side and twelve ones; white's stone is an open one in three
        // directions (across, the black four leaves it four points of room: nothing).
        assert_eq!(evaluate(&b, Color::Black), FOUR + 12 * ONE - 3 * ONE);
    }
}
