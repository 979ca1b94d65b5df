//! The fast network's shape, weights and forward pass (f32).
//!
//! ```text
//! position features (sparse, ~3,400, ~150–250 active)
//!   → accumulator: b1 + Σ W1[f] over the active features   (H1 = 128)
//!   → clipped ReLU → dense H1 → H2 (32) → clipped ReLU → dense H2 → H3 (32) → clipped ReLU = h3
//!   → value head:  σ(wv·h3 + bv), the mover's chance of winning; value = 2σ − 1 in [−1, 1]
//!   → margin head: wm·h3 + bm, the victory-point margin (scaled, see `data::margin_target`)
//!   → policy head: for each legal action a, logit(a) = α·prior(a) + Σ_g (E[g]·h3 + c[g])
//!                  over the action's features g (`action_features`); prior(a) is the
//!                  prior player's score of a (see `prior`), α learned
//! ```
//!
//! The first layer is where the work is: a position sums one 128-wide row per active feature.
//! [`Accumulator`] keeps that sum for a position and updates it by adding and removing the
//! rows of the features that changed, as NNUE does, when the next position differs by a few
//! features. All parameters live in one flat vector ([`Params`]) laid out by the offsets of [`crate::layout`],
//! so that training, checkpoints and the optimiser see one array.

use crate::action_features::ActionFeatures;
use crate::kernel;
pub use crate::kernel::dot;
pub use crate::layout::*;

/// All the network's parameters, laid out by the offsets of [`crate::layout`].
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The flat parameter vector.
    pub data: Vec<f32>,
}

impl Params {
    /// Fresh parameters drawn with `seed`: small random first-layer rows and a bias that
    /// starts the clipped ReLUs inside their range, He-scaled dense layers, zero action rows,
    /// zero heads and α = 1 (the policy starts as the prior's softmax).
    pub fn init(seed: u64) -> Params {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut data = vec![0.0f32; PARAMS];
        let mut uniform = |scale: f32| (rng.gen::<f32>() * 2.0 - 1.0) * scale;
        for w in &mut data[W1..E] {
            *w = uniform(0.02);
        }
        for b in &mut data[B1..W2] {
            *b = 0.3;
        }
        let s2 = (3.0 / H1 as f32).sqrt();
        for w in &mut data[W2..B2] {
            *w = uniform(s2);
        }
        for b in &mut data[B2..W3] {
            *b = 0.2;
        }
        let s3 = (3.0 / H2 as f32).sqrt();
        for w in &mut data[W3..B3] {
            *w = uniform(s3);
        }
        for b in &mut data[B3..WV] {
            *b = 0.2;
        }
        for w in &mut data[WV..BV] {
            *w = uniform(0.1);
        }
        for w in &mut data[WM..BM] {
            *w = uniform(0.1);
        }
        data[ALPHA] = 1.0;
        Params { data }
    }

    /// Row `f` of W1.
    pub fn w1_row(&self, f: u16) -> &[f32] {
        let at = W1 + f as usize * H1;
        &self.data[at..at + H1]
    }
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The running sum of the first layer for one position, updated incrementally.
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// b1 + Σ W1[f] over `features`.
    pub values: [f32; H1],
    /// The position's sorted features (with repeats).
    pub features: Vec<u16>,
}

impl Accumulator {
    /// The accumulator of `features` (sorted), summed from scratch.
    pub fn new(params: &Params, features: &[u16]) -> Accumulator {
        let mut values = [0.0; H1];
        kernel::accumulate(&params.data, features, &mut values);
        Accumulator { values, features: features.to_vec() }
    }

    /// Move to the position of `features` (sorted) by adding the rows of the features it
    /// gains and removing those it loses; returns how many rows changed.
    pub fn update(&mut self, params: &Params, features: &[u16]) -> usize {
        let values = &mut self.values;
        let changed = feature_changes(&self.features, features, |f, gained| {
            kernel::add_row(values, params.w1_row(f), if gained { 1.0 } else { -1.0 })
        });
        self.features.clear();
        self.features.extend_from_slice(features);
        changed
    }
}

