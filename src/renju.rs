//! Renju's forbidden points: where black may not play (the RIF rules).
//!
//! A black stone on an empty point is **forbidden** when it makes no five (exactly k in a row:
//! a five always wins, whatever else the stone makes) and it makes
//!
//! * an **overline**: more than k black stones in a row;
//! * a **double four**: two fours or more. A four is k − 1 black stones of a line, the new
//!   one among them, that one more black stone turns into a five; fours are told apart by
//!   their stones, so a straight four (`.XXXX.`, two points that make five) is one four, while
//!   `X.XXX.X` played in its middle is two fours in one line;
//! * a **double three**: threes in two directions or more. A three is a line where one more
//!   black stone makes a straight four (k − 1 in a row, the new stone among them, both ends
//!   empty and each end making a five) — and that stone's point is itself not forbidden once
//!   the first stone stands (the recursive check that tells a real three from a false one).
//!
//! The rules are written for any k (Renju's is 5). Only black has forbidden points, and only in
//! games with [`Rule::Renju`].

use crate::board::Board;
use crate::game::{Game, Rule};
use crate::geom::{Color, Dir, Point, PointSet};

/// Why a point is forbidden to black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// More than k in a row.
    Overline,
    /// Two fours or more.
    DoubleFour,
    /// Threes in two directions or more.
    DoubleThree,
}

impl Forbidden {
    /// `overline`, `double four`, `double three`.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        }
    }
}

/// Does `game` forbid points to `c`? (Black in Renju.)
#[inline]
pub fn applies(game: &Game, c: Color) -> bool {
    game.rule() == Rule::Renju && c == Color::Black
}

/// Why a black stone on the empty point `p` would be forbidden, if it would. `None` for an
/// occupied point. The rules are applied whatever the board's game.
pub fn forbidden(board: &Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty(p) || !may_be_forbidden(board, p) {
        return None;
    }
    Checker::on(board, None).placed(p)
}

/// [`forbidden`], adding to `reads` every point the answer depends on: on `board` with other
/// stones on any points outside `reads` (and `p` still empty), the answer is the same.
///
/// Why: the check reads, for each point it examines (`p`, and recursively the points that
/// would turn a three into a straight four), only the points of that point's four lines
/// within k of it (a run longer than k is told from one of exactly k by its k + 1-th cell,
/// at most k away; a straight four's outer ends lie within k). Which points it examines
/// depends on what it read. So the check on a board that differs only outside the points read
/// here reads the same values, examines the same points, and answers the same. (A point that
/// is occupied, or that [`may_be_forbidden`] rules out, is read within k − 1 of it.)
pub fn forbidden_reading(board: &Board, p: Point, reads: &mut PointSet) -> Option<Forbidden> {
    let mut checker = Checker::on(board, Some(*reads));
    let verdict = if board.is_empty(p) {
        checker.check(p)
    } else {
        checker.note(p);
        None
    };
    *reads = checker.reads.expect("reading");
    verdict
}

/// Can a black stone on the empty point `p` be forbidden at all? A cheap necessary condition,
/// read from the black stones that could share a row of k with `p` (within k − 1 points of it
/// along a direction, before a white stone or the edge): a three through `p` needs k − 3 of
/// them in its direction, so a double three needs two directions with k − 3; a four needs k − 2,
/// so fours in two directions need two directions with k − 2 ≥ k − 3; two fours in one line
/// have at least k − 1 black stones besides `p` between them, and an overline k. So unless two
/// directions have k − 3 or one has k − 1, the stone is not forbidden.
fn may_be_forbidden(board: &Board, p: Point) -> bool {
    let game = board.game();
    let k = game.k();
    let (mut threes, mut most) = (0, 0);
    for dir in Dir::ALL {
        let mut near = 0;
        for sign in [-1isize, 1] {
            // The points of `game.ray(p, dir, sign)`, k − 1 at most, walked by index: this
            // condition runs for every four point of black's in the proof search's leaves.
            let (steps, delta) = p.ray_span(dir, sign, game.m(), game.n());
            let mut at = p.index() as isize;
            for _ in 0..steps.min(k - 1) {
                at += delta;
                match board.get_index(at as usize) {
                    Some(Color::Black) => near += 1,
                    None => {}
                    Some(Color::White) => break,
                }
            }
        }
        threes += usize::from(near + 3 >= k);
        most = most.max(near);
    }
    threes >= 2 || most + 1 >= k
}

