//! The Encounter's agents by name: the framework's generic ones, the scripted player
//! ([`crate::dm`]) and the searching one ([`crate::search`]).

use crate::dm::ScriptedAgent;
use crate::search::{SearchAgent, SearchConfig};
use crate::state::Encounter;
use agents::spec::Alias;
use agents::{generic_registry, Agent, AgentKind, Registry, Spec};
use std::sync::OnceLock;

/// The Encounter's agents: the generic ones (`random`, `mcts:iters=...`, see
/// [`agents::generic_registry`]), `scripted`, of which `dm` is the old spelling, and `search:rollouts=N,width=W,rounds=R,depart=D`.
pub fn registry() -> Registry<Encounter> {
    let mut r = generic_registry::<Encounter>();
    r.add(AgentKind {
        name: "scripted",
        about: "the rule-based player of either side: the AI Dungeon Master or a scripted party",
        params: Vec::new(),
        build: |_, _| Ok(Box::new(ScriptedAgent)),
    });
    r.add(AgentKind {
        name: "search",
        about: "tries the scripted choice and the next best few, each played out many times by the scripted players, and takes the one that wins most",
        params: SearchConfig::PARAMS.to_vec(),
        build: |args, seed| Ok(Box::new(SearchAgent::new(SearchConfig::from_args(args), seed))),
    });
    r.alias(Alias { old: "dm", new: "scripted", rewrite: dm_is_scripted });
    r
}

/// `dm` → `scripted`.
fn dm_is_scripted(spec: &mut Spec) -> bool {
    let old = spec.name == "dm";
    if old {
        spec.name = "scripted".into();
    }
    old
}

/// An agent from its spec, seeded (see [`registry`]).
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Encounter>>, String> {
    static REGISTRY: OnceLock<Registry<Encounter>> = OnceLock::new();
    REGISTRY.get_or_init(registry).make(spec, seed)
}
