//! Test oracles that know nothing of the library's models or knowledge base: a plain board of
//! any game, all windows of k points enumerated by coordinates, brute force everywhere.
//!
//! * [`check_proof`]: verifies a proof tree (as the JSON the CLI prints) move by move;
//! * [`reference_solve`]: the threat search of `docs/search.md` straight from its definition
//!   (p stones per move, the complete or the canonical attack rule), no transposition table,
//!   no ordering, brute force over R and the blocking moves.
//!
//! A game is given by its numbers ([`Rules`]); the oracle's own point numbering is
//! `row · m + col`.

#![allow(dead_code)]

pub mod binary;
pub mod json;
pub mod mutate;
pub mod renju;
pub mod threats;

use json::Json;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Game 4477 of `data/connect6_games.csv` rewound three moves, white to move: a solve that runs
/// for seconds (tens of millions of nodes) without an answer, for tests of progress and limits.
pub const LONG_SOLVE: &str = "j10 j9 k12 i10 l11 k10 i9 k9 m11 l10 l8 k13 m13 l12 m12 j12 i13 j13 i11 n11 o11 p11 j11 n12 l14 p10 k15 l9 p13 o12 n13 m14 n8 n9 m15 j15 o10 h14 j14 g14 g11 f13 g12 e12 e14 d13 e13 c13 f10 e11 e9 h9 f7 e6 g10 e8 f6 g6 f8 h7 g7 i7 e7 j6 i5 h4 j5 g4 o6 m6 o7 p8 m5 n5 l6 l7 p5 q4 p6 g16 i16 g17 h16 i15 h17 i18 g18 k18 n15 l17 o16 d6 d10 e5 d5 f5 c12 e4 f3 c6 e3 c11 c7 d12 p14 o14 d11 q16 o17 n18 q17 m17 o15 q13 l18 q8 q7 q9 r8 r9 k3 j4 k4 j3 i3 l3 l4 m4 l5 k6 n3 n1 d14 m2 e15 h15 h10 h11 j17 i12 i6 i14 j7";

/// A diagram of a `columns` × `rows` board with `stones` (`"H8"`, `'X'` or `'O'`): one line of
/// cells per row, the top line the last row.
pub fn diagram(columns: usize, rows: usize, stones: &[(&str, char)]) -> String {
    let mut cells = vec![vec!['.'; columns]; rows];
    for (pt, c) in stones {
        let col = (pt.as_bytes()[0].to_ascii_uppercase() - b'A') as usize;
        let row: usize = pt[1..].parse().expect("a point");
        cells[row - 1][col] = *c;
    }
    cells
        .iter()
        .rev()
        .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

/// A Gomoku puzzle: black H8 I8 J8 and no white stone, so the counts do not tell the side to
/// move (black to move wins at once: an open four).
pub fn gomoku_puzzle() -> String {
    diagram(15, 15, &[("H8", 'X'), ("I8", 'X'), ("J8", 'X')])
}

/// Connect6's side.
pub const N: usize = 19;

/// A window's points and its direction.
pub type Window = (Vec<usize>, (i32, i32));

/// A table per board and k, built once.
type Cache<T> = OnceLock<Mutex<HashMap<(usize, usize, usize), &'static T>>>;

/// The game, as numbers: board, k in a row, p per move, q first, whether each colour (black,
/// white) wins with exactly k only, and whether black has Renju's forbidden points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub p: usize,
    pub q: usize,
    pub exact: [bool; 2],
    pub renju: bool,
}

impl Rules {
    pub const CONNECT6: Rules = Rules {
        m: 19,
        n: 19,
        k: 6,
        p: 2,
        q: 1,
        exact: [false, false],
        renju: false,
    };

    /// The numbers of a game of the library (its definition only).
    pub fn of(game: &cpbim::Game) -> Rules {
        use cpbim::Rule;
        let exact = match game.rule() {
            Rule::Free => [false, false],
            Rule::Exact => [true, true],
            Rule::Renju => [true, false],
        };
        Rules {
            m: game.m(),
            n: game.n(),
            k: game.k(),
            p: game.p(),
            q: game.q(),
            exact,
            renju: game.rule() == Rule::Renju,
        }
    }

