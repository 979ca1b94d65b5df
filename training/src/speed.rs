//! Speed figures of the learned side, for `tde bench`: network inference per position at
//! batch 1 and at batch 64, training positions per second, and expert-game generation
//! positions per second (medians of several timed batches, on the threads burn and rayon use).

use crate::config::Config;
use crate::inference::{evaluate, InputBuffers};
use crate::learner::{train, TrainRun};
use crate::net::PolicyValueNet;
use crate::sample::Sample;
use agents::{Game, Turn};
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
    /// Parameters of the network measured.
    pub parameters: usize,
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
    Ok(NetSpeed {
        inference_batch1_per_s: median(one),
        inference_batch64_per_s: median(many),
        training_per_s,
        expert_positions_per_s: positions as f64 / t.elapsed().as_secs_f64(),
        parameters: net.parameters(),
    })
}
