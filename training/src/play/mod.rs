//! Agents that play with a trained network, registered by [`registry`] and built from their
//! specs by [`make_agent`]: the network alone (`policy:checkpoint=PATH`, [`policy`], or
//! blended with the scripted order, `policy-blend:`, [`blend`]), the network inside MCTS
//! (`mcts-net:...,net=PATH`, [`search`]) — its policy orders the candidates searched and its
//! value judges the leaves, with no rollouts — or at MCTS's root only
//! (`mcts-blend:...,rollout=R,net=PATH`), and AlphaZero-style search (`az:net=PATH`).
//! [`rollout`] plays games on from a position by any agent.

pub mod blend;
pub mod policy;
pub mod rollout;
pub mod search;

use crate::network::loaded::Network;
use agents::mcts::MctsAgent;
use agents::spec::Alias;
use agents::spec::Build;
use agents::{
    Agent, AgentKind, Args, AzAgent, AzConfig, MctsConfig, Param, Registry, Spec, TensorGame, TensorShape,
};
use blend::{BlendedPolicy, DEFAULT_BLEND};
use engine::GameState;
use policy::PolicyAgent;
use search::{NetEvaluator, NetRanker};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The network of a checked spec's path parameter `key`.
fn network(args: &Args, key: &str) -> Result<Arc<Network>, String> {
    let path = args.text(key).ok_or_else(|| format!("{}: needs {key}=PATH", args.name()))?;
    Ok(Arc::new(Network::load_for_tde(Path::new(path))?))
}

/// The network alone, `policy:checkpoint=PATH[,temp=T]`, for any game: its parameters and
/// description, built by `build` (which loads the checkpoint for the game, typically with
/// [`build_policy`]).
pub fn policy_kind<G: TensorGame>(build: Build<G>) -> AgentKind<G> {
    AgentKind {
        name: "policy",
        about: "the network's policy alone, no search",
        params: vec![
            Param::path("checkpoint", "a network checkpoint").required(),
            Param::real("temp", 0.0, 10.0, "softmax temperature (0, the default: the best action)"),
        ],
        build,
    }
}

/// A `policy:` agent of [`policy_kind`] playing `network`.
pub fn build_policy<G: TensorGame>(
    args: &Args,
    seed: u64,
    network: Arc<Network>,
) -> Result<Box<dyn Agent<G>>, String> {
    Ok(Box::new(PolicyAgent::new(network, args.real("temp").unwrap_or(0.0), seed)))
}

/// AlphaZero-style search with the network, `az:net=PATH[,...]`, for any game (see
/// [`policy_kind`]; typically built with [`build_az`]).
pub fn az_kind<G: TensorGame>(build: Build<G>) -> AgentKind<G> {
    AgentKind {
        name: "az",
        about: "AlphaZero-style search with the network (Gumbel or PUCT root)",
        params: AzConfig::PARAMS
            .into_iter()
            .chain([Param::path("net", "a network checkpoint").required()])
            .collect(),
        build,
    }
}

/// An `az:` agent of [`az_kind`] searching with `network`.
pub fn build_az<G: TensorGame>(
    args: &Args,
    seed: u64,
    network: Arc<Network>,
) -> Result<Box<dyn Agent<G>>, String> {
    let label = network.source.clone();
    Ok(Box::new(AzAgent::new(AzConfig::from_args(args)?, network, &label, seed)))
}

/// The network of a checked spec's path parameter `key`, refused unless it reads and writes
/// tensors of `shape` (a game's own).
pub fn network_for(args: &Args, key: &str, shape: &TensorShape) -> Result<Arc<Network>, String> {
    let path = args.text(key).ok_or_else(|| format!("{}: needs {key}=PATH", args.name()))?;
    let network = Network::load(Path::new(path))?;
    network.check_shape(shape)?;
    Ok(Arc::new(network))
}

/// The `blend=W` parameter: the weight of the scripted order against the network's policy.
const BLEND: Param =
    Param::real("blend", 0.0, 100.0, "weight of the scripted order against the network (default 1)");

