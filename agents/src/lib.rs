//! Players for any game behind the [`Game`] interface, and (with the default `tde` feature)
//! the TDE-specific ones.
//!
//! Every agent picks one of the legal actions at a decision node; chance nodes are resolved by
//! the game driver ([`play_game`]) with its own seeded dice, so that a game is reproducible
//! from its seeds. The generic part — [`Game`], [`Agent`], [`RandomAgent`], [`mcts`], the
//! driver, [`split_agent_list`] and [`make_generic_agent`] — compiles without the TDE engine
//! (`default-features = false`).

pub mod az;
pub mod conformance;
pub mod game;
pub mod mcts;
mod random;
pub mod tensor;

#[cfg(feature = "tde")]
mod greedy;
#[cfg(feature = "tde")]
pub mod learned;
#[cfg(feature = "tde")]
pub mod scripted;
#[cfg(feature = "tde")]
pub mod tde;
#[cfg(feature = "tde")]
mod tde_agents;
#[cfg(feature = "tde")]
mod tde_tensor;
#[cfg(feature = "tde")]
pub mod uc_cards;

pub use az::{
    improved_policy, normalise_q, AzAgent, AzConfig, AzResult, AzSearch, NetOutput, PolicyValue, RootRule,
};
pub use game::{Game, Turn};
pub use mcts::{Evaluator, MctsAgent, MctsConfig, NeutralEvaluator, Ranker, TreeFootprint};
pub use random::RandomAgent;
pub use tensor::{Recipe, TensorGame, TensorShape};

#[cfg(feature = "tde")]
pub use greedy::GreedyAgent;
#[cfg(feature = "tde")]
pub use learned::LearnedAgent;
#[cfg(feature = "tde")]
pub use scripted::ScriptedAgent;
#[cfg(feature = "tde")]
pub use tde_agents::{make_agent, make_mcts, parse_mcts, play, GameSummary, AGENT_NAMES};
#[cfg(feature = "tde")]
pub use uc_cards::UcCardsAgent;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A player: chooses an action for the player to move.
pub trait Agent<G: Game>: Send {
    /// Name with parameters, e.g. `random` or `mcts:iters=400,c=1.4,depth=20,threads=1`.
    fn name(&self) -> String;
    /// Choose one of `state.legal_actions()`; called only at decision nodes.
    fn select_action(&mut self, state: &G) -> G::Action;

    /// For a searching agent, the weights of the root's actions behind its last choice (visit
    /// counts, or an improved policy): a training target once normalised. `None` for agents
    /// that do not search, or when the choice needed no search.
    fn last_search(&self) -> Option<Vec<(G::Action, f64)>> {
        None
    }
}

/// Build an agent for any game from its spec: `random`, or `mcts[:k=v,...]` (see
/// [`MctsConfig::parse`]) with random rollouts to the end of the game and no evaluator.
pub fn make_generic_agent<G: Game>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, String> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    match name {
        "random" if params.is_empty() => Ok(Box::new(RandomAgent::<G::Action>::new(seed))),
        "random" => Err(format!("agent `random` takes no parameters, got `{params}`")),
        "mcts" => Ok(Box::new(MctsAgent::new(MctsConfig::parse(params)?, Arc::new(NeutralEvaluator), seed))),
        other => Err(format!("unknown agent `{other}` (available: random, mcts)")),
    }
}

/// Split a comma-separated agent list, keeping each spec's parameters with it: a piece of
/// the form `key=value` (no `:` in the key) continues the spec before it, so
/// `random,mcts:iters=400,c=1.4,greedy` gives `random`, `mcts:iters=400,c=1.4`, `greedy`,
/// and `mcts:ms=20,rollout=learned:gen.json,scripted` gives `mcts:ms=20,rollout=learned:gen.json`
/// and `scripted`.
pub fn split_agent_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let is_parameter = |piece: &str| piece.split_once('=').is_some_and(|(key, _)| !key.contains(':'));
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if is_parameter(piece) && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

/// Play any game to the end: `agents[p]` plays player `p`, dice come from `dice_seed`, and
/// `observe` sees every state after each step with the action that led to it.
pub fn play_game<G: Game>(
    mut state: G,
    agents: &mut [Box<dyn Agent<G>>],
    dice_seed: u64,
    mut observe: impl FnMut(&G, G::Action),
) -> G {
    let mut dice = ChaCha8Rng::seed_from_u64(dice_seed);
    loop {
        let action = match state.turn() {
            Turn::Terminal => return state,
            Turn::Chance => state.sample_chance(&mut dice).expect("chance node has outcomes"),
            Turn::Player(p) => agents[p].select_action(&state),
        };
        state.apply(action).unwrap_or_else(|e| panic!("agent chose an illegal action: {e}"));
        observe(&state, action);
    }
}
