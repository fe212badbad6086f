//! The baseline player `seed000`: the Connect6 playing system of thesis 000 (Li Cuizhu,
//! Connect6 playing system), as a yardstick (`docs/engine.md`, "Baseline players").
//!
//! * **Empty-point valuation** (thesis §3.3, constants of §4.3 and §6.1): every empty point
//!   lies in the six-point windows ("winning combinations") through it. A window that holds
//!   `i ≥ 1` of the player's own stones and none of the opponent's adds `C[i − 1]` to the
//!   point's attack value; a window with `i ≥ 1` opponent stones and none of the player's adds
//!   `P[i − 1]` to its defence value. A window holding stones of both colours adds nothing
//!   (it can no longer become a six: the thesis's win table marks it dead for both).
//! * **Candidates** (§5.3): both valuations are ranked together, best first, and the first
//!   [`WIDTH`] distinct points are expanded: a point's rank is `max(attack, defence)`, ties
//!   to the lower point. The top of that list is exactly the one-ply rule of §3.3 (attack the
//!   best attack point when its value is at least the best defence value, else defend).
//! * **Shape vectors** (§5.2): per colour, the counts of (sixes, live fives, live fours, live
//!   threes, live twos, live ones): every maximal run of the colour in each of the four
//!   directions counts once, by its length, when the opponent and the edges leave it room for a
//!   six on its line (a run hemmed in on both sides is not counted, as in the thesis's example).
//! * **Two-ply minimax** (§5.3, §6.1): for each stone, the player's candidates (MAX) and, after
//!   each, the opponent's candidates (MIN) on the same ranking; a leaf is valued by the shape
//!   vector of the player minus that of the opponent, compared lexicographically. The two
//!   stones of a Connect6 move are chosen one after the other, each by its own two-ply search
//!   (the thesis's tree has one stone per ply; merging the two stones of a move is its future
//!   work).
//!
//! Additions, for the yardstick to be legal and sane: a six that the move can complete (one
//! stone or both) is played at once, and the points where either side would complete a six are always among the candidates
//! (so an immediate six of the opponent is seen by the search and blocked when one stone can).
//! The empty board is answered at the centre. Everything is deterministic; time limits are
//! ignored (a move takes well under a millisecond).

use super::{Choice, Limits, Player, Verdict};
use crate::geom::{Color, Point, MAX_POINTS};
use crate::{Board, Game, Position};
use std::time::Instant;

/// Attack values: a window holding 1, 2, 3, 4, 5 of the player's stones (thesis 000, §4.3,
/// the particle-swarm-tuned constants; the hand-set ones were 5, 50, 100, 200, 400).
pub const C: [i32; 5] = [7, 65, 122, 298, 525];

/// Defence values: a window holding 1, 2, 3, 4, 5 of the opponent's stones (thesis 000, §4.3;
/// hand-set 5, 50, 100, 600, 800).
pub const P: [i32; 5] = [9, 60, 150, 330, 903];

/// Points expanded per ply (thesis 000, §5.3: three).
pub const WIDTH: usize = 3;

/// Plies of the search (thesis 000, §6.1: two).
pub const DEPTH: u32 = 2;

/// The row length the valuation is written for.
const K: usize = 6;

/// A shape vector: sixes, live fives, live fours, live threes, live twos, live ones.
pub type Shape = [i32; 6];

/// Does `seed000` play `game`? Six in a row, two stones a move (Connect6 and its board sizes).
pub fn supports(game: &Game) -> bool {
    game.k() == K && game.p() == 2
}

/// The attack and defence values of every point for `side` (zero on occupied points), indexed
/// by point index, and the points where `side` and where its opponent would complete a six.
pub struct Values {
    /// Attack value (`C`), by point index.
    pub attack: Vec<i32>,
    /// Defence value (`P`), by point index.
    pub defence: Vec<i32>,
    /// Empty points that complete a six of `side`.
    pub sixes: Vec<Point>,
    /// Empty points that complete a six of the opponent.
    pub threats: Vec<Point>,
}

