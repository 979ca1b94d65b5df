//! The skirmish (no scenario): no objectives; the hunt advances patiently, since waiting in
//! cover costs nothing.

use super::ScenarioPlan;

/// The scripted player's plan for the skirmish.
pub(super) struct Skirmish;

impl ScenarioPlan for Skirmish {
    fn hunt_weight(&self) -> f64 {
        crate::scripted::goal::SKIRMISH_HUNT_WEIGHT
    }
}
