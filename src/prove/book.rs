//! Books of proven positions (`cpbim store book`, `cpbim prove --book`; docs/search.md,
//! "Books"): for each position a store holds proven with the attacker to move, the move its
//! proof starts with and the threats on the proof's longest line, as a small text file that
//! travels where a store of gigabytes does not (a repository, another machine).
//!
//! A book proves nothing by itself. A search given one tries the book's move first wherever
//! the book knows the position and the move is among the search's own candidates there, and
//! starts its threat budgets at the root's entry: the proof is found again, and checked, at
//! the cost of the proof rather than of the budgets and moves that fail before it.
//!
//! The text: `#` starts a comment; the first other line is `game G` (G as `--game` takes it);
//! then one position a line, `ATTACKER BLACK WHITE KIND MOVE THREATS`: `black` or `white`,
//! the stones of each colour as points joined by commas (`-` for none), `threat` or `quiet`,
//! the move's stones joined by `+`, and the threats on the proof's longest line.

use super::canonical;
use super::lambda::Prover;
use super::store::{Store, StoreError};
use super::tree::ThreatProof;
use crate::board::Board;
use crate::game::Game;
use crate::geom::Point;
use crate::model::Model;
use crate::Color;
use fxhash::FxHashMap;
use std::fmt::Write;
use std::sync::atomic::AtomicBool;

/// What a book knows of one position: the move its proof starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The attacker's stones.
    pub moves: Vec<Point>,
    /// A quiet move (else a threat).
    pub quiet: bool,
    /// Threats on the proof's longest line.
    pub threats: u32,
}

/// Positions of one game with the attacker to move, each with the move that proved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    game: Game,
    /// The store's canonical key of the position (attacker included) → the hint, its points
    /// in the key's orientation.
    hints: FxHashMap<Vec<u8>, Hint>,
}

/// A line of a book that does not read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BookError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl Book {
    /// An empty book of `game`.
    pub fn new(game: Game) -> Book {
        Book {
            game,
            hints: FxHashMap::default(),
        }
    }

    /// The game of its positions.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Positions it knows.
    pub fn len(&self) -> usize {
        self.hints.len()
    }

    /// True when it knows none.
    pub fn is_empty(&self) -> bool {
        self.hints.is_empty()
    }

    /// Know that `a`, to move on `b`, wins with `hint` (in `b`'s orientation).
    pub fn insert(&mut self, b: &Board, a: Color, hint: Hint) {
        let (key, sym) = canonical::canonical(b, a);
        let (m, n) = (self.game.m(), self.game.n());
        let moves = hint.moves.iter().map(|&x| canonical::apply(sym, x, m, n));
        let hint = Hint {
            moves: moves.collect(),
            ..hint
        };
        self.hints.insert(key, hint);
    }

    /// The move that proved `a` to move on `b`, in `b`'s orientation, if the book knows it.
    pub fn hint(&self, b: &Board, a: Color) -> Option<Hint> {
        let (key, sym) = canonical::canonical(b, a);
        let hint = self.hints.get(&key)?;
        let (m, n) = (self.game.m(), self.game.n());
        let back = |&x: &Point| canonical::apply(canonical::inverse(sym), x, m, n);
        Some(Hint {
            moves: hint.moves.iter().map(back).collect(),
            ..hint.clone()
        })
    }

    /// The book of every proof of `game` with the attacker to move that `store` holds
    /// (`stop` ends the reading early, with what was read).
    pub fn of_store(store: &Store, game: Game, stop: &AtomicBool) -> Result<Book, StoreError> {
        let mut book = Book::new(game);
        store.for_each_proof(game, stop, |b, a, proof| {
            let (quiet, moves) = match proof {
                ThreatProof::Threat { threat, .. } => (false, threat),
                ThreatProof::Quiet { quiet, .. } => (true, quiet),
                _ => return,
            };
            let hint = Hint {
                moves: moves.clone(),
                quiet,
                threats: proof.threats(),
            };
            book.insert(b, a, hint);
        })?;
        Ok(book)
    }

    /// The book as text (above), its positions in the order of their keys.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "# cpbim book: positions proven, one a line (docs/search.md, \"Books\")\n\
             # attacker, black stones, white stones, the proof's first move, threats on its longest line\n\
             game {}\n",
            self.game
        );
        let mut keys: Vec<&Vec<u8>> = self.hints.keys().collect();
        keys.sort();
        for key in keys {
            let (b, a) = canonical::board_of_key(key, self.game).expect("the book's own keys read");
            let hint = &self.hints[key];
            let points = |c: Color| {
                let v: Vec<String> = b
                    .iter()
                    .filter(|&(_, s)| s == c)
                    .map(|(x, _)| x.to_string())
                    .collect();
                if v.is_empty() {
                    "-".to_string()
                } else {
                    v.join(",")
                }
            };
            let moves: Vec<String> = hint.moves.iter().map(|x| x.to_string()).collect();
            let kind = if hint.quiet { "quiet" } else { "threat" };
            let _ = writeln!(
                s,
                "{} {} {} {kind} {} {}",
                a.name(),
                points(Color::Black),
                points(Color::White),
                moves.join("+"),
                hint.threats
            );
        }
        s
    }

    /// A book from its text (above).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book: Option<Book> = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| BookError {
                line: i + 1,
                message,
            };
            match &mut book {
                None => {
                    let name = line
                        .strip_prefix("game ")
                        .ok_or_else(|| err("the first line is `game G`".to_string()))?;
                    let game = name.parse::<Game>().map_err(|e| err(e.to_string()))?;
                    book = Some(Book::new(game));
                }
                Some(book) => book.read_line(line).map_err(err)?,
            }
        }
        book.ok_or(BookError {
            line: 1,
            message: "empty: the first line is `game G`".to_string(),
        })
    }

    /// Take one position's line.
    fn read_line(&mut self, line: &str) -> Result<(), String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [a, black, white, kind, moves, threats] = fields[..] else {
            return Err(format!(
                "{} fields, not 6 (attacker, black, white, kind, move, threats)",
                fields.len()
            ));
        };
        let a = Color::of_name(a)
            .ok_or_else(|| format!("{a:?}: the attacker is `black` or `white`"))?;
        let game = self.game;
        let points = |s: &str, sep: char| -> Result<Vec<Point>, String> {
            if s == "-" {
                return Ok(Vec::new());
            }
            s.split(sep)
                .map(|t| game.parse_point(t).map_err(|e| e.to_string()))
                .collect()
        };
        let mut b = Board::new(game);
        for (list, c) in [(black, Color::Black), (white, Color::White)] {
            for x in points(list, ',')? {
                if b.get(x).is_some() {
                    return Err(format!("{x} is listed twice"));
                }
                b.set(x, Some(c));
            }
        }
        let quiet = match kind {
            "threat" => false,
            "quiet" => true,
            _ => return Err(format!("{kind:?}: the kind is `threat` or `quiet`")),
        };
        let moves = points(moves, '+')?;
        if moves.is_empty() || moves.len() > game.p() {
            return Err(format!("a move has 1 to {} stones", game.p()));
        }
        if let Some(x) = moves.iter().find(|&&x| b.get(x).is_some()) {
            return Err(format!("the move's {x} is not empty"));
        }
        let threats = threats
            .parse::<u32>()
            .map_err(|_| format!("{threats:?}: threats are a whole number"))?;
        let hint = Hint {
            moves,
            quiet,
            threats,
        };
        self.insert(&b, a, hint);
        Ok(())
    }
}

