//! The self-play learner: reads the actors' new shards (each exactly once), keeps a replay
//! window of the newest positions, trains while the ratio of training samples to new
//! positions stays under its cap, and publishes a new network version every
//! `checkpoint_every` steps.
//!
//! Its state (`RUN/learner.json`: step, version, the shards consumed in order, counters) is
//! written atomically right after each version's checkpoint, so the two always agree. A killed
//! learner restarts from that pair: the shards it had read after the last version are read
//! again (the training on them was lost with it), none twice into the same weights, and the
//! replay window is rebuilt from the newest consumed shards.

use crate::network::checkpoint::{self, Meta};
use crate::network::inference::InputBuffers;
use crate::network::net::PolicyValueNet;
use crate::network_training::config::Config;
use crate::network_training::learner::{batch_indices, batch_tensors, buckets, losses, LossWeights};
use crate::network_training::metrics::Metrics;
use crate::network_training::sample::Sample;
use crate::selfplay::config::SelfPlayConfig;
use crate::selfplay::records::{read_shard, samples_of, shard_names, shards_dir, PlayedGame};
use crate::selfplay::source::GameSource;
use agents::TensorGame;
use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::softmax;
use burn::tensor::Device;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the learner has done, saved with every version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerState {
    /// Optimiser steps taken.
    pub step: u64,
    /// The latest version (checkpoint folder name).
    pub version: String,
    /// Versions published (the initial one included).
    pub versions: u64,
    /// Shards read, in the order they were read.
    pub consumed: Vec<String>,
    /// Games read.
    pub games: u64,
    /// Positions read.
    pub positions: u64,
    /// Training samples drawn.
    pub samples: u64,
    /// Total plies of the games read (for the mean game length).
    pub plies: u64,
    /// The best version so far by the evaluation arena.
    pub best: String,
}

/// The state file of a run.
pub fn state_path(run: &Path) -> PathBuf {
    run.join("learner.json")
}

/// Read a run's learner state (`None` before the learner first started).
pub fn read_state(run: &Path) -> Result<Option<LearnerState>, String> {
    let path = state_path(run);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

/// Scores of a new version in evaluation games: (opponent, score, 95% interval).
pub type EvalFn<'a> = dyn Fn(&Path, Option<&Path>) -> EvalReport + 'a;

/// What an evaluation of a new version found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalReport {
    /// (opponent, score, Wilson 95% interval) per opponent, the best version's as
    /// `previous_best`.
    pub scores: Vec<(String, f64, [f64; 2])>,
    /// Whether the promotion gate promotes the new version.
    pub promote: bool,
    /// Games the gate played against the best version (none without one).
    pub gate_games: Option<usize>,
}

/// The learner of one run.
pub struct Learner<'a, G: TensorGame> {
    run: PathBuf,
    config: SelfPlayConfig,
    source: &'a dyn GameSource<G>,
    /// What it has done.
    pub state: LearnerState,
    net: PolicyValueNet,
    optimizer: ModuleOptimizer,
    window: VecDeque<Sample<G>>,
    metrics: Metrics,
    device: Device,
    buffers: InputBuffers,
    net_config: crate::network_training::config::NetConfig,
}

fn optimizer(config: &SelfPlayConfig) -> ModuleOptimizer {
    let wd = config.learner.weight_decay;
    AdamConfig::new().with_weight_decay((wd > 0.0).then(|| WeightDecayConfig::new(wd as f32))).init()
}

