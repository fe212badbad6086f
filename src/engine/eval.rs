//! The engine's knowledge: every weight in one [`Params`] value (JSON, so tuning changes a file,
//! not the code), the value of an empty point for move ordering and the value of a position.
//!
//! A position is valued as the paper's abstract valuation (§5): split into connections, each
//! worth a weight by its type, summed per colour. Types run from `O` to `WIN` in the order of
//! their worth, so the weights rise with the type code.

use crate::geom::{Color, Dir, Point};
use crate::model::Model;
use crate::Game;
use serde::{Deserialize, Serialize};

/// The score of a won position, less the plies to the win.
pub const WIN: i32 = 1_000_000;

/// Scores at least this far from zero are wins or losses found by the search.
pub const DECIDED: i32 = WIN - 10_000;

/// Every weight and width of the engine (`docs/engine.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Worth of one connection of the side to move, per type code (O, L2, D3, S3, L3, D4, S4,
    /// L4, D5, L5, DW, WIN).
    pub own: [i32; 12],
    /// Worth of one connection of the opponent, per type code (subtracted).
    pub opponent: [i32; 12],
    /// Valuations by the stones the side to move must spend on the opponent's live windows
    /// (its cover number: 0, 1, 2, …; the last set for any more): who has the tempo changes
    /// what each connection is worth (empty: `own` and `opponent` whatever the threats).
    pub tempo: Vec<Valuation>,
    /// Ordering value of an empty point per directional point type, for the mover's stone.
    pub attack: [i32; 12],
    /// Ordering value of an empty point per directional point type of the opponent (a stone
    /// there spoils it).
    pub defence: [i32; 12],
    /// Empty points ranked by value that a move may use.
    pub width: usize,
    /// Moves of two stones kept per node, best pairs by value first.
    pub pairs: usize,
    /// Moves of two stones kept at the alpha-beta's nodes where the opponent of the side
    /// choosing the move is to move (0: `pairs`): its replies, which refute the side's
    /// moves only when they are among them.
    pub reply_pairs: usize,
    /// With it above 0, the moves after each alpha-beta node's first are probed with a null
    /// window, those after its first `late_moves` one whole move shallower where no live
    /// window is to be answered, and searched again whole only when the probe beats the best
    /// so far (0: every move searched whole, with the full window).
    pub late_moves: usize,
    /// Second stones tried with each of the `width` best points in a quiet position, valued
    /// with the first stone on the board (0: every pair of the `width` best points, valued
    /// one by one).
    pub partners: usize,
    /// Depth of the search for the mover's own threat win, in plies (whole rounds).
    pub win_depth: u32,
    /// Depth of the searches for the opponent's threat win after each candidate move.
    pub threat_depth: u32,
    /// Depth of the threat search at the alpha-beta leaves (0: none): a side to move with a
    /// threat win there is scored as winning.
    pub leaf_depth: u32,
    /// Node budget of each leaf threat search.
    pub leaf_nodes: u64,
    /// Root moves that must survive the opponent's threat search before the rest are left
    /// unchecked (and unsearched).
    pub safe_moves: usize,
    /// Threads for the safety checks of the candidate moves (one per candidate at a time);
    /// `--threads` sets it.
    pub threads: usize,
}

/// One valuation of a position: connections of the side to move and of the opponent worth a
/// weight by their type code, and a constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Valuation {
    /// Worth of one connection of the side to move, per type code.
    pub own: [i32; 12],
    /// Worth of one connection of the opponent, per type code (subtracted).
    pub opponent: [i32; 12],
    /// Added to every position valued with this set.
    pub base: i32,
}

/// The engine's parameters for whichever game a session plays: one set for the games of two
/// stones a move, one for the games of one stone.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    two_stones: Params,
    one_stone: Params,
}

impl Default for Tuning {
    /// The built-in sets, [`Params::connect6`] and [`Params::five`].
    fn default() -> Self {
        Tuning {
            two_stones: Params::connect6(),
            one_stone: Params::five(),
        }
    }
}

impl From<Params> for Tuning {
    /// These parameters in every game.
    fn from(p: Params) -> Self {
        Tuning {
            two_stones: p.clone(),
            one_stone: p,
        }
    }
}

impl Tuning {
    /// A parameter file's keys (JSON text, if any) over each built-in set, and a thread count
    /// over that; an error when the file does not make valid parameters over both.
    pub fn read(keys: Option<String>, threads: Option<usize>) -> Result<Tuning, String> {
        let mut t = Tuning::default();
        for set in [&mut t.two_stones, &mut t.one_stone] {
            if let Some(text) = &keys {
                *set = Params::from_json_over(set, text)?;
            }
            if let Some(n) = threads {
                set.threads = n;
            }
        }
        Ok(t)
    }

    /// The parameters for `game`.
    pub fn for_game(&self, game: &Game) -> Params {
        if game.p() == 2 {
            self.two_stones.clone()
        } else {
            self.one_stone.clone()
        }
    }
}

