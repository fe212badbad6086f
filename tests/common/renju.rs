//! Renju's forbidden points of black (RIF, articles 9.2–9.3), straight from the rules, on the
//! whole board: no line arrays, no patterns, every stone placed on a copy of the cells and the
//! rows it makes measured.
//!
//! A black stone on an empty point p makes
//! * a five: a maximal black run of exactly k through p — a five always wins, p is allowed;
//! * an overline: a maximal black run of more than k through p — forbidden;
//! * fours: sets of k − 1 black stones, p among them, that one more black stone on an empty
//!   point turns into a five (exactly k in a row). Fours are told apart by their stone sets: the
//!   straight four `.XXXX.` is one four (both of its points make a five of the same four
//!   stones), `X.XXX.X` with p the middle stone is two. Two or more fours — forbidden;
//! * threes: in a direction, an empty point q of the line such that black on q makes a straight
//!   four with p and q among its stones (exactly k − 1 black stones in a row, both end points
//!   empty, black on either end making a five) while q itself is not forbidden for black once p
//!   is on the board (the recursion that tells a real three from a false one). Threes in two or
//!   more directions — forbidden (a four and a three are allowed).
//!
//! In that order: five, overline, double four, double three. Written for any k (4 ≤ k ≤ 8);
//! Renju itself is k = 5. Cells: 0 empty, 1 black, 2 white, point `row · m + col`.

use super::Rules;
use std::collections::HashSet;

/// The four directions of a line, as (column step, row step).
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Why black may not play on `p` (`"overline"`, `"double four"`, `"double three"`), or None if it
/// may (also when `p` is occupied).
pub fn forbidden(rules: &Rules, cells: &[u8], p: usize) -> Option<&'static str> {
    forbidden_to_depth(rules, cells, p, usize::MAX)
}

/// [`forbidden`] with the recursion cut after `depth` levels: at depth 0 every straight-four
/// point counts, forbidden or not (a three is then anything that can make a straight four);
/// at depth 1 the straight-four points are checked with depth 0, and so on. For the tests to
/// see that their positions need the recursion.
pub fn forbidden_to_depth(
    rules: &Rules,
    cells: &[u8],
    p: usize,
    depth: usize,
) -> Option<&'static str> {
    if cells[p] != 0 {
        return None;
    }
    let k = rules.k;
    // A shortcut: every forbidden shape needs other black stones on p's lines within k − 1 of
    // it: two threes 2(k − 3) (k − 3 besides p and q in each straight four), two fours in one
    // line k − 1 (two different sets of k − 2), in two lines 2(k − 2), an overline at least
    // k − 1 within that reach. With fewer than the least of these, p is allowed.
    let near_black = (0..cells.len())
        .filter(|&q| cells[q] == 1 && on_a_line_within(rules, p, q, k - 1))
        .count();
    if near_black < (2 * (k - 3)).min(k - 1) {
        return None;
    }
    let mut with_p = cells.to_vec();
    with_p[p] = 1;
    let runs: Vec<usize> = DIRS
        .iter()
        .map(|&dir| black_run(rules, &with_p, p, dir).len())
        .collect();
    if runs.contains(&k) {
        return None;
    }
    if runs.iter().any(|&len| len > k) {
        return Some("overline");
    }
    if fours(rules, &with_p, p) >= 2 {
        return Some("double four");
    }
    if double_three(rules, &with_p, p, depth) {
        return Some("double three");
    }
    None
}

/// The point `steps` along `dir` from `p`, if on the board.
fn step(rules: &Rules, p: usize, (dc, dr): (i32, i32), steps: i32) -> Option<usize> {
    let col = (p % rules.m) as i32 + dc * steps;
    let row = (p / rules.m) as i32 + dr * steps;
    let on = (0..rules.m as i32).contains(&col) && (0..rules.n as i32).contains(&row);
    on.then(|| row as usize * rules.m + col as usize)
}

/// The maximal run of black stones through `p` (black) along `dir`, from its back end to its
/// front end.
fn black_run(rules: &Rules, cells: &[u8], p: usize, dir: (i32, i32)) -> Vec<usize> {
    let black = |x: Option<usize>| x.filter(|&x| cells[x] == 1);
    let mut back = 0;
    while black(step(rules, p, dir, -(back + 1))).is_some() {
        back += 1;
    }
    let mut run = Vec::new();
    let mut s = -back;
    while let Some(x) = black(step(rules, p, dir, s)) {
        run.push(x);
        s += 1;
    }
    run
}

