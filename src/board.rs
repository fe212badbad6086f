//! The plain board and game positions at move boundaries.

use crate::geom::{Color, Dir, Point, Rules, GEOMETRY, K, POINTS, SIZE};
use crate::record::Record;
use std::fmt;

/// An intersection array: what lies on each point.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Color>; POINTS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [None; POINTS],
        }
    }
}

impl Board {
    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.index()]
    }

    /// Put `stone` on `p` (or clear it with `None`).
    #[inline]
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        self.cells[p.index()] = stone;
    }

    /// Is `p` empty?
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()].is_none()
    }

    /// Number of stones of `c`.
    pub fn count(&self, c: Color) -> usize {
        self.cells.iter().filter(|&&s| s == Some(c)).count()
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|s| s.is_some()).count()
    }

    /// Every stone with its colour, in point order.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        Point::all().filter_map(|p| self.get(p).map(|c| (p, c)))
    }

    /// Six (or more) in a row of `c` through `p`, if `p` holds a stone of `c`: the first six
    /// points of the run in direction order.
    pub fn six_through(&self, p: Point, c: Color) -> Option<[Point; K]> {
        if self.get(p) != Some(c) {
            return None;
        }
        for dir in Dir::ALL {
            let mut start = p;
            while let Some(q) = start.step(dir, -1).filter(|&q| self.get(q) == Some(c)) {
                start = q;
            }
            let mut run = [start; K];
            let mut n = 0;
            let mut q = Some(start);
            while let Some(x) = q.filter(|&x| self.get(x) == Some(c)) {
                if n < K {
                    run[n] = x;
                }
                n += 1;
                q = x.step(dir, 1);
            }
            if n >= K {
                return Some(run);
            }
        }
        None
    }

    /// A six (or longer row) anywhere on the board: its colour and first six points.
    pub fn find_six(&self) -> Option<(Color, [Point; K])> {
        self.find_six_where(|_| true)
    }

    /// A six (or longer row) of `c` anywhere on the board: its first six points.
    pub fn find_six_of(&self, c: Color) -> Option<[Point; K]> {
        self.find_six_where(|x| x == c).map(|(_, six)| six)
    }

    fn find_six_where(&self, wanted: impl Fn(Color) -> bool) -> Option<(Color, [Point; K])> {
        for line in &GEOMETRY.lines {
            let mut run = 0;
            let mut last = None;
            for (i, &p) in line.points[..line.len as usize].iter().enumerate() {
                let s = self.get(p);
                run = if s.is_some() && s == last { run + 1 } else { 1 };
                last = s;
                if let (Some(c), true) = (s, run >= K && s.is_some_and(&wanted)) {
                    let first = i + 1 - K;
                    let mut six = [p; K];
                    six.copy_from_slice(&line.points[first..first + K]);
                    return Some((c, six));
                }
            }
        }
        None
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&diagram(self, None))
    }
}

/// The board as a diagram with coordinate margins: the top line is row 19, `X` black, `O` white,
/// `.` empty. Points in `marks` that are empty are drawn `*`.
pub fn diagram(board: &Board, marks: Option<&[Point]>) -> String {
    let mut s = String::new();
    let header: String = (0..SIZE)
        .map(|c| format!(" {}", (b'A' + c as u8) as char))
        .collect();
    s.push_str(&format!("  {header}\n"));
    for row in (0..SIZE).rev() {
        s.push_str(&format!("{:>2}", row + 1));
        for col in 0..SIZE {
            let p = Point::new(col, row).expect("on board");
            let ch = match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if marks.is_some_and(|m| m.contains(&p)) => '*',
                None => '.',
            };
            s.push(' ');
            s.push(ch);
        }
        s.push_str(&format!(" {}\n", row + 1));
    }
    s.push_str(&format!("  {header}\n"));
    s
}

/// Why a set of stones is not a position to work on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A stone on a point that already holds one.
    #[error("{token}: point is already occupied")]
    Occupied {
        /// The point as written.
        token: String,
    },
    /// A stone list that does not end at a move boundary.
    #[error("{count} stones is not a move boundary: a position holds 0 or 1 + 2m stones (black's first stone, then two per move)")]
    StoneCount {
        /// Stones given.
        count: usize,
    },
    /// A diagram whose stone counts no game can reach.
    #[error("{black} black and {white} white stones cannot occur at a move boundary (black has one stone more or one fewer than white, and an odd number)")]
    ColorCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
    /// A position in which a side already has six in a row.
    #[error("position is already won: {color} has six in a row at {six}")]
    AlreadyWon {
        /// The side with six.
        color: Color,
        /// The six points, space-separated.
        six: String,
    },
    /// A stone played after the move that completed six.
    #[error("{token}: stone {index} is played after the game ended ({color} made six at {six} with stone {ended_at})")]
    AfterEnd {
        /// The stone as written.
        token: String,
        /// Its 1-based number in play order.
        index: usize,
        /// The winner.
        color: Color,
        /// The six points, space-separated.
        six: String,
        /// 1-based number of the stone that completed six.
        ended_at: usize,
    },
    /// A diagram where both sides have six.
    #[error(
        "both sides have six in a row (black at {black}, white at {white}): no game ends that way"
    )]
    BothSix {
        /// Black's six.
        black: String,
        /// White's six.
        white: String,
    },
    /// A diagram with a six whose stone counts do not end on the winner's move.
    #[error("{color} has six at {six}, but {black} black and {white} white stones cannot end on a move of {color} (a game ends with the move, or the first stone of the move, that makes six)")]
    FinishedCounts {
        /// The side with six.
        color: Color,
        /// The six points, space-separated.
        six: String,
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
}

