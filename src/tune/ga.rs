//! The adaptive genetic algorithm of Li Guo (2007; docs/tune.md, "GA"): a
//! population split at random into groups, a round robin in each group (win +1, loss −1, draw
//! 0), the group champions kept, the rest of the next generation bred from the champions by
//! uniform crossover and mutation at adaptive rates.

use super::spec::Spec;
use super::{Method, Pairing, Round, Settings, Step};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The paper's crossover rates: p_c1 below the mean fitness, down to p_c2 at the maximum.
pub const P_C: (f64, f64) = (0.9, 0.6);
/// The paper's mutation rates: p_m1 below the mean fitness, down to p_m2 at the maximum.
pub const P_M: (f64, f64) = (0.1, 0.001);

/// The adaptive rate for fitness `f`: `high` below the mean, falling linearly to `low` at the
/// maximum (`low` when every fitness is the same).
pub fn adaptive(rates: (f64, f64), f: f64, mean: f64, max: f64) -> f64 {
    let (high, low) = rates;
    if f < mean {
        high
    } else if max > mean {
        high - (high - low) * (f - mean) / (max - mean)
    } else {
        low
    }
}

/// The GA's state: the population, and the generation under way.
pub struct Ga {
    spec: Spec,
    population: Vec<Vec<f64>>,
    groups: usize,
    seed: u64,
    openings: usize,
    next_opening: usize,
    /// The generation under way: its random stream (after the grouping) and its groups.
    current: Option<(ChaCha8Rng, Vec<Vec<usize>>)>,
}

impl Ga {
    /// A population for `spec`: the base set and `settings.population − 1` sets drawn
    /// uniformly within the bounds.
    pub fn new(spec: &Spec, settings: &Settings) -> Ga {
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        rng.set_stream(u64::MAX);
        let m = settings.population.max(4);
        let mut population = vec![spec.start()];
        while population.len() < m {
            population.push(spec.random(&mut rng));
        }
        Ga {
            spec: spec.clone(),
            population,
            groups: settings.groups.max(2).min(m / 2),
            seed: settings.seed,
            openings: settings.openings.len().max(1),
            next_opening: 0,
            current: None,
        }
    }

    /// The population now.
    pub fn population(&self) -> &[Vec<f64>] {
        &self.population
    }

    /// One child of parents `a` and `b` (fitness `fa` ≥ `fb`): uniform crossover with the
    /// adaptive p_c of the better parent, then each gene mutated with the adaptive p_m by a
    /// uniform amount within ±step.
    fn child(
        &self,
        rng: &mut ChaCha8Rng,
        a: usize,
        b: usize,
        fa: f64,
        mean: f64,
        max: f64,
    ) -> Vec<f64> {
        let (pa, pb) = (&self.population[a], &self.population[b]);
        let crossed = rng.random::<f64>() < adaptive(P_C, fa, mean, max);
        let p_m = adaptive(P_M, fa, mean, max);
        self.spec
            .knobs
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let mut x = if crossed && rng.random::<bool>() {
                    pb[i]
                } else {
                    pa[i]
                };
                if rng.random::<f64>() < p_m {
                    x += rng.random_range(-k.step..=k.step);
                }
                x.clamp(k.min, k.max)
            })
            .collect()
    }
}

impl Method for Ga {
    fn round(&mut self, r: u64) -> Round {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(r);
        let m = self.population.len();
        let mut order: Vec<usize> = (0..m).collect();
        order.shuffle(&mut rng);
        let groups: Vec<Vec<usize>> = (0..self.groups)
            .map(|g| order.iter().copied().skip(g).step_by(self.groups).collect())
            .collect();
        let mut games = Vec::new();
        for group in &groups {
            for (i, &a) in group.iter().enumerate() {
                for &b in &group[i + 1..] {
                    let opening = self.next_opening % self.openings;
                    self.next_opening += 1;
                    for black in [0, 1] {
                        games.push(Pairing {
                            sides: [a, b],
                            black,
                            opening,
                        });
                    }
                }
            }
        }
        self.current = Some((rng, groups));
        Round {
            candidates: self
                .population
                .iter()
                .map(|v| v.iter().map(|x| x.round() as i64).collect())
                .collect(),
            games,
        }
    }

