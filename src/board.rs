//! The plain board of a game and positions at move boundaries.

use crate::game::Game;
use crate::geom::{Color, Dir, Point, MAX_POINTS};
use std::fmt;

/// An intersection array of a game's board: what lies on each point.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    game: Game,
    cells: [Option<Color>; MAX_POINTS],
    /// [`Board::packed`], kept as stones are set (the proof search keys its table by it at
    /// every node: packing 400 cells afresh there was 6 % of its time).
    packed: [u64; PACKED_WORDS],
}

/// The low bit of every pair of bits of a packed word.
const PAIRS_LOW: u64 = 0x5555_5555_5555_5555;

impl std::hash::Hash for Board {
    /// The game, and the cells packed two bits each into words (the derived hash fed the
    /// hasher one cell at a time: the proof search's table of whole boards spent a tenth of
    /// its time hashing them).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.game.hash(state);
        self.packed().iter().for_each(|&w| state.write_u64(w));
    }
}

/// Words of [`Board::packed`].
pub const PACKED_WORDS: usize = MAX_POINTS.div_ceil(32);

impl Default for Board {
    /// The empty Connect6 board.
    fn default() -> Self {
        Board::new(Game::CONNECT6)
    }
}

impl Board {
    /// The empty board of `game`.
    pub fn new(game: Game) -> Self {
        Board {
            game,
            cells: [None; MAX_POINTS],
            packed: [0; PACKED_WORDS],
        }
    }

    /// The game whose board this is.
    #[inline]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.index()]
    }

    /// The stone on the point of index `i` ([`Point::index`]); `i` below [`MAX_POINTS`].
    #[inline]
    pub(crate) fn get_index(&self, i: usize) -> Option<Color> {
        self.cells[i]
    }

    /// Put `stone` on `p` (or clear it with `None`); `p` must be on the game's board.
    #[inline]
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        debug_assert!(self.game.contains(p), "{p} is off the {} board", self.game);
        let i = p.index();
        self.cells[i] = stone;
        let shift = 2 * (i % 32);
        let code = match stone {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
        let word = &mut self.packed[i / 32];
        *word = *word & !(3 << shift) | code << shift;
    }

    /// The cells two bits each (0 empty, 1 black, 2 white), point i at bits 2(i mod 32) of word
    /// i / 32: two boards of one game are equal exactly when these are.
    #[inline]
    pub fn packed(&self) -> [u64; PACKED_WORDS] {
        self.packed
    }

    /// Is `p` empty?
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()].is_none()
    }

    /// Number of stones of `c`.
    pub fn count(&self, c: Color) -> usize {
        // Read from the packed words: the low bit of a pair is black's, the high bit white's.
        let words = self.packed.iter();
        let bits = |w: u64| match c {
            Color::Black => w & !(w >> 1),
            Color::White => w >> 1 & !w,
        };
        words
            .map(|&w| (bits(w) & PAIRS_LOW).count_ones() as usize)
            .sum()
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        // A nonzero pair of bits in the packed words: every leaf search of the proof search
        // asks, and counting the 400 cells was 2–3 % of a Renju proof's instructions.
        let words = self.packed.iter();
        words
            .map(|&w| ((w | w >> 1) & PAIRS_LOW).count_ones() as usize)
            .sum()
    }

    /// Every stone with its colour, in point order.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        // Read from the packed words (a stone is a nonzero pair of bits): a board of 361
        // points holds a few dozen stones, and testing every cell was a tenth of building a
        // model from a board.
        self.packed.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let cell = rest.trailing_zeros() / 2;
                let code = rest >> (2 * cell) & 3;
                rest &= !(3 << (2 * cell));
                let p = Point::from_index(w * 32 + cell as usize).expect("a packed cell");
                Some((
                    p,
                    if code == 1 {
                        Color::Black
                    } else {
                        Color::White
                    },
                ))
            })
        })
    }

    /// A winning row of `c` through `p` (k in a row under the game's rule), if `p` holds a
    /// stone of `c`: the first k points of the row in line order.
    pub fn win_through(&self, p: Point, c: Color) -> Option<Vec<Point>> {
        if self.get(p) != Some(c) {
            return None;
        }
        let g = &self.game;
        let own = |q: &Point| self.get(*q) == Some(c);
        for dir in Dir::ALL {
            let mut start = p;
            while let Some(q) = g.step(start, dir, -1).filter(own) {
                start = q;
            }
            let run = std::iter::successors(Some(start), |&x| g.step(x, dir, 1).filter(own));
            if g.wins(c, run.clone().count()) {
                return Some(run.take(g.k()).collect());
            }
        }
        None
    }

    /// A winning row of `c` anywhere on the board: its first k points.
    pub fn find_win_of(&self, c: Color) -> Option<Vec<Point>> {
        let g = &self.game;
        g.geometry().lines.iter().find_map(|line| {
            let points = &line.points[..line.len as usize];
            self.runs(points, c)
                .find(|r| g.wins(c, r.len))
                .map(|r| points[r.start..r.start + g.k()].to_vec())
        })
    }

    /// The maximal runs of `c`'s stones among `points` (a line, in order), with the room
    /// around each.
    pub fn runs<'a>(&'a self, points: &'a [Point], c: Color) -> impl Iterator<Item = Run> + 'a {
        let free = move |p: &&Point| self.get(**p) != Some(c.opponent());
        let mut i = 0;
        std::iter::from_fn(move || {
            while i < points.len() && self.get(points[i]) != Some(c) {
                i += 1;
            }
            let start = i;
            while i < points.len() && self.get(points[i]) == Some(c) {
                i += 1;
            }
            (i > start).then(|| Run {
                start,
                len: i - start,
                room_left: points[..start].iter().rev().take_while(free).count(),
                room_right: points[i..].iter().take_while(free).count(),
            })
        })
    }
}

