//! The games: the family Connect(m,n,k,p,q) — an m×n board, k in a row wins, black places q
//! stones first and then each side places p per move — with the rule that says what wins, and
//! the presets `connect6`, `gomoku`, `gomoku-standard` and `renju` (`docs/formats.md`, "Games").

use crate::geom::{Color, Dir, Geometry, Point, PointError, LETTERS, MAX_SIDE};
use crate::text::excerpt;
use std::fmt;
use std::str::FromStr;
use std::sync::{LazyLock, Mutex};

/// What wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// k or more in a row wins, for both sides.
    Free,
    /// Exactly k in a row wins, for both sides; longer rows do not.
    Exact,
    /// Renju: black wins with exactly k and may not play a forbidden point (overline, double
    /// four, double three); white wins with k or more.
    Renju,
}

/// The named games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Connect6: Connect(19,19,6,2,1).
    Connect6,
    /// Freestyle Gomoku: 15×15, five or more wins.
    Gomoku,
    /// Standard Gomoku: 15×15, exactly five wins.
    GomokuStandard,
    /// Renju: 15×15, black exactly five with forbidden points, white five or more.
    Renju,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 4] = [
        Preset::Connect6,
        Preset::Gomoku,
        Preset::GomokuStandard,
        Preset::Renju,
    ];

    /// `connect6`, `gomoku`, `gomoku-standard`, `renju`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Connect6 => "connect6",
            Preset::Gomoku => "gomoku",
            Preset::GomokuStandard => "gomoku-standard",
            Preset::Renju => "renju",
        }
    }

    /// The preset's game.
    pub const fn game(self) -> Game {
        match self {
            Preset::Connect6 => Game::CONNECT6,
            Preset::Gomoku => Game::GOMOKU,
            Preset::GomokuStandard => Game::GOMOKU_STANDARD,
            Preset::Renju => Game::RENJU,
        }
    }
}

/// A game of the family Connect(m,n,k,p,q) with its rule. Small and `Copy`: boards and
/// positions carry it. Two games are equal when their boards, numbers and rule are (the name
/// they were given does not count: `connect(19,19,6,2,1)` is Connect6).
#[derive(Clone, Copy)]
pub struct Game {
    m: u8,
    n: u8,
    k: u8,
    p: u8,
    q: u8,
    rule: Rule,
    /// The preset it was named after (with its size possibly changed), if any.
    preset: Option<Preset>,
}

/// Why a text does not name a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a game: {reason}")]
pub struct GameError {
    /// The text, shortened when long.
    pub text: String,
    /// Why.
    pub reason: String,
}

/// The word for a winning row of `k` stones: `four` … `eight`.
pub fn row_word(k: usize) -> &'static str {
    ["four", "five", "six", "seven", "eight"]
        .get(k.wrapping_sub(4))
        .copied()
        .unwrap_or("k")
}

/// The lines of Connect6's 19×19 board, at least six long (χ(19,6) = 92).
pub static CONNECT6_GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| Geometry::build(19, 19, 6));

/// The lines of the 15×15 board of the games of five (Gomoku, Renju), at least five long.
static FIVE_GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| Geometry::build(15, 15, 5));

/// Smallest board side.
pub const MIN_SIDE: usize = 5;
/// Smallest and largest k.
pub const K_RANGE: std::ops::RangeInclusive<usize> = 4..=8;

impl Game {
    /// Connect6: Connect(19,19,6,2,1), six or more wins.
    pub const CONNECT6: Game = Game::preset(Preset::Connect6, 19, 6, 2, Rule::Free);
    /// Freestyle Gomoku on 15×15.
    pub const GOMOKU: Game = Game::preset(Preset::Gomoku, 15, 5, 1, Rule::Free);
    /// Standard Gomoku on 15×15: exactly five.
    pub const GOMOKU_STANDARD: Game = Game::preset(Preset::GomokuStandard, 15, 5, 1, Rule::Exact);
    /// Renju on 15×15.
    pub const RENJU: Game = Game::preset(Preset::Renju, 15, 5, 1, Rule::Renju);