/// The empty-point valuation of `board` for `side` (thesis 000, §3.3).
pub fn values(board: &Board, side: Color) -> Values {
    let mut v = Values {
        attack: vec![0; MAX_POINTS],
        defence: vec![0; MAX_POINTS],
        sixes: Vec::new(),
        threats: Vec::new(),
    };
    for line in &board.game().geometry().lines {
        let points = &line.points[..line.len as usize];
        for w in points.windows(K) {
            let own = w.iter().filter(|&&p| board.get(p) == Some(side)).count();
            let opp = w
                .iter()
                .filter(|&&p| board.get(p) == Some(side.opponent()))
                .count();
            let (table, add, count) = match (own, opp) {
                (0, 0) => continue,
                // A window already filled (a six on the board) has no point to value.
                (i, 0) if i < K => (&mut v.attack, C[i - 1], i),
                (0, i) if i < K => (&mut v.defence, P[i - 1], i),
                _ => continue,
            };
            for &p in w.iter().filter(|&&p| board.is_empty(p)) {
                table[p.index()] += add;
                if count == K - 1 {
                    let list = if own > 0 {
                        &mut v.sixes
                    } else {
                        &mut v.threats
                    };
                    if !list.contains(&p) {
                        list.push(p);
                    }
                }
            }
        }
    }
    v.sixes.sort();
    v.threats.sort();
    v
}

/// The points expanded at a ply where `side` values the board: the [`WIDTH`] best by
/// `max(attack, defence)` (ties to the lower point), then any six-completing point of either
/// side not among them.
pub fn candidates(board: &Board, side: Color) -> Vec<Point> {
    let v = values(board, side);
    let mut ranked: Vec<(i32, Point)> = board
        .game()
        .points()
        .filter(|&p| board.is_empty(p))
        .map(|p| (-v.attack[p.index()].max(v.defence[p.index()]), p))
        .collect();
    ranked.sort();
    let mut out: Vec<Point> = ranked.iter().take(WIDTH).map(|r| r.1).collect();
    for p in v.sixes.iter().chain(&v.threats) {
        if !out.contains(p) {
            out.push(*p);
        }
    }
    out
}

/// The shape vector of `c` on `board` (thesis 000, §5.2).
pub fn shape(board: &Board, c: Color) -> Shape {
    let mut v = [0; 6];
    for line in &board.game().geometry().lines {
        let points = &line.points[..line.len as usize];
        for r in board.runs(points, c) {
            if r.len >= K {
                v[0] += 1;
            } else if r.has_room(K) {
                v[K - r.len] += 1;
            }
        }
    }
    v
}

/// The leaf value for `side`: its shape vector minus the opponent's, component by component.
pub fn leaf(board: &Board, side: Color) -> Shape {
    let (a, b) = (shape(board, side), shape(board, side.opponent()));
    std::array::from_fn(|i| a[i] - b[i])
}

/// The empty points of a window that `n` stones of `side` fill into a six (none of the
/// opponent's stones, at least 6 − n of `side`'s), if there is one; fewest points first.
fn completion(board: &Board, side: Color, n: usize) -> Option<Vec<Point>> {
    let mut best: Option<Vec<Point>> = None;
    for line in &board.game().geometry().lines {
        for w in line.points[..line.len as usize].windows(K) {
            if w.iter().any(|&p| board.get(p) == Some(side.opponent())) {
                continue;
            }
            let empty: Vec<Point> = w.iter().copied().filter(|&p| board.is_empty(p)).collect();
            if !empty.is_empty()
                && empty.len() <= n
                && best.as_ref().is_none_or(|b| empty.len() < b.len())
            {
                best = Some(empty);
            }
        }
    }
    best
}

/// The player.
#[derive(Default)]
pub struct Seed000;

/// One stone's search: the stone, its minimax leaf, and leaves visited.
struct Stone {
    point: Point,
    value: Shape,
    wins: bool,
}

impl Seed000 {
    /// The stone `side` places now on `board`: a six if it has one, else the two-ply minimax
    /// choice (one ply when `depth` is 1: the §3.3 rule).
    fn stone(board: &mut Board, side: Color, depth: u32, nodes: &mut u64) -> Option<Stone> {
        if board.stones() == 0 {
            let c = board.game().center();
            return Some(Stone {
                point: c,
                value: [0; 6],
                wins: false,
            });
        }
        let v = values(board, side);
        if let Some(&p) = v.sixes.first() {
            return Some(Stone {
                point: p,
                value: [1, 0, 0, 0, 0, 0],
                wins: true,
            });
        }
        let own = candidates(board, side);
        let first = *own.first()?;
        if depth <= 1 {
            *nodes += 1;
            board.set(first, Some(side));
            let value = leaf(board, side);
            board.set(first, None);
            return Some(Stone {
                point: first,
                value,
                wins: false,
            });
        }
        let mut best: Option<Stone> = None;
        for &a in &own {
            board.set(a, Some(side));
            let replies = candidates(board, side);
            let mut worst: Option<Shape> = None;
            for &b in &replies {
                board.set(b, Some(side.opponent()));
                *nodes += 1;
                let l = leaf(board, side);
                board.set(b, None);
                if worst.is_none_or(|w| l < w) {
                    worst = Some(l);
                }
            }
            let value = worst.unwrap_or_else(|| {
                *nodes += 1;
                leaf(board, side)
            });
            board.set(a, None);
            if best.as_ref().is_none_or(|b| value > b.value) {
                best = Some(Stone {
                    point: a,
                    value,
                    wins: false,
                });
            }
        }
        best
    }
}

