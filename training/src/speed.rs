//! Speed figures of the learned side, for `tde bench`: network inference per position at
//! batch 1 and at batch 64, search with the network evaluating its leaves alone or batched
//! across 16 searches, training positions per second, and expert-game generation positions
//! per second (medians of several timed batches, on the threads burn and rayon use).

use crate::config::Config;
use crate::inference::{evaluate, InputBuffers};
use crate::learner::{train, TrainRun};
use crate::net::PolicyValueNet;
use crate::sample::Sample;
use agents::{Game, TensorGame, Turn};
use burn::tensor::Device;
use engine::GameState;
use std::time::Instant;

/// Measured speeds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NetSpeed {
    /// Positions evaluated per second one at a time.
    pub inference_batch1_per_s: f64,
    /// Positions evaluated per second in batches of 64.
    pub inference_batch64_per_s: f64,
    /// Training positions per second (forward, backward and Adam step, batch 32).
    pub training_per_s: f64,
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
    /// Parameters of the network measured.
    pub parameters: usize,
}

/// Run one 8-simulation search from each root, `together` at a time, their leaves evaluated
/// in one batch; returns (positions evaluated, forward passes, seconds).
fn searches(
    net: &crate::play::Network,
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

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Measure `net` on `positions` (decision nodes of one board size class).
pub fn measure(net: &PolicyValueNet, positions: &[GameState], batches: u32) -> Result<NetSpeed, String> {
    let device = Device::flex();
    let mut buffers = InputBuffers::default();
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
    let mut one = Vec::new();
    let mut many = Vec::new();
    for _ in 0..batches {
        let t = Instant::now();
        for v in views.iter().take(16) {
            evaluate(net, &device, &mut buffers, std::slice::from_ref(v))?;
        }
        one.push(16.0 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        evaluate(net, &device, &mut buffers, &views[..64])?;
        many.push(64.0 / t.elapsed().as_secs_f64());
    }
    // Training: a few steps on uniform targets over the legal actions.
    let samples: Vec<Sample<GameState>> = views
        .iter()
        .map(|(s, p)| {
            let n = s.legal_actions().len();
            Sample::new((*s).clone(), *p, vec![1.0 / n as f32; n], 0.0)
        })
        .collect::<Result<_, _>>()?;
    let mut config = Config::default();
    config.train.batch = 32;
    config.train.steps = 3 * batches as u64;
    config.train.log_every = config.train.steps;
    config.train.checkpoint_every = config.train.steps;
    config.train.validation_positions = 0;
    let run = std::env::temp_dir().join(format!("tde-bench-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    let t = Instant::now();
    train(TrainRun {
        run: &run,
        config: &config,
        train: &samples,
        valid: &[],
        resume: false,
        progress: false,
        evaluate: None,
        stop_after: None,
    })?;
    let training_per_s = (config.train.steps * 32) as f64 / t.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&run);
    // Expert generation: scripted self-play games of the bootstrap configuration.
    let expert = Config::default();
    let t = Instant::now();
    let mut positions = 0;
    for game in 0..batches as usize {
        positions += crate::expert::play_game(&expert, game)?.targets.len();
    }
    // Search: the same 16 roots searched one at a time, then all together.
    let network = crate::play::Network::from_net(net.clone(), "bench".into());
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
    Ok(NetSpeed {
        search_batch1_per_s: median(alone),
        search_batch16_per_s: median(together),
        search_batch16_passes_per_s: median(passes),
        inference_batch1_per_s: median(one),
        inference_batch64_per_s: median(many),
        training_per_s,
        expert_positions_per_s: positions as f64 / t.elapsed().as_secs_f64(),
        parameters: net.parameters(),
    })
}
