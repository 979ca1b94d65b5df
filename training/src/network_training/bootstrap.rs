//! The bootstrap run behind `tde train`: play the expert games into shards (or finish them),
//! read them back, train with evaluation games against fixed opponents, and report.
//!
//! A run folder holds `config.toml` (the configuration it was started with), `shards/`,
//! `checkpoints/`, `metrics.jsonl` and `tensorboard/`. Everything resumes from it.

use crate::network::loaded::Network;
use crate::network::net::PolicyValueNet;
use crate::network_training::config::Config;
use crate::network_training::learner::{train, TrainRun};
use crate::play::policy::PolicyAgent;
use agents::Agent;
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// Options of one `tde train` call.
pub struct BootstrapOptions<'a> {
    /// The configuration file.
    pub config: &'a Path,
    /// The run folder.
    pub run: &'a Path,
    /// Continue an interrupted run.
    pub resume: bool,
    /// Show progress bars.
    pub progress: bool,
}

/// A game's score for a player from its return: 1 for a win, ½ for a draw, 0 for a loss.
pub(crate) fn game_score(ret: f64) -> f64 {
    if ret > 0.0 {
        1.0
    } else if ret < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// Score of a network (playing alone, most probable action) against `opponent` over `games`
/// games of the configured scenarios, sides alternating: wins plus half the draws, per game.
pub fn policy_score(
    config: &Config,
    net: &PolicyValueNet,
    opponent: &str,
    games: usize,
) -> Result<f64, String> {
    let network = Arc::new(Network::from_net(net.clone(), "training".into())?);
    let results: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| -> Result<f64, String> {
            let shard = crate::network_training::expert::play_setup(config, 1_000_000 + g)?;
            let setup =
                GameConfig { board: shard.1, crews: shard.2, scenario: shard.0, ..GameConfig::default() };
            let state = new_game(&setup).map_err(|e| e.to_string())?;
            let ours = g % 2;
            let mut players: Vec<Box<dyn Agent<GameState>>> = vec![
                Box::new(PolicyAgent::new(network.clone(), 0.0, g as u64)),
                agents::make_agent(opponent, g as u64)?,
            ];
            if ours == 1 {
                players.swap(0, 1);
            }
            let end = agents::play_game(state, &mut players, 7_000 + g as u64, |_, _| {});
            Ok(game_score(end.returns()[ours]))
        })
        .collect::<Result<_, _>>()?;
    Ok(results.iter().sum::<f64>() / games.max(1) as f64)
}

/// Run (or resume) a bootstrap training; returns a summary to print.
pub fn bootstrap(options: BootstrapOptions<'_>) -> Result<String, String> {
    let config = Config::load(options.config).map_err(|e| e.to_string())?;
    let run = options.run;
    std::fs::create_dir_all(run).map_err(|e| format!("{}: {e}", run.display()))?;
    let _lock =
        crate::network_training::lock::ProcessLock::take(&run.join("train.lock"), "a training of this run")?;
    let saved = run.join("config.toml");
    if saved.is_file() {
        let before = Config::load(&saved).map_err(|e| e.to_string())?;
        let mut same = before.clone();
        same.train.steps = config.train.steps;
        if same != config {
            return Err(format!(
                "{} was started with another configuration ({}); only train.steps may change",
                run.display(),
                saved.display()
            ));
        }
        if !options.resume && run.join("checkpoints").join("latest").is_file() {
            return Err(format!(
                "{} already has checkpoints: add --resume, or choose a new run folder",
                run.display()
            ));
        }
    }
    let text = toml::to_string(&config).map_err(|e| e.to_string())?;
    engine::record::write_atomic(&saved, text.as_bytes()).map_err(|e| e.to_string())?;
    let played = crate::network_training::expert::generate(run, &config, options.progress)?;
    let (train_set, valid_set) = crate::network_training::expert::load(run, &config)?;
    let evaluate = |net: &PolicyValueNet| {
        config
            .train
            .eval_opponents
            .iter()
            .filter_map(|o| {
                let games = config.train.eval_games;
                let s = policy_score(&config, net, o, games).ok()?;
                let [low, high] = eval::win_draw_loss::wilson(s * games as f64, games as f64, 1.96);
                Some([(format!("vs_{o}"), s), (format!("vs_{o}_low"), low), (format!("vs_{o}_high"), high)])
            })
            .flatten()
            .collect()
    };
    let outcome = train(TrainRun {
        run,
        config: &config,
        train: &train_set,
        valid: &valid_set,
        resume: true,
        progress: options.progress,
        evaluate: Some(&evaluate),
        stop_after: None,
    })?;
    Ok(format!(
        "run {}: {played} expert games played now ({} in all), {} training and {} validation positions\n\
         step {}: validation policy loss {:.3}, accuracy {:.3}, value error {:.3}\n\
         checkpoint {}",
        run.display(),
        config.data.games,
        train_set.len(),
        valid_set.len(),
        outcome.step,
        outcome.validation.policy_loss,
        outcome.validation.accuracy,
        outcome.validation.value_error,
        outcome.checkpoint.display()
    ))
}
