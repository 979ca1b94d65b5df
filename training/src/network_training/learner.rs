//! The training loop: policy cross-entropy over the legal actions and value mean squared error,
//! Adam with warm-up and a cosine or constant schedule, validation scores and evaluation
//! games every so often, metrics to TensorBoard and `metrics.jsonl`, and checkpoints from
//! which a killed run resumes exactly.
//!
//! Batches are a pure function of the seed and the step (positions drawn uniformly from one
//! board size class at a time), so a resumed run continues the same sequence.

use crate::network::checkpoint::{self, Meta};
use crate::network::inference::InputBuffers;
use crate::network::net::{legal_logits, LegalTerms, PolicyValueNet};
use crate::network_training::config::{Config, Schedule};
use crate::network_training::metrics::Metrics;
use crate::network_training::sample::Sample;
use crate::network_training::siblings::{families, sibling_loss, SiblingPairs};
use agents::{Recipe, TensorGame, TensorShape};
use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Scores of a network in evaluation games: (name, score).
pub type EvaluateFn<'a> = dyn Fn(&PolicyValueNet) -> Vec<(String, f64)> + 'a;

/// A training run to make.
pub struct TrainRun<'a, G: TensorGame> {
    /// The run folder (checkpoints, metrics, TensorBoard).
    pub run: &'a Path,
    /// The configuration.
    pub config: &'a Config,
    /// Training positions.
    pub train: &'a [Sample<G>],
    /// Held-out positions.
    pub valid: &'a [Sample<G>],
    /// Continue from the run's latest checkpoint.
    pub resume: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Scores of the network in evaluation games (name, score), every `train.eval_every` steps.
    pub evaluate: Option<&'a EvaluateFn<'a>>,
    /// Stop after this many steps of this call (a test's stand-in for a kill).
    pub stop_after: Option<u64>,
}

/// What a training call ended with.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    /// Steps taken in all (resumed runs included).
    pub step: u64,
    /// The last checkpoint written.
    pub checkpoint: PathBuf,
    /// The last validation scores.
    pub validation: Scores,
}

/// Losses and accuracy over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scores {
    /// Policy cross-entropy (over the positions that teach the policy).
    pub policy_loss: f64,
    /// Value mean squared error.
    pub value_loss: f64,
    /// Share of the positions teaching the policy whose most likely action is the target's
    /// most likely one.
    pub accuracy: f64,
    /// Mean absolute value error.
    pub value_error: f64,
    /// Margin-head squared error over the positions with a margin target (0 without a
    /// margin head).
    pub margin_loss: f64,
}

/// The learning rate at `step`.
pub fn learning_rate(config: &Config, step: u64) -> f64 {
    let t = &config.train;
    if step < t.warmup {
        return t.lr * (step + 1) as f64 / t.warmup as f64;
    }
    match t.schedule {
        Schedule::Constant => t.lr,
        Schedule::Cosine => {
            let span = (t.steps - t.warmup.min(t.steps)).max(1) as f64;
            let x = ((step - t.warmup) as f64 / span).min(1.0);
            let floor = t.lr / 20.0;
            floor + (t.lr - floor) * 0.5 * (1.0 + (std::f64::consts::PI * x).cos())
        }
    }
}

/// Positions grouped by tensor shape (board size class).
pub(crate) fn buckets<G: TensorGame>(samples: &[Sample<G>]) -> Vec<(TensorShape, Vec<usize>)> {
    let mut out: Vec<(TensorShape, Vec<usize>)> = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        let shape = s.state.tensor_shape();
        match out.iter_mut().find(|(sh, _)| *sh == shape) {
            Some((_, v)) => v.push(i),
            None => out.push((shape, vec![i])),
        }
    }
    out
}

/// The batch of `step`: a bucket drawn in proportion to its size, then positions uniformly.
/// With `families` (each sample's siblings, see [`families`]; empty for none), each drawn
/// child brings its whole family, for the sibling loss, the last one cut short where it
/// overflows `batch`.
pub(crate) fn batch_indices(
    buckets: &[(TensorShape, Vec<usize>)],
    families: &[Vec<usize>],
    seed: u64,
    step: u64,
    batch: usize,
) -> (usize, Vec<usize>) {
    let (b, mut rng) = draw_bucket(buckets, seed, step);
    let members = &buckets[b].1;
    let mut out = Vec::with_capacity(batch);
    while out.len() < batch {
        let i = members[rng.gen_range(0..members.len())];
        match families.get(i).map(Vec::as_slice) {
            None | Some([]) => out.push(i),
            Some(family) => out.extend(family.iter().take(batch - out.len())),
        }
    }
    (b, out)
}

