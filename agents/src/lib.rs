//! Players for any game behind the [`Game`] interface, and (with the default `tde` feature)
//! the TDE-specific ones.
//!
//! Every agent picks one of the legal actions at a decision node; chance nodes are resolved by
//! the game driver ([`play_game`]) with its own seeded dice, so that a game is reproducible
//! from its seeds. The generic part — [`Game`], [`Agent`], [`RandomAgent`], [`mcts`], the
//! driver, agent specs ([`spec`]) and [`generic_registry`] — compiles without the TDE engine
//! (`default-features = false`).

pub mod az;
pub mod conformance;
pub mod game;
pub mod mcts;
pub mod race;
mod random;
pub mod spec;
pub mod tensor;

#[cfg(feature = "tde")]
pub mod drowned_earth;
#[cfg(feature = "tde")]
mod greedy;
#[cfg(feature = "tde")]
pub mod learned;
#[cfg(feature = "tde")]
pub mod scripted;
#[cfg(feature = "tde")]
pub mod uc_cards;

pub use az::{
    improved_policy, normalise_q, AzAgent, AzConfig, AzResult, AzSearch, NetOutput, PolicyValue, RootRule,
};
pub use game::{ChanceMode, Dynamics, Game, GameType, Information, Turn, Utility};
pub use mcts::{Evaluator, MctsAgent, MctsConfig, NeutralEvaluator, Ranker, RootStat, TreeFootprint};
pub use race::{RaceAgent, RaceConfig};
pub use random::RandomAgent;
pub use spec::{split_agent_list, AgentKind, Args, Param, Registry, Spec};
pub use tensor::{Recipe, TensorGame, TensorShape};

#[cfg(feature = "tde")]
pub use drowned_earth::agents::{make_agent, make_mcts, make_race, mcts_params, play, registry, GameSummary};
#[cfg(feature = "tde")]
pub use greedy::GreedyAgent;
#[cfg(feature = "tde")]
pub use learned::LearnedAgent;
#[cfg(feature = "tde")]
pub use scripted::ScriptedAgent;
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

/// The agents that play any game: `random` and `mcts` (random rollouts to the end of the
/// game, no evaluator; see [`MctsConfig::PARAMS`]). A game's own registry starts from it.
pub fn generic_registry<G: Game>() -> Registry<G> {
    let mut r = Registry::default();
    r.add(AgentKind {
        name: "random",
        about: "a uniformly random legal action",
        params: Vec::new(),
        build: |_, seed| Ok(Box::new(RandomAgent::<G::Action>::new(seed))),
    });
    r.add(AgentKind {
        name: "mcts",
        about: "Monte Carlo tree search with random rollouts to the end of the game",
        params: MctsConfig::PARAMS.to_vec(),
        build: |args, seed| {
            Ok(Box::new(MctsAgent::new(MctsConfig::from_args(args)?, Arc::new(NeutralEvaluator), seed)))
        },
    });
    r
}

/// Build an agent for any game from its spec: `random`, or `mcts[:k=v,...]` (see
/// [`generic_registry`]).
pub fn make_generic_agent<G: Game>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, String> {
    generic_registry::<G>().make(spec, seed)
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