/// A maximal run of one colour's stones in a line ([`Board::runs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Index of its first stone among the line's points.
    pub start: usize,
    /// Its stones.
    pub len: usize,
    /// Points before it and after it, up to an opponent's stone or the edge (empty or the
    /// run's colour): how far it could grow.
    pub room_left: usize,
    /// See `room_left`.
    pub room_right: usize,
}

impl Run {
    /// Index just past its last stone.
    pub fn end(&self) -> usize {
        self.start + self.len
    }

    /// Could it become a row of `k` (the run and its room together at least `k` long)?
    pub fn has_room(&self, k: usize) -> bool {
        self.room_left + self.len + self.room_right >= k
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&diagram(self, None))
    }
}

/// The board as a diagram with coordinate margins: the top line is the last row, `X` black,
/// `O` white, `.` empty. Points in `marks` that are empty are drawn `*`.
pub fn diagram(board: &Board, marks: Option<&[Point]>) -> String {
    let g = board.game();
    let mut s = String::new();
    let header: String = (0..g.m())
        .map(|c| format!(" {}", (b'A' + c as u8) as char))
        .collect();
    s.push_str(&format!("  {header}\n"));
    for row in (0..g.n()).rev() {
        s.push_str(&format!("{:>2}", row + 1));
        for col in 0..g.m() {
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
    /// A stone off the game's board.
    #[error("{token:?} is off the board: {reason}")]
    OffBoard {
        /// The point as written.
        token: String,
        /// Why.
        reason: String,
    },
    /// A stone on a point that already holds one.
    #[error("{token}: point is already occupied")]
    Occupied {
        /// The point as written.
        token: String,
    },
    /// A stone list that does not end at a move boundary.
    #[error("{count} stones is not a move boundary of {game}: {rule}")]
    StoneCount {
        /// Stones given.
        count: usize,
        /// The game.
        game: Game,
        /// How its moves go.
        rule: String,
    },
    /// A diagram whose stone counts no game can reach.
    #[error("{black} black and {white} white stones cannot occur at a move boundary of {game} ({rule}); give --to-move to set the side to move of a puzzle")]
    ColorCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
        /// The game.
        game: Game,
        /// How its moves go.
        rule: String,
    },
    /// A position in which a side has already won.
    #[error("position is already won: {color} has {word} in a row at {row}")]
    AlreadyWon {
        /// The winner.
        color: Color,
        /// `six`, `five`, …
        word: String,
        /// The winning row's points, space-separated.
        row: String,
    },
    /// A stone played after the move that won.
    #[error("{token}: stone {index} is played after the game ended ({color} made {word} at {row} with stone {ended_at})")]
    AfterEnd {
        /// The stone as written.
        token: String,
        /// Its 1-based number in play order.
        index: usize,
        /// The winner.
        color: Color,
        /// `six`, `five`, …
        word: String,
        /// The winning row's points, space-separated.
        row: String,
        /// 1-based number of the stone that won.
        ended_at: usize,
    },
    /// A diagram where both sides have won.
    #[error(
        "both sides have a winning row (black at {black}, white at {white}): no game ends that way"
    )]
    BothWon {
        /// Black's row.
        black: String,
        /// White's row.
        white: String,
    },
    /// A diagram with a winning row whose stone counts do not end on the winner's move.
    #[error("{color} has won at {row}, but {black} black and {white} white stones cannot end on a move of {color} (a game ends with the move, or the stone of the move, that wins); give --to-move to read it as a puzzle")]
    FinishedCounts {
        /// The winner.
        color: Color,
        /// The winning row's points, space-separated.
        row: String,
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
    /// A side to move that the play order contradicts.
    #[error("the record has {actual} to move; --to-move {asked} applies to diagrams only")]
    ToMove {
        /// The side the record gives.
        actual: Color,
        /// The side asked for.
        asked: Color,
    },
}

