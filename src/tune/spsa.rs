//! SPSA with OpenBench's schedule (docs/tune.md, "SPSA"): every iteration perturbs every
//! tuned parameter by ±c_k at once, plays θ+ against θ− (game pairs, both colours on one
//! opening), and moves θ along the signs by the wins minus losses of θ+.

use super::spec::Spec;
use super::{Method, Pairing, Round, Settings, Step};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// OpenBench's α: the learning rate's decay.
pub const ALPHA: f64 = 0.602;
/// OpenBench's γ: the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// OpenBench's r_end (the learning rate at the last iteration, per unit of step²).
pub const R_END: f64 = 0.002;

/// The gains of iteration `k` (from 1) of `n` for a parameter of step `step`: the
/// perturbation c_k and the learning rate a_k, with A = n / 10.
pub fn gains(k: u64, n: u64, step: f64, r_end: f64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let big_a = 0.1 * n;
    let c = step * n.powf(GAMMA) / k.powf(GAMMA);
    let a = r_end * step * step * (big_a + n).powf(ALPHA) / (big_a + k).powf(ALPHA);
    (c, a)
}

/// `x` rounded to a whole number at random, up with the probability of its fraction (so the
/// mean is `x`), then kept within `[min, max]`.
fn round_at_random(x: f64, min: f64, max: f64, rng: &mut ChaCha8Rng) -> i64 {
    let floor = x.floor();
    let up = rng.random::<f64>() < x - floor;
    let v = if up { floor + 1.0 } else { floor };
    v.clamp(min.ceil(), max.floor()) as i64
}

/// The SPSA state: θ and the signs of the iteration under way.
pub struct Spsa {
    spec: Spec,
    theta: Vec<f64>,
    seed: u64,
    iterations: u64,
    r_end: f64,
    pairs: usize,
    openings: usize,
    /// The iteration under way.
    current: Option<Iteration>,
}

/// An iteration under way: the signs of its perturbation and each parameter's (c_k, a_k).
struct Iteration {
    signs: Vec<f64>,
    gains: Vec<(f64, f64)>,
}

impl Spsa {
    /// A tune of `spec` from the base's values, as `settings` say.
    pub fn new(spec: &Spec, settings: &Settings) -> Spsa {
        Spsa {
            spec: spec.clone(),
            theta: spec.start(),
            seed: settings.seed,
            iterations: settings.rounds.max(1),
            r_end: settings.r_end,
            pairs: (settings.games_per_step / 2).max(1),
            openings: settings.openings.len().max(1),
            current: None,
        }
    }

    /// The current θ.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }
}

impl Method for Spsa {
    fn round(&mut self, r: u64) -> Round {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(r);
        let signs: Vec<f64> = self
            .theta
            .iter()
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let gains: Vec<(f64, f64)> = self
            .spec
            .knobs
            .iter()
            .map(|k| gains(r + 1, self.iterations, k.step, self.r_end))
            .collect();
        let mut side = |sign: f64| -> Vec<i64> {
            (0..self.theta.len())
                .map(|i| {
                    let k = &self.spec.knobs[i];
                    let x = (self.theta[i] + sign * signs[i] * gains[i].0).clamp(k.min, k.max);
                    round_at_random(x, k.min, k.max, &mut rng)
                })
                .collect()
        };
        let plus = side(1.0);
        let minus = side(-1.0);
        let games = (0..self.pairs)
            .flat_map(|j| {
                let opening = (r as usize * self.pairs + j) % self.openings;
                [0, 1].map(|black| Pairing {
                    sides: [0, 1],
                    black,
                    opening,
                })
            })
            .collect();
        self.current = Some(Iteration { signs, gains });
        Round {
            candidates: vec![plus, minus],
            games,
        }
    }

