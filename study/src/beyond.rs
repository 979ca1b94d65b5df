//! Values beyond the action sequence: from the state a choice leads to, the rest of the
//! sequence is played out with sampled dice and the analysis defaults, then the rest of the
//! game (or of the turn) by an agent (the judge) for both sides; the mean return over N samples
//! with a normal interval, every sample's return kept.
//!
//! Sample `i` uses the same dice and agent seeds for every option (common random numbers), so
//! two options are compared sample by sample ([`Paired`]): the interval of the difference is
//! much narrower than the two intervals suggest. A study is reproducible for its seed whatever
//! the number of threads, and more samples extend the earlier ones.

use crate::exact::StudyError;
use agents::Agent;
use engine::analysis::default_decision;
use engine::state::{Player, Side};
use engine::GameState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Builds an agent from its spec and a seed (the CLI passes `training::play::make_agent`, which
/// knows the learned agents too; [`agents::make_agent`] knows the others).
pub type AgentFactory = dyn Fn(&str, u64) -> Result<Box<dyn Agent<GameState>>, String> + Sync;

/// The judge used when none is given: the fast network's policy alone, its newest generation
/// (the strongest cheap player the main line produced, `fastnet::NEWEST_GENERATION`; a path
/// from the repository root; a search at a player's pace would be too slow for thousands of
/// continuations).
pub const DEFAULT_JUDGE: &str = "fast:net=checkpoints/fast/gen-002.fnet";

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
    /// The judge: the agent spec playing both sides of every continuation.
    pub agent: String,
    /// Continuations per option (the first batch when sampling until settled).
    pub samples: u32,
    /// Seed of the dice and the agents.
    pub seed: u64,
    /// How far to play.
    pub horizon: Horizon,
}

/// A value estimated from sampled continuations, from the reacting side's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Mean return.
    pub mean: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// Mean victory-point margin at the horizon.
    pub margin: f64,
    /// Samples behind it.
    pub samples: u32,
    /// The return of every sample, in sample order (sample `i` shares its dice and agent
    /// seeds with sample `i` of every other option: common random numbers).
    pub returns: Vec<f64>,
}

/// The normal quantile for a two-sided interval of `confidence` (0.95 → 1.96): Acklam's
/// rational approximation (relative error below 1.2e-9).
pub fn z_for(confidence: f64) -> f64 {
    let p = 1.0 - (1.0 - confidence.clamp(0.5, 1.0 - 1e-12)) / 2.0;
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    if p > 1.0 - 0.02425 {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Half the width of a normal interval of the mean of `xs` at quantile `z`; when every value
/// is the same, the rule of three's instead: another value has a chance of at most 3/n, which
/// moves the mean by at most `span`·3/n (`span`: the widest possible gap between two values).
fn half_width(xs: &[f64], z: f64, span: f64) -> f64 {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return span;
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
    if var > 0.0 {
        z * (var / n).sqrt()
    } else {
        span * 3.0 / n
    }
}

impl Estimate {
    /// The estimate from returns and margins: mean with a normal 95% interval (the sample
    /// standard deviation), clipped to the possible returns [−1, 1]. When every sample returned
    /// the same, the interval is not empty but the rule of three's.
    pub fn from_samples(returns: &[f64], margins: &[f64]) -> Estimate {
        Estimate::with_z(returns, margins, eval::win_draw_loss::Z95)
    }

    /// [`from_samples`](Self::from_samples) at normal quantile `z`.
    pub fn with_z(returns: &[f64], margins: &[f64], z: f64) -> Estimate {
        let n = returns.len() as f64;
        let mean = returns.iter().sum::<f64>() / n.max(1.0);
        let half = half_width(returns, z, 2.0);
        Estimate {
            mean,
            low: (mean - half).max(-1.0),
            high: (mean + half).min(1.0),
            margin: margins.iter().sum::<f64>() / n.max(1.0),
            samples: returns.len() as u32,
            returns: returns.to_vec(),
        }
    }
}

/// A paired difference of two options' returns, sample by sample (common random numbers: the
/// same dice and agent seeds), with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// Mean of the differences (first option minus second).
    pub mean: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// Pairs behind it.
    pub samples: u32,
}

impl Paired {
    /// The paired difference `a − b` over their common samples, with a normal interval at
    /// quantile `z` (the rule of three's when every difference is the same).
    pub fn of(a: &[f64], b: &[f64], z: f64) -> Paired {
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n.max(1.0);
        let half = half_width(&d, z, 4.0);
        Paired { mean, low: (mean - half).max(-2.0), high: (mean + half).min(2.0), samples: d.len() as u32 }
    }

    /// An exact difference: no interval.
    pub fn exact(d: f64) -> Paired {
        Paired { mean: d, low: d, high: d, samples: 0 }
    }

    /// Whether the interval excludes 0 (an exact difference: is not 0).
    pub fn settled(&self) -> bool {
        if self.samples == 0 {
            self.mean.abs() > 1e-9
        } else {
            self.low > 0.0 || self.high < 0.0
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

/// One option's sampled returns and victory-point margins, in sample order.
pub type Returns = (Vec<f64>, Vec<f64>);

/// The returns and margins of samples `from..to` of every one of `decided` (states in which
/// the choices to compare are made), for `side`, all sampled in parallel; sample `i` of every
/// option uses the same seeds, so batches can be added later without changing earlier ones.
pub fn sample_range(
    decided: &[GameState],
    side: Side,
    sampling: &Sampling,
    factory: &AgentFactory,
    from: u32,
    to: u32,
) -> Result<Vec<Returns>, StudyError> {
    factory(&sampling.agent, sampling.seed).map_err(StudyError::Agent)?;
    let n = to.saturating_sub(from) as usize;
    let jobs: Vec<(usize, u64)> =
        (0..decided.len()).flat_map(|o| (from..to).map(move |i| (o, i as u64))).collect();
    let results: Vec<(f64, f64)> = jobs
        .par_iter()
        .map(|&(o, i)| continue_one(&decided[o], side, sampling, factory, i))
        .collect::<Result<_, _>>()?;
    let mut out = vec![(Vec::with_capacity(n), Vec::with_capacity(n)); decided.len()];
    for (&(o, _), (r, m)) in jobs.iter().zip(results) {
        out[o].0.push(r);
        out[o].1.push(m);
    }
    Ok(out)
}

/// Estimate the value for `side` of each of `decided` from `sampling.samples` samples each.
pub fn estimate(
    decided: &[GameState],
    side: Side,
    sampling: &Sampling,
    factory: &AgentFactory,
) -> Result<Vec<Estimate>, StudyError> {
    let samples = sample_range(decided, side, sampling, factory, 0, sampling.samples)?;
    Ok(samples.iter().map(|(r, m)| Estimate::from_samples(r, m)).collect())
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