impl Default for Params {
    /// Connect6's set ([`Params::connect6`]).
    fn default() -> Self {
        Params::connect6()
    }
}

impl Params {
    /// The built-in set of Connect6 and the other games of two stones a move. The point
    /// weights (`attack`, `defence`) and `width`, `partners` were fitted so that the generated
    /// moves hold the moves a stronger program chose, the valuation (`own`, `opponent`, `O` to
    /// `L5`, and one set per stones owed in `tempo`, which the leaves use) by logistic
    /// regressions of who won on the type counts of positions from real games; `DW` and the
    /// searches' depths are set by hand (`docs/engine.md`, "Fitted weights").
    pub fn connect6() -> Params {
        Params {
            own: [0, 6, 3, 6, 8, 52, 55, 78, 24, 121, 2_000, 0],
            opponent: [0, 2, 2, 3, 4, 15, 16, 39, 20, 45, 5_000, 0],
            attack: [0, 9, 10, 10, 20, 34, 35, 179, 20, 161, 400, 10_000],
            defence: [0, 2, 3, 4, 13, 17, 17, 25, 0, 6, 350, 9_000],
            tempo: vec![
                Valuation {
                    own: [0, 11, 3, 13, 29, 0, 0, 0, 0, 0, 0, 0],
                    opponent: [0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 5_000, 0],
                    base: -1,
                },
                Valuation {
                    own: [0, 6, 4, 8, 22, 0, 0, 0, 0, 0, 0, 0],
                    opponent: [0, 6, 3, 7, 9, -1, 0, 0, 0, 0, 5_000, 0],
                    base: 0,
                },
                Valuation {
                    own: [0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0],
                    opponent: [0, 14, 5, 16, 29, -4, -1, -2, 1, 6, 5_000, 0],
                    base: -2,
                },
            ],
            width: 20,
            partners: 8,
            ..Params::five()
        }
    }

    /// The built-in set of the games of five and the other games of one stone a move: every
    /// weight set by hand.
    pub fn five() -> Params {
        Params {
            own: [0, 6, 4, 12, 24, 20, 40, 80, 90, 200, 2_000, 0],
            opponent: [0, 8, 5, 16, 40, 30, 60, 150, 160, 400, 5_000, 0],
            attack: [0, 4, 3, 8, 16, 14, 30, 60, 80, 160, 400, 10_000],
            defence: [0, 3, 2, 6, 14, 12, 26, 50, 70, 150, 350, 9_000],
            tempo: Vec::new(),
            width: 12,
            pairs: 24,
            reply_pairs: 0,
            late_moves: 0,
            partners: 4,
            win_depth: 36,
            threat_depth: 24,
            leaf_depth: 8,
            leaf_nodes: 2_000,
            safe_moves: 8,
            threads: 1,
        }
    }

    /// The built-in set for `game`: [`Params::connect6`] for two stones a move, else
    /// [`Params::five`].
    pub fn for_game(game: &Game) -> Params {
        Tuning::default().for_game(game)
    }

    /// Read a parameter file (JSON); keys left out keep Connect6's built-in values.
    pub fn from_json(text: &str) -> Result<Params, String> {
        Params::from_json_over(&Params::connect6(), text)
    }

    /// Read a parameter file (JSON) over `base`: keys left out keep `base`'s values.
    pub fn from_json_over(base: &Params, text: &str) -> Result<Params, String> {
        let keys: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut merged = match serde_json::to_value(base).map_err(|e| e.to_string())? {
            serde_json::Value::Object(m) => m,
            _ => unreachable!("Params is a JSON object"),
        };
        merged.extend(keys);
        let p: Params =
            serde_json::from_value(serde_json::Value::Object(merged)).map_err(|e| e.to_string())?;
        p.check()?;
        Ok(p)
    }

    fn check(&self) -> Result<(), String> {
        if self.width < 2 || self.pairs < 1 || self.safe_moves < 1 || self.threads < 1 {
            return Err(format!(
                "width must be at least 2, pairs, safe_moves and threads at least 1 (width {}, pairs {}, safe_moves {}, threads {})",
                self.width, self.pairs, self.safe_moves, self.threads
            ));
        }
        Ok(())
    }

    /// The value of the position for `side`, who moves next and must spend `threats` stones
    /// on the opponent's live windows.
    pub fn evaluate<M: Model>(&self, m: &M, side: Color, threats: usize) -> i32 {
        let mine = m.type_counts(side);
        let theirs = m.type_counts(side.opponent());
        let weigh = |w: &[i32; 12], n: &[u16; 12]| -> i32 {
            w.iter().zip(n).map(|(&w, &n)| w * i32::from(n)).sum()
        };
        let (own, opponent, base) = match self.tempo.get(threats).or(self.tempo.last()) {
            Some(v) => (&v.own, &v.opponent, v.base),
            None => (&self.own, &self.opponent, 0),
        };
        base + weigh(own, &mine) - weigh(opponent, &theirs)
    }

