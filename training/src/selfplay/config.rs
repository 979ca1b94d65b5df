//! The self-play configuration (`configs/training/selfplay.toml`): the network to start from,
//! the search the actors play with, the games they play, the learner's optimiser, replay
//! window and sample ratio, and the evaluation arena. Every field is checked; an error names
//! the file, the field and the reason.

use crate::gate::sprt::{Gate, Sprt, MIN_FIXED_GAMES};
use crate::network_training::config::{is_one, parse_text, read_text, ConfigError, NetConfig};
use agents::AzConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The search of the actors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchConfig {
    /// Search spec as `az:` takes it, e.g. `sims=16,root=gumbel,considered=8,noise=1`.
    pub spec: String,
    /// KataGo's playout-cap randomisation: the share of decisions, drawn at random, searched
    /// with `spec` and kept as training targets; the rest are searched with `fast_spec` and
    /// only played. 1 (the default): every decision in full.
    #[serde(default = "full_share_default", skip_serializing_if = "is_full_share_default")]
    pub full_share: f64,
    /// The cheaper search of the decisions not searched in full (needed when `full_share` is
    /// below 1), as `az:` takes it, e.g. `sims=4,root=gumbel,considered=4,noise=1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fast_spec: String,
}

fn full_share_default() -> f64 {
    1.0
}

fn is_full_share_default(share: &f64) -> bool {
    *share == 1.0
}

/// The games the actors play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorConfig {
    /// Games played at once by one actor, their leaves evaluated in one batch; also the games
    /// of one shard file.
    pub parallel_games: usize,
    /// Scenario names, or `["all"]` (TDE).
    pub scenarios: Vec<String>,
    /// Board names, or `["all"]` (TDE).
    pub boards: Vec<String>,
    /// Crew names, or `["all"]` (TDE).
    pub crews: Vec<String>,
    /// Entries of the evaluation cache (positions already judged by the current network).
    pub cache: usize,
}

/// The learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnerConfig {
    /// Positions per step.
    pub batch: usize,
    /// Optimiser steps in all; actors stop once the learner has taken them.
    pub steps: u64,
    /// Learning rate (Adam, constant after the warm-up).
    pub lr: f64,
    /// Steps of linear warm-up.
    pub warmup: u64,
    /// L2 weight decay.
    pub weight_decay: f64,
    /// Weight of the value loss beside the policy loss.
    pub value_weight: f64,
    /// Weight of the margin head's loss (needs a network with a margin head; 0: untrained).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub margin_weight: f64,
    /// λ of the TD(λ) value targets, bootstrapped from the searches' root values along the
    /// game ([`crate::network_training::sample::lambda_returns`]): 1 (the default) is the final
    /// result for every position.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub value_lambda: f64,
    /// Replay window: the newest positions kept to train on.
    pub window: usize,
    /// Positions needed before the first step.
    pub min_positions: usize,
    /// Training samples drawn per new position, at most (KataGo keeps it near 4).
    pub max_sample_ratio: f64,
    /// A new network version every this many steps.
    pub checkpoint_every: u64,
    /// Log metrics every this many steps.
    pub log_every: u64,
}

/// The evaluation arena of new versions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalConfig {
    /// Evaluate every this many versions (0: never).
    pub every_versions: u64,
    /// Games against each opponent (sides alternate).
    pub games: usize,
    /// Opponents besides the previous best version, e.g. `scripted`.
    pub opponents: Vec<String>,
    /// The new version's search in these games, as `az:` takes it (e.g. `sims=4`); empty:
    /// the actors' search without its noise. Used when `agent` is empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub search: String,
    /// The agent the network is meant for, as an agent spec with `{net}` where the
    /// checkpoint goes (`policy:checkpoint={net}`: the network alone); it plays the new and
    /// the best version in the promotion games and the new one against `opponents`. Empty:
    /// `az` with `search`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub agent: String,
    /// The promotion games against the best version: the most played, and all of them without
    /// `sprt` (then at least 400, and the new version is promoted when its Wilson 95%
    /// interval lies above one half).
    #[serde(default = "gate_games_default")]
    pub gate_games: usize,
    /// A sequential probability ratio test deciding promotion as soon as the games allow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
}

