//! Positions as keys under the board's symmetries (8 on a square board, 4 on another): the
//! store's keys and the books' ([`canonical`]), and the points of one orientation in another
//! ([`apply`], [`inverse`]).

use super::store::FORMAT;
use crate::board::Board;
use crate::game::Rule;
use crate::geom::Point;
use crate::Color;

/// The symmetries of an m×n board: 0–3 (identity, mirror of columns, of rows, both) on every
/// board, 4–7 (the transposes) on a square one.
fn symmetries(m: usize, n: usize) -> usize {
    if m == n {
        8
    } else {
        4
    }
}

/// Point `x` under symmetry `s` of the m×n board.
pub(super) fn apply(s: usize, x: Point, m: usize, n: usize) -> Point {
    let (c, r) = (x.col(), x.row());
    let (w, h) = (m - 1, n - 1);
    let (c, r) = match s {
        0 => (c, r),
        1 => (w - c, r),
        2 => (c, h - r),
        3 => (w - c, h - r),
        4 => (r, c),
        5 => (w - r, c),
        6 => (r, h - c),
        _ => (w - r, h - c),
    };
    Point::new(c, r).expect("a symmetry keeps points on the board")
}

/// The symmetry that undoes `s`.
pub(super) fn inverse(s: usize) -> usize {
    match s {
        5 => 6,
        6 => 5,
        s => s,
    }
}

/// The start of every key of `game`'s positions: the format and the game.
pub(super) fn game_head(game: crate::Game) -> Vec<u8> {
    let rule = match game.rule() {
        Rule::Free => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
    };
    let (m, n, k, p, q) = (game.m(), game.n(), game.k(), game.p(), game.q());
    vec![FORMAT, m as u8, n as u8, k as u8, p as u8, q as u8, rule]
}

/// The board and attacker of a canonical key of `game` ([`canonical`]), in the key's
/// orientation; `None` when the key is of another game or format, or does not read.
pub(super) fn board_of_key(key: &[u8], game: crate::Game) -> Option<(Board, Color)> {
    let head = game_head(game);
    let rest = key.strip_prefix(head.as_slice())?;
    let (&a, mut rest) = rest.split_first()?;
    let a = *Color::ALL.get(a as usize)?;
    let mut b = Board::new(game);
    for c in [Color::Black, Color::White] {
        loop {
            let (pair, tail) = rest.split_first_chunk::<2>()?;
            rest = tail;
            let i = u16::from_be_bytes(*pair);
            if i == 0xffff {
                break;
            }
            let x = Point::from_index(i as usize).filter(|&x| game.contains(x))?;
            b.set(x, Some(c));
        }
    }
    rest.is_empty().then_some((b, a))
}

/// The canonical key of `b` with attacker `a`, and the symmetry that gives it.
pub(super) fn canonical(b: &Board, a: Color) -> (Vec<u8>, usize) {
    let game = b.game();
    let (m, n) = (game.m(), game.n());
    let mut head = game_head(*game);
    head.push(a.index() as u8);
    let stones: Vec<(Point, Color)> = b.iter().collect();
    // The keys' black stones are sorted, so the smallest key has the smallest first black
    // stone: only the images that reach it are written out and compared.
    let first = |s: usize| {
        let black = stones.iter().filter(|&&(_, c)| c == Color::Black);
        black.map(|&(x, _)| apply(s, x, m, n).index()).min()
    };
    let firsts: Vec<Option<usize>> = (0..symmetries(m, n)).map(first).collect();
    let least = firsts.iter().min().copied().flatten();
    let mut best: Option<(Vec<u8>, usize)> = None;
    let mut points: Vec<u16> = Vec::with_capacity(stones.len());
    for s in (0..firsts.len()).filter(|&s| firsts[s] == least) {
        let key = image_key(&head, &stones, s, (m, n), &mut points);
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, s));
        }
    }
    best.expect("every board has the identity")
}

/// The key of `stones` under the symmetry `s` of an `m`×`n` board, after `head`: each colour's
/// points sorted, black's first, each list ended by 0xffff. `points` is room to sort in.
fn image_key(
    head: &[u8],
    stones: &[(Point, Color)],
    s: usize,
    (m, n): (usize, usize),
    points: &mut Vec<u16>,
) -> Vec<u8> {
    let mut key = Vec::with_capacity(head.len() + 2 * stones.len() + 4);
    key.extend(head);
    for c in [Color::Black, Color::White] {
        points.clear();
        let own = stones.iter().filter(|&&(_, sc)| sc == c);
        points.extend(own.map(|&(x, _)| apply(s, x, m, n).index() as u16));
        points.sort_unstable();
        points.iter().for_each(|i| key.extend(i.to_be_bytes()));
        key.extend([0xff, 0xff]);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`canonical`] as first written: every image's key written out and compared.
    fn canonical_of_every_image(b: &Board, a: Color) -> (Vec<u8>, usize) {
        let game = b.game();
        let (m, n) = (game.m(), game.n());
        let mut head = game_head(*game);
        head.push(a.index() as u8);
        let stones: Vec<(Point, Color)> = b.iter().collect();
        let mut best: Option<(Vec<u8>, usize)> = None;
        for s in 0..symmetries(m, n) {
            let key = image_key(&head, &stones, s, (m, n), &mut Vec::new());
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, s));
            }
        }
        best.expect("every board has the identity")
    }

    #[test]
    fn the_canonical_key_is_the_smallest_images() {
        use proptest::prelude::*;
        let games = [
            crate::Game::CONNECT6,
            crate::Game::RENJU,
            crate::Game::connect(9, 7, 4, 1, 1).unwrap(),
        ];
        let boards = (
            0..3usize,
            proptest::collection::vec((0..19usize, 0..19usize), 0..30),
        );
        let sides = (any::<bool>(), 0..8usize);
        // With `mirror` < 8, each stone's image under that symmetry is placed too: boards
        // whose images tie.
        proptest!(ProptestConfig::with_cases(3000), |((g, points) in boards, (white, mirror) in sides)| {
            let game = games[g];
            let (m, n) = (game.m(), game.n());
            let mut b = Board::new(game);
            for (i, (c, r)) in points.into_iter().enumerate() {
                let x = Point::new(c % m, r % n).unwrap();
                let mut images = vec![x];
                if mirror < symmetries(m, n) {
                    images.push(apply(mirror, x, m, n));
                }
                for y in images {
                    if b.get(y).is_none() {
                        b.set(y, Some(Color::ALL[i % 2]));
                    }
                }
            }
            let a = if white { Color::White } else { Color::Black };
            prop_assert_eq!(canonical(&b, a), canonical_of_every_image(&b, a));
        });
    }

    #[test]
    fn every_symmetry_is_undone_by_its_inverse() {
        for (m, n) in [(19, 19), (15, 15), (9, 7)] {
            for s in 0..symmetries(m, n) {
                for c in 0..m {
                    for r in 0..n {
                        let x = Point::new(c, r).unwrap();
                        let y = apply(s, x, m, n);
                        assert!(y.col() < m && y.row() < n);
                        assert_eq!(apply(inverse(s), y, m, n), x, "{m}x{n} s{s} {x}");
                    }
                }
            }
        }
    }
}
