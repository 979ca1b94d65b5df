//! The Encounter's network agents and its training (`tde encounter train`): the framework's
//! generic imitation data ([`crate::network_training::imitation`]) and training loop
//! ([`crate::network_training::learner::train`]) teaching a policy/value network the Encounter
//! from its scripted players, and the network playing either side as
//! `policy:checkpoint=PATH[,temp=T]` (the network alone) or `az:net=PATH[,...]`
//! (AlphaZero-style search with it), registered beside the agents of [`encounter::registry`].

use crate::network::loaded::Network;
use crate::network_training::config::Config;
use crate::network_training::imitation::{imitation_game, Seat};
use crate::network_training::learner::{train as train_network, TrainOutcome, TrainRun};
use crate::play;
use crate::Sample;
use ::encounter::Encounter;
use agents::{Agent, Args, Registry, TensorGame};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Steps after which an Encounter that has not ended is refused as a training game.
const MAX_STEPS: usize = 100_000;

/// The Encounter's agents: those of [`encounter::registry`] (`scripted`, `random`, `mcts`)
/// and the network ones, `policy:checkpoint=PATH[,temp=T]` and `az:net=PATH[,...]`, whose
/// checkpoints must read and write the Encounter's tensors.
pub fn registry() -> Registry<Encounter> {
    let mut r = ::encounter::registry();
    r.add(play::policy_kind(|args, seed| play::build_policy(args, seed, network(args, "checkpoint")?)));
    r.add(play::az_kind(|args, seed| play::build_az(args, seed, network(args, "net")?)));
    r
}

/// An Encounter agent from its spec, seeded (see [`registry`]).
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Encounter>>, String> {
    static REGISTRY: OnceLock<Registry<Encounter>> = OnceLock::new();
    REGISTRY.get_or_init(registry).make(spec, seed)
}

/// The checkpoint a spec's path parameter `key` names, checked to fit the Encounter.
fn network(args: &Args, key: &str) -> Result<Arc<Network>, String> {
    play::network_for(args, key, &Encounter::start().tensor_shape())
}

/// One training game's seats: an expert against an expert, or (with opponents) an expert
/// against an opponent on a side drawn at random; the opponent's decisions teach only the
/// value when `value_from_opponents`, and nothing otherwise.
fn seats(config: &Config, game: usize) -> Result<(Vec<Seat<Encounter>>, u64), String> {
    let d = &config.data;
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let seed = rng.gen::<u64>();
    let pick = |list: &[String], rng: &mut ChaCha8Rng| list[rng.gen_range(0..list.len())].clone();
    let expert = |rng: &mut ChaCha8Rng, k: u64| -> Result<Seat<Encounter>, String> {
        Ok(Seat { agent: make_agent(&pick(&d.agents, rng), seed ^ k)?, expert: true })
    };
    let seats = if d.opponents.is_empty() {
        vec![expert(&mut rng, 1)?, expert(&mut rng, 2)?]
    } else {
        let opponent_side = rng.gen_range(0..2);
        let mut seats = Vec::new();
        for side in 0..2 {
            if side == opponent_side {
                let agent = make_agent(&pick(&d.opponents, &mut rng), seed ^ 3)?;
                seats.push(Seat { agent, expert: false });
            } else {
                seats.push(expert(&mut rng, 4)?);
            }
        }
        seats
    };
    Ok((seats, seed))
}

/// Training positions of the Encounter.
type Positions = Vec<Sample<Encounter>>;

/// Play the configuration's games into training and validation positions (every
/// `1 / data.validation`-th game held out).
fn positions(config: &Config) -> Result<(Positions, Positions), String> {
    let d = &config.data;
    let games: Vec<Result<Vec<Sample<Encounter>>, String>> = (0..d.games)
        .into_par_iter()
        .map(|g| {
            let (mut seats, seed) = seats(config, g)?;
            let mut samples = imitation_game(Encounter::start(), &mut seats, seed, d.every, MAX_STEPS)?;
            if !d.opponents.is_empty() && !d.value_from_opponents {
                samples.retain(|s| s.teaches_policy);
            }
            Ok(samples)
        })
        .collect();
    let hold_every = if d.validation > 0.0 { (1.0 / d.validation).round().max(2.0) as usize } else { 0 };
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (g, samples) in games.into_iter().enumerate() {
        let samples = samples.map_err(|e| format!("game {g}: {e}"))?;
        if hold_every > 0 && g % hold_every == hold_every - 1 {
            valid.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    if train.is_empty() {
        return Err("the games gave no training positions".into());
    }
    Ok((train, valid))
}

/// What [`train`] did: the positions it taught from and the training's outcome.
#[derive(Clone, Debug)]
pub struct Trained {
    /// Games played.
    pub games: usize,
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions (the training positions stand in for them when there are none).
    pub valid_positions: usize,
    /// The training's end: steps, last checkpoint, last validation scores.
    pub outcome: TrainOutcome,
}

/// Teach a network the Encounter from the configuration file `config_file`'s games (of
/// `[data]` the Encounter uses `games`, `agents` (the experts), `opponents`,
/// `value_from_opponents`, `every` and `validation`), its checkpoints, metrics and TensorBoard
/// logs in the folder `run`; `resume` continues the run from its latest checkpoint (the games
/// are played again from the same seeds, so they are the same).
pub fn train(config_file: &Path, run: &Path, resume: bool, progress: bool) -> Result<Trained, String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    let file = config_file.display().to_string();
    if config.data.agents.iter().chain(&config.data.opponents).any(|s| s.starts_with("policy:")) {
        return Err(format!(
            "{file}: data: a network cannot be its own expert here; name scripted, random or mcts"
        ));
    }
    let (train_set, valid) = positions(&config).map_err(|e| format!("{file}: {e}"))?;
    let outcome = train_network(TrainRun {
        run,
        config: &config,
        train: &train_set,
        valid: if valid.is_empty() { &train_set } else { &valid },
        resume,
        progress,
        evaluate: None,
        stop_after: None,
    })?;
    Ok(Trained {
        games: config.data.games,
        train_positions: train_set.len(),
        valid_positions: valid.len(),
        outcome,
    })
}
