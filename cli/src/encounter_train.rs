//! `tde encounter train` and the network agents of the Encounter: the framework's generic
//! imitation data ([`training::network_training::imitation`]) and training loop
//! ([`training::network_training::learner::train`]) teaching a policy/value network the Encounter from
//! its scripted players, and the network playing either side as `policy:checkpoint=PATH[,temp=T]`
//! (the network alone) or `az:net=PATH[,...]` (AlphaZero-style search with it), registered
//! beside the agents of [`encounter::registry`].

use agents::{Agent, Args, Registry, TensorGame};
use encounter::Encounter;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use training::network::loaded::Network;
use training::network_training::config::Config;
use training::network_training::imitation::{imitation_game, Seat};
use training::network_training::learner::{train, TrainRun};
use training::play;
use training::Sample;

/// Steps after which an Encounter that has not ended is refused as a training game.
const MAX_STEPS: usize = 100_000;

/// `tde encounter train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// The training configuration (the TOML `tde train` reads; of `[data]` the Encounter uses
    /// `games`, `agents` (the experts), `opponents`, `value_from_opponents`, `every` and
    /// `validation`).
    #[arg(long, default_value = "configs/training/encounter.toml")]
    pub config: PathBuf,
    /// Run folder: checkpoints, metrics and TensorBoard logs.
    #[arg(long, default_value = "runs/encounter")]
    pub run: PathBuf,
    /// Continue the run's training from its latest checkpoint (the games are played again
    /// from the same seeds, so they are the same).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The Encounter's agents: those of [`encounter::registry`] (`scripted`, `random`, `mcts`)
/// and the network ones, `policy:checkpoint=PATH[,temp=T]` and `az:net=PATH[,...]`, whose
/// checkpoints must read and write the Encounter's tensors.
pub fn encounter_registry() -> Registry<Encounter> {
    let mut r = encounter::registry();
    r.add(play::policy_kind(|args, seed| {
        play::build_policy(args, seed, encounter_network(args, "checkpoint")?)
    }));
    r.add(play::az_kind(|args, seed| play::build_az(args, seed, encounter_network(args, "net")?)));
    r
}

/// An Encounter agent from its spec, seeded (see [`encounter_registry`]).
pub fn encounter_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Encounter>>, String> {
    static REGISTRY: OnceLock<Registry<Encounter>> = OnceLock::new();
    REGISTRY.get_or_init(encounter_registry).make(spec, seed)
}

/// The checkpoint a spec's path parameter `key` names, checked to fit the Encounter.
fn encounter_network(args: &Args, key: &str) -> Result<Arc<Network>, String> {
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
        Ok(Seat { agent: encounter_agent(&pick(&d.agents, rng), seed ^ k)?, expert: true })
    };
    let seats = if d.opponents.is_empty() {
        vec![expert(&mut rng, 1)?, expert(&mut rng, 2)?]
    } else {
        let opponent_side = rng.gen_range(0..2);
        let mut seats = Vec::new();
        for side in 0..2 {
            if side == opponent_side {
                let agent = encounter_agent(&pick(&d.opponents, &mut rng), seed ^ 3)?;
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

/// Run `tde encounter train`.
pub fn train_cmd(args: &TrainArgs) -> Result<String, String> {
    let config = Config::load(&args.config).map_err(|e| e.to_string())?;
    let file = args.config.display().to_string();
    if config.data.agents.iter().chain(&config.data.opponents).any(|s| s.starts_with("policy:")) {
        return Err(format!(
            "{file}: data: a network cannot be its own expert here; name scripted, random or mcts"
        ));
    }
    let (train_set, valid) = positions(&config).map_err(|e| format!("{file}: {e}"))?;
    let outcome = train(TrainRun {
        run: &args.run,
        config: &config,
        train: &train_set,
        valid: if valid.is_empty() { &train_set } else { &valid },
        resume: args.resume,
        progress: !args.quiet,
        evaluate: None,
        stop_after: None,
    })?;
    let v = outcome.validation;
    Ok(format!(
        "{} training and {} validation positions from {} games; {} steps.\n\
         validation: policy cross-entropy {:.3}, agreement with the experts {:.1}%, value error {:.3}\n\
         checkpoint: {} (play it: tde encounter arena --party policy:checkpoint={})",
        train_set.len(),
        valid.len(),
        config.data.games,
        outcome.step,
        v.policy_loss,
        100.0 * v.accuracy,
        v.value_error,
        outcome.checkpoint.display(),
        args.run.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::play_game;
    use encounter::{DM_SIDE, PARTY_SIDE};
    use std::path::Path;

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    /// Wins of each side over `games` Encounters between two agent specs.
    fn wins(party: &str, dm: &str, games: u64) -> [u32; 3] {
        let mut wins = [0; 3];
        for seed in 0..games {
            let mut agents =
                vec![encounter_agent(party, 2 * seed).unwrap(), encounter_agent(dm, 2 * seed + 1).unwrap()];
            let end = play_game(Encounter::start(), &mut agents, 500 + seed, |_, _| {});
            wins[end.winner().unwrap_or(2)] += 1;
        }
        wins
    }

    #[test]
    fn a_network_taught_by_the_scripted_players_beats_random_play_on_both_sides() {
        // The shipped configuration, cut to 200 games and 800 steps.
        let text = std::fs::read_to_string(repo().join("configs/training/encounter.toml")).unwrap();
        let text = text.replace("games = 600", "games = 200").replace("steps = 1500", "steps = 800");
        let dir = std::env::temp_dir().join(format!("tde-encounter-train-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("encounter.toml");
        std::fs::write(&config, text).unwrap();
        let run = dir.join("run");
        let args = TrainArgs { config, run: run.clone(), resume: false, quiet: true };
        let summary = train_cmd(&args).unwrap();
        assert!(summary.contains("800 steps"), "{summary}");
        // Random play seldom ends an Encounter: the adversaries must all fall (a random party
        // ends a few since its Characters may take additional Minor actions for Fatigue and
        // Isolde's Fireball catches several goblins).
        let random = wins("random", "random", 40);
        assert!(random[PARTY_SIDE] <= 6 && random[DM_SIDE] <= 2, "random against random: {random:?}");
        let net = format!("policy:checkpoint={}", run.display());
        let as_party = wins(&net, "random", 40);
        assert!(as_party[PARTY_SIDE] >= 10, "the network's party against a random DM: {as_party:?}");
        let as_dm = wins("random", &net, 40);
        assert!(as_dm[DM_SIDE] >= 16, "the network's DM against a random party: {as_dm:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_network_specs_and_checkpoints_of_another_game_are_refused() {
        let e = encounter_agent("policy:temp=1", 0).err().unwrap();
        assert!(e.contains("checkpoint"), "{e}");
        let e = encounter_agent("policy:checkpoint=x,depth=3", 0).err().unwrap();
        assert!(e.contains("depth"), "{e}");
        let e = encounter_agent("policy:checkpoint=x,temp=-1", 0).err().unwrap();
        assert!(e.contains("temp"), "{e}");
        let e = encounter_agent("az:sims=8", 0).err().unwrap();
        assert!(e.contains("net"), "{e}");
        // TDE's shipped network reads other tensors than the Encounter's.
        let tde = repo().join("checkpoints/bootstrap");
        let e = encounter_agent(&format!("policy:checkpoint={}", tde.display()), 0).err().unwrap();
        assert!(e.contains("checkpoint"), "{e}");
        let e = encounter_agent("wizard", 0).err().unwrap();
        assert!(e.contains("policy") && e.contains("az"), "the known agents are listed: {e}");
    }
}
