//! The TDE agents: the factory that builds them from specs, spec parsing with rollouts, and
//! the game driver that records TDE games.

use crate::mcts::{self, MctsAgent, MctsConfig};
use crate::{play_game, tde, Agent, GreedyAgent, LearnedAgent, RandomAgent, ScriptedAgent, UcCardsAgent};
use engine::record::GameRecord;
use engine::{Action, GameState};
use std::sync::Arc;

/// The agent names [`make_agent`] knows.
pub const AGENT_NAMES: [&str; 6] = ["random", "greedy", "scripted", "learned", "mcts", "uc-cards"];

/// Build a TDE agent from its spec, seeded: `random`, `greedy`, `scripted`,
/// `learned:gen=PATH[,temp=T]` (the learned player, see [`crate::learned`]),
/// `mcts[:k=v,...]` (see [`MctsConfig::parse`], plus `rollout=random|greedy|scripted|learned:PATH`,
/// the rollout player, random by default, and `leaf=PATH`, a learned leaf value), or `uc-cards[:decks=PATH]` (the UC card AI, see
/// [`crate::uc_cards`]).
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
        "uc-cards" => Ok(Box::new(UcCardsAgent::from_params(params, seed)?)),
        "learned" => Ok(Box::new(LearnedAgent::from_params(params, seed)?)),
        "mcts" => make_mcts(params, seed).map(|a| Box::new(a) as Box<dyn Agent<GameState>>),
        other => Err(format!("unknown agent `{other}` (available: {})", AGENT_NAMES.join(", "))),
    }
}

/// The MCTS agent of an `mcts:` spec's parameters (see [`make_agent`]), seeded: the scripted
/// player ranks its candidates and the material evaluator scores its leaves; with
/// `rollout=learned:PATH` the learned generation at PATH both ranks the candidates and plays
/// the rollouts, and with `leaf=PATH` the learned leaf value at PATH
/// ([`crate::learned::leaf`]) scores the leaves.
pub fn make_mcts(params: &str, seed: u64) -> Result<MctsAgent<GameState>, String> {
    let (params, leaf) = take_leaf(params)?;
    let (mut config, rollout) = parse_mcts(&params)?;
    config.rollout_depth.get_or_insert(crate::tde::ROLLOUT_DEPTH);
    let evaluator: Arc<dyn crate::Evaluator<GameState>> = match leaf {
        Some(path) => Arc::new(
            crate::learned::leaf::LeafValue::load(std::path::Path::new(&path))
                .map_err(|e| format!("mcts leaf: {e}"))?,
        ),
        None => Arc::new(tde::MaterialEvaluator),
    };
    let agent = MctsAgent::new(config, evaluator, seed);
    if let Some(path) = rollout.strip_prefix("learned:") {
        let path = path.strip_prefix("gen=").unwrap_or(path);
        let (generation, label) = crate::learned::load_spec_generation(path)
            .map_err(|e| format!("mcts rollout `{rollout}`: {e}"))?;
        let ranks = generation.clone();
        let plays = generation.clone();
        let ranker_label = format!("learned:{label}");
        let agent = agent.with_ranker(
            Arc::new(move |s| Box::new(LearnedAgent::new(ranks.clone(), 0.0, "", s))),
            &ranker_label,
        );
        let policy: mcts::RolloutPolicy<GameState> =
            Arc::new(move |s| Box::new(LearnedAgent::new(plays.clone(), 0.0, "", s)));
        return Ok(agent.with_rollout(policy, rollout));
    }
    let agent = agent.with_ranker(Arc::new(|s| Box::new(ScriptedAgent::new(s))), "scripted");
    let policy: mcts::RolloutPolicy<GameState> = match rollout {
        "random" => return Ok(agent),
        "greedy" => Arc::new(|s| Box::new(GreedyAgent::new(s))),
        "scripted" => Arc::new(|s| Box::new(ScriptedAgent::new(s))),
        other => {
            return Err(format!("mcts rollout `{other}` is not random, greedy, scripted or learned:PATH"))
        }
    };
    Ok(agent.with_rollout(policy, rollout))
}

/// An `mcts:` spec's parameters without its `leaf=PATH` (given at most once), and the path.
fn take_leaf(params: &str) -> Result<(String, Option<String>), String> {
    let mut leaf = None;
    let mut rest: Vec<&str> = Vec::new();
    for p in params.split(',') {
        match p.strip_prefix("leaf=") {
            Some(_) if leaf.is_some() => return Err("mcts parameter `leaf` is given twice".into()),
            Some("") => return Err("mcts parameter `leaf` needs a path (leaf=PATH)".into()),
            Some(path) => leaf = Some(path.to_string()),
            None => rest.push(p),
        }
    }
    Ok((rest.join(","), leaf))
}

/// Parse the parameters of an `mcts:` spec: the search settings and the rollout player's
/// name (`rollout=random|greedy|scripted|learned:PATH`, random by default; given at most once).
pub fn parse_mcts(params: &str) -> Result<(MctsConfig, &str), String> {
    let mut rollout = None;
    let mut rest: Vec<&str> = Vec::new();
    for p in params.split(',') {
        match p.strip_prefix("rollout=") {
            Some(_) if rollout.is_some() => return Err("mcts parameter `rollout` is given twice".into()),
            Some(r) => rollout = Some(r),
            None => rest.push(p),
        }
    }
    Ok((MctsConfig::parse(&rest.join(","))?, rollout.unwrap_or("random")))
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
