//! Board geometry: points, colours, directions and the lines of the board.
//!
//! Points are written `A`–`S` (columns, left to right, the letter `I` included) and `1`–`19`
//! (rows, bottom to top); `J10` is the centre. A point's index is `row · 19 + col`, both 0-based.

use crate::text::excerpt;
use std::{fmt, str::FromStr, sync::LazyLock};

/// Board side of Connect6.
pub const SIZE: usize = 19;
/// Number of points on the board.
pub const POINTS: usize = SIZE * SIZE;
/// Stones in a row that win (`k`).
pub const K: usize = 6;
/// Number of lines at least `k` long: χ(n,k) = 6n − 4k + 2 (paper §6.1).
pub const LINES: usize = 6 * SIZE - 4 * K + 2;
/// Potential connections of one colour in a line: γ(n,k) = ⌊(n+1)/(k+1)⌋ (Theorem 4).
pub const GAMMA: usize = (SIZE + 1) / (K + 1);

/// Column letters, `I` included.
const LETTERS: &[u8; SIZE] = b"ABCDEFGHIJKLMNOPQRS";

/// A game of the family Connect(m,n,k,p,q): an `m`×`n` board, `k` in a row wins, black places
/// `q` stones first and then each side places `p` per move. Only Connect6 is implemented today;
/// the type fixes where the other members will plug in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Board columns.
    pub m: usize,
    /// Board rows.
    pub n: usize,
    /// Stones in a row needed to win.
    pub k: usize,
    /// Stones per move after the first.
    pub p: usize,
    /// Stones of black's first move.
    pub q: usize,
}

impl Rules {
    /// Connect(19,19,6,2,1).
    pub const CONNECT6: Rules = Rules {
        m: SIZE,
        n: SIZE,
        k: K,
        p: 2,
        q: 1,
    };

    /// Is `count` stones a move boundary (0, or `q + p·j`)?
    pub fn is_move_boundary(&self, count: usize) -> bool {
        count == 0 || (count >= self.q && (count - self.q).is_multiple_of(self.p))
    }

    /// The stones of the move holding the stone with 0-based play index `i`, as a range of
    /// play indices (black's first move holds `q` stones, every later move `p`).
    pub fn move_of_stone(&self, i: usize) -> std::ops::Range<usize> {
        if i < self.q {
            0..self.q
        } else {
            let start = self.q + (i - self.q) / self.p * self.p;
            start..start + self.p
        }
    }

    /// Colour that places the stone with 0-based play index `i`.
    pub fn color_of_stone(&self, i: usize) -> Color {
        if i < self.q {
            Color::Black
        } else if ((i - self.q) / self.p).is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }
}

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
    /// The centre, `J10`.
    pub const CENTER: Point = Point((9 * SIZE + 9) as u16);

    /// The point in 0-based column `col` and row `row` (row 0 is the bottom row, `1`).
    #[inline]
    pub const fn new(col: usize, row: usize) -> Option<Point> {
        if col < SIZE && row < SIZE {
            Some(Point((row * SIZE + col) as u16))
        } else {
            None
        }
    }

    /// The point with index `i` (`row · 19 + col`).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < POINTS {
            Some(Point(i as u16))
        } else {
            None
        }
    }

    /// Index `row · 19 + col`, in `0..361`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based column (0 = `A`).
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % SIZE
    }

    /// 0-based row (0 = `1`, the bottom row).
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / SIZE
    }

    /// Every point in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u16).map(Point)
    }

    /// The point `steps` steps from this one in direction `dir`, if on the board.
    #[inline]
    pub fn step(self, dir: Dir, steps: isize) -> Option<Point> {
        let (dc, dr) = dir.delta();
        let c = self.col() as isize + dc * steps;
        let r = self.row() as isize + dr * steps;
        if (0..SIZE as isize).contains(&c) && (0..SIZE as isize).contains(&r) {
            Point::new(c as usize, r as usize)
        } else {
            None
        }
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
    #[error("{0:?} is not a point: expected a column letter A-S and a row 1-19, like J10")]
    Syntax(String),
    /// A column or row outside the board.
    #[error("{token:?} is off the board: {reason}")]
    OffBoard {
        /// The token as written.
        token: String,
        /// Which coordinate is out of range.
        reason: &'static str,
    },
}

impl FromStr for Point {
    type Err = PointError;

