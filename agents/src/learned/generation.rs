//! A generation of the learned player: a weight for every term of the scripted player's scores
//! ([`Term`]), for every scenario and phase of the game, in a small versioned JSON file.
//!
//! ```json
//! {
//!   "format": "tde-learned-generation",
//!   "version": 1,
//!   "generation": 3,
//!   "parent": "gen-002.json",
//!   "note": "fitted on 41,000 rollout labels",
//!   "weights": {
//!     "couriers": { "early": { "progress": 1.12, "risk": 0.87, ... }, "mid": {...}, "late": {...} },
//!     ...
//!   }
//! }
//! ```
//!
//! A version 2 file may add a `standing` model ([`super::standing`]): a small model over the
//! deciding side's standing (victory-point margin, points still standing, turn) that scales
//! the block's weights. Files without one are written as version 1, as before.
//!
//! Every phase and term of a scenario's block must be present (but a term added to the
//! scripted player's after the file was written: it then weighs 0, as in the hand-written
//! player, see [`Term::is_added`]). A scenario's whole block may be missing — a file written
//! before the scenario joined the scenario list: that scenario then plays with the scripted
//! player's weights ([`TermWeights::SCRIPTED`], generation 0) in every phase, so a new
//! scenario needs no edit of the existing generation files. A file is checked whole when it
//! is read, and an error names the file, the entry and the reason. Phases split the game by its turn: `early` is the first third of the scenario's
//! turns (and the set-up), `mid` the second, `late` the rest.

use super::standing::{RawStanding, StandingModel};
use crate::scripted::terms::{Term, TermWeights, TERMS};
use engine::scenario::Scenario;
use engine::GameState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `format` field of every generation file.
pub const FORMAT: &str = "tde-learned-generation";
/// The newest file version this build reads and writes (version 2 adds the standing model;
/// a generation without one is written as version 1).
pub const VERSION: u32 = 2;
/// Largest weight magnitude a file may hold.
pub const MAX_WEIGHT: f64 = 100.0;
/// The scenarios a generation has weights for, in block order: every scenario, the skirmish
/// first (the scenario list's order).
pub const SCENARIOS: [Scenario; Scenario::COUNT] = Scenario::EVERY;
/// The phases of a game, in block order.
pub const PHASES: [&str; 3] = ["early", "mid", "late"];
/// Number of weight blocks (scenario × phase).
pub const BLOCKS: usize = SCENARIOS.len() * PHASES.len();

/// The block of a scenario and phase.
pub fn block(scenario: Scenario, phase: usize) -> usize {
    let s = SCENARIOS.iter().position(|&x| x == scenario).unwrap_or(0);
    s * PHASES.len() + phase.min(PHASES.len() - 1)
}

/// The phase of the game at `state`: 0 for the first third of its turns (and the set-up), 1 for
/// the second, 2 for the rest.
pub fn phase_of(state: &GameState) -> usize {
    let turns = state.static_data().max_turns.max(1) as usize;
    let turn = state.turn().max(1) as usize;
    ((turn - 1) * PHASES.len() / turns).min(PHASES.len() - 1)
}

/// The block whose weights play at `state`.
pub fn block_of(state: &GameState) -> usize {
    block(state.static_data().scenario, phase_of(state))
}

/// One generation's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// Its number (0: the scripted player's own weights).
    pub generation: u32,
    /// The file of the generation it was fitted from, if any.
    pub parent: Option<String>,
    /// Free text: how it was made.
    pub note: String,
    /// The weights of each block ([`block`]).
    pub blocks: Vec<TermWeights>,
    /// The model that scales the block's weights by the deciding side's standing, if any.
    pub standing: Option<StandingModel>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGeneration {
    format: String,
    version: u32,
    generation: u32,
    #[serde(default)]
    parent: Option<String>,
    #[serde(default)]
    note: String,
    weights: BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    standing: Option<RawStanding>,
}

impl Generation {
    /// Generation 0: the scripted player's own weights (every term 1, the added terms 0),
    /// which plays exactly as the scripted player.
    pub fn scripted() -> Generation {
        Generation {
            generation: 0,
            parent: None,
            note: "the scripted player's own weights (1, added terms 0)".into(),
            blocks: vec![TermWeights::SCRIPTED; BLOCKS],
            standing: None,
        }
    }

    /// The weights that play at `state`: its block's, scaled by the standing model (if any)
    /// at the standing of the side deciding.
    pub fn weights_at(&self, state: &GameState) -> TermWeights {
        let mut w = self.blocks[block_of(state)];
        if let Some(model) = &self.standing {
            let side = match state.current_player() {
                engine::state::Player::Side(s) => s,
                _ => 0,
            };
            let m = model.log_multipliers(&super::standing::features(state, side));
            for (x, l) in w.0.iter_mut().zip(m) {
                *x = (*x * l.exp()).clamp(-MAX_WEIGHT, MAX_WEIGHT);
            }
        }
        w
    }