/// Every agent the CLI and the arena know: those of [`agents::registry`] and the ones that
/// play with a trained network — `policy:checkpoint=PATH[,temp=T]` (the network alone, see
/// [`policy`]), `policy-blend:checkpoint=PATH[,blend=W]` (blended with the scripted order,
/// see [`blend`]), `mcts-net:...,net=PATH` (MCTS on the network's priors and values, no
/// rollouts, see [`search`]), `mcts-blend:...,net=PATH[,blend=W]` (MCTS with rollouts whose
/// root candidates the blend chooses) and `az:net=PATH[,...]` (AlphaZero-style search, see
/// [`AzConfig::parse`]). The old spellings `policy:...,blend=W` and `mcts:...,net=PATH` (with
/// or without `rollout=`) stay accepted.
pub fn registry() -> Registry<GameState> {
    let mut r = agents::registry();
    let net = Param::path("net", "a network checkpoint").required();
    let checkpoint = Param::path("checkpoint", "a network checkpoint").required();
    r.add(policy_kind(|args, seed| build_policy(args, seed, network(args, "checkpoint")?)));
    r.add(AgentKind {
        name: "policy-blend",
        about: "the best action of the network's policy blended with the scripted order, no search",
        params: vec![checkpoint, BLEND],
        build: |args, seed| {
            let weight = args.real("blend").unwrap_or(DEFAULT_BLEND);
            Ok(Box::new(BlendedPolicy::new(network(args, "checkpoint")?, weight, seed)))
        },
    });
    r.add(AgentKind {
        name: "mcts-net",
        about: "MCTS on the network's priors (candidates) and values (leaves), no rollouts",
        params: MctsConfig::PARAMS.into_iter().filter(|p| p.key != "depth").chain([net]).collect(),
        build: |args, seed| {
            let mut config = MctsConfig::from_args(args)?;
            config.rollout_depth = Some(0);
            let network = network(args, "net")?;
            let ranker = network.clone();
            let agent = MctsAgent::new(config, Arc::new(NetEvaluator(network)), seed)
                .with_ranker(Arc::new(move |_| Box::new(NetRanker::new(ranker.clone()))), "net");
            Ok(Box::new(agent))
        },
    });
    r.add(AgentKind {
        name: "mcts-blend",
        about: "MCTS with rollouts (as mcts) whose root candidates the network blended with the scripted order chooses",
        params: agents::mcts_params().into_iter().chain([net, BLEND]).collect(),
        build: |args, seed| {
            let search = agents::make_mcts(args, seed)?;
            let weight = args.real("blend").unwrap_or(DEFAULT_BLEND);
            let ranker = BlendedPolicy::new(network(args, "net")?, weight, seed ^ 0x5bd1_e995);
            let label = ranker.label();
            Ok(Box::new(search.with_root_ranker(Box::new(ranker), &label)))
        },
    });
    r.add(az_kind(|args, seed| build_az(args, seed, network(args, "net")?)));
    fastnet::agent::register(&mut r);
    r.alias(Alias {
        old: "policy:checkpoint=PATH,blend=W",
        new: "policy-blend:checkpoint=PATH,blend=W",
        rewrite: |s| rename_if(s, "policy", &["blend"], "policy-blend"),
    });
    r.alias(Alias {
        old: "mcts:...,rollout=R,net=PATH",
        new: "mcts-blend:...,rollout=R,net=PATH",
        rewrite: |s| rename_if(s, "mcts", &["net", "rollout"], "mcts-blend"),
    });
    r.alias(Alias {
        old: "mcts:...,net=PATH",
        new: "mcts-net:...,net=PATH",
        rewrite: |s| rename_if(s, "mcts", &["net"], "mcts-net"),
    });
    r
}

/// Rename a spec named `old` that gives every parameter of `keys` to `new`; whether it did.
fn rename_if(spec: &mut Spec, old: &str, keys: &[&str], new: &str) -> bool {
    let rename = spec.name == old && keys.iter().all(|k| spec.has(k));
    if rename {
        spec.name = new.to_string();
    }
    rename
}

/// Build any agent of [`registry`] from its spec, seeded.
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    static REGISTRY: OnceLock<Registry<GameState>> = OnceLock::new();
    REGISTRY.get_or_init(registry).make(spec, seed)
}
