//! Li Guo's experiment (the GA paper's Figure 1): players (the champions of chosen generations of a run, and random
//! players) in one round robin, each pair with both colours; a win +1, a loss −1, a draw 0.
//! One round of a [`Method`], so its games are logged and a stopped round robin resumes.

use super::spec::Spec;
use super::{Method, Pairing, Round, Step};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The players and their games.
pub struct RoundRobin {
    players: Vec<Vec<f64>>,
    openings: usize,
}

impl RoundRobin {
    /// `chosen` (parameter values) and `random` players drawn uniformly within the bounds
    /// (from `seed`), in that order.
    pub fn new(
        spec: &Spec,
        chosen: Vec<Vec<f64>>,
        random: usize,
        seed: u64,
        openings: usize,
    ) -> RoundRobin {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::MAX - 1);
        let mut players = chosen;
        for _ in 0..random {
            players.push(spec.random(&mut rng));
        }
        RoundRobin {
            players,
            openings: openings.max(1),
        }
    }
}

/// Points per player (win +1, loss −1, draw 0) and wins, draws, losses, from a round's games.
pub fn points(players: usize, games: &[Pairing], scores: &[f64]) -> Vec<(f64, [u32; 3])> {
    let mut out = vec![(0.0, [0u32; 3]); players];
    for (p, &s) in games.iter().zip(scores) {
        for (side, s) in [(p.sides[0], s), (p.sides[1], 1.0 - s)] {
            out[side].0 += 2.0 * s - 1.0;
            out[side].1[if s == 1.0 {
                0
            } else if s == 0.5 {
                1
            } else {
                2
            }] += 1;
        }
    }
    out
}

impl Method for RoundRobin {
    fn round(&mut self, _r: u64) -> Round {
        let n = self.players.len();
        let mut games = Vec::new();
        let mut k = 0;
        for a in 0..n {
            for b in a + 1..n {
                for black in [0, 1] {
                    games.push(Pairing {
                        sides: [a, b],
                        black,
                        opening: k % self.openings,
                    });
                }
                k += 1;
            }
        }
        Round {
            candidates: self
                .players
                .iter()
                .map(|v| v.iter().map(|x| x.round() as i64).collect())
                .collect(),
            games,
        }
    }

    fn finish(&mut self, round: &Round, scores: &[f64]) -> Step {
        Step {
            values: Vec::new(),
            score: 0.5,
            extra: points(self.players.len(), &round.games, scores)
                .into_iter()
                .map(|(p, _)| p)
                .collect(),
        }
    }

    fn columns(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Params;

    #[test]
    fn every_pair_plays_both_colours_and_points_add_to_zero() {
        let spec = Spec::parse(
            r#"{"own[5]": {"min": 40, "max": 60, "step": 3}}"#,
            &Params::connect6(),
        )
        .unwrap();
        let mut rr = RoundRobin::new(&spec, vec![vec![50.0], vec![55.0]], 2, 1, 3);
        let round = rr.round(0);
        assert_eq!(round.candidates.len(), 4);
        assert_eq!(round.games.len(), 6 * 2);
        for v in &round.candidates[2..] {
            assert!((40..=60).contains(&v[0]));
        }
        // Player 0 wins everything; the others draw among themselves.
        let scores: Vec<f64> = round
            .games
            .iter()
            .map(|p| if p.sides[0] == 0 { 1.0 } else { 0.5 })
            .collect();
        let pts = points(4, &round.games, &scores);
        assert_eq!(pts[0], (6.0, [6, 0, 0]));
        assert_eq!(pts[1], (-2.0, [0, 4, 2]));
        assert_eq!(pts.iter().map(|p| p.0).sum::<f64>(), 0.0);
        assert_eq!(
            rr.finish(&round, &scores).extra,
            vec![6.0, -2.0, -2.0, -2.0]
        );
    }
}