    const fn preset(preset: Preset, side: u8, k: u8, p: u8, rule: Rule) -> Game {
        Game {
            m: side,
            n: side,
            k,
            p,
            q: 1,
            rule,
            preset: Some(preset),
        }
    }

    /// Connect(m,n,k,p,q) with k or more winning, checked: sides 5..=20, 4 ≤ k ≤ 8 and k at
    /// most the longer side, p 1 or 2, 1 ≤ q ≤ p.
    pub fn connect(m: usize, n: usize, k: usize, p: usize, q: usize) -> Result<Game, String> {
        let side = MIN_SIDE..=MAX_SIDE;
        if !side.contains(&m) || !side.contains(&n) {
            return Err(format!(
                "board sides run from {MIN_SIDE} to {MAX_SIDE}, not {m}×{n}"
            ));
        }
        if !K_RANGE.contains(&k) {
            return Err(format!(
                "k runs from {} to {}, not {k}",
                K_RANGE.start(),
                K_RANGE.end()
            ));
        }
        if k > m.max(n) {
            return Err(format!("{k} in a row does not fit on a {m}×{n} board"));
        }
        if !(1..=2).contains(&p) {
            return Err(format!("p is 1 or 2 stones per move, not {p}"));
        }
        if !(1..=p).contains(&q) {
            return Err(format!(
                "black's first move places 1 to p = {p} stones, not {q}"
            ));
        }
        Ok(Game {
            m: m as u8,
            n: n as u8,
            k: k as u8,
            p: p as u8,
            q: q as u8,
            rule: Rule::Free,
            preset: None,
        })
    }

    /// This game on a `side`×`side` board (checked as in [`Game::connect`]).
    pub fn with_side(self, side: usize) -> Result<Game, String> {
        let g = Game::connect(side, side, self.k(), self.p(), self.q())?;
        Ok(Game {
            rule: self.rule,
            preset: self.preset,
            ..g
        })
    }

    /// Board columns.
    #[inline]
    pub const fn m(&self) -> usize {
        self.m as usize
    }

    /// Board rows.
    #[inline]
    pub const fn n(&self) -> usize {
        self.n as usize
    }

    /// Stones in a row that win.
    #[inline]
    pub const fn k(&self) -> usize {
        self.k as usize
    }

    /// Stones per move after the first.
    #[inline]
    pub const fn p(&self) -> usize {
        self.p as usize
    }

    /// Stones of black's first move.
    #[inline]
    pub const fn q(&self) -> usize {
        self.q as usize
    }

    /// What wins.
    #[inline]
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The preset this game was named after, if any.
    pub const fn preset_of(&self) -> Option<Preset> {
        self.preset
    }

    /// Is this Connect6 on its 19×19 board?
    pub fn is_connect6(&self) -> bool {
        *self == Game::CONNECT6
    }

