//! The TDE agents: their registry (names, parameters, constructors), the MCTS with TDE
//! rollouts and leaf values, and the game driver that records TDE games.

use crate::learned::leaf::LeafValue;
use crate::mcts::{self, MctsAgent, MctsConfig};
use crate::race::{RaceAgent, RaceConfig};
use crate::spec::{Alias, Args, Param, Spec};
use crate::{
    generic_registry, play_game, Agent, AgentKind, GreedyAgent, LearnedAgent, Registry, ScriptedAgent,
    UcCardsAgent,
};
use engine::record::GameRecord;
use engine::{Action, GameState};
use std::sync::{Arc, OnceLock};

/// The rollout players of `mcts:...,rollout=SPEC`.
const ROLLOUTS: [&str; 4] = ["random", "greedy", "scripted", "learned"];

/// The parameters of a TDE `mcts` spec: the search settings ([`MctsConfig::PARAMS`]), the
/// rollout player and the learned leaf value.
pub fn mcts_params() -> Vec<Param> {
    let mut params = MctsConfig::PARAMS.to_vec();
    params.push(Param::agent(
        "rollout",
        &ROLLOUTS,
        "the rollout player (default random); learned:gen=PATH also ranks the candidates",
    ));
    params.push(Param::path("leaf", "a learned leaf value that scores the leaves (default: material)"));
    params
}

/// The TDE agents: `random`, `greedy`, `scripted`, `learned:gen=PATH[,temp=T]` (the learned
/// player, see [`crate::learned`]), `mcts[:k=v,...]` (see [`make_mcts`]), `race[:k=v,...]` (see
/// [`make_race`]) and
/// `uc-cards[:decks=PATH]` (the UC card AI, see [`crate::uc_cards`]); `learned:PATH` is the
/// old spelling of `learned:gen=PATH`. The network agents extend it in `training`.
pub fn registry() -> Registry<GameState> {
    let mut r = generic_registry::<GameState>();
    r.add(AgentKind {
        name: "greedy",
        about: "the legal action with the best immediate material gain",
        params: Vec::new(),
        build: |_, seed| Ok(Box::new(GreedyAgent::new(seed))),
    });
    r.add(AgentKind {
        name: "scripted",
        about: "the hand-written rule-based player",
        params: Vec::new(),
        build: |_, seed| Ok(Box::new(ScriptedAgent::new(seed))),
    });
    r.add(AgentKind {
        name: "learned",
        about: "the scripted player's terms under weights fitted by policy iteration",
        params: LearnedAgent::PARAMS.to_vec(),
        build: |args, seed| Ok(Box::new(LearnedAgent::from_args(args, seed)?)),
    });
    r.add(AgentKind {
        name: "race",
        about: "the scripted player's best actions raced on paired scripted rollouts (common dice), material at their end",
        params: RaceConfig::PARAMS.to_vec(),
        build: |args, seed| {
            let ranker = Box::new(ScriptedAgent::new(seed ^ 0x243f_6a88));
            Ok(Box::new(make_race(args, ranker, "rank=scripted", seed)?))
        },
    });
    r.add(AgentKind {
        name: "mcts",
        about: "Monte Carlo tree search: scripted-ranked candidates, rollouts, material leaf value",
        params: mcts_params(),
        build: |args, seed| Ok(Box::new(make_mcts(args, seed)?)),
    });
    r.add(AgentKind {
        name: "uc-cards",
        about: "the UC card AI: each model plays the card it draws",
        params: UcCardsAgent::PARAMS.to_vec(),
        build: |args, seed| Ok(Box::new(UcCardsAgent::from_args(args, seed)?)),
    });
    r.alias(Alias { old: "learned:PATH", new: "learned:gen=PATH", rewrite: learned_path });
    r
}

/// `learned:PATH` → `learned:gen=PATH`.
fn learned_path(spec: &mut Spec) -> bool {
    match spec.params.as_mut_slice() {
        [(piece, value @ None)] if spec.name == "learned" => {
            *value = Some(std::mem::replace(piece, "gen".into()));
            true
        }
        _ => false,
    }
}

/// Build a TDE agent from its spec, seeded (see [`registry`]).
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    static REGISTRY: OnceLock<Registry<GameState>> = OnceLock::new();
    REGISTRY.get_or_init(registry).make(spec, seed)
}

/// The MCTS agent of a checked `mcts` spec ([`mcts_params`]), seeded: the scripted player
/// ranks its candidates and the material evaluator scores its leaves; with
/// `rollout=learned:gen=PATH` the learned generation at PATH both ranks the candidates and
/// plays the rollouts, and with `leaf=PATH` the learned leaf value at PATH
/// ([`crate::learned::leaf`]) scores the leaves.
pub fn make_mcts(args: &Args, seed: u64) -> Result<MctsAgent<GameState>, String> {
    let mut config = MctsConfig::from_args(args)?;
    config.rollout_depth.get_or_insert(super::ROLLOUT_DEPTH);
    let evaluator: Arc<dyn crate::Evaluator<GameState>> = match args.text("leaf") {
        Some(path) => {
            Arc::new(LeafValue::load(std::path::Path::new(path)).map_err(|e| format!("mcts leaf: {e}"))?)
        }
        None => Arc::new(super::MaterialEvaluator),
    };
    let agent = MctsAgent::new(config, evaluator, seed);
    let Some(rollout) = args.agent("rollout") else {
        return Ok(agent.with_ranker(Arc::new(|s| Box::new(ScriptedAgent::new(s))), "scripted"));
    };
    let label = rollout.source();
    if let Some(path) = rollout.text("gen") {
        let (generation, name) =
            crate::learned::load_spec_generation(path).map_err(|e| format!("mcts rollout `{label}`: {e}"))?;
        let ranks = generation.clone();
        let agent = agent.with_ranker(
            Arc::new(move |s| Box::new(LearnedAgent::new(ranks.clone(), 0.0, "", s))),
            &format!("learned:{name}"),
        );
        let policy: mcts::RolloutPolicy<GameState> =
            Arc::new(move |s| Box::new(LearnedAgent::new(generation.clone(), 0.0, "", s)));
        return Ok(agent.with_rollout(policy, label));
    }
    let agent = agent.with_ranker(Arc::new(|s| Box::new(ScriptedAgent::new(s))), "scripted");
    let policy: mcts::RolloutPolicy<GameState> = match rollout.name() {
        "greedy" => Arc::new(|s| Box::new(GreedyAgent::new(s))),
        "scripted" => Arc::new(|s| Box::new(ScriptedAgent::new(s))),
        _ => return Ok(agent),
    };
    Ok(agent.with_rollout(policy, label))
}

/// The racing agent of a checked race spec ([`RaceConfig::PARAMS`]), seeded: `ranker`
/// chooses the candidates (`label` names it), the scripted player plays the rollouts (both
/// sides, each rollout's player seeded by the rollout's seed) and the material evaluator
/// judges where they stop.
pub fn make_race(
    args: &Args,
    ranker: Box<dyn crate::Ranker<GameState>>,
    label: &str,
    seed: u64,
) -> Result<RaceAgent<GameState>, String> {
    let config = RaceConfig::from_args(args)?;
    let policy: mcts::RolloutPolicy<GameState> = Arc::new(|s| Box::new(ScriptedAgent::new(s)));
    let label = format!("{label},rollout=scripted");
    Ok(RaceAgent::new(config, Arc::new(super::MaterialEvaluator), policy, ranker, &label, seed))
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
