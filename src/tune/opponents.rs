//! Fixed engines beside the population (`--opponent CMD`; docs/tune.md, "Fixed opponents").
//!
//! Any method's game between candidates `a` and `b` (opening, colours) becomes a block of
//! games: that game itself, and for every fixed opponent the same game twice more, `a` against
//! the opponent and `b` against it, each in the colour it had. The method sees one score for
//! the block: the mean of the direct game's score and, per opponent, ½ + (a's points − b's
//! points) / 2 — so a candidate that does better against the fixed engines counts as having
//! won, and the method itself is unchanged.

use super::{Method, Pairing, Round, Step};

/// A method whose games are played against fixed opponents too.
pub struct WithOpponents {
    inner: Box<dyn Method + Send>,
    opponents: usize,
    /// The inner method's round under way.
    current: Option<Round>,
}

impl WithOpponents {
    /// `inner` with `opponents` fixed engines, the sides after the round's candidates.
    pub fn new(inner: Box<dyn Method + Send>, opponents: usize) -> WithOpponents {
        WithOpponents {
            inner,
            opponents,
            current: None,
        }
    }

    /// Games each of the inner method's games becomes.
    fn block(&self) -> usize {
        1 + 2 * self.opponents
    }
}

impl Method for WithOpponents {
    fn round(&mut self, r: u64) -> Round {
        let inner = self.inner.round(r);
        let n = inner.candidates.len();
        let mut games = Vec::with_capacity(inner.games.len() * self.block());
        for p in &inner.games {
            games.push(*p);
            for o in 0..self.opponents {
                let [a, b] = p.sides;
                // sides[black] has black: `a` is black when p.black is 0, `b` when it is 1.
                games.push(Pairing {
                    sides: [a, n + o],
                    black: p.black,
                    opening: p.opening,
                });
                games.push(Pairing {
                    sides: [b, n + o],
                    black: 1 - p.black,
                    opening: p.opening,
                });
            }
        }
        let round = Round {
            candidates: inner.candidates.clone(),
            games,
        };
        self.current = Some(inner);
        round
    }

    fn finish(&mut self, _round: &Round, scores: &[f64]) -> Step {
        let inner = self.current.take().expect("finish after round");
        let block = self.block();
        let folded: Vec<f64> = scores
            .chunks(block)
            .map(|b| {
                let against = b[1..]
                    .chunks(2)
                    .map(|ab| 0.5 + (ab[0] - ab[1]) / 2.0)
                    .sum::<f64>();
                (b[0] + against) / block.div_ceil(2) as f64
            })
            .collect();
        self.inner.finish(&inner, &folded)
    }

    fn columns(&self) -> Vec<&'static str> {
        self.inner.columns()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A method with two candidates and one game, which remembers the scores it was given.
    struct One(std::sync::Arc<std::sync::Mutex<Vec<f64>>>);

    impl Method for One {
        fn round(&mut self, _: u64) -> Round {
            Round {
                candidates: vec![vec![1], vec![2]],
                games: vec![Pairing {
                    sides: [0, 1],
                    black: 1,
                    opening: 3,
                }],
            }
        }
        fn finish(&mut self, _: &Round, scores: &[f64]) -> Step {
            self.0.lock().unwrap().extend_from_slice(scores);
            Step {
                values: vec![],
                score: scores[0],
                extra: vec![],
            }
        }
        fn columns(&self) -> Vec<&'static str> {
            vec![]
        }
    }

    #[test]
    fn each_game_is_played_against_every_opponent_in_the_same_colours_and_folded_back() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut m = WithOpponents::new(Box::new(One(seen.clone())), 2);
        let round = m.round(0);
        let g = |sides, black| Pairing {
            sides,
            black,
            opening: 3,
        };
        // b (side 1) had black: against each opponent (sides 2, 3) a is white, b black.
        assert_eq!(
            round.games,
            vec![
                g([0, 1], 1),
                g([0, 2], 1),
                g([1, 2], 0),
                g([0, 3], 1),
                g([1, 3], 0)
            ]
        );
        // a lost the direct game, beat opponent 2 where b lost, drew opponent 3 as b did.
        m.finish(&round, &[0.0, 1.0, 0.0, 0.5, 0.5]);
        let folded = seen.lock().unwrap()[0];
        assert!((folded - (0.0 + 1.0 + 0.5) / 3.0).abs() < 1e-12, "{folded}");
    }
}
