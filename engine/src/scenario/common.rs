//! The building blocks of each scenario's own rules: victory points, leaders and characters,
//! the steps a set-up plan is made of, and the distances deployment keeps.

use super::types::{Placement, ScenarioStep};
use crate::board::{Board, CellIdx};
use crate::state::{GameState, ModelId, Side};

/// Add `vp` victory points to `side`.
pub(crate) fn score(state: &mut GameState, side: Side, vp: i16) {
    state.dyn_.scenario.vp[side as usize] += vp;
}

/// The side's leader (the model with the Leader role), if it has one in play.
pub(crate) fn leader_of(state: &GameState, side: Side) -> Option<ModelId> {
    (0..state.models().len() as ModelId).find(|&m| {
        state.models()[m as usize].side == side && state.profile(m).role == crate::profile::Role::Leader
    })
}

/// Whether a model is a "Character" for the scenarios (not a troop, cavalry or beast; p.58,
/// p.61).
pub(crate) fn is_character(state: &GameState, m: ModelId) -> bool {
    state.profile(m).model_type == crate::profile::ModelType::Character
}

/// One "deploy the next model" step per model of `side` (a step that finds nobody left for
/// `placement` does nothing): how a plan says "`side` deploys its crew".
pub(crate) fn deploy_crew(
    state: &GameState,
    side: Side,
    placement: Placement,
) -> impl Iterator<Item = ScenarioStep> {
    let size = state.models().iter().filter(|m| m.side == side).count();
    std::iter::repeat_n(ScenarioStep::DeployNext { side, placement }, size)
}

/// Set-aside infiltrators of each side, alternating from `first`: one Infiltrate step per
/// possible model (a step with nobody left does nothing).
pub(crate) fn alternate_infiltrators(state: &GameState, first: Side) -> Vec<ScenarioStep> {
    let count = |s: Side| {
        state
            .models()
            .iter()
            .enumerate()
            .filter(|(i, m)| m.side == s && state.dynamic().scenario.set_aside & (1 << i) != 0)
            .count()
    };
    let rounds = count(0).max(count(1));
    (0..rounds).flat_map(|_| [ScenarioStep::Infiltrate(first), ScenarioStep::Infiltrate(1 - first)]).collect()
}
/// Whether `cell` is at least (`strict`: more than) `inches` from every on-table model
/// passing `which`.
pub(crate) fn clear_of_models(
    state: &GameState,
    cell: CellIdx,
    inches: f32,
    strict: bool,
    which: impl Fn(ModelId) -> bool,
) -> bool {
    let board = state.board();
    state
        .models()
        .iter()
        .enumerate()
        .filter(|(i, m)| m.is_on_table() && which(*i as ModelId))
        .all(|(_, m)| far_enough(board, cell, m.cell, inches, strict))
}

fn beyond(d: f32, inches: f32, strict: bool) -> bool {
    if strict {
        d > inches
    } else {
        d >= inches
    }
}

/// Whether `cell` is at least (`strict`: more than) `inches` from every marker on the table.
pub(crate) fn clear_of_markers(state: &GameState, cell: CellIdx, inches: f32, strict: bool) -> bool {
    let board = state.board();
    let markers = &state.dynamic().scenario.markers;
    markers.iter().filter(|m| m.is_loose()).all(|m| far_enough(board, cell, m.cell, inches, strict))
}

/// Whether two cells are more than (`strict`) or at least `inches` apart, base edge to base
/// edge. The distance is at least the larger axis gap less one base width, so far pairs are
/// settled without the square root.
fn far_enough(board: &Board, a: CellIdx, b: CellIdx, inches: f32, strict: bool) -> bool {
    let ((ax, ay), (bx, by)) = (board.xy(a), board.xy(b));
    let gap = ax.abs_diff(bx).max(ay.abs_diff(by)) as f32;
    beyond(gap - 1.0, inches, strict) || beyond(board.ground_distance(a, b), inches, strict)
}

/// A crew with no character has none to nominate (Grudge Match's grudge holder, Couriers'
/// courier): the error names the scenario by its `title`.
pub(crate) fn needs_character(title: &str, crew: &[&crate::profile::Profile]) -> Result<(), String> {
    if crew.iter().any(|p| p.model_type == crate::profile::ModelType::Character) {
        Ok(())
    } else {
        Err(format!("{title} needs a character to nominate"))
    }
}
