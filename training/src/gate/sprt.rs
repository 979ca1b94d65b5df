//! The decision of a promotion gate from a candidate's score: whether it beats the best so far.
//!
//! Either a fixed number of games (at least [`MIN_FIXED_GAMES`]), promoting when the Wilson
//! 95% interval of the new version's score lies above one half, or Wald's sequential
//! probability ratio test ([`Sprt`]) between a score of `p0` (H0: no better) and `p1` (H1:
//! better) with error rates `alpha` (promoting a version that is no better) and `beta`
//! (keeping one that is better), which stops as soon as the games decide and stops
//! undecided, keeping the best version, at the configured maximum.

use serde::{Deserialize, Serialize};

/// The fewest games a fixed-length gate may play: with 400 games the 95% interval of a score
/// near one half is about ±5 points, so a 55% version can be told from an equal one.
pub const MIN_FIXED_GAMES: usize = 400;

/// Wald's sequential probability ratio test of a score (wins 1, draws ½, losses 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    /// The score under H0 (the new version is no better), e.g. 0.5.
    pub p0: f64,
    /// The score under H1 (it is better), e.g. 0.55.
    pub p1: f64,
    /// Probability of promoting under H0.
    pub alpha: f64,
    /// Probability of not promoting under H1.
    pub beta: f64,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt { p0: 0.5, p1: 0.55, alpha: 0.05, beta: 0.05 }
    }
}

/// What the games so far say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 accepted: promote the new version.
    Promote,
    /// H0 accepted: keep the best version.
    Keep,
    /// Play on.
    Continue,
}

impl Sprt {
    /// Why the test's settings are unusable, if they are: `(field, reason)`.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(self.p0.is_finite() && self.p0 > 0.0 && self.p0 < 1.0) {
            return Err(("p0", format!("{} is not in (0, 1)", self.p0)));
        }
        if !(self.p1.is_finite() && self.p1 > self.p0 && self.p1 < 1.0) {
            return Err(("p1", format!("{} is not in (p0 = {}, 1)", self.p1, self.p0)));
        }
        for (field, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate.is_finite() && rate > 0.0 && rate < 0.5) {
                return Err((field, format!("{rate} is not in (0, 0.5)")));
            }
        }
        Ok(())
    }

    /// The log-likelihood ratio of H1 over H0 after `games` games scoring `score` points in
    /// all, each game's score taken as a Bernoulli trial (a draw counts as half a win and
    /// half a loss, the usual approximation).
    pub fn llr(&self, score: f64, games: f64) -> f64 {
        score * (self.p1 / self.p0).ln() + (games - score) * ((1.0 - self.p1) / (1.0 - self.p0)).ln()
    }

    /// Wald's bounds on the log-likelihood ratio: keep below `ln(β / (1 − α))`, promote above
    /// `ln((1 − β) / α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision after `games` games scoring `score` points.
    pub fn decide(&self, score: f64, games: f64) -> Decision {
        let llr = self.llr(score, games);
        let (low, high) = self.bounds();
        if llr >= high {
            Decision::Promote
        } else if llr <= low {
            Decision::Keep
        } else {
            Decision::Continue
        }
    }
}

/// The gate: a fixed number of games or a sequential test, capped at `max_games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gate {
    /// The most games played (all of them without a sequential test).
    pub max_games: usize,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
}

impl Gate {
    /// The decision after `games` games scoring `score` points: the test's, else (fixed
    /// length) none before `max_games`, then promotion only when the Wilson 95% interval's
    /// lower end is above one half. At `max_games` an undecided test keeps the best version.
    pub fn decide(&self, score: f64, games: usize) -> Decision {
        let done = games >= self.max_games;
        match (&self.sprt, done) {
            (Some(test), _) => match test.decide(score, games as f64) {
                Decision::Continue if done => Decision::Keep,
                decision => decision,
            },
            (None, false) => Decision::Continue,
            (None, true) => {
                if eval::win_draw_loss::wilson(score, games as f64, 1.96)[0] > 0.5 {
                    Decision::Promote
                } else {
                    Decision::Keep
                }
            }
        }
    }
}
