//! The Go Text Protocol, version 2, with GoGui's rules commands (`gogui-rules_…`) for
//! Connect6: one GTP move is one stone, so the turns run B, W, W, B, B, W, W, … (black's first
//! move is one stone, then two a side). Vertices as GTP writes them: a column letter `A`–`T`
//! without `I`, then the row number, 1 at the bottom (`K10` is Connect6's centre). Replies are
//! `=[id] result` or `?[id] message`, each followed by an empty line.
//!
//! `genmove` thinks a whole move when it is the first stone of a side's turn: it answers the
//! first stone and keeps the second for the next `genmove` of that side, when nothing has
//! changed in between (any other `play`, `undo`, `clear_board` or `boardsize` drops it).

use super::{Handled, Protocol, Table};
use crate::engine::{Clock, Limits, Tuning};
use crate::{renju, Color, Game, Point, Rule};
use std::time::Duration;

/// GTP's column letters: the alphabet without `I`.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The commands, in `list_commands` order.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "gogui-rules_game_id",
    "gogui-rules_board",
    "gogui-rules_board_size",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-rules_captured_count",
];

/// The GTP vertex of `p` (`K10`).
pub fn vertex(p: Point) -> String {
    format!("{}{}", COLUMNS[p.col()] as char, p.row() + 1)
}

/// The point of a GTP vertex (either case), if it is one; whether it is on a game's board is
/// the caller's question.
pub fn parse_vertex(text: &str) -> Option<Point> {
    let text = text.to_ascii_uppercase();
    let (&letter, digits) = text.as_bytes().split_first()?;
    let col = COLUMNS.iter().position(|&c| c == letter)?;
    let digits = std::str::from_utf8(digits).ok()?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row = digits.parse::<usize>().ok()?.checked_sub(1)?;
    Point::new(col, row)
}

/// A GTP colour: `b`, `black`, `w`, `white`, in either case.
fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A command line as GTP reads it: control characters dropped (tabs become spaces), the
/// `#` comment cut off, surrounding blanks trimmed.
fn clean(line: &str) -> String {
    let line: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let line = line.split_once('#').map_or(line.as_str(), |(l, _)| l);
    line.trim().to_string()
}

/// The second stone of a whole move the engine chose, kept for its side's next `genmove`.
#[derive(Clone, Copy)]
struct Pending {
    side: Color,
    stone: Point,
    /// Stones on the board when it is due.
    stones: usize,
}

/// Time the controller gave (`time_settings`, `time_left`), in seconds.
#[derive(Clone, Copy, Default)]
struct GtpTime {
    /// Main time, byo-yomi time and stones per byo-yomi period.
    settings: Option<(f64, f64, u32)>,
    /// Per colour (black, white): time and stones left in the period (0 = main time).
    left: [Option<(f64, u32)>; 2],
}

impl GtpTime {
    /// The time for one think of `side` (a whole move, up to two stones) by the engine's
    /// clock rule ([`Clock::budget`]): in main time a share of what is left, in byo-yomi at
    /// most the period's share of two stones. `None` when the controller set no limit.
    fn budget(&self, side: Color) -> Option<Duration> {
        let unlimited = |&(_, byo, stones): &(f64, f64, u32)| byo > 0.0 && stones == 0;
        if self.settings.as_ref().is_some_and(unlimited) {
            return None;
        }
        let index = usize::from(side == Color::White);
        let (time, stones) = match (self.left[index], self.settings) {
            (Some(left), _) => left,
            (None, Some((main, _, _))) if main > 0.0 => (main, 0),
            (None, Some((_, byo, stones))) if byo > 0.0 => (byo, stones),
            _ => return None,
        };
        let clock = match stones {
            0 => Clock {
                left: Duration::from_secs_f64(time),
                increment: Duration::ZERO,
                per_move: None,
            },
            s => Clock {
                left: Duration::MAX,
                increment: Duration::ZERO,
                per_move: Some(Duration::from_secs_f64(
                    time * f64::from(s.min(2)) / f64::from(s),
                )),
            },
        };
        Some(clock.budget())
    }
}

/// A GTP session.
pub struct Gtp {
    table: Table,
    /// The game `--game` named: `boardsize` changes its side when the game allows.
    base: Game,
    pending: Option<Pending>,
    clock: GtpTime,
}

/// A command's result: the reply text, or the error message.
type Reply = Result<String, String>;

impl Gtp {
    /// A session of `game` (Connect6 for GoGui; any game of one or two stones a move, Renju's
    /// forbidden points refused to black), `limits` per move unless the controller gives time.
    pub fn new(game: Game, params: impl Into<Tuning>, limits: Limits) -> Gtp {
        Gtp {
            table: Table::new(game, params, limits, |_, p| vertex(p)),
            base: game,
            pending: None,
            clock: GtpTime::default(),
        }
    }

    /// Whose stone is next: the colour of the next stone in play order.
    fn side_to_move(&self) -> Color {
        self.table.game().color_of_stone(self.table.stones())
    }

    /// Is the game over: won, or the board full?
    fn over(&self) -> bool {
        self.table.winner().is_some() || self.table.stones() == self.table.game().point_count()
    }