/// Points as the game writes them, space-separated: `J10 K10`.
pub(crate) fn points_text(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the moves of `game` go, for error messages.
pub(crate) fn moves_rule(game: &Game) -> String {
    let (p, q) = (game.p(), game.q());
    let stone = |n: usize| if n == 1 { "one stone" } else { "two stones" };
    if p == 1 {
        "one stone per move".into()
    } else {
        format!(
            "a position holds 0 or {q} + {p}m stones (black's first move of {}, then {} per move)",
            stone(q),
            stone(p)
        )
    }
}

/// A position at a move boundary: the board, the stones in play order, the side to move.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    stones: Vec<Point>,
    to_move: Color,
}

impl Position {
    /// The empty board of `game`, black to move.
    pub fn empty(game: Game) -> Self {
        Position {
            board: Board::new(game),
            stones: Vec::new(),
            to_move: Color::Black,
        }
    }

    /// A position from its parts, which the caller has checked: `stones` make `board`, without
    /// a winning row, and `to_move` is to move.
    pub(crate) fn from_parts(board: Board, stones: Vec<Point>, to_move: Color) -> Position {
        Position {
            board,
            stones,
            to_move,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.board.game()
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
        self.to_move
    }

    /// Stones the side to move places now: black's first move q, every later move p.
    pub fn stones_to_place(&self) -> usize {
        self.game()
            .stones_to_place(self.board.stones(), self.to_move)
    }

    /// The diagram of [`diagram`].
    pub fn to_diagram(&self) -> String {
        diagram(&self.board, None)
    }

    /// This position with `more` stones played after it (which must end at a move boundary).
    pub fn play(&self, more: &[Point]) -> Result<Position, PositionError> {
        let mut all = self.stones.clone();
        all.extend_from_slice(more);
        Position::from_stones(*self.game(), &all)
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

    const C6: Game = Game::CONNECT6;

    proptest::proptest! {
        /// The packed cells kept by `set` are the cells packed afresh, whatever was set and
        /// cleared in whatever order; two boards are equal exactly when they are; the stones
        /// and their counts read from the packed words are the cells'.
        #[test]
        fn the_kept_packing_is_the_cells_packed(
            steps in proptest::collection::vec((0usize..361, 0u8..3), 0..200),
        ) {
            let mut b = Board::new(C6);
            let mut again = Board::new(C6);
            for &(i, code) in &steps {
                let p = C6.points().nth(i).unwrap();
                let stone = [None, Some(Color::Black), Some(Color::White)][code as usize];
                b.set(p, stone);
                let mut words = [0u64; PACKED_WORDS];
                for (j, cell) in b.cells.iter().enumerate() {
                    let code = match cell {
                        None => 0,
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                    };
                    words[j / 32] |= code << (2 * (j % 32));
                }
                proptest::prop_assert_eq!(b.packed(), words);
            }
            // The same stones set in point order on a fresh board.
            for p in C6.points() {
                if let Some(c) = b.get(p) {
                    again.set(p, Some(c));
                }
            }
            proptest::prop_assert_eq!(again.packed(), b.packed());
            proptest::prop_assert!(again == b);
            // The stones read from the packed words are the cells' stones, in point order.
            let cells: Vec<(Point, Color)> =
                C6.points().filter_map(|p| b.get(p).map(|c| (p, c))).collect();
            proptest::prop_assert_eq!(&b.iter().collect::<Vec<_>>(), &cells);
            // The counts read from the packed words are the cells counted.
            let of = |c: Color| cells.iter().filter(|&&(_, x)| x == c).count();
            proptest::prop_assert_eq!(b.stones(), cells.len());
            proptest::prop_assert_eq!(b.count(Color::Black), of(Color::Black));
            proptest::prop_assert_eq!(b.count(Color::White), of(Color::White));
        }
    }

    #[test]
    fn side_to_move_follows_count() {
        assert_eq!(Position::empty(C6).to_move(), Color::Black);
        let p = Position::from_stones(C6, &pts("J10")).unwrap();
        assert_eq!(p.to_move(), Color::White);
        let p = Position::from_stones(C6, &pts("J10 K11 I11")).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.board().get(pts("K11")[0]), Some(Color::White));
        let g = Position::from_stones(Game::GOMOKU, &pts("H8 I9")).unwrap();
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn winning_rows() {
        // Black: D5..I5 is a six.
        let mut b = Board::new(C6);
        for c in 0..6 {
            b.set(Point::new(c + 3, 4).unwrap(), Some(Color::Black));
        }
        let six = b.find_win_of(Color::Black).unwrap();
        assert_eq!(six[0].to_string(), "D5");
        assert_eq!(six.len(), 6);
        assert!(b
            .win_through(Point::new(5, 4).unwrap(), Color::Black)
            .is_some());
        b.set(Point::new(5, 4).unwrap(), None);
        assert!(b.find_win_of(Color::Black).is_none());
        // Seven in a row on a diagonal also counts in Connect6.
        let mut b = Board::new(C6);
        for i in 0..7 {
            b.set(Point::new(18 - i, i).unwrap(), Some(Color::White));
        }
        assert!(b.find_win_of(Color::White).is_some());
        // Six in a row wins freestyle Gomoku, not standard Gomoku; five wins both.
        for (game, wins6) in [(Game::GOMOKU, true), (Game::GOMOKU_STANDARD, false)] {
            let mut b = Board::new(game);
            for c in 0..6 {
                b.set(Point::new(c, 0).unwrap(), Some(Color::Black));
            }
            assert_eq!(b.find_win_of(Color::Black).is_some(), wins6, "{game}");
            b.set(Point::new(5, 0).unwrap(), None);
            assert_eq!(b.find_win_of(Color::Black).unwrap().len(), 5, "{game}");
        }
    }

    #[test]
    fn from_board_makes_a_consistent_order() {
        let p = Position::from_stones(C6, &pts("J10 K11 I11 H11 I10")).unwrap();
        let q = Position::from_board(p.board().clone()).unwrap();
        assert_eq!(q.board(), p.board());
        assert_eq!(q.to_move(), p.to_move());
    }

    #[test]
    fn diagrams_have_the_game_s_size() {
        let d = diagram(&Board::new(Game::GOMOKU), None);
        assert_eq!(d.lines().count(), 17);
        assert!(d.starts_with("   A B C D E F G H I J K L M N O\n15 ."));
    }
}