impl<'a, G: TensorGame> Learner<'a, G>
where
    G::Action: DeserializeOwned,
{
    /// Open the learner of `run`: resume from its state, or start at version 0 from the
    /// configured initial network. `shape` is the game's tensor shape.
    pub fn open(
        run: &Path,
        config: &SelfPlayConfig,
        source: &'a dyn GameSource<G>,
        shape: &agents::TensorShape,
    ) -> Result<Learner<'a, G>, String> {
        let device = crate::network::compute::device().autodiff();
        let dir = run.join("checkpoints");
        let metrics = Metrics::open(run).map_err(|e| format!("{}: {e}", run.display()))?;
        let mut learner = match read_state(run)? {
            Some(state) => {
                let found = dir.join(&state.version);
                let (net, meta, _) = checkpoint::load_network(&found, &device).map_err(|e| e.to_string())?;
                meta.check_shape(shape)?;
                let optimizer = if found.join("optim.bpk").is_file() {
                    checkpoint::load_optimizer(&found, optimizer(config)).map_err(|e| e.to_string())?
                } else {
                    optimizer(config)
                };
                Learner {
                    run: run.into(),
                    config: config.clone(),
                    source,
                    state,
                    net,
                    optimizer,
                    window: VecDeque::new(),
                    metrics,
                    device,
                    buffers: InputBuffers::default(),
                    net_config: meta.config.net,
                }
            }
            None => {
                let (net, net_config) = if config.init.is_empty() {
                    (PolicyValueNet::seeded(&config.net, shape, &device, config.seed), config.net.clone())
                } else {
                    let (net, meta, found) = checkpoint::load_network(Path::new(&config.init), &device)
                        .map_err(|e| format!("init: {e}"))?;
                    meta.check_shape(shape).map_err(|e| format!("init: {}: {e}", found.display()))?;
                    (net, meta.config.net)
                };
                let mut learner = Learner {
                    run: run.into(),
                    config: config.clone(),
                    source,
                    state: LearnerState::default(),
                    net,
                    optimizer: optimizer(config),
                    window: VecDeque::new(),
                    metrics,
                    device,
                    buffers: InputBuffers::default(),
                    net_config,
                };
                if config.learner.margin_weight > 0.0 && !learner.net_config.margin {
                    return Err(format!(
                        "learner.margin_weight: the network ({}) has no margin head (net.margin)",
                        if config.init.is_empty() { "net" } else { config.init.as_str() }
                    ));
                }
                learner.publish(shape)?;
                learner.state.best = learner.state.version.clone();
                learner.save_state()?;
                learner
            }
        };
        learner.rebuild_window()?;
        Ok(learner)
    }

    /// Whether training is over.
    pub fn done(&self) -> bool {
        self.state.step >= self.config.learner.steps
    }

    /// Positions in the replay window.
    pub fn window_len(&self) -> usize {
        self.window.len()
    }

    /// The folder of the latest version.
    pub fn latest(&self) -> PathBuf {
        self.run.join("checkpoints").join(&self.state.version)
    }

    fn save_state(&self) -> Result<(), String> {
        let text = serde_json::to_string_pretty(&self.state).map_err(|e| e.to_string())?;
        engine::record::write_atomic(&state_path(&self.run), text.as_bytes()).map_err(|e| e.to_string())
    }

    /// Save the current weights and optimiser as a new version.
    fn publish(&mut self, shape: &agents::TensorShape) -> Result<(), String> {
        let config = Config { seed: self.config.seed, net: self.net_config.clone(), ..Config::default() };
        let meta = Meta {
            format: checkpoint::FORMAT,
            step: self.state.step,
            config,
            planes: shape.planes,
            globals: shape.globals,
            policy_planes: shape.policy_planes,
            policy_globals: shape.policy_globals,
            parameters: self.net.parameters(),
        };
        let dir = self.run.join("checkpoints");
        let saved = checkpoint::save(&dir, &self.net.valid(), Some(&self.optimizer), &meta)
            .map_err(|e| e.to_string())?;
        self.state.version = saved.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.state.versions += 1;
        Ok(())
    }

    fn add_games(&mut self, games: &[PlayedGame<G::Action>]) -> Result<usize, String> {
        let mut added = 0;
        for g in games {
            let samples = samples_of(self.source, g, self.config.learner.value_lambda as f32)?;
            added += samples.len();
            self.window.extend(samples);
        }
        while self.window.len() > self.config.learner.window {
            self.window.pop_front();
        }
        Ok(added)
    }

    /// Refill the window from the newest consumed shards (after a restart).
    fn rebuild_window(&mut self) -> Result<(), String> {
        let mut shards: Vec<Vec<PlayedGame<G::Action>>> = Vec::new();
        let mut positions = 0usize;
        for name in self.state.consumed.iter().rev() {
            if positions >= self.config.learner.window {
                break;
            }
            let games: Vec<PlayedGame<G::Action>> = read_shard(&shards_dir(&self.run).join(name))?;
            positions += games.iter().map(|g| g.targets.len()).sum::<usize>();
            shards.push(games);
        }
        for games in shards.iter().rev() {
            self.add_games(games)?;
        }
        Ok(())
    }

    /// Log an actor's figures for a shard at the current step.
    pub fn log_actor(
        &mut self,
        stats: &crate::selfplay::actor::BatchStats,
        games: usize,
        cache_hit_rate: f64,
    ) -> Result<(), String> {
        let t = stats.seconds.max(1e-9);
        self.metrics
            .log(
                self.state.step,
                &[
                    ("selfplay/games_per_second", games as f64 / t),
                    ("selfplay/decisions_per_second", stats.decisions as f64 / t),
                    ("selfplay/evaluations_per_second", stats.positions as f64 / t),
                    ("selfplay/forward_passes_per_second", stats.forward_passes as f64 / t),
                    ("selfplay/mean_batch", stats.positions as f64 / stats.forward_passes.max(1) as f64),
                    ("selfplay/cache_hit_rate", cache_hit_rate),
                ],
            )
            .map_err(|e| format!("metrics: {e}"))
    }

    /// Read every shard not read before, in name order; returns the new positions.
    pub fn ingest(&mut self) -> Result<usize, String> {
        let known: std::collections::HashSet<&String> = self.state.consumed.iter().collect();
        let new: Vec<String> = shard_names(&self.run)?.into_iter().filter(|n| !known.contains(n)).collect();
        let mut added = 0;
        for name in new {
            let games: Vec<PlayedGame<G::Action>> = read_shard(&shards_dir(&self.run).join(&name))?;
            let n = self.add_games(&games)?;
            added += n;
            self.state.games += games.len() as u64;
            self.state.plies += games.iter().map(|g| g.actions.len() as u64).sum::<u64>();
            self.state.positions += n as u64;
            self.state.consumed.push(name);
        }
        Ok(added)
    }

    /// Steps the sample ratio allows now.
    pub fn steps_allowed(&self) -> u64 {
        let l = &self.config.learner;
        if self.window.len() < l.min_positions.max(1) {
            return 0;
        }
        let budget = l.max_sample_ratio * self.state.positions as f64 - self.state.samples as f64;
        ((budget / l.batch as f64).max(0.0) as u64).min(l.steps - self.state.step.min(l.steps))
    }

    /// Train for the steps allowed (at most `limit`), publishing versions on the way and
    /// running `evaluate` on every `eval.every_versions`-th; returns the steps taken.
    pub fn train_allowed(&mut self, limit: u64, evaluate: Option<&EvalFn<'_>>) -> Result<u64, String> {
        let steps = self.steps_allowed().min(limit);
        if steps == 0 {
            return Ok(0);
        }
        let samples: Vec<Sample<G>> = self.window.iter().cloned().collect();
        let groups = buckets(&samples);
        let shape = groups[0].0;
        let l = self.config.learner.clone();
        let mut started = Instant::now();
        let (mut loss, mut policy, mut value, mut entropy, mut n) = (0.0, 0.0, 0.0, 0.0, 0u64);
        for _ in 0..steps {
            let lr = if self.state.step < l.warmup {
                l.lr * (self.state.step + 1) as f64 / l.warmup as f64
            } else {
                l.lr
            };
            let (b, indices) = batch_indices(&groups, &[], self.config.seed, self.state.step, l.batch);
            let batch = batch_tensors(&samples, &indices, &groups[b].0, &mut self.buffers, &self.device);
            let out =
                losses(&self.net, &batch, LossWeights::new(l.value_weight, l.margin_weight), &self.device);
            policy += out.policy.clone().into_scalar::<f32>() as f64;
            value += out.value.clone().into_scalar::<f32>() as f64;
            let p = softmax(out.logits.clone(), 1);
            let plogp = (p.clone() * p.clamp_min(1e-12).log()).sum_dim(1).mean().neg();
            entropy += plogp.into_scalar::<f32>() as f64;
            let grads = GradientsParams::from_grads(out.total.clone().backward(), &self.net);
            loss += out.total.into_scalar::<f32>() as f64;
            self.net = self.optimizer.step(lr, self.net.clone(), grads);
            self.state.step += 1;
            self.state.samples += l.batch as u64;
            n += 1;
            if self.state.step.is_multiple_of(l.log_every) {
                let k = n as f64;
                let rate = (n * l.batch as u64) as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let mean_length = self.state.plies as f64 / self.state.games.max(1) as f64;
                self.metrics
                    .log(
                        self.state.step,
                        &[
                            ("train/loss", loss / k),
                            ("train/policy_loss", policy / k),
                            ("train/value_loss", value / k),
                            ("train/policy_entropy", entropy / k),
                            ("train/learning_rate", lr),
                            ("train/positions_per_second", rate),
                            ("selfplay/games", self.state.games as f64),
                            ("selfplay/positions", self.state.positions as f64),
                            ("selfplay/mean_game_length", mean_length),
                            ("selfplay/window", self.window.len() as f64),
                            (
                                "selfplay/sample_ratio",
                                self.state.samples as f64 / self.state.positions.max(1) as f64,
                            ),
                        ],
                    )
                    .map_err(|e| format!("metrics: {e}"))?;
                (loss, policy, value, entropy, n) = (0.0, 0.0, 0.0, 0.0, 0);
                started = Instant::now();
            }
            if self.state.step.is_multiple_of(l.checkpoint_every) || self.state.step == l.steps {
                self.publish(&shape)?;
                self.save_state()?;
                let e = &self.config.eval;
                if let Some(evaluate) = evaluate.filter(|_| {
                    e.every_versions > 0 && (self.state.versions - 1).is_multiple_of(e.every_versions)
                }) {
                    let best = self.run.join("checkpoints").join(&self.state.best);
                    let previous = (self.state.best != self.state.version).then_some(best.as_path());
                    let report = evaluate(&self.latest(), previous);
                    let mut scalars: Vec<(String, f64)> = Vec::new();
                    for (name, score, [lo, hi]) in &report.scores {
                        scalars.push((format!("eval/vs_{name}"), *score));
                        scalars.push((format!("eval/vs_{name}_low"), *lo));
                        scalars.push((format!("eval/vs_{name}_high"), *hi));
                    }
                    let refs: Vec<(&str, f64)> = scalars.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                    self.metrics.log(self.state.step, &refs).map_err(|e| format!("metrics: {e}"))?;
                    if let Some(games) = report.gate_games {
                        scalars.clear();
                        scalars.push(("eval/gate_games".into(), games as f64));
                        scalars.push(("eval/promoted".into(), report.promote as u8 as f64));
                        let refs: Vec<(&str, f64)> = scalars.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                        self.metrics.log(self.state.step, &refs).map_err(|e| format!("metrics: {e}"))?;
                    }
                    if report.promote || previous.is_none() {
                        self.state.best = self.state.version.clone();
                        self.save_state()?;
                    }
                }
                started = Instant::now();
            }
        }
        Ok(steps)
    }
}
