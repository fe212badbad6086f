//! DIF opening names (thesis 000, §2.2.1): black opens on `J10`; white's two stones are
//! normalised under the 8 symmetries of the board and named by their coordinates (`I9-J8`) or
//! in the T/X short form (`X-J8`).
//!
//! The rules, with offsets (dx, dy) from `J10` (dx to the right, dy up):
//!
//! 1. **First stone.** Among the 8 images of white's two stones, consider those putting a stone
//!    in the south-south-west eighth of the board: dy < 0 and dy ≤ dx ≤ 0 (below the centre,
//!    between the vertical axis and the south-west diagonal, both included). The first stone is
//!    the one nearest the centre, comparing the vertical distance |dy| first, then the horizontal
//!    distance |dx|; the other is the second stone.
//! 2. **Ties** (a symmetry fixing the first stone, or two stones equally near): the second stone
//!    to the right is preferred, then the one lower down.
//! 3. **Short form.** The first stone is reached from `J10` by steps `T` (one point down) and
//!    `X` (one point down-left), written T's first: `J9` = `T`, `I9` = `X`, `J8` = `TT`,
//!    `I8` = `TX`. The short name is that string, a dash and the second stone: `X-J8` is `I9` +
//!    `J8`, `TT-L10` is `J8` + `L10`.

use crate::game::Game;
use crate::geom::Point;

/// Side of Connect6's board, where DIF names live.
const SIZE: usize = 19;
use serde::Serialize;
use std::fmt;

/// The centre, where black's first stone must be for a DIF name.
pub const CENTER: Point = Point::CENTER;

/// Why a line has no DIF name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Fewer than three stones.
    #[error("a DIF name needs black's first stone and white's two stones; the line has {0}")]
    TooShort(usize),
    /// Black did not open on the centre.
    #[error("black's first stone is {0}: DIF names need it on J10")]
    NotCentered(Point),
    /// A short name that does not parse.
    #[error("`{0}` is not a DIF name (expected e.g. X-J8, TT-L10 or I9-J8)")]
    BadName(String),
    /// A name whose stones cannot be white's first move.
    #[error("`{name}` names no opening: {reason}")]
    Impossible {
        /// The name as written.
        name: String,
        /// Why.
        reason: String,
    },
}

/// A named white first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Opening {
    /// The first stone (normalised, in the south-south-west eighth).
    pub first: Point,
    /// The second stone (normalised).
    pub second: Point,
}

impl Opening {
    /// Coordinate form: `I9-J8`.
    pub fn name(&self) -> String {
        format!("{}-{}", self.first, self.second)
    }

    /// Short form: `X-J8`.
    pub fn short(&self) -> String {
        let (dx, dy) = offset(self.first);
        let (t, x) = ((dy.abs() - dx.abs()) as usize, dx.unsigned_abs() as usize);
        format!("{}{}-{}", "T".repeat(t), "X".repeat(x), self.second)
    }

    /// The three stones `J10`, first, second, in play order.
    pub fn stones(&self) -> [Point; 3] {
        [CENTER, self.first, self.second]
    }

    /// Chebyshev distance of the farther white stone from the centre.
    pub fn reach(&self) -> usize {
        self.first
            .distance(CENTER)
            .max(self.second.distance(CENTER))
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.short(), self.name())
    }
}

fn offset(p: Point) -> (i32, i32) {
    (p.col() as i32 - 9, p.row() as i32 - 9)
}

fn at(dx: i32, dy: i32) -> Option<Point> {
    let (c, r) = (dx + 9, dy + 9);
    if (0..SIZE as i32).contains(&c) && (0..SIZE as i32).contains(&r) {
        Point::new(c as usize, r as usize)
    } else {
        None
    }
}

/// A symmetry of the board as a map of offsets from the centre.
pub type Symmetry = fn(i32, i32) -> (i32, i32);

/// The 8 symmetries of the square board about `J10`, as maps of offsets.
pub const SYMMETRIES: [Symmetry; 8] = [
    |x, y| (x, y),
    |x, y| (-y, x),
    |x, y| (-x, -y),
    |x, y| (y, -x),
    |x, y| (-x, y),
    |x, y| (x, -y),
    |x, y| (y, x),
    |x, y| (-y, -x),
];

/// `p` under symmetry `k` (0..8) about the centre.
pub fn transform(p: Point, k: usize) -> Point {
    let (x, y) = offset(p);
    let (x, y) = SYMMETRIES[k](x, y);
    at(x, y).expect("symmetries about the centre keep points on the board")
}

