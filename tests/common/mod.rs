//! Test oracles that know nothing of the library's models or knowledge base: a plain board, all
//! windows of six enumerated by coordinates, brute force everywhere.
//!
//! * [`check_proof`]: verifies a proof tree (as the JSON the CLI prints) move by move;
//! * [`reference_solve`]: the double-threat search of `docs/search.md` straight from its definition,
//!   no transposition table, no ordering, brute force over R and the blocking pairs.

#![allow(dead_code)]

pub mod binary;
pub mod mutate;

use serde_json::Value;

pub const N: usize = 19;

/// 0 empty, 1 black, 2 white; index row * 19 + col, row 0 = row "1".
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plain {
    pub cells: Vec<u8>,
}

/// Every window of six: its six point indices.
pub fn windows() -> &'static [[usize; 6]] {
    use std::sync::OnceLock;
    static W: OnceLock<Vec<[usize; 6]>> = OnceLock::new();
    W.get_or_init(|| {
        let mut v = Vec::new();
        for r in 0..N as i32 {
            for c in 0..N as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                    let (ec, er) = (c + 5 * dc, r + 5 * dr);
                    if (0..N as i32).contains(&ec) && (0..N as i32).contains(&er) {
                        let mut w = [0; 6];
                        for (i, slot) in w.iter_mut().enumerate() {
                            let (x, y) = (c + dc * i as i32, r + dr * i as i32);
                            *slot = (y * N as i32 + x) as usize;
                        }
                        v.push(w);
                    }
                }
            }
        }
        v
    })
}

/// For each point, the indices (into [`windows`]) of the windows containing it.
pub fn windows_through() -> &'static [Vec<usize>] {
    use std::sync::OnceLock;
    static T: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![Vec::new(); N * N];
        for (i, w) in windows().iter().enumerate() {
            for &p in w {
                t[p].push(i);
            }
        }
        t
    })
}

/// Parse `K10` without the library.
pub fn point(s: &str) -> usize {
    let s = s.trim().to_ascii_uppercase();
    let col = (s.as_bytes()[0] - b'A') as usize;
    let row: usize = s[1..].parse().expect("row number");
    assert!(col < N && (1..=N).contains(&row), "off board {s}");
    (row - 1) * N + col
}

pub fn name(p: usize) -> String {
    format!("{}{}", (b'A' + (p % N) as u8) as char, p / N + 1)
}

impl Plain {
    /// The board after playing `stones` in Connect6 order.
    pub fn from_stones(stones: &[&str]) -> Plain {
        let mut cells = vec![0u8; N * N];
        for (i, s) in stones.iter().enumerate() {
            let p = point(s);
            assert_eq!(cells[p], 0, "{s} occupied");
            cells[p] = if i == 0 || ((i - 1) / 2) % 2 == 1 {
                1
            } else {
                2
            };
        }
        Plain { cells }
    }

    pub fn to_move(&self) -> u8 {
        let b = self.cells.iter().filter(|&&c| c == 1).count();
        let w = self.cells.iter().filter(|&&c| c == 2).count();
        if b > w {
            2
        } else {
            1
        }
    }

    /// Empty points of every live window of `c` (≥ 4 stones of `c`, none of the opponent).
    pub fn live(&self, c: u8) -> Vec<Vec<usize>> {
        self.windows_with(c, 4)
    }

    pub fn windows_with(&self, c: u8, min: usize) -> Vec<Vec<usize>> {
        let o = 3 - c;
        windows()
            .iter()
            .filter(|w| {
                !w.iter().any(|&p| self.cells[p] == o)
                    && w.iter().filter(|&&p| self.cells[p] == c).count() >= min
            })
            .map(|w| w.iter().copied().filter(|&p| self.cells[p] == 0).collect())
            .collect()
    }

    pub fn has_six(&self, c: u8) -> bool {
        windows()
            .iter()
            .any(|w| w.iter().all(|&p| self.cells[p] == c))
    }

