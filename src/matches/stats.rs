//! Match statistics from the first engine's side: score, Elo difference with a 95 % interval,
//! likelihood of superiority, and the sequential probability ratio test (the normal
//! approximation of the trinomial model, as cutechess and c-gomoku-cli compute it).

use serde::Serialize;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// Elo difference of an expected score `s` (0 < s < 1).
pub fn elo_of(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn erf(x: f64) -> f64 {
    // Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    y.copysign(x)
}

impl Tally {
    /// Count one game that scored `points` (1, ½ or 0) for the first engine.
    pub fn add(&mut self, points: f64) {
        if points >= 1.0 {
            self.wins += 1;
        } else if points <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score: (wins + draws / 2) / games.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * (0.0 - s).powi(2)
    }

    /// Elo difference and its 95 % interval; infinite when one side scored everything.
    pub fn elo(&self) -> (f64, [f64; 2]) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let half = 1.959_964 * (self.variance() / n).sqrt();
        let clamp = |x: f64| x.clamp(0.0, 1.0);
        let e = |x: f64| match x {
            x if x <= 0.0 => f64::NEG_INFINITY,
            x if x >= 1.0 => f64::INFINITY,
            x => elo_of(x),
        };
        (e(s), [e(clamp(s - half)), e(clamp(s + half))])
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// Log-likelihood ratio of H1 (Elo `elo1`) against H0 (`elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if var <= 0.0 || self.games() == 0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        let n = self.games() as f64;
        (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var / n)
    }
}

/// An SPRT: hypotheses and error rates.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Debug, Serialize)]
pub struct SprtState {
    /// Log-likelihood ratio so far.
    pub llr: f64,
    /// H0 is accepted at or below this.
    pub lower: f64,
    /// H1 is accepted at or above this.
    pub upper: f64,
    /// `H0` or `H1` once accepted, else `null`.
    pub accepted: Option<&'static str>,
}

impl Sprt {
    /// Parse `elo0,elo1,alpha,beta`.
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("{x:?} is not a number"))
            })
            .collect::<Result<_, _>>()?;
        match v.as_slice() {
            &[elo0, elo1, alpha, beta]
                if elo0 < elo1
                    && (0.0..0.5).contains(&alpha)
                    && (0.0..0.5).contains(&beta)
                    && alpha > 0.0
                    && beta > 0.0 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => Err(format!(
                "--sprt {s}: give elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5"
            )),
        }
    }

    /// The test on `t`.
    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = t.llr(self.elo0, self.elo1);
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let accepted = if llr >= upper {
            Some("H1")
        } else if llr <= lower {
            Some("H0")
        } else {
            None
        };
        SprtState {
            llr,
            lower,
            upper,
            accepted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let t = Tally {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        assert!((t.score() - 0.6).abs() < 1e-12);
        let (e, [lo, hi]) = t.elo();
        assert!((e - 70.437).abs() < 0.01, "{e}");
        // s ± 1.96·sqrt(0.24/100) = 0.6 ± 0.09602: Elo 0.50398 → 2.77, 0.69602 → 143.9.
        assert!(
            (lo - 2.77).abs() < 0.05 && (hi - 143.9).abs() < 0.05,
            "{lo} {hi}"
        );
        // LOS = Φ((60 − 40)/sqrt(100)) = Φ(2) = 0.97725.
        assert!((t.los() - 0.97725).abs() < 1e-4, "{}", t.los());
        assert!((score_of(elo_of(0.3)) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn sprt_accepts_the_obvious() {
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        let strong = Tally {
            wins: 300,
            draws: 0,
            losses: 100,
        };
        assert_eq!(s.state(&strong).accepted, Some("H1"));
        let weak = Tally {
            wins: 100,
            draws: 0,
            losses: 300,
        };
        assert_eq!(s.state(&weak).accepted, Some("H0"));
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
    }
}
