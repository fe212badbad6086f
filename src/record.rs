//! Game records: the stones of a game in play order, from the start either to a move boundary
//! (a game in progress) or to the move that made six (a finished game), with what the record
//! says about the game (players, result, date, event).
//!
//! A [`Position`] is what the solver works on: a move boundary without six. A [`Record`] is
//! what users have: finished games included. [`Record::position`] gives the position of a game
//! in progress; [`Record::win`] tells how a finished game ended and [`Record::before_end`] gives
//! the position the winning move was played from.

use crate::board::{moves_rule, points_text, Board, Position, PositionError};
use crate::game::Game;
use crate::geom::{Color, Point};
use crate::text::excerpt;

/// What a record says about its game besides the stones. Every field is optional and kept as
/// written, so a record can be written back in another format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The game's number (`game_id` of the CSV records).
    pub id: Option<u64>,
    /// Black's player or team.
    pub black: Option<String>,
    /// White's player or team.
    pub white: Option<String>,
    /// The result as the record writes it (`先手胜`, `B+`, `black`, …).
    pub result: Option<String>,
    /// Date (and time) of the game.
    pub date: Option<String>,
    /// Where it was played.
    pub place: Option<String>,
    /// The event.
    pub event: Option<String>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    /// The side that won.
    pub winner: Color,
    /// The first k points of the winning row, in line order.
    pub row: Vec<Point>,
    /// The stones of the winning move as the record has them: the stone that won is among
    /// them (a record may end on the first stone of a move, the one that won). Empty when the
    /// play order is unknown (a diagram).
    pub last_move: Vec<Point>,
}

/// Where a recorded game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
// Made once per record and matched at once: boxing the position would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Status<'a> {
    /// In progress, at this position.
    InProgress(Position),
    /// Finished.
    Finished(&'a Win),
}

/// A game as read from a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    board: Board,
    stones: Vec<Point>,
    ordered: bool,
    win: Option<Win>,
    to_move: Color,
    /// What the record says besides the stones.
    pub info: Info,
}

impl Record {
    /// The game of `stones` played in order (black's first move of q stones, then p per side),
    /// each with the token it was written as (for error messages). The game may end at a move
    /// boundary, or with the move that wins: on the stone that wins, or with the whole move; no
    /// stone may follow.
    pub fn from_tokens(game: Game, stones: &[(Point, String)]) -> Result<Record, PositionError> {
        let mut board = Board::new(game);
        let mut win: Option<(Win, usize)> = None;
        for (i, (p, token)) in stones.iter().enumerate() {
            if !game.contains(*p) {
                return Err(PositionError::OffBoard {
                    token: excerpt(token),
                    reason: game.off_board_reason(*p),
                });
            }
            if let Some((w, ended_at)) = &win {
                if i >= game.move_of_stone(*ended_at).end {
                    return Err(PositionError::AfterEnd {
                        token: excerpt(token),
                        index: i + 1,
                        color: w.winner,
                        word: game.row_word().to_string(),
                        row: points_text(&w.row),
                        ended_at: ended_at + 1,
                    });
                }
            }
            if !board.is_empty(*p) {
                return Err(PositionError::Occupied {
                    token: excerpt(token),
                });
            }
            let color = game.color_of_stone(i);
            board.set(*p, Some(color));
            if win.is_none() {
                if let Some(row) = board.win_through(*p, color) {
                    let w = Win {
                        winner: color,
                        row,
                        last_move: Vec::new(),
                    };
                    win = Some((w, i));
                }
            }
        }
        let points: Vec<Point> = stones.iter().map(|s| s.0).collect();
        let win = match win {
            Some((mut w, ended_at)) => {
                let start = game.move_of_stone(ended_at).start;
                w.last_move = points[start..].to_vec();
                Some(w)
            }
            None if !game.is_move_boundary(points.len()) => {
                return Err(PositionError::StoneCount {
                    count: points.len(),
                    game,
                    rule: moves_rule(&game),
                })
            }
            None => None,
        };
        let to_move = game.color_of_stone(points.len());
        Ok(Record {
            board,
            stones: points,
            ordered: true,
            win,
            to_move,
            info: Info::default(),
        })
    }

    /// The game of `stones` played in order.
    pub fn from_stones(game: Game, stones: &[Point]) -> Result<Record, PositionError> {
        let tokens: Vec<(Point, String)> = stones.iter().map(|&p| (p, p.to_string())).collect();
        Self::from_tokens(game, &tokens)
    }

