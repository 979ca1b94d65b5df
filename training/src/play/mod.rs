//! Agents that play with a trained network, built from their specs by [`make_agent`]: the
//! network alone (`policy:checkpoint=PATH`, [`policy`], or blended with the scripted order,
//! [`blend`]), the network inside MCTS (`mcts:...,net=PATH`, [`search`]) — its policy orders
//! the candidates searched and its value judges the leaves, with no rollouts — or at MCTS's
//! root only (`mcts:...,rollout=R,net=PATH`), and AlphaZero-style search (`az:net=PATH`).
//! [`rollout`] plays games on from a position by any agent.

pub mod blend;
pub mod policy;
pub mod rollout;
pub mod search;

use crate::network::loaded::Network;
use agents::mcts::MctsAgent;
use agents::{Agent, AzAgent, AzConfig};
use blend::{BlendedPolicy, DEFAULT_BLEND};
use engine::GameState;
use policy::PolicyAgent;
use search::{NetEvaluator, NetRanker};
use std::path::Path;
use std::sync::Arc;

/// Parse `key=value` parameters into the value of `key` and the rest.
fn take_param<'a>(params: &'a str, key: &str) -> (Option<&'a str>, String) {
    let mut found = None;
    let rest: Vec<&str> = params
        .split(',')
        .filter(|p| match p.strip_prefix(key).and_then(|r| r.strip_prefix('=')) {
            Some(v) => {
                found = Some(v);
                false
            }
            None => !p.is_empty(),
        })
        .collect();
    (found, rest.join(","))
}

/// The weight of a `blend=W` parameter: a number from 0 to 100.
fn parse_blend(w: &str) -> Result<f64, String> {
    w.parse::<f64>()
        .ok()
        .filter(|w| w.is_finite() && (0.0..=100.0).contains(w))
        .ok_or_else(|| format!("blend `{w}` is not a number from 0 to 100"))
}

/// Build any agent the CLI and the arena know, learned ones included: `policy:checkpoint=PATH
/// [,temp=T|,blend=W]` (the network alone, or blended with the scripted order, see
/// [`crate::play::blend`]), `mcts:...,net=PATH` (the network's priors and values, no rollouts),
/// `mcts:...,rollout=R,net=PATH[,blend=W]` (rollouts, with the root's candidates chosen by
/// the blend), `az:net=PATH[,sims=N|ms=T,...]` (AlphaZero-style search with the network, see
/// [`AzConfig::parse`]), and everything [`agents::make_agent`] builds.
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    match name {
        "policy" => {
            let (path, rest) = take_param(params, "checkpoint");
            let path = path.ok_or("agent `policy` needs checkpoint=PATH")?;
            let (temp, rest) = take_param(&rest, "temp");
            let (blend, rest) = take_param(&rest, "blend");
            if !rest.is_empty() {
                return Err(format!("agent `policy`: unknown parameters `{rest}` (checkpoint, temp, blend)"));
            }
            if let Some(weight) = blend {
                if temp.is_some() {
                    return Err(
                        "agent `policy`: blend plays the best blended action and takes no temp".into()
                    );
                }
                let weight = parse_blend(weight)?;
                let network = Arc::new(Network::load_for_tde(Path::new(path))?);
                return Ok(Box::new(BlendedPolicy::new(network, weight, seed)));
            }
            let temperature = match temp {
                Some(t) => t
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && (0.0..=10.0).contains(t))
                    .ok_or_else(|| format!("agent `policy`: temp `{t}` is not a number in [0, 10]"))?,
                None => 0.0,
            };
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            Ok(Box::new(PolicyAgent::new(network, temperature, seed)))
        }
        "mcts" if params.split(',').any(|p| p.starts_with("net=")) => {
            let (path, rest) = take_param(params, "net");
            let path = path.ok_or("mcts: net needs a path")?;
            let (blend, rest) = take_param(&rest, "blend");
            if rest.split(',').any(|p| p.starts_with("rollout=")) {
                // Rollouts value the leaves; the network, blended with the scripted order,
                // chooses and orders the root's candidates.
                let weight = blend.map_or(Ok(DEFAULT_BLEND), parse_blend)?;
                let search = agents::make_mcts(&rest, seed)?;
                let network = Arc::new(Network::load_for_tde(Path::new(path))?);
                let ranker = BlendedPolicy::new(network, weight, seed ^ 0x5bd1_e995);
                let label = ranker.label();
                return Ok(Box::new(search.with_root_ranker(Box::new(ranker), &label)));
            }
            if blend.is_some() {
                return Err(
                    "mcts: blend needs rollout= (without rollouts the network ranks every node alone)".into(),
                );
            }
            let (mut config, _) = agents::parse_mcts(&rest)?;
            config.rollout_depth = Some(0);
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            let ranker = network.clone();
            let agent = MctsAgent::new(config, Arc::new(NetEvaluator(network.clone())), seed)
                .with_ranker(Arc::new(move |_| Box::new(NetRanker(ranker.clone()))), "net");
            Ok(Box::new(agent))
        }
        "az" => {
            let (path, rest) = take_param(params, "net");
            let path = path.ok_or("agent `az` needs net=PATH")?;
            let config = AzConfig::parse(&rest)?;
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            let label = network.source.clone();
            Ok(Box::new(AzAgent::new(config, network, &label, seed)))
        }
        _ => agents::make_agent(spec, seed),
    }
}