/// The search's side of the book.
impl<M: Model> Prover<'_, M> {
    /// The book's move for A to move on `b`, when there is a book, it knows `b`, and its move
    /// is one of the search's candidates there (`threats`, `quiets`, each with its budget):
    /// the move, whether it is quiet, and its budget. A quiet move below the search's first
    /// `--quiet` candidates is taken too, at the node's budget `quiet_budget` (where quiet
    /// moves are tried at all), when the board allows it: an engine's move named as a hint
    /// need not rank among them. Below a quiet move's pass the book is not read (as the store
    /// is not).
    pub(super) fn book_move(
        &self,
        b: &Board,
        threats: &[(Vec<Point>, u32)],
        quiets: &[(Vec<Point>, u32)],
        quiet_budget: Option<u32>,
    ) -> Option<(Vec<Point>, bool, u32)> {
        let book = self.limits.book.as_ref()?;
        if self.level > 0 {
            return None;
        }
        let hint = book.hint(b, self.a)?;
        let same = |m: &Vec<Point>| {
            m.len() == hint.moves.len() && hint.moves.iter().all(|x| m.contains(x))
        };
        let list = if hint.quiet { quiets } else { threats };
        if let Some((m, t)) = list.iter().find(|(m, _)| same(m)) {
            return Some((m.clone(), hint.quiet, *t));
        }
        let legal =
            hint.moves.len() == b.game().p() && hint.moves.iter().all(|&x| self.may_attack(b, x));
        let t = quiet_budget.filter(|_| hint.quiet && legal)?;
        Some((hint.moves.clone(), true, t))
    }

    /// The book's move at A to move on `b` ([`Prover::book_move`]) tried first: its proof, or
    /// `None` (the search then goes on as without a book; the move, tried again, fails at once
    /// from the table).
    pub(super) fn follow_book(
        &mut self,
        b: &mut Board,
        threats: &[(Vec<Point>, u32)],
        quiets: &[(Vec<Point>, u32)],
        quiet_budget: Option<u32>,
    ) -> Option<ThreatProof> {
        let (m, quiet, t) = self.book_move(b, threats, quiets, quiet_budget)?;
        let found = match quiet {
            true => self.quiet(b, &m, t),
            false => self.threat(b, &m, t),
        };
        self.answer.book_moves += found.is_some() as u64;
        found
    }

    /// The budget the root's search starts at: the threats of the book's proof of `b`, when
    /// the book knows it (the budgets below are not searched); else 0.
    pub(super) fn book_budget(&self, b: &Board) -> u32 {
        let hint = self
            .limits
            .book
            .as_ref()
            .and_then(|book| book.hint(b, self.a));
        hint.map_or(0, |h| h.threats)
    }
}

/// A book from its text, of `game`: else why not (a line that does not read, or a book of
/// another game), as the server and the Python package say it.
pub fn parse_for(text: &str, game: Game) -> Result<Book, String> {
    let book = Book::parse(text).map_err(|e| e.to_string())?;
    match refusal(&book, game) {
        Some(why) => Err(why),
        None => Ok(book),
    }
}

/// Whether the store and the book agree on a game (a book read for another game is refused
/// before the search starts).
pub fn refusal(book: &Book, game: Game) -> Option<String> {
    (book.game() != game).then(|| {
        format!(
            "the book is of {}, the position of {game}: a book serves the game it was made from",
            book.game()
        )
    })
}
