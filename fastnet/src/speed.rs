//! The speed figures `tde bench` prints for the fast network, each the median of repeated
//! timed runs over real positions: evaluations from scratch and incrementally (the
//! accumulator moved from the same side's previous position of the game), whole evaluations
//! with the features computed from the state, training samples, and labelled positions of
//! data generation.

use crate::data::Dataset;
use crate::network::{trunk, trunk_from_accumulator, value, Accumulator, Params};
use crate::quantised::QuantisedLayer;
use crate::train::{TrainConfig, Trainer};
use std::time::Instant;

/// Runs per figure; the median is reported.
const RUNS: usize = 5;

/// The median of `RUNS` runs of `f`, each returning (items, seconds): items per second.
fn median_rate(mut f: impl FnMut() -> (usize, f64)) -> f64 {
    let mut rates: Vec<f64> = (0..RUNS)
        .map(|_| {
            let (n, s) = f();
            n as f64 / s.max(1e-9)
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[RUNS / 2]
}

/// Evaluations per second of the network from each position's features, summed from scratch.
pub fn scratch_evaluations(params: &Params, data: &Dataset) -> f64 {
    median_rate(|| {
        let start = Instant::now();
        let mut sink = 0.0;
        for p in &data.positions {
            sink += value(params, &trunk(params, data.features_of(p)));
        }
        std::hint::black_box(sink);
        (data.positions.len(), start.elapsed().as_secs_f64())
    })
}

/// Evaluations per second with the accumulator updated from the position two before (the
/// same side's view of the previous decision), and the mean rows changed per update.
pub fn incremental_evaluations(params: &Params, data: &Dataset) -> (f64, f64) {
    let mut changed = 0usize;
    let rate = median_rate(|| {
        let first = |k: usize| data.positions.get(k).map_or(&[][..], |p| data.features_of(p));
        let mut accs = [Accumulator::new(params, first(0)), Accumulator::new(params, first(1))];
        changed = 0;
        let start = Instant::now();
        let mut sink = 0.0;
        for (i, p) in data.positions.iter().enumerate() {
            let acc = &mut accs[i % 2];
            changed += acc.update(params, data.features_of(p));
            sink += value(params, &trunk_from_accumulator(params, &acc.values));
        }
        std::hint::black_box(sink);
        (data.positions.len(), start.elapsed().as_secs_f64())
    });
    (rate, changed as f64 / data.positions.len().max(1) as f64)
}

/// The same two figures with the 16-bit first layer of [`crate::quantised`] (play form).
pub fn quantised_evaluations(params: &Params, data: &Dataset) -> Result<(f64, f64), String> {
    let layer = QuantisedLayer::new(params)?;
    let scratch = median_rate(|| {
        let start = Instant::now();
        let mut sink = 0.0;
        for p in &data.positions {
            sink += value(params, &layer.trunk(params, data.features_of(p)));
        }
        std::hint::black_box(sink);
        (data.positions.len(), start.elapsed().as_secs_f64())
    });
    let incremental = median_rate(|| {
        let first = |k: usize| data.positions.get(k).map_or(&[][..], |p| data.features_of(p));
        let mut accs = [layer.accumulator(first(0)), layer.accumulator(first(1))];
        let start = Instant::now();
        let mut sink = 0.0;
        for (i, p) in data.positions.iter().enumerate() {
            let acc = &mut accs[i % 2];
            acc.update(&layer, data.features_of(p));
            sink += value(params, &acc.trunk(params));
        }
        std::hint::black_box(sink);
        (data.positions.len(), start.elapsed().as_secs_f64())
    });
    Ok((scratch, incremental))
}

/// Whole evaluations per second of game states: the features computed, then the network.
pub fn state_evaluations(params: &Params, states: &[(engine::GameState, engine::state::Side)]) -> f64 {
    let mut features = Vec::new();
    median_rate(|| {
        let start = Instant::now();
        let mut sink = 0.0;
        for (s, side) in states {
            crate::features::position_features(s, *side, &mut features);
            sink += value(params, &trunk(params, &features));
        }
        std::hint::black_box(sink);
        (states.len(), start.elapsed().as_secs_f64())
    })
}

/// Training samples per second with `threads` threads (batches of the default size).
pub fn training_samples(
    params: &Params,
    data: &Dataset,
    threads: usize,
    steps: usize,
) -> Result<f64, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    pool.install(|| {
        let config = TrainConfig::default();
        let batch = config.batch;
        let mut trainer = Trainer::new(params.clone(), Default::default(), config, 1);
        trainer.step(data, 1e-4);
        Ok(median_rate(|| {
            let start = Instant::now();
            for _ in 0..steps {
                trainer.step(data, 1e-4);
            }
            (steps * batch, start.elapsed().as_secs_f64())
        }))
    })
}

/// Every figure of the fast network `tde bench` prints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FastSpeed {
    /// Parameters.
    pub params: usize,
    /// Mean active features of a position.
    pub mean_active_features: f64,
    /// Network evaluations per second, one thread, the first layer summed from scratch.
    pub scratch_per_s: f64,
    /// The same with the accumulator updated from the same side's previous position.
    pub incremental_per_s: f64,
    /// Evaluations per second with the 16-bit first layer (play form), from scratch.
    pub quantised_scratch_per_s: f64,
    /// The same, incremental.
    pub quantised_incremental_per_s: f64,
    /// Mean first-layer rows changed per incremental update.
    pub incremental_rows_changed: f64,
    /// Whole evaluations per second of game states (features computed), one thread.
    pub states_per_s: f64,
    /// Training samples per second on one thread.
    pub train_per_s_one_thread: f64,
    /// Training samples per second on every thread.
    pub train_per_s_all_threads: f64,
    /// Labelled positions per hour of data generation on every thread.
    pub data_positions_per_hour: f64,
    /// Expert iteration's self-play ([`crate::expert`], its default search): labelled
    /// positions and games per hour on every thread.
    pub selfplay_positions_per_hour: f64,
    /// See `selfplay_positions_per_hour`.
    pub selfplay_games_per_hour: f64,
    /// Threads of the measurements on every thread.
    pub threads: usize,
}

