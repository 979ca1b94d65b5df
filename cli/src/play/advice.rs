//! "What would the bot do here?": the opponent's agent asked about the person's decision.
//!
//! The agent is given a state drawn from the person's information set (hidden facts
//! resampled consistently with what the person knows, [`GameState::determinize`]), so its
//! answer cannot leak the opponent's secrets. Searching agents report their root weights
//! (visit counts); the network reports its probabilities and value; other agents their choice.
//! Each candidate comes with its reasons: the game played on from it (see [`super::risk`]).

use super::risk::{playouts, PLAYOUTS_HOW};
use super::table::{Seat, Table};
use super::words::seat_words;
use engine::render::describe_action;
use engine::Player;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};
use training::network::loaded::Network;
use training::play::make_agent;

/// Candidates shown at most.
const TOP: usize = 5;

/// Why no advice was given.
pub enum AdviceError {
    /// It is not the person's decision.
    NotYourTurn(String),
    /// The agent could not be built or failed.
    Agent(String),
}

/// The opponent agent's view of the person's decision.
pub fn advise(table: &Table, networks: &Mutex<Vec<(String, Arc<Network>)>>) -> Result<Value, AdviceError> {
    let state = table.current();
    let human = table.human();
    let side = match state.current_player() {
        Player::Side(s) if Some(s) == human => s,
        _ => return Err(AdviceError::NotYourTurn(state.describe_node())),
    };
    let spec = table
        .seats
        .iter()
        .find_map(|s| match s {
            Seat::Bot { spec, .. } => Some(spec.clone()),
            _ => None,
        })
        .ok_or_else(|| AdviceError::Agent("no agent sits at this table".into()))?;
    let seed = table.version() as u64 ^ 0xad71_ce00;
    let world = state.determinize(side, &mut ChaCha8Rng::seed_from_u64(seed));
    let legal = state.legal_actions();
    let index_of = |a: &engine::Action| legal.iter().position(|l| l == a);
    let entry = |a: &engine::Action, weight: f64, share: f64| json!({"i": index_of(a), "text": seat_words(&describe_action(state, *a), Some(side)), "weight": weight, "share": share});
    if let Some(path) = checkpoint_of(&spec) {
        let network = network(networks, &path).map_err(AdviceError::Agent)?;
        let e = network.evaluate(&[(&world, side as usize)]).map_err(AdviceError::Agent)?.remove(0);
        let mut ranked: Vec<(f32, engine::Action)> =
            e.priors.iter().copied().zip(e.legal.iter().copied()).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut candidates = Vec::new();
        for (p, a) in ranked.iter().take(TOP) {
            let mut c = entry(a, *p as f64, *p as f64);
            c["playouts"] = playouts(state, side, *a, seed).map_err(AdviceError::Agent)?;
            candidates.push(c);
        }
        return Ok(json!({
            "bot": spec, "kind": "network", "candidates": candidates, "value": e.value, "total": 1.0,
            "choice": candidates.first(), "playouts_how": PLAYOUTS_HOW,
        }));
    }
    let mut agent = make_agent(&spec, seed).map_err(AdviceError::Agent)?;
    let choice = agent.select_action(&world);
    let search = agent.last_search();
    let mut total = 0.0;
    let (kind, mut candidates) = match search {
        Some(mut weights) => {
            total = weights.iter().map(|(_, w)| w).sum::<f64>();
            let sum = total.max(f64::MIN_POSITIVE);
            weights.sort_by(|a, b| b.1.total_cmp(&a.1));
            let top: Vec<_> = weights.iter().take(TOP).map(|(a, w)| (*a, entry(a, *w, w / sum))).collect();
            ("search", top)
        }
        None => ("choice", vec![(choice, entry(&choice, 1.0, 1.0))]),
    };
    // Reasons: each candidate played on to the end from the person's information set.
    for (action, value) in &mut candidates {
        value["playouts"] = playouts(state, side, *action, seed).map_err(AdviceError::Agent)?;
    }
    let candidates: Vec<Value> = candidates.into_iter().map(|(_, v)| v).collect();
    Ok(json!({
        "bot": spec, "kind": kind, "candidates": candidates, "value": Value::Null, "total": total,
        "choice": entry(&choice, 1.0, 1.0), "playouts_how": PLAYOUTS_HOW,
    }))
}

/// The checkpoint of an agent that is the network alone (`policy:checkpoint=PATH,...`, or
/// blended with the scripted order, `policy-blend:`).
fn checkpoint_of(spec: &str) -> Option<String> {
    let args = training::play::registry().check(spec).ok()?;
    matches!(args.name(), "policy" | "policy-blend").then(|| args.text("checkpoint").map(String::from))?
}

/// The network at `path`, loaded once.
fn network(cache: &Mutex<Vec<(String, Arc<Network>)>>, path: &str) -> Result<Arc<Network>, String> {
    let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, n)) = cache.iter().find(|(p, _)| p == path) {
        return Ok(n.clone());
    }
    let n = Arc::new(Network::load_for_tde(Path::new(path))?);
    cache.push((path.to_string(), n.clone()));
    Ok(n)
}
