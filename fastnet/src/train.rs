//! Training: the gradient of one position's loss (by hand, checked against finite
//! differences in `tests/gradients.rs`) and the Adam optimiser, lazy on the sparse rows.
//!
//! The loss of a position is, each term weighted by [`TrainConfig`]:
//! - value: the cross-entropy of the value head's σ against the target's (value + 1) / 2;
//! - margin: half the squared error of the margin head;
//! - policy (positions with actions): the cross-entropy of the softmax of the logits against
//!   the target distribution;
//! - siblings (positions of a sibling group, see [`Dataset::siblings_of`]): half the mean
//!   squared error of the value's differences to each sibling against the targets'
//!   differences, the siblings' values held fixed. Summed over a group this is the gradient of
//!   the group's pairwise loss, so positions drawn one at a time train the order among
//!   siblings, which a search asks of the value, and not only each position's level, which
//!   the game's winner mostly sets.
//!
//! A batch's positions are split between the threads; each sums its gradient into its own
//! buffer, the first layer's and the action rows' sparsely (only the rows its positions
//! touch), and the optimiser updates only the touched rows of those two tables (the "lazy"
//! Adam of TensorFlow's LazyAdam and PyTorch's SparseAdam) and every dense parameter.

use crate::action_features::ACTION_FEATURES;
use crate::data::{Dataset, Position};
use crate::features::POSITION_FEATURES;
use crate::kernel;
use crate::network::{
    crelu, sigmoid, Params, Trunk, ALPHA, B1, B2, B3, BM, BV, C, DENSE, E, H1, H2, H3, PARAMS, W1, W2, W3,
    WM, WV,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Training settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Positions per step.
    pub batch: usize,
    /// Adam's learning rate.
    pub learning_rate: f32,
    /// Weight of the value loss.
    pub value_weight: f32,
    /// Weight of the margin loss.
    pub margin_weight: f32,
    /// Weight of the policy loss.
    pub policy_weight: f32,
    /// Decoupled weight decay (AdamW): each step shrinks the parameters it updates by
    /// `learning_rate × weight_decay` of themselves.
    #[serde(default)]
    pub weight_decay: f32,
    /// Weight of the sibling loss (0: none).
    #[serde(default)]
    pub sibling_weight: f32,
    /// The policy loss trains the policy head alone (its action rows, biases and α), not the
    /// trunk the value head shares: a policy-gradient step's large, noisy gradients then
    /// cannot wreck the value that is its own baseline.
    #[serde(default)]
    pub policy_head_only: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            batch: 512,
            learning_rate: 1.0e-3,
            value_weight: 1.0,
            margin_weight: 0.5,
            policy_weight: 1.0,
            weight_decay: 0.0,
            sibling_weight: 0.0,
            policy_head_only: false,
        }
    }
}

/// The losses and agreement of some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// Positions.
    pub positions: usize,
    /// Mean value cross-entropy.
    pub value: f64,
    /// Mean squared error of the value (in [−1, 1]).
    pub value_mse: f64,
    /// Mean half squared error of the margin.
    pub margin: f64,
    /// Positions with a policy target.
    pub policy_positions: usize,
    /// Mean policy cross-entropy over them.
    pub policy: f64,
    /// Share of them whose most likely action is the target's.
    pub top1: f64,
    /// Positions of a sibling group with other members.
    #[serde(default)]
    pub sibling_positions: usize,
    /// Mean sibling loss over them.
    #[serde(default)]
    pub sibling: f64,
}

impl Losses {
    fn add(&mut self, o: &Losses) {
        self.positions += o.positions;
        self.value += o.value;
        self.value_mse += o.value_mse;
        self.margin += o.margin;
        self.policy_positions += o.policy_positions;
        self.policy += o.policy;
        self.top1 += o.top1;
        self.sibling_positions += o.sibling_positions;
        self.sibling += o.sibling;
    }