/// Is the empty point `p` forbidden to black?
pub fn is_forbidden(board: &Board, p: Point) -> bool {
    forbidden(board, p).is_some()
}

/// Every forbidden point of the board, in point order, with the reason.
pub fn forbidden_points(board: &Board) -> Vec<(Point, Forbidden)> {
    let mut checker = Checker::on(board, None);
    board
        .game()
        .points()
        .filter(|&p| board.is_empty(p))
        .filter_map(|p| checker.check(p).map(|f| (p, f)))
        .collect()
}

/// Cells each side of the centre of a line: k + 2 for k ≤ 8 covers a straight four's outer
/// neighbours; a run reaching the end of the array is longer than k anyway.
const REACH: usize = 10;
const LEN: usize = 2 * REACH + 1;
const C: usize = REACH;

/// A cell of a line seen from black.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    /// White, or off the board.
    Blocked,
}

/// A line through the point under test: `cells[C]` is the point, `points[i]` the board point
/// of `cells[i]` if on the board.
struct Line {
    cells: [Cell; LEN],
    points: [Option<Point>; LEN],
}

impl Line {
    fn through(board: &Board, p: Point, dir: Dir) -> Line {
        let mut line = Line {
            cells: [Cell::Blocked; LEN],
            points: [None; LEN],
        };
        let mut put = |i: usize, q: Point| {
            line.points[i] = Some(q);
            line.cells[i] = match board.get(q) {
                None => Cell::Empty,
                Some(Color::Black) => Cell::Black,
                Some(Color::White) => Cell::Blocked,
            };
        };
        put(C, p);
        let game = board.game();
        for (i, q) in (0..C).rev().zip(game.ray(p, dir, -1)) {
            put(i, q);
        }
        for (i, q) in (C + 1..LEN).zip(game.ray(p, dir, 1)) {
            put(i, q);
        }
        line
    }

    /// The black run through `i` (a black cell): its first and last index.
    fn run(&self, i: usize) -> (usize, usize) {
        let black = |j: usize| self.cells[j] == Cell::Black;
        let lo = (0..i).rev().take_while(|&j| black(j)).last().unwrap_or(i);
        let hi = (i + 1..LEN).take_while(|&j| black(j)).last().unwrap_or(i);
        (lo, hi)
    }

    /// How many fours run through the centre (black there): the distinct sets of stones (bit
    /// sets of line indices) that an empty `j` turns into exactly k in a row with the centre,
    /// the run without `j`. Counted in place (the check runs for every four point of black's).
    fn fours(&mut self, k: usize) -> usize {
        let mut seen = [0u32; LEN];
        let mut n = 0;
        for j in C + 1 - k..C + k {
            if self.cells[j] != Cell::Empty {
                continue;
            }
            self.cells[j] = Cell::Black;
            let (lo, hi) = self.run(C);
            self.cells[j] = Cell::Empty;
            if hi - lo + 1 == k && (lo..=hi).contains(&j) {
                let stones = ((1u32 << (hi + 1)) - (1u32 << lo)) & !(1u32 << j);
                if !seen[..n].contains(&stones) {
                    seen[n] = stones;
                    n += 1;
                }
            }
        }
        n
    }