    /// Colour (1 black, 2 white) of the stone with 0-based play index `i`.
    pub fn color_of(&self, i: usize) -> u8 {
        if i < self.q || ((i - self.q) / self.p) % 2 == 1 {
            1
        } else {
            2
        }
    }

    /// Does a row of `len` stones of colour `c` win?
    pub fn wins(&self, c: u8, len: usize) -> bool {
        if self.exact[c as usize - 1] {
            len == self.k
        } else {
            len >= self.k
        }
    }

    /// Every window of k points, by the oracle's numbering, with its direction.
    pub fn windows(&self) -> &'static [Window] {
        static ALL: Cache<[Window]> = OnceLock::new();
        let mut all = ALL.get_or_init(Default::default).lock().unwrap();
        all.entry((self.m, self.n, self.k)).or_insert_with(|| {
            let (m, n, k) = (self.m as i32, self.n as i32, self.k as i32);
            let mut v = Vec::new();
            for r in 0..n {
                for c in 0..m {
                    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                        let (ec, er) = (c + (k - 1) * dc, r + (k - 1) * dr);
                        if (0..m).contains(&ec) && (0..n).contains(&er) {
                            let w = (0..k)
                                .map(|i| ((r + dr * i) * m + c + dc * i) as usize)
                                .collect();
                            v.push((w, (dc, dr)));
                        }
                    }
                }
            }
            Box::leak(v.into_boxed_slice())
        })
    }

    /// For each point, the indices (into [`Rules::windows`]) of the windows containing it.
    pub fn windows_through(&self) -> &'static [Vec<usize>] {
        static ALL: Cache<[Vec<usize>]> = OnceLock::new();
        let windows = self.windows();
        let mut all = ALL.get_or_init(Default::default).lock().unwrap();
        all.entry((self.m, self.n, self.k)).or_insert_with(|| {
            let mut t = vec![Vec::new(); self.m * self.n];
            for (i, (w, _)) in windows.iter().enumerate() {
                for &p in w {
                    t[p].push(i);
                }
            }
            Box::leak(t.into_boxed_slice())
        })
    }

    /// The point `steps` along `dir` from `p`, if on the board.
    fn step(&self, p: usize, (dc, dr): (i32, i32), steps: i32) -> Option<usize> {
        let (c, r) = (
            (p % self.m) as i32 + dc * steps,
            (p / self.m) as i32 + dr * steps,
        );
        ((0..self.m as i32).contains(&c) && (0..self.n as i32).contains(&r))
            .then(|| (r * self.m as i32 + c) as usize)
    }
}

/// Parse `K10` on the 19×19 board without the library.
pub fn point(s: &str) -> usize {
    point_on(&Rules::CONNECT6, s)
}

/// Parse `K10` on the board of `rules`.
pub fn point_on(rules: &Rules, s: &str) -> usize {
    let s = s.trim().to_ascii_uppercase();
    let col = (s.as_bytes()[0] - b'A') as usize;
    let row: usize = s[1..].parse().expect("row number");
    assert!(
        col < rules.m && (1..=rules.n).contains(&row),
        "off board {s}"
    );
    (row - 1) * rules.m + col
}

/// The name of a 19×19 point.
pub fn name(p: usize) -> String {
    name_on(&Rules::CONNECT6, p)
}

/// The name of a point of the board of `rules`.
pub fn name_on(rules: &Rules, p: usize) -> String {
    format!(
        "{}{}",
        (b'A' + (p % rules.m) as u8) as char,
        p / rules.m + 1
    )
}

/// 0 empty, 1 black, 2 white, by the oracle's numbering; with the game and the attack rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plain {
    pub rules: Rules,
    pub cells: Vec<u8>,
    /// The complete attack rule (two stones per move): a stone of R that alone makes the
    /// attack may come with any empty point. False: both stones from R.
    pub complete: bool,
}

impl Plain {
    /// A Connect6 board of these cells, complete rule.
    pub fn new(cells: Vec<u8>) -> Plain {
        Plain {
            rules: Rules::CONNECT6,
            cells,
            complete: true,
        }
    }

