//! Fitting the learned leaf value ([`agents::learned::leaf`], `tde leaf-value`): positions of
//! the learned player's own games ([`super::games`]), each valued by the mean result of games
//! the generation plays on from it to the end, and per-scenario weights of the leaf value's
//! features fitted to those means by least squares on `tanh(w · f)`, regularised toward the
//! material count's weights. Every tenth game is held out, and the report compares the fitted
//! value's squared error there with the material count's and with a constant 0.

use super::games::{mix, Games};
use agents::learned::generation::SCENARIOS;
use agents::learned::leaf::{features, LeafValue, FEATURE_COUNT};
use agents::{Agent, Evaluator, LearnedAgent};
use engine::state::Player;
use engine::GameState;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How positions are drawn and valued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeafSettings {
    /// Games whose positions are valued.
    pub games: u32,
    /// Chance that a decision's position is kept.
    pub rate: f64,
    /// Rollouts from each kept position.
    pub rollouts: u32,
    /// Weight of the penalty on the distance from the material count's weights.
    pub penalty: f64,
    /// Seed of the games and rollouts.
    pub seed: u64,
}

impl Default for LeafSettings {
    fn default() -> Self {
        LeafSettings { games: 400, rate: 0.05, rollouts: 4, penalty: 1e-3, seed: 1 }
    }
}

/// A valued position.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The game it came from.
    pub game: u64,
    /// Its scenario's block ([`SCENARIOS`] order).
    pub scenario: usize,
    /// The leaf value's features.
    pub features: [f64; FEATURE_COUNT],
    /// The material count's value for side A.
    pub material: f64,
    /// The mean result of the rollouts for side A (+1 win, −1 loss).
    pub target: f64,
}

/// Squared errors of three judges of the same positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Errors {
    /// Positions judged.
    pub positions: usize,
    /// The fitted leaf value's mean squared error against the rollouts' means.
    pub leaf: f64,
    /// The material count's.
    pub material: f64,
    /// A constant 0's (the targets' mean square).
    pub zero: f64,
}

/// What a fit did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeafReport {
    /// Its settings.
    pub settings: LeafSettings,
    /// Errors on the positions it was fitted on.
    pub fitted: Errors,
    /// Errors on the held-out games' positions (every tenth game).
    pub held_out: Errors,
}

fn held_out(game: u64) -> bool {
    game % 10 == 7
}

/// The positions of `settings.games` games of `games`' incumbent, valued by its rollouts, on
/// `threads` worker threads.
pub fn positions(games: &Games, settings: &LeafSettings, threads: usize) -> Result<Vec<Position>, String> {
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| e.to_string())?;
    pool.install(|| valued_positions(games, settings))
}

fn valued_positions(games: &Games, settings: &LeafSettings) -> Result<Vec<Position>, String> {
    let per_game: Vec<Result<Vec<Position>, String>> = (0..settings.games as u64)
        .into_par_iter()
        .map(|i| {
            let g = mix(settings.seed ^ 0x1eaf) ^ i;
            let mut rng = ChaCha8Rng::seed_from_u64(mix(g ^ 0x1eaf));
            let mut kept = Vec::new();
            games.play(g, |state, _| {
                if rng.gen::<f64>() < settings.rate {
                    kept.push(state.clone());
                }
                true
            })?;
            Ok(kept
                .into_iter()
                .enumerate()
                .map(|(k, state)| {
                    let seed = mix(g ^ mix(k as u64 + 1));
                    value(games, state, g, settings.rollouts, seed)
                })
                .collect())
        })
        .collect();
    let mut out = Vec::new();
    for p in per_game {
        out.extend(p?);
    }
    Ok(out)
}

/// One position valued by `rollouts` games of the incumbent on both sides from it.
fn value(games: &Games, state: GameState, game: u64, rollouts: u32, seed: u64) -> Position {
    let mut total = 0.0;
    for r in 0..rollouts as u64 {
        let s = mix(seed ^ mix(r + 1));
        let mut players: Vec<Box<dyn Agent<GameState>>> = vec![
            Box::new(LearnedAgent::new(games.incumbent.clone(), 0.0, "", mix(s ^ 0xa))),
            Box::new(LearnedAgent::new(games.incumbent.clone(), 0.0, "", mix(s ^ 0xb))),
        ];
        let end = agents::play_game(state.clone(), &mut players, s, |_, _| {});
        total += end.returns()[0];
    }
    let scenario = SCENARIOS.iter().position(|&x| x == state.static_data().scenario).unwrap_or(0);
    let material = agents::drowned_earth::MaterialEvaluator.evaluate(&state)[0];
    debug_assert!(matches!(state.current_player(), Player::Side(_)));
    Position { game, scenario, features: features(&state), material, target: total / rollouts.max(1) as f64 }
}

