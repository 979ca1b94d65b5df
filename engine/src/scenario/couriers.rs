//! Couriers, scenario 4 (p.82): each side nominates a character as courier carrying its prize; edge
//! deployment, an infiltration table whose "Nailed It" may arrive on any board edge at a later
//! turn, couriers deployed last; models may leave by the enemy deployment edge; prizes are
//! passed, taken, dropped and picked up. 4 VP for carrying your prize off the enemy edge, 4
//! for carrying the enemy prize off it, 1 per other character leaving, 2 for holding the enemy
//! prize at the end. The game ends after turn 4 (or 5) once a prize has left the table.

use super::common::{alternate_infiltrators, deploy_crew, needs_character};
use super::common::{is_character, score};
use super::deployment;
use super::markers;
use super::set_up;
use super::types::ScenarioInfo;
use super::types::{Marker, ScenarioState};
use super::types::{MarkerKind, ScenarioStep};
use super::types::{Placement, ZoneKind};
use super::zones::{edge_distance, in_half, in_strip, on_board_edge};
use crate::board::CellIdx;
use crate::dice::TestLevel;
use crate::limits::DEPLOYMENT_DEPTH;
use crate::profile::Profile;
use crate::state::hooks::ScenarioRules;
use crate::state::{Action, GameState, Health, ModelId, Side, Stance};
use crate::state::{ModelState, Sequence, StaticData, Step};

/// Deployment in the order of p.82. Player A chooses the deployment edges, as in the other
/// edge scenarios (docs/rulings.md).
pub(super) fn plan(state: &GameState) -> Vec<ScenarioStep> {
    let a = state.dynamic().scenario.player_a;
    let b = 1 - a;
    let mut steps = vec![
        ScenarioStep::ChooseZone { side: a, zone: ZoneKind::Edge },
        ScenarioStep::ChooseCourier(a),
        ScenarioStep::ChooseCourier(b),
    ];
    steps.extend(deploy_crew(state, a, Placement::Crew));
    steps.extend(deploy_crew(state, b, Placement::Crew));
    steps.extend(alternate_infiltrators(state, a));
    steps.push(ScenarioStep::DeployNext { side: b, placement: Placement::Courier });
    steps.push(ScenarioStep::DeployNext { side: a, placement: Placement::Courier });
    steps
}

/// The side's characters (never cavalry or beasts).
pub(super) fn courier_options(state: &GameState, side: Side, out: &mut Vec<Action>) {
    out.extend(
        (0..state.models().len() as ModelId)
            .filter(|&m| state.models()[m as usize].side == side && is_character(state, m))
            .map(Action::Nominate),
    );
}

/// The courier takes its side's prize (marker `side`) and deploys last, not as an infiltrator.
pub(super) fn nominate(state: &mut GameState, side: Side, m: ModelId) {
    let sc = &mut state.dyn_.scenario;
    sc.couriers[side as usize] = Some(m);
    sc.markers[side as usize].holder = Some(m);
    sc.set_aside &= !(1 << m);
}

/// The crew, courier and failed infiltrators within 4" of their edge; Pass and "Nailed It"
/// anywhere on their half; a late arrival on any board edge.
pub(super) fn zone(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    let board = state.board();
    let edge = state.dynamic().scenario.zones[side as usize][0];
    match placement {
        Placement::Infiltrator(Some(level)) if level.is_success() => in_half(board, cell, edge),
        Placement::Arrival { .. } => on_board_edge(board, cell),
        _ => in_strip(board, cell, edge, DEPLOYMENT_DEPTH),
    }
}

/// Whether `m` may leave the table now: it stands (or lies, or swims) on the enemy
/// deployment edge; leaving costs one AP (docs/rulings.md).
pub(crate) fn may_leave(state: &GameState, m: ModelId) -> bool {
    let model = &state.models()[m as usize];
    // AI models have no deployment edge to leave by.
    if model.side == crate::uc::AI_SIDE {
        return false;
    }
    model.is_conscious() && model.stance != Stance::Climbing && on_exit_edge(state, model.side, model.cell)
}

/// Whether `side`'s models may leave the table from `cell` in Couriers: it lies on the enemy
/// deployment edge, once the edges are chosen.
fn on_exit_edge(state: &GameState, side: Side, cell: CellIdx) -> bool {
    let d = state.dynamic();
    let choosing =
        d.steps.iter().any(|s| matches!(s, crate::state::Step::Scenario(ScenarioStep::ChooseZone { .. })));
    side < 2 && !choosing && edge_distance(state.board(), cell, d.scenario.zones[1 - side as usize][0]) == 0
}