/// Walk two sorted feature lists (with repeats) and call `change(f, gained)` for each
/// feature `new` has and `old` lacks (`gained`) and each `old` has and `new` lacks, once per
/// repeat; returns how many changes there were. The incremental accumulators' update.
pub fn feature_changes(old: &[u16], new: &[u16], mut change: impl FnMut(u16, bool)) -> usize {
    let (mut i, mut j, mut changed) = (0, 0, 0);
    while i < old.len() || j < new.len() {
        if j == new.len() || (i < old.len() && old[i] < new[j]) {
            change(old[i], false);
            i += 1;
            changed += 1;
        } else if i == old.len() || new[j] < old[i] {
            change(new[j], true);
            j += 1;
            changed += 1;
        } else {
            i += 1;
            j += 1;
        }
    }
    changed
}

/// The trunk above a first layer whose sum (b1 included) is `acc`.
pub fn trunk_from_accumulator(params: &Params, acc: &[f32; H1]) -> Trunk {
    let mut t = Trunk { acc: *acc, ..Trunk::default() };
    kernel::dense_layers(&params.data, &mut t);
    t
}

/// The trunk of a position given by its sorted features, from scratch.
pub fn trunk(params: &Params, features: &[u16]) -> Trunk {
    let mut acc = [0.0; H1];
    kernel::accumulate(&params.data, features, &mut acc);
    trunk_from_accumulator(params, &acc)
}

/// The value head's logit of a trunk (the mover's chance of winning is its sigmoid).
pub fn value_logit(params: &Params, t: &Trunk) -> f32 {
    dot(&params.data[WV..BV], &t.h3) + params.data[BV]
}

/// The value of a trunk for the observer, in [−1, 1].
pub fn value(params: &Params, t: &Trunk) -> f32 {
    2.0 * sigmoid(value_logit(params, t)) - 1.0
}

/// The margin head of a trunk (scaled as [`crate::data::margin_target`]).
pub fn margin(params: &Params, t: &Trunk) -> f32 {
    dot(&params.data[WM..BM], &t.h3) + params.data[BM]
}

/// The policy logit of one action with features `f` and prior `prior`.
pub fn action_logit(params: &Params, t: &Trunk, f: &ActionFeatures, prior: f32) -> f32 {
    let mut logit = params.data[ALPHA] * prior;
    for &g in f.as_slice() {
        let at = E + g as usize * H3;
        logit += dot(&params.data[at..at + H3], &t.h3) + params.data[C + g as usize];
    }
    logit
}

/// The policy logits of actions with features `actions` and priors `priors`, into `out`.
pub fn policy_logits(
    params: &Params,
    t: &Trunk,
    actions: &[ActionFeatures],
    priors: &[f32],
    out: &mut Vec<f32>,
) {
    out.clear();
    out.extend(actions.iter().zip(priors).map(|(f, &p)| action_logit(params, t, f, p)));
}

/// The softmax of `logits`, in place.
pub fn softmax(logits: &mut [f32]) {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for l in logits.iter_mut() {
        *l = (*l - top).exp();
        total += *l;
    }
    for l in logits.iter_mut() {
        *l /= total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_incremental_accumulator_equals_one_summed_from_scratch() {
        let params = Params::init(3);
        let a = [1u16, 5, 5, 90, 700, 2000];
        let b = [5u16, 90, 91, 700, 700, 3000];
        let mut acc = Accumulator::new(&params, &a);
        let changed = acc.update(&params, &b);
        assert_eq!(changed, 6, "1, 5 and 2000 leave; 91, 700 and 3000 come");
        let fresh = Accumulator::new(&params, &b);
        for (x, y) in acc.values.iter().zip(&fresh.values) {
            assert!((x - y).abs() < 1e-5, "{x} against {y}");
        }
    }
}
