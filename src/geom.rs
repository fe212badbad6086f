//! Board geometry: points, colours, directions, the lines of a board and sets of points.
//!
//! Points are written with a column letter (`A`, `B`, …, the letter `I` included) and a row
//! number counted from 1 at the bottom; on the 19×19 board `J10` is the centre. Every board of
//! every game fits in [`MAX_SIDE`]×[`MAX_SIDE`]: a point's index is `row · 20 + col`, both
//! 0-based, whatever the board, so a point prints itself and point sets iterate row by row. The
//! game (`crate::game`) says which points are on its board.

use crate::text::excerpt;
use std::{fmt, str::FromStr};

/// The largest board side of any game.
pub const MAX_SIDE: usize = 20;
/// Point indices run below this: `row · MAX_SIDE + col`.
pub const MAX_POINTS: usize = MAX_SIDE * MAX_SIDE;

/// Column letters, `I` included.
pub(crate) const LETTERS: &[u8; MAX_SIDE] = b"ABCDEFGHIJKLMNOPQRST";

/// A stone colour; black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The colour named `black` or `white` ([`Color::name`]).
    pub fn of_name(name: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Both values built by `f`.
    pub fn new(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// A point of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Point(u16);

impl Point {
    /// `J10`, the centre of the 19×19 board.
    pub const CENTER: Point = Point((9 * MAX_SIDE + 9) as u16);

    /// The point in 0-based column `col` and row `row` (row 0 is the bottom row, `1`), if both
    /// are below [`MAX_SIDE`].
    #[inline]
    pub const fn new(col: usize, row: usize) -> Option<Point> {
        if col < MAX_SIDE && row < MAX_SIDE {
            Some(Point((row * MAX_SIDE + col) as u16))
        } else {
            None
        }
    }

    /// The point with index `i` (`row · 20 + col`), if it is below [`MAX_POINTS`].
    #[inline]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < MAX_POINTS {
            Some(Point(i as u16))
        } else {
            None
        }
    }

    /// Index `row · 20 + col`, in `0..400`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based column (0 = `A`).
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % MAX_SIDE
    }

    /// 0-based row (0 = `1`, the bottom row).
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / MAX_SIDE
    }

    /// The point `steps` steps from this one in direction `dir`, if it lies within the
    /// `cols`×`rows` board.
    #[inline]
    pub fn step_within(self, dir: Dir, steps: isize, cols: usize, rows: usize) -> Option<Point> {
        let (dc, dr) = dir.delta();
        let c = self.col() as isize + dc * steps;
        let r = self.row() as isize + dr * steps;
        if (0..cols as isize).contains(&c) && (0..rows as isize).contains(&r) {
            Point::new(c as usize, r as usize)
        } else {
            None
        }
    }

    /// The points 1, 2, … steps from this one in direction `dir` (`sign` 1) or against it
    /// (`sign` −1), as far as the `cols`×`rows` board goes: [`Point::step_within`] for
    /// growing steps, without testing each point against the board's edges.
    #[inline]
    pub fn ray(
        self,
        dir: Dir,
        sign: isize,
        cols: usize,
        rows: usize,
    ) -> impl Iterator<Item = Point> {
        let (steps, delta) = self.ray_span(dir, sign, cols, rows);
        let start = self.0 as isize;
        (1..=steps as isize).map(move |s| Point((start + s * delta) as u16))
    }

    /// How many points [`Point::ray`] yields, and the step between their indices.
    #[inline]
    pub fn ray_span(self, dir: Dir, sign: isize, cols: usize, rows: usize) -> (usize, isize) {
        let (dc, dr) = dir.delta();
        let room = |at: usize, d: isize, size: usize| match d * sign {
            1 => size.saturating_sub(at + 1),
            -1 => at,
            _ => usize::MAX,
        };
        let steps = room(self.col(), dc, cols).min(room(self.row(), dr, rows));
        (steps, sign * (dr * MAX_SIDE as isize + dc))
    }

    /// Chebyshev distance (king moves) to `other`.
    pub fn distance(self, other: Point) -> usize {
        self.col()
            .abs_diff(other.col())
            .max(self.row().abs_diff(other.row()))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", LETTERS[self.col()] as char, self.row() + 1)
    }
}

impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a token is not a point. The token is quoted as written, shortened to
/// [`crate::text::excerpt`] when long.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// Not a letter followed by a number.
    #[error("{0:?} is not a point: expected a column letter and a row number, like J10")]
    Syntax(String),
    /// A column or row outside the board.
    #[error("{token:?} is off the board: {reason}")]
    OffBoard {
        /// The token as written.
        token: String,
        /// Which coordinate is out of range.
        reason: String,
    },
}