/// Measure the fast network `net`: `games` teacher games on the default board and crews make
/// the positions timed (and the data-generation figure), and as many expert-iteration games
/// the self-play figures.
pub fn measure(net: &std::sync::Arc<crate::agent::FastNet>, games: u64) -> Result<FastSpeed, String> {
    use engine::setup::GameConfig;
    use eval::lineup::{Lineups, Pool};
    let (params, prior) = (net.params(), net.prior.clone());
    let c = GameConfig::default();
    let lineups = Lineups::new(c.clone(), Pool::Fixed(c.board.clone()), Pool::Fixed(c.crews.clone()))?;
    let plan = crate::data::DataPlan {
        games,
        seed: 77,
        teachers: vec![crate::data::Teacher::Learned(prior.clone())],
        temperature: 0.05,
        prior,
        other_nodes: 0.25,
        decisions: 1.0,
    };
    let start = Instant::now();
    let data = crate::data::generate(&plan, &lineups, &|| {})?;
    let data_positions_per_hour =
        data.positions.len() as f64 / start.elapsed().as_secs_f64().max(1e-9) * 3600.0;
    let expert =
        crate::expert::ExpertPlan { games, seed: 77, ..crate::expert::ExpertPlan::defaults(net.clone()) };
    let start = Instant::now();
    let (selfplay, _) = crate::expert::expert_games(&expert, &lineups, &|| {})?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let selfplay_positions_per_hour = selfplay.positions.len() as f64 / seconds * 3600.0;
    let selfplay_games_per_hour = games as f64 / seconds * 3600.0;
    let states = sample_states(&lineups, 40)?;
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let (scratch_per_s, (incremental_per_s, incremental_rows_changed), quantised, states_per_s) = one
        .install(|| {
            (
                scratch_evaluations(params, &data),
                incremental_evaluations(params, &data),
                quantised_evaluations(params, &data),
                state_evaluations(params, &states),
            )
        });
    let (quantised_scratch_per_s, quantised_incremental_per_s) = quantised?;
    let threads = rayon::current_num_threads();
    Ok(FastSpeed {
        params: params.data.len(),
        mean_active_features: data.features.len() as f64 / data.positions.len().max(1) as f64,
        scratch_per_s,
        incremental_per_s,
        quantised_scratch_per_s,
        quantised_incremental_per_s,
        incremental_rows_changed,
        states_per_s,
        train_per_s_one_thread: training_samples(params, &data, 1, 20)?,
        train_per_s_all_threads: training_samples(params, &data, threads, 20)?,
        data_positions_per_hour,
        selfplay_positions_per_hour,
        selfplay_games_per_hour,
        threads,
    })
}

/// Every `every`th decision state of random games (with the deciding side).
fn sample_states(
    lineups: &eval::lineup::Lineups,
    games: u64,
) -> Result<Vec<(engine::GameState, engine::state::Side)>, String> {
    use agents::{Agent, Game, Turn};
    use engine::scenario::types::Scenario;
    use rand::SeedableRng;
    let mut out = Vec::new();
    for g in 0..games {
        let scenario = Scenario::ALL[g as usize % Scenario::ALL.len()];
        let (mut state, _) = lineups.game(scenario, g)?;
        let mut agent = agents::RandomAgent::<engine::Action>::new(g);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(g);
        let mut k = 0;
        loop {
            let action = match Game::turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance(&mut rng).ok_or("no outcomes")?,
                Turn::Player(p) => {
                    k += 1;
                    if k % 4 == 0 {
                        out.push((state.clone(), p as engine::state::Side));
                    }
                    agent.select_action(&state)
                }
            };
            state.apply_legal(action);
        }
    }
    Ok(out)
}
