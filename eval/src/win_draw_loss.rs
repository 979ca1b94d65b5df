//! Win/draw/loss tallies and their 95% confidence intervals.
//!
//! A score counts a win as 1 and a draw as ½. Its interval is the Wilson score interval for
//! a proportion, applied to the score as if it were a count of successes out of the games
//! played. Draws make a game's outcome less variable than a coin flip with the same mean, so
//! with many draws the interval is somewhat wider than it need be (conservative).

use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side of a match-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Count one game scored 1 (win), ½ (draw) or 0 (loss).
    pub fn add(&mut self, score: f64) {
        if score > 0.5 {
            self.wins += 1;
        } else if score < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored: wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game in [0, 1] (½ when no game was played).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// The 95% Wilson interval of the score.
    pub fn score_ci95(&self) -> [f64; 2] {
        wilson(self.points(), self.games() as f64, Z95)
    }

    /// The same tally seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }
}

/// The Wilson score interval `[lo, hi]` of a proportion with `successes` out of `n` trials
/// (successes may be fractional, e.g. draws counted as ½) at normal quantile `z`; `[0, 1]`
/// when `n` is 0.
pub fn wilson(successes: f64, n: f64, z: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Mean of `xs` (0 when empty).
pub fn mean(xs: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = xs.into_iter().fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_the_formula_worked_by_hand() {
        // 7 of 10 at z = 1.96: p = 0.7, z²/n = 0.38416, centre = (0.7 + 0.19208) / 1.38416
        // = 0.644492, half = 1.96 / 1.38416 · √(0.021 + 0.009604) = 0.247719.
        let [lo, hi] = wilson(7.0, 10.0, 1.96);
        assert!(close(lo, 0.396773, 1e-6), "{lo}");
        assert!(close(hi, 0.892211, 1e-6), "{hi}");
        // 0 of 10: lo = 0, hi = z²/n / (1 + z²/n) = 0.38416 / 1.38416.
        let [lo, hi] = wilson(0.0, 10.0, 1.96);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.38416 / 1.38416, 1e-12), "{hi}");
        assert_eq!(wilson(0.0, 0.0, Z95), [0.0, 1.0]);
    }

    #[test]
    fn draws_count_as_half_a_win() {
        let t = Wdl { wins: 6, draws: 2, losses: 2 };
        assert_eq!(t.games(), 10);
        assert_eq!(t.points(), 7.0);
        assert_eq!(t.score(), 0.7);
        assert_eq!(t.score_ci95(), wilson(7.0, 10.0, Z95));
        assert_eq!(t.flipped(), Wdl { wins: 2, draws: 2, losses: 6 });
        let mut u = Wdl::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            u.add(s);
        }
        assert_eq!(u, Wdl { wins: 2, draws: 1, losses: 1 });
        assert_eq!(mean([1.0, 2.0, 6.0]), 3.0);
        assert_eq!(mean([]), 0.0);
    }
}