/// The six points of a row, space-separated.
pub(crate) fn six_text(six: &[Point; K]) -> String {
    six.map(|p| p.to_string()).join(" ")
}

/// A position at a move boundary: the board, the stones in play order, the side to move.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    stones: Vec<Point>,
}

impl Position {
    /// The empty board, black to place the first stone.
    pub fn empty() -> Self {
        Position {
            board: Board::new(),
            stones: Vec::new(),
        }
    }

    /// The position after playing `stones` in order (black's one, then two per side), with the
    /// token each stone was written as (for error messages). A game that is already won is
    /// refused ([`PositionError::AlreadyWon`]); [`Record`] reads finished games.
    pub fn from_tokens(stones: &[(Point, String)]) -> Result<Self, PositionError> {
        Record::from_tokens(stones)?.position()
    }

    /// A position from its parts, which the caller has checked: `stones` in play order make
    /// `board`, at a move boundary, without six.
    pub(crate) fn from_parts(board: Board, stones: Vec<Point>) -> Position {
        Position { board, stones }
    }

    /// The position after playing `stones` in order.
    pub fn from_stones(stones: &[Point]) -> Result<Self, PositionError> {
        let tokens: Vec<(Point, String)> = stones.iter().map(|&p| (p, p.to_string())).collect();
        Self::from_tokens(&tokens)
    }

    /// A position from a board alone. Its stone counts must be reachable at a move boundary;
    /// a play order consistent with the colours is made up (points in index order).
    pub fn from_board(board: Board) -> Result<Self, PositionError> {
        Record::from_board(board)?.position()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Stones in play order (made up for positions read from a diagram).
    pub fn stones(&self) -> &[Point] {
        &self.stones
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        Rules::CONNECT6.color_of_stone(self.stones.len())
    }

    /// Stones the side to move places now (1 on the empty board, else 2).
    pub fn stones_to_place(&self) -> usize {
        if self.stones.is_empty() {
            1
        } else {
            2
        }
    }

    /// The stone list in play order, moves separated by two spaces for reading:
    /// `J10  K11 I11  H11 I10`.
    pub fn to_stone_list(&self) -> String {
        crate::notation::list::stone_list(&self.stones)
    }

    /// The diagram of [`diagram`].
    pub fn to_diagram(&self) -> String {
        diagram(&self.board, None)
    }

    /// This position with `more` stones played after it (which must end at a move boundary).
    pub fn play(&self, more: &[Point]) -> Result<Position, PositionError> {
        let mut all = self.stones.clone();
        all.extend_from_slice(more);
        Position::from_stones(&all)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_stone_list())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn side_to_move_follows_count() {
        assert_eq!(Position::empty().to_move(), Color::Black);
        let p = Position::from_stones(&pts("J10")).unwrap();
        assert_eq!(p.to_move(), Color::White);
        let p = Position::from_stones(&pts("J10 K11 I11")).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.board().get(pts("K11")[0]), Some(Color::White));
    }

    #[test]
    fn six_detection() {
        // Black: A1..F1 would be a six; built through a diagram-free board.
        let mut b = Board::new();
        for c in 0..6 {
            b.set(Point::new(c + 3, 4).unwrap(), Some(Color::Black));
        }
        let (c, six) = b.find_six().unwrap();
        assert_eq!(c, Color::Black);
        assert_eq!(six[0].to_string(), "D5");
        assert!(b
            .six_through(Point::new(5, 4).unwrap(), Color::Black)
            .is_some());
        b.set(Point::new(5, 4).unwrap(), None);
        assert!(b.find_six().is_none());
        // Seven in a row on a diagonal also counts.
        let mut b = Board::new();
        for i in 0..7 {
            b.set(Point::new(18 - i, i).unwrap(), Some(Color::White));
        }
        assert_eq!(b.find_six().unwrap().0, Color::White);
    }

    #[test]
    fn from_board_makes_a_consistent_order() {
        let p = Position::from_stones(&pts("J10 K11 I11 H11 I10")).unwrap();
        let q = Position::from_board(p.board().clone()).unwrap();
        assert_eq!(q.board(), p.board());
        assert_eq!(q.to_move(), p.to_move());
    }
}