impl FromStr for Point {
    type Err = PointError;

    /// Parse `J10`, `j10`, `T20`… (case-insensitive) on the largest board, 20×20. A game
    /// checks its own bounds (`crate::game::Game::parse_point`).
    fn from_str(s: &str) -> Result<Self, PointError> {
        let t = s.trim();
        let syntax = || PointError::Syntax(excerpt(t));
        let mut chars = t.chars();
        let letter = chars
            .next()
            .filter(|c| c.is_ascii_alphabetic())
            .ok_or_else(syntax)?
            .to_ascii_uppercase();
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let row: usize = digits.parse().map_err(|_| syntax())?;
        let col = (letter as u8 - b'A') as usize;
        let off = |reason: String| PointError::OffBoard {
            token: excerpt(t),
            reason,
        };
        if col >= MAX_SIDE {
            return Err(off(format!(
                "columns run from A to {}",
                LETTERS[MAX_SIDE - 1] as char
            )));
        }
        if !(1..=MAX_SIDE).contains(&row) {
            return Err(off(format!("rows run from 1 to {MAX_SIDE}")));
        }
        Ok(Point::new(col, row - 1).expect("checked range"))
    }
}

/// The four directions of lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Along a row, left to right.
    Horizontal = 0,
    /// Along a column, bottom to top.
    Vertical = 1,
    /// Up and to the right.
    Diagonal = 2,
    /// Up and to the left.
    AntiDiagonal = 3,
}

impl Dir {
    /// All four, in index order.
    pub const ALL: [Dir; 4] = [
        Dir::Horizontal,
        Dir::Vertical,
        Dir::Diagonal,
        Dir::AntiDiagonal,
    ];

    /// `(dcol, drow)` of one step.
    #[inline]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::Horizontal => (1, 0),
            Dir::Vertical => (0, 1),
            Dir::Diagonal => (1, 1),
            Dir::AntiDiagonal => (-1, 1),
        }
    }

    /// 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One line of a board at least `k` long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Direction of the line.
    pub dir: Dir,
    /// Number of points.
    pub len: u8,
    /// Points in order (offset 0 first); entries past `len` are unused.
    pub points: [Point; MAX_SIDE],
}

/// Where a point sits on the line of one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSlot {
    /// Line id in `0..lines.len()`.
    pub line: u8,
    /// Offset of the point in the line.
    pub offset: u8,
}

/// The lines of a board at least `k` long and, per point and direction, the slot it occupies.
pub struct Geometry {
    /// Rows, columns, then the diagonals at least `k` long (χ(19,6) = 92 on Connect6's board).
    pub lines: Vec<Line>,
    /// `slots[point][dir]`: the point's line and offset, `None` off the board or on lines
    /// shorter than `k`.
    pub slots: Vec<[Option<LineSlot>; 4]>,
}

impl Geometry {
    /// The geometry of a `cols`×`rows` board with lines at least `k` long.
    pub fn build(cols: usize, rows: usize, k: usize) -> Geometry {
        let on_board =
            (0..rows).flat_map(|r| (0..cols).map(move |c| Point::new(c, r).expect("small")));
        let mut lines = Vec::new();
        for dir in Dir::ALL {
            // A line starts at a point whose predecessor is off the board.
            for p in on_board.clone() {
                if p.step_within(dir, -1, cols, rows).is_some() {
                    continue;
                }
                let mut points = [p; MAX_SIDE];
                let mut len = 0;
                let mut q = Some(p);
                while let Some(x) = q {
                    points[len] = x;
                    len += 1;
                    q = x.step_within(dir, 1, cols, rows);
                }
                if len >= k {
                    lines.push(Line {
                        dir,
                        len: len as u8,
                        points,
                    });
                }
            }
        }
        let mut slots = vec![[None; 4]; MAX_POINTS];
        for (id, line) in lines.iter().enumerate() {
            for (offset, p) in line.points[..line.len as usize].iter().enumerate() {
                slots[p.index()][line.dir.index()] = Some(LineSlot {
                    line: id as u8,
                    offset: offset as u8,
                });
            }
        }
        Geometry { lines, slots }
    }

    /// The line of direction `dir` through `p` and `p`'s offset in it.
    #[inline]
    pub fn slot(&self, p: Point, dir: Dir) -> Option<LineSlot> {
        self.slots[p.index()][dir.index()]
    }
}

/// Words of a point set: one bit per point index.
const SET_WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of points as a bitboard over the indices; iterates in index order (row by row).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PointSet([u64; SET_WORDS]);

impl PointSet {
    /// The empty set.
    pub const EMPTY: PointSet = PointSet([0; SET_WORDS]);