    /// Sums turned into means.
    fn mean(mut self) -> Losses {
        let n = self.positions.max(1) as f64;
        let np = self.policy_positions.max(1) as f64;
        self.value /= n;
        self.value_mse /= n;
        self.margin /= n;
        self.policy /= np;
        self.top1 /= np;
        self.sibling /= self.sibling_positions.max(1) as f64;
        self
    }
}

/// A gradient buffer: every parameter, with the sparse rows it touched listed.
#[derive(Clone)]
pub struct Gradient {
    /// The gradient, laid out as [`Params`].
    pub data: Vec<f32>,
    w1_rows: Vec<u16>,
    w1_seen: Vec<bool>,
    e_rows: Vec<u16>,
    e_seen: Vec<bool>,
}

impl Default for Gradient {
    fn default() -> Self {
        Gradient {
            data: vec![0.0; PARAMS],
            w1_rows: Vec::new(),
            w1_seen: vec![false; POSITION_FEATURES],
            e_rows: Vec::new(),
            e_seen: vec![false; ACTION_FEATURES],
        }
    }
}

impl Gradient {
    fn touch_w1(&mut self, f: u16) {
        if !self.w1_seen[f as usize] {
            self.w1_seen[f as usize] = true;
            self.w1_rows.push(f);
        }
    }

    fn touch_e(&mut self, g: u16) {
        if !self.e_seen[g as usize] {
            self.e_seen[g as usize] = true;
            self.e_rows.push(g);
        }
    }

    /// Zero what was touched.
    fn clear(&mut self) {
        for &f in &self.w1_rows {
            self.w1_seen[f as usize] = false;
            let at = W1 + f as usize * H1;
            self.data[at..at + H1].fill(0.0);
        }
        for &g in &self.e_rows {
            self.e_seen[g as usize] = false;
            let at = E + g as usize * H3;
            self.data[at..at + H3].fill(0.0);
            self.data[C + g as usize] = 0.0;
        }
        self.w1_rows.clear();
        self.e_rows.clear();
        self.data[DENSE..].fill(0.0);
    }

    /// Add `other` into this one.
    fn merge(&mut self, other: &Gradient) {
        for &f in &other.w1_rows {
            self.touch_w1(f);
            let at = W1 + f as usize * H1;
            kernel::axpy(&mut self.data[at..at + H1], &other.data[at..at + H1], 1.0);
        }
        for &g in &other.e_rows {
            self.touch_e(g);
            let at = E + g as usize * H3;
            kernel::axpy(&mut self.data[at..at + H3], &other.data[at..at + H3], 1.0);
            self.data[C + g as usize] += other.data[C + g as usize];
        }
        let (mine, theirs) = (&mut self.data[DENSE..], &other.data[DENSE..]);
        kernel::axpy(mine, theirs, 1.0);
    }
}

