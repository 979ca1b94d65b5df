//! The learned player (agent spec `learned:gen=PATH[,temp=T]`): the scripted player's terms
//! ([`crate::scripted::terms`]) under weights that policy iteration fits, per scenario and
//! phase of the game ([`generation`]).
//!
//! Each legal action is scored θ·φ(s, a): φ are the scripted player's terms for the action and
//! θ the generation's weights for the scenario and phase. At `temp=0` (the default) it plays
//! the best-scored action, ties broken as the scripted player breaks them, so generation 0
//! (every weight 1, the added terms 0) plays exactly as `scripted`; at `temp=T > 0` it samples from the softmax of
//! the scores divided by T. It ranks MCTS's candidates the same way and plays its rollouts
//! (`mcts:...,rollout=learned:PATH`). With `teach=T` it also reports, as its
//! [`Agent::last_search`], the softmax of its scores divided by T over the legal actions: a
//! policy target for a network learning to play as it does (distillation), its play unchanged.

pub mod balance;
pub mod features;
mod files;
pub mod generation;
pub mod leaf;
pub mod standing;

use crate::scripted::ScriptedAgent;
use crate::spec::{Args, Param};
use crate::Agent;
use engine::state::Player;
use engine::{Action, GameState};
pub use generation::Generation;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// The learned player.
pub struct LearnedAgent {
    scripted: ScriptedAgent,
    generation: Arc<Generation>,
    temperature: f64,
    label: String,
    rng: ChaCha8Rng,
    legal: Vec<Action>,
    /// The temperature of the reported target distribution, if one is reported.
    teach: Option<f64>,
    /// The target distribution of the last decision (with `teach`).
    last: Option<Vec<(Action, f64)>>,
}

impl LearnedAgent {
    /// The player of `generation` at softmax temperature `temperature` (0: the best action),
    /// seeded; `label` names the generation in the agent's name.
    pub fn new(generation: Arc<Generation>, temperature: f64, label: &str, seed: u64) -> LearnedAgent {
        LearnedAgent {
            scripted: ScriptedAgent::new(seed),
            generation,
            temperature,
            label: label.to_string(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15),
            legal: Vec::new(),
            teach: None,
            last: None,
        }
    }

    /// The parameters a `learned` spec takes.
    pub const PARAMS: [Param; 3] = [
        Param::path("gen", "a generation file, or a folder whose newest gen-NNN.json plays").required(),
        Param::real("temp", 0.0, 10.0, "softmax temperature (0, the default: the best-scored action)"),
        Param::real(
            "teach",
            0.01,
            100.0,
            "report the softmax of the scores at this temperature as the last search (a training target)",
        ),
    ];

    /// The agent of a `learned` spec's checked parameters (see [`LearnedAgent::PARAMS`]).
    pub fn from_args(args: &Args, seed: u64) -> Result<LearnedAgent, String> {
        let path = args.text("gen").ok_or("learned: needs gen=PATH")?;
        let (generation, label) = load_spec_generation(path)?;
        let mut agent = LearnedAgent::new(generation, args.real("temp").unwrap_or(0.0), &label, seed);
        agent.teach = args.real("teach");
        Ok(agent)
    }

    /// Report (or stop reporting) the softmax of each decision's scores at temperature
    /// `teach` as the last search, as `teach=T` does.
    pub fn set_teach(&mut self, teach: Option<f64>) {
        self.teach = teach;
    }

    /// The generation it plays.
    pub fn generation(&self) -> &Arc<Generation> {
        &self.generation
    }

    /// The scores θ·φ of `actions` (legal at `state`'s decision) under the generation's
    /// weights; `None` where no side decides.
    pub fn scores(&mut self, state: &GameState, actions: &[Action]) -> Option<Vec<f64>> {
        let w = self.generation.weights_at(state);
        self.scripted.scores_with(state, actions, w).map(<[f64]>::to_vec)
    }

