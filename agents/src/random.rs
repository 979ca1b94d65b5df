//! The uniform random agent, for any game.

use crate::game::Game;
use crate::Agent;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions.
pub struct RandomAgent<A> {
    rng: ChaCha8Rng,
    buf: Vec<A>,
}

impl<A> RandomAgent<A> {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> RandomAgent<A> {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed), buf: Vec::new() }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G::Action> {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        state.legal_actions_into(&mut self.buf);
        self.buf[self.rng.gen_range(0..self.buf.len())]
    }
}
