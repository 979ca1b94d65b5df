//! Training samples: a decision node, whose view it is, the recipes of its legal actions, the
//! target distribution over them and the final return of the player to move.

use agents::{Recipe, TensorGame};

/// One position to learn from.
#[derive(Clone, Debug)]
pub struct Sample<G: TensorGame> {
    /// The state at the decision.
    pub state: G,
    /// The player to move (the observer of the encoding).
    pub player: usize,
    /// Recipes of the legal actions, in `state.legal_actions()` order.
    pub recipes: Vec<Recipe>,
    /// Target probability of each legal action (sums to 1).
    pub target: Vec<f32>,
    /// The player's final return, in [-1, 1].
    pub value: f32,
}

impl<G: TensorGame> Sample<G> {
    /// A sample of `state` (a decision of `player`) with `target` over its legal actions.
    pub fn new(state: G, player: usize, target: Vec<f32>, value: f32) -> Result<Sample<G>, String> {
        let legal = state.legal_actions();
        if legal.len() != target.len() {
            return Err(format!("{} targets for {} legal actions", target.len(), legal.len()));
        }
        let sum: f32 = target.iter().sum();
        if !(0.99..=1.01).contains(&sum) || target.iter().any(|p| !p.is_finite() || *p < 0.0) {
            return Err(format!("targets sum to {sum}, not 1"));
        }
        if !(-1.0..=1.0).contains(&value) {
            return Err(format!("value {value} is outside [-1, 1]"));
        }
        let recipes =
            legal.iter().map(|&a| state.encode_action(a).map(|(_, r)| r)).collect::<Result<_, _>>()?;
        Ok(Sample { state, player, recipes, target, value })
    }
}
