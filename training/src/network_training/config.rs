//! Training configuration: the network's sizes, the expert games to learn from, and the
//! optimiser and schedule, read from a TOML file (see `configs/training/bootstrap.toml`).
//! Every field is checked; an error names the file, the field and the reason.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A bad configuration: which file, which field, why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {field}: {reason}")]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// The field (`train.lr`), or `(file)` / `(toml)`.
    pub field: String,
    /// What is wrong.
    pub reason: String,
}

/// Sizes of the policy/value network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Channels of the residual trunk.
    pub channels: usize,
    /// Residual blocks (two 3×3 convolutions each).
    pub blocks: usize,
    /// Width of the hidden layer of the global policy head (and, in the first architecture,
    /// of the value head, which shares it).
    pub hidden: usize,
    /// Global pooling inside the trunk (KataGo): each residual block pools its first
    /// convolution's output (mean and max over the real cells) and adds a linear map of
    /// them to every cell's channels before its second convolution, so every cell sees the
    /// whole board. False (the first architecture, the shipped checkpoints): no pooling.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pooling: bool,
    /// Width of the value head's own hidden layer, fed by the trunk's mean and max over the
    /// real cells and the globals; 0 (the first architecture): the value head takes the
    /// policy's hidden layer (the trunk's mean over every cell, padding included).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub value_hidden: usize,
    /// An auxiliary head beside the value on the value head's hidden layer: the final
    /// victory-point margin of the player to move, squashed to [-1, 1] (see
    /// [`crate::network_training::sample::margin_target`]). Needs `value_hidden`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub margin: bool,
    /// The observation plane that is 1 on real cells and 0 on padding (TDE: 0, the board
    /// plane), over whose cells pooling runs; none: every cell counts. Used only by
    /// `pooling` and `value_hidden`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask_plane: Option<usize>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            channels: 32,
            blocks: 2,
            hidden: 64,
            pooling: false,
            value_hidden: 0,
            margin: false,
            mask_plane: None,
        }
    }
}

impl NetConfig {
    /// Whether this is the second architecture (pooling or a value head of its own).
    pub fn is_v2(&self) -> bool {
        self.pooling || self.value_hidden > 0
    }
}

/// The expert games to generate and learn from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataConfig {
    /// Number of games.
    pub games: usize,
    /// Games per shard file.
    pub games_per_shard: usize,
    /// Scenario names (`skirmish`, `assassinate`, ...), or `["all"]` for the five scenarios.
    pub scenarios: Vec<String>,
    /// Board names, or `["all"]` for every board in `configs/boards/`.
    pub boards: Vec<String>,
    /// Crew names, or `["all"]` for every crew in `configs/crews/`.
    pub crews: Vec<String>,
    /// Agent specs playing the games (each game draws one per side), e.g. `scripted` or
    /// `mcts:iters=100,rollout=scripted`.
    pub agents: Vec<String>,
    /// Opponents of the `agents` (each game draws one, and which side it plays): only the
    /// `agents`' decisions become targets, so the network learns how an expert beats weaker
    /// play without imitating the weaker player. Empty: `agents` play each other and both
    /// sides' decisions are targets.
    #[serde(default)]
    pub opponents: Vec<String>,
    /// Whether the `opponents`' decisions become value-only samples: their moves are not
    /// imitated, but their games' results teach the value head from both sides' view. Without
    /// them the value head sees mostly the expert winning against weaker play, and learns that
    /// the player to move usually wins.
    #[serde(default)]
    pub value_from_opponents: bool,
    /// Keep every this-many-th sample of a game (1: all). Positions of one game are much
    /// alike and share one result, so for a given training budget, more games with fewer
    /// positions each teach the value head more.
    #[serde(default = "one")]
    pub every: usize,
    /// DAgger: an agent spec (typically `policy:checkpoint=...`, the network being trained)
    /// that plays the experts' moves in a share of their decisions while the expert's choice
    /// stays the target, so the network also learns how to recover from the positions its own
    /// play leads to, which pure imitation never shows it. None: the experts play every move.
    #[serde(default)]
    pub driver: Option<String>,
    /// Probability, per expert decision, that the `driver`'s action is played instead of the
    /// expert's, in [0, 1].
    #[serde(default)]
    pub driver_share: f64,
    /// Rollouts per kept position (0: none). With rollouts, a position's value target is the
    /// mean return, for its mover, of this many games played on from it by `rollout_agent`
    /// on both sides, instead of its own game's one result: the value MCTS with those
    /// rollouts estimates, with most of the dice's noise averaged away. Computed when the
    /// games are played and stored in the shards.
    #[serde(default)]
    pub value_rollouts: u32,
    /// The agent spec playing both sides of the rollouts.
    #[serde(default = "scripted")]
    pub rollout_agent: String,
    /// Children per kept position (0: none), with `value_rollouts`: the positions after the
    /// action played and after others drawn at random from the legal ones, dice drawn, each a
    /// value-only sample with its own rollout target. Search compares exactly such siblings,
    /// so the value head sees positions one action apart and what the action changed.
    #[serde(default)]
    pub value_children: usize,
    /// Which actions give the children after the one played: `random` (the default), drawn at
    /// random from the legal ones, or `likely`, the expert's most probable others by its
    /// target (ties in a random order; with a one-action target, as `random`). `likely`
    /// gives the siblings search compares, the plausible actions, rather than any.
    #[serde(default, skip_serializing_if = "ChildOrder::is_random")]
    pub children: ChildOrder,
    /// λ of the TD(λ) value targets along a game's kept decisions, bootstrapped from their
    /// rollout means (needs `value_rollouts`; see [`crate::network_training::sample::lambda_returns`]):
    /// 1 (the default) keeps each decision's own target, below 1 mixes in the later
    /// decisions' rollout means and, at the end, the game's result.
    #[serde(default = "lambda_one", skip_serializing_if = "is_one")]
    pub value_lambda: f64,
    /// Share of the games held out for validation, in [0, 0.5].
    pub validation: f64,
}

