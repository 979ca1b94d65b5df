//! A learned leaf value for search: what MCTS's rollouts are cut off with
//! (`mcts:...,leaf=PATH`) in place of the material count ([`crate::drowned_earth::MaterialEvaluator`]).
//!
//! The value of a position for side A is `tanh(w · f)`, with per-scenario weights `w` over a
//! few features `f` of the position ([`FEATURES`]): the victory-point margin, the share of
//! each crew's points still conscious and of its models, each also scaled by how far the game
//! has gone, and a constant (the first player's edge). Side B's value is its negation. Weights
//! are fitted to the mean results of rollouts from positions of the learned player's own games
//! (`tde leaf-value`, `training::learned_player::leaf`); [`LeafValue::material`] sets them to what
//! the material count computes, so a fit starts from it and is regularised toward it.
//!
//! ```json
//! {
//!   "format": "tde-leaf-value",
//!   "version": 1,
//!   "note": "fitted on 20,000 positions of gen-001",
//!   "weights": { "couriers": { "side_a": 0.02, "margin": 0.9, ... }, ... }
//! }
//! ```
//! Every feature of a scenario's block must be present. A scenario's whole block may be
//! missing — a file written before the scenario joined the scenario list: that scenario then
//! takes the material count's weights ([`LeafValue::material`]), so a new scenario needs no
//! edit of the existing files. A file is checked whole when it is read, and an error names the
//! file, the entry and the reason.

use super::balance::balance;
use crate::learned::generation::SCENARIOS;
use engine::GameState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `format` field of every leaf value file.
pub const FORMAT: &str = "tde-leaf-value";
/// The file version this build reads and writes.
pub const VERSION: u32 = 1;
/// Number of features.
pub const FEATURE_COUNT: usize = 7;
/// The features' names, in weight order.
pub const FEATURES: [&str; FEATURE_COUNT] =
    ["side_a", "margin", "points", "models", "margin_late", "points_late", "models_late"];
/// Largest weight magnitude a file may hold.
pub const MAX_WEIGHT: f64 = 100.0;
/// The material count's weights ([`FEATURES`] order): margin 1, points 2, the rest 0.
const MATERIAL: [f64; FEATURE_COUNT] = [0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0];

/// The features of `state` for side A ([`FEATURES`] order):
/// - `side_a`: 1;
/// - `margin`: the victory-point margin so far, A less B, in units of 4 (40 in a skirmish, whose
///   margin counts every casualty's points);
/// - `points`: the share of A's points still conscious (or in reserve) less B's;
/// - `models`: the same for the number of models;
/// - the same three times the share of the game's turns begun (0 at the first, 1 at the last).
pub fn features(state: &GameState) -> [f64; FEATURE_COUNT] {
    let b = balance(state);
    [1.0, b.margin, b.points, b.models, b.margin * b.late, b.points * b.late, b.models * b.late]
}

/// The learned leaf value: weights per scenario ([`SCENARIOS`] order).
#[derive(Clone, Debug, PartialEq)]
pub struct LeafValue {
    /// Free text: how it was made.
    pub note: String,
    /// Each scenario's weights, [`FEATURES`] order.
    pub weights: Vec<[f64; FEATURE_COUNT]>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeafValue {
    format: String,
    version: u32,
    #[serde(default)]
    note: String,
    weights: BTreeMap<String, BTreeMap<String, f64>>,
}

impl LeafValue {
    /// The material count's own weights: margin 1, points 2, the rest 0 — the value
    /// [`crate::drowned_earth::MaterialEvaluator`] gives.
    pub fn material() -> LeafValue {
        LeafValue {
            note: "the material count (margin and conscious points)".into(),
            weights: vec![MATERIAL; SCENARIOS.len()],
        }
    }

    /// The value of `state` for side A, in (-1, 1).
    pub fn value(&self, state: &GameState) -> f64 {
        let s = SCENARIOS.iter().position(|&x| x == state.static_data().scenario).unwrap_or(0);
        let f = features(state);
        self.weights[s].iter().zip(&f).map(|(w, x)| w * x).sum::<f64>().tanh()
    }

    /// The file's JSON text.
    pub fn to_json(&self) -> String {
        let weights: BTreeMap<String, BTreeMap<String, f64>> = SCENARIOS
            .iter()
            .zip(&self.weights)
            .map(|(s, w)| {
                let named =
                    FEATURES.iter().zip(w).map(|(f, x)| (f.to_string(), (x * 1e6).round() / 1e6)).collect();
                (s.name().to_string(), named)
            })
            .collect();
        let raw = RawLeafValue { format: FORMAT.into(), version: VERSION, note: self.note.clone(), weights };
        serde_json::to_string_pretty(&raw).expect("a leaf value serialises")
    }

