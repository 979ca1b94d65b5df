//! Training samples: a decision node, whose view it is, the recipes of its legal actions, the
//! target distribution over them and the final return of the player to move, with how much
//! each counts towards the policy and the value losses.

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
    /// Target probability of each legal action: sums to 1, or all 0 in a value-only sample.
    pub target: Vec<f32>,
    /// The player's final return, in [-1, 1].
    pub value: f32,
    /// Whether the target teaches the policy (false: the sample teaches only the value).
    pub teaches_policy: bool,
    /// Weight of the sample in the value loss (see [`balance_sides`]); 1 by default.
    pub value_weight: f32,
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
        Self::build(state, &legal, player, target, value, true)
    }

    /// A sample of `state` that teaches only the value: the decision of a player whose moves
    /// are not to be imitated (a weak opponent), whose result still says who was winning.
    pub fn value_only(state: G, player: usize, value: f32) -> Result<Sample<G>, String> {
        let legal = state.legal_actions();
        Self::build(state, &legal, player, vec![0.0; legal.len()], value, false)
    }

    fn build(
        state: G,
        legal: &[G::Action],
        player: usize,
        target: Vec<f32>,
        value: f32,
        teaches_policy: bool,
    ) -> Result<Sample<G>, String> {
        if !(-1.0..=1.0).contains(&value) {
            return Err(format!("value {value} is outside [-1, 1]"));
        }
        let recipes =
            legal.iter().map(|&a| state.encode_action(a).map(|(_, r)| r)).collect::<Result<_, _>>()?;
        Ok(Sample { state, player, recipes, target, value, teaches_policy, value_weight: 1.0 })
    }
}

/// Weight one game's samples so that each player's decisions together count the same in the
/// value loss, and the game's weights still sum to its number of samples.
///
/// Without this, the side that makes more decisions (in a skirmish game, typically the one
/// with more models standing, so the one winning) supplies most of a game's value targets,
/// and the value head learns that the player to move is usually winning.
pub fn balance_sides<G: TensorGame>(game: &mut [Sample<G>]) {
    let mut counts: Vec<usize> = Vec::new();
    for s in game.iter() {
        if counts.len() <= s.player {
            counts.resize(s.player + 1, 0);
        }
        counts[s.player] += 1;
    }
    let total: usize = counts.iter().sum();
    let sides = counts.iter().filter(|&&c| c > 0).count() as f32;
    for s in game.iter_mut() {
        s.value_weight = total as f32 / (sides * counts[s.player] as f32);
    }
}