    /// The empty points `j` that turn the centre's stones into a straight four: k − 1 in a
    /// row through the centre and `j`, both ends empty, each end making exactly k.
    fn straight_four_points(&mut self, k: usize) -> impl Iterator<Item = usize> + '_ {
        (C + 2 - k..C + k - 1).filter(move |&j| {
            if self.cells[j] != Cell::Empty {
                return false;
            }
            self.cells[j] = Cell::Black;
            let (lo, hi) = self.run(C);
            self.cells[j] = Cell::Empty;
            let open_end = |end: usize, beyond: Option<usize>| {
                self.cells[end] == Cell::Empty
                    && beyond.is_none_or(|b| self.cells[b] != Cell::Black)
            };
            hi - lo + 2 == k
                && (lo..=hi).contains(&j)
                && lo >= 1
                && hi + 1 < LEN
                && open_end(lo - 1, lo.checked_sub(2))
                && open_end(hi + 1, Some(hi + 2).filter(|&b| b < LEN))
        })
    }
}

/// The board the recursive check plays on.
struct Checker {
    board: Board,
    k: usize,
    /// The points read so far, when asked ([`forbidden_reading`]).
    reads: Option<PointSet>,
}

impl Checker {
    /// A checker on a copy of `board`, recording the points it reads into `reads` if given.
    fn on(board: &Board, reads: Option<PointSet>) -> Checker {
        Checker {
            board: board.clone(),
            k: board.game().k(),
            reads,
        }
    }

    /// Record that the check of `p` reads `p`'s four lines within k of it.
    fn note(&mut self, p: Point) {
        let Some(reads) = &mut self.reads else { return };
        reads.insert(p);
        let game = self.board.game();
        for dir in Dir::ALL {
            for steps in 1..=self.k as isize {
                for q in [game.step(p, dir, steps), game.step(p, dir, -steps)] {
                    q.into_iter().for_each(|q| reads.insert(q));
                }
            }
        }
    }

    /// Why black on the empty point `p` is forbidden, if it is; the board is unchanged after.
    fn check(&mut self, p: Point) -> Option<Forbidden> {
        if !may_be_forbidden(&self.board, p) {
            self.note(p);
            return None;
        }
        self.placed(p)
    }

    /// [`Checker::check`] of a point [`may_be_forbidden`] does not rule out.
    fn placed(&mut self, p: Point) -> Option<Forbidden> {
        self.note(p);
        self.board.set(p, Some(Color::Black));
        let verdict = self.verdict(p);
        self.board.set(p, None);
        verdict
    }

    /// [`Checker::check`] with the stone on `p` placed.
    fn verdict(&mut self, p: Point) -> Option<Forbidden> {
        let k = self.k;
        let mut lines = Dir::ALL.map(|dir| Line::through(&self.board, p, dir));
        let lengths = lines.each_ref().map(|l| {
            let (lo, hi) = l.run(C);
            hi - lo + 1
        });
        if lengths.contains(&k) {
            return None;
        }
        if lengths.iter().any(|&n| n > k) {
            return Some(Forbidden::Overline);
        }
        let fours: usize = lines.iter_mut().map(|line| line.fours(k)).sum();
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        // The points that would make each line's straight four, as bits of line indices; a
        // double three needs two lines with such points, and only then is each point's own
        // check (the recursion) needed to tell a real three from a false one.
        let fours_at = lines.each_mut().map(|l| {
            l.straight_four_points(k)
                .fold(0u32, |bits, j| bits | 1 << j)
        });
        if fours_at.iter().filter(|&&bits| bits != 0).count() < 2 {
            return None;
        }
        let mut threes = 0;
        for (line, bits) in lines.iter().zip(fours_at) {
            let real = (0..LEN).filter(|&j| bits & 1 << j != 0).any(|j| {
                let q = line.points[j].expect("an empty cell is on the board");
                self.check(q).is_none()
            });
            if real {
                threes += 1;
                if threes >= 2 {
                    return Some(Forbidden::DoubleThree);
                }
            }
        }
        None
    }
}