/// Is `q` on one of the four lines through `p`, at most `reach` points away? Any row of k
/// through both p and q lies on such a line with `reach` = k − 1, so the other points of the
/// board can neither make a four nor a straight four with p: skipping them is only a shortcut.
fn on_a_line_within(rules: &Rules, p: usize, q: usize, reach: usize) -> bool {
    let dc = (q % rules.m) as i64 - (p % rules.m) as i64;
    let dr = (q / rules.m) as i64 - (p / rules.m) as i64;
    let on_line = dc == 0 || dr == 0 || dc.abs() == dr.abs();
    q != p && on_line && dc.unsigned_abs().max(dr.unsigned_abs()) as usize <= reach
}

/// The number of distinct fours through `p` (black on `cells`): try black on every empty point
/// of the board and keep, for each exact five through p it makes, the five's other k − 1 stones.
fn fours(rules: &Rules, cells: &[u8], p: usize) -> usize {
    let mut fours: HashSet<Vec<usize>> = HashSet::new();
    let mut b = cells.to_vec();
    for q in 0..cells.len() {
        if cells[q] != 0 || !on_a_line_within(rules, p, q, rules.k - 1) {
            continue;
        }
        b[q] = 1;
        for &dir in &DIRS {
            let run = black_run(rules, &b, p, dir);
            if run.len() == rules.k && run.contains(&q) {
                let mut stones: Vec<usize> = run.into_iter().filter(|&x| x != q).collect();
                stones.sort();
                fours.insert(stones);
            }
        }
        b[q] = 0;
    }
    fours.len()
}

/// Does black on `q` (empty, with `p` black on `cells`) make a straight four along `dir` with p
/// and q among its stones: exactly k − 1 black in a row, both ends empty, black on either end a
/// five of exactly k?
fn makes_straight_four(rules: &Rules, cells: &[u8], p: usize, q: usize, dir: (i32, i32)) -> bool {
    // Only q on the line through p along `dir` can join p's run (a shortcut).
    let (dc, dr) = dir;
    let (qc, qr) = ((q % rules.m) as i32, (q / rules.m) as i32);
    let (pc, pr) = ((p % rules.m) as i32, (p / rules.m) as i32);
    if (qc - pc) * dr != (qr - pr) * dc {
        return false;
    }
    let mut b = cells.to_vec();
    b[q] = 1;
    let run = black_run(rules, &b, p, dir);
    if run.len() != rules.k - 1 || !run.contains(&q) {
        return false;
    }
    let ends = [
        step(rules, run[0], dir, -1),
        step(rules, run[run.len() - 1], dir, 1),
    ];
    ends.into_iter().all(|end| {
        end.is_some_and(|e| {
            if b[e] != 0 {
                return false;
            }
            b[e] = 1;
            let five = black_run(rules, &b, p, dir).len() == rules.k;
            b[e] = 0;
            five
        })
    })
}

/// Does `p` (black on `cells`) make threes in two or more directions? A three in a direction: an
/// empty point q (tried over the whole board) makes a straight four with p along it, and q is
/// not itself forbidden on `cells` (checked `depth` levels deep).
fn double_three(rules: &Rules, cells: &[u8], p: usize, depth: usize) -> bool {
    // First the candidate points of each direction, without the recursion.
    let near: Vec<usize> = (0..cells.len())
        .filter(|&q| cells[q] == 0 && on_a_line_within(rules, p, q, rules.k - 1))
        .collect();
    let candidates: Vec<Vec<usize>> = DIRS
        .iter()
        .map(|&dir| {
            near.iter()
                .copied()
                .filter(|&q| makes_straight_four(rules, cells, p, q, dir))
                .collect()
        })
        .collect();
    // Fewer than two directions with a candidate: no double three whatever the recursion would
    // say, so it is skipped (a shortcut only).
    if candidates.iter().filter(|qs| !qs.is_empty()).count() < 2 {
        return false;
    }
    if depth == 0 {
        return true;
    }
    let threes = candidates
        .iter()
        .filter(|qs| {
            qs.iter()
                .any(|&q| forbidden_to_depth(rules, cells, q, depth - 1).is_none())
        })
        .count();
    threes >= 2
}
