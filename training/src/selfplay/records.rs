//! Self-play game records and their shard files: one game per line of
//! `RUN/shards/ACTOR-NNNNNN.jsonl`, holding the set-up label, every action (decisions and
//! dice), the search's policy target at every decision with two or more legal actions, and
//! the final returns. Positions are rebuilt by replaying, so shards stay small and exact.

use crate::network_training::expert::Target;
use crate::network_training::sample::{balance_sides, lambda_returns, margin_target, Sample};
use crate::selfplay::source::GameSource;
use agents::{TensorGame, Turn};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "A: Serialize", deserialize = "A: DeserializeOwned"))]
pub struct PlayedGame<A> {
    /// The network version (checkpoint name) both sides searched with.
    pub version: String,
    /// The set-up label ([`GameSource::rebuild`]).
    pub setup: String,
    /// Every action, decisions and chance outcomes.
    pub actions: Vec<A>,
    /// The search's policy at each real decision.
    pub targets: Vec<Target>,
    /// Final returns, divided by the game's return bound.
    pub returns: Vec<f64>,
    /// Final score margins ([`TensorGame::final_margins`]; empty where the game keeps none or
    /// the shard predates them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub margins: Vec<f64>,
}

/// The shards folder of a run.
pub fn shards_dir(run: &Path) -> PathBuf {
    run.join("shards")
}

/// The shard file `seq` of actor `actor`.
pub fn shard_path(run: &Path, actor: &str, seq: u64) -> PathBuf {
    shards_dir(run).join(format!("{actor}-{seq:06}.jsonl"))
}

/// The names of the finished shards of a run, sorted (temporary files are not shards).
pub fn shard_names(run: &Path) -> Result<Vec<String>, String> {
    let dir = shards_dir(run);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(Vec::new()) };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jsonl") && !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// Write a shard atomically.
pub fn write_shard<A: Serialize>(path: &Path, games: &[PlayedGame<A>]) -> Result<(), String> {
    let mut text = String::new();
    for g in games {
        text.push_str(&serde_json::to_string(g).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    engine::record::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// Read a shard's games.
pub fn read_shard<A: DeserializeOwned>(path: &Path) -> Result<Vec<PlayedGame<A>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// Rebuild a game's training samples by replaying it from its set-up: value targets the
/// final result or, with `value_lambda` below 1, TD(λ) returns bootstrapped from the searches'
/// root values ([`lambda_returns`]; decisions without a recorded value keep the result),
/// margin targets where the game has margins, each side's value weight balanced
/// ([`balance_sides`]).
pub fn samples_of<G: TensorGame>(
    source: &dyn GameSource<G>,
    game: &PlayedGame<G::Action>,
    value_lambda: f32,
) -> Result<Vec<Sample<G>>, String> {
    let mut state = source.rebuild(&game.setup)?;
    let mut out = Vec::with_capacity(game.targets.len());
    let mut steps: Vec<(usize, f32)> = Vec::with_capacity(game.targets.len());
    let mut next = game.targets.iter().peekable();
    for (ply, &action) in game.actions.iter().enumerate() {
        if let Some(t) = next.next_if(|t| t.ply as usize == ply) {
            let Turn::Player(p) = state.turn() else {
                return Err(format!("{}: ply {ply} is not a decision", game.setup));
            };
            let mut target = vec![0.0f32; state.legal_actions().len()];
            for &(i, prob) in &t.probs {
                *target
                    .get_mut(i as usize)
                    .ok_or_else(|| format!("{}: ply {ply}: target beyond the legal actions", game.setup))? =
                    prob;
            }
            let value = game.returns.get(p).copied().unwrap_or(0.0).clamp(-1.0, 1.0) as f32;
            let sample = Sample::new(state.clone(), p, target, value)?;
            steps.push((p, t.value.unwrap_or(value)));
            out.push(Sample { margin: game.margins.get(p).map(|&m| margin_target(m)), ..sample });
        }
        state.apply(action).map_err(|e| format!("{}: ply {ply}: {e}", game.setup))?;
    }
    if value_lambda < 1.0 {
        for (sample, target) in out.iter_mut().zip(lambda_returns(&steps, &game.returns, value_lambda)) {
            sample.value = target;
        }
    }
    balance_sides(&mut out);
    Ok(out)
}