/// The bucket of `step`'s batch, drawn in proportion to the buckets' sizes, and the
/// generator that goes on to draw its positions.
fn draw_bucket(buckets: &[(TensorShape, Vec<usize>)], seed: u64, step: u64) -> (usize, ChaCha8Rng) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let total: usize = buckets.iter().map(|(_, v)| v.len()).sum();
    let mut pick = rng.gen_range(0..total);
    let mut b = 0;
    while pick >= buckets[b].1.len() {
        pick -= buckets[b].1.len();
        b += 1;
    }
    (b, rng)
}

/// The tensors of a batch: inputs, legal terms, targets and values with their weights.
pub(crate) struct BatchTensors {
    planes: Tensor<4>,
    globals: Tensor<2>,
    terms: LegalTerms,
    /// Target distributions; rows of value-only samples are 0.
    target: Tensor<2>,
    value: Tensor<2>,
    value_weight: Tensor<2>,
    /// Sum of the value weights.
    value_weight_sum: f32,
    /// Which rows teach the policy.
    teaches_policy: Vec<bool>,
    target_best: Vec<usize>,
    value_raw: Vec<f32>,
    /// Margin targets (0 where a row has none), `[batch, 1]`.
    margin: Tensor<2>,
    /// 1 for the rows with a margin target, `[batch, 1]`.
    margin_known: Tensor<2>,
    /// Rows with a margin target.
    margin_rows: f32,
    /// Pairs of children of one decision, for the sibling loss; none where there are none.
    siblings: Option<SiblingPairs>,
}

impl BatchTensors {
    /// Rows that teach the policy.
    fn policy_rows(&self) -> usize {
        self.teaches_policy.iter().filter(|&&t| t).count()
    }
}

pub(crate) fn batch_tensors<G: TensorGame>(
    samples: &[Sample<G>],
    indices: &[usize],
    shape: &TensorShape,
    buffers: &mut InputBuffers,
    device: &Device,
) -> BatchTensors {
    let chosen: Vec<&Sample<G>> = indices.iter().map(|&i| &samples[i]).collect();
    let positions: Vec<(&G, usize)> = chosen.iter().map(|s| (&s.state, s.player)).collect();
    let (planes, globals) = buffers.encode(&positions, shape, device);
    let lists: Vec<&[Recipe]> = chosen.iter().map(|s| s.recipes.as_slice()).collect();
    let terms = LegalTerms::new(&lists, shape);
    let mut target = vec![0.0f32; terms.batch * terms.width];
    for (b, s) in chosen.iter().enumerate() {
        target[b * terms.width..b * terms.width + s.target.len()].copy_from_slice(&s.target);
    }
    let target_best = chosen.iter().map(|s| argmax(&s.target)).collect();
    let value_raw: Vec<f32> = chosen.iter().map(|s| s.value).collect();
    let weights: Vec<f32> = chosen.iter().map(|s| s.value_weight).collect();
    let margins: Vec<f32> = chosen.iter().map(|s| s.margin.unwrap_or(0.0)).collect();
    let known: Vec<f32> = chosen.iter().map(|s| s.margin.is_some() as u8 as f32).collect();
    BatchTensors {
        siblings: SiblingPairs::of(&chosen, device),
        margin: Tensor::from_data(TensorData::new(margins, [terms.batch, 1]), device),
        margin_rows: known.iter().sum(),
        margin_known: Tensor::from_data(TensorData::new(known, [terms.batch, 1]), device),
        planes,
        globals,
        target: Tensor::from_data(TensorData::new(target, [terms.batch, terms.width]), device),
        value: Tensor::from_data(TensorData::new(value_raw.clone(), [terms.batch, 1]), device),
        value_weight_sum: weights.iter().sum(),
        value_weight: Tensor::from_data(TensorData::new(weights, [terms.batch, 1]), device),
        teaches_policy: chosen.iter().map(|s| s.teaches_policy).collect(),
        terms,
        target_best,
        value_raw,
    }
}