    /// A game from a board alone (a diagram). Without a winning row, the stone counts must be
    /// those of a move boundary, unless `to_move` says whose move it is (a puzzle: any
    /// counts); with a winning row of one side, they must be those after that side's move or
    /// after a stone of it. A play order consistent with the colours is made up (points in
    /// index order), and [`Record::ordered`] is false.
    pub fn from_board(board: Board, to_move: Option<Color>) -> Result<Record, PositionError> {
        let game = *board.game();
        let (b, w) = (board.count(Color::Black), board.count(Color::White));
        let total = b + w;
        let wins = [Color::Black, Color::White].map(|c| board.find_win_of(c));
        let counts_fit = |count: usize| game.black_stones(count) == b;
        let (win, side) = match wins {
            [None, None] => {
                let side = match to_move.or_else(|| side_by_counts(&board)) {
                    Some(side) => side,
                    None => {
                        return Err(PositionError::ColorCounts {
                            black: b,
                            white: w,
                            game,
                            rule: moves_rule(&game),
                        })
                    }
                };
                (None, side)
            }
            [Some(black), Some(white)] => {
                return Err(PositionError::BothWon {
                    black: points_text(&black),
                    white: points_text(&white),
                })
            }
            [Some(ref row), None] | [None, Some(ref row)] => {
                let winner = if wins[0].is_some() {
                    Color::Black
                } else {
                    Color::White
                };
                // The winner placed the last stone: of a whole move or of a part of one.
                let fits =
                    total > 0 && counts_fit(total) && game.color_of_stone(total - 1) == winner;
                if !fits && to_move.is_none() {
                    return Err(PositionError::FinishedCounts {
                        color: winner,
                        row: points_text(row),
                        black: b,
                        white: w,
                    });
                }
                let w = Win {
                    winner,
                    row: row.clone(),
                    last_move: Vec::new(),
                };
                (Some(w), winner.opponent())
            }
        };
        let stones = made_up_order(&board);
        Ok(Record {
            board,
            stones,
            ordered: false,
            win,
            to_move: side,
            info: Info::default(),
        })
    }

    /// The board at the end of the record.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stones in play order (made up when [`Record::ordered`] is false).
    pub fn stones(&self) -> &[Point] {
        &self.stones
    }

    /// Was the play order read (true), or made up from a diagram (false)?
    pub fn ordered(&self) -> bool {
        self.ordered
    }

    /// How the game ended, if it is finished.
    pub fn win(&self) -> Option<&Win> {
        self.win.as_ref()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.board.game()
    }

    /// The game in progress with its position, or how it ended.
    pub fn status(&self) -> Status<'_> {
        match &self.win {
            Some(w) => Status::Finished(w),
            None => Status::InProgress(Position::from_parts(
                self.board.clone(),
                self.stones.clone(),
                self.to_move,
            )),
        }
    }

    /// This record with `side` to move: for a diagram, whatever its counts (a puzzle); for a
    /// record with its play order, `side` must be the one the order gives.
    pub fn with_to_move(mut self, side: Color) -> Result<Record, PositionError> {
        if self.ordered && side != self.to_move {
            return Err(PositionError::ToMove {
                actual: self.to_move,
                asked: side,
            });
        }
        if !self.ordered && self.win.is_none() {
            self.to_move = side;
        }
        Ok(self)
    }

    /// Does the play order (read or made up) replay to this board under the game's turns? False
    /// for a diagram read as a puzzle whose counts are not those of a move boundary.
    pub fn order_replays(&self) -> bool {
        let game = self.game();
        self.stones
            .iter()
            .enumerate()
            .all(|(i, &p)| self.board.get(p) == Some(game.color_of_stone(i)))
    }

    /// The position of a game in progress; a finished game is refused with
    /// [`PositionError::AlreadyWon`].
    pub fn position(&self) -> Result<Position, PositionError> {
        match self.status() {
            Status::Finished(w) => Err(PositionError::AlreadyWon {
                color: w.winner,
                word: self.game().row_word().to_string(),
                row: points_text(&w.row),
            }),
            Status::InProgress(pos) => Ok(pos),
        }
    }

    /// The position the game was at before its last move: for a finished game with a known
    /// play order, the position the winning move was played from; for a game in progress, its
    /// position. `None` for a finished diagram (the order is unknown).
    pub fn before_end(&self) -> Option<Position> {
        match &self.win {
            None => self.position().ok(),
            Some(w) if self.ordered => {
                let n = self.stones.len() - w.last_move.len();
                let mut board = self.board.clone();
                for &p in &self.stones[n..] {
                    board.set(p, None);
                }
                let to_move = self.game().color_of_stone(n);
                Some(Position::from_parts(
                    board,
                    self.stones[..n].to_vec(),
                    to_move,
                ))
            }
            Some(_) => None,
        }
    }

    /// Is this a puzzle: a game in progress whose side to move is not the one its stone counts
    /// give (a diagram read with a side to move)?
    pub fn is_puzzle(&self) -> bool {
        self.win.is_none() && side_by_counts(&self.board) != Some(self.to_move)
    }

    /// The side to move at the end of the record (for a finished game: the loser, who can no
    /// longer move).
    pub fn to_move(&self) -> Color {
        match &self.win {
            Some(w) => w.winner.opponent(),
            None => self.to_move,
        }
    }
}