fn in_ssw(dx: i32, dy: i32) -> bool {
    dy < 0 && dy <= dx && dx <= 0
}

/// The DIF name of white's first move `white` (two distinct points, neither `J10`).
pub fn name_white(white: [Point; 2]) -> Opening {
    assert!(white[0] != white[1] && !white.contains(&CENTER));
    let mut best: Option<((i32, i32, i32, i32), Opening)> = None;
    for sym in SYMMETRIES {
        for (a, b) in [(white[0], white[1]), (white[1], white[0])] {
            let (ax, ay) = offset(a);
            let (bx, by) = offset(b);
            let (ax, ay) = sym(ax, ay);
            let (bx, by) = sym(bx, by);
            if !in_ssw(ax, ay) {
                continue;
            }
            // Smaller is better: nearer first stone (|dy|, |dx|), then the second stone to the
            // right (larger dx), then lower (smaller dy).
            let key = (ay.abs(), ax.abs(), -bx, by);
            let cand = Opening {
                first: at(ax, ay).expect("on board"),
                second: at(bx, by).expect("on board"),
            };
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, cand));
            }
        }
    }
    best.expect("every point but the centre has an image in the south-south-west eighth")
        .1
}

/// The DIF name of a line's opening (its first three stones; black's must be `J10`).
pub fn name_line(stones: &[Point]) -> Result<Opening, NameError> {
    if stones.len() < 3 {
        return Err(NameError::TooShort(stones.len()));
    }
    if stones[0] != CENTER {
        return Err(NameError::NotCentered(stones[0]));
    }
    Ok(name_white([stones[1], stones[2]]))
}

/// Parse a name in short form (`X-J8`, `TT-L10`, also without the dash: `TL11`) or coordinate
/// form (`I9-J8`); the stones need not be normalised. Case-insensitive.
pub fn parse_name(text: &str) -> Result<Opening, NameError> {
    let bad = || NameError::BadName(crate::text::excerpt(text));
    let upper = text.trim().to_ascii_uppercase();
    // `TL11` (as printed in the thesis) is `T-L11`: T and X are not column letters.
    let split = upper.find(|c| c != 'T' && c != 'X').unwrap_or(upper.len());
    let (head, tail) = match upper.split_once('-') {
        Some(parts) => parts,
        None if split > 0 => (&upper[..split], &upper[split..]),
        None => return Err(bad()),
    };
    let second: Point = tail.trim().parse().map_err(|_| bad())?;
    let first = if !head.is_empty() && head.chars().all(|c| c == 'T' || c == 'X') {
        let (mut dx, mut dy) = (0, 0);
        for c in head.chars() {
            dy -= 1;
            if c == 'X' {
                dx -= 1;
            }
        }
        at(dx, dy).ok_or_else(bad)?
    } else {
        head.trim().parse::<Point>().map_err(|_| bad())?
    };
    let impossible = |reason: String| NameError::Impossible {
        name: crate::text::excerpt(text.trim()),
        reason,
    };
    if first == second {
        return Err(impossible(format!("both white stones would be on {first}")));
    }
    if first == CENTER || second == CENTER {
        return Err(impossible(format!(
            "a white stone would be on {CENTER}, black's first stone"
        )));
    }
    Ok(Opening { first, second })
}

/// Every distinct white first move with both stones within Chebyshev distance `reach` of the
/// centre, by name, ordered by short name.
pub fn all_within(reach: usize) -> Vec<Opening> {
    let near: Vec<Point> = Game::CONNECT6
        .points()
        .filter(|&p| p != CENTER && p.distance(CENTER) <= reach)
        .collect();
    let mut out: Vec<Opening> = near
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| near[i + 1..].iter().map(move |&b| name_white([a, b])))
        .collect();
    out.sort_by_key(|o| (o.short(), o.name()));
    out.dedup();
    out
}

/// One of the 26 openings pictured in 000 §2.2.1 (figures 2.5–2.30).
#[derive(Clone, Copy, Debug)]
pub struct NamedOpening {
    /// Figure number in the thesis.
    pub figure: &'static str,
    /// The name as printed.
    pub printed: &'static str,
    /// The name in standard short form (differs only for figure 2.23, printed `TL11`).
    pub short: &'static str,
}