    fn finish(&mut self, round: &Round, scores: &[f64]) -> Step {
        let (mut rng, groups) = self.current.take().expect("finish after round");
        // Win +1, loss −1, draw 0.
        let mut fitness = vec![0.0; self.population.len()];
        for (p, &s) in round.games.iter().zip(scores) {
            fitness[p.sides[0]] += 2.0 * s - 1.0;
            fitness[p.sides[1]] -= 2.0 * s - 1.0;
        }
        let mean = fitness.iter().sum::<f64>() / fitness.len() as f64;
        let max = fitness.iter().copied().fold(f64::MIN, f64::max);
        // Each group's champion: the most points, the first in the group on a tie.
        let champions: Vec<usize> = groups
            .iter()
            .map(|g| {
                g.iter().copied().fold(
                    g[0],
                    |best, i| if fitness[i] > fitness[best] { i } else { best },
                )
            })
            .collect();
        let best = champions.iter().copied().fold(champions[0], |b, i| {
            if fitness[i] > fitness[b] {
                i
            } else {
                b
            }
        });
        let step = Step {
            values: self.population[best].clone(),
            score: {
                let played = round
                    .games
                    .iter()
                    .filter(|p| p.sides.contains(&best))
                    .count();
                (fitness[best] / played.max(1) as f64 + 1.0) / 2.0
            },
            extra: vec![fitness[best], max, mean],
        };
        let mut next: Vec<Vec<f64>> = champions
            .iter()
            .map(|&c| self.population[c].clone())
            .collect();
        while next.len() < self.population.len() {
            let a = champions[rng.random_range(0..champions.len())];
            let mut b = champions[rng.random_range(0..champions.len() - 1)];
            if b == a {
                b = champions[champions.len() - 1];
            }
            let (a, b) = if fitness[b] > fitness[a] {
                (b, a)
            } else {
                (a, b)
            };
            next.push(self.child(&mut rng, a, b, fitness[a], mean, max));
        }
        self.population = next;
        step
    }

    fn columns(&self) -> Vec<&'static str> {
        vec!["champion_fitness", "max_fitness", "mean_fitness"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::test_support::{self, spec};

    #[test]
    fn the_adaptive_rates_follow_the_paper() {
        // Below the mean: p_c1, p_m1; at the maximum: p_c2, p_m2; linear between.
        assert_eq!(adaptive(P_C, -3.0, 0.0, 4.0), 0.9);
        assert_eq!(adaptive(P_C, 4.0, 0.0, 4.0), 0.6);
        assert!((adaptive(P_C, 2.0, 0.0, 4.0) - 0.75).abs() < 1e-12);
        assert_eq!(adaptive(P_M, -1.0, 0.0, 4.0), 0.1);
        assert!((adaptive(P_M, 4.0, 0.0, 4.0) - 0.001).abs() < 1e-12);
        assert_eq!(adaptive(P_M, 0.0, 0.0, 0.0), 0.001);
    }

    fn settings() -> Settings {
        test_support::settings(super::super::MethodName::Ga, 3, 5)
    }

    #[test]
    fn groups_play_round_robins_and_champions_survive() {
        let mut ga = Ga::new(&spec(), &settings());
        assert_eq!(ga.population()[0], spec().start());
        let round = ga.round(0);
        // Two groups of 4: 6 pairs each, both colours.
        assert_eq!(round.games.len(), 2 * 6 * 2);
        let mut seen = std::collections::BTreeSet::new();
        for p in &round.games {
            seen.insert(p.sides[0]);
            seen.insert(p.sides[1]);
        }
        assert_eq!(seen.len(), 8);
        // Candidate 0 wins all its games: it is a champion and the step's best.
        let scores: Vec<f64> = round
            .games
            .iter()
            .map(|p| match (p.sides[0] == 0, p.sides[1] == 0) {
                (true, _) => 1.0,
                (_, true) => 0.0,
                _ => 0.5,
            })
            .collect();
        let before = ga.population()[0].clone();
        let step = ga.finish(&round, &scores);
        assert_eq!(step.values, before);
        assert_eq!(step.extra[0], 6.0);
        assert!(ga.population().contains(&before));
        assert_eq!(ga.population().len(), 8);
        for v in ga.population() {
            for (x, k) in v.iter().zip(&spec().knobs) {
                assert!(*x >= k.min && *x <= k.max);
            }
        }
    }

    #[test]
    fn the_same_seed_and_results_give_the_same_generations() {
        let run = || {
            let mut ga = Ga::new(&spec(), &settings());
            for r in 0..6 {
                let round = ga.round(r);
                let scores: Vec<f64> = (0..round.games.len())
                    .map(|g| (g % 3) as f64 / 2.0)
                    .collect();
                ga.finish(&round, &scores);
            }
            ga.population().to_vec()
        };
        assert_eq!(run(), run());
    }
}
