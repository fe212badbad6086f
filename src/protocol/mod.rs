//! Engine protocols (`docs/protocols.md`): the engine as a process that GUIs, referees and
//! match managers drive over standard input and output.
//!
//! A protocol is a state machine fed one line at a time ([`Protocol::handle`]); it answers
//! with the lines to write. [`serve`] runs one over a reader and a writer, flushing every
//! reply. Nothing a peer sends can end the process but the protocol's quit command or the end
//! of input: bad or out-of-turn commands get the protocol's error reply.

pub mod cloudict;
pub mod gomocup;
pub mod gtp;
pub mod sau;

use crate::engine::{engine_for, player_for, Clock, Limits, Player, PlayerKind, Tuning};
use crate::files::{self, LineRead};
use crate::{Board, Color, Game, Point, Record};
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// What one input line produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Handled {
    /// Lines to write, in order.
    pub replies: Vec<String>,
    /// End the session after writing them.
    pub quit: bool,
    /// Diagnostics for standard error (never on the protocol's channel).
    pub notes: Vec<String>,
}

impl Handled {
    /// No reply.
    pub fn none() -> Handled {
        Handled::default()
    }

    /// One reply line.
    pub fn line(s: impl Into<String>) -> Handled {
        Handled {
            replies: vec![s.into()],
            ..Handled::default()
        }
    }

    /// No reply; a diagnostic for standard error.
    pub fn note(s: impl Into<String>) -> Handled {
        Handled {
            notes: vec![s.into()],
            ..Handled::default()
        }
    }

    /// End the session, after `replies`.
    pub fn quit(replies: Vec<String>) -> Handled {
        Handled {
            replies,
            quit: true,
            ..Handled::default()
        }
    }
}

/// A protocol session.
pub trait Protocol {
    /// Handle one input line (without its line break).
    fn handle(&mut self, line: &str) -> Handled;

    /// The session's table (board, turn, player).
    fn table(&mut self) -> &mut Table;

    /// Play as `kind` from now on (`docs/engine.md`, "Baseline players"), or why not.
    fn set_player(&mut self, kind: PlayerKind) -> Result<(), String> {
        self.table().set_player(kind)
    }
}

