//! The uniform random agent.

use crate::Agent;
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions.
pub struct RandomAgent {
    rng: ChaCha8Rng,
    buf: Vec<Action>,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed), buf: Vec::new() }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        state.legal_actions_into(&mut self.buf);
        self.buf[self.rng.gen_range(0..self.buf.len())]
    }
}