    /// The empty board of `rules`, complete rule.
    pub fn empty(rules: Rules) -> Plain {
        Plain {
            rules,
            cells: vec![0; rules.m * rules.n],
            complete: true,
        }
    }

    /// The Connect6 board after playing `stones` in order.
    pub fn from_stones(stones: &[&str]) -> Plain {
        Plain::from_stones_of(Rules::CONNECT6, stones)
    }

    /// The board of `rules` after playing `stones` in order.
    pub fn from_stones_of(rules: Rules, stones: &[&str]) -> Plain {
        let mut b = Plain::empty(rules);
        for (i, s) in stones.iter().enumerate() {
            let p = point_on(&rules, s);
            assert_eq!(b.cells[p], 0, "{s} occupied");
            b.cells[p] = rules.color_of(i);
        }
        b
    }

    /// The board of a library position (its stones only), by the oracle's numbering.
    pub fn from_position(rules: Rules, pos: &cpbim::Position) -> Plain {
        let mut b = Plain::empty(rules);
        for (p, c) in pos.board().iter() {
            b.cells[p.row() * rules.m + p.col()] = colour(c);
        }
        b
    }

    /// The side to move by the stone counts.
    pub fn to_move(&self) -> u8 {
        let count = self.cells.iter().filter(|&&c| c != 0).count();
        self.rules.color_of(count)
    }

    pub fn name(&self, p: usize) -> String {
        name_on(&self.rules, p)
    }

    /// May `c` not play the empty point `p` (black's forbidden points in Renju, by the
    /// reference of `renju.rs`)?
    pub fn forbids(&self, c: u8, p: usize) -> bool {
        self.rules.renju && c == 1 && renju::forbidden(&self.rules, &self.cells, p).is_some()
    }

    /// Would the window `w` (direction `dir`), filled with `c`, lie in a winning row of `c`?
    fn wins_filled(&self, c: u8, w: &[usize], dir: (i32, i32)) -> bool {
        let r = &self.rules;
        let own = |p: Option<usize>| p.is_some_and(|p| self.cells[p] == c);
        let mut len = w.len();
        let mut s = 1;
        while own(r.step(w[0], dir, -s)) {
            len += 1;
            s += 1;
        }
        let mut s = 1;
        while own(r.step(w[w.len() - 1], dir, s)) {
            len += 1;
            s += 1;
        }
        r.wins(c, len)
    }

    /// Empty points of every live window of `c`: at least k − p stones of `c`, none of the
    /// opponent, winning once filled (a winning row is one with no empty point).
    pub fn live(&self, c: u8) -> Vec<Vec<usize>> {
        let need = self.rules.k - self.rules.p;
        let o = 3 - c;
        self.rules
            .windows()
            .iter()
            .filter(|(w, dir)| {
                !w.iter().any(|&p| self.cells[p] == o)
                    && w.iter().filter(|&&p| self.cells[p] == c).count() >= need
                    && self.wins_filled(c, w, *dir)
            })
            .map(|(w, _)| w.iter().copied().filter(|&p| self.cells[p] == 0).collect())
            .collect()
    }

    /// Empty points of the windows with at least `min` stones of `c` and none of the opponent.
    pub fn windows_with(&self, c: u8, min: usize) -> Vec<Vec<usize>> {
        let o = 3 - c;
        self.rules
            .windows()
            .iter()
            .filter(|(w, _)| {
                !w.iter().any(|&p| self.cells[p] == o)
                    && w.iter().filter(|&&p| self.cells[p] == c).count() >= min
            })
            .map(|(w, _)| w.iter().copied().filter(|&p| self.cells[p] == 0).collect())
            .collect()
    }