    /// thn(c), capped at 3, by trying every set of up to two empty points of the windows.
    pub fn thn(&self, c: u8) -> u8 {
        cover(&self.live(c))
    }

    /// Every pair of empty points (a < b) that meets all live windows of `c`: x from the first
    /// window, y from anywhere on the board.
    pub fn blocking_pairs(&self, c: u8) -> Vec<(usize, usize)> {
        let ws = self.live(c);
        let mut out = Vec::new();
        let Some(first) = ws.first() else { return out };
        for &x in first {
            for y in 0..N * N {
                if y == x || self.cells[y] != 0 {
                    continue;
                }
                if ws.iter().all(|w| w.contains(&x) || w.contains(&y)) {
                    out.push((x.min(y), x.max(y)));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// R of `docs/search.md` for attacker `a`.
    pub fn r_set(&self, a: u8) -> Vec<usize> {
        let mut r: Vec<usize> = self
            .windows_with(a, 2)
            .into_iter()
            .chain(self.live(3 - a))
            .flatten()
            .collect();
        r.sort();
        r.dedup();
        r
    }

    /// Empty points of the live windows of `c` among the windows through `p` or `q`.
    fn live_through(&self, c: u8, p: usize, q: usize) -> Vec<Vec<usize>> {
        let o = 3 - c;
        let through = windows_through();
        let mut ids: Vec<usize> = through[p].iter().chain(&through[q]).copied().collect();
        ids.sort();
        ids.dedup();
        ids.into_iter()
            .map(|i| &windows()[i])
            .filter(|w| {
                !w.iter().any(|&x| self.cells[x] == o)
                    && w.iter().filter(|&&x| self.cells[x] == c).count() >= 4
            })
            .map(|w| w.iter().copied().filter(|&x| self.cells[x] == 0).collect())
            .collect()
    }

    /// Every attack of A: pairs from R after which D has no live window and thn(A) ≥ 2.
    /// Called only where A has no live window, so every live window of A after the pair passes
    /// through one of its stones; D's live windows after are D's windows before not hit.
    /// `work` counts pairs examined.
    pub fn attacks(&self, a: u8, work: &mut u64) -> Vec<(usize, usize, u8)> {
        let r = self.r_set(a);
        let d_live = self.live(3 - a);
        let mut out = Vec::new();
        let mut b = self.clone();
        for (i, &p) in r.iter().enumerate() {
            for &q in &r[i + 1..] {
                *work += 1;
                if !d_live.iter().all(|w| w.contains(&p) || w.contains(&q)) {
                    continue;
                }
                b.cells[p] = a;
                b.cells[q] = a;
                let ws = b.live_through(a, p, q);
                let t = cover(&ws);
                if t >= 2 {
                    out.push((p, q, t));
                }
                b.cells[p] = 0;
                b.cells[q] = 0;
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

/// Check a proof tree (the JSON of `docs/json.md`) for attacker `a` on `board`. Returns the proof's depth
/// in plies, or why it is wrong.
pub fn check_proof(board: &Plain, a: u8, node: &Value) -> Result<u32, String> {
    let d = 3 - a;
    let pts = |v: &Value| -> Result<Vec<usize>, String> {
        v.as_array()
            .ok_or("expected a list of points")?
            .iter()
            .map(|s| Ok(point(s.as_str().ok_or("expected a point")?)))
            .collect()
    };
    if let Some(six) = node.get("six") {
        let stones = pts(six)?;
        if stones.is_empty() || stones.len() > 2 {
            return Err("a six node places one or two stones".into());
        }
        let mut b = board.clone();
        for &p in &stones {
            if b.cells[p] != 0 {
                return Err(format!("six on occupied {}", name(p)));
            }
            b.cells[p] = a;
        }
        return if b.has_six(a) {
            Ok(0)
        } else {
            Err(format!("{stones:?} does not make six"))
        };
    }
    let attack = pts(node.get("attack").ok_or("node is neither six nor attack")?)?;
    if attack.len() != 2 || attack[0] == attack[1] {
        return Err("an attack is two distinct stones".into());
    }
    let r = board.r_set(a);
    for &p in &attack {
        if board.cells[p] != 0 {
            return Err(format!("attack on occupied {}", name(p)));
        }
        if !r.contains(&p) {
            return Err(format!("attack stone {} is not in R", name(p)));
        }
    }
    let mut b = board.clone();
    b.cells[attack[0]] = a;
    b.cells[attack[1]] = a;
    if !b.live(d).is_empty() {
        return Err("after the attack the defender still has a live window".into());
    }
    let thn = b.thn(a);
    if thn < 2 {
        return Err(format!("after the attack thn = {thn} < 2"));
    }
    let expected = b.blocking_pairs(a);
    let defenses = node
        .get("defenses")
        .and_then(Value::as_array)
        .ok_or("attack without a defenses list")?;
    let mut listed = Vec::new();
    let mut depth = 4;
    for def in defenses {
        let s = pts(def.get("stones").ok_or("defense without stones")?)?;
        if s.len() != 2 {
            return Err("a defense is two stones".into());
        }
        let pair = (s[0].min(s[1]), s[0].max(s[1]));
        listed.push(pair);
        let mut c = b.clone();
        c.cells[pair.0] = d;
        c.cells[pair.1] = d;
        let sub = check_proof(&c, a, def.get("next").ok_or("defense without next")?)?;
        depth = depth.max(4 + sub);
    }
    listed.sort();
    if listed != expected {
        return Err(format!(
            "defenses {:?} are not every blocking pair {:?}",
            listed
                .iter()
                .map(|&(x, y)| (name(x), name(y)))
                .collect::<Vec<_>>(),
            expected
                .iter()
                .map(|&(x, y)| (name(x), name(y)))
                .collect::<Vec<_>>()
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

/// Status of the A-node by the definition in `docs/search.md`, with a work budget in pairs examined (None
/// when exceeded).
pub fn a_status(b: &mut Plain, a: u8, budget: u32, visits: &mut u64) -> Option<RefStatus> {
    if !b.live(a).is_empty() {
        return Some(RefStatus::Win);
    }
    let mut work = 0;
    let attacks = b.attacks(a, &mut work);
    *visits = visits.checked_sub(work)?;
    if attacks.is_empty() {
        return Some(RefStatus::Exhausted);
    }
    if budget < 4 {
        return Some(RefStatus::Cut);
    }
    let mut all_exhausted = true;
    for (p, q, _) in attacks {
        b.cells[p] = a;
        b.cells[q] = a;
        let s = d_status(b, a, budget - 4, visits);
        b.cells[p] = 0;
        b.cells[q] = 0;
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
    if b.thn(a) >= 3 {
        return Some(RefStatus::Win);
    }
    let d = 3 - a;
    let mut status = RefStatus::Win;
    for (x, y) in b.blocking_pairs(a) {
        b.cells[x] = d;
        b.cells[y] = d;
        let s = a_status(b, a, budget, visits);
        b.cells[x] = 0;
        b.cells[y] = 0;
        match s? {
            RefStatus::Win => {}
            RefStatus::Exhausted => return Some(RefStatus::Exhausted),
            RefStatus::Cut => status = RefStatus::Cut,
        }
    }
    Some(status)
}

/// `(result, depth)` of `docs/search.md` by iterative deepening up to `limit`, or None if the work
/// budget (pairs examined) ran out.
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
    if b.cells.iter().all(|&c| c == 0) {
        return Some(("none", 0));
    }
    for budget in (0..=limit).step_by(4) {
        match a_status(&mut b, a, budget, &mut visits)? {
            RefStatus::Win => return Some(("win", budget)),
            RefStatus::Exhausted => return Some(("none", budget)),
            RefStatus::Cut => {}
        }
    }
    Some(("nowin", limit))
}