impl Player for Seed000 {
    fn choose(&mut self, pos: &Position, limits: Limits) -> Choice {
        let start = Instant::now();
        let side = pos.to_move();
        let depth = limits.depth.unwrap_or(DEPTH).clamp(1, DEPTH);
        let mut board = pos.board().clone();
        let mut stones = Vec::new();
        let mut nodes = 0;
        let mut won = false;
        let mut first_value = None;
        let n = pos.stones_to_place();
        if let Some(w) = completion(&board, side, n) {
            won = true;
            for p in w {
                board.set(p, Some(side));
                stones.push(p);
            }
        }
        for _ in stones.len()..n {
            let point = if won {
                // The game is won: any other point completes the move.
                candidates(&board, side).first().copied()
            } else {
                Self::stone(&mut board, side, depth, &mut nodes).map(|s| {
                    won = s.wins;
                    first_value.get_or_insert(s.value);
                    s.point
                })
            };
            let Some(p) = point else { break };
            board.set(p, Some(side));
            stones.push(p);
        }
        // A scalar for the report: the first stone's leaf vector, weighted by position.
        let eval = if won {
            super::eval::WIN
        } else {
            first_value.map_or(0, |v| {
                v.iter()
                    .fold(0i64, |acc, &x| acc * 100 + i64::from(x.clamp(-49, 49)))
                    .clamp(-999_999, 999_999) as i32
            })
        };
        Choice {
            pv: vec![stones.clone()],
            stones,
            eval,
            verdict: if won { Verdict::Win(0) } else { Verdict::Open },
            depth,
            nodes,
            time: start.elapsed(),
            proof: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_the_theses() {
        assert_eq!(C, [7, 65, 122, 298, 525]);
        assert_eq!(P, [9, 60, 150, 330, 903]);
        assert_eq!((WIDTH, DEPTH), (3, 2));
    }

    /// The worked example of §3.3 (with the hand-set constants there): a point in 7 windows of
    /// one stone and 4 of two is worth 7·C1 + 4·C2; with the tuned ones 7·7 + 4·65.
    #[test]
    fn a_point_sums_its_windows() {
        let game = Game::CONNECT6;
        let mut b = Board::new(game);
        let p = |s: &str| game.parse_point(s).unwrap();
        b.set(p("J10"), Some(Color::Black));
        // J11 lies in 6 vertical windows, 5 holding J10; no other stone near.
        let v = values(&b, Color::Black);
        assert_eq!(v.attack[p("J11").index()], 5 * C[0]);
        assert_eq!(v.defence[p("J11").index()], 0);
        let w = values(&b, Color::White);
        assert_eq!(w.defence[p("J11").index()], 5 * P[0]);
        b.set(p("J12"), Some(Color::Black));
        // J11 now: 4 windows with both stones, J13…J16-window holds J12 only; below J10 only.
        let v = values(&b, Color::Black);
        assert_eq!(v.attack[p("J11").index()], 4 * C[1] + C[0] + C[0]);
    }

    #[test]
    fn shape_vectors_count_runs_with_room() {
        let game = Game::CONNECT6;
        let p = |s: &str| game.parse_point(s).unwrap();
        let mut b = Board::new(game);
        for s in ["J10", "K10"] {
            b.set(p(s), Some(Color::Black));
        }
        // The two: one live two across, six lone stones in the other directions.
        assert_eq!(shape(&b, Color::Black), [0, 0, 0, 0, 1, 6]);
        // Hemmed in: white on both sides leaves 4 points, no room for a six across.
        b.set(p("H10"), Some(Color::White));
        b.set(p("M10"), Some(Color::White));
        assert_eq!(shape(&b, Color::Black), [0, 0, 0, 0, 0, 6]);
    }
}
