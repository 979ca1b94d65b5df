//! What an AP is worth in wounds, measured by rollouts rather than stated: from the situation
//! with the reacting side holding its AP, the judge plays the rest of the game three times
//! with the same dice and agent seeds (common random numbers): as it is, with the reactor one
//! AP poorer, and with a wound moved (the mover one wound less, or, when it has only one, the
//! reactor one wound less). The value of an AP and of a wound are the paired differences of
//! the returns; the exchange rate is their ratio, in wounds per AP, with a delta-method
//! interval.

use crate::beyond::{sample_range, AgentFactory, Paired, Sampling};
use crate::exact::StudyError;
use engine::state::{ModelId, Side, Step};
use engine::{Action, GameState};
use serde::Serialize;
use std::sync::Arc;

/// An AP exchange rate derived from rollouts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApRate {
    /// Wounds per AP: the value of an AP divided by the value of a wound.
    pub wounds_per_ap: f64,
    /// Lower end of its interval (delta method, clipped at 0).
    pub low: f64,
    /// Upper end of its interval.
    pub high: f64,
    /// The return of one more AP for the reactor (holding its AP), paired.
    pub ap_return: Paired,
    /// The return of one more wound dealt (or one fewer taken), paired.
    pub wound_return: Paired,
    /// Which wound was moved, in words.
    pub wound: String,
    /// The judge that played the rollouts.
    pub judge: String,
    /// Rollouts per variant.
    pub samples: u32,
    /// The reactor whose AP is valued (its name; the study fills it in).
    pub reactor: String,
}

impl ApRate {
    /// The rate in words, e.g. "0.62 [0.31, 0.93] wounds per AP (from 400 rollouts by judge scripted)".
    pub fn describe(&self) -> String {
        format!(
            "{:.2} [{:.2}, {:.2}] wounds per AP (from rollouts: {} per variant by judge {})",
            self.wounds_per_ap, self.low, self.high, self.samples, self.judge
        )
    }
}

/// `state` with model `m` changed by `edit` (its AP or wounds); the step stack is kept.
fn edited(state: &GameState, m: ModelId, edit: impl Fn(&mut engine::state::ModelState)) -> GameState {
    let mut dyn_ = state.dynamic().clone();
    edit(&mut dyn_.models[m as usize]);
    GameState::from_parts(Arc::clone(state.static_data()), dyn_)
}

/// Derive the AP exchange rate of the reaction choice pending in `state` for reactor
/// `reactor` (a model of the deciding side `side`) from `sampling.samples` rollouts per
/// variant by the judge `factory` builds. Errors: no reaction pending, the reactor has no AP,
/// no model has a wound to move, or the value of a wound is 0 in every rollout (no rate).
pub fn ap_rate_from_rollouts(
    state: &GameState,
    side: Side,
    reactor: ModelId,
    sampling: &Sampling,
    factory: &AgentFactory,
) -> Result<ApRate, StudyError> {
    if state.node() != Some(&Step::ChooseReaction) {
        return Err(StudyError::NoDeclaredAction(state.describe_node()));
    }
    if sampling.samples < 2 {
        return Err(StudyError::Agent("an AP rate from rollouts needs at least 2 samples".into()));
    }
    let mover = state.dynamic().sequence.as_ref().map(|s| s.actor).expect("a reaction is pending");
    let models = state.models();
    if models[reactor as usize].ap == 0 {
        return Err(StudyError::NoReactor(format!("model {reactor} has no AP to value")));
    }
    let (wounded, wound) = if models[mover as usize].wounds >= 2 {
        (mover, "the mover one wound less")
    } else if models[reactor as usize].wounds >= 2 {
        (reactor, "the reactor one wound less")
    } else {
        return Err(StudyError::NoReactor(
            "neither the mover nor the reactor has 2 wounds: a wound cannot be moved to value it".into(),
        ));
    };
    let base = state.clone();
    let poorer = edited(state, reactor, |m| m.ap -= 1);
    let hurt = edited(state, wounded, |m| m.wounds -= 1);
    let mut decided = Vec::new();
    for mut s in [base, poorer, hurt] {
        s.apply_action(Action::EndReactions).map_err(|e| StudyError::Analysis(e.to_string()))?;
        decided.push(s);
    }
    let r = sample_range(&decided, side, sampling, factory, 0, sampling.samples)?;
    let z = crate::beyond::z_for(0.95);
    let diff = |x: &[f64], y: &[f64]| -> Vec<f64> { x.iter().zip(y).map(|(p, q)| p - q).collect() };
    // A wound dealt to the mover helps the reactor's side; one taken by the reactor hurts it.
    let (better, worse) = if wounded == mover { (&r[2].0, &r[0].0) } else { (&r[0].0, &r[2].0) };
    let (a, w) = (diff(&r[0].0, &r[1].0), diff(better, worse));
    let ap_return = Paired::of(&r[0].0, &r[1].0, z);
    let wound_return = Paired::of(better, worse, z);
    let (wounds_per_ap, low, high) = ratio_interval(&a, &w, z).ok_or_else(|| {
        StudyError::Analysis(format!(
            "a wound changed no rollout's result ({} rollouts): no AP rate; try more samples",
            sampling.samples
        ))
    })?;
    Ok(ApRate {
        wounds_per_ap,
        low,
        high,
        ap_return,
        wound_return,
        wound: wound.to_string(),
        judge: sampling.agent.clone(),
        samples: sampling.samples,
        reactor: format!("model {reactor}"),
    })
}

/// The ratio of the means of paired samples `a` and `w` with a delta-method interval at
/// quantile `z` (the rate is clipped at 0 below: an AP is worth at least nothing); `None` when
/// the mean of `w` is 0.
pub fn ratio_interval(a: &[f64], w: &[f64], z: f64) -> Option<(f64, f64, f64)> {
    let n = a.len().min(w.len()) as f64;
    if n < 2.0 {
        return None;
    }
    let (ma, mw) = (a.iter().sum::<f64>() / n, w.iter().sum::<f64>() / n);
    if mw.abs() < 1e-12 {
        return None;
    }
    let r = ma / mw;
    let (mut va, mut vw, mut cov) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(w) {
        va += (x - ma) * (x - ma);
        vw += (y - mw) * (y - mw);
        cov += (x - ma) * (y - mw);
    }
    let (va, vw, cov) = (va / (n - 1.0), vw / (n - 1.0), cov / (n - 1.0));
    let var = ((va - 2.0 * r * cov + r * r * vw) / (n * mw * mw)).max(0.0);
    let half = z * var.sqrt();
    Some((r.max(0.0), (r - half).max(0.0), (r + half).max(0.0)))
}
