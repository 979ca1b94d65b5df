//! The network alone as an agent (`policy:checkpoint=PATH[,temp=T]`): its most probable legal
//! action, or one sampled at a temperature.

use crate::network::loaded::Network;
use agents::{Agent, TensorGame, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The network alone: the most probable legal action, or one sampled at a temperature.
pub struct PolicyAgent {
    network: Arc<Network>,
    temperature: f64,
    rng: ChaCha8Rng,
}

impl PolicyAgent {
    /// A policy agent; `temperature` 0 plays the most probable action.
    pub fn new(network: Arc<Network>, temperature: f64, seed: u64) -> PolicyAgent {
        PolicyAgent { network, temperature, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: TensorGame> Agent<G> for PolicyAgent {
    fn name(&self) -> String {
        format!("policy:checkpoint={},temp={}", self.network.source, self.temperature)
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let Turn::Player(p) = state.turn() else { panic!("select_action at a node that is not a decision") };
        let e =
            self.network.evaluate(&[(state, p)]).expect("the network evaluates a legal position").remove(0);
        if self.temperature <= 0.0 {
            let best = e.priors.iter().enumerate().fold(0, |b, (i, &x)| if x > e.priors[b] { i } else { b });
            return e.legal[best];
        }
        let weights: Vec<f64> = e.priors.iter().map(|&p| (p as f64).powf(1.0 / self.temperature)).collect();
        let mut x = self.rng.gen::<f64>() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return e.legal[i];
            }
            x -= w;
        }
        e.legal[e.legal.len() - 1]
    }
}