    /// Parse `J10`, `j10`, `S19`… (case-insensitive).
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
        if col >= SIZE {
            return Err(PointError::OffBoard {
                token: excerpt(t),
                reason: "columns run from A to S",
            });
        }
        if !(1..=SIZE).contains(&row) {
            return Err(PointError::OffBoard {
                token: excerpt(t),
                reason: "rows run from 1 to 19",
            });
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

/// One line of the board at least `k` long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Direction of the line.
    pub dir: Dir,
    /// Number of points.
    pub len: u8,
    /// Points in order (offset 0 first); entries past `len` are unused.
    pub points: [Point; SIZE],
}

/// Where a point sits on the line of one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSlot {
    /// Line id in `0..LINES`.
    pub line: u8,
    /// Offset of the point in the line.
    pub offset: u8,
}

/// The lines of the board and, per point and direction, the slot it occupies.
pub struct Geometry {
    /// The χ(19,6) = 92 lines: rows, columns, then the diagonals at least six long.
    pub lines: Vec<Line>,
    /// `slots[point][dir]`: the point's line and offset, `None` on diagonals shorter than six.
    pub slots: Vec<[Option<LineSlot>; 4]>,
}

/// The board's line geometry, computed on first use.
pub static GEOMETRY: LazyLock<Geometry> = LazyLock::new(Geometry::build);

impl Geometry {
    fn build() -> Geometry {
        let mut lines = Vec::with_capacity(LINES);
        for dir in Dir::ALL {
            // A line starts at a point whose predecessor is off the board.
            for p in Point::all() {
                if p.step(dir, -1).is_some() {
                    continue;
                }
                let mut points = [p; SIZE];
                let mut len = 0;
                let mut q = Some(p);
                while let Some(x) = q {
                    points[len] = x;
                    len += 1;
                    q = x.step(dir, 1);
                }
                if len >= K {
                    lines.push(Line {
                        dir,
                        len: len as u8,
                        points,
                    });
                }
            }
        }
        assert_eq!(lines.len(), LINES, "χ(19,6) = 92 lines");
        let mut slots = vec![[None; 4]; POINTS];
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

/// A set of points as a 361-bit bitboard; iterates in index order.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PointSet([u64; 6]);

impl PointSet {
    /// The empty set.
    pub const EMPTY: PointSet = PointSet([0; 6]);

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

    #[test]
    fn notation_round_trip() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
        }
        assert_eq!("j10".parse::<Point>().unwrap(), Point::CENTER);
        assert_eq!(Point::new(0, 0).unwrap().to_string(), "A1");
        assert_eq!(Point::new(18, 18).unwrap().to_string(), "S19");
        assert_eq!(Point::new(8, 0).unwrap().to_string(), "I1");
    }

    #[test]
    fn bad_points() {
        assert!(matches!(
            "T5".parse::<Point>(),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            "A20".parse::<Point>(),
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
        let g = &*GEOMETRY;
        assert_eq!(g.lines.len(), 92);
        assert_eq!(GAMMA, 2);
        // Each point lies on 2 (rows/columns) + up to 2 diagonal lines; a stone can affect at
        // most 4n − 3 = 73 points.
        let mut most = 0;
        for p in Point::all() {
            let mut touched = std::collections::HashSet::new();
            for d in Dir::ALL {
                if let Some(s) = g.slot(p, d) {
                    let l = &g.lines[s.line as usize];
                    touched.extend(l.points[..l.len as usize].iter().copied());
                }
            }
            most = most.max(touched.len());
        }
        assert_eq!(most, 4 * SIZE - 3);
    }

    #[test]
    fn move_boundaries() {
        let r = Rules::CONNECT6;
        let ok: Vec<usize> = (0..10).filter(|&n| r.is_move_boundary(n)).collect();
        assert_eq!(ok, vec![0, 1, 3, 5, 7, 9]);
        assert_eq!(r.move_of_stone(0), 0..1);
        assert_eq!(r.move_of_stone(1), 1..3);
        assert_eq!(r.move_of_stone(2), 1..3);
        assert_eq!(r.move_of_stone(3), 3..5);
        let colors: Vec<Color> = (0..7).map(|i| r.color_of_stone(i)).collect();
        use Color::*;
        assert_eq!(
            colors,
            vec![Black, White, White, Black, Black, White, White]
        );
    }
}