    /// Does `c` have a winning row (a maximal run of the winning length)?
    pub fn has_win(&self, c: u8) -> bool {
        let r = &self.rules;
        (0..self.cells.len()).any(|p| {
            self.cells[p] == c
                && [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().any(|dir| {
                    // p starts a run in this direction.
                    if r.step(p, dir, -1).is_some_and(|q| self.cells[q] == c) {
                        return false;
                    }
                    let mut len = 1;
                    while r
                        .step(p, dir, len as i32)
                        .is_some_and(|q| self.cells[q] == c)
                    {
                        len += 1;
                    }
                    r.wins(c, len)
                })
        })
    }

    /// Connect6's name for [`Plain::has_win`].
    pub fn has_six(&self, c: u8) -> bool {
        self.has_win(c)
    }

    /// thn(c), capped at 3, by trying every set of up to two empty points of the windows.
    pub fn thn(&self, c: u8) -> u8 {
        cover(&self.live(c))
    }

    /// Every move of p empty points (sorted, each once) that meets all live windows of `c`
    /// (and that the opponent may play: in Renju, not on black's forbidden points).
    pub fn blocking_moves(&self, c: u8) -> Vec<Vec<usize>> {
        let ws = self.live(c);
        let mut out = Vec::new();
        let Some(first) = ws.first() else { return out };
        for &x in first {
            if self.rules.p == 1 {
                if ws.iter().all(|w| w.contains(&x)) && !self.forbids(3 - c, x) {
                    out.push(vec![x]);
                }
                continue;
            }
            for y in 0..self.cells.len() {
                if y == x || self.cells[y] != 0 {
                    continue;
                }
                if ws.iter().all(|w| w.contains(&x) || w.contains(&y)) {
                    out.push(vec![x.min(y), x.max(y)]);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// R of `docs/search.md` for attacker `a`: empty points of windows with at least k − 2p
    /// stones of `a` and none of the defender, and of the defender's live windows.
    pub fn r_set(&self, a: u8) -> Vec<usize> {
        let min = self.rules.k.saturating_sub(2 * self.rules.p);
        let mut r: Vec<usize> = self
            .windows_with(a, min)
            .into_iter()
            .chain(self.live(3 - a))
            .flatten()
            .collect();
        r.sort();
        r.dedup();
        r
    }

    /// Does the move `stones` of attacker `a` meet the attack conditions: every live window of
    /// the defender hit, and thn(a) ≥ p afterwards? Returns thn(a) after it when it does.
    fn attack_thn(&self, a: u8, stones: &[usize]) -> Option<u8> {
        let d_live = self.live(3 - a);
        if !d_live.iter().all(|w| stones.iter().any(|s| w.contains(s))) {
            return None;
        }
        let mut b = self.clone();
        for &s in stones {
            b.cells[s] = a;
        }
        let t = b.thn(a);
        (t as usize >= self.rules.p).then_some(t)
    }

    /// Empty points of the live windows of `c` among the windows through `stones`.
    fn live_through(&self, c: u8, stones: &[usize]) -> Vec<Vec<usize>> {
        let need = self.rules.k - self.rules.p;
        let o = 3 - c;
        let (windows, through) = (self.rules.windows(), self.rules.windows_through());
        let mut ids: Vec<usize> = stones
            .iter()
            .flat_map(|&s| through[s].iter().copied())
            .collect();
        ids.sort();
        ids.dedup();
        ids.into_iter()
            .map(|i| &windows[i])
            .filter(|(w, dir)| {
                !w.iter().any(|&x| self.cells[x] == o)
                    && w.iter().filter(|&&x| self.cells[x] == c).count() >= need
                    && self.wins_filled(c, w, *dir)
            })
            .map(|(w, _)| w.iter().copied().filter(|&x| self.cells[x] == 0).collect())
            .collect()
    }

    /// [`Plain::attack_thn`] where `a` has no live window: every live window of `a` after the
    /// move passes through one of its stones (a stone of `a` never makes another window of `a`
    /// live), and `d_live` are the defender's live windows before.
    fn attack_thn_fast(&self, a: u8, stones: &[usize], d_live: &[Vec<usize>]) -> Option<u8> {
        if !d_live.iter().all(|w| stones.iter().any(|s| w.contains(s))) {
            return None;
        }
        let mut b = self.clone();
        for &s in stones {
            b.cells[s] = a;
        }
        let t = cover(&b.live_through(a, stones));
        (t as usize >= self.rules.p).then_some(t)
    }

    /// Every attack of A: moves of p stones from R meeting the attack conditions; with the
    /// complete rule (p = 2), also a stone of R that meets them alone with any empty point
    /// outside R. `work` counts moves examined.
    /// Called only where A has no live window.
    pub fn attacks(&self, a: u8, work: &mut u64) -> Vec<(Vec<usize>, u8)> {
        let r = self.r_set(a);
        let d_live = self.live(3 - a);
        let mut out = Vec::new();
        if self.rules.p == 1 {
            for &x in &r {
                *work += 1;
                if let Some(t) = self.attack_thn_fast(a, &[x], &d_live) {
                    if self.forbids(a, x) {
                        continue;
                    }
                    out.push((vec![x], t));
                }
            }
            return out;
        }
        for (i, &x) in r.iter().enumerate() {
            for &y in &r[i + 1..] {
                *work += 1;
                if let Some(t) = self.attack_thn_fast(a, &[x, y], &d_live) {
                    out.push((vec![x, y], t));
                }
            }
        }
        if self.complete {
            for &x in &r {
                if self.attack_thn_fast(a, &[x], &d_live).is_none_or(|t| t < 2) {
                    continue;
                }
                for y in 0..self.cells.len() {
                    if self.cells[y] != 0 || r.contains(&y) {
                        continue;
                    }
                    *work += 1;
                    if let Some(t) = self.attack_thn_fast(a, &[x, y], &d_live) {
                        out.push((vec![x.min(y), x.max(y)], t));
                    }
                }
            }
        }
        out
    }
}

/// The fewest points meeting every window (capped at 3), trying all sets of up to two points.
pub fn cover(ws: &[Vec<usize>]) -> u8 {
    if ws.is_empty() {
        return 0;
    }
    if ws.iter().any(|w| w.is_empty()) {
        return 3;
    }
    let mut pts: Vec<usize> = ws.iter().flatten().copied().collect();
    pts.sort();
    pts.dedup();
    let hits = |set: &[usize]| ws.iter().all(|w| w.iter().any(|p| set.contains(p)));
    if pts.iter().any(|&p| hits(&[p])) {
        return 1;
    }
    for (i, &x) in pts.iter().enumerate() {
        for &y in &pts[i + 1..] {
            if hits(&[x, y]) {
                return 2;
            }
        }
    }
    3
}

/// Check a proof tree (the JSON of `docs/json.md`) for attacker `a` on `board`. Returns the
/// proof's depth in plies, or why it is wrong.
pub fn check_proof<J: Json>(board: &Plain, a: u8, node: &J) -> Result<u32, String> {
    check(board, a, node, false)
}

/// [`check_proof`] as a proof search needs it: any legal attack (not only the search's
/// candidate set R), and listed defences that the board no longer allows (a point taken, or
/// forbidden) ignored; every blocking move the board allows must still be answered. It proves
/// a real win all the same: every defender reply either blocks every live window (and is
/// answered) or leaves one that the attacker completes.
pub fn check_proof_relaxed<J: Json>(board: &Plain, a: u8, node: &J) -> Result<u32, String> {
    check(board, a, node, true)
}

fn check<J: Json>(board: &Plain, a: u8, node: &J, relaxed: bool) -> Result<u32, String> {
    let d = 3 - a;
    let p = board.rules.p;
    let pts = |v: &J| -> Result<Vec<usize>, String> {
        v.as_array()
            .ok_or("expected a list of points")?
            .iter()
            .map(|s| {
                Ok(point_on(
                    &board.rules,
                    s.as_str().ok_or("expected a point")?,
                ))
            })
            .collect()
    };
    if let Some(six) = node.get("six") {
        let stones = pts(six)?;
        if stones.is_empty() || stones.len() > p {
            return Err(format!("a winning node places 1 to {p} stones"));
        }
        let mut b = board.clone();
        for &s in &stones {
            if b.cells[s] != 0 {
                return Err(format!("win on occupied {}", board.name(s)));
            }
            b.cells[s] = a;
        }
        return if b.has_win(a) {
            Ok(0)
        } else {
            Err(format!("{stones:?} does not win"))
        };
    }
    let attack = pts(node.get("attack").ok_or("node is neither six nor attack")?)?;
    if attack.len() != p || (p == 2 && attack[0] == attack[1]) {
        return Err(format!("an attack is {p} distinct stones"));
    }
    for &s in &attack {
        if board.cells[s] != 0 {
            return Err(format!("attack on occupied {}", board.name(s)));
        }
        if board.forbids(a, s) {
            return Err(format!("attack on forbidden {}", board.name(s)));
        }
    }
    let r = board.r_set(a);
    let in_r = attack.iter().filter(|s| r.contains(s)).count();
    if in_r < p && !relaxed {
        // The complete rule: one stone of R that makes the attack alone.
        let alone = board.complete
            && p == 2
            && in_r == 1
            && attack
                .iter()
                .find(|s| r.contains(s))
                .and_then(|&x| board.attack_thn(a, &[x]))
                .is_some_and(|t| t >= 2);
        if !alone {
            return Err(format!(
                "attack {:?} is not in R",
                attack.iter().map(|&s| board.name(s)).collect::<Vec<_>>()
            ));
        }
    }
    let mut b = board.clone();
    for &s in &attack {
        b.cells[s] = a;
    }
    if !b.live(d).is_empty() {
        return Err("after the attack the defender still has a live window".into());
    }
    let thn = b.thn(a);
    if (thn as usize) < p {
        return Err(format!("after the attack thn = {thn} < {p}"));
    }
    let expected = if (thn as usize) > p {
        Vec::new()
    } else {
        b.blocking_moves(a)
    };
    let defenses = node
        .get("defenses")
        .and_then(J::as_array)
        .ok_or("attack without a defenses list")?;
    let round = 2 * p as u32;
    let mut listed = Vec::new();
    let mut depth = round;
    for def in defenses {
        let mut s = pts(def.get("stones").ok_or("defense without stones")?)?;
        if s.len() != p {
            return Err(format!("a defense is {p} stones"));
        }
        s.sort();
        if relaxed && s.iter().any(|&x| b.cells[x] != 0 || b.forbids(d, x)) {
            continue;
        }
        let mut c = b.clone();
        for &x in &s {
            c.cells[x] = d;
        }
        listed.push(s);
        let sub = check(
            &c,
            a,
            def.get("next").ok_or("defense without next")?,
            relaxed,
        )?;
        depth = depth.max(round + sub);
    }
    listed.sort();
    let answered = if relaxed {
        expected.iter().all(|m| listed.binary_search(m).is_ok())
    } else {
        listed == expected
    };
    if !answered {
        let names = |v: &[Vec<usize>]| {
            v.iter()
                .map(|m| m.iter().map(|&x| board.name(x)).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        return Err(format!(
            "defenses {:?} are not every blocking move {:?}",
            names(&listed),
            names(&expected)
        ));
    }
    Ok(depth)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefStatus {
    Win,
    Cut,
    Exhausted,
}

/// Status of the A-node by the definition in `docs/search.md`, with a work budget in moves
/// examined (None when exceeded).
pub fn a_status(b: &mut Plain, a: u8, budget: u32, visits: &mut u64) -> Option<RefStatus> {
    if !b.live(a).is_empty() {
        return Some(RefStatus::Win);
    }
    let round = 2 * b.rules.p as u32;
    let mut work = 0;
    let attacks = b.attacks(a, &mut work);
    *visits = visits.checked_sub(work)?;
    if attacks.is_empty() {
        return Some(RefStatus::Exhausted);
    }
    if budget < round {
        return Some(RefStatus::Cut);
    }
    let mut all_exhausted = true;
    for (stones, _) in attacks {
        for &s in &stones {
            b.cells[s] = a;
        }
        let s = d_status(b, a, budget - round, visits);
        for &x in &stones {
            b.cells[x] = 0;
        }
        match s? {
            RefStatus::Win => return Some(RefStatus::Win),
            RefStatus::Cut => all_exhausted = false,
            RefStatus::Exhausted => {}
        }
    }
    Some(if all_exhausted {
        RefStatus::Exhausted
    } else {
        RefStatus::Cut
    })
}

fn d_status(b: &mut Plain, a: u8, budget: u32, visits: &mut u64) -> Option<RefStatus> {
    if b.thn(a) as usize > b.rules.p {
        return Some(RefStatus::Win);
    }
    let d = 3 - a;
    let mut status = RefStatus::Win;
    for mv in b.blocking_moves(a) {
        for &x in &mv {
            b.cells[x] = d;
        }
        let s = a_status(b, a, budget, visits);
        for &x in &mv {
            b.cells[x] = 0;
        }
        match s? {
            RefStatus::Win => {}
            RefStatus::Exhausted => return Some(RefStatus::Exhausted),
            RefStatus::Cut => status = RefStatus::Cut,
        }
    }
    Some(status)
}

/// `(result, depth)` of `docs/search.md` by iterative deepening up to `limit`, or None if the
/// work budget (moves examined) ran out.
pub fn reference_solve(b: &Plain, limit: u32, visits: u64) -> Option<(&'static str, u32)> {
    reference_solve_for(b, b.to_move(), limit, visits)
}

/// [`reference_solve`] with attacker `a` (1 black, 2 white), whoever is to move.
pub fn reference_solve_for(
    b: &Plain,
    a: u8,
    limit: u32,
    visits: u64,
) -> Option<(&'static str, u32)> {
    let mut b = b.clone();
    let mut visits = visits;
    // The first move of a game whose first move is smaller than the others is no attack.
    if b.cells.iter().all(|&c| c == 0) && b.rules.q < b.rules.p {
        return Some(("none", 0));
    }
    let round = 2 * b.rules.p as u32;
    let limit = limit / round * round;
    for budget in (0..=limit).step_by(round as usize) {
        match a_status(&mut b, a, budget, &mut visits)? {
            RefStatus::Win => return Some(("win", budget)),
            RefStatus::Exhausted => return Some(("none", budget)),
            RefStatus::Cut => {}
        }
    }
    Some(("nowin", limit))
}

/// The oracle's colour code: 1 black, 2 white.
pub fn colour(c: cpbim::Color) -> u8 {
    if c == cpbim::Color::Black {
        1
    } else {
        2
    }
}

/// `stones` are a legal move of the side to move of `pos`: the right number of distinct
/// empty points, none forbidden to black in Renju by the reference of `renju.rs`.
pub fn assert_legal(pos: &cpbim::Position, stones: &[cpbim::Point]) {
    let plain = Plain::from_position(Rules::of(pos.game()), pos);
    assert_eq!(stones.len(), pos.stones_to_place(), "{stones:?}");
    for (i, p) in stones.iter().enumerate() {
        assert!(pos.board().is_empty(*p), "{p} is taken");
        assert!(!stones[..i].contains(p), "{p} twice");
        let cell = p.row() * plain.rules.m + p.col();
        assert!(
            !plain.forbids(colour(pos.to_move()), cell),
            "{p} is forbidden to black in\n{}",
            pos.to_diagram()
        );
    }
}

/// A random position of `game`: stones played near the others, `count` of them, without a win.
pub fn random_position(game: cpbim::Game, seed: u64, count: usize) -> Option<cpbim::Position> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut stones: Vec<cpbim::Point> = vec![game.center()];
    let mut board = cpbim::Board::new(game);
    board.set(game.center(), Some(game.color_of_stone(0)));
    while stones.len() < count {
        let last = stones[next(stones.len())];
        let near: Vec<cpbim::Point> = game
            .points()
            .filter(|&p| board.is_empty(p) && p.distance(last) <= 2)
            .collect();
        if near.is_empty() {
            return None;
        }
        let p = near[next(near.len())];
        let c = game.color_of_stone(stones.len());
        board.set(p, Some(c));
        stones.push(p);
        if board.win_through(p, c).is_some() {
            return None;
        }
    }
    // A position at a move boundary.
    while !game.is_move_boundary(stones.len()) {
        stones.pop();
    }
    cpbim::Position::from_stones(game, &stones).ok()
}

/// A test's scratch folder, removed with everything in it when dropped (named
/// `cpbim-NAME-…` in the system's temporary folder; the runs of the test suite used to leave
/// theirs behind).
pub struct Scratch(tempfile::TempDir);

/// A new, empty scratch folder for `name`.
pub fn scratch(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("cpbim-{name}-"))
        .tempdir()
        .expect("a scratch folder");
    Scratch(dir)
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}
