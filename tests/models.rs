//! The four position models: incremental state equals a rebuild, every model answers every
//! query identically, connections follow Definitions 2–5, and the paper's effect bounds hold.

use cpbim::games::{bundled_games_path, load_games};
use cpbim::geom::Dir;
use cpbim::Game;

const SIZE: usize = 19;
use cpbim::model::{candidate_set, line_connections, Connection, Threat};
use cpbim::{Board, Color, Cpbim, Cpbm, Iu, Model, Point, Raw};
use proptest::prelude::*;

/// All four models side by side, driven in lockstep.
struct Four {
    raw: Raw,
    iu: Iu,
    cpbm: Cpbm,
    cpbim: Cpbim,
    stack: Vec<Point>,
}

impl Four {
    fn new(board: &Board) -> Self {
        Four {
            raw: Raw::from_board(board),
            iu: Iu::from_board(board),
            cpbm: Cpbm::from_board(board),
            cpbim: Cpbim::from_board(board),
            stack: Vec::new(),
        }
    }

    fn make(&mut self, p: Point, c: Color) {
        self.raw.make(p, c);
        self.iu.make(p, c);
        self.cpbm.make(p, c);
        self.cpbim.make(p, c);
        self.stack.push(p);
        let e = self.cpbim.last_effect().expect("a frame");
        assert!(e.connections <= 12, "{e:?}");
        assert!(e.points <= 4 * SIZE - 3, "{e:?}");
        assert_eq!(self.iu.last_effect(), Some(e));
    }

    fn unmake(&mut self) {
        self.raw.unmake();
        self.iu.unmake();
        self.cpbm.unmake();
        self.cpbim.unmake();
        self.stack.pop();
    }