    /// Every weight in one vector: block after block, each in [`Term::ALL`] order.
    pub fn flat(&self) -> Vec<f64> {
        self.blocks.iter().flat_map(|b| b.0).collect()
    }

    /// A generation from a vector laid out as [`Generation::flat`] gives.
    pub fn from_flat(generation: u32, parent: Option<String>, note: String, flat: &[f64]) -> Generation {
        assert_eq!(flat.len(), BLOCKS * TERMS, "a weight for every block and term");
        let blocks = flat
            .chunks(TERMS)
            .map(|c| {
                let mut w = [0.0; TERMS];
                w.copy_from_slice(c);
                TermWeights(w)
            })
            .collect();
        Generation { generation, parent, note, blocks, standing: None }
    }

    /// The file's JSON text.
    pub fn to_json(&self) -> String {
        let mut weights = BTreeMap::new();
        for (s, scenario) in SCENARIOS.iter().enumerate() {
            let mut phases = BTreeMap::new();
            for (p, phase) in PHASES.iter().enumerate() {
                let w = &self.blocks[s * PHASES.len() + p];
                let terms: BTreeMap<String, f64> =
                    Term::ALL.iter().map(|&t| (t.name().to_string(), round(w.get(t)))).collect();
                phases.insert(phase.to_string(), terms);
            }
            weights.insert(scenario.name().to_string(), phases);
        }
        let raw = RawGeneration {
            format: FORMAT.into(),
            version: if self.standing.is_some() { VERSION } else { 1 },
            generation: self.generation,
            parent: self.parent.clone(),
            note: self.note.clone(),
            weights,
            standing: self.standing.as_ref().map(StandingModel::to_raw),
        };
        serde_json::to_string_pretty(&raw).expect("a generation serialises") + "\n"
    }

    /// Parse a generation file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Generation, String> {
        let raw: RawGeneration = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        if raw.format != FORMAT {
            return Err(format!("{file}: format is `{}`, expected `{FORMAT}`", raw.format));
        }
        if !(1..=VERSION).contains(&raw.version) {
            return Err(format!(
                "{file}: version {} is not a version this build reads (1 to {VERSION})",
                raw.version
            ));
        }
        if raw.version == 1 && raw.standing.is_some() {
            return Err(format!("{file}: standing: a version 1 file has no standing model (version 2 does)"));
        }
        let standing = match &raw.standing {
            Some(r) => Some(StandingModel::from_raw(r, &format!("{file}: standing"))?),
            None => None,
        };
        let mut blocks = vec![TermWeights::SCRIPTED; BLOCKS];
        for name in raw.weights.keys() {
            if !SCENARIOS.iter().any(|s| s.name() == name) {
                return Err(format!("{file}: weights.{name}: not a scenario"));
            }
        }
        for (s, scenario) in SCENARIOS.iter().enumerate() {
            // A scenario the file has no block for keeps the scripted player's weights.
            let Some(phases) = raw.weights.get(scenario.name()) else { continue };
            for name in phases.keys() {
                if !PHASES.contains(&name.as_str()) {
                    return Err(format!(
                        "{file}: weights.{}.{name}: not a phase (early, mid, late)",
                        scenario.name()
                    ));
                }
            }
            for (p, phase) in PHASES.iter().enumerate() {
                let at = format!("weights.{}.{phase}", scenario.name());
                let terms = phases.get(*phase).ok_or_else(|| format!("{file}: {at}: missing"))?;
                for name in terms.keys() {
                    if Term::from_name(name).is_none() {
                        return Err(format!("{file}: {at}.{name}: not a term of the scripted player"));
                    }
                }
                let w = &mut blocks[s * PHASES.len() + p];
                for t in Term::ALL {
                    // A file written before a term was added plays it as the scripted player does.
                    let v = match terms.get(t.name()) {
                        Some(v) => *v,
                        None if t.is_added() => t.scripted_weight(),
                        None => return Err(format!("{file}: {at}.{}: missing", t.name())),
                    };
                    if !v.is_finite() || v.abs() > MAX_WEIGHT {
                        return Err(format!(
                            "{file}: {at}.{}: {v} is not a number within ±{MAX_WEIGHT}",
                            t.name()
                        ));
                    }
                    w.0[t as usize] = v;
                }
            }
        }
        Ok(Generation { generation: raw.generation, parent: raw.parent, note: raw.note, blocks, standing })
    }

    /// Read a generation file.
    pub fn load(path: &Path) -> Result<Generation, String> {
        let file = path.display().to_string();
        Generation::parse(&super::files::read_file(path)?, &file)
    }

    /// Write the file atomically (a temporary file renamed over it); an existing file is
    /// replaced only when `overwrite` is set.
    pub fn save(&self, path: &Path, overwrite: bool) -> Result<(), String> {
        super::files::write_file(path, &self.to_json(), overwrite)
    }
}

/// A weight rounded to six decimals (files stay small and diff well).
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The generation a spec's `gen=` names: a generation file, or a folder of them (its newest,
/// `gen-NNN.json` with the highest number).
pub fn resolve(path: &Path) -> Result<std::path::PathBuf, String> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    newest_in(path)?.ok_or_else(|| format!("{}: holds no gen-NNN.json", path.display()))
}

