//! The position models of every game: incremental state equals a rebuild, every model answers
//! every query identically and as brute force on the plain board does, connections follow
//! Definitions 2–5, and the paper's effect bounds hold.

use cpbim::games::{bundled_games_path, load_games};
use cpbim::geom::Dir;
use cpbim::model::{
    candidate_set, line_connections, Connection, CpbimK4, CpbimK5, CpbimK6, CpbimK7, CpbimK8,
    Effect, Incremental, Level, Threat, TypeSource,
};
use cpbim::model::{Cpbim5, Cpbm5, Iu5};
use cpbim::{Board, Color, Cpbim, Cpbm, Game, Iu, Model, Point, Raw};
use proptest::prelude::*;

/// What the incremental models tell about themselves.
trait Incr: Model {
    fn matches_rebuild(&self) -> bool;
    fn last_effect(&self) -> Option<Effect>;
}

impl<S: TypeSource, const K: u32, const G: usize, const L: usize> Incr for Incremental<S, K, G, L> {
    fn matches_rebuild(&self) -> bool {
        Incremental::matches_rebuild(self)
    }
    fn last_effect(&self) -> Option<Effect> {
        Incremental::last_effect(self)
    }
}

/// Raw, IU, CPBM and CPBIM of one game side by side, driven in lockstep. For a game without
/// comparison models, `iu` and `cpbm` are Raw again and CPBIM is the game's kind.
struct Four<I: Model, C: Model, P: Incr> {
    raw: Raw,
    iu: I,
    cpbm: C,
    cpbim: P,
    stack: Vec<Point>,
}

type Connect6Four = Four<Iu, Cpbm, Cpbim>;
type FiveFour = Four<Iu5, Cpbm5, Cpbim5>;

impl<I: Model, C: Model, P: Incr> Four<I, C, P> {
    fn new(board: &Board) -> Self {
        Four {
            raw: Raw::from_board(board),
            iu: I::from_board(board),
            cpbm: C::from_board(board),
            cpbim: P::from_board(board),
            stack: Vec::new(),
        }
    }

    fn game(&self) -> Game {
        *self.raw.game()
    }

    fn make(&mut self, p: Point, c: Color) {
        self.raw.make(p, c);
        self.iu.make(p, c);
        self.cpbm.make(p, c);
        self.cpbim.make(p, c);
        self.stack.push(p);
        let e = self.cpbim.last_effect().expect("a frame");
        let g = self.game();
        let side = g.m().max(g.n());
        // Paper §7.2: at most 12 connections (3 per line: the owner's, and the two the
        // opponent's splits into) where at most two fit a line; and at most 4n − 3 points.
        if g.k() == 6 && side <= 19 {
            assert!(e.connections <= 12, "{e:?}");
        }
        assert!(e.points <= 4 * side - 3, "{e:?}");
    }

    fn unmake(&mut self) {
        self.raw.unmake();
        self.iu.unmake();
        self.cpbm.unmake();
        self.cpbim.unmake();
        self.stack.pop();
    }

    /// What a stone on an empty point of `points` (every third, both colours) would change,
    /// read in place by every model, equals Raw's after playing it (Raw is held to brute force
    /// by [`Four::check`]): `thn`, the candidates, and the threats through a second point
    /// close by. The models are left as they were.
    fn check_if_played(&mut self, points: &[Point]) {
        const LEVELS: [Level; 2] = [Level::Attack, Level::NearLive];
        for c in Color::ALL {
            for &p in points.iter().step_by(3) {
                if !self.raw.board().is_empty(p) {
                    continue;
                }
                let now = LEVELS.map(|level| self.raw.candidates(c, level));
                self.raw.make(p, c);
                let t = self.raw.thn(c);
                let after = LEVELS.map(|level| self.raw.candidates(c, level));
                self.raw.unmake();
                let got = [
                    self.raw.thn_if_played(p, c),
                    self.iu.thn_if_played(p, c),
                    self.cpbm.thn_if_played(p, c),
                    self.cpbim.thn_if_played(p, c),
                ];
                assert_eq!(got, [t; 4], "thn of {c} once {c} plays {p}");
                for (i, level) in LEVELS.into_iter().enumerate() {
                    let got = [
                        self.iu.candidates_if_played(p, c, level, now[i]),
                        self.cpbm.candidates_if_played(p, c, level, now[i]),
                        self.cpbim.candidates_if_played(p, c, level, now[i]),
                    ];
                    assert_eq!(got, [after[i]; 3], "{level:?} of {c} once {c} plays {p}");
                }
                // Second stones close to the first: those that may share its connections.
                let board = self.raw.board();
                let close =
                    |q: Point| q.col().abs_diff(p.col()).max(q.row().abs_diff(p.row())) <= 3;
                let seconds: Vec<Point> = board
                    .game()
                    .points()
                    .filter(|&q| q != p && board.is_empty(q) && close(q))
                    .collect();
                for q in seconds {
                    self.raw.make(q, c);
                    let t = Dir::ALL.map(|d| self.raw.threats_if_played(p, c, d));
                    self.raw.unmake();
                    for (d, t) in Dir::ALL.into_iter().zip(t) {
                        let got = [
                            self.raw.threats_if_played_with(p, q, c, d),
                            self.iu.threats_if_played_with(p, q, c, d),
                            self.cpbm.threats_if_played_with(p, q, c, d),
                            self.cpbim.threats_if_played_with(p, q, c, d),
                        ];
                        assert_eq!(got, [t; 4], "threats of {c} at {p} {d:?} with {q}");
                    }
                }
            }
        }
    }