    /// Is `p` on the board?
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.col() < self.m() && p.row() < self.n()
    }

    /// Every point of the board, row by row from the bottom (index order).
    pub fn points(&self) -> impl Iterator<Item = Point> + Clone + use<> {
        let (m, n) = (self.m(), self.n());
        (0..n).flat_map(move |r| (0..m).map(move |c| Point::new(c, r).expect("on the board")))
    }

    /// The points of the board.
    pub fn point_count(&self) -> usize {
        self.m() * self.n()
    }

    /// The point `steps` steps from `p` in direction `dir`, if on the board.
    #[inline]
    pub fn step(&self, p: Point, dir: Dir, steps: isize) -> Option<Point> {
        p.step_within(dir, steps, self.m(), self.n())
    }

    /// The points 1, 2, … steps from `p` along `dir` (`sign` 1) or against it (`sign` −1), to
    /// the board's edge.
    #[inline]
    pub fn ray(&self, p: Point, dir: Dir, sign: isize) -> impl Iterator<Item = Point> {
        p.ray(dir, sign, self.m(), self.n())
    }

    /// The centre point (the lower-left of the four central points on an even side).
    pub fn center(&self) -> Point {
        Point::new((self.m() - 1) / 2, (self.n() - 1) / 2).expect("on the board")
    }

    /// The point `dx` columns right of the centre and `dy` rows above it, if on the board.
    pub fn from_center(&self, dx: isize, dy: isize) -> Option<Point> {
        let c = self.center();
        let col = c.col().checked_add_signed(dx)?;
        let row = c.row().checked_add_signed(dy)?;
        Point::new(col, row).filter(|&p| self.contains(p))
    }

    /// The last column letter (`S` on 19×19).
    pub fn last_letter(&self) -> char {
        LETTERS[self.m() - 1] as char
    }

    /// Read a point and check it is on this board; the error names the token and the board's
    /// columns or rows.
    pub fn parse_point(&self, token: &str) -> Result<Point, PointError> {
        let p: Point = token.parse().map_err(|e| match e {
            PointError::OffBoard { token, .. } => self.off_board(token),
            e => e,
        })?;
        if self.contains(p) {
            Ok(p)
        } else {
            Err(self.off_board(excerpt(token.trim())))
        }
    }

    fn off_board(&self, token: String) -> PointError {
        let col = token.chars().next().map(|c| c.to_ascii_uppercase() as u8);
        let reason = if col.is_some_and(|c| c < b'A' || (c - b'A') as usize >= self.m()) {
            self.columns_reason()
        } else {
            self.rows_reason()
        };
        PointError::OffBoard { token, reason }
    }

    fn columns_reason(&self) -> String {
        format!("columns run from A to {}", self.last_letter())
    }

    fn rows_reason(&self) -> String {
        format!("rows run from 1 to {}", self.n())
    }

    /// Why `p` is off this board (which coordinate is out of range).
    pub fn off_board_reason(&self, p: Point) -> String {
        if p.col() >= self.m() {
            self.columns_reason()
        } else {
            self.rows_reason()
        }
    }

    /// Is `count` stones a move boundary: 0, q, q + p, q + 2p, …?
    pub fn is_move_boundary(&self, count: usize) -> bool {
        count == 0 || (count >= self.q() && (count - self.q()).is_multiple_of(self.p()))
    }

    /// Stones `to_move` places on a board holding `stones`: black's first move q, every later
    /// move p.
    pub fn stones_to_place(&self, stones: usize, to_move: Color) -> usize {
        if stones == 0 && to_move == Color::Black {
            self.q()
        } else {
            self.p()
        }
    }

    /// The stones of the move holding the stone with 0-based play index `i`, as a range of
    /// play indices.
    pub fn move_of_stone(&self, i: usize) -> std::ops::Range<usize> {
        let (p, q) = (self.p(), self.q());
        if i < q {
            0..q
        } else {
            let start = q + (i - q) / p * p;
            start..start + p
        }
    }

    /// Colour that places the stone with 0-based play index `i`.
    pub fn color_of_stone(&self, i: usize) -> Color {
        let (p, q) = (self.p(), self.q());
        if i >= q && ((i - q) / p).is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Black's stones among the first `count` stones of a game.
    pub fn black_stones(&self, count: usize) -> usize {
        let (p, q) = (self.p(), self.q());
        if count <= q {
            return count;
        }
        // After black's q: white p, black p, white p, …
        let rest = count - q;
        let rounds = rest / (2 * p);
        let tail = rest % (2 * p);
        q + rounds * p + tail.saturating_sub(p)
    }

    /// Does a row of `run` stones of `c` win under the rule?
    #[inline]
    pub fn wins(&self, c: Color, run: usize) -> bool {
        match (self.rule, c) {
            (Rule::Free, _) | (Rule::Renju, Color::White) => run >= self.k(),
            (Rule::Exact, _) | (Rule::Renju, Color::Black) => run == self.k(),
        }
    }

    /// The word for the winning row: `six`, `five`, … ([`row_word`]).
    pub fn row_word(&self) -> &'static str {
        row_word(self.k())
    }

    /// The lines of the board at least k long, computed once per (m, n, k) and shared.
    pub fn geometry(&self) -> &'static Geometry {
        type Cache = Vec<((u8, u8, u8), &'static Geometry)>;
        static OTHERS: Mutex<Cache> = Mutex::new(Vec::new());
        // The two boards of the presets without the cache's lock (the proof search asks for
        // the lines at every zone it computes, on every thread).
        match (self.m, self.n, self.k) {
            (19, 19, 6) => return &CONNECT6_GEOMETRY,
            (15, 15, 5) => return &FIVE_GEOMETRY,
            _ => {}
        }
        let key = (self.m, self.n, self.k);
        let mut cache = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, g)) = cache.iter().find(|(k, _)| *k == key) {
            return g;
        }
        let g: &'static Geometry =
            Box::leak(Box::new(Geometry::build(self.m(), self.n(), self.k())));
        cache.push((key, g));
        g
    }
}