fn gate_games_default() -> usize {
    MIN_FIXED_GAMES
}

fn one() -> f64 {
    1.0
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl EvalConfig {
    /// The promotion gate.
    pub fn gate(&self) -> Gate {
        Gate { max_games: self.gate_games, sprt: self.sprt }
    }

    /// The agent spec of the evaluation games for the network at `net`: `agent` with `{net}`
    /// replaced, else `az` with `search` (`search` being the resolved search spec).
    pub fn agent_for(&self, net: &Path, search: &str) -> String {
        if self.agent.is_empty() {
            format!("az:net={},{search}", net.display())
        } else {
            self.agent.replace("{net}", &net.display().to_string())
        }
    }
}

/// A whole self-play configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Seed of every random choice.
    pub seed: u64,
    /// The checkpoint to start from (its network sizes are used); empty: fresh weights of
    /// `net`.
    #[serde(default)]
    pub init: String,
    /// Network sizes for a fresh start (ignored with `init`).
    #[serde(default)]
    pub net: NetConfig,
    /// The actors' search.
    pub search: SearchConfig,
    /// The actors' games.
    pub actors: ActorConfig,
    /// The learner.
    pub learner: LearnerConfig,
    /// The evaluation arena.
    pub eval: EvalConfig,
}

impl SelfPlayConfig {
    /// Read and check a configuration file.
    pub fn load(path: &Path) -> Result<SelfPlayConfig, ConfigError> {
        let (text, file) = read_text(path)?;
        SelfPlayConfig::parse(&text, &file)
    }

