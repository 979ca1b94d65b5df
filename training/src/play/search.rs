//! The network inside MCTS (`mcts:...,net=PATH`): its value judges the leaves and its policy
//! orders the candidates searched.

use crate::network::loaded::Network;
use agents::mcts::{Evaluator, Ranker};
use agents::{TensorGame, Turn};
use std::sync::Arc;

/// The network's value as MCTS's leaf evaluator.
pub struct NetEvaluator(pub Arc<Network>);

impl<G: TensorGame> Evaluator<G> for NetEvaluator {
    fn evaluate(&self, state: &G) -> Vec<f64> {
        self.0.values(state)
    }
}

/// The network's policy as MCTS's candidate order.
pub struct NetRanker {
    net: Arc<Network>,
    /// The policy's probability of the first action of the last ranking.
    top: Option<f64>,
}

impl NetRanker {
    /// The ranker of `net`'s policy.
    pub fn new(net: Arc<Network>) -> NetRanker {
        NetRanker { net, top: None }
    }
}

impl<G: TensorGame> Ranker<G> for NetRanker {
    fn rank(&mut self, state: &G, legal: &mut Vec<G::Action>) {
        self.top = None;
        let Turn::Player(p) = state.turn() else { return };
        let Ok(mut e) = self.net.evaluate(&[(state, p)]) else { return };
        let e = e.remove(0);
        let mut order: Vec<(f32, G::Action)> = e.priors.into_iter().zip(e.legal).collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.top = order.first().map(|o| o.0 as f64);
        legal.clear();
        legal.extend(order.into_iter().map(|(_, a)| a));
    }

    fn top_probability(&self) -> Option<f64> {
        self.top
    }
}