impl Game {
    fn parameters(&self) -> (u8, u8, u8, u8, u8, Rule) {
        (self.m, self.n, self.k, self.p, self.q, self.rule)
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.parameters() == other.parameters()
    }
}

impl Eq for Game {}

impl std::hash::Hash for Game {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.parameters().hash(state);
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::CONNECT6
    }
}

impl fmt::Display for Game {
    /// The name that reads back as this game: `connect6`, `gomoku:20`, `connect(9,9,5,1,1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset {
            Some(p) if p.game() == *self => f.write_str(p.name()),
            Some(p) if self.m == self.n => write!(f, "{}:{}", p.name(), self.m),
            _ => write!(
                f,
                "connect({},{},{},{},{})",
                self.m, self.n, self.k, self.p, self.q
            ),
        }
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Game {
    type Err = GameError;

    /// `connect6`, `gomoku`, `gomoku-standard`, `renju`, `NAME:SIZE` (`gomoku:20`) or
    /// `connect(m,n,k,p,q)` (case and spaces ignored).
    fn from_str(s: &str) -> Result<Game, GameError> {
        let err = |reason: String| GameError {
            text: excerpt(s.trim()),
            reason,
        };
        let t: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(args) = t.strip_prefix("connect(").and_then(|r| r.strip_suffix(')')) {
            let nums: Vec<usize> = args
                .split(',')
                .map(|a| a.parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|_| err("write connect(m,n,k,p,q) with five whole numbers".into()))?;
            let [m, n, k, p, q] = nums[..] else {
                return Err(err(
                    "write connect(m,n,k,p,q) with five whole numbers".into()
                ));
            };
            return Game::connect(m, n, k, p, q).map_err(err);
        }
        let (name, side) = match t.split_once(':') {
            Some((name, side)) => (name, Some(side)),
            None => (t.as_str(), None),
        };
        let preset = Preset::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| {
            err("the games are connect6, gomoku, gomoku-standard, renju, NAME:SIZE (gomoku:20) and connect(m,n,k,p,q)".into())
        })?;
        match side {
            None => Ok(preset.game()),
            Some(side) => {
                let side: usize = side
                    .parse()
                    .map_err(|_| err(format!("the size after `{name}:` is a whole number")))?;
                preset.game().with_side(side).map_err(err)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Game {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn presets_and_names_read_back() {
        for (text, m, k, p, rule) in [
            ("connect6", 19, 6, 2, Rule::Free),
            ("gomoku", 15, 5, 1, Rule::Free),
            ("gomoku-standard", 15, 5, 1, Rule::Exact),
            ("renju", 15, 5, 1, Rule::Renju),
            ("gomoku:20", 20, 5, 1, Rule::Free),
            ("connect6:15", 15, 6, 2, Rule::Free),
            ("Connect(9, 7, 4, 2, 2)", 9, 4, 2, Rule::Free),
        ] {
            let game = g(text);
            assert_eq!(
                (game.m(), game.k(), game.p(), game.rule()),
                (m, k, p, rule),
                "{text}"
            );
            assert_eq!(g(&game.to_string()), game, "{text}");
        }
        assert_eq!(g("connect(9,7,4,2,2)").to_string(), "connect(9,7,4,2,2)");
        assert_eq!(g("gomoku:15"), Game::GOMOKU);
        assert_eq!(
            g("connect(19,19,6,2,1)").to_string(),
            "connect(19,19,6,2,1)"
        );
    }

    #[test]
    fn bad_games_say_why() {
        for (text, says) in [
            ("chess", "the games are"),
            ("gomoku:21", "from 5 to 20"),
            ("gomoku:4", "from 5 to 20"),
            ("gomoku:x", "whole number"),
            ("connect(9,9,9,2,1)", "k runs from 4 to 8"),
            ("connect(9,9,3,2,1)", "k runs from 4 to 8"),
            ("connect(5,5,6,2,1)", "does not fit"),
            ("connect(9,9,5,3,1)", "p is 1 or 2"),
            ("connect(9,9,5,1,2)", "1 to p = 1"),
            ("connect(9,9,5)", "five whole numbers"),
        ] {
            let e = text.parse::<Game>().unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn turns_and_boundaries() {
        let c6 = Game::CONNECT6;
        let ok: Vec<usize> = (0..10).filter(|&n| c6.is_move_boundary(n)).collect();
        assert_eq!(ok, vec![0, 1, 3, 5, 7, 9]);
        assert_eq!(c6.move_of_stone(0), 0..1);
        assert_eq!(c6.move_of_stone(2), 1..3);
        use Color::*;
        let colors: Vec<Color> = (0..7).map(|i| c6.color_of_stone(i)).collect();
        assert_eq!(
            colors,
            vec![Black, White, White, Black, Black, White, White]
        );
        let go = Game::GOMOKU;
        let colors: Vec<Color> = (0..4).map(|i| go.color_of_stone(i)).collect();
        assert_eq!(colors, vec![Black, White, Black, White]);
        assert!((0..10).all(|n| go.is_move_boundary(n)));
        let two = g("connect(9,9,5,2,2)");
        let colors: Vec<Color> = (0..6).map(|i| two.color_of_stone(i)).collect();
        assert_eq!(colors, vec![Black, Black, White, White, Black, Black]);
        for game in [c6, go, two] {
            for count in 0..40 {
                let black = (0..count)
                    .filter(|&i| game.color_of_stone(i) == Black)
                    .count();
                assert_eq!(game.black_stones(count), black, "{game} {count}");
            }
        }
    }

    #[test]
    fn winning_rows_by_rule() {
        use Color::*;
        assert!(Game::CONNECT6.wins(Black, 7) && !Game::CONNECT6.wins(Black, 5));
        assert!(Game::GOMOKU.wins(White, 6));
        assert!(!Game::GOMOKU_STANDARD.wins(White, 6) && Game::GOMOKU_STANDARD.wins(White, 5));
        assert!(!Game::RENJU.wins(Black, 6) && Game::RENJU.wins(White, 6));
    }

    #[test]
    fn points_and_bounds() {
        let go = Game::GOMOKU;
        assert_eq!(go.points().count(), 225);
        assert_eq!(go.center().to_string(), "H8");
        assert_eq!(Game::CONNECT6.center(), Point::CENTER);
        assert!(go.parse_point("O15").is_ok());
        let e = go.parse_point("P3").unwrap_err().to_string();
        assert!(e.contains("columns run from A to O"), "{e}");
        let e = go.parse_point("A16").unwrap_err().to_string();
        assert!(e.contains("rows run from 1 to 15"), "{e}");
        let e = Game::CONNECT6.parse_point("T11").unwrap_err().to_string();
        assert!(e.contains("columns run from A to S"), "{e}");
        let e = Game::CONNECT6.parse_point("Z11").unwrap_err().to_string();
        assert!(e.contains("columns run from A to S"), "{e}");
    }
}
