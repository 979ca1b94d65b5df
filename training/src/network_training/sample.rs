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
    /// The player's final victory-point margin squashed by [`margin_target`], for a network
    /// with a margin head; none where the game's record has no margin.
    pub margin: Option<f32>,
    /// For a child of a kept decision (`data.value_children`): which decision, and how its
    /// value turns into the deciding player's; none for any other sample.
    pub sibling: Option<Sibling>,
}

/// A child's place among its siblings, for the sibling loss (`network_training::siblings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sibling {
    /// The decision the child comes from, the same number for all its siblings (unique in a
    /// data set).
    pub decision: u64,
    /// 1 where the child's player to move is the one who decided, -1 where it is the
    /// opponent: the child's value and target times this are the decider's.
    pub sign: f32,
}

/// Victory points of margin that [`margin_target`] maps to tanh(1) ≈ 0.76.
pub const MARGIN_SCALE: f64 = 4.0;

/// The margin head's target for a final victory-point margin: tanh(margin / [`MARGIN_SCALE`]),
/// in (-1, 1), so a one-point game and a rout differ without a rout dominating the loss.
pub fn margin_target(margin: f64) -> f32 {
    (margin / MARGIN_SCALE).tanh() as f32
}

/// TD(λ) value targets along one game's decisions, in play order: `steps[t]` is (the player
/// to move, an estimate of that player's return there: the search's root value, a rollout
/// mean), `finals` the final returns. The target of decision t, seen from the player to move
/// there, is the λ-return G_t = (1 − λ)·v_{t+1} + λ·G_{t+1}, with G of the last decision the
/// final return: λ = 1 gives every decision the final result (what training used before),
/// λ = 0 the next decision's estimate (one-step bootstrapping). Players' views are converted
/// as in a zero-sum game (another player's estimate is negated), so this is for games of one
/// or two players.
pub fn lambda_returns(steps: &[(usize, f32)], finals: &[f64], lambda: f32) -> Vec<f32> {
    let final_for = |p: usize| finals.get(p).copied().unwrap_or(0.0) as f32;
    // Everything is carried from player 0's view and turned to the mover's at the end.
    let view = |p: usize, v: f32| if p == 0 { v } else { -v };
    let mut out = vec![0.0f32; steps.len()];
    let mut g = match finals.len() {
        0 => 0.0,
        1 => final_for(0),
        _ => (final_for(0) - final_for(1)) / 2.0,
    };
    for t in (0..steps.len()).rev() {
        if t + 1 < steps.len() {
            let (p, v) = steps[t + 1];
            g = (1.0 - lambda) * view(p, v) + lambda * g;
        }
        out[t] = view(steps[t].0, g).clamp(-1.0, 1.0);
    }
    out
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
        Ok(Sample {
            state,
            player,
            recipes,
            target,
            value,
            teaches_policy,
            value_weight: 1.0,
            margin: None,
            sibling: None,
        })
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
