//! The names of the 26 three-stone openings of the games of five (Renju's tournament rule, the
//! openings of `cpbim match --game renju --openings named`): black in the centre, white beside
//! it (13 *direct* openings: 寒星 Kansei, 花月 Kagetsu, …) or diagonally (13 *indirect*: 長星
//! Chosei, 浦月 Hogetsu, …), black's second stone in the centre's 5×5 square. A line is named
//! under the 8 symmetries of the board: `h8 h9 i9` and `h8 g8 g9` are both Kagetsu.
//!
//! The table gives black's second stone as an offset from the centre (dx to the right, dy up)
//! with white at (0, 1) (direct) or (1, 1) (indirect): `h8 h9 h10` is Kansei, `h8 h9 i9`
//! Kagetsu, `h8 i9 j10` Chosei, `h8 i9 i7` Hogetsu.

use crate::game::Game;
use crate::geom::Point;
use crate::opening::SYMMETRIES;

/// A named three-stone opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiveOpening {
    /// The name in romaji (`Kagetsu`).
    pub name: &'static str,
    /// The name in kanji (`花月`).
    pub kanji: &'static str,
    /// White's stone beside black's (direct) or diagonal to it (indirect).
    pub direct: bool,
}

/// Black's second stone of each direct opening, white at (0, 1).
const DIRECT: [((i32, i32), &str, &str); 13] = [
    ((0, 2), "Kansei", "寒星"),
    ((1, 2), "Keigetsu", "渓月"),
    ((2, 2), "Sosei", "疎星"),
    ((1, 1), "Kagetsu", "花月"),
    ((2, 1), "Zangetsu", "残月"),
    ((1, 0), "Ugetsu", "雨月"),
    ((2, 0), "Kinsei", "金星"),
    ((0, -1), "Shogetsu", "松月"),
    ((1, -1), "Kyugetsu", "丘月"),
    ((2, -1), "Shingetsu", "新月"),
    ((0, -2), "Zuisei", "瑞星"),
    ((1, -2), "Sangetsu", "山月"),
    ((2, -2), "Yusei", "遊星"),
];

/// Black's second stone of each indirect opening, white at (1, 1).
const INDIRECT: [((i32, i32), &str, &str); 13] = [
    ((2, 2), "Chosei", "長星"),
    ((2, 1), "Kyogetsu", "峡月"),
    ((2, 0), "Kosei", "恒星"),
    ((2, -1), "Suigetsu", "水月"),
    ((2, -2), "Ryusei", "流星"),
    ((1, 0), "Ungetsu", "雲月"),
    ((1, -1), "Hogetsu", "浦月"),
    ((1, -2), "Rangetsu", "嵐月"),
    ((0, -1), "Gingetsu", "銀月"),
    ((0, -2), "Myojo", "明星"),
    ((-1, -1), "Shagetsu", "斜月"),
    ((-1, -2), "Meigetsu", "名月"),
    ((-2, -2), "Suisei", "彗星"),
];

/// The name of the opening the first three stones of `stones` play in `game`, when it is one of
/// the 26: a game of one stone a move on a square board, black's first stone in the centre.
pub fn name_of(game: &Game, stones: &[Point]) -> Option<FiveOpening> {
    if game.p() != 1 || game.q() != 1 || game.m() != game.n() || stones.len() < 3 {
        return None;
    }
    let c = game.center();
    let offset = |p: Point| {
        (
            p.col() as i32 - c.col() as i32,
            p.row() as i32 - c.row() as i32,
        )
    };
    if offset(stones[0]) != (0, 0) {
        return None;
    }
    let (white, third) = (offset(stones[1]), offset(stones[2]));
    for s in SYMMETRIES {
        let (table, direct) = match s(white.0, white.1) {
            (0, 1) => (&DIRECT, true),
            (1, 1) => (&INDIRECT, false),
            _ => continue,
        };
        let t = s(third.0, third.1);
        if let Some(&(_, name, kanji)) = table.iter().find(|(at, _, _)| *at == t) {
            return Some(FiveOpening {
                name,
                kanji,
                direct,
            });
        }
    }
    None
}

