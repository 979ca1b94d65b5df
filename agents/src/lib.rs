//! Players for any game behind the [`Game`] interface, and the TDE-specific ones.
//!
//! Every agent picks one of the legal actions at a decision node; chance nodes are resolved by
//! the game driver ([`play`], [`play_game`]) with its own seeded dice, so that a game is
//! reproducible from its seeds.

pub mod game;
mod greedy;
pub mod mcts;
mod random;
mod scripted;
pub mod tde;
mod tde_tensor;
pub mod tensor;

pub use game::{Game, Turn};
pub use greedy::GreedyAgent;
pub use mcts::{Evaluator, MctsAgent, MctsConfig, NeutralEvaluator, Ranker};
pub use random::RandomAgent;
pub use scripted::ScriptedAgent;
pub use tensor::{Recipe, TensorGame, TensorShape};

use engine::record::GameRecord;
use engine::{Action, GameState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A player: chooses an action for the player to move.
pub trait Agent<G: Game>: Send {
    /// Name with parameters, e.g. `random` or `mcts:iters=400,c=1.4,depth=20,threads=1`.
    fn name(&self) -> String;
    /// Choose one of `state.legal_actions()`; called only at decision nodes.
    fn select_action(&mut self, state: &G) -> G::Action;
}

/// The agent names [`make_agent`] knows.
pub const AGENT_NAMES: [&str; 4] = ["random", "greedy", "scripted", "mcts"];

/// Build a TDE agent from its spec, seeded: `random`, `greedy`, `scripted`, or
/// `mcts[:k=v,...]` (see [`MctsConfig::parse`], plus `rollout=random|greedy|scripted`, the
/// rollout player, random by default).
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    let no_params = || {
        if params.is_empty() {
            Ok(())
        } else {
            Err(format!("agent `{name}` takes no parameters, got `{params}`"))
        }
    };
    match name {
        "random" => {
            no_params().map(|_| Box::new(RandomAgent::<Action>::new(seed)) as Box<dyn Agent<GameState>>)
        }
        "greedy" => no_params().map(|_| Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<GameState>>),
        "scripted" => no_params().map(|_| Box::new(ScriptedAgent::new(seed)) as Box<dyn Agent<GameState>>),
        "mcts" => {
            let (config, rollout) = parse_mcts(params)?;
            let agent = MctsAgent::new(config, Arc::new(tde::MaterialEvaluator), seed)
                .with_ranker(Arc::new(|s| Box::new(ScriptedAgent::new(s))), "scripted");
            let policy: mcts::RolloutPolicy<GameState> = match rollout {
                "random" => return Ok(Box::new(agent)),
                "greedy" => Arc::new(|s| Box::new(GreedyAgent::new(s))),
                "scripted" => Arc::new(|s| Box::new(ScriptedAgent::new(s))),
                other => return Err(format!("mcts rollout `{other}` is not random, greedy or scripted")),
            };
            Ok(Box::new(agent.with_rollout(policy, rollout)))
        }
        other => Err(format!("unknown agent `{other}` (available: {})", AGENT_NAMES.join(", "))),
    }
}

/// Split a comma-separated agent list, keeping each spec's parameters with it: a piece of
/// the form `key=value` continues the spec before it, so
/// `random,mcts:iters=400,c=1.4,greedy` gives `random`, `mcts:iters=400,c=1.4`, `greedy`.
pub fn split_agent_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

/// Parse the parameters of an `mcts:` spec: the search settings and the rollout player's
/// name (`rollout=random|greedy|scripted`, random by default).
pub fn parse_mcts(params: &str) -> Result<(MctsConfig, &str), String> {
    let mut rollout = "random";
    let rest: Vec<&str> = params
        .split(',')
        .filter(|p| match p.strip_prefix("rollout=") {
            Some(r) => {
                rollout = r;
                false
            }
            None => true,
        })
        .collect();
    Ok((MctsConfig::parse(&rest.join(","))?, rollout))
}

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The final state.
    pub state: GameState,
    /// Number of decisions taken.
    pub decisions: u32,
    /// Number of chance events resolved.
    pub chance_events: u32,
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

/// Play a TDE game to the end (see [`play_game`]), appending each action to `record` when
/// given.
pub fn play(
    state: GameState,
    agents: &mut [Box<dyn Agent<GameState>>],
    dice_seed: u64,
    mut record: Option<&mut GameRecord>,
    mut observe: impl FnMut(&GameState, Action),
) -> GameSummary {
    let state = play_game(state, agents, dice_seed, |s, a| {
        if let Some(r) = record.as_deref_mut() {
            r.actions.push(a);
        }
        observe(s, a);
    });
    if let Some(r) = record {
        r.final_hash = engine::record::format_hash(state.state_hash());
    }
    let d = state.dynamic();
    GameSummary { decisions: d.decisions, chance_events: d.chance_events, state }
}
