//! Running self-play: the actor loop, the learner loop, and both in one process, all working
//! through the run folder (`config.toml`, `checkpoints/`, `shards/`, `learner.json`,
//! `metrics.jsonl`, `tensorboard/`), and the TDE evaluation arena of new versions.

use crate::gate::sprt::Decision;
use crate::network_training::lock::ProcessLock;
use crate::selfplay::actor::{latest_network, lock_actor, play_shard, EvalCache};
use crate::selfplay::config::SelfPlayConfig;
use crate::selfplay::learner::{read_state, EvalFn, EvalReport, Learner};
use crate::selfplay::source::{GameSource, TdeSource};
use agents::{Agent, TensorGame, TensorShape};
use engine::GameState;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// Which part of self-play a process runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Actor and learner taking turns in one process.
    Single,
    /// An actor with this ID, stopping after `shards` shards if given.
    Actor {
        /// The actor's ID (names its shards).
        id: String,
        /// Shards to play before stopping (else until the learner is done).
        shards: Option<u64>,
    },
    /// The learner alone, waiting for the actors' shards.
    Learner,
}

/// Write the configuration into a new run, or check it against the run's own; returns the
/// configuration to use. Only `learner.steps` may change on a resumed run.
pub fn prepare_run(run: &Path, config: Option<&SelfPlayConfig>) -> Result<SelfPlayConfig, String> {
    let saved = run.join("config.toml");
    let existing =
        if saved.is_file() { Some(SelfPlayConfig::load(&saved).map_err(|e| e.to_string())?) } else { None };
    let config = match (config, existing) {
        (None, Some(c)) => c,
        (None, None) => return Err(format!("{} has no config.toml: start it with --config", run.display())),
        (Some(c), Some(before)) => {
            let mut same = before.clone();
            same.learner.steps = c.learner.steps;
            if same != *c {
                return Err(format!(
                    "{} was started with another configuration ({}); only learner.steps may change",
                    run.display(),
                    saved.display()
                ));
            }
            c.clone()
        }
        (Some(c), None) => c.clone(),
    };
    std::fs::create_dir_all(run).map_err(|e| format!("{}: {e}", run.display()))?;
    let text = toml::to_string(&config).map_err(|e| e.to_string())?;
    engine::record::write_atomic(&saved, text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(config)
}

/// Run one role of self-play on `run` until the learner is done (or the actor's shards are
/// played); returns a summary.
#[allow(clippy::too_many_arguments)]
pub fn drive<G: TensorGame>(
    run: &Path,
    config: &SelfPlayConfig,
    source: &dyn GameSource<G>,
    shape: &TensorShape,
    role: Role,
    evaluate: Option<&EvalFn<'_>>,
    progress: bool,
) -> Result<String, String>
where
    G::Action: Serialize + DeserializeOwned,
{
    match role {
        Role::Single => {
            let _lock = ProcessLock::take(&run.join("learner.lock"), "the learner of this run")?;
            let mut learner = Learner::open(run, config, source, shape)?;
            let bar = crate::progress_bar(progress, config.learner.steps, "self-play steps");
            bar.set_position(learner.state.step);
            let mut cache = EvalCache::new(config.actors.cache);
            let mut loaded: Option<(String, std::sync::Arc<crate::network::loaded::Network>)> = None;
            while !learner.done() {
                if loaded.as_ref().map(|l| &l.0) != Some(&learner.state.version) {
                    loaded = latest_network(run)?;
                    cache.clear();
                }
                let (version, net) = loaded.clone().ok_or("the learner published no version")?;
                let (_, (games, stats)) =
                    play_shard(run, config, source, net.as_ref(), &version, "single", &mut cache)?;
                learner.ingest()?;
                learner.log_actor(&stats, games.len(), cache.hit_rate())?;
                learner.train_allowed(u64::MAX, evaluate)?;
                bar.set_position(learner.state.step);
                bar.set_message(format!(
                    "{} games, {:.0} positions/s, window {}",
                    learner.state.games,
                    stats.positions as f64 / stats.seconds.max(1e-9),
                    learner.window_len()
                ));
            }
            bar.finish_and_clear();
            Ok(summary(&learner.state, run))
        }
        Role::Actor { id, shards } => {
            let _lock = lock_actor(run, &id)?;
            let mut cache = EvalCache::new(config.actors.cache);
            let mut loaded: Option<(String, std::sync::Arc<crate::network::loaded::Network>)> = None;
            // Each actor keeps its own figures: actors/ID/metrics.jsonl and its TensorBoard run.
            let mut metrics = crate::network_training::metrics::Metrics::open(&run.join("actors").join(&id))
                .map_err(|e| format!("{}: {e}", run.display()))?;
            let (mut played, mut positions, started) = (0u64, 0u64, Instant::now());
            let bar = crate::progress_bar(progress, shards.unwrap_or(0), &format!("actor {id} shards"));
            loop {
                if shards.is_some_and(|n| played >= n) {
                    break;
                }
                if read_state(run)?.is_some_and(|s| s.step >= config.learner.steps) {
                    break;
                }
                match latest_network(run)? {
                    Some(latest) if loaded.as_ref().map(|l| &l.0) != Some(&latest.0) => {
                        loaded = Some(latest);
                        cache.clear();
                    }
                    Some(_) => {}
                    None => {
                        std::thread::sleep(Duration::from_millis(500));
                        continue;
                    }
                }
                let (version, net) = loaded.clone().ok_or("no network version")?;
                let (seq, (games, stats)) =
                    play_shard(run, config, source, net.as_ref(), &version, &id, &mut cache)?;
                let t = stats.seconds.max(1e-9);
                metrics
                    .log(
                        seq,
                        &[
                            ("selfplay/games_per_second", games.len() as f64 / t),
                            ("selfplay/evaluations_per_second", stats.positions as f64 / t),
                            ("selfplay/forward_passes_per_second", stats.forward_passes as f64 / t),
                            ("selfplay/cache_hit_rate", cache.hit_rate()),
                        ],
                    )
                    .map_err(|e| format!("metrics: {e}"))?;
                played += 1;
                positions += stats.positions;
                bar.inc(1);
            }
            bar.finish_and_clear();
            Ok(format!(
                "actor {id}: {played} shards, {positions} positions evaluated in {:.0} s",
                started.elapsed().as_secs_f64()
            ))
        }
        Role::Learner => {
            let _lock = ProcessLock::take(&run.join("learner.lock"), "the learner of this run")?;
            let mut learner = Learner::open(run, config, source, shape)?;
            let bar = crate::progress_bar(progress, config.learner.steps, "learner steps");
            while !learner.done() {
                learner.ingest()?;
                if learner.train_allowed(u64::MAX, evaluate)? == 0 {
                    std::thread::sleep(Duration::from_millis(500));
                }
                bar.set_position(learner.state.step);
            }
            bar.finish_and_clear();
            Ok(summary(&learner.state, run))
        }
    }
}

fn summary(state: &crate::selfplay::learner::LearnerState, run: &Path) -> String {
    format!(
        "run {}: step {}, version {} ({} versions), {} games and {} positions read, {} samples trained, best {}",
        run.display(),
        state.step,
        state.version,
        state.versions,
        state.games,
        state.positions,
        state.samples,
        state.best
    )
}

/// One evaluation game `g` of `ours` against `theirs` (sides alternating with `g`, set-ups
/// dealt like the actors', two games per set-up): `ours`'s score.
fn evaluation_game(
    config: &SelfPlayConfig,
    source: &TdeSource,
    ours: &str,
    theirs: &str,
    g: usize,
) -> Result<f64, String> {
    let (_, state) = source.deal(config.seed ^ 0xE7A1 ^ (g as u64 / 2))?;
    let side = g % 2;
    let mut players: Vec<Box<dyn Agent<GameState>>> =
        vec![crate::play::make_agent(ours, g as u64)?, crate::play::make_agent(theirs, g as u64 + 1)?];
    if side == 1 {
        players.swap(0, 1);
    }
    let end = agents::play_game(state, &mut players, 31 + g as u64, |_, _| {});
    Ok(crate::network_training::bootstrap::game_score(agents::Game::returns(&end)[side]))
}

/// The TDE evaluation arena of a new version, played by the agent the network is meant for
/// ([`crate::selfplay::config::EvalConfig::agent_for`]): `eval.games` games against each
/// configured opponent, and the promotion gate against the best version, played in rounds
/// until [`crate::gate::sprt::Gate`] decides; each with its score and Wilson 95% interval.
/// A game that cannot be played drops its opponent from the report (and keeps the best
/// version).
pub fn tde_evaluation(
    config: &SelfPlayConfig,
    source: &TdeSource,
    new: &Path,
    best: Option<&Path>,
) -> EvalReport {
    let search = config.eval_search().spec();
    let ours = config.eval.agent_for(new, &search);
    let mut report = EvalReport::default();
    if let Some(best) = best {
        let theirs = config.eval.agent_for(best, &search);
        let gate = config.eval.gate();
        let round = (2 * rayon::current_num_threads()).max(16);
        let (mut total, mut played) = (0.0, 0usize);
        let decision = loop {
            let upto = (played + round).min(gate.max_games);
            let scores: Result<Vec<f64>, String> = (played..upto)
                .into_par_iter()
                .map(|g| evaluation_game(config, source, &ours, &theirs, g))
                .collect();
            let Ok(scores) = scores else { break Decision::Keep };
            total += scores.iter().sum::<f64>();
            played = upto;
            match gate.decide(total, played) {
                Decision::Continue => continue,
                decision => break decision,
            }
        };
        if played > 0 {
            let n = played as f64;
            report.scores.push((
                "previous_best".into(),
                total / n,
                eval::win_draw_loss::wilson(total, n, 1.96),
            ));
        }
        report.promote = decision == Decision::Promote;
        report.gate_games = Some(played);
    }
    let games = config.eval.games;
    for name in &config.eval.opponents {
        let scores: Result<Vec<f64>, String> =
            (0..games).into_par_iter().map(|g| evaluation_game(config, source, &ours, name, g)).collect();
        if let Ok(scores) = scores {
            let (total, n) = (scores.iter().sum::<f64>(), scores.len() as f64);
            report.scores.push((
                name.clone(),
                total / n.max(1.0),
                eval::win_draw_loss::wilson(total, n, 1.96),
            ));
        }
    }
    report
}

/// `tde train` / `tde selfplay` for TDE: run `role` on `run`, with the configuration file for
/// a new run (or the run's own).
pub fn tde_selfplay(run: &Path, config: Option<&Path>, role: Role, progress: bool) -> Result<String, String> {
    let given = config.map(SelfPlayConfig::load).transpose().map_err(|e| e.to_string())?;
    let config = prepare_run(run, given.as_ref())?;
    let source = TdeSource::new(&config.actors)?;
    let (_, first) = source.deal(config.seed)?;
    let shape = agents::TensorGame::tensor_shape(&first);
    let evaluate = |new: &Path, best: Option<&Path>| tde_evaluation(&config, &source, new, best);
    drive(run, &config, &source, &shape, role, Some(&evaluate), progress)
}