/// Add `scale` × the gradient of position `p`'s loss to `grad`, and its losses to `losses`;
/// `siblings` are the other positions of its sibling group, each as (the network's value, the
/// value target), held fixed.
#[allow(clippy::too_many_arguments)]
pub fn position_gradient(
    params: &Params,
    data: &Dataset,
    p: &Position,
    siblings: &[(f32, f32)],
    config: &TrainConfig,
    scale: f32,
    grad: &mut Gradient,
    losses: &mut Losses,
) {
    let w = &params.data;
    let features = data.features_of(p);
    let t: Trunk = crate::network::trunk(params, features);
    let mut dh3 = [0.0f32; H3];
    // Value head.
    let zv = crate::network::dot(&w[WV..BV], &t.h3) + w[BV];
    let prob = sigmoid(zv);
    let target = (p.value + 1.0) / 2.0;
    let eps = 1.0e-7;
    losses.positions += 1;
    losses.value -= (target * (prob + eps).ln() + (1.0 - target) * (1.0 - prob + eps).ln()) as f64;
    losses.value_mse += ((2.0 * prob - 1.0 - p.value) as f64).powi(2);
    let mut dzv = scale * config.value_weight * (prob - target);
    // Sibling loss: the value's differences to its siblings against the targets'.
    if !siblings.is_empty() {
        let value = 2.0 * prob - 1.0;
        let (mut residual, mut loss) = (0.0f32, 0.0f64);
        for &(other, other_target) in siblings {
            let d = (value - other) - (p.value - other_target);
            residual += d;
            loss += 0.5 * (d as f64).powi(2);
        }
        let m = siblings.len() as f32;
        losses.sibling_positions += 1;
        losses.sibling += loss / m as f64;
        dzv += scale * config.sibling_weight * residual / m * 2.0 * prob * (1.0 - prob);
    }
    // Margin head.
    let zm = crate::network::dot(&w[WM..BM], &t.h3) + w[BM];
    losses.margin += 0.5 * ((zm - p.margin) as f64).powi(2);
    let dzm = scale * config.margin_weight * (zm - p.margin);
    for k in 0..H3 {
        dh3[k] += dzv * w[WV + k] + dzm * w[WM + k];
        grad.data[WV + k] += dzv * t.h3[k];
        grad.data[WM + k] += dzm * t.h3[k];
    }
    grad.data[BV] += dzv;
    grad.data[BM] += dzm;
    // Policy head.
    let actions = data.actions_of(p);
    if !actions.is_empty() {
        let mut logits = Vec::with_capacity(actions.len());
        logits.extend(actions.iter().map(|a| crate::network::action_logit(params, &t, &a.features, a.prior)));
        let best = argmax(&logits);
        let best_target = argmax_by(actions.iter().map(|a| a.target));
        let mut probs = logits;
        crate::network::softmax(&mut probs);
        losses.policy_positions += 1;
        losses.top1 += (best == best_target) as u8 as f64;
        // The loss is −Σ t·ln q over the targets t: a distribution (a search's policy) or a
        // played move weighted by its advantage, of any sign (a policy-gradient step); its
        // gradient in a logit is q·Σt − t.
        let total: f32 = actions.iter().map(|a| a.target).sum();
        for (a, &q) in actions.iter().zip(&probs) {
            if a.target != 0.0 {
                losses.policy -= (a.target * (q + 1.0e-12).ln()) as f64;
            }
            let dl = scale * config.policy_weight * (q * total - a.target);
            if dl == 0.0 {
                continue;
            }
            grad.data[ALPHA] += dl * a.prior;
            for &g in a.features.as_slice() {
                grad.touch_e(g);
                let at = E + g as usize * H3;
                kernel::axpy(&mut grad.data[at..at + H3], &t.h3, dl);
                grad.data[C + g as usize] += dl;
                if !config.policy_head_only {
                    for k in 0..H3 {
                        dh3[k] += dl * w[at + k];
                    }
                }
            }
        }
    }
    // Third layer.
    let mut h2 = [0.0f32; H2];
    for (h, z) in h2.iter_mut().zip(&t.z2) {
        *h = crelu(*z);
    }
    let mut dh2 = [0.0f32; H2];
    for (k, &d) in dh3.iter().enumerate() {
        let dz = if t.z3[k] > 0.0 && t.z3[k] < 1.0 { d } else { 0.0 };
        if dz == 0.0 {
            continue;
        }
        grad.data[B3 + k] += dz;
        let row = W3 + k * H2;
        kernel::axpy(&mut grad.data[row..row + H2], &h2, dz);
        for j in 0..H2 {
            dh2[j] += dz * w[row + j];
        }
    }
    // Second layer.
    let mut h1 = [0.0f32; H1];
    for (h, a) in h1.iter_mut().zip(&t.acc) {
        *h = crelu(*a);
    }
    let mut dh1 = [0.0f32; H1];
    for (k, &d) in dh2.iter().enumerate() {
        let dz = if t.z2[k] > 0.0 && t.z2[k] < 1.0 { d } else { 0.0 };
        if dz == 0.0 {
            continue;
        }
        grad.data[B2 + k] += dz;
        let row = W2 + k * H1;
        kernel::axpy(&mut grad.data[row..row + H1], &h1, dz);
        kernel::axpy(&mut dh1, &w[row..row + H1], dz);
    }
    // First layer.
    let mut dacc = [0.0f32; H1];
    for k in 0..H1 {
        dacc[k] = if t.acc[k] > 0.0 && t.acc[k] < 1.0 { dh1[k] } else { 0.0 };
    }
    kernel::axpy(&mut grad.data[B1..B1 + H1], &dacc, 1.0);
    for &f in features {
        grad.touch_w1(f);
        let at = W1 + f as usize * H1;
        kernel::axpy(&mut grad.data[at..at + H1], &dacc, 1.0);
    }
}

