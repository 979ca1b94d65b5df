//! A model's goal (where it is heading and what getting closer is worth), the weights of the
//! hunt, a model's longest shot, and the turn the game is expected to end on: what
//! [`super::plan`] and the scenarios' plans ([`super::plans`]) share.

use super::fields::FAR;
use super::view::View;
use engine::board::CellIdx;
use engine::state::ModelId;
use std::sync::Arc;

/// Where a model is heading and how much getting closer is worth.
#[derive(Clone, Debug)]
pub(crate) struct Goal {
    /// Walking distance (tenths of an inch) from every cell to the goal; `None`: no goal.
    pub field: Option<Arc<Vec<u16>>>,
    /// Close enough: no value in getting nearer than this (tenths of an inch).
    pub stop: u16,
    /// Value of each inch of progress.
    pub weight: f64,
}

impl Goal {
    /// No goal: the model stays where it is best off.
    pub fn none() -> Goal {
        Goal { field: None, stop: 0, weight: 0.0 }
    }

    /// Value of standing on `cell` (never positive: minus the distance still to go).
    pub fn progress(&self, cell: CellIdx) -> f64 {
        let Some(f) = &self.field else { return 0.0 };
        let d = f[cell as usize];
        if d == FAR {
            return -self.weight * 200.0;
        }
        -self.weight * d.saturating_sub(self.stop) as f64 / 10.0
    }
}

/// Weight of an inch toward the enemy when the scenario needs its models hunted down.
pub(crate) const HUNT_WEIGHT: f64 = 0.05;
/// Weight of an inch toward the enemy in a skirmish, where waiting in cover costs nothing.
pub(crate) const SKIRMISH_HUNT_WEIGHT: f64 = 0.02;

/// The turn the game is expected to end on: the last turn, or from turn 4 the current one when
/// the scenario's early end has come (`early`).
pub(crate) fn expected_end(view: &View, early: bool) -> u8 {
    let max = view.state.static_data().max_turns;
    let turn = view.state.turn();
    if early {
        turn.max(4).min(max)
    } else {
        max
    }
}

/// The longest pass range of `m`'s usable ranged weapons that shoot at models (0: none).
pub(crate) fn best_range(view: &View, m: ModelId) -> u8 {
    let state = view.state;
    let mm = &state.models()[m as usize];
    state
        .profile(m)
        .weapons
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            w.range.is_some()
                && engine::state::template::template_of(w).is_none()
                && mm.can_use(*i as u8, w.scarce())
        })
        .map(|(_, w)| w.range.map_or(0, |r| r.0))
        .max()
        .unwrap_or(0)
}