    fn finish(&mut self, round: &Round, scores: &[f64]) -> Step {
        let Iteration { signs, gains } = self.current.take().expect("finish after round");
        // Wins minus losses of θ+ (sides[0] is θ+ in every game).
        let result: f64 = scores.iter().map(|s| 2.0 * s - 1.0).sum();
        for (i, theta) in self.theta.iter_mut().enumerate() {
            let (c, a) = gains[i];
            *theta += a / c * result * signs[i];
        }
        self.theta = self.spec.clamp(&self.theta);
        let mean =
            |f: fn(&(f64, f64)) -> f64| gains.iter().map(f).sum::<f64>() / gains.len() as f64;
        Step {
            values: self.theta.clone(),
            score: scores.iter().sum::<f64>() / round.games.len().max(1) as f64,
            extra: vec![result, mean(|g| g.0), mean(|g| g.1 / g.0)],
        }
    }

    fn columns(&self) -> Vec<&'static str> {
        vec!["wins_minus_losses", "mean_c_k", "mean_a_k_over_c_k"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::test_support::{self, spec};

    #[test]
    fn the_schedule_ends_at_step_and_r_end() {
        // c_N = step; a_N / c_N² = r_end; c and a shrink along the run.
        let (n, step) = (500, 6.0);
        let (c, a) = gains(n, n, step, R_END);
        assert!((c - step).abs() < 1e-9, "{c}");
        assert!((a / (c * c) - R_END).abs() < 1e-12, "{a}");
        let (c1, a1) = gains(1, n, step, R_END);
        assert!((c1 - step * (n as f64).powf(GAMMA)).abs() < 1e-9);
        assert!((a1 - R_END * step * step * (550f64 / 51.0).powf(ALPHA)).abs() < 1e-9);
        assert!(c1 > c && a1 > a);
    }

    fn settings(rounds: u64) -> Settings {
        Settings {
            rounds,
            ..test_support::settings(super::super::MethodName::Spsa, 7, 3)
        }
    }

    #[test]
    fn theta_moves_toward_the_winning_side_and_stays_in_bounds() {
        let mut s = Spsa::new(&spec(), &settings(100));
        let start = s.theta().to_vec();
        let round = s.round(0);
        assert_eq!(round.games.len(), 4);
        assert_eq!(round.candidates.len(), 2);
        // The perturbed sets lie on opposite sides of θ.
        for (i, &s0) in start.iter().enumerate() {
            let (p, m) = (round.candidates[0][i] as f64, round.candidates[1][i] as f64);
            assert!((p - s0) * (m - s0) <= 0.0, "{p} {m} {s0}");
        }
        // θ+ won every game: θ moves toward θ+.
        let step = s.finish(&round, &[1.0; 4]);
        assert_eq!(step.extra[0], 4.0);
        for (i, &s0) in start.iter().enumerate() {
            let toward = round.candidates[0][i] as f64 - s0;
            assert!((step.values[i] - s0) * toward > 0.0);
        }
        // Losing every game for long drives θ to a bound, never past it.
        for r in 1..100 {
            let round = s.round(r);
            let plus = round.candidates[0].clone();
            let step = s.finish(&round, &[0.0; 4]);
            for (i, k) in spec().knobs.iter().enumerate() {
                assert!(step.values[i] >= k.min && step.values[i] <= k.max);
                assert!(plus[i] as f64 >= k.min && plus[i] as f64 <= k.max);
            }
        }
    }

    #[test]
    fn the_same_seed_and_results_give_the_same_run() {
        let play = || {
            let mut s = Spsa::new(&spec(), &settings(20));
            let mut rounds = Vec::new();
            for r in 0..20 {
                let round = s.round(r);
                let scores: Vec<f64> = (0..4)
                    .map(|g| ((r as usize + g) % 3) as f64 / 2.0)
                    .collect();
                s.finish(&round, &scores);
                rounds.push(round);
            }
            (rounds, s.theta().to_vec())
        };
        assert_eq!(play(), play());
    }
}
