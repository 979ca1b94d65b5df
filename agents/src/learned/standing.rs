//! The standing model: a small model over how the deciding side stands (its victory-point
//! margin, its share of points still standing, how far the game has gone) that moves the
//! generation's term weights up or down, so the learned player can play safer when ahead and
//! take more risks when behind, which weights per scenario and phase cannot express.
//!
//! At a decision of side `p` the standing features `f` ([`FEATURES`], from `p`'s side) give a
//! log-multiplier per term ([`crate::scripted::terms::Term`]):
//! - with no hidden layer (`hidden = 0`): `m = A f`, a weight per term and feature;
//! - with `hidden = H > 0`: `m = V tanh(U f + b)`, `H` hidden units (a two-layer model).
//!
//! The weights that play are the block's ([`super::generation`]) times `e^m` (each `m` within
//! ±[`MAX_LOG`]). A model whose output weights are all zero leaves the block's weights as they
//! are, so the generation plays exactly as without it.

use super::balance::balance;
use crate::scripted::terms::{Term, TERMS};
use engine::GameState;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Number of standing features.
pub const FEATURE_COUNT: usize = 5;
/// The standing features' names, in input order.
pub const FEATURES: [&str; FEATURE_COUNT] = ["margin", "points", "late", "margin_late", "points_late"];
/// Largest hidden layer a model may have.
pub const MAX_HIDDEN: usize = 16;
/// Largest log-multiplier the model gives a term (a weight moves at most e³ ≈ 20-fold).
pub const MAX_LOG: f64 = 3.0;
/// Largest parameter magnitude a file may hold.
pub const MAX_PARAMETER: f64 = 100.0;

/// The standing features of `state` from `side`'s side ([`FEATURES`] order):
/// - `margin`: its victory-point margin so far, in units of 4 (40 in a skirmish), within ±2;
/// - `points`: the share of its points still conscious (or in reserve) less the enemy's;
/// - `late`: the share of the game's turns begun (0 at the first, 1 at the last);
/// - `margin_late`, `points_late`: the first two times `late`.
pub fn features(state: &GameState, side: u8) -> [f64; FEATURE_COUNT] {
    let b = balance(state);
    let sign = if side == 0 { 1.0 } else { -1.0 };
    let margin = (sign * b.margin).clamp(-2.0, 2.0);
    let points = sign * b.points;
    [margin, points, b.late, margin * b.late, points * b.late]
}

/// A standing model's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingModel {
    /// Hidden units (0: linear in the features).
    pub hidden: usize,
    /// With hidden units: each unit's input weights, then its bias (`FEATURE_COUNT + 1` each).
    pub input: Vec<[f64; FEATURE_COUNT + 1]>,
    /// Each term's output weights ([`Term::ALL`] order): over the hidden units, or over the
    /// features when `hidden` is 0.
    pub output: Vec<Vec<f64>>,
}

impl StandingModel {
    /// A model that changes nothing (output weights all zero). With hidden units its input
    /// weights are drawn from `seed` (uniform within ±1, to the six decimals a file keeps), so
    /// the units differ and the output weights have something to learn from.
    pub fn neutral(hidden: usize, seed: u64) -> StandingModel {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let input = (0..hidden)
            .map(|_| {
                let mut row = [0.0; FEATURE_COUNT + 1];
                for x in row.iter_mut().take(FEATURE_COUNT) {
                    *x = (rng.gen_range(-1.0f64..1.0) * 1e6).round() / 1e6;
                }
                row
            })
            .collect();
        let width = if hidden == 0 { FEATURE_COUNT } else { hidden };
        StandingModel { hidden, input, output: vec![vec![0.0; width]; TERMS] }
    }

    /// The log-multiplier of each term at standing features `f`, each within ±[`MAX_LOG`].
    pub fn log_multipliers(&self, f: &[f64; FEATURE_COUNT]) -> [f64; TERMS] {
        let mut units = [0.0; MAX_HIDDEN];
        let inputs: &[f64] = if self.hidden == 0 {
            f
        } else {
            for (u, row) in units.iter_mut().zip(&self.input) {
                let z: f64 = row[..FEATURE_COUNT].iter().zip(f).map(|(w, x)| w * x).sum();
                *u = (z + row[FEATURE_COUNT]).tanh();
            }
            &units[..self.hidden]
        };
        let mut m = [0.0; TERMS];
        for (out, row) in m.iter_mut().zip(&self.output) {
            let z: f64 = row.iter().zip(inputs).map(|(w, x)| w * x).sum();
            *out = z.clamp(-MAX_LOG, MAX_LOG);
        }
        m
    }

    /// Every parameter in one vector: the hidden units' (inputs then bias, unit after unit),
    /// then the output weights term after term.
    pub fn params(&self) -> Vec<f64> {
        let mut p: Vec<f64> = self.input.iter().flat_map(|r| r.iter().copied()).collect();
        p.extend(self.output.iter().flatten());
        p
    }

    /// The number of parameters of a model with `hidden` units.
    pub fn param_count(hidden: usize) -> usize {
        if hidden == 0 {
            TERMS * FEATURE_COUNT
        } else {
            hidden * (FEATURE_COUNT + 1) + TERMS * hidden
        }
    }

