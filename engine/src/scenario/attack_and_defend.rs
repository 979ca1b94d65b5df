//! Attack and Defend, scenario 3 (p.81): a central objective and one per side, placed 4–8" from the
//! side's edge at least 8" from any other marker; edge deployment at least 6" from objectives
//! and enemies; an infiltration table (a Blunder arrives on turn 2); objectives are taken by
//! an Interact action and stay controlled until the enemy takes them; on turns 2, 4 and 6
//! each side scores 1 VP for its own or the central objective, 3 for the enemy's.

use super::common::score;
use super::common::{alternate_infiltrators, clear_of_markers, clear_of_models, deploy_crew};
use super::deployment;
use super::markers;
use super::set_up;
use super::types::ScenarioInfo;
use super::types::{Marker, ScenarioState};
use super::types::{MarkerKind, ScenarioStep};
use super::types::{Placement, ZoneKind};
use super::zones::{edge_distance, in_band, in_half, in_strip, opposite_edge};
use crate::board::CellIdx;
use crate::dice::TestLevel;
use crate::limits::DEPLOYMENT_DEPTH;
use crate::state::hooks::ScenarioRules;
use crate::state::{GameState, Health, ModelId, Side};
use crate::state::{ModelState, StaticData, Step};

/// The objective marker deployment zone: this far (inclusive) to this far (exclusive) from a
/// side's edge, in inches (the two 4" bands of the scenario map).
pub(crate) const OBJECTIVE_BAND: (u8, u8) = (4, 8);
/// Markers are placed at least this far apart.
pub(crate) const MARKER_SPACING: f32 = 8.0;
/// Every model deploys at least this far from objectives and enemy models.
pub(crate) const DEPLOY_CLEARANCE: f32 = 6.0;
/// The turns whose cleanup scores the objectives.
pub(crate) const SCORING_TURNS: [u8; 3] = [2, 4, 6];

/// Marker `1 + s` is side s's objective; marker 0 is central.
pub(crate) fn objective_of(side: Side) -> u8 {
    1 + side
}

/// Set-up and deployment in the order of p.81. Player B chooses its edge before the markers
/// are placed, since they go in zones measured from the edges (docs/rulings.md).
pub(super) fn plan(state: &GameState) -> Vec<ScenarioStep> {
    let a = state.dynamic().scenario.player_a;
    let b = 1 - a;
    let mut steps = vec![
        ScenarioStep::ChooseZone { side: b, zone: ZoneKind::Edge },
        ScenarioStep::PlaceMarker { side: a, marker: objective_of(a) },
        ScenarioStep::PlaceMarker { side: b, marker: objective_of(b) },
    ];
    steps.extend(deploy_crew(state, b, Placement::Crew));
    steps.extend(deploy_crew(state, a, Placement::Crew));
    steps.extend(alternate_infiltrators(state, b));
    steps
}

/// A side's objective goes in its objective band, at least 8" from any other marker.
pub(super) fn marker_allowed(state: &GameState, side: Side, _marker: u8, cell: CellIdx) -> bool {
    let edge = state.dynamic().scenario.zones[side as usize][0];
    in_band(state.board(), cell, edge, OBJECTIVE_BAND.0, OBJECTIVE_BAND.1)
        && clear_of_markers(state, cell, MARKER_SPACING, false)
}

/// The crew (and a failed infiltrator) within 4" of its edge; Pass: its half outside the
/// objective band; "Nailed It": its half or either objective band; a late arrival on the
/// board edge of its deployment zone.
pub(super) fn zone(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    let board = state.board();
    let edge = state.dynamic().scenario.zones[side as usize][0];
    let (from, to) = OBJECTIVE_BAND;
    match placement {
        Placement::Infiltrator(Some(TestLevel::Pass)) => {
            in_half(board, cell, edge) && !in_band(board, cell, edge, from, to)
        }
        Placement::Infiltrator(Some(TestLevel::NailedIt | TestLevel::Feat)) => {
            in_half(board, cell, edge) || in_band(board, cell, opposite_edge(edge), from, to)
        }
        Placement::Arrival { .. } => edge_distance(board, cell, edge) == 0,
        _ => in_strip(board, cell, edge, DEPLOYMENT_DEPTH),
    }
}