/// The index of the largest of `xs` (the first on ties).
fn argmax(xs: &[f32]) -> usize {
    argmax_by(xs.iter().copied())
}

fn argmax_by(xs: impl Iterator<Item = f32>) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, x) in xs.enumerate() {
        if x > best.1 {
            best = (i, x);
        }
    }
    best.0
}

/// Adam's state: first and second moments of every parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
}

impl Default for Adam {
    fn default() -> Self {
        Adam { m: vec![0.0; PARAMS], v: vec![0.0; PARAMS], step: 0 }
    }
}

/// Adam's decay rates and ε.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1.0e-8;

impl Adam {
    /// One step on `params` with gradient `grad`: every dense parameter, and the sparse rows
    /// the gradient touched.
    fn apply(&mut self, params: &mut Params, grad: &Gradient, lr: f32, weight_decay: f32) {
        self.step += 1;
        let t = self.step as i32;
        let lr_t = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let shrink = 1.0 - lr * weight_decay;
        let mut update = |range: std::ops::Range<usize>| {
            for i in range {
                let g = grad.data[i];
                self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * g;
                self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * g * g;
                params.data[i] = shrink * params.data[i] - lr_t * self.m[i] / (self.v[i].sqrt() + EPSILON);
            }
        };
        for &f in &grad.w1_rows {
            let at = W1 + f as usize * H1;
            update(at..at + H1);
        }
        for &g in &grad.e_rows {
            let at = E + g as usize * H3;
            update(at..at + H3);
            update(C + g as usize..C + g as usize + 1);
        }
        update(DENSE..PARAMS);
    }
}

/// A training run's moving parts: the parameters, the optimiser, the batch sampler and the
/// threads' gradient buffers.
pub struct Trainer {
    /// The network being trained.
    pub params: Params,
    /// The optimiser.
    pub adam: Adam,
    /// Settings.
    pub config: TrainConfig,
    rng: ChaCha8Rng,
    buffers: Vec<Gradient>,
}

impl Trainer {
    /// A trainer of `params` from optimiser state `adam`, drawing batches with `seed`.
    pub fn new(params: Params, adam: Adam, config: TrainConfig, seed: u64) -> Trainer {
        let threads = rayon::current_num_threads().max(1);
        Trainer {
            params,
            adam,
            config,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0xbb67_ae85_84ca_a73b),
            buffers: vec![Gradient::default(); threads],
        }
    }

    /// One step on a batch drawn uniformly from `data`; the batch's losses.
    pub fn step(&mut self, data: &Dataset, learning_rate: f32) -> Losses {
        let n = data.positions.len();
        let batch: Vec<usize> = (0..self.config.batch).map(|_| self.rng.gen_range(0..n)).collect();
        self.step_on(data, &batch, learning_rate)
    }

    /// One step on the positions `batch` of `data`; their losses.
    pub fn step_on(&mut self, data: &Dataset, batch: &[usize], learning_rate: f32) -> Losses {
        let scale = 1.0 / batch.len().max(1) as f32;
        let chunk = batch.len().div_ceil(self.buffers.len());
        let (params, config) = (&self.params, &self.config);
        let losses: Vec<Losses> = self
            .buffers
            .par_iter_mut()
            .zip(batch.par_chunks(chunk.max(1)))
            .map(|(grad, part)| {
                let mut l = Losses::default();
                let mut siblings = Vec::new();
                for &i in part {
                    siblings.clear();
                    if config.sibling_weight > 0.0 {
                        sibling_values(params, data, i, &mut siblings);
                    }
                    position_gradient(
                        params,
                        data,
                        &data.positions[i],
                        &siblings,
                        config,
                        scale,
                        grad,
                        &mut l,
                    );
                }
                l
            })
            .collect();
        let (first, rest) = self.buffers.split_first_mut().expect("one buffer at least");
        for other in rest.iter_mut() {
            first.merge(other);
            other.clear();
        }
        self.adam.apply(&mut self.params, first, learning_rate, self.config.weight_decay);
        first.clear();
        let mut total = Losses::default();
        for l in &losses {
            total.add(l);
        }
        total.mean()
    }
}