fn lambda_one() -> f64 {
    1.0
}

pub(crate) fn is_one(x: &f64) -> bool {
    *x == 1.0
}

fn scripted() -> String {
    "scripted".into()
}

impl Default for DataConfig {
    fn default() -> Self {
        DataConfig {
            games: 200,
            games_per_shard: 25,
            scenarios: vec!["all".into()],
            boards: vec!["all".into()],
            crews: vec!["all".into()],
            agents: vec!["scripted".into()],
            opponents: Vec::new(),
            value_from_opponents: false,
            every: 1,
            driver: None,
            driver_share: 0.0,
            value_rollouts: 0,
            rollout_agent: scripted(),
            value_children: 0,
            children: ChildOrder::Random,
            value_lambda: 1.0,
            validation: 0.1,
        }
    }
}

/// How the children of a kept decision are chosen, after the action played
/// ([`DataConfig::children`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChildOrder {
    /// Drawn at random from the legal actions.
    #[default]
    Random,
    /// The expert's most probable actions by its target.
    Likely,
}

impl ChildOrder {
    fn is_random(&self) -> bool {
        *self == ChildOrder::Random
    }
}

fn one() -> usize {
    1
}

/// Learning-rate schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// The same rate throughout (after the warm-up).
    Constant,
    /// Cosine decay from `lr` to `lr / 20` over the run (after the warm-up).
    Cosine,
}

/// The optimiser, schedule and bookkeeping of training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// A checkpoint whose weights the run starts from (its `net` sizes must be these), instead
    /// of fresh random weights; the optimiser and the step count start afresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<String>,
    /// Positions per step.
    pub batch: usize,
    /// Optimiser steps in all.
    pub steps: u64,
    /// Peak learning rate (Adam).
    pub lr: f64,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// Steps of linear warm-up.
    pub warmup: u64,
    /// L2 weight decay.
    pub weight_decay: f64,
    /// Weight of the value loss beside the policy loss.
    pub value_weight: f64,
    /// Weight of the margin head's loss (needs `net.margin`; 0: the head is not trained).
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub margin_weight: f64,
    /// Weight of the sibling loss (0: none): among the children of one decision
    /// (`data.value_children`) drawn into a batch together, the squared error between the
    /// head's and the rollouts' differences, seen from the deciding player (see
    /// [`crate::network_training::siblings`]). It teaches the order among siblings, which the value
    /// loss leaves to the small part of its error that siblings do not share.
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub sibling_weight: f64,
    /// Log metrics every this many steps.
    pub log_every: u64,
    /// Write a checkpoint every this many steps.
    pub checkpoint_every: u64,
    /// Play the evaluation games every this many steps (0: never).
    pub eval_every: u64,
    /// Evaluation games against each opponent (sides alternate).
    pub eval_games: usize,
    /// Opponents of the evaluation games.
    pub eval_opponents: Vec<String>,
    /// Validation positions scored at each log (at most).
    pub validation_positions: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            init: None,
            batch: 64,
            steps: 2000,
            lr: 1e-3,
            schedule: Schedule::Cosine,
            warmup: 50,
            weight_decay: 1e-4,
            value_weight: 1.0,
            margin_weight: 0.0,
            sibling_weight: 0.0,
            log_every: 25,
            checkpoint_every: 100,
            eval_every: 0,
            eval_games: 10,
            eval_opponents: vec!["greedy".into(), "scripted".into()],
            validation_positions: 512,
        }
    }
}