    /// The scripted player that computes its terms.
    pub fn scripted(&mut self) -> &mut ScriptedAgent {
        &mut self.scripted
    }
}

/// Load the generation a spec names (see [`generation::resolve`]) and a short label for it.
pub fn load_spec_generation(path: &str) -> Result<(Arc<Generation>, String), String> {
    let file = generation::resolve(Path::new(path))?;
    let generation = Generation::load(&file)?;
    let label = file.display().to_string();
    Ok((Arc::new(generation), label))
}

impl Agent<GameState> for LearnedAgent {
    fn name(&self) -> String {
        let mut name = format!("learned:gen={}", self.label);
        if self.temperature > 0.0 {
            name += &format!(",temp={}", self.temperature);
        }
        if let Some(teach) = self.teach {
            name += &format!(",teach={teach}");
        }
        name
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        let w = self.generation.weights_at(state);
        if let Some(teach) = self.teach {
            state.legal_actions_into(&mut self.legal);
            self.last = match self.scripted.scores_with(state, &self.legal, w) {
                Some(scores) if self.legal.len() >= 2 => {
                    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let exp: Vec<f64> = scores.iter().map(|s| ((s - top) / teach).exp()).collect();
                    let total: f64 = exp.iter().sum();
                    Some(self.legal.iter().zip(exp).map(|(&a, e)| (a, e / total)).collect())
                }
                _ => None,
            };
        }
        if self.temperature <= 0.0 {
            return self.scripted.select_with(state, w);
        }
        state.legal_actions_into(&mut self.legal);
        if self.legal.len() == 1 || !matches!(state.current_player(), Player::Side(_)) {
            return self.legal[0];
        }
        let Some(scores) = self.scripted.scores_with(state, &self.legal, w) else { return self.legal[0] };
        let choice = sample_softmax(scores, self.temperature, self.rng.gen());
        self.legal[choice]
    }

    /// With `teach`: the softmax of the last decision's scores at that temperature.
    fn last_search(&self) -> Option<Vec<(Action, f64)>> {
        self.last.clone()
    }
}

impl crate::mcts::Ranker<GameState> for LearnedAgent {
    /// The legal actions by the generation's scores, best first.
    fn rank(&mut self, state: &GameState, legal: &mut Vec<Action>) {
        let w = self.generation.weights_at(state);
        self.scripted.rank_with(state, legal, w);
    }
}

/// The index drawn from the softmax of `scores / temperature` by the uniform number `u` in
/// [0, 1).
pub fn sample_softmax(scores: &[f64], temperature: f64, u: f64) -> usize {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = scores.iter().map(|s| ((s - top) / temperature).exp()).sum();
    let mut left = u * total;
    for (i, s) in scores.iter().enumerate() {
        left -= ((s - top) / temperature).exp();
        if left < 0.0 {
            return i;
        }
    }
    // Rounding left a sliver: the best action.
    scores.iter().position(|&s| s == top).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_sampling_follows_the_scores() {
        let scores = [0.0, (3.0f64).ln(), -1.0e6];
        // Probabilities 1/4 and 3/4 at temperature 1; the sentinel never.
        assert_eq!(sample_softmax(&scores, 1.0, 0.2), 0);
        assert_eq!(sample_softmax(&scores, 1.0, 0.3), 1);
        assert_eq!(sample_softmax(&scores, 1.0, 0.999_999), 1);
        // A low temperature always takes the best.
        assert_eq!(sample_softmax(&scores, 0.01, 0.5), 1);
        assert_eq!(sample_softmax(&scores, 0.01, 1.0), 1);
    }

    #[test]
    fn bad_specs_are_refused_by_name() {
        let err = |p: &str| crate::make_agent(&format!("learned:{p}"), 0).err().unwrap();
        assert!(err("").contains("gen="));
        assert!(err("gen=/nonexistent/gen.json").contains("/nonexistent/gen.json"));
        assert!(err("gen=x,temp=-1").contains("temp"));
        assert!(err("gen=x,foo=1").contains("foo"));
    }
}
