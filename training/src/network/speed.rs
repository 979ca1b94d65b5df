//! Speed figures of the learned side, for `tde bench`, on the process's compute device:
//! network inference per position at batch 1, 64 and a larger batch, search with the network
//! evaluating its leaves alone or batched across 16 searches or the larger batch, training
//! positions per second at batch 32 and the larger batch, and expert-game generation positions
//! per second (medians of several timed batches, on the threads burn and rayon use), and the
//! time of each shape's first pass (a GPU compiles its kernels then).

use crate::network::checkpoint;
use crate::network::inference::InputBuffers;
use crate::network_training::config::Config;
use crate::network_training::learner::{batch_tensors, losses, new_optimizer, LossWeights};
use crate::network_training::sample::Sample;
use agents::{Game, TensorGame, Turn};
use burn::optim::GradientsParams;
use engine::GameState;
use std::time::Instant;

/// Measured speeds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NetSpeed {
    /// Positions evaluated per second one at a time.
    pub inference_batch1_per_s: f64,
    /// Positions evaluated per second in batches of 64.
    pub inference_batch64_per_s: f64,
    /// The larger batch timed below (`tde bench --net-batch`).
    pub large_batch: usize,
    /// Positions evaluated per second in batches of `large_batch`.
    pub inference_large_batch_per_s: f64,
    /// Training positions per second (forward, backward and Adam step, batch 32).
    pub training_per_s: f64,
    /// Training positions per second in batches of `large_batch`.
    pub training_large_batch_per_s: f64,
    /// The compute device measured (`cpu`, `cuda:0`).
    pub device: String,
    /// Expert positions (decisions with a choice) generated per second by `scripted` self-play.
    pub expert_positions_per_s: f64,
    /// Searches (8 simulations, Gumbel root) each evaluating its leaves alone: positions
    /// evaluated per second, one forward pass each.
    pub search_batch1_per_s: f64,
    /// The same searches run 16 at a time, their leaves evaluated in one forward pass:
    /// positions evaluated per second.
    pub search_batch16_per_s: f64,
    /// Forward passes per second of the batched searches.
    pub search_batch16_passes_per_s: f64,
    /// `large_batch` searches run at once (the 16 roots repeated, each search seeded apart),
    /// their leaves evaluated together: positions evaluated per second. What one self-play
    /// actor playing that many games at once can reach.
    pub search_large_batch_per_s: f64,
    /// Forward passes per second of those searches.
    pub search_large_batch_passes_per_s: f64,
    /// Parameters of the network measured.
    pub parameters: usize,
    /// Seconds of the first, untimed forward pass at batch 1, 64 and `large_batch`: on a GPU
    /// the kernels are compiled and tuned then, for each new shape.
    pub first_pass_s: [f64; 3],
    /// Seconds of the first, untimed training step at batch 32 and `large_batch`.
    pub first_training_step_s: [f64; 2],
}

/// Run one 8-simulation search from each root, `together` at a time, their leaves evaluated
/// in one batch; returns (positions evaluated, forward passes, seconds).
fn searches(
    net: &crate::network::loaded::Network,
    roots: &[(&GameState, usize)],
    together: usize,
) -> Result<(u64, u64, f64), String> {
    use agents::{AzConfig, AzSearch, PolicyValue};
    let config = AzConfig::parse("sims=8,root=gumbel,considered=8")?;
    let t = Instant::now();
    let (mut positions, mut passes) = (0u64, 0u64);
    for group in roots.chunks(together) {
        let mut machines: Vec<AzSearch<GameState>> = group
            .iter()
            .enumerate()
            .map(|(i, (s, _))| AzSearch::new(*s, config.clone(), i as u64))
            .collect::<Result<_, _>>()?;
        loop {
            let mut waiting = Vec::new();
            for (i, m) in machines.iter_mut().enumerate() {
                if let Some(leaf) = m.request() {
                    waiting.push((i, leaf));
                }
            }
            if waiting.is_empty() {
                break;
            }
            let views: Vec<(&GameState, usize)> = waiting.iter().map(|(_, (s, p))| (s, *p)).collect();
            let outputs = PolicyValue::evaluate(net, &views)?;
            passes += 1;
            positions += outputs.len() as u64;
            for ((i, _), out) in waiting.iter().zip(outputs) {
                machines[*i].supply(out)?;
            }
        }
    }
    Ok((positions, passes, t.elapsed().as_secs_f64()))
}