    /// Can `side` put a stone on `p` now: its turn, a legal point (Renju: not forbidden).
    fn legal(&self, side: Color, p: Point) -> Result<(), String> {
        self.table.check_stone(p)?;
        if side == Color::Black && self.forbidden().contains(&p) {
            return Err(format!("{} is forbidden to black", vertex(p)));
        }
        Ok(())
    }

    /// Black's forbidden points (Renju only).
    fn forbidden(&self) -> Vec<Point> {
        if self.table.game().rule() != Rule::Renju {
            return Vec::new();
        }
        renju::forbidden_points(self.table.board())
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    }

    /// Put one stone of `side` (checked by the caller); the turn follows the play order.
    fn put(&mut self, side: Color, p: Point) -> Result<(), String> {
        self.table.place(side, p)?;
        let next = self.side_to_move();
        self.table.set_to_move(next);
        Ok(())
    }

    /// The side of a command's colour argument, which must be the side to move.
    fn turn_of(&self, arg: Option<&str>) -> Result<Color, String> {
        let side = arg.and_then(parse_color).ok_or("invalid color")?;
        let next = self.side_to_move();
        if side != next {
            return Err(format!("not {side}'s turn: {next} to move"));
        }
        Ok(side)
    }

    /// `boardsize n`: this game on n×n when the game allows it (Connect6: 19 only).
    fn boardsize(&mut self, arg: Option<&str>) -> Reply {
        let n = arg
            .and_then(|a| a.parse::<usize>().ok())
            .ok_or("boardsize not an integer")?;
        let game = if n == self.base.m() && n == self.base.n() {
            self.base
        } else if self.base.is_connect6() || n > COLUMNS.len() {
            return Err("unacceptable size".to_string());
        } else {
            self.base
                .with_side(n)
                .map_err(|_| "unacceptable size".to_string())?
        };
        self.table.reset(game);
        self.pending = None;
        Ok(String::new())
    }

    /// `play COLOR VERTEX`: one stone.
    fn play(&mut self, args: &[&str]) -> Reply {
        let [color, v] = args else {
            return Err("syntax error: play COLOR VERTEX".to_string());
        };
        let side = parse_color(color).ok_or("invalid color")?;
        let p = parse_vertex(v).ok_or_else(|| {
            if v.eq_ignore_ascii_case("pass") || v.eq_ignore_ascii_case("resign") {
                "illegal move".to_string()
            } else {
                "invalid vertex".to_string()
            }
        })?;
        let next = self.side_to_move();
        if side != next {
            return Err(format!("not {side}'s turn: {next} to move"));
        }
        if !self.table.game().contains(p) || self.legal(side, p).is_err() {
            return Err("illegal move".to_string());
        }
        self.pending = None;
        self.put(side, p)?;
        Ok(String::new())
    }

    /// `genmove COLOR`: one stone; the kept second stone of the engine's move when it is due.
    fn genmove(&mut self, arg: Option<&str>) -> Reply {
        let side = self.turn_of(arg)?;
        if let Some(w) = self.table.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        if self.table.stones() == self.table.game().point_count() {
            return Ok("pass".to_string());
        }
        if let Some(kept) = self.pending.take() {
            let due = kept.side == side && kept.stones == self.table.stones();
            if due && self.legal(side, kept.stone).is_ok() {
                self.put(side, kept.stone)?;
                return Ok(vertex(kept.stone));
            }
        }
        if let Some(t) = self.clock.budget(side) {
            self.table.limits = Limits::per_move(t);
        }
        self.table.set_to_move(side);
        let stones = self.table.choose()?;
        let first = *stones.first().ok_or("the engine found no move")?;
        self.legal(side, first)?;
        self.put(side, first)?;
        let whole_move_starts = self.table.game().is_move_boundary(self.table.stones() - 1);
        if let (true, Some(&second)) = (whole_move_starts, stones.get(1)) {
            self.pending = Some(Pending {
                side,
                stone: second,
                stones: self.table.stones(),
            });
        }
        Ok(vertex(first))
    }

    /// `undo`: take back the last stone.
    fn undo(&mut self) -> Reply {
        self.table
            .take_back(None)
            .map_err(|_| "cannot undo".to_string())?;
        self.pending = None;
        let next = self.side_to_move();
        self.table.set_to_move(next);
        Ok(String::new())
    }

    /// `time_settings MAIN BYO STONES`.
    fn time_settings(&mut self, args: &[&str]) -> Reply {
        let syntax = || "syntax error: time_settings MAIN BYO_YOMI STONES".to_string();
        let [main, byo, stones] = args else {
            return Err(syntax());
        };
        let seconds = |t: &str| t.parse::<f64>().ok().filter(|s| (0.0..1e9).contains(s));
        match (seconds(main), seconds(byo), stones.parse::<u32>()) {
            (Some(m), Some(b), Ok(s)) => {
                self.clock = GtpTime {
                    settings: Some((m, b, s)),
                    left: [None, None],
                };
                Ok(String::new())
            }
            _ => Err(syntax()),
        }
    }