fn argmax(v: &[f32]) -> usize {
    v.iter().enumerate().fold((0, f32::MIN), |best, (i, &x)| if x > best.1 { (i, x) } else { best }).0
}

/// The losses of a batch, with the outputs they came from.
pub(crate) struct BatchLosses {
    /// Policy loss plus the weighted value and margin losses.
    pub(crate) total: Tensor<1>,
    /// Policy cross-entropy over the legal actions, averaged over the rows that teach it.
    pub(crate) policy: Tensor<1>,
    /// Value squared error, the weighted mean over the rows.
    pub(crate) value: Tensor<1>,
    /// Legal-action logits, `[batch, width]`.
    pub(crate) logits: Tensor<2>,
    /// Values, `[batch, 1]`.
    values: Tensor<2>,
    /// With a margin head: the margin squared error over the rows with a margin target.
    pub(crate) margin: Option<Tensor<1>>,
    /// Where the batch holds siblings: the sibling loss ([`sibling_loss`]).
    pub(crate) sibling: Option<Tensor<1>>,
}

/// How much each loss counts beside the policy's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LossWeights {
    /// The value loss's weight.
    pub(crate) value: f64,
    /// The margin loss's weight (with a margin head).
    pub(crate) margin: f64,
    /// The sibling loss's weight.
    pub(crate) sibling: f64,
}

impl LossWeights {
    /// Value and margin weighed as given, no sibling loss.
    pub(crate) fn new(value: f64, margin: f64) -> LossWeights {
        LossWeights { value, margin, sibling: 0.0 }
    }
}

/// The losses of a batch: policy cross-entropy, value squared error, margin squared error
/// (with a margin head) and the sibling loss (where the batch holds siblings), the last
/// three as `weights` say.
pub(crate) fn losses(
    net: &PolicyValueNet,
    t: &BatchTensors,
    weights: LossWeights,
    device: &Device,
) -> BatchLosses {
    let outputs = net.forward(t.planes.clone(), t.globals.clone());
    let logits = legal_logits(&outputs, &t.terms, device);
    // Value-only rows have all-zero targets, so they add nothing to the sum.
    let policy_rows = t.policy_rows().max(1) as f32;
    let policy = (t.target.clone() * log_softmax(logits.clone(), 1)).sum().neg().div_scalar(policy_rows);
    let squared = (outputs.value.clone() - t.value.clone()).powi_scalar(2);
    let value = (squared * t.value_weight.clone()).sum().div_scalar(t.value_weight_sum.max(1e-6));
    let margin = outputs.margin.map(|m| {
        let squared = (m - t.margin.clone()).powi_scalar(2) * t.margin_known.clone();
        squared.sum().div_scalar(t.margin_rows.max(1.0))
    });
    let mut total = policy.clone() + value.clone().mul_scalar(weights.value);
    if let (Some(m), true) = (&margin, weights.margin > 0.0) {
        total = total + m.clone().mul_scalar(weights.margin);
    }
    let sibling =
        t.siblings.as_ref().map(|pairs| sibling_loss(outputs.value.clone(), t.value.clone(), pairs));
    if let (Some(l), true) = (&sibling, weights.sibling > 0.0) {
        total = total + l.clone().mul_scalar(weights.sibling);
    }
    BatchLosses { total, policy, value, logits, values: outputs.value, margin, sibling }
}