/// Training positions per second of the checkpoint's network in batches of `batch` (the
/// positions of the first one's board size class, repeated to fill a batch, on uniform
/// targets over the legal actions): the median of `steps` timed steps after an untimed one,
/// and the seconds of that first step.
fn training_speed(
    path: &std::path::Path,
    config: &Config,
    views: &[(&GameState, usize)],
    batch: usize,
    steps: u32,
) -> Result<(f64, f64), String> {
    let device = crate::network::compute::device().autodiff();
    let (mut net, _, _) = checkpoint::load_network(path, &device).map_err(|e| e.to_string())?;
    let shape = views[0].0.tensor_shape();
    let samples: Vec<Sample<GameState>> = views
        .iter()
        .filter(|(s, _)| s.tensor_shape() == shape)
        .cycle()
        .take(batch)
        .map(|(s, p)| {
            let n = s.legal_actions().len();
            Sample::new((*s).clone(), *p, vec![1.0 / n as f32; n], 0.0)
        })
        .collect::<Result<_, _>>()?;
    let indices: Vec<usize> = (0..samples.len()).collect();
    let mut optimizer = new_optimizer(config);
    let mut buffers = InputBuffers::default();
    let (mut rates, mut first) = (Vec::new(), 0.0);
    for step in 0..=steps {
        let t = Instant::now();
        let tensors = batch_tensors(&samples, &indices, &shape, &mut buffers, &device);
        let l = losses(&net, &tensors, LossWeights::new(1.0, 1.0), &device);
        let grads = GradientsParams::from_grads(l.total.clone().backward(), &net);
        // Reading the loss waits for the device to finish the step.
        l.total.into_scalar::<f32>();
        net = optimizer.step(1e-4, net, grads);
        if step > 0 {
            rates.push(samples.len() as f64 / t.elapsed().as_secs_f64());
        } else {
            first = t.elapsed().as_secs_f64();
        }
    }
    Ok((median(rates), first))
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Measure the network of the checkpoint `path` names on `positions` (decision nodes), on the
/// process's compute device ([`crate::network::compute`]); `large` is the larger batch also timed for
/// inference and training (a GPU needs batches of hundreds to be busy). `progress` is told
/// each stage's figures as it ends, so a run cut short still says how far it got.
pub fn measure(
    path: &std::path::Path,
    positions: &[GameState],
    batches: u32,
    large: usize,
    progress: &dyn Fn(&str),
) -> Result<NetSpeed, String> {
    let device = crate::network::compute::device();
    let (net, meta, _) = checkpoint::load_network(path, &device).map_err(|e| e.to_string())?;
    if let Some(first) = positions.first() {
        meta.check_shape(&first.tensor_shape())?;
    }
    let network = crate::network::loaded::Network::from_net(net.clone(), "bench".into())?;
    let views: Vec<(&GameState, usize)> = positions
        .iter()
        .filter_map(|s| match Game::turn(s) {
            Turn::Player(p) => Some((s, p)),
            _ => None,
        })
        .collect();
    if views.len() < 64 {
        return Err(format!("{} decision positions; the benchmark needs 64", views.len()));
    }
    // The positions repeated to fill the large batch.
    let filled: Vec<(&GameState, usize)> = views.iter().cycle().take(large).copied().collect();
    // One untimed pass of each size first: a GPU compiles and tunes its kernels on first use.
    let mut first_pass_s = [0.0; 3];
    for (i, batch) in [&views[..1], &views[..64], &filled[..]].into_iter().enumerate() {
        let t = Instant::now();
        network.evaluate(batch)?;
        first_pass_s[i] = t.elapsed().as_secs_f64();
        progress(&format!("first forward pass at batch {}: {:.3} s", batch.len(), first_pass_s[i]));
    }
    let (mut one, mut many, mut most) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..batches {
        let t = Instant::now();
        for v in views.iter().take(16) {
            network.evaluate(std::slice::from_ref(v))?;
        }
        one.push(16.0 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        network.evaluate(&views[..64])?;
        many.push(64.0 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        network.evaluate(&filled)?;
        most.push(large as f64 / t.elapsed().as_secs_f64());
    }
    for (rates, batch) in [(&one, 1), (&many, 64), (&most, large)] {
        progress(&format!("inference at batch {batch}: {:.0} positions/s", median(rates.clone())));
    }
    let (training_per_s, first_32) = training_speed(path, &meta.config, &views, 32, batches)?;
    progress(&format!(
        "training at batch 32: first step {first_32:.3} s, then {training_per_s:.0} positions/s"
    ));
    let (training_large_batch_per_s, first_large) =
        training_speed(path, &meta.config, &views, large, batches)?;
    progress(&format!(
        "training at batch {large}: first step {first_large:.3} s, then {training_large_batch_per_s:.0} positions/s"
    ));
    // Expert generation: scripted self-play games of the bootstrap configuration.
    let expert = Config::default();
    let t = Instant::now();
    let mut positions = 0;
    for game in 0..batches as usize {
        positions += crate::network_training::expert::play_game(&expert, game)?.targets.len();
    }
    let expert_positions_per_s = positions as f64 / t.elapsed().as_secs_f64();
    progress(&format!("expert games: {expert_positions_per_s:.0} positions/s"));
    // Search: the same 16 roots searched one at a time, then all together.
    let shape = views[0].0.tensor_shape();
    let roots: Vec<(&GameState, usize)> =
        views.iter().filter(|(s, _)| s.tensor_shape() == shape).take(16).copied().collect();
    let (mut alone, mut together, mut passes) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..batches.min(3) {
        let (n, _, t) = searches(&network, &roots, 1)?;
        alone.push(n as f64 / t);
        let (n, p, t) = searches(&network, &roots, 16)?;
        together.push(n as f64 / t);
        passes.push(p as f64 / t);
    }
    progress(&format!(
        "searches: {:.0} positions/s one at a time, {:.0} 16 at once",
        median(alone.clone()),
        median(together.clone())
    ));
    let many_roots: Vec<(&GameState, usize)> = roots.iter().cycle().take(large).copied().collect();
    let (mut crowd, mut crowd_passes) = (Vec::new(), Vec::new());
    for _ in 0..batches.min(3) {
        let (n, p, t) = searches(&network, &many_roots, large)?;
        crowd.push(n as f64 / t);
        crowd_passes.push(p as f64 / t);
    }
    progress(&format!("searches, {large} at once: {:.0} positions/s", median(crowd.clone())));
    Ok(NetSpeed {
        search_batch1_per_s: median(alone),
        search_batch16_per_s: median(together),
        search_batch16_passes_per_s: median(passes),
        search_large_batch_per_s: median(crowd),
        search_large_batch_passes_per_s: median(crowd_passes),
        inference_batch1_per_s: median(one),
        inference_batch64_per_s: median(many),
        large_batch: large,
        inference_large_batch_per_s: median(most),
        training_per_s,
        training_large_batch_per_s,
        device: crate::network::compute::device_name(),
        expert_positions_per_s,
        parameters: net.parameters(),
        first_pass_s,
        first_training_step_s: [first_32, first_large],
    })
}