/// The side to move that `board`'s stone counts give: `None` when they are not those of a
/// move boundary of its game.
fn side_by_counts(board: &Board) -> Option<Color> {
    let game = board.game();
    let (b, w) = (board.count(Color::Black), board.count(Color::White));
    let total = b + w;
    (game.is_move_boundary(total) && game.black_stones(total) == b)
        .then(|| game.color_of_stone(total))
}

impl From<Position> for Record {
    fn from(pos: Position) -> Record {
        Record {
            board: pos.board().clone(),
            stones: pos.stones().to_vec(),
            ordered: true,
            win: None,
            to_move: pos.to_move(),
            info: Info::default(),
        }
    }
}

/// A play order for the stones of `board`: each side's stones in point order, interleaved as
/// the game deals the turns (extra stones of one side, as after a winning first stone or in a
/// puzzle, last).
fn made_up_order(board: &Board) -> Vec<Point> {
    let game = board.game();
    let of = |c: Color| board.iter().filter(move |s| s.1 == c).map(|s| s.0);
    let (mut black, mut white) = (of(Color::Black), of(Color::White));
    let mut order = Vec::with_capacity(board.stones());
    for i in 0.. {
        let next = match game.color_of_stone(i) {
            Color::Black => black.next(),
            Color::White => white.next(),
        };
        match next {
            Some(p) => order.push(p),
            None => break,
        }
    }
    order.extend(black.chain(white));
    order
}

/// Positions read through a record (which checks the play order and the win).
impl Position {
    /// The position after playing `stones` of `game` in order, with the token each stone was
    /// written as (for error messages). A game that is already won is refused
    /// ([`PositionError::AlreadyWon`]); [`Record`] reads finished games.
    pub fn from_tokens(game: Game, stones: &[(Point, String)]) -> Result<Self, PositionError> {
        Record::from_tokens(game, stones)?.position()
    }

    /// The position after playing `stones` of `game` in order.
    pub fn from_stones(game: Game, stones: &[Point]) -> Result<Self, PositionError> {
        let tokens: Vec<(Point, String)> = stones.iter().map(|&p| (p, p.to_string())).collect();
        Self::from_tokens(game, &tokens)
    }

    /// A position from a board alone. Its stone counts must be reachable at a move boundary;
    /// a play order consistent with the colours is made up (points in index order).
    pub fn from_board(board: Board) -> Result<Self, PositionError> {
        Record::from_board(board, None)?.position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C6: Game = Game::CONNECT6;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn a_game_in_progress_is_a_position() {
        let r = Record::from_stones(C6, &pts("J10 K11 I11")).unwrap();
        assert!(r.win().is_none());
        assert_eq!(r.position().unwrap().stones(), r.stones());
        assert_eq!(r.to_move(), Color::Black);
    }

    #[test]
    fn a_game_ending_with_a_whole_move() {
        let r = Record::from_stones(C6, &pts("J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5")).unwrap();
        let w = r.win().unwrap();
        assert_eq!(w.winner, Color::Black);
        assert_eq!(points_text(&w.row), "D5 E5 F5 G5 H5 I5");
        assert_eq!(w.last_move, pts("H5 I5"));
        assert_eq!(r.before_end().unwrap().stones().len(), 11);
        assert!(matches!(
            r.position(),
            Err(PositionError::AlreadyWon { .. })
        ));
    }

    #[test]
    fn a_game_ending_on_the_first_stone_of_a_move() {
        // Black's D5..H5, then I5 (the first stone of black's move) makes six.
        let line = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 C7 A8 A9 I5";
        let short = Record::from_stones(C6, &pts(line)).unwrap();
        assert_eq!(short.win().unwrap().last_move, pts("I5"));
        let both = Record::from_stones(C6, &pts(&format!("{line} S1"))).unwrap();
        assert_eq!(both.win().unwrap().last_move, pts("I5 S1"));
        assert_eq!(short.before_end(), both.before_end());
        assert_eq!(short.before_end().unwrap().stones().len(), 15);
        let d = Record::from_board(short.board().clone(), None).unwrap();
        assert_eq!(d.win().unwrap().winner, Color::Black);
    }

    #[test]
    fn no_stone_after_the_end() {
        let e = Record::from_stones(C6, &pts("J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5 S19"))
            .unwrap_err();
        assert!(
            matches!(
                e,
                PositionError::AfterEnd {
                    index: 14,
                    ended_at: 13,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn finished_diagrams() {
        let r = Record::from_stones(C6, &pts("J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5")).unwrap();
        let d = Record::from_board(r.board().clone(), None).unwrap();
        assert_eq!(d.win().unwrap().winner, Color::Black);
        assert!(!d.ordered() && d.before_end().is_none());
        // Black has six but white has just moved: impossible.
        let mut b = r.board().clone();
        b.set("S19".parse().unwrap(), Some(Color::White));
        b.set("S18".parse().unwrap(), Some(Color::White));
        assert!(matches!(
            Record::from_board(b, None),
            Err(PositionError::FinishedCounts { .. })
        ));
    }
}