/// Score a network on up to `limit` positions, spread evenly over `samples` so that they come
/// from many games rather than the first few (no gradients).
pub fn score<G: TensorGame>(
    net: &PolicyValueNet,
    samples: &[Sample<G>],
    limit: usize,
    device: &Device,
) -> Scores {
    if samples.is_empty() || limit == 0 {
        return Scores::default();
    }
    let stride = samples.len().div_ceil(limit);
    let mut buffers = InputBuffers::default();
    let (mut sums, mut n, mut policy_n, mut margin_n) = (Scores::default(), 0usize, 0usize, 0.0f64);
    for (shape, members) in buckets(samples) {
        let members: Vec<usize> = members.into_iter().filter(|&i| i % stride == 0).collect();
        for chunk in members.chunks(64) {
            let t = batch_tensors(samples, chunk, &shape, &mut buffers, device);
            let l = losses(net, &t, LossWeights::new(1.0, 1.0), device);
            if let Some(m) = l.margin.clone() {
                sums.margin_loss += m.into_scalar::<f32>() as f64 * t.margin_rows as f64;
                margin_n += t.margin_rows as f64;
            }
            let logits: Vec<f32> = l.logits.into_data().try_to_vec::<f32>().unwrap_or_default();
            let values: Vec<f32> = l.values.into_data().try_to_vec::<f32>().unwrap_or_default();
            let (k, rows) = (chunk.len(), t.policy_rows());
            sums.policy_loss += l.policy.into_scalar::<f32>() as f64 * rows as f64;
            sums.value_loss += l.value.into_scalar::<f32>() as f64 * k as f64;
            for b in 0..k {
                let row = &logits[b * t.terms.width..(b + 1) * t.terms.width];
                if t.teaches_policy[b] {
                    sums.accuracy += (argmax(row) == t.target_best[b]) as u8 as f64;
                }
                sums.value_error += (values[b] - t.value_raw[b]).abs() as f64;
            }
            n += k;
            policy_n += rows;
        }
    }
    let (n, policy_n) = (n.max(1) as f64, policy_n.max(1) as f64);
    Scores {
        policy_loss: sums.policy_loss / policy_n,
        value_loss: sums.value_loss / n,
        accuracy: sums.accuracy / policy_n,
        value_error: sums.value_error / n,
        margin_loss: sums.margin_loss / margin_n.max(1.0),
    }
}

fn meta(config: &Config, shape: &TensorShape, net: &PolicyValueNet, step: u64) -> Meta {
    Meta {
        format: checkpoint::FORMAT,
        step,
        config: config.clone(),
        planes: shape.planes,
        globals: shape.globals,
        policy_planes: shape.policy_planes,
        policy_globals: shape.policy_globals,
        parameters: net.parameters(),
    }
}

pub(crate) fn new_optimizer(config: &Config) -> ModuleOptimizer {
    let decay =
        (config.train.weight_decay > 0.0).then(|| WeightDecayConfig::new(config.train.weight_decay as f32));
    AdamConfig::new().with_weight_decay(decay).init()
}

/// The network a fresh run starts from: `train.init`'s weights (a first-architecture
/// checkpoint of the same trunk grows the second architecture's parts, see
/// [`PolicyValueNet::adopt`]), or random ones.
fn initial_network(config: &Config, shape: &TensorShape, device: &Device) -> Result<PolicyValueNet, String> {
    let Some(init) = &config.train.init else {
        return Ok(PolicyValueNet::seeded(&config.net, shape, device, config.seed));
    };
    let (net, meta, found) = checkpoint::load_network(Path::new(init), device).map_err(|e| e.to_string())?;
    let (old, new) = (&meta.config.net, &config.net);
    let same_trunk = (old.channels, old.blocks, old.hidden) == (new.channels, new.blocks, new.hidden);
    if same_trunk && !old.is_v2() && new.is_v2() {
        meta.check_shape(shape).map_err(|e| format!("train.init: {}: {e}", found.display()))?;
        return Ok(PolicyValueNet::adopt(net, new, shape, device, config.seed));
    }
    if meta.config.net != config.net {
        return Err(format!(
            "train.init: {} has net sizes {:?}, the configuration asks for {:?}",
            found.display(),
            meta.config.net,
            config.net
        ));
    }
    meta.check_shape(shape).map_err(|e| format!("train.init: {}: {e}", found.display()))?;
    Ok(net)
}