    /// The ordering value of the empty point `p` for `side`'s stone: what it builds for `side`
    /// and what it spoils for the opponent, over the four directions.
    pub fn point_value<M: Model>(&self, m: &M, p: Point, side: Color) -> i32 {
        Dir::ALL
            .iter()
            .map(|&d| {
                self.attack[m.point_type(p, side, d) as usize]
                    + self.defence[m.point_type(p, side.opponent(), d) as usize]
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Cpbim, Game, Position};

    fn model(stones: &str) -> Cpbim {
        let game = Game::CONNECT6;
        let pts: Vec<Point> = stones
            .split_whitespace()
            .map(|s| game.parse_point(s).unwrap())
            .collect();
        let pos = Position::from_stones(game, &pts).unwrap();
        Cpbim::from_board(pos.board())
    }

    #[test]
    fn defaults_round_trip_through_json() {
        let p = Params::default();
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(Params::from_json(&text).unwrap(), p);
        assert_eq!(Params::from_json("{\"width\": 8}").unwrap().width, 8);
        assert!(Params::from_json("{\"widht\": 8}").is_err());
        assert!(Params::from_json("{\"width\": 1}").is_err());
    }

    #[test]
    fn a_parameter_file_goes_over_each_games_own_set() {
        let t = Tuning::read(Some("{\"pairs\": 30}".into()), Some(3)).unwrap();
        let c6 = t.for_game(&Game::CONNECT6);
        let renju = t.for_game(&Game::RENJU);
        assert_eq!((c6.pairs, c6.threads), (30, 3));
        assert_eq!((renju.pairs, renju.threads), (30, 3));
        assert_eq!(c6.attack, Params::connect6().attack);
        assert_eq!(renju.attack, Params::five().attack);
        assert_ne!(Params::connect6().attack, Params::five().attack);
        assert_eq!(Tuning::default().for_game(&Game::GOMOKU), Params::five());
        assert_eq!(
            Tuning::default().for_game(&Game::CONNECT6),
            Params::default()
        );
        // A set given whole is the same in every game.
        let fixed = Tuning::from(Params::five());
        assert_eq!(fixed.for_game(&Game::CONNECT6), Params::five());
        assert!(Tuning::read(Some("{\"width\": 1}".into()), None).is_err());
        assert!(Tuning::read(Some("{\"widht\": 9}".into()), None).is_err());
        assert!(Tuning::read(Some("[1]".into()), None).is_err());
    }

    #[test]
    fn the_empty_board_is_even_and_a_stone_is_worth_something() {
        let p = Params::default();
        let empty = Cpbim::from_board(&Board::new(Game::CONNECT6));
        assert_eq!(
            p.evaluate(&empty, Color::Black, 0),
            p.evaluate(&empty, Color::White, 0)
        );
        assert_eq!(Params::five().evaluate(&empty, Color::Black, 0), 0);
        // Black J10, white K11 L11: white (to move? no, black) has more connections of worth.
        let m = model("J10 K11 L11");
        assert!(p.evaluate(&m, Color::White, 0) > p.evaluate(&m, Color::Black, 0));
    }

    #[test]
    fn extending_a_row_is_worth_more_than_a_far_point() {
        let p = Params::default();
        let m = model("J10 K11 L11 J11 J12");
        let near = p.point_value(&m, Game::CONNECT6.parse_point("J13").unwrap(), Color::Black);
        let far = p.point_value(&m, Game::CONNECT6.parse_point("A1").unwrap(), Color::Black);
        assert!(near > far, "{near} {far}");
    }

    #[test]
    fn tempo_sets_are_chosen_by_the_stones_the_mover_owes() {
        let p = Params {
            tempo: Vec::new(),
            ..Params::default()
        };
        let m = model("J10 K11 L11 J11 J12");
        let plain = Valuation {
            own: p.own,
            opponent: p.opponent,
            base: 0,
        };
        let mut t = p.clone();
        t.tempo = vec![
            plain.clone(),
            Valuation {
                base: 100,
                ..plain.clone()
            },
        ];
        for side in [Color::Black, Color::White] {
            let v = p.evaluate(&m, side, 0);
            assert_eq!(
                p.evaluate(&m, side, 2),
                v,
                "no sets: threats change nothing"
            );
            assert_eq!(t.evaluate(&m, side, 0), v);
            assert_eq!(t.evaluate(&m, side, 1), v + 100);
            // More threats than sets: the last set.
            assert_eq!(t.evaluate(&m, side, 2), v + 100);
        }
        let text = serde_json::to_string(&t).unwrap();
        assert_eq!(Params::from_json(&text).unwrap(), t);
        assert!(Params::from_json("{\"tempo\": [{\"own\": [0]}]}").is_err());
    }
}
