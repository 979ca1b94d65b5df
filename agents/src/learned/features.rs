//! The features of the learned player: φ(s, a), the value of each of the scripted player's
//! terms for an action.
//!
//! A score is linear in the term weights (each term enters it once, multiplied by its weight),
//! so a term's value for an action is the score's change per unit of its weight. It is
//! measured by scoring the actions again with one weight moved by a small step: exact for the
//! linear terms, and the local slope where a term also enters through a maximum (the best
//! attack among several). Only the candidates are scored, so each gets the scripted player's
//! full estimate.

use crate::scripted::terms::{TermWeights, TERMS};
use crate::scripted::ScriptedAgent;
use engine::{Action, GameState};

/// The step the weights are moved by.
const STEP: f64 = 1.0e-3;

/// The term values of each of `actions` (legal at `state`'s decision) around the weights `w`,
/// and their scores under `w`; `None` where no side decides.
pub fn term_values(
    scripted: &mut ScriptedAgent,
    state: &GameState,
    actions: &[Action],
    w: TermWeights,
) -> Option<(Vec<[f64; TERMS]>, Vec<f64>)> {
    let base = scripted.scores_with(state, actions, w)?.to_vec();
    let mut phi = vec![[0.0; TERMS]; actions.len()];
    for k in 0..TERMS {
        let mut moved = w;
        moved.0[k] += STEP;
        let scores = scripted.scores_with(state, actions, moved)?;
        for ((row, s), b) in phi.iter_mut().zip(scores).zip(&base) {
            // Options never taken carry no features.
            if *b > crate::scripted::act::NEVER / 4.0 {
                row[k] = (s - b) / STEP;
            }
        }
    }
    Some((phi, base))
}

/// θ·φ: the score of an action with term values `phi` under weights `w`.
pub fn dot(w: &TermWeights, phi: &[f64; TERMS]) -> f64 {
    w.0.iter().zip(phi).map(|(a, b)| a * b).sum()
}