    /// Every query of every model agrees with Raw's answer; point types are checked on
    /// `points`.
    fn check(&self, points: &[Point]) {
        assert!(self.cpbim.matches_rebuild(), "CPBIM differs from a rebuild");
        assert!(self.iu.matches_rebuild(), "IU differs from a rebuild");
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
            assert_eq!(self.iu.thn(c), thn);
            assert_eq!(self.cpbm.thn(c), thn);
            assert_eq!(self.cpbim.thn(c), thn);
            assert_eq!(brute_thn(board, &w[0]), thn, "thn vs brute force");
            let six = self.raw.has_six(c);
            assert_eq!(six, board.find_win_of(c).is_some());
            assert_eq!(
                (
                    self.iu.has_six(c),
                    self.cpbm.has_six(c),
                    self.cpbim.has_six(c)
                ),
                (six, six, six)
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
            for t in 2..=4 {
                let r = self.raw.candidates(c, t);
                assert_eq!(self.iu.candidates(c, t), r, "candidates({c}, {t})");
                assert_eq!(self.cpbm.candidates(c, t), r, "candidates({c}, {t})");
                assert_eq!(self.cpbim.candidates(c, t), r, "candidates({c}, {t})");
            }
            let r = candidate_set(&self.raw, c);
            assert_eq!(candidate_set(&self.cpbim, c), r);
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

/// Live windows straight from the definition: every six consecutive points of every line.
fn brute_live_windows(board: &Board, c: Color) -> Vec<Threat> {
    let mut out = Vec::new();
    for row in 0..SIZE as isize {
        for col in 0..SIZE as isize {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let pts: Option<Vec<Point>> = (0..6)
                    .map(|i| {
                        let (x, y) = (col + dc * i, row + dr * i);
                        if (0..SIZE as isize).contains(&x) && (0..SIZE as isize).contains(&y) {
                            Point::new(x as usize, y as usize)
                        } else {
                            None
                        }
                    })
                    .collect();
                let Some(pts) = pts else { continue };
                let own = pts.iter().filter(|&&p| board.get(p) == Some(c)).count();
                let opp = pts
                    .iter()
                    .filter(|&&p| board.get(p) == Some(c.opponent()))
                    .count();
                if own >= 4 && opp == 0 {
                    let empties: Vec<Point> =
                        pts.into_iter().filter(|&p| board.is_empty(p)).collect();
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
    let hits = |set: &[Point]| windows.iter().all(|w| set.iter().any(|&p| w.contains(p)));
    let empties: Vec<Point> = Game::CONNECT6
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
fn near(p: Point) -> Vec<Point> {
    let mut v = Vec::new();
    for d in Dir::ALL {
        if let Some(s) = Game::CONNECT6.geometry().slot(p, d) {
            let l = &Game::CONNECT6.geometry().lines[s.line as usize];
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
    let empties: Vec<Point> = match last {
        Some(q) => Game::CONNECT6
            .points()
            .filter(|&p| board.is_empty(p) && p.distance(q) <= 2)
            .collect(),
        None => Vec::new(),
    };
    let pool = if empties.is_empty() || seed.is_multiple_of(7) {
        Game::CONNECT6
            .points()
            .filter(|&p| board.is_empty(p))
            .collect()
    } else {
        empties
    };
    if pool.is_empty() {
        None
    } else {
        Some(pool[seed as usize % pool.len()])
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_with_make_unmake_interleavings(ops in ops()) {
        let mut m = Four::new(&Board::new(Game::CONNECT6));
        for (step, op) in ops.iter().enumerate() {
            match *op {
                Op::Make(seed, white) => {
                    let last = m.stack.last().copied();
                    let Some(p) = pick(m.raw.board(), seed, last) else { continue };
                    m.make(p, if white { Color::White } else { Color::Black });
                    let pts: Vec<Point> = if step % 16 == 0 { Game::CONNECT6.points().collect() } else { near(p) };
                    m.check(&pts);
                }
                Op::Unmake => {
                    if let Some(p) = m.stack.last().copied() {
                        m.unmake();
                        m.check(&near(p));
                    }
                }
            }
        }
        while !m.stack.is_empty() {
            m.unmake();
        }
        m.check(&[Point::CENTER]);
    }
}

#[test]
fn real_games_replayed_and_taken_back() {
    let games = load_games(&bundled_games_path()).expect("bundled games");
    for g in games.iter().step_by(400) {
        let mut m = Four::new(&Board::new(Game::CONNECT6));
        for (i, &p) in g.moves.iter().enumerate() {
            m.make(p, Game::CONNECT6.color_of_stone(i));
            m.check(&near(p));
        }
        m.check(&Game::CONNECT6.points().collect::<Vec<_>>());
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
    let cs = line_connections(n, b, w);
    assert_eq!(
        cs,
        vec![
            conn(Color::Black, 0, 11, 208),
            conn(Color::Black, 12, 7, 0),
            conn(Color::White, 8, 11, 8),
        ]
    );
    let shapes: Vec<u32> = cs.iter().map(|c| c.shape()).collect();
    assert_eq!(shapes, vec![2192, 64, 1992]);
    let (n, b, w) = line("...................");
    let cs = line_connections(n, b, w);
    assert_eq!(
        cs,
        vec![conn(Color::Black, 0, 19, 0), conn(Color::White, 0, 19, 0)]
    );
    assert_eq!(cs[0].shape(), 524_224);
}

#[test]
fn hand_made_lines() {
    // Runs shorter than six are no connection.
    let (n, b, w) = line("OXXXXXO");
    assert_eq!(line_connections(n, b, w), vec![]);
    // Black's runs are cut by the white stones: 0..=5 (one stone), 7..=12 (empty) and 14..=18
    // (five points: too short). White's run is everything but the black stones: 1..=17.
    let (n, b, w) = line("X.....O......O....X");
    assert_eq!(
        line_connections(n, b, w),
        vec![
            conn(Color::Black, 0, 6, 1),
            conn(Color::Black, 7, 6, 0),
            conn(Color::White, 1, 17, (1 << 5) | (1 << 12)),
        ]
    );
    // A six-point diagonal line holding nothing: both colours.
    assert_eq!(line_connections(6, 0, 0).len(), 2);
    // Gamma: at most two connections of a colour fit in 19 points.
    let (n, b, w) = line("......O......O.....");
    assert_eq!(
        line_connections(n, b, w)
            .iter()
            .filter(|c| c.color == Color::Black)
            .count(),
        2
    );
}

fn board_of(black: &str, white: &str) -> Board {
    let mut b = Board::new(Game::CONNECT6);
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
    // Row 5: O X X X X . . O → one window, empties F5 G5. Column F: O(3) . . X X X X O(10)
    // → one window, empties F4 F5. Both are met by F5: thn = 1 although each line has one.
    let b = board_of("B5 C5 D5 E5 F6 F7 F8 F9", "A5 H5 F3 F10");
    let four = Four::new(&b);
    four.check(&Game::CONNECT6.points().collect::<Vec<_>>());
    assert_eq!(all_thn(&b, Color::Black), [1; 4]);
    // The same column shape on column J: its window (J5 J6 empty) misses F5 G5: thn = 2.
    let b = board_of("B5 C5 D5 E5 J7 J8 J9 J10", "A5 H5 J4 J11");
    assert_eq!(all_thn(&b, Color::Black), [2; 4]);
    // A third, separate threat on row 12: thn = 3.
    let b = board_of(
        "B5 C5 D5 E5 J7 J8 J9 J10 K12 L12 M12 N12",
        "A5 H5 J4 J11 J12 Q12",
    );
    assert_eq!(all_thn(&b, Color::Black), [3; 4]);
    Four::new(&b).check(&Game::CONNECT6.points().collect::<Vec<_>>());
}