/// `m` leaves the battlefield and scores: 4 VP for a prize it carries (its own side's or the
/// enemy's), otherwise 1 VP if it is a character.
pub(crate) fn leave_table(state: &mut GameState, m: ModelId) {
    let side = state.models()[m as usize].side;
    let model = &mut state.dyn_.models[m as usize];
    model.health = Health::LeftTable;
    model.ap = 0;
    let mut carried = false;
    for mk in state.dyn_.scenario.markers.iter_mut() {
        if mk.holder == Some(m) && !mk.off_table {
            mk.off_table = true;
            carried = true;
        }
    }
    if carried {
        score(state, side, 4);
    } else if is_character(state, m) {
        score(state, side, 1);
    }
}

/// "At the end of Turn 4, or 5 if any prize has been moved off the table; otherwise at the
/// end of Turn 6": from turn 4, the game ends once a prize has left (docs/rulings.md).
pub(super) fn game_ends(state: &GameState, turn: u8) -> bool {
    turn >= 4 && state.dynamic().scenario.markers.iter().any(|m| m.off_table)
}

/// 2 VP for holding the enemy prize at the end of the game.
pub(super) fn final_scoring(state: &mut GameState) {
    for side in 0..2u8 {
        let holds = super::markers::carried_by(state, side).any(|(_, k)| k == MarkerKind::Prize(1 - side));
        if holds {
            score(state, side, 2);
        }
    }
}

/// Scenario 4 of the D5 table; the deployment strips both ways.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "couriers",
    title: "Couriers",
    summary: "carry your courier's prize off the enemy edge for 4 VP, intercept theirs \
              (2 VP to hold it, 4 to carry it off), 1 VP per other character off the edge",
    page: 82,
    d5: Some(4),
    min_rows: 2 * DEPLOYMENT_DEPTH + 1,
    min_columns: 2 * DEPLOYMENT_DEPTH + 1,
};

/// The rules of Couriers.
pub(crate) struct Couriers;

impl ScenarioRules for Couriers {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    /// A character to nominate as the courier.
    fn check_crew(&self, crew: &[&Profile]) -> Result<(), String> {
        needs_character(INFO.title, crew)
    }

    fn has_infiltration_table(&self) -> bool {
        true
    }

    /// "Nailed It": the model may arrive on a later turn instead.
    fn infiltrator_may_wait(&self, level: TestLevel) -> bool {
        level >= TestLevel::NailedIt
    }

    /// Pick up a dropped prize when carrying none (p.82).
    fn marker_useful(&self, state: &GameState, actor: ModelId, _marker: u8) -> bool {
        !markers::carries_prize(state, actor)
    }

    /// The prize passes between friends in base contact (p.82).
    fn markers_pass_between_friends(&self) -> bool {
        true
    }

    fn on_exit_edge(&self, state: &GameState, side: Side, cell: CellIdx) -> bool {
        on_exit_edge(state, side, cell)
    }

    /// The two prizes, carried by the couriers once nominated.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        let markers = vec![Marker::new(MarkerKind::Prize(0)), Marker::new(MarkerKind::Prize(1))];
        set_up::initial_state(stat, models, usize::MAX, markers)
    }

    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep> {
        plan(state)
    }

    fn legal(&self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
        match *step {
            ScenarioStep::ChooseCourier(side) => courier_options(state, side, out),
            _ => set_up::legal(state, step, out),
        }
    }

    fn chance_values(&self, state: &GameState, step: &ScenarioStep) -> Vec<u8> {
        set_up::chance_values(state, step)
    }

    fn decide(&self, state: &mut GameState, step: ScenarioStep, action: Action) {
        match (step, action) {
            (ScenarioStep::ChooseCourier(side), Action::Nominate(m)) => nominate(state, side, m),
            _ => set_up::decide(state, step, action),
        }
    }

    fn run(&self, state: &mut GameState, step: ScenarioStep) {
        set_up::run(state, step)
    }

    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        zone(state, side, placement, cell)
    }

    /// Infiltrators that rolled Nailed It arrive on a later turn.
    fn turn_start_steps(&self, state: &GameState) -> Vec<Step> {
        let now = state.turn() >= 2;
        set_up::last_first(if now { deployment::arrival_steps(state, true) } else { Vec::new() })
    }

    /// A carrier that goes unconscious drops its prize.
    fn after_health_changes(&self, state: &mut GameState, _seq: Option<&Sequence>) {
        markers::drop_from_unconscious(state);
    }

    fn end_of_turn(&self, state: &mut GameState) -> bool {
        game_ends(state, state.turn())
    }

    fn final_scoring(&self, state: &mut GameState) {
        final_scoring(state)
    }

    markers::marker_interact_hooks!();

    fn may_leave(&self, state: &GameState, m: ModelId) -> bool {
        may_leave(state, m)
    }

    fn leave_table(&self, state: &mut GameState, m: ModelId) {
        leave_table(state, m)
    }
}