/// The network's value of position `i` of `data`.
fn position_value(params: &Params, data: &Dataset, i: usize) -> f32 {
    let t = crate::network::trunk(params, data.features_of(&data.positions[i]));
    crate::network::value(params, &t)
}

/// Fill `out` with (the network's value, the value target) of the other positions of position
/// `i`'s sibling group.
fn sibling_values(params: &Params, data: &Dataset, i: usize, out: &mut Vec<(f32, f32)>) {
    for j in data.siblings_of(i).filter(|&j| j != i) {
        out.push((position_value(params, data, j), data.positions[j].value));
    }
}

/// The losses of `params` on every position of `data` (in parallel), without training; the
/// sibling loss wherever `data` has sibling groups.
pub fn evaluate(params: &Params, data: &Dataset, config: &TrainConfig) -> Losses {
    let values = grouped_values(params, data);
    let parts: Vec<Losses> = (0..data.positions.len())
        .collect::<Vec<_>>()
        .par_chunks(1024)
        .map(|chunk| {
            let mut grad = Gradient::default();
            let mut l = Losses::default();
            let mut siblings = Vec::new();
            for &i in chunk {
                siblings.clear();
                let others = data.siblings_of(i).filter(|&j| j != i);
                siblings.extend(others.map(|j| (values[j], data.positions[j].value)));
                position_gradient(
                    params,
                    data,
                    &data.positions[i],
                    &siblings,
                    config,
                    0.0,
                    &mut grad,
                    &mut l,
                );
                grad.clear();
            }
            l
        })
        .collect();
    let mut total = Losses::default();
    for l in &parts {
        total.add(l);
    }
    total.mean()
}

/// The network's value of every position of `data` in a sibling group (0 for the others).
fn grouped_values(params: &Params, data: &Dataset) -> Vec<f32> {
    (0..data.positions.len())
        .into_par_iter()
        .map(|i| if data.positions[i].group == 0 { 0.0 } else { position_value(params, data, i) })
        .collect()
}

/// How the value orders siblings: the correlation, pooled over every pair of positions of a
/// sibling group, of the network's differences between them with their targets' differences
/// (what `tde probe sibling` reports against rollouts), and the number of pairs; `None`
/// without pairs or where either side's differences do not vary.
pub fn sibling_correlation(params: &Params, data: &Dataset) -> Option<(f64, usize)> {
    let values = grouped_values(params, data);
    let mut pairs = Vec::new();
    let mut at = 0;
    while at < data.positions.len() {
        let group = data.siblings_of(at);
        for i in group.clone() {
            for j in i + 1..group.end {
                let target = data.positions[i].value - data.positions[j].value;
                pairs.push(((values[i] - values[j]) as f64, target as f64));
            }
        }
        at = group.end;
    }
    let n = pairs.len() as f64;
    let (mx, my) = pairs.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0 / n, b + p.1 / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx).powi(2);
        syy += (y - my).powi(2);
    }
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt(), pairs.len()))
}