fn predict(w: &[f64; FEATURE_COUNT], f: &[f64; FEATURE_COUNT]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum::<f64>().tanh()
}

fn errors(leaf: &LeafValue, positions: &[&Position]) -> Errors {
    let n = positions.len().max(1) as f64;
    let sq =
        |f: &dyn Fn(&Position) -> f64| positions.iter().map(|p| (f(p) - p.target).powi(2)).sum::<f64>() / n;
    Errors {
        positions: positions.len(),
        leaf: sq(&|p| predict(&leaf.weights[p.scenario], &p.features)),
        material: sq(&|p| p.material),
        zero: sq(&|_| 0.0),
    }
}

/// Fit the leaf value to `positions` (the held-out games' left out), starting from and
/// regularised toward the material count's weights; `steps` gradient steps.
pub fn fit(positions: &[Position], settings: &LeafSettings, steps: usize) -> (LeafValue, LeafReport) {
    let train: Vec<&Position> = positions.iter().filter(|p| !held_out(p.game)).collect();
    let test: Vec<&Position> = positions.iter().filter(|p| held_out(p.game)).collect();
    let start = LeafValue::material();
    let mut leaf = start.clone();
    // Adam on the mean squared error plus the penalty, per scenario block.
    let n = train.len().max(1) as f64;
    let (mut m, mut v) = (leaf.weights.clone(), leaf.weights.clone());
    for block in m.iter_mut().chain(v.iter_mut()) {
        *block = [0.0; FEATURE_COUNT];
    }
    let (rate, b1, b2) = (0.02, 0.9, 0.999);
    for t in 1..=steps {
        let mut grad = vec![[0.0; FEATURE_COUNT]; SCENARIOS.len()];
        for p in &train {
            let y = predict(&leaf.weights[p.scenario], &p.features);
            let d = 2.0 * (y - p.target) * (1.0 - y * y) / n;
            for (g, f) in grad[p.scenario].iter_mut().zip(&p.features) {
                *g += d * f;
            }
        }
        for s in 0..SCENARIOS.len() {
            for k in 0..FEATURE_COUNT {
                let g = grad[s][k] + 2.0 * settings.penalty * (leaf.weights[s][k] - start.weights[s][k]);
                m[s][k] = b1 * m[s][k] + (1.0 - b1) * g;
                v[s][k] = b2 * v[s][k] + (1.0 - b2) * g * g;
                let mh = m[s][k] / (1.0 - b1.powi(t as i32));
                let vh = v[s][k] / (1.0 - b2.powi(t as i32));
                leaf.weights[s][k] -= rate * mh / (vh.sqrt() + 1e-8);
            }
        }
    }
    let report = LeafReport {
        settings: settings.clone(),
        fitted: errors(&leaf, &train),
        held_out: errors(&leaf, &test),
    };
    (leaf, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_finds_the_weights_that_made_its_targets() {
        // Targets made by known weights from varied features: the fit recovers them closely
        // and its error falls below the material count's.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let truth = [0.1, 0.5, 1.0, 0.8, 1.5, -0.5, 0.0];
        let positions: Vec<Position> = (0..3000)
            .map(|i| {
                let mut f = [1.0; FEATURE_COUNT];
                for x in f.iter_mut().skip(1) {
                    *x = rng.gen_range(-1.0..1.0);
                }
                let target = predict(&truth, &f);
                Position { game: i, scenario: 2, features: f, material: 0.0, target }
            })
            .collect();
        let settings = LeafSettings { penalty: 0.0, ..LeafSettings::default() };
        let (leaf, report) = fit(&positions, &settings, 3000);
        for (w, t) in leaf.weights[2].iter().zip(&truth) {
            assert!((w - t).abs() < 0.05, "{:?} against {truth:?}", leaf.weights[2]);
        }
        assert!(report.held_out.leaf < 1e-3 && report.held_out.positions == 300, "{report:?}");
        // Scenarios without positions keep the material count's weights.
        assert_eq!(leaf.weights[0], LeafValue::material().weights[0]);
    }
}
