//! Particle swarm optimisation as the Connect6 thesis of Li Cuizhu (§4.2–4.3) tunes its valuation, with
//! fitness by tournament (docs/tune.md, "PSO"): each particle's new position plays its own best
//! (pBest) a game pair and replaces it on winning the pair; a pBest that changed plays the
//! swarm's best (gBest) in the next round and replaces it on winning.

use super::spec::Spec;
use super::{Method, Pairing, Round, Settings, Step};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Cognitive and social factors c1 = c2 (the thesis's constriction model: φ = c1 + c2 = 4.1).
pub const C: f64 = 2.05;
/// The inertia weight falls linearly from the first to the second over the run (Shi's LDW,
/// the thesis's 0.9 and 0.4).
pub const INERTIA: (f64, f64) = (0.9, 0.4);
/// The largest speed per iteration as a share of each parameter's range (the thesis: 0.1–0.2).
pub const MAX_SPEED: f64 = 0.2;

/// The constriction factor χ = 2 / |2 − φ − √(φ² − 4φ)| for φ = 2·[`C`] (≈ 0.7298).
pub fn constriction() -> f64 {
    let phi = 2.0 * C;
    2.0 / (2.0 - phi - (phi * phi - 4.0 * phi).sqrt()).abs()
}

/// The swarm.
pub struct Pso {
    spec: Spec,
    x: Vec<Vec<f64>>,
    v: Vec<Vec<f64>>,
    pbest: Vec<Vec<f64>>,
    gbest: Vec<f64>,
    /// pBests that changed in the last round: they challenge gBest in this one.
    challengers: Vec<usize>,
    seed: u64,
    iterations: u64,
    openings: usize,
    next_opening: usize,
}

impl Pso {
    /// A swarm of `settings.population` particles: the base set and the rest drawn uniformly
    /// within the bounds, speeds uniform within ±half the largest speed; each its own pBest,
    /// gBest the base.
    pub fn new(spec: &Spec, settings: &Settings) -> Pso {
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        rng.set_stream(u64::MAX);
        let m = settings.population.max(2);
        let mut x = vec![spec.start()];
        while x.len() < m {
            x.push(spec.random(&mut rng));
        }
        let v = (0..m)
            .map(|_| {
                spec.knobs
                    .iter()
                    .map(|k| {
                        let s = MAX_SPEED * (k.max - k.min) / 2.0;
                        rng.random_range(-s..=s)
                    })
                    .collect()
            })
            .collect();
        Pso {
            spec: spec.clone(),
            pbest: x.clone(),
            gbest: x[0].clone(),
            x,
            v,
            challengers: Vec::new(),
            seed: settings.seed,
            iterations: settings.rounds.max(1),
            openings: settings.openings.len().max(1),
            next_opening: 0,
        }
    }

    /// Move every particle: v ← χ(w·v + c1·r1·(pBest − x) + c2·r2·(gBest − x)), each speed
    /// within ±`MAX_SPEED` of its range, x ← x + v within the bounds.
    fn fly(&mut self, r: u64, rng: &mut ChaCha8Rng) {
        let t = r as f64 / (self.iterations.max(2) - 1) as f64;
        let w = INERTIA.0 - (INERTIA.0 - INERTIA.1) * t.min(1.0);
        let chi = constriction();
        for i in 0..self.x.len() {
            for (d, k) in self.spec.knobs.iter().enumerate() {
                let vmax = MAX_SPEED * (k.max - k.min);
                let (r1, r2) = (rng.random::<f64>(), rng.random::<f64>());
                let x = self.x[i][d];
                let v = chi
                    * (w * self.v[i][d]
                        + C * r1 * (self.pbest[i][d] - x)
                        + C * r2 * (self.gbest[d] - x));
                self.v[i][d] = v.clamp(-vmax, vmax);
                self.x[i][d] = (x + self.v[i][d]).clamp(k.min, k.max);
            }
        }
    }

    /// The swarm's best now.
    pub fn gbest(&self) -> &[f64] {
        &self.gbest
    }

    /// A game pair of candidates `a` and `b` on the next opening.
    fn pair(&mut self, a: usize, b: usize) -> [Pairing; 2] {
        let opening = self.next_opening % self.openings;
        self.next_opening += 1;
        [0, 1].map(|black| Pairing {
            sides: [a, b],
            black,
            opening,
        })
    }
}

fn whole(v: &[f64]) -> Vec<i64> {
    v.iter().map(|x| x.round() as i64).collect()
}

impl Method for Pso {
    /// Candidates: the m positions, the m pBests, gBest (2m). Games: each position against
    /// its pBest; each challenger's pBest against gBest.
    fn round(&mut self, r: u64) -> Round {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(r);
        self.fly(r, &mut rng);
        let m = self.x.len();
        let mut candidates: Vec<Vec<i64>> = self.x.iter().map(|v| whole(v)).collect();
        candidates.extend(self.pbest.iter().map(|v| whole(v)));
        candidates.push(whole(&self.gbest));
        let mut games = Vec::new();
        for i in 0..m {
            games.extend(self.pair(i, m + i));
        }
        for j in self.challengers.clone() {
            games.extend(self.pair(m + j, 2 * m));
        }
        Round { candidates, games }
    }

    fn finish(&mut self, round: &Round, scores: &[f64]) -> Step {
        let m = self.x.len();
        // Points of each pair for its first side (win +1, loss −1, draw 0), by pair.
        let mut margin = std::collections::BTreeMap::<[usize; 2], f64>::new();
        for (p, &s) in round.games.iter().zip(scores) {
            *margin.entry(p.sides).or_default() += 2.0 * s - 1.0;
        }
        // gBest first (its challengers are last round's pBests, still in place).
        let best_challenger = self
            .challengers
            .iter()
            .map(|&j| (j, margin.get(&[m + j, 2 * m]).copied().unwrap_or(0.0)))
            .filter(|&(_, d)| d > 0.0)
            .fold(None, |best: Option<(usize, f64)>, (j, d)| match best {
                Some((_, bd)) if bd >= d => best,
                _ => Some((j, d)),
            });
        if let Some((j, _)) = best_challenger {
            self.gbest = self.pbest[j].clone();
        }
        self.challengers.clear();
        let mut won = 0;
        for i in 0..m {
            if margin.get(&[i, m + i]).copied().unwrap_or(0.0) > 0.0 {
                self.pbest[i] = self.x[i].clone();
                self.challengers.push(i);
                won += 1;
            }
        }
        Step {
            values: self.gbest.clone(),
            score: scores.iter().sum::<f64>() / scores.len().max(1) as f64,
            extra: vec![won as f64, f64::from(u8::from(best_challenger.is_some()))],
        }
    }

    fn columns(&self) -> Vec<&'static str> {
        vec!["pbests_replaced", "gbest_replaced"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::test_support::{self, spec};

    #[test]
    fn the_constriction_factor_is_the_theses() {
        assert!((constriction() - 0.7298).abs() < 1e-4, "{}", constriction());
    }

    fn settings() -> Settings {
        Settings {
            population: 4,
            ..test_support::settings(super::super::MethodName::Pso, 4, 5)
        }
    }

    #[test]
    fn winners_become_pbests_and_then_gbest() {
        let mut pso = Pso::new(&spec(), &settings());
        assert_eq!(pso.gbest(), spec().start().as_slice());
        let round = pso.round(0);
        // 4 positions, 4 pBests, gBest; each position plays its pBest twice; no challenger yet.
        assert_eq!(round.candidates.len(), 9);
        assert_eq!(round.games.len(), 8);
        // Particle 2's new position wins its pair; the others lose theirs.
        let scores: Vec<f64> = round
            .games
            .iter()
            .map(|p| if p.sides[0] == 2 { 1.0 } else { 0.0 })
            .collect();
        let moved = round.candidates[2].clone();
        let step = pso.finish(&round, &scores);
        assert_eq!(step.extra, vec![1.0, 0.0]);
        // Next round: particle 2's pBest challenges gBest, and wins.
        let round = pso.round(1);
        assert_eq!(round.games.len(), 8 + 2);
        let last = round.games[8];
        assert_eq!(last.sides, [4 + 2, 8]);
        assert_eq!(round.candidates[6], moved);
        let scores: Vec<f64> = round
            .games
            .iter()
            .map(|p| if p.sides == [6, 8] { 1.0 } else { 0.0 })
            .collect();
        let step = pso.finish(&round, &scores);
        assert_eq!(step.extra[1], 1.0);
        assert_eq!(whole(pso.gbest()), moved);
        for v in &pso.x {
            for (x, k) in v.iter().zip(&spec().knobs) {
                assert!(*x >= k.min && *x <= k.max);
            }
        }
    }
}