/// The 26 commonly played openings of 000 §2.2.1, in the thesis's order. The list names only
/// 24 distinct openings: `TT-L8` (figures 2.12 and 2.21) and `TT-K8` (2.11 and 2.25) appear
/// twice; figure 2.23's `TL11` is read as `T-L11`.
pub const NAMED: [NamedOpening; 26] = {
    const fn n(figure: &'static str, printed: &'static str, short: &'static str) -> NamedOpening {
        NamedOpening {
            figure,
            printed,
            short,
        }
    }
    [
        n("2.5", "X-J8", "X-J8"),
        n("2.6", "X-K9", "X-K9"),
        n("2.7", "T-K11", "T-K11"),
        n("2.8", "X-L10", "X-L10"),
        n("2.9", "X-K8", "X-K8"),
        n("2.10", "TT-L10", "TT-L10"),
        n("2.11", "TT-K8", "TT-K8"),
        n("2.12", "TT-L8", "TT-L8"),
        n("2.13", "T-J12", "T-J12"),
        n("2.14", "T-K12", "T-K12"),
        n("2.15", "T-J11", "T-J11"),
        n("2.16", "TT-L12", "TT-L12"),
        n("2.17", "T-K10", "T-K10"),
        n("2.18", "X-K11", "X-K11"),
        n("2.19", "TX-K8", "TX-K8"),
        n("2.20", "TT-J12", "TT-J12"),
        n("2.21", "TT-L8", "TT-L8"),
        n("2.22", "T-K8", "T-K8"),
        n("2.23", "TL11", "T-L11"),
        n("2.24", "X-L9", "X-L9"),
        n("2.25", "TT-K8", "TT-K8"),
        n("2.26", "X-L11", "X-L11"),
        n("2.27", "X-I8", "X-I8"),
        n("2.28", "T-L12", "T-L12"),
        n("2.29", "T-L9", "T-L9"),
        n("2.30", "T-J8", "T-J8"),
    ]
};

/// The distinct named openings (24), each with the figures showing it, in the thesis's order.
pub fn named_openings() -> Vec<(Opening, Vec<&'static str>)> {
    let mut out: Vec<(Opening, Vec<&'static str>)> = Vec::new();
    for n in NAMED {
        let o = parse_name(n.short).expect("the built-in names parse");
        match out.iter_mut().find(|(p, _)| *p == o) {
            Some((_, figs)) => figs.push(n.figure),
            None => out.push((o, vec![n.figure])),
        }
    }
    out
}

/// Why a line cannot be read ([`parse_line_or_name`]).
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// A token meant as an opening name that is none.
    #[error(transparent)]
    Name(#[from] NameError),
    /// Not a game (or, where a line is needed, one without its play order).
    #[error(transparent)]
    Parse(#[from] crate::notation::ParseError),
    /// The stones of a name that do not make a game.
    #[error(transparent)]
    Position(#[from] crate::PositionError),
}

/// A line: a DIF opening name (`X-J8`, Connect6) or a game in any format that keeps the play
/// order (what `cpbim name` reads).
pub fn parse_line_or_name(text: &str, how: crate::Reading) -> Result<crate::Record, LineError> {
    let record = parse_game_or_name(text, how)?;
    if record.ordered() {
        Ok(record)
    } else {
        Err(crate::notation::ParseError::NotALine.into())
    }
}

/// A DIF opening name (`X-J8`, Connect6), the name of one of the 26 three-stone openings of
/// the games of five (`Kagetsu`, `花月`), or a game in any format, a diagram too (what
/// `cpbim analyze` reads).
pub fn parse_game_or_name(text: &str, how: crate::Reading) -> Result<crate::Record, LineError> {
    if let Some(stones) = crate::five_openings::stones_of(&how.game, text) {
        return Ok(crate::Record::from_stones(how.game, &stones)?);
    }
    match parse_name(text) {
        Ok(o) if how.game.is_connect6() => Ok(crate::Record::from_stones(how.game, &o.stones())?),
        // One token with a dash is meant as a name: say why it is none.
        Err(e) if is_name_like(text) => Err(e.into()),
        _ => Ok(crate::parse_record(text, how)?),
    }
}

fn is_name_like(text: &str) -> bool {
    let t = text.trim();
    t.contains('-') && !t.contains(|c: char| c.is_whitespace() || "(){},\"".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn short_forms() {
        let o = name_white([p("I9"), p("J8")]);
        assert_eq!((o.name(), o.short()), ("I9-J8".into(), "X-J8".into()));
        let o = name_white([p("L10"), p("J8")]);
        assert_eq!(o.short(), "TT-L10");
        let o = name_white([p("K8"), p("I8")]);
        assert_eq!(o.short(), "TX-K8");
    }

    #[test]
    fn transforms_are_a_group_of_eight() {
        let q = p("K8");
        let images: std::collections::HashSet<Point> = (0..8).map(|k| transform(q, k)).collect();
        assert_eq!(images.len(), 8);
    }
}