    /// `time_left COLOR TIME STONES`.
    fn time_left(&mut self, args: &[&str]) -> Reply {
        let syntax = || "syntax error: time_left COLOR TIME STONES".to_string();
        let [color, time, stones] = args else {
            return Err(syntax());
        };
        let time = time.parse::<f64>().ok().filter(|s| (0.0..1e9).contains(s));
        match (parse_color(color), time, stones.parse::<u32>()) {
            (Some(c), Some(t), Ok(s)) => {
                self.clock.left[usize::from(c == Color::White)] = Some((t, s));
                Ok(String::new())
            }
            _ => Err(syntax()),
        }
    }

    /// The board as GoGui's rules expect it: one line a row, the top row first, `X` black,
    /// `O` white, `.` empty, separated by spaces.
    fn board_text(&self) -> String {
        let g = self.table.game();
        let line = |row: usize| -> String {
            (0..g.m())
                .map(
                    |col| match Point::new(col, row).and_then(|p| self.table.board().get(p)) {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    },
                )
                .collect::<Vec<_>>()
                .join(" ")
        };
        (0..g.n()).rev().map(line).collect::<Vec<_>>().join("\n")
    }

    /// `showboard`: the board with GTP's coordinates in the margins.
    fn showboard(&self) -> String {
        let g = self.table.game();
        let header: String = COLUMNS[..g.m()]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        let mut lines = vec![String::new(), format!("  {header}")];
        for (i, row) in self.board_text().lines().enumerate() {
            let number = g.n() - i;
            lines.push(format!("{number:>2} {row} {number}"));
        }
        lines.push(format!("  {header}"));
        lines.join("\n")
    }

    /// `gogui-rules_legal_moves`: every point the side to move may take, none once the game
    /// is over.
    fn legal_moves(&self) -> String {
        if self.over() {
            return String::new();
        }
        let side = self.side_to_move();
        let forbidden = match side {
            Color::Black => self.forbidden(),
            Color::White => Vec::new(),
        };
        self.table
            .game()
            .points()
            .filter(|&p| self.table.board().is_empty(p) && !forbidden.contains(&p))
            .map(vertex)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `gogui-rules_final_result`: `black wins`, `white wins`, `draw` (a full board), or
    /// `unknown` while the game goes on.
    fn final_result(&self) -> String {
        match self.table.winner() {
            Some(w) => format!("{w} wins"),
            None if self.over() => "draw".to_string(),
            None => "unknown".to_string(),
        }
    }

    /// GoGui's name for the game.
    fn game_id(&self) -> String {
        let g = self.table.game();
        if g.is_connect6() {
            return "Connect6".to_string();
        }
        match g.rule() {
            Rule::Renju => "Renju".to_string(),
            _ if g.p() == 1 && g.k() == 5 => "Gomoku".to_string(),
            _ => g.to_string(),
        }
    }

    /// The command `cmd` with its arguments.
    fn command(&mut self, cmd: &str, args: &[&str]) -> Reply {
        let first = args.first().copied();
        match cmd {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("cpbim".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => Ok(first.is_some_and(|c| COMMANDS.contains(&c)).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => self.boardsize(first),
            "clear_board" => {
                let game = *self.table.game();
                self.table.reset(game);
                self.pending = None;
                Ok(String::new())
            }
            "komi" => match first.map(str::parse::<f64>) {
                Some(Ok(_)) => Ok(String::new()),
                _ => Err("komi not a float".to_string()),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(first),
            "undo" => self.undo(),
            "showboard" => Ok(self.showboard()),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "gogui-rules_game_id" => Ok(self.game_id()),
            "gogui-rules_board" => Ok(format!("\n{}", self.board_text())),
            "gogui-rules_board_size" => Ok(self.table.game().m().to_string()),
            "gogui-rules_legal_moves" => Ok(self.legal_moves()),
            "gogui-rules_side_to_move" => Ok(self.side_to_move().to_string()),
            "gogui-rules_final_result" => Ok(self.final_result()),
            "gogui-rules_captured_count" => Ok("0 0".to_string()),
            _ => Err("unknown command".to_string()),
        }
    }
}

impl Protocol for Gtp {
    fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    fn handle(&mut self, line: &str) -> Handled {
        let line = clean(line);
        let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
        let id = match words.first() {
            None => return Handled::none(),
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.remove(0).to_string(),
            Some(_) => String::new(),
        };
        let (cmd, args) = words.split_first().map_or(("", &[][..]), |(c, a)| (*c, a));
        let mut handled = Handled::none();
        let reply = match cmd {
            "" => Err("syntax error: no command".to_string()),
            _ => self.command(cmd, args),
        };
        let text = match reply {
            Ok(result) => format!("={id} {result}"),
            Err(message) => {
                let what = if cmd.is_empty() {
                    "gtp".to_string()
                } else {
                    crate::text::excerpt(cmd)
                };
                handled.notes.push(format!("{what}: {message}"));
                format!("?{id} {message}")
            }
        };
        handled
            .replies
            .extend(text.lines().map(|l| l.trim_end().to_string()));
        handled.replies.push(String::new());
        handled.quit = cmd == "quit";
        handled
    }
}