/// The three stones of the opening `name` (its romaji, any case, or its kanji) in `game`, in
/// the orientation of the table: black in the centre, white above it (direct) or above and to
/// the right (indirect). `None` when `name` is none of the 26 or `game` has no such openings
/// (the games [`name_of`] names).
pub fn stones_of(game: &Game, name: &str) -> Option<[Point; 3]> {
    if game.p() != 1 || game.q() != 1 || game.m() != game.n() {
        return None;
    }
    let name = name.trim();
    let named = |(_, romaji, kanji): &&((i32, i32), &str, &str)| {
        romaji.eq_ignore_ascii_case(name) || *kanji == name
    };
    let (white, (third, _, _)) = match DIRECT.iter().find(named) {
        Some(found) => ((0, 1), found),
        None => ((1, 1), INDIRECT.iter().find(named)?),
    };
    let at = |(dx, dy): (i32, i32)| game.from_center(dx as isize, dy as isize);
    Some([game.center(), at(white)?, at(*third)?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::openings::three_stones;

    #[test]
    fn every_name_gives_the_stones_it_names() {
        for (_, romaji, kanji) in DIRECT.iter().chain(&INDIRECT) {
            for text in [romaji.to_string(), romaji.to_lowercase(), kanji.to_string()] {
                let stones = stones_of(&Game::RENJU, &text).expect("named");
                assert_eq!(
                    name_of(&Game::RENJU, &stones).map(|o| o.name),
                    Some(*romaji)
                );
            }
        }
        let kagetsu = stones_of(&Game::GOMOKU, "Kagetsu").unwrap();
        assert_eq!(kagetsu.map(|p| p.to_string()), ["H8", "H9", "I9"]);
        assert_eq!(
            stones_of(&Game::RENJU, "Hogetsu").unwrap()[2].to_string(),
            "I7"
        );
        assert_eq!(stones_of(&Game::RENJU, "Kagetsu-"), None);
        assert_eq!(stones_of(&Game::CONNECT6, "Kagetsu"), None);
    }

    fn name(game: Game, line: &str) -> Option<&'static str> {
        let stones: Vec<Point> = line
            .split_whitespace()
            .map(|s| s.parse().unwrap())
            .collect();
        name_of(&game, &stones).map(|o| o.name)
    }

    #[test]
    fn the_known_openings_have_their_names() {
        for (line, expected) in [
            ("h8 h9 h10", "Kansei"),
            ("h8 h9 i9", "Kagetsu"),
            ("h8 i9 j10", "Chosei"),
            ("h8 i9 i7", "Hogetsu"),
            // The same under the board's symmetries, and further stones do not matter.
            ("h8 g8 g9", "Kagetsu"),
            ("h8 h7 g7 a1", "Kagetsu"),
            ("h8 g7 f6", "Chosei"),
            ("h8 g9 g7", "Hogetsu"),
        ] {
            assert_eq!(name(Game::RENJU, line), Some(expected), "{line}");
            assert_eq!(name(Game::GOMOKU, line), Some(expected), "{line}");
        }
        for line in ["h8 h9", "h7 h9 i9", "h8 h10 i9", "h8 h9 k8", "h8 j10 i9"] {
            assert_eq!(name(Game::RENJU, line), None, "{line}");
        }
        assert_eq!(name(Game::CONNECT6, "J10 J11 K11"), None);
    }

    #[test]
    fn the_26_openings_of_matches_have_26_names_in_every_symmetry() {
        let openings = three_stones(&Game::RENJU);
        assert_eq!(openings.len(), 26);
        let mut names = Vec::new();
        for o in &openings {
            let named = name_of(&Game::RENJU, &o.stones).expect("named");
            assert_eq!(
                named.direct,
                o.stones[1].distance(o.stones[0]) == 1 && {
                    let (a, b) = (o.stones[0], o.stones[1]);
                    a.col() == b.col() || a.row() == b.row()
                }
            );
            let c = Game::RENJU.center();
            for s in SYMMETRIES {
                let image: Vec<Point> = o
                    .stones
                    .iter()
                    .map(|p| {
                        let (x, y) = s(
                            p.col() as i32 - c.col() as i32,
                            p.row() as i32 - c.row() as i32,
                        );
                        Game::RENJU.from_center(x as isize, y as isize).unwrap()
                    })
                    .collect();
                assert_eq!(name_of(&Game::RENJU, &image), Some(named));
            }
            names.push(named.name);
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 26);
    }
}