    /// Parse and check configuration text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SelfPlayConfig, ConfigError> {
        let config: SelfPlayConfig = parse_text(text, file)?;
        config.check(file)?;
        Ok(config)
    }

    /// The actors' full search settings.
    pub fn search(&self) -> AzConfig {
        AzConfig::parse(&self.search.spec).expect("checked when loaded")
    }

    /// The actors' searches: the full one, and the fast one with the share searched in full
    /// when a playout cap is set.
    pub fn actor_search(&self) -> ActorSearch {
        let fast = (self.search.full_share < 1.0).then(|| {
            (AzConfig::parse(&self.search.fast_spec).expect("checked when loaded"), self.search.full_share)
        });
        ActorSearch { full: self.search(), fast }
    }

    /// The search of the evaluation games: `eval.search`, else the actors' search, with no
    /// Gumbel noise either way.
    pub fn eval_search(&self) -> AzConfig {
        let mut search = if self.eval.search.is_empty() {
            self.search()
        } else {
            AzConfig::parse(&self.eval.search).expect("checked when loaded")
        };
        if let agents::RootRule::Gumbel { noise, .. } = &mut search.root {
            *noise = false;
        }
        search
    }

    /// Check every field's range.
    pub fn check(&self, file: &str) -> Result<(), ConfigError> {
        let bad =
            |field: &str, reason: String| Err(ConfigError { file: file.into(), field: field.into(), reason });
        if let Err(e) = AzConfig::parse(&self.search.spec) {
            return bad("search.spec", e);
        }
        let share = self.search.full_share;
        if !(share.is_finite() && share > 0.0 && share <= 1.0) {
            return bad("search.full_share", format!("{share} is not in (0, 1]"));
        }
        match (share < 1.0, self.search.fast_spec.is_empty()) {
            (true, true) => {
                return bad("search.fast_spec", "needed when full_share is below 1".into());
            }
            (false, false) => {
                return bad("search.fast_spec", "used only when full_share is below 1".into());
            }
            (true, false) => {
                if let Err(e) = AzConfig::parse(&self.search.fast_spec) {
                    return bad("search.fast_spec", e);
                }
            }
            (false, true) => {}
        }
        if !self.eval.search.is_empty() {
            if let Err(e) = AzConfig::parse(&self.eval.search) {
                return bad("eval.search", e);
            }
        }
        let (a, l, e) = (&self.actors, &self.learner, &self.eval);
        if !(1..=4096).contains(&a.parallel_games) {
            return bad("actors.parallel_games", format!("{} is not in 1..=4096", a.parallel_games));
        }
        for (field, list) in
            [("actors.scenarios", &a.scenarios), ("actors.boards", &a.boards), ("actors.crews", &a.crews)]
        {
            if list.is_empty() {
                return bad(field, "must name at least one".into());
            }
        }
        if !(1..=4096).contains(&l.batch) {
            return bad("learner.batch", format!("{} is not in 1..=4096", l.batch));
        }
        if l.steps == 0 || l.steps > 100_000_000 {
            return bad("learner.steps", format!("{} is not in 1..=100000000", l.steps));
        }
        if !(l.lr.is_finite() && l.lr > 0.0 && l.lr < 1.0) {
            return bad("learner.lr", format!("{} is not in (0, 1)", l.lr));
        }
        if !(l.weight_decay.is_finite() && (0.0..1.0).contains(&l.weight_decay)) {
            return bad("learner.weight_decay", format!("{} is not in [0, 1)", l.weight_decay));
        }
        if !(l.value_weight.is_finite() && (0.0..=100.0).contains(&l.value_weight)) {
            return bad("learner.value_weight", format!("{} is not in [0, 100]", l.value_weight));
        }
        if l.window == 0 || l.min_positions > l.window {
            return bad(
                "learner.window",
                format!("{} must be at least 1 and min_positions ({})", l.window, l.min_positions),
            );
        }
        if !(l.max_sample_ratio.is_finite() && l.max_sample_ratio > 0.0 && l.max_sample_ratio <= 1000.0) {
            return bad("learner.max_sample_ratio", format!("{} is not in (0, 1000]", l.max_sample_ratio));
        }
        for (field, v) in
            [("learner.checkpoint_every", l.checkpoint_every), ("learner.log_every", l.log_every)]
        {
            if v == 0 {
                return bad(field, "must be at least 1".into());
            }
        }
        if e.every_versions > 0 && e.games == 0 {
            return bad("eval.games", "evaluation needs at least one game".into());
        }
        if !(l.margin_weight.is_finite() && (0.0..=100.0).contains(&l.margin_weight)) {
            return bad("learner.margin_weight", format!("{} is not in [0, 100]", l.margin_weight));
        }
        if !(0.0..=1.0).contains(&l.value_lambda) {
            return bad("learner.value_lambda", format!("{} is not in [0, 1]", l.value_lambda));
        }
        if !e.agent.is_empty() && !e.agent.contains("{net}") {
            return bad("eval.agent", format!("`{}` has no `{{net}}` for the checkpoint", e.agent));
        }
        if !e.agent.is_empty() && !e.search.is_empty() {
            return bad(
                "eval.search",
                "used only without eval.agent (put the search in the agent spec)".into(),
            );
        }
        if e.gate_games > 1_000_000 {
            return bad("eval.gate_games", format!("{} is more than 1000000", e.gate_games));
        }
        match &e.sprt {
            None if e.gate_games < MIN_FIXED_GAMES => {
                return bad(
                    "eval.gate_games",
                    format!(
                        "{} games cannot tell a 55% version from an equal one (±{:.0} points): play at \
                         least {MIN_FIXED_GAMES}, or set [eval.sprt]",
                        e.gate_games,
                        100.0 * 1.96 * (0.25 / e.gate_games.max(1) as f64).sqrt()
                    ),
                );
            }
            Some(test) => {
                if let Err((field, reason)) = test.check() {
                    return bad(&format!("eval.sprt.{field}"), reason);
                }
                if e.gate_games < 2 {
                    return bad("eval.gate_games", "a sequential test needs at least 2 games".into());
                }
            }
            None => {}
        }
        Ok(())
    }
}

/// Whether a configuration file is a self-play one (it has a `[learner]` table) rather than a
/// bootstrap one.
pub fn is_selfplay_file(path: &Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(value.contains_key("learner"))
}

/// How the actors search their decisions: all with `full`, or, with `fast` (KataGo's
/// playout-cap randomisation), a share of them drawn at random with `full` and the rest with
/// the cheaper `fast` search. Only decisions searched in full become training targets.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorSearch {
    /// The search of the decisions kept as training targets.
    pub full: AzConfig,
    /// The cheaper search and the share of decisions searched in full, if the share is
    /// below 1.
    pub fast: Option<(AzConfig, f64)>,
}

impl From<AzConfig> for ActorSearch {
    fn from(full: AzConfig) -> ActorSearch {
        ActorSearch { full, fast: None }
    }
}
