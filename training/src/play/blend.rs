//! The network's policy blended with the scripted player's order of the legal actions.
//!
//! MCTS with scripted rollouts gives its candidates priors that halve with their place in
//! the scripted player's order (2^-rank, `agents::mcts`). The blend multiplies that prior,
//! raised to a weight, by the network's probability: an action's score is
//! `ln p(a) - weight · rank(a) · ln 2`, and the actions are taken best score first. Weight 0
//! is the network alone; a large weight is the scripted order, which the network then only
//! breaks ties in. The network imitates the scripted player but was trained on many games'
//! outcomes and searches' visit counts, so it knows where the scripted player's first choice
//! is a poor one; the scripted order knows the exact geometry the network sees only through
//! its planes.
//!
//! [`BlendedPolicy`] is both an agent (the best blended action, no search:
//! `policy:checkpoint=PATH,blend=W`) and the root ranker of MCTS with rollouts
//! (`mcts:...,rollout=scripted,net=PATH[,blend=W]`): there one network evaluation a move
//! chooses and orders the root's candidates, and the scripted order and rollouts do the rest.

use crate::network::loaded::Network;
use agents::mcts::Ranker;
use agents::{Agent, Game, ScriptedAgent, Turn};
use engine::{Action, GameState};
use std::sync::Arc;

/// The blend's default weight: the network's probability times the search's own rank prior.
pub const DEFAULT_BLEND: f64 = 1.0;

/// Order `legal` by the blended score `ln p - weight · rank · ln 2`, best first, where `priors`
/// are the network's probabilities of `legal` (in its order) and `scripted` is the same
/// actions in the scripted player's order. Ties keep the action order; an action the scripted
/// order lacks ranks last.
pub fn blended_order<A: Copy + Ord>(legal: &[A], priors: &[f32], scripted: &[A], weight: f64) -> Vec<A> {
    // Each action's place in the scripted order, found by binary search (a decision may have
    // hundreds of legal moves).
    let mut places: Vec<(A, usize)> = scripted.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    places.sort_unstable();
    let mut scored: Vec<(f64, A)> = legal
        .iter()
        .zip(priors)
        .map(|(&a, &p)| {
            let rank =
                places.binary_search_by(|(b, _)| b.cmp(&a)).map_or(scripted.len(), |i| places[i].1) as f64;
            ((p as f64).max(1e-12).ln() - weight * rank * std::f64::consts::LN_2, a)
        })
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    scored.into_iter().map(|(_, a)| a).collect()
}

/// The network's policy blended with the scripted player's order (see the module docs).
pub struct BlendedPolicy {
    network: Arc<Network>,
    weight: f64,
    scripted: ScriptedAgent,
    order: Vec<Action>,
    /// The network's probability of the first action of the last ranking, when the scripted
    /// order puts it first too (both agree); else `None`.
    top: Option<f64>,
}

impl BlendedPolicy {
    /// The blend of `network` with the scripted order at `weight` (≥ 0); `seed` seeds the
    /// scripted player that orders the actions.
    pub fn new(network: Arc<Network>, weight: f64, seed: u64) -> BlendedPolicy {
        BlendedPolicy { network, weight, scripted: ScriptedAgent::new(seed), order: Vec::new(), top: None }
    }

    /// The label of the blend in agent names: the network's source and the weight.
    pub fn label(&self) -> String {
        format!("net:{},blend={}", self.network.source, self.weight)
    }

    /// The legal actions of the decision at `state`, best blended first.
    fn ranked(&mut self, state: &GameState) -> Vec<Action> {
        let Turn::Player(p) = Game::turn(state) else { return Vec::new() };
        let e =
            self.network.evaluate(&[(state, p)]).expect("the network evaluates a legal position").remove(0);
        self.order.clear();
        self.order.extend_from_slice(&e.legal);
        self.scripted.rank(state, &mut self.order);
        let ranked = blended_order(&e.legal, &e.priors, &self.order, self.weight);
        self.top = ranked
            .first()
            .filter(|&&a| self.order.first() == Some(&a))
            .and_then(|a| e.legal.iter().position(|b| b == a))
            .map(|i| e.priors[i] as f64);
        ranked
    }
}

impl Ranker<GameState> for BlendedPolicy {
    fn rank(&mut self, state: &GameState, legal: &mut Vec<Action>) {
        let ranked = self.ranked(state);
        if ranked.len() == legal.len() {
            *legal = ranked;
        } else {
            self.top = None;
        }
    }

    /// The network's probability of the first action when the scripted order agrees.
    fn top_probability(&self) -> Option<f64> {
        self.top
    }
}

impl Agent<GameState> for BlendedPolicy {
    fn name(&self) -> String {
        format!("policy:checkpoint={},blend={}", self.network.source, self.weight)
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        self.ranked(state)[0]
    }
}

#[cfg(test)]
mod tests {
    use super::blended_order;

    #[test]
    fn weight_zero_is_the_network_and_a_large_weight_the_scripted_order() {
        let legal = [10, 20, 30];
        let priors = [0.2, 0.7, 0.1];
        let scripted = [30, 10, 20];
        assert_eq!(blended_order(&legal, &priors, &scripted, 0.0), vec![20, 10, 30]);
        assert_eq!(blended_order(&legal, &priors, &scripted, 50.0), vec![30, 10, 20]);
    }

    #[test]
    fn at_weight_one_each_place_in_the_scripted_order_halves_the_probability() {
        // Scores (probability times 2^-rank): 20: 0.62 / 4 = 0.155; 10: 0.3 / 2 = 0.15;
        // 30: 0.08 · 1.
        let order = blended_order(&[10, 20, 30], &[0.3, 0.62, 0.08], &[30, 10, 20], 1.0);
        assert_eq!(order, vec![20, 10, 30]);
        // Against the scripted first choice, the second needs more than twice its probability.
        assert_eq!(blended_order(&[1, 2], &[0.34, 0.66], &[1, 2], 1.0), vec![1, 2]);
        assert_eq!(blended_order(&[1, 2], &[0.32, 0.68], &[1, 2], 1.0), vec![2, 1]);
        // At weight 2 it needs more than four times.
        assert_eq!(blended_order(&[1, 2], &[0.21, 0.79], &[1, 2], 2.0), vec![1, 2]);
        assert_eq!(blended_order(&[1, 2], &[0.19, 0.81], &[1, 2], 2.0), vec![2, 1]);
    }

    #[test]
    fn an_action_missing_from_the_scripted_order_ranks_after_every_listed_one() {
        let order = blended_order(&[1, 2, 3], &[0.5, 0.3, 0.2], &[3, 2], 1.0);
        // 3: 0.2; 2: 0.15; 1: 0.5 / 4 = 0.125.
        assert_eq!(order, vec![3, 2, 1]);
    }
}
