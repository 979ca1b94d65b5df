//! The core game without a scenario: no set-up steps (the models are deployed when the game is
//! built, as hand-written setup files place them), no markers, no infiltrators, and the
//! points of enemy casualties as the score ([`GameState::outcome`]).

use super::set_up;
use super::types::ScenarioInfo;
use super::types::{Placement, ScenarioState, ScenarioStep};
use crate::board::CellIdx;
use crate::limits::DEPLOYMENT_DEPTH;
use crate::state::hooks::ScenarioRules;
use crate::state::{GameState, ModelState, Side, StaticData, Step};

/// The skirmish's entry: not on the D5 table; the two deployment strips across the board.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "skirmish",
    title: "Skirmish (no scenario)",
    summary: "no objectives: score the points value of enemy models down or taken out",
    page: 20,
    d5: None,
    min_rows: 2 * DEPLOYMENT_DEPTH + 1,
    min_columns: 1,
};

/// The rules of the core game.
pub(crate) struct Skirmish;

impl ScenarioRules for Skirmish {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    /// The models are on the table when the game is built: no zones.
    fn has_deployment_zones(&self) -> bool {
        false
    }

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

    set_up::shared_step_hooks!();

    /// The whole table.
    fn in_zone(&self, _state: &GameState, _side: Side, _placement: Placement, _cell: CellIdx) -> bool {
        true
    }
}