/// Train (or resume training) a network on the samples.
pub fn train<G: TensorGame>(job: TrainRun<'_, G>) -> Result<TrainOutcome, String> {
    let config = job.config;
    if job.train.is_empty() {
        return Err("no training positions".into());
    }
    let shape = job.train[0].state.tensor_shape();
    let device = crate::network::compute::device().autodiff();
    let inner = crate::network::compute::device();
    let dir = job.run.join("checkpoints");
    let existing = dir.join("latest").is_file();
    if existing && !job.resume {
        return Err(format!(
            "{} already has checkpoints: resume it, or choose a new run folder",
            job.run.display()
        ));
    }
    let (mut net, mut optimizer, mut step) = if existing {
        let (net, meta, found) = checkpoint::load_network(&dir, &device).map_err(|e| e.to_string())?;
        let mut saved = meta.config.clone();
        saved.train.steps = config.train.steps;
        if saved != *config {
            return Err(format!(
                "{}: the run was made with another configuration (only train.steps may change on resume)",
                found.display()
            ));
        }
        meta.check_shape(&shape)?;
        let optimizer =
            checkpoint::load_optimizer(&found, new_optimizer(config)).map_err(|e| e.to_string())?;
        (net, optimizer, meta.step)
    } else {
        (initial_network(config, &shape, &device)?, new_optimizer(config), 0)
    };
    let mut metrics = Metrics::open(job.run).map_err(|e| format!("{}: {e}", job.run.display()))?;
    let groups = buckets(job.train);
    let t = &config.train;
    // With the sibling loss, batches draw whole families of children.
    let families = if t.sibling_weight > 0.0 { families(job.train) } else { Vec::new() };
    let weights = LossWeights { value: t.value_weight, margin: t.margin_weight, sibling: t.sibling_weight };
    let mut buffers = InputBuffers::default();
    let end = match job.stop_after {
        Some(n) => (step + n).min(t.steps),
        None => t.steps,
    };
    let bar = crate::progress_bar(job.progress, end.saturating_sub(step), "training");
    let mut last_checkpoint = dir.join("latest");
    let mut validation = Scores::default();
    let (mut since, mut positions, mut loss_sum, mut policy_sum, mut value_sum, mut n) =
        (Instant::now(), 0usize, 0.0, 0.0, 0.0, 0usize);
    let (mut sibling_sum, mut sibling_batches) = (0.0, 0usize);
    while step < end {
        let lr = learning_rate(config, step);
        let (b, indices) = batch_indices(&groups, &families, config.seed, step, t.batch);
        let batch = batch_tensors(job.train, &indices, &groups[b].0, &mut buffers, &device);
        let l = losses(&net, &batch, weights, &device);
        policy_sum += l.policy.into_scalar::<f32>() as f64;
        value_sum += l.value.into_scalar::<f32>() as f64;
        if let Some(sibling) = l.sibling {
            sibling_sum += sibling.into_scalar::<f32>() as f64;
            sibling_batches += 1;
        }
        let grads = GradientsParams::from_grads(l.total.clone().backward(), &net);
        loss_sum += l.total.into_scalar::<f32>() as f64;
        net = optimizer.step(lr, net, grads);
        step += 1;
        n += 1;
        positions += indices.len();
        bar.inc(1);
        if step % t.log_every == 0 || step == end {
            let rate = positions as f64 / since.elapsed().as_secs_f64().max(1e-9);
            validation = score(&net.valid(), job.valid, t.validation_positions, &inner);
            let scalars = [
                ("train/loss", loss_sum / n as f64),
                ("train/policy_loss", policy_sum / n as f64),
                ("train/value_loss", value_sum / n as f64),
                ("train/learning_rate", lr),
                ("train/positions_per_second", rate),
                ("valid/policy_loss", validation.policy_loss),
                ("valid/value_loss", validation.value_loss),
                ("valid/policy_accuracy", validation.accuracy),
                ("valid/value_error", validation.value_error),
                ("valid/margin_loss", validation.margin_loss),
            ];
            metrics.log(step, &scalars).map_err(|e| format!("metrics: {e}"))?;
            if sibling_batches > 0 {
                let mean = sibling_sum / sibling_batches as f64;
                metrics.log(step, &[("train/sibling_loss", mean)]).map_err(|e| format!("metrics: {e}"))?;
                (sibling_sum, sibling_batches) = (0.0, 0);
            }
            bar.set_message(format!(
                "loss {:.3}, valid acc {:.2}, {rate:.0} pos/s",
                loss_sum / n as f64,
                validation.accuracy
            ));
            (since, positions, loss_sum, policy_sum, value_sum, n) = (Instant::now(), 0, 0.0, 0.0, 0.0, 0);
        }
        if let (Some(evaluate), true) = (job.evaluate, t.eval_every > 0 && step % t.eval_every == 0) {
            let scores = evaluate(&net.valid());
            let named: Vec<(String, f64)> =
                scores.into_iter().map(|(k, v)| (format!("eval/{k}"), v)).collect();
            let refs: Vec<(&str, f64)> = named.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            metrics.log(step, &refs).map_err(|e| format!("metrics: {e}"))?;
        }
        if step % t.checkpoint_every == 0 || step == end {
            last_checkpoint =
                checkpoint::save(&dir, &net.valid(), Some(&optimizer), &meta(config, &shape, &net, step))
                    .map_err(|e| e.to_string())?;
        }
    }
    bar.finish_and_clear();
    Ok(TrainOutcome { step, checkpoint: last_checkpoint, validation })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::Game;
    use tictactoe::TicTacToe;

    /// The losses of `samples` (all in one batch) under `net`.
    fn batch_losses(net: &PolicyValueNet, samples: &[Sample<TicTacToe>]) -> (f32, f32) {
        let device = Device::flex();
        let shape = samples[0].state.tensor_shape();
        let indices: Vec<usize> = (0..samples.len()).collect();
        let t = batch_tensors(samples, &indices, &shape, &mut InputBuffers::default(), &device);
        let l = losses(net, &t, LossWeights::new(1.0, 1.0), &device);
        (l.policy.into_scalar::<f32>(), l.value.into_scalar::<f32>())
    }

    #[test]
    fn value_only_rows_leave_the_policy_loss_alone_and_value_weights_shape_the_value_loss() {
        let shape = TicTacToe::new().tensor_shape();
        let net = PolicyValueNet::new(
            &crate::network_training::config::NetConfig::default(),
            &shape,
            &Device::flex(),
        );
        let batch_losses = |samples: &[Sample<TicTacToe>]| batch_losses(&net, samples);
        let mut second = TicTacToe::new();
        second.apply(4).unwrap();
        let uniform = |s: &TicTacToe| vec![1.0 / s.legal_actions().len() as f32; s.legal_actions().len()];
        let taught = Sample::new(TicTacToe::new(), 0, uniform(&TicTacToe::new()), 1.0).unwrap();
        let (policy, value) = batch_losses(std::slice::from_ref(&taught));
        let mut value_only = Sample::value_only(second, 1, -1.0).unwrap();
        let (policy_with, _) = batch_losses(&[taught.clone(), value_only.clone()]);
        assert!(
            (policy - policy_with).abs() < 1e-5,
            "{policy} vs {policy_with}: value-only rows teach no policy"
        );
        // A weight of ~0 on the second row leaves the first row's value loss alone.
        value_only.value_weight = 1e-7;
        let (_, value_with) = batch_losses(&[taught.clone(), value_only.clone()]);
        assert!((value - value_with).abs() < 1e-4, "{value} vs {value_with}");
        // With equal weights it is the mean of both rows' squared errors.
        value_only.value_weight = 1.0;
        let (_, other) = batch_losses(std::slice::from_ref(&value_only));
        let (_, both) = batch_losses(&[taught, value_only]);
        assert!((both - (value + other) / 2.0).abs() < 1e-4, "{both} vs mean of {value} and {other}");
    }

    #[test]
    fn the_sibling_loss_teaches_the_order_among_a_decisions_children() {
        use crate::network_training::sample::Sibling;
        let shape = TicTacToe::new().tensor_shape();
        let config = Config::default();
        let device = crate::network::compute::device().autodiff();
        let mut net = PolicyValueNet::seeded(&config.net, &shape, &device, 5);
        // For the player who decides: the centre is worth most, corners some, edges least.
        let worth = |cell: u8| match cell {
            4 => 0.6,
            0 | 2 | 6 | 8 => 0.2,
            _ => -0.4,
        };
        // Two decisions, X's first move and O's reply to X in a corner; each child's target is
        // from its own player to move's view (the decider's opponent) and carries an offset
        // shared by its siblings, which the sibling loss does not ask for.
        let mut samples = Vec::new();
        for (decision, parent, offset) in [(0u64, vec![], 0.3f32), (1, vec![0u8], -0.2)] {
            let mut state = TicTacToe::new();
            for &a in &parent {
                state.apply(a).unwrap();
            }
            for cell in state.legal_actions() {
                let mut child = state;
                child.apply(cell).unwrap();
                let mover = match child.turn() {
                    agents::Turn::Player(p) => p,
                    _ => unreachable!(),
                };
                let target = -(worth(cell) + offset);
                let sample = Sample::value_only(child, mover, target).unwrap();
                samples.push(Sample { sibling: Some(Sibling { decision, sign: -1.0 }), ..sample });
            }
        }
        let indices: Vec<usize> = (0..samples.len()).collect();
        let order_agreement = |net: &PolicyValueNet| -> f64 {
            let t = batch_tensors(&samples, &indices, &shape, &mut InputBuffers::default(), &device);
            let values: Vec<f32> =
                net.forward(t.planes, t.globals).value.into_data().try_to_vec::<f32>().unwrap();
            // Pairs of siblings the head orders as the worth does (from the decider's view).
            let (mut right, mut all) = (0, 0);
            for i in 0..samples.len() {
                for j in i + 1..samples.len() {
                    let (a, b) = (samples[i].sibling.unwrap(), samples[j].sibling.unwrap());
                    let (ti, tj) = (-samples[i].value, -samples[j].value);
                    if a.decision == b.decision && (ti - tj).abs() > 1e-3 {
                        all += 1;
                        right += ((-values[i] - -values[j]) * (ti - tj) > 0.0) as usize;
                    }
                }
            }
            right as f64 / all as f64
        };
        let before = order_agreement(&net);
        let weights = LossWeights { value: 0.0, margin: 0.0, sibling: 1.0 };
        let mut optimizer = new_optimizer(&config);
        for _ in 0..150 {
            let t = batch_tensors(&samples, &indices, &shape, &mut InputBuffers::default(), &device);
            let l = losses(&net, &t, weights, &device);
            let grads = GradientsParams::from_grads(l.total.backward(), &net);
            net = optimizer.step(3e-3, net, grads);
        }
        let after = order_agreement(&net);
        assert!(after > 0.95, "sibling pairs ordered right: {before:.2} before, {after:.2} after training");
        assert!(before < 0.8, "an untrained head already orders them ({before:.2}): the test shows nothing");
    }

    fn sibling_child(decision: u64) -> Sample<TicTacToe> {
        let sibling = Some(crate::network_training::sample::Sibling { decision, sign: 1.0 });
        Sample { sibling, ..Sample::value_only(TicTacToe::new(), 0, 0.0).unwrap() }
    }

    #[test]
    fn a_family_batch_holds_every_drawn_childs_siblings() {
        let mut samples: Vec<Sample<TicTacToe>> = Vec::new();
        for d in 0..20u64 {
            samples.extend((0..3).map(|_| sibling_child(d)));
            samples.push(Sample::value_only(TicTacToe::new(), 0, 0.0).unwrap());
        }
        let families = families(&samples);
        assert_eq!(families[0], vec![0, 1, 2]);
        assert!(families[3].is_empty());
        let shape = samples[0].state.tensor_shape();
        let buckets = vec![(shape, (0..samples.len()).collect::<Vec<_>>())];
        for step in 0..20 {
            let (_, batch) = batch_indices(&buckets, &families, 7, step, 31);
            assert_eq!(batch.len(), 31);
            // Every family but the last one drawn (cut at the batch's end) is whole.
            let last = batch.iter().rev().find_map(|&i| samples[i].sibling).map(|s| s.decision);
            for &i in &batch {
                if let Some(s) = samples[i].sibling {
                    if Some(s.decision) != last {
                        assert!(families[i].iter().all(|j| batch.contains(j)), "step {step}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_limited_score_spreads_its_positions_over_the_whole_set() {
        let shape = TicTacToe::new().tensor_shape();
        let net = PolicyValueNet::new(
            &crate::network_training::config::NetConfig::default(),
            &shape,
            &Device::flex(),
        );
        // Eight copies of one position: the first four won, the last four lost. Over both
        // halves, a value v in [-1, 1] is off by (1 - v + v + 1) / 2 = 1 on average.
        let samples: Vec<Sample<TicTacToe>> = (0..8)
            .map(|i| Sample::value_only(TicTacToe::new(), 0, if i < 4 { 1.0 } else { -1.0 }).unwrap())
            .collect();
        let scores = score(&net, &samples, 4, &Device::flex());
        assert!((scores.value_error - 1.0).abs() < 1e-5, "{scores:?}: both halves scored");
    }
}
