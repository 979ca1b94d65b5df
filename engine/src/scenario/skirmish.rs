//! The core game without a scenario: no set-up steps (the models are deployed when the game is
//! built, as hand-written setup files place them), no markers, no infiltrators, and the
//! points of enemy casualties as the score ([`GameState::outcome`]).

use super::set_up;
use super::types::{Placement, ScenarioState, ScenarioStep};
use crate::board::CellIdx;
use crate::state::hooks::ScenarioRules;
use crate::state::{Action, GameState, ModelState, Side, StaticData, Step};

/// The rules of the core game.
pub(crate) struct Skirmish;

impl ScenarioRules for Skirmish {
    /// No markers, no infiltrators set aside.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        set_up::initial_state(stat, models, 0, Vec::new())
    }

    /// The first turn at once.
    fn initial_steps(&self) -> Vec<Step> {
        vec![Step::StartTurn]
    }

    fn deployment_plan(&self, _state: &GameState) -> Vec<ScenarioStep> {
        Vec::new()
    }

    fn legal(&self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
        set_up::legal(state, step, out)
    }

    fn chance_values(&self, state: &GameState, step: &ScenarioStep) -> Vec<u8> {
        set_up::chance_values(state, step)
    }

    fn decide(&self, state: &mut GameState, step: ScenarioStep, action: Action) {
        set_up::decide(state, step, action)
    }

    fn run(&self, state: &mut GameState, step: ScenarioStep) {
        set_up::run(state, step)
    }

    /// The whole table.
    fn in_zone(&self, _state: &GameState, _side: Side, _placement: Placement, _cell: CellIdx) -> bool {
        true
    }
}