    /// Every query of every model agrees with Raw's answer, and Raw's with brute force; point
    /// types are checked on `points`.
    fn check(&self, points: &[Point]) {
        assert!(self.cpbim.matches_rebuild(), "CPBIM differs from a rebuild");
        let board = self.raw.board();
        assert_eq!(self.iu.board(), board);
        assert_eq!(self.cpbm.board(), board);
        assert_eq!(self.cpbim.board(), board);
        let key = self.raw.zobrist();
        assert_eq!(
            (self.iu.zobrist(), self.cpbm.zobrist(), self.cpbim.zobrist()),
            (key, key, key)
        );
        for c in Color::ALL {
            let mut w = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
            self.raw.live_windows(c, &mut w[0]);
            self.iu.live_windows(c, &mut w[1]);
            self.cpbm.live_windows(c, &mut w[2]);
            self.cpbim.live_windows(c, &mut w[3]);
            for (i, v) in w.iter().enumerate().skip(1) {
                assert_eq!(v, &w[0], "live windows of {c}, model {i}");
            }
            assert_eq!(
                brute_live_windows(board, c),
                w[0],
                "live windows vs brute force"
            );
            let thn = self.raw.thn(c);
            assert_eq!(
                (self.iu.thn(c), self.cpbm.thn(c), self.cpbim.thn(c)),
                (thn, thn, thn)
            );
            assert_eq!(brute_thn(board, &w[0]), thn, "thn vs brute force");
            let win = self.raw.has_win(c);
            assert_eq!(win, board.find_win_of(c).is_some());
            assert_eq!(
                (
                    self.iu.has_win(c),
                    self.cpbm.has_win(c),
                    self.cpbim.has_win(c)
                ),
                (win, win, win)
            );
            let b = self.raw.blockers(c);
            assert_eq!(
                (
                    self.iu.blockers(c),
                    self.cpbm.blockers(c),
                    self.cpbim.blockers(c)
                ),
                (b, b, b)
            );
            for level in [Level::Attack, Level::NearLive, Level::Live] {
                let r = self.raw.candidates(c, level);
                assert_eq!(
                    self.iu.candidates(c, level),
                    r,
                    "candidates({c}, {level:?})"
                );
                assert_eq!(
                    self.cpbm.candidates(c, level),
                    r,
                    "candidates({c}, {level:?})"
                );
                assert_eq!(
                    self.cpbim.candidates(c, level),
                    r,
                    "candidates({c}, {level:?})"
                );
            }
            assert_eq!(candidate_set(&self.cpbim, c), candidate_set(&self.raw, c));
            let n = self.raw.type_counts(c);
            assert_eq!(
                (
                    self.iu.type_counts(c),
                    self.cpbm.type_counts(c),
                    self.cpbim.type_counts(c)
                ),
                (n, n, n),
                "type_counts({c})"
            );
            for &p in points {
                for d in Dir::ALL {
                    if board.is_empty(p) {
                        let k = self.raw.threats_if_played(p, c, d);
                        assert_eq!(self.iu.threats_if_played(p, c, d), k, "{p} {c} {d:?}");
                        assert_eq!(self.cpbm.threats_if_played(p, c, d), k, "{p} {c} {d:?}");
                        assert_eq!(self.cpbim.threats_if_played(p, c, d), k, "{p} {c} {d:?}");
                    }
                    let t = self.raw.point_type(p, c, d);
                    assert_eq!(self.iu.point_type(p, c, d), t, "{p} {c} {d:?}");
                    assert_eq!(self.cpbm.point_type(p, c, d), t, "{p} {c} {d:?}");
                    assert_eq!(self.cpbim.point_type(p, c, d), t, "{p} {c} {d:?}");
                }
                let k = self.raw.composite(p, c);
                assert_eq!(self.cpbim.composite(p, c), k);
                assert_eq!(self.iu.composite(p, c), k);
            }
        }
    }
}