/// Run `proto` until it quits or the input ends. Lines that are not UTF-8 are read with
/// replacement characters (and usually earn an error reply). A line longer than
/// [`files::MAX_LINE`] is passed over unread, with a note on stderr: no command is that long.
pub fn serve(
    proto: &mut dyn Protocol,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        match files::read_line(&mut input, &mut buf, files::MAX_LINE)? {
            LineRead::End => return Ok(()),
            LineRead::Line => {}
            LineRead::TooLong => {
                let skipped = files::skip_line(&mut input)? + buf.len() as u64;
                eprintln!(
                    "cpbim: a line of {skipped} bytes passed over (the cap on a line is {})",
                    files::size(files::MAX_LINE as u64)
                );
                continue;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let handled = proto.handle(&line);
        for n in &handled.notes {
            eprintln!("cpbim: {n}");
        }
        for r in &handled.replies {
            writeln!(output, "{r}")?;
        }
        output.flush()?;
        if handled.quit {
            return Ok(());
        }
    }
}

/// The game a session plays: the board, whose turn it is, the moves so far (for take-backs)
/// and the engine.
pub struct Table {
    board: Board,
    to_move: Color,
    moves: Vec<(Color, Vec<Point>)>,
    tuning: Tuning,
    player: Box<dyn Player>,
    /// Which player `player` is, and why it cannot play the current game if it cannot.
    kind: PlayerKind,
    refused: Option<String>,
    /// The time and depth the engine gets per move, and its game clock, charged with the
    /// time of every move it thinks about.
    pub limits: Limits,
    /// The game clock a new game starts with.
    game_clock: Option<Clock>,
    /// How error messages name a point: in the protocol's own coordinates (Gomocup's `x,y`,
    /// the letters of Cloudict and SAU, GTP's vertices).
    point_name: fn(&Game, Point) -> String,
}

impl Table {
    /// An empty board of `game`, black to move; refused points are named by `point_name`.
    pub fn new(
        game: Game,
        tuning: impl Into<Tuning>,
        limits: Limits,
        point_name: fn(&Game, Point) -> String,
    ) -> Table {
        let tuning = tuning.into();
        Table {
            board: Board::new(game),
            to_move: Color::Black,
            moves: Vec::new(),
            player: engine_for(&game, tuning.for_game(&game)),
            kind: PlayerKind::Cpbim,
            refused: None,
            tuning,
            limits,
            game_clock: limits.clock,
            point_name,
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

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Stones played so far.
    pub fn stones(&self) -> usize {
        self.board.stones()
    }

    /// A new game: `game` (the engine is rebuilt when the game changes), empty board.
    pub fn reset(&mut self, game: Game) {
        if game != *self.game() {
            self.rebuild(&game);
        }
        self.board = Board::new(game);
        self.to_move = Color::Black;
        self.moves.clear();
        self.limits.clock = self.game_clock;
    }

    /// Play as `kind` from now on, or why it cannot play the current game (then nothing
    /// changes).
    pub fn set_player(&mut self, kind: PlayerKind) -> Result<(), String> {
        let player = player_for(kind, self.game(), self.tuning.for_game(self.game()))?;
        self.player = player;
        self.kind = kind;
        self.refused = None;
        Ok(())
    }

    /// The player of the kind chosen for `game`; a baseline that does not play it refuses to
    /// think until the game changes back.
    fn rebuild(&mut self, game: &Game) {
        match player_for(self.kind, game, self.tuning.for_game(game)) {
            Ok(p) => {
                self.player = p;
                self.refused = None;
            }
            Err(e) => self.refused = Some(e),
        }
    }

    /// `p` as the protocol names it.
    fn name(&self, p: Point) -> String {
        (self.point_name)(self.game(), p)
    }

    /// Has somebody won?
    pub fn winner(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.board.find_win_of(c).is_some())
    }

    /// Can `side` put a stone on `p` now (on the board, empty, game not over)?
    pub fn check_stone(&self, p: Point) -> Result<(), String> {
        if !self.game().contains(p) {
            return Err(format!("{} is off the board", self.name(p)));
        }
        if !self.board.is_empty(p) {
            return Err(format!("{} is occupied", self.name(p)));
        }
        if let Some(w) = self.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        Ok(())
    }

    /// `side` plays `stones` (a whole move, or fewer stones when the game ends on the first);
    /// the turn passes to the other side.
    pub fn play(&mut self, side: Color, stones: &[Point]) -> Result<(), String> {
        for (i, &p) in stones.iter().enumerate() {
            self.check_stone(p)?;
            if stones[..i].contains(&p) {
                return Err(format!("{} twice", self.name(p)));
            }
        }
        for &p in stones {
            self.board.set(p, Some(side));
        }
        self.moves.push((side, stones.to_vec()));
        self.to_move = side.opponent();
        Ok(())
    }

    /// Put one stone of `side` without changing the turn (board set-up).
    pub fn place(&mut self, side: Color, p: Point) -> Result<(), String> {
        self.check_stone(p)?;
        self.board.set(p, Some(side));
        self.moves.push((side, vec![p]));
        Ok(())
    }

    /// Set whose turn it is (board set-up).
    pub fn set_to_move(&mut self, side: Color) {
        self.to_move = side;
    }

    /// Take back the last move, which must hold `p` when given.
    pub fn take_back(&mut self, p: Option<Point>) -> Result<(), String> {
        let Some((side, stones)) = self.moves.last() else {
            return Err("nothing to take back".to_string());
        };
        if let Some(p) = p {
            if !stones.contains(&p) {
                return Err(format!("{} is not the last move", self.name(p)));
            }
        }
        for &s in stones {
            self.board.set(s, None);
        }
        self.to_move = *side;
        self.moves.pop();
        Ok(())
    }

    /// The engine's move for the side to move; it is played on the table.
    pub fn think(&mut self) -> Result<Vec<Point>, String> {
        let stones = self.choose()?;
        let side = self.to_move;
        self.play(side, &stones)?;
        Ok(stones)
    }

    /// The engine's move for the side to move (as many stones as [`Table::to_move`]'s turn
    /// holds, fewer when the first wins), without playing it.
    pub fn choose(&mut self) -> Result<Vec<Point>, String> {
        let t0 = Instant::now();
        if let Some(e) = &self.refused {
            return Err(e.clone());
        }
        if let Some(w) = self.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        if self.board.stones() == self.game().point_count() {
            return Err("the board is full".to_string());
        }
        let record = Record::from_board(self.board.clone(), Some(self.to_move))
            .map_err(|e| e.to_string())?;
        let pos = record.position().map_err(|e| e.to_string())?;
        let choice = self.player.choose(&pos, self.limits);
        if let Some(c) = &mut self.limits.clock {
            c.charge(t0.elapsed());
        }
        Ok(choice.stones)
    }
}