    /// The model with `hidden` units whose parameters are `p`, laid out as
    /// [`StandingModel::params`] gives, each within ±[`MAX_PARAMETER`].
    pub fn from_params(hidden: usize, p: &[f64]) -> StandingModel {
        assert_eq!(p.len(), StandingModel::param_count(hidden), "a parameter for every weight");
        let p: Vec<f64> = p.iter().map(|x| x.clamp(-MAX_PARAMETER, MAX_PARAMETER)).collect();
        let split = hidden * (FEATURE_COUNT + 1);
        let input = p[..split]
            .chunks(FEATURE_COUNT + 1)
            .map(|c| {
                let mut row = [0.0; FEATURE_COUNT + 1];
                row.copy_from_slice(c);
                row
            })
            .collect();
        let width = if hidden == 0 { FEATURE_COUNT } else { hidden };
        let output = p[split..].chunks(width).map(<[f64]>::to_vec).collect();
        StandingModel { hidden, input, output }
    }

    /// The model as a file holds it.
    pub(super) fn to_raw(&self) -> RawStanding {
        let round = |x: f64| (x * 1e6).round() / 1e6;
        RawStanding {
            hidden: self.hidden,
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            input: self.input.iter().map(|r| r.iter().map(|&x| round(x)).collect()).collect(),
            output: Term::ALL
                .iter()
                .zip(&self.output)
                .map(|(t, r)| (t.name().to_string(), r.iter().map(|&x| round(x)).collect()))
                .collect(),
        }
    }

    /// The model a file holds, checked whole; `at` names its place in errors.
    pub(super) fn from_raw(raw: &RawStanding, at: &str) -> Result<StandingModel, String> {
        if raw.hidden > MAX_HIDDEN {
            return Err(format!("{at}.hidden: {} is more than {MAX_HIDDEN}", raw.hidden));
        }
        if raw.features != FEATURES {
            return Err(format!("{at}.features: must be {FEATURES:?} in that order"));
        }
        if raw.input.len() != raw.hidden {
            return Err(format!("{at}.input: {} rows for {} hidden units", raw.input.len(), raw.hidden));
        }
        let check = |v: f64, place: String| -> Result<f64, String> {
            if v.is_finite() && v.abs() <= MAX_PARAMETER {
                Ok(v)
            } else {
                Err(format!("{at}.{place}: {v} is not a number within ±{MAX_PARAMETER}"))
            }
        };
        let mut input = Vec::new();
        for (i, row) in raw.input.iter().enumerate() {
            if row.len() != FEATURE_COUNT + 1 {
                return Err(format!(
                    "{at}.input[{i}]: {} numbers, expected {} (a weight per feature, then the bias)",
                    row.len(),
                    FEATURE_COUNT + 1
                ));
            }
            let mut r = [0.0; FEATURE_COUNT + 1];
            for (j, &v) in row.iter().enumerate() {
                r[j] = check(v, format!("input[{i}][{j}]"))?;
            }
            input.push(r);
        }
        if let Some(bad) = raw.output.keys().find(|k| Term::from_name(k).is_none()) {
            return Err(format!("{at}.output.{bad}: not a term of the scripted player"));
        }
        let width = if raw.hidden == 0 { FEATURE_COUNT } else { raw.hidden };
        let mut output = Vec::new();
        // A term added after the file was written is left unscaled.
        let neutral = vec![0.0; width];
        for t in Term::ALL {
            let row = match raw.output.get(t.name()) {
                Some(row) => row,
                None if t.is_added() => &neutral,
                None => return Err(format!("{at}.output.{}: missing", t.name())),
            };
            if row.len() != width {
                return Err(format!("{at}.output.{}: {} numbers, expected {width}", t.name(), row.len()));
            }
            let row: Result<Vec<f64>, String> =
                row.iter().enumerate().map(|(j, &v)| check(v, format!("output.{}[{j}]", t.name()))).collect();
            output.push(row?);
        }
        Ok(StandingModel { hidden: raw.hidden, input, output })
    }
}

/// A standing model as a generation file holds it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStanding {
    hidden: usize,
    features: Vec<String>,
    #[serde(default)]
    input: Vec<Vec<f64>>,
    output: BTreeMap<String, Vec<f64>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neutral_model_changes_nothing_and_parameters_round_trip() {
        for hidden in [0, 4] {
            let model = StandingModel::neutral(hidden, 7);
            assert_eq!(model.log_multipliers(&[1.0, -0.5, 0.3, 0.3, -0.15]), [0.0; TERMS]);
            let p = model.params();
            assert_eq!(p.len(), StandingModel::param_count(hidden));
            assert_eq!(StandingModel::from_params(hidden, &p), model);
        }
    }

    #[test]
    fn the_output_follows_the_features() {
        // Linear: the risk term's weight on the margin.
        let mut model = StandingModel::neutral(0, 0);
        model.output[Term::Risk as usize][0] = 0.5;
        let m = model.log_multipliers(&[2.0, 0.0, 0.0, 0.0, 0.0]);
        assert!((m[Term::Risk as usize] - 1.0).abs() < 1e-12);
        assert_eq!(m[Term::Cover as usize], 0.0);
        // Clamped.
        model.output[Term::Risk as usize][0] = 10.0;
        assert_eq!(model.log_multipliers(&[2.0, 0.0, 0.0, 0.0, 0.0])[Term::Risk as usize], MAX_LOG);
        // Two layers: one unit reading the margin, its output on progress.
        let mut model = StandingModel::neutral(1, 0);
        model.input[0] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        model.output[Term::Progress as usize][0] = 2.0;
        let m = model.log_multipliers(&[0.5, 0.0, 0.0, 0.0, 0.0]);
        assert!((m[Term::Progress as usize] - 2.0 * 0.5f64.tanh()).abs() < 1e-12);
    }
}
