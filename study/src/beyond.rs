//! Values beyond the action sequence: from the state a choice leads to, the rest of the
//! sequence is played out with sampled dice and the analysis defaults, then the rest of the
//! game (or of the turn) by an agent for both sides; the mean return over N samples with a 95%
//! normal interval.
//!
//! Sample `i` uses the same dice and agent seeds for every option (common random numbers), so
//! differences between options are less noisy than the intervals suggest, and a study is
//! reproducible for its seed whatever the number of threads.

use crate::exact::StudyError;
use agents::Agent;
use engine::analysis::default_decision;
use engine::state::{Player, Side};
use engine::GameState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

/// Builds an agent from its spec and a seed (the CLI passes `training::play::make_agent`, which
/// knows the learned agents too; [`agents::make_agent`] knows the others).
pub type AgentFactory = dyn Fn(&str, u64) -> Result<Box<dyn Agent<GameState>>, String> + Sync;

/// How far continuations are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Horizon {
    /// To the end of the game: the return is +1 win, −1 loss, 0 draw.
    Game,
    /// To the end of the current turn: the return is the result as it then stands (+1 ahead
    /// on victory points, −1 behind, 0 level).
    Turn,
}

impl std::str::FromStr for Horizon {
    type Err = String;
    fn from_str(s: &str) -> Result<Horizon, String> {
        match s {
            "game" => Ok(Horizon::Game),
            "turn" => Ok(Horizon::Turn),
            other => Err(format!("horizon `{other}` is not game or turn")),
        }
    }
}

/// How continuations are sampled.
#[derive(Clone, Debug, Serialize)]
pub struct Sampling {
    /// Agent spec playing both sides.
    pub agent: String,
    /// Continuations per option.
    pub samples: u32,
    /// Seed of the dice and the agents.
    pub seed: u64,
    /// How far to play.
    pub horizon: Horizon,
}

/// A value estimated from sampled continuations, from the reacting side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Mean return.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Mean victory-point margin at the horizon.
    pub margin: f64,
    /// Samples behind it.
    pub samples: u32,
}

impl Estimate {
    /// The estimate from returns and margins: mean with a normal 95% interval (the sample
    /// standard deviation), clipped to the possible returns [−1, 1]. When every sample returned
    /// the same, the interval is not empty but the rule of three's: another result has a chance
    /// of at most 3/n, which moves the mean by at most 2·3/n.
    pub fn from_samples(returns: &[f64], margins: &[f64]) -> Estimate {
        let n = returns.len() as f64;
        let mean = returns.iter().sum::<f64>() / n.max(1.0);
        let half = if returns.len() > 1 {
            let var = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
            if var > 0.0 {
                eval::stats::Z95 * (var / n).sqrt()
            } else {
                6.0 / n
            }
        } else {
            2.0
        };
        Estimate {
            mean,
            low: (mean - half).max(-1.0),
            high: (mean + half).min(1.0),
            margin: margins.iter().sum::<f64>() / n.max(1.0),
            samples: returns.len() as u32,
        }
    }
}

/// A well-mixed 64-bit seed from a base seed and indices (SplitMix64 steps).
pub fn mix(seed: u64, parts: &[u64]) -> u64 {
    let mut z = seed;
    for &p in parts {
        z = z.wrapping_add(p.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

/// Estimate the value for `side` of each of `decided` (states in which the choices to compare
/// are made), all sampled in parallel.
pub fn estimate(
    decided: &[GameState],
    side: Side,
    sampling: &Sampling,
    factory: &AgentFactory,
) -> Result<Vec<Estimate>, StudyError> {
    factory(&sampling.agent, sampling.seed).map_err(StudyError::Agent)?;
    let n = sampling.samples as usize;
    let jobs: Vec<(usize, usize)> = (0..decided.len()).flat_map(|o| (0..n).map(move |i| (o, i))).collect();
    let results: Vec<(f64, f64)> = jobs
        .par_iter()
        .map(|&(o, i)| continue_one(&decided[o], side, sampling, factory, i as u64))
        .collect::<Result<_, _>>()?;
    Ok(results
        .chunks(n.max(1))
        .take(decided.len())
        .map(|chunk| {
            let (returns, margins): (Vec<f64>, Vec<f64>) = chunk.iter().copied().unzip();
            Estimate::from_samples(&returns, &margins)
        })
        .collect())
}

/// Play sample `i` from `state`: (return, margin) for `side`.
fn continue_one(
    state: &GameState,
    side: Side,
    sampling: &Sampling,
    factory: &AgentFactory,
    i: u64,
) -> Result<(f64, f64), StudyError> {
    let mut s = state.clone();
    let mut dice = ChaCha8Rng::seed_from_u64(mix(sampling.seed, &[i, 0]));
    let turn = s.turn();
    // The rest of the sequence as the exact table values it.
    while s.dynamic().sequence.is_some() && !s.is_terminal() {
        let a = match s.current_player() {
            Player::Chance => s.sample_chance(&mut dice).expect("chance node has outcomes"),
            _ => default_decision(&s),
        };
        s.apply_action(a).expect("sampled or default action is legal");
    }
    let mut players = Vec::with_capacity(2);
    for p in 0..2u64 {
        players.push(factory(&sampling.agent, mix(sampling.seed, &[i, 1 + p])).map_err(StudyError::Agent)?);
    }
    loop {
        if sampling.horizon == Horizon::Turn && s.turn() != turn {
            break;
        }
        let a = match s.current_player() {
            Player::Terminal => break,
            Player::Chance => s.sample_chance(&mut dice).expect("chance node has outcomes"),
            Player::Side(p) => players[p as usize].select_action(&s),
        };
        s.apply_action(a)
            .map_err(|e| StudyError::Agent(format!("{} chose an illegal action: {e}", sampling.agent)))?;
    }
    let outcome = s.outcome();
    let ret = match outcome.winner {
        Some(w) if w == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    };
    Ok((ret, outcome.margin(side) as f64))
}