/// The newest `gen-NNN.json` in `dir`, if any.
pub fn newest_in(dir: &Path) -> Result<Option<std::path::PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut best: Option<(u32, std::path::PathBuf)> = None;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(n) = name.strip_prefix("gen-").and_then(|r| r.strip_suffix(".json")) else { continue };
        let Ok(n) = n.parse::<u32>() else { continue };
        if best.as_ref().is_none_or(|(b, _)| n > *b) {
            best = Some((n, e.path()));
        }
    }
    Ok(best.map(|(_, p)| p))
}

/// The file name of generation `n`.
pub fn file_name(n: u32) -> String {
    format!("gen-{n:03}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_survives_its_file() {
        let mut g = Generation::scripted();
        g.blocks[4].0[3] = 0.25;
        g.generation = 2;
        g.parent = Some("gen-001.json".into());
        let back = Generation::parse(&g.to_json(), "g.json").unwrap();
        assert_eq!(back, g);
        assert_eq!(Generation::from_flat(2, g.parent.clone(), g.note.clone(), &g.flat()), g);
        // Version 1 without a standing model, version 2 with one.
        assert!(g.to_json().contains("\"version\": 1"));
        let mut model = StandingModel::neutral(3, 1);
        model.output[Term::Risk as usize][1] = -0.25;
        g.standing = Some(model);
        assert!(g.to_json().contains("\"version\": 2"));
        assert_eq!(Generation::parse(&g.to_json(), "g.json").unwrap(), g);
    }

    #[test]
    fn bad_standing_models_are_refused_by_name() {
        let mut g = Generation::scripted();
        g.standing = Some(StandingModel::neutral(2, 1));
        let good = g.to_json();
        let err = |text: &str| Generation::parse(text, "g.json").unwrap_err();
        assert!(err(&good.replace("\"hidden\": 2", "\"hidden\": 3")).contains("standing.input"));
        assert!(err(&good.replace("\"hidden\": 2", "\"hidden\": 99")).contains("standing.hidden"));
        assert!(err(&good.replacen("\"risk\": [", "\"risky\": [", 1)).contains("standing.output.risky"));
        assert!(err(&good.replacen("\"margin\"", "\"margins\"", 1)).contains("standing.features"));
        assert!(err(&good.replace("\"version\": 2", "\"version\": 1")).contains("version 1 file"));
    }

    #[test]
    fn bad_files_are_refused_by_name() {
        let good = Generation::scripted().to_json();
        let err = |text: &str| Generation::parse(text, "g.json").unwrap_err();
        assert!(err("{").starts_with("g.json"));
        assert!(err(&good.replace("\"version\": 1", "\"version\": 9")).contains("version 9"));
        assert!(err(&good.replace(FORMAT, "other")).contains("format"));
        assert!(err(&good.replacen("\"risk\": 1.0", "\"risk\": 1e9", 1))
            .contains("weights.assassinate.early.risk"));
        assert!(err(&good.replacen("\"risk\": 1.0", "\"riskk\": 1.0", 1)).contains("riskk"));
        assert!(err(&good.replacen("\"late\"", "\"later\"", 1)).contains("later"));
        // A term the scripted player always had is required.
        assert!(
            err(&good.replacen("\"risk\": 1.0,", "", 1)).contains("weights.assassinate.early.risk: missing")
        );
    }

    #[test]
    fn a_file_without_a_scenarios_block_plays_it_with_the_scripted_weights() {
        let mut g = Generation::scripted();
        for block in &mut g.blocks {
            block.0[Term::Risk as usize] = 0.5;
        }
        let text = g.to_json();
        let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
        raw["weights"].as_object_mut().unwrap().remove("couriers").expect("a couriers block");
        let read = Generation::parse(&raw.to_string(), "old.json").unwrap();
        let couriers = SCENARIOS.iter().position(|&s| s == Scenario::Couriers).unwrap();
        for (b, block) in read.blocks.iter().enumerate() {
            if b / PHASES.len() == couriers {
                assert_eq!(*block, TermWeights::SCRIPTED, "block {b}: the missing scenario's");
            } else {
                assert_eq!(block.get(Term::Risk), 0.5, "block {b}: read from the file");
            }
        }
    }

    #[test]
    fn a_file_written_before_a_term_was_added_plays_it_at_zero() {
        let mut g = Generation::scripted();
        g.blocks[2].0[Term::Guard as usize] = 1.5;
        let text = g.to_json();
        assert!(text.contains("\"guard\": 1.5"));
        let old = text.replace("\"guard\": 1.5,", "").replace("\"guard\": 0.0,", "");
        assert!(!old.contains("guard"), "every guard entry removed");
        let read = Generation::parse(&old, "old.json").unwrap();
        for block in &read.blocks {
            assert_eq!(block.get(Term::Guard), 0.0);
        }
        assert_eq!(read.blocks[2].get(Term::Risk), 1.0);
    }
}