/// "All Models must deploy at least 6" away from an objective or an enemy Model."
pub(super) fn spacing(state: &GameState, side: Side, cell: CellIdx) -> bool {
    clear_of_markers(state, cell, DEPLOY_CLEARANCE, false)
        && clear_of_models(state, cell, DEPLOY_CLEARANCE, false, |m| state.models()[m as usize].side != side)
}

/// The cleanup of turns 2, 4 and 6: 1 VP per own or central objective controlled, 3 per
/// enemy objective.
pub(super) fn score_control(state: &mut GameState, turn: u8) {
    if !SCORING_TURNS.contains(&turn) {
        return;
    }
    let markers = state.dynamic().scenario.markers.clone();
    for mk in markers {
        let Some(side) = mk.controller else { continue };
        let vp = match mk.kind {
            MarkerKind::Objective(owner) if owner != side => 3,
            _ => 1,
        };
        score(state, side, vp);
    }
}

/// "The end of any Turn where all members of one or more Crews are Unconscious" (a model yet
/// to arrive is not unconscious).
pub(super) fn game_ends(state: &GameState) -> bool {
    state.playing_sides().any(|s| {
        state
            .models()
            .iter()
            .filter(|m| m.side == s)
            .all(|m| m.is_unconscious() || m.health == Health::Remounted)
    })
}

/// Scenario 3 of the D5 table; the objectives' 8" bands both ways.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "attack_and_defend",
    title: "Attack and Defend",
    summary: "three objectives taken by Interact; on turns 2, 4 and 6 score 1 VP for your own \
              or the central one, 3 for the enemy's",
    page: 81,
    d5: Some(3),
    min_rows: 2 * 8 + 1,
    min_columns: 2 * 8 + 1,
};

/// The rules of Attack and Defend.
pub(crate) struct AttackAndDefend;

impl ScenarioRules for AttackAndDefend {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    fn has_infiltration_table(&self) -> bool {
        true
    }

    /// "Blunder: the Model arrives on Turn 2" (p.81).
    fn blunder_arrives_later(&self) -> bool {
        true
    }

    /// Take control of an objective the side does not control yet (p.81).
    fn marker_useful(&self, state: &GameState, actor: ModelId, marker: u8) -> bool {
        let side = state.models()[actor as usize].side;
        state.dynamic().scenario.markers[marker as usize].controller != Some(side)
    }

    /// The objective comes under the actor's side's control.
    fn take_marker(&self, state: &mut GameState, actor: ModelId, marker: u8) {
        let side = state.models()[actor as usize].side;
        state.dyn_.scenario.markers[marker as usize].controller = Some(side);
    }

    /// The central objective and one per side, placed by the players.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        let markers = vec![
            set_up::centre_marker(stat, MarkerKind::Central),
            Marker::new(MarkerKind::Objective(0)),
            Marker::new(MarkerKind::Objective(1)),
        ];
        set_up::initial_state(stat, models, usize::MAX, markers)
    }

    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep> {
        plan(state)
    }

    set_up::shared_step_hooks!();

    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        zone(state, side, placement, cell)
    }

    fn keeps_spacing(&self, state: &GameState, side: Side, _placement: Placement, cell: CellIdx) -> bool {
        spacing(state, side, cell)
    }

    fn marker_allowed(&self, state: &GameState, side: Side, marker: u8, cell: CellIdx) -> bool {
        marker_allowed(state, side, marker, cell)
    }

    /// Infiltrators that blundered arrive on turn 2.
    fn turn_start_steps(&self, state: &GameState) -> Vec<Step> {
        let now = state.turn() == 2;
        set_up::last_first(if now { deployment::arrival_steps(state, false) } else { Vec::new() })
    }

    /// The objectives score on turns 2, 4 and 6.
    fn end_of_turn(&self, state: &mut GameState) -> bool {
        score_control(state, state.turn());
        game_ends(state)
    }

    markers::marker_interact_hooks!();
}