/// A whole training configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Seed of every random choice (games, initial weights, batches).
    #[serde(default)]
    pub seed: u64,
    /// Network sizes.
    #[serde(default)]
    pub net: NetConfig,
    /// Expert games.
    #[serde(default)]
    pub data: DataConfig,
    /// Optimisation.
    #[serde(default)]
    pub train: TrainConfig,
}

/// Read a configuration file's text; an I/O error names the file.
pub(crate) fn read_text(path: &Path) -> Result<(String, String), ConfigError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: file.clone(),
        field: "(file)".into(),
        reason: e.to_string(),
    })?;
    Ok((text, file))
}

/// Parse configuration text of any shape; a syntax or shape error names the file.
pub(crate) fn parse_text<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| ConfigError {
        file: file.into(),
        field: "(toml)".into(),
        reason: e.to_string(),
    })
}

impl Config {
    /// Read and check a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let (text, file) = read_text(path)?;
        Config::parse(&text, &file)
    }

    /// Parse and check configuration text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let config: Config = parse_text(text, file)?;
        config.check(file)?;
        Ok(config)
    }

    /// Check every field's range.
    pub fn check(&self, file: &str) -> Result<(), ConfigError> {
        let bad =
            |field: &str, reason: String| Err(ConfigError { file: file.into(), field: field.into(), reason });
        let (n, d, t) = (&self.net, &self.data, &self.train);
        if !(1..=256).contains(&n.channels) {
            return bad("net.channels", format!("{} is not in 1..=256", n.channels));
        }
        if n.blocks > 32 {
            return bad("net.blocks", format!("{} is more than 32", n.blocks));
        }
        if !(1..=4096).contains(&n.hidden) {
            return bad("net.hidden", format!("{} is not in 1..=4096", n.hidden));
        }
        if n.value_hidden > 4096 {
            return bad("net.value_hidden", format!("{} is not in 0..=4096", n.value_hidden));
        }
        if n.margin && n.value_hidden == 0 {
            return bad(
                "net.margin",
                "the margin head sits on the value head's own layer: set net.value_hidden".into(),
            );
        }
        if n.mask_plane.is_some() && !n.is_v2() {
            return bad(
                "net.mask_plane",
                "only pooling and value_hidden use the mask: set one of them".into(),
            );
        }
        if !(1..=1_000_000).contains(&d.games) {
            return bad("data.games", format!("{} is not in 1..=1000000", d.games));
        }
        if !(1..=10_000).contains(&d.games_per_shard) {
            return bad("data.games_per_shard", format!("{} is not in 1..=10000", d.games_per_shard));
        }
        for (field, list) in [
            ("data.scenarios", &d.scenarios),
            ("data.boards", &d.boards),
            ("data.crews", &d.crews),
            ("data.agents", &d.agents),
        ] {
            if list.is_empty() {
                return bad(field, "must name at least one".into());
            }
        }
        if d.opponents.iter().any(|o| o.trim().is_empty()) {
            return bad("data.opponents", "an opponent spec is empty".into());
        }
        if d.value_from_opponents && d.opponents.is_empty() {
            return bad(
                "data.value_from_opponents",
                "there are no data.opponents to learn values from".into(),
            );
        }
        if d.driver.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return bad("data.driver", "the agent spec is empty".into());
        }
        if !(0.0..=1.0).contains(&d.driver_share) {
            return bad("data.driver_share", format!("{} is not in [0, 1]", d.driver_share));
        }
        if d.driver.is_none() && d.driver_share > 0.0 {
            return bad("data.driver_share", "set data.driver, the agent that plays that share".into());
        }
        if d.value_rollouts > 1000 {
            return bad("data.value_rollouts", format!("{} is not in 0..=1000", d.value_rollouts));
        }
        if d.value_children > 64 {
            return bad("data.value_children", format!("{} is not in 0..=64", d.value_children));
        }
        if d.value_children > 0 && d.value_rollouts == 0 {
            return bad(
                "data.value_children",
                "children learn rollout values: set data.value_rollouts".into(),
            );
        }
        if !(0.0..=1.0).contains(&d.value_lambda) {
            return bad("data.value_lambda", format!("{} is not in [0, 1]", d.value_lambda));
        }
        if d.value_lambda < 1.0 && d.value_rollouts == 0 {
            return bad(
                "data.value_lambda",
                "bootstrapping needs estimates along the game: set data.value_rollouts".into(),
            );
        }
        if d.rollout_agent.trim().is_empty() {
            return bad("data.rollout_agent", "the agent spec is empty".into());
        }
        if !(1..=1000).contains(&d.every) {
            return bad("data.every", format!("{} is not in 1..=1000", d.every));
        }
        if !(0.0..=0.5).contains(&d.validation) {
            return bad("data.validation", format!("{} is not in [0, 0.5]", d.validation));
        }
        if !(1..=4096).contains(&t.batch) {
            return bad("train.batch", format!("{} is not in 1..=4096", t.batch));
        }
        if t.steps == 0 || t.steps > 100_000_000 {
            return bad("train.steps", format!("{} is not in 1..=100000000", t.steps));
        }
        if !(t.lr.is_finite() && t.lr > 0.0 && t.lr < 1.0) {
            return bad("train.lr", format!("{} is not in (0, 1)", t.lr));
        }
        if !(t.weight_decay.is_finite() && (0.0..1.0).contains(&t.weight_decay)) {
            return bad("train.weight_decay", format!("{} is not in [0, 1)", t.weight_decay));
        }
        if !(t.value_weight.is_finite() && (0.0..=100.0).contains(&t.value_weight)) {
            return bad("train.value_weight", format!("{} is not in [0, 100]", t.value_weight));
        }
        if !(t.margin_weight.is_finite() && (0.0..=100.0).contains(&t.margin_weight)) {
            return bad("train.margin_weight", format!("{} is not in [0, 100]", t.margin_weight));
        }
        if !(t.sibling_weight.is_finite() && (0.0..=100.0).contains(&t.sibling_weight)) {
            return bad("train.sibling_weight", format!("{} is not in [0, 100]", t.sibling_weight));
        }
        if t.sibling_weight > 0.0 && d.value_children < 2 {
            return bad(
                "train.sibling_weight",
                "siblings come from data.value_children: set it to 2 or more".into(),
            );
        }
        if t.margin_weight > 0.0 && !n.margin {
            return bad("train.margin_weight", "the network has no margin head: set net.margin".into());
        }
        for (field, v) in [("train.log_every", t.log_every), ("train.checkpoint_every", t.checkpoint_every)] {
            if v == 0 {
                return bad(field, "must be at least 1".into());
            }
        }
        if t.init.as_deref().is_some_and(|p| p.trim().is_empty()) {
            return bad("train.init", "the checkpoint path is empty".into());
        }
        if t.eval_every > 0 && (t.eval_games == 0 || t.eval_opponents.is_empty()) {
            return bad("train.eval_games", "evaluation needs games and opponents".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_fields_are_named() {
        Config::default().check("x").unwrap();
        let e = Config::parse("[train]\nlr = -1.0\nbatch = 8\nsteps = 10\nschedule = \"cosine\"\nwarmup = 0\nweight_decay = 0.0\nvalue_weight = 1.0\nlog_every = 1\ncheckpoint_every = 1\neval_every = 0\neval_games = 0\neval_opponents = []\nvalidation_positions = 1\n", "c.toml")
            .unwrap_err();
        assert_eq!((e.file.as_str(), e.field.as_str()), ("c.toml", "train.lr"));
        let e = Config::parse("[net]\nchannels = 0\nblocks = 1\nhidden = 8\n", "c.toml").unwrap_err();
        assert_eq!(e.field, "net.channels");
        let e = Config::parse("[net]\nwidth = 3\n", "c.toml").unwrap_err();
        assert_eq!(e.field, "(toml)");
        assert!(e.reason.contains("width"), "{e}");
    }
}
