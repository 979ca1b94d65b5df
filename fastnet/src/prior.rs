//! The prior: a cheap player's score of each legal action, one input of the policy head.
//!
//! As MimicBot started from the scripted bot (Bot Bowl III), the policy starts from a player
//! that already plays well: logit(a) = α·prior(a) + what the network adds. The prior is the
//! learned term-weight player's score of the action (a generation of `checkpoints/learned/`,
//! stored inside the network's checkpoint), relative to the best action's and divided by
//! [`PRIOR_TEMPERATURE`], so that with α = 1 and nothing added the policy is that player's
//! softmax at that temperature, and its best action is the player's. Options the player
//! never takes, and decisions it does not score, get [`PRIOR_FLOOR`] and 0.

use agents::learned::Generation;
use agents::LearnedAgent;
use engine::{Action, GameState};
use std::sync::Arc;

/// The temperature the prior player's scores are divided by (its scores lie close
/// together: at 0.05 the best action's share averages about 0.7).
pub const PRIOR_TEMPERATURE: f64 = 0.05;
/// The lowest prior: an option the prior player would never take.
pub const PRIOR_FLOOR: f32 = -20.0;

/// Scores actions by a generation of the learned player.
pub struct Prior {
    agent: LearnedAgent,
}

impl Prior {
    /// The prior of `generation`, seeded (the scripted player's tie-breaks).
    pub fn new(generation: Arc<Generation>, seed: u64) -> Prior {
        Prior { agent: LearnedAgent::new(generation, 0.0, "prior", seed) }
    }

    /// The priors of `legal` (the legal actions at `state`'s decision) into `out`.
    pub fn priors(&mut self, state: &GameState, legal: &[Action], out: &mut Vec<f32>) {
        out.clear();
        match self.agent.scores(state, legal) {
            Some(scores) if scores.len() == legal.len() => {
                let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                out.extend(scores.iter().map(|s| (((s - top) / PRIOR_TEMPERATURE) as f32).max(PRIOR_FLOOR)));
            }
            _ => out.resize(legal.len(), 0.0),
        }
    }
}
