//! Grudge Match (p.80): the grudge holder matters and keeps its distance until its target is
//! down; the target is worth hunting, and more when the holder strikes the last blow.

use super::ScenarioPlan;
use crate::scripted::view::{is_character, View};
use engine::state::ModelId;

/// The scripted player's plan for Grudge Match.
pub(super) struct GrudgeMatch;

impl ScenarioPlan for GrudgeMatch {
    fn importance(&self, view: &View, m: ModelId) -> f64 {
        if view.grudge().is_some_and(|g| g.holder == m) {
            2.5
        } else if is_character(view.state, m) {
            1.3
        } else {
            1.0
        }
    }

    fn bonus_down(&self, view: &View, m: ModelId) -> f64 {
        let target = view.grudge().is_some_and(|g| g.target == m && !g.complete);
        if target {
            1.5
        } else if is_character(view.state, m) {
            0.6
        } else {
            0.0
        }
    }

    fn bonus_out(&self, view: &View, attacker: Option<ModelId>, m: ModelId) -> f64 {
        match view.grudge() {
            Some(g) if g.target == m && !g.complete => {
                let holder_up = view.state.models()[g.holder as usize].is_conscious();
                if attacker == Some(g.holder) {
                    6.0
                } else if holder_up {
                    2.5
                } else {
                    3.5
                }
            }
            _ => 0.0,
        }
    }

    /// The holder keeps its distance until the target is down, then closes to finish it.
    fn keeps_distance(&self, view: &View, m: ModelId, e: ModelId) -> bool {
        view.grudge()
            .is_some_and(|g| g.holder == m && !g.complete && view.state.models()[e as usize].is_conscious())
    }

    /// Player A picks the deployment edge.
    fn wants_player_a(&self) -> bool {
        true
    }

    fn precious(&self, view: &View, m: ModelId) -> bool {
        view.grudge().is_some_and(|g| g.holder == m)
    }
}
