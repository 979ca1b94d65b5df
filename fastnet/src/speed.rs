//! The speed figures `tde bench` prints for the fast network, each the median of repeated
//! timed runs over real positions: evaluations from scratch and incrementally (the
//! accumulator moved from the same side's previous position of the game), whole evaluations
//! with the features computed from the state, training samples, and labelled positions of
//! data generation.

use crate::data::Dataset;
use crate::network::{trunk, trunk_from_accumulator, value, Accumulator, Params};
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