    /// Add `p`.
    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.0[p.index() >> 6] |= 1u64 << (p.index() & 63);
    }

    /// Remove `p`.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p.index() >> 6] &= !(1u64 << (p.index() & 63));
    }

    /// Does the set hold `p`?
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.index() >> 6] >> (p.index() & 63) & 1 == 1
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// No points?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Union.
    #[inline]
    pub fn union(&self, other: &PointSet) -> PointSet {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        r
    }

    /// Intersection.
    #[inline]
    pub fn intersection(&self, other: &PointSet) -> PointSet {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        r
    }

    /// The points of `self` not in `other`.
    #[inline]
    pub fn difference(&self, other: &PointSet) -> PointSet {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        r
    }

    /// Points in index order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut m = word;
            std::iter::from_fn(move || {
                if m == 0 {
                    None
                } else {
                    let b = m.trailing_zeros() as usize;
                    m &= m - 1;
                    Some(Point((w * 64 + b) as u16))
                }
            })
        })
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut s = PointSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}

impl fmt::Debug for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ray` is `step_within` for steps 1, 2, … until it leaves the board, on boards of every
    /// shape up to the largest, from every point, both ways along every direction.
    #[test]
    fn ray_walks_as_step_within_does() {
        for (cols, rows) in [
            (1, 1),
            (6, 7),
            (9, 9),
            (15, 15),
            (19, 19),
            (20, 20),
            (20, 11),
        ] {
            for r in 0..rows {
                for c in 0..cols {
                    let p = Point::new(c, r).unwrap();
                    for dir in Dir::ALL {
                        for sign in [-1, 1] {
                            let walked: Vec<Point> = p.ray(dir, sign, cols, rows).collect();
                            let stepped: Vec<Point> = (1..)
                                .map_while(|s| p.step_within(dir, sign * s, cols, rows))
                                .collect();
                            assert_eq!(walked, stepped, "{p:?} {dir:?} {sign} on {cols}×{rows}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn notation_round_trip() {
        for r in 0..MAX_SIDE {
            for c in 0..MAX_SIDE {
                let p = Point::new(c, r).unwrap();
                assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
                assert_eq!((p.col(), p.row()), (c, r));
            }
        }
        assert_eq!("j10".parse::<Point>().unwrap(), Point::CENTER);
        assert_eq!(Point::new(0, 0).unwrap().to_string(), "A1");
        assert_eq!(Point::new(18, 18).unwrap().to_string(), "S19");
        assert_eq!(Point::new(19, 19).unwrap().to_string(), "T20");
        assert_eq!(Point::new(8, 0).unwrap().to_string(), "I1");
    }

    #[test]
    fn bad_points() {
        assert!(matches!(
            "U5".parse::<Point>(),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            "A21".parse::<Point>(),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            "A0".parse::<Point>(),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!("10".parse::<Point>(), Err(PointError::Syntax(_))));
        assert!(matches!("J".parse::<Point>(), Err(PointError::Syntax(_))));
    }

    #[test]
    fn geometry_counts() {
        // χ(n, k) = 6n − 4k + 2 lines on a square board (paper §6.1).
        for (n, k) in [(19, 6), (15, 5), (20, 4), (13, 6), (5, 4)] {
            assert_eq!(
                Geometry::build(n, n, k).lines.len(),
                6 * n - 4 * k + 2,
                "{n} {k}"
            );
        }
        let g = Geometry::build(19, 19, 6);
        // Each point lies on 2 (rows/columns) + up to 2 diagonal lines; a stone can affect at
        // most 4n − 3 = 73 points.
        let mut most = 0;
        for r in 0..19 {
            for c in 0..19 {
                let p = Point::new(c, r).unwrap();
                let mut touched = std::collections::HashSet::new();
                for d in Dir::ALL {
                    if let Some(s) = g.slot(p, d) {
                        let l = &g.lines[s.line as usize];
                        touched.extend(l.points[..l.len as usize].iter().copied());
                    }
                }
                most = most.max(touched.len());
            }
        }
        assert_eq!(most, 4 * 19 - 3);
        // A rectangle: 7 columns, 5 rows, k = 5.
        let r = Geometry::build(7, 5, 5);
        assert!(r.lines.iter().all(|l| l.points[..l.len as usize]
            .iter()
            .all(|p| p.col() < 7 && p.row() < 5)));
        assert_eq!(
            r.lines.iter().filter(|l| l.dir == Dir::Horizontal).count(),
            5
        );
        assert_eq!(r.lines.iter().filter(|l| l.dir == Dir::Vertical).count(), 7);
    }
}