    /// Parse a file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<LeafValue, String> {
        let raw: RawLeafValue = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        if raw.format != FORMAT {
            return Err(format!("{file}: format `{}` is not `{FORMAT}`", raw.format));
        }
        if raw.version != VERSION {
            return Err(format!("{file}: version {} (this build reads version {VERSION})", raw.version));
        }
        if let Some(extra) = raw.weights.keys().find(|k| !SCENARIOS.iter().any(|s| s.name() == k.as_str())) {
            return Err(format!("{file}: weights.{extra}: no such scenario"));
        }
        let mut weights = Vec::new();
        for s in SCENARIOS {
            // A scenario the file has no block for takes the material count's weights.
            let Some(block) = raw.weights.get(s.name()) else {
                weights.push(MATERIAL);
                continue;
            };
            if let Some(extra) = block.keys().find(|k| !FEATURES.contains(&k.as_str())) {
                return Err(format!("{file}: weights.{}.{extra}: no such feature", s.name()));
            }
            let mut w = [0.0; FEATURE_COUNT];
            for (i, f) in FEATURES.iter().enumerate() {
                let v = *block.get(*f).ok_or_else(|| format!("{file}: weights.{}.{f} missing", s.name()))?;
                if !v.is_finite() || v.abs() > MAX_WEIGHT {
                    return Err(format!(
                        "{file}: weights.{}.{f} = {v} is not a number within ±{MAX_WEIGHT}",
                        s.name()
                    ));
                }
                w[i] = v;
            }
            weights.push(w);
        }
        Ok(LeafValue { note: raw.note, weights })
    }

    /// Read a leaf value file.
    pub fn load(path: &Path) -> Result<LeafValue, String> {
        let file = path.display().to_string();
        LeafValue::parse(&super::files::read_file(path)?, &file)
    }

    /// Write the file atomically; an existing file is replaced only when `overwrite` is set.
    pub fn save(&self, path: &Path, overwrite: bool) -> Result<(), String> {
        super::files::write_file(path, &self.to_json(), overwrite)
    }
}

impl crate::mcts::Evaluator<GameState> for LeafValue {
    fn evaluate(&self, state: &GameState) -> Vec<f64> {
        // A solo game: its score so far, as the material count judges it.
        if state.solo_score().is_some() {
            return crate::drowned_earth::MaterialEvaluator.evaluate(state);
        }
        let v = self.value(state);
        vec![v, -v]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::Evaluator;
    use engine::setup::{new_game, GameConfig};

    #[test]
    fn the_material_weights_value_positions_as_the_material_count_does() {
        let mut state = new_game(&GameConfig::default()).unwrap();
        let mut dice = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let mut player = crate::ScriptedAgent::new(3);
        let leaf = LeafValue::material();
        let mut checked = 0;
        while !state.is_terminal() {
            if checked % 7 == 0 {
                let a = leaf.evaluate(&state);
                let b = crate::drowned_earth::MaterialEvaluator.evaluate(&state);
                assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] + a[0]).abs() < 1e-12, "{a:?} {b:?}");
            }
            checked += 1;
            let action = match state.current_player() {
                engine::Player::Chance => crate::Game::sample_chance(&state, &mut dice).unwrap(),
                _ => crate::Agent::select_action(&mut player, &state),
            };
            state.apply_action(action).unwrap();
        }
        assert!(checked > 50);
    }

    #[test]
    fn a_leaf_value_survives_its_file_and_bad_files_are_refused_by_name() {
        let mut leaf = LeafValue::material();
        leaf.weights[2][4] = -0.5;
        assert_eq!(LeafValue::parse(&leaf.to_json(), "v.json").unwrap(), leaf);
        let good = leaf.to_json();
        let err = |t: &str| LeafValue::parse(t, "v.json").unwrap_err();
        assert!(err("[").starts_with("v.json"));
        assert!(err(&good.replace(FORMAT, "x")).contains("format"));
        assert!(err(&good.replacen("\"margin\": 1.0", "\"margin\": 1e9", 1)).contains(".margin"));
        assert!(err(&good.replacen("\"points\"", "\"pints\"", 1)).contains("pints"));
        assert!(err(&good.replacen("\"couriers\"", "\"curriers\"", 1)).contains("curriers"));
    }

    #[test]
    fn a_file_without_a_scenarios_block_gives_it_the_material_weights() {
        let mut leaf = LeafValue::material();
        for w in &mut leaf.weights {
            w[4] = -0.5;
        }
        let mut raw: serde_json::Value = serde_json::from_str(&leaf.to_json()).unwrap();
        raw["weights"].as_object_mut().unwrap().remove("couriers").expect("a couriers block");
        let read = LeafValue::parse(&raw.to_string(), "old.json").unwrap();
        for (s, w) in SCENARIOS.iter().zip(&read.weights) {
            let expected = if s.name() == "couriers" { MATERIAL[4] } else { -0.5 };
            assert_eq!(w[4], expected, "{}", s.name());
        }
        let couriers = SCENARIOS.iter().position(|s| s.name() == "couriers").unwrap();
        assert_eq!(read.weights[couriers], MATERIAL, "couriers: the material count's");
    }
}