/// Does a row of `n` stones of `c` win in the board's game?
fn wins(board: &Board, c: Color, n: usize) -> bool {
    board.game().wins(c, n)
}

/// Live windows straight from the definition: every k consecutive points of every line of the
/// board, holding at least k − p stones of `c` and none of the opponent, whose filling makes a
/// winning row (the run through the filled window, measured on the board; a winning row is a
/// live window with no empty point).
fn brute_live_windows(board: &Board, c: Color) -> Vec<Threat> {
    let g = *board.game();
    let (k, p) = (g.k() as isize, g.p());
    let at = |x: isize, y: isize| {
        ((0..g.m() as isize).contains(&x) && (0..g.n() as isize).contains(&y))
            .then(|| Point::new(x as usize, y as usize).unwrap())
    };
    let mut out = Vec::new();
    for row in 0..g.n() as isize {
        for col in 0..g.m() as isize {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let pts: Option<Vec<Point>> =
                    (0..k).map(|i| at(col + dc * i, row + dr * i)).collect();
                let Some(pts) = pts else { continue };
                let own = pts.iter().filter(|&&q| board.get(q) == Some(c)).count();
                let opp = pts.iter().any(|&q| board.get(q) == Some(c.opponent()));
                if own < g.k() - p || opp {
                    continue;
                }
                // The run through the filled window.
                let stone = |i: isize| {
                    at(col + dc * i, row + dr * i).is_some_and(|q| board.get(q) == Some(c))
                };
                let mut before = 0;
                while stone(-1 - before) {
                    before += 1;
                }
                let mut after = 0;
                while stone(k + after) {
                    after += 1;
                }
                if wins(board, c, (k + before + after) as usize) {
                    let empties: Vec<Point> =
                        pts.into_iter().filter(|&q| board.is_empty(q)).collect();
                    out.push(Threat::new(&empties));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// thn by trying every set of up to two empty points.
fn brute_thn(board: &Board, windows: &[Threat]) -> u8 {
    if windows.is_empty() {
        return 0;
    }
    if windows.iter().any(|w| w.is_six()) {
        return 3;
    }
    let hits = |set: &[Point]| windows.iter().all(|w| set.iter().any(|&p| w.contains(p)));
    let empties: Vec<Point> = board
        .game()
        .points()
        .filter(|&p| board.is_empty(p))
        .collect();
    if empties.iter().any(|&p| hits(&[p])) {
        return 1;
    }
    for (i, &a) in empties.iter().enumerate() {
        for &b in &empties[i + 1..] {
            if hits(&[a, b]) {
                return 2;
            }
        }
    }
    3
}

/// Points on the four lines through `p`.
fn near(game: &Game, p: Point) -> Vec<Point> {
    let geo = game.geometry();
    let mut v = Vec::new();
    for d in Dir::ALL {
        if let Some(s) = geo.slot(p, d) {
            let l = &geo.lines[s.line as usize];
            v.extend_from_slice(&l.points[..l.len as usize]);
        }
    }
    v
}

#[derive(Clone, Debug)]
enum Op {
    /// Make a stone: point chosen near earlier stones (seed), colour bit.
    Make(u16, bool),
    Unmake,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            4 => (any::<u16>(), any::<bool>()).prop_map(|(s, c)| Op::Make(s, c)),
            1 => Just(Op::Unmake),
        ],
        1..160,
    )
}

/// A point near the existing stones (or anywhere at first), so games build threats.
fn pick(board: &Board, seed: u16, last: Option<Point>) -> Option<Point> {
    let g = board.game();
    let empties: Vec<Point> = match last {
        Some(q) => g
            .points()
            .filter(|&p| board.is_empty(p) && p.distance(q) <= 2)
            .collect(),
        None => Vec::new(),
    };
    let pool = if empties.is_empty() || seed.is_multiple_of(7) {
        g.points().filter(|&p| board.is_empty(p)).collect()
    } else {
        empties
    };
    if pool.is_empty() {
        None
    } else {
        Some(pool[seed as usize % pool.len()])
    }
}

/// A random game of `game` with make/unmake interleavings, every model checked at every step.
fn random_game<I: Model, C: Model, P: Incr>(game: Game, ops: &[Op]) {
    let mut m = Four::<I, C, P>::new(&Board::new(game));
    for (step, op) in ops.iter().enumerate() {
        match *op {
            Op::Make(seed, white) => {
                let last = m.stack.last().copied();
                let Some(p) = pick(m.raw.board(), seed, last) else {
                    continue;
                };
                m.make(p, if white { Color::White } else { Color::Black });
                let pts: Vec<Point> = if step % 16 == 0 {
                    game.points().collect()
                } else {
                    near(&game, p)
                };
                if step % 8 == 4 {
                    m.check_if_played(&near(&game, p));
                }
                m.check(&pts);
            }
            Op::Unmake => {
                if let Some(p) = m.stack.last().copied() {
                    m.unmake();
                    m.check(&near(&game, p));
                }
            }
        }
    }
    while !m.stack.is_empty() {
        m.unmake();
    }
    m.check(&[game.center()]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn connect6_random_games(ops in ops()) {
        random_game::<Iu, Cpbm, Cpbim>(Game::CONNECT6, &ops);
    }

    #[test]
    fn gomoku_random_games(ops in ops()) {
        random_game::<Iu5, Cpbm5, Cpbim5>(Game::GOMOKU, &ops);
    }

    #[test]
    fn standard_gomoku_random_games(ops in ops()) {
        random_game::<Iu5, Cpbm5, Cpbim5>(Game::GOMOKU_STANDARD, &ops);
    }

    #[test]
    fn renju_random_games(ops in ops()) {
        random_game::<Iu5, Cpbm5, Cpbim5>(Game::RENJU, &ops);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The other kinds (CPBIM only) against Raw, on games of every k, p and rule.
    #[test]
    fn other_games_random_games(ops in ops()) {
        let g = |s: &str| s.parse::<Game>().unwrap();
        random_game::<Raw, Raw, CpbimK4>(g("connect(12,10,4,2,1)"), &ops);
        random_game::<Raw, Raw, CpbimK4>(g("connect(20,20,4,1,1)"), &ops);
        random_game::<Raw, Raw, CpbimK5>(g("gomoku:20"), &ops);
        random_game::<Raw, Raw, CpbimK5>(g("renju:18"), &ops);
        random_game::<Raw, Raw, CpbimK6>(g("connect(20,20,6,2,1)"), &ops);
        random_game::<Raw, Raw, CpbimK6>(g("connect(11,9,6,1,1)"), &ops);
        random_game::<Raw, Raw, CpbimK7>(g("connect(14,14,7,2,2)"), &ops);
        random_game::<Raw, Raw, CpbimK8>(g("connect(20,16,8,1,1)"), &ops);
        random_game::<Iu, Cpbm, Cpbim>(g("connect6:13"), &ops);
    }
}

impl Incr for Raw {
    fn matches_rebuild(&self) -> bool {
        true
    }
    fn last_effect(&self) -> Option<Effect> {
        None
    }
}

#[test]
fn real_games_replayed_and_taken_back() {
    let games = load_games(&bundled_games_path()).expect("bundled games");
    let c6 = Game::CONNECT6;
    for g in games.iter().step_by(400) {
        let mut m = Connect6Four::new(&Board::new(c6));
        for (i, &p) in g.moves.iter().enumerate() {
            m.make(p, c6.color_of_stone(i));
            m.check(&near(&c6, p));
        }
        m.check(&c6.points().collect::<Vec<_>>());
        while !m.stack.is_empty() {
            m.unmake();
        }
        m.check(&[]);
    }
}

fn conn(color: Color, from: u32, len: u32, f: u32) -> Connection {
    Connection {
        color,
        from,
        len,
        f,
    }
}

/// A line from a string: `X` black, `O` white, `.` empty.
fn line(s: &str) -> (usize, u32, u32) {
    let (mut b, mut w) = (0, 0);
    for (i, ch) in s.chars().enumerate() {
        match ch {
            'X' => b |= 1 << i,
            'O' => w |= 1 << i,
            _ => {}
        }
    }
    (s.len(), b, w)
}

#[test]
fn figure_1_line_has_five_connections() {
    // Figure 1 of the paper: A = ('B', 11, 208), B = ('W', 11, 8), C = ('B', 7, 0) on one line;
    // D and E = an empty line, one black and one white connection of shape 524224.
    let (n, b, w) = line("....X.XX...O.......");
    let cs = line_connections(6, n, b, w);
    assert_eq!(
        cs,
        vec![
            conn(Color::Black, 0, 11, 208),
            conn(Color::Black, 12, 7, 0),
            conn(Color::White, 8, 11, 8),
        ]
    );
    let shapes: Vec<u32> = cs.iter().map(|c| c.shape(6)).collect();
    assert_eq!(shapes, vec![2192, 64, 1992]);
    let (n, b, w) = line("...................");
    let cs = line_connections(6, n, b, w);
    assert_eq!(
        cs,
        vec![conn(Color::Black, 0, 19, 0), conn(Color::White, 0, 19, 0)]
    );
    assert_eq!(cs[0].shape(6), 524_224);
}

#[test]
fn hand_made_lines() {
    // Runs shorter than six are no connection.
    let (n, b, w) = line("OXXXXXO");
    assert_eq!(line_connections(6, n, b, w), vec![]);
    // ...but five points are a connection of Gomoku.
    assert_eq!(
        line_connections(5, n, b, w),
        vec![conn(Color::Black, 1, 5, 31)]
    );
    // Black's runs are cut by the white stones: 0..=5 (one stone), 7..=12 (empty) and 14..=18
    // (five points: too short). White's run is everything but the black stones: 1..=17.
    let (n, b, w) = line("X.....O......O....X");
    assert_eq!(
        line_connections(6, n, b, w),
        vec![
            conn(Color::Black, 0, 6, 1),
            conn(Color::Black, 7, 6, 0),
            conn(Color::White, 1, 17, (1 << 5) | (1 << 12)),
        ]
    );
    // A six-point diagonal line holding nothing: both colours.
    assert_eq!(line_connections(6, 6, 0, 0).len(), 2);
    // Gamma: at most two connections of a colour fit in 19 points for k = 6, four for k = 4.
    let (n, b, w) = line("......O......O.....");
    let black = |k| {
        line_connections(k, n, b, w)
            .iter()
            .filter(|c| c.color == Color::Black)
            .count()
    };
    assert_eq!(black(6), 2);
    let (n, b, w) = line("....O....O....O....");
    assert_eq!(
        line_connections(4, n, b, w)
            .iter()
            .filter(|c| c.color == Color::Black)
            .count(),
        4
    );
}

fn board_of(game: Game, black: &str, white: &str) -> Board {
    let mut b = Board::new(game);
    for (s, c) in [(black, Color::Black), (white, Color::White)] {
        for t in s.split_whitespace() {
            b.set(t.parse().unwrap(), Some(c));
        }
    }
    b
}

fn all_thn(board: &Board, c: Color) -> [u8; 4] {
    [
        Raw::from_board(board).thn(c),
        Iu::from_board(board).thn(c),
        Cpbm::from_board(board).thn(c),
        Cpbim::from_board(board).thn(c),
    ]
}

#[test]
fn threats_in_two_lines_crossing_at_one_point() {
    let c6 = Game::CONNECT6;
    // Row 5: O X X X X . . O → one window, empties F5 G5. Column F: O(3) . . X X X X O(10)
    // → one window, empties F4 F5. Both are met by F5: thn = 1 although each line has one.
    let b = board_of(c6, "B5 C5 D5 E5 F6 F7 F8 F9", "A5 H5 F3 F10");
    let four = Connect6Four::new(&b);
    four.check(&c6.points().collect::<Vec<_>>());
    assert_eq!(all_thn(&b, Color::Black), [1; 4]);
    // The same column shape on column J: its window (J5 J6 empty) misses F5 G5: thn = 2.
    let b = board_of(c6, "B5 C5 D5 E5 J7 J8 J9 J10", "A5 H5 J4 J11");
    assert_eq!(all_thn(&b, Color::Black), [2; 4]);
    // A third, separate threat on row 12: thn = 3.
    let b = board_of(
        c6,
        "B5 C5 D5 E5 J7 J8 J9 J10 K12 L12 M12 N12",
        "A5 H5 J4 J11 J12 Q12",
    );
    assert_eq!(all_thn(&b, Color::Black), [3; 4]);
    Connect6Four::new(&b).check(&c6.points().collect::<Vec<_>>());
}

#[test]
fn exact_five_and_renju_windows() {
    // Black X X X X . X on row 8: freestyle Gomoku counts the gap as a five-window threat
    // (filling E8 makes six); standard Gomoku and Renju's black do not.
    let row = "A8 B8 C8 D8 F8";
    for (game, threat) in [
        (Game::GOMOKU, true),
        (Game::GOMOKU_STANDARD, false),
        (Game::RENJU, false),
    ] {
        let b = board_of(game, row, "");
        let m = FiveFour::new(&b);
        m.check(&game.points().collect::<Vec<_>>());
        let mut w = Vec::new();
        m.cpbim.live_windows(Color::Black, &mut w);
        let through_e8 = w.iter().any(|t| t.contains("E8".parse().unwrap()));
        assert_eq!(through_e8, threat, "{game}");
    }
    // White in Renju plays five or more: the same shape threatens.
    let b = board_of(Game::RENJU, "", row);
    let mut w = Vec::new();
    Cpbim5::from_board(&b).live_windows(Color::White, &mut w);
    assert!(w.iter().any(|t| t.contains("E8".parse().unwrap())));
}

/// A model rebuilt in place ([`Model::rebuild`], what a solver does between unrelated
/// positions), from whatever stones it had made and whatever game it was of, is the model built
/// from the board: every line (the slots the game does not use included), the key, and it
/// goes on making stones as one.
fn rebuilt_in_place<S: TypeSource, const K: u32, const G: usize, const L: usize>(
    games: &[Game],
    boards: &[(usize, Vec<(u16, bool)>)],
) {
    let mut m = Incremental::<S, K, G, L>::from_board(&Board::new(games[0]));
    for (i, (g, stones)) in boards.iter().enumerate() {
        // Leave the model mid-search: a few stones made on whatever it holds.
        let empty: Vec<Point> = (m.board().game().points())
            .filter(|&x| m.board().is_empty(x))
            .take(i % 4)
            .collect();
        for x in empty {
            m.make(x, Color::Black);
        }
        let game = games[g % games.len()];
        let mut board = Board::new(game);
        for &(s, black) in stones {
            let s = s as usize;
            let x = Point::new(s % game.m(), s / game.m() % game.n()).expect("on the board");
            let c = if black { Color::Black } else { Color::White };
            if board.is_empty(x) {
                board.set(x, Some(c));
            }
        }
        m.rebuild(&board);
        let fresh = Incremental::<S, K, G, L>::from_board(&board);
        assert!(
            m.board() == fresh.board() && m.zobrist() == fresh.zobrist(),
            "{game}"
        );
        for l in 0..L {
            assert_eq!(m.line(l), fresh.line(l), "{game} line {l}");
        }
        if let Some(x) = game.points().find(|&x| board.is_empty(x)) {
            m.make(x, Color::White);
            assert!(m.matches_rebuild(), "{game} after a stone");
            m.unmake();
        }
        assert!(m.matches_rebuild(), "{game}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_model_rebuilt_in_place_is_the_model_built(
        boards in prop::collection::vec(
            (0..3usize, prop::collection::vec((any::<u16>(), any::<bool>()), 0..80)),
            1..8,
        )
    ) {
        let g = |s: &str| s.parse::<Game>().unwrap();
        rebuilt_in_place::<cpbim::model::KnowledgeBase, 6, 2, 92>(
            &[Game::CONNECT6, g("connect6:13"), g("connect6:7")],
            &boards,
        );
        rebuilt_in_place::<cpbim::model::GameKb, 5, 2, 78>(
            &[Game::GOMOKU, Game::RENJU, g("gomoku:9")],
            &boards,
        );
    }
}
