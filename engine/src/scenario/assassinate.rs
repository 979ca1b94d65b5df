//! Assassinate, scenario 1 (p.78): leaders in opposite corners, crews in the other two, infiltrators by
//! an Intelligence table and never within 12" of a leader; 6/5 VP for the first/second to take
//! out the enemy leader, 3 for an enemy leader down at the end, 2 for holding the central
//! treasure; the game ends after turn 4 or 5 if a leader has been taken out.

use super::common::{alternate_infiltrators, clear_of_models, deploy_crew};
use super::common::{leader_of, score};
use super::set_up;
use super::types::ScenarioInfo;
use super::types::ScenarioStep;
use super::types::{MarkerKind, ScenarioState};
use super::types::{Placement, ZoneKind};
use super::zones::{edge_between, in_corner, in_strip};
use crate::board::CellIdx;
use crate::dice::TestLevel;
use crate::profile::{ModelType, Profile, Role};
use crate::state::hooks::ScenarioRules;
use crate::state::{GameState, Health, ModelId, Side};
use crate::state::{ModelState, Sequence, StaticData};

/// Size of the square corner deployment zones, in inches (the 8" of the scenario map).
pub(crate) const CORNER: u8 = 8;
/// Depth of the infiltration strips along the board edges, in inches.
pub(crate) const INFILTRATION_DEPTH: u8 = 8;
/// No infiltrator deploys within this many inches of a leader, even a friendly one.
pub(crate) const LEADER_CLEARANCE: f32 = 12.0;

/// Deployment in the order of p.78.
pub(super) fn plan(state: &GameState) -> Vec<ScenarioStep> {
    let a = state.dynamic().scenario.player_a;
    let b = 1 - a;
    let mut steps = vec![
        ScenarioStep::ChooseZone { side: a, zone: ZoneKind::LeaderCorner },
        ScenarioStep::DeployNext { side: a, placement: Placement::Leader },
        ScenarioStep::DeployNext { side: b, placement: Placement::Leader },
        ScenarioStep::ChooseZone { side: b, zone: ZoneKind::CrewCorner },
    ];
    steps.extend(deploy_crew(state, b, Placement::Crew));
    steps.extend(deploy_crew(state, a, Placement::Crew));
    // "Finally, starting with Player B ..."
    steps.extend(alternate_infiltrators(state, b));
    steps
}

/// The zone of each placement: the leader and crew corners; the infiltration table's Pass
/// zone is the strip along the edge joining the side's own two corners, its "Nailed It"
/// zone the strip along the edge joining its crew corner to the enemy leader's corner
/// (docs/rulings.md); Fail and Blunder deploy with the crew.
pub(super) fn zone(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    let board = state.board();
    let [crew, leader] = state.dynamic().scenario.zones[side as usize];
    let enemy_leader = state.dynamic().scenario.zones[1 - side as usize][1];
    let strip = |to: u8| {
        in_strip(board, cell, edge_between(crew, to), INFILTRATION_DEPTH)
            && !(0..4).any(|c| in_corner(board, cell, c, CORNER))
    };
    match placement {
        Placement::Leader => in_corner(board, cell, leader, CORNER),
        Placement::Infiltrator(Some(TestLevel::Pass)) => strip(leader),
        Placement::Infiltrator(Some(TestLevel::NailedIt | TestLevel::Feat)) => strip(enemy_leader),
        _ => in_corner(board, cell, crew, CORNER),
    }
}

/// "Regardless of the Test result, no Model may deploy within 12" of a Leader."
pub(super) fn spacing(state: &GameState, placement: Placement, cell: CellIdx) -> bool {
    !matches!(placement, Placement::Infiltrator(_))
        || clear_of_models(state, cell, LEADER_CLEARANCE, true, |m| {
            state.profile(m).role == crate::profile::Role::Leader
        })
}

/// Score leaders just taken out: 6 VP to the first side to take out the enemy leader, 5 to
/// the second; both taken out in the same sequence both count as first (docs/rulings.md).
pub(super) fn score_take_outs(state: &mut GameState) {
    let mut scorers = Vec::new();
    for side in 0..2u8 {
        let enemy = 1 - side;
        let out =
            leader_of(state, side).is_some_and(|l| state.models()[l as usize].health == Health::TakenOut);
        if out && !state.dynamic().scenario.done[enemy as usize] {
            scorers.push(enemy);
        }
    }
    let vp = if state.dynamic().scenario.first_scored { 5 } else { 6 };
    for side in scorers {
        state.dyn_.scenario.done[side as usize] = true;
        state.dyn_.scenario.first_scored = true;
        score(state, side, vp);
    }
}

/// "At the end of Turn Four or the end of any subsequent turn, if one or more Leader Models
/// are Taken Out."
pub(super) fn game_ends(state: &GameState, turn: u8) -> bool {
    turn >= 4
        && (0..2).any(|s| {
            leader_of(state, s).is_some_and(|l| state.models()[l as usize].health == Health::TakenOut)
        })
}

/// End of the game: 3 VP for an enemy leader down, 2 for holding the central objective
/// (conscious models in base contact, no conscious enemy in contact; docs/rulings.md).
pub(super) fn final_scoring(state: &mut GameState) {
    for side in 0..2u8 {
        let enemy = 1 - side;
        if leader_of(state, enemy).is_some_and(|l| state.models()[l as usize].health == Health::Down) {
            score(state, side, 3);
        }
        if holds_central(state, side) {
            score(state, side, 2);
        }
    }
}

/// Whether `side` holds the central marker (marker 0).
pub(crate) fn holds_central(state: &GameState, side: Side) -> bool {
    let touching = |s: Side| {
        (0..state.models().len() as ModelId).any(|m| {
            let model = &state.models()[m as usize];
            model.side == s && model.is_conscious() && super::markers::touches_marker(state, m, 0)
        })
    };
    touching(side) && !touching(1 - side)
}

/// Scenario 1 of the D5 table; the corner squares across the board both ways.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "assassinate",
    title: "Assassinate",
    summary: "leaders in opposite corners; 6/5 VP for taking out the enemy leader first/second, \
              3 if it is down at the end, 2 for holding the central treasure",
    page: 78,
    d5: Some(1),
    min_rows: 2 * CORNER + 1,
    min_columns: 2 * CORNER + 1,
};

/// The rules of Assassinate.
pub(crate) struct Assassinate;

impl ScenarioRules for Assassinate {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    /// "Mounted Leaders may not be used" (p.78).
    fn check_crew(&self, crew: &[&Profile]) -> Result<(), String> {
        if crew.iter().any(|p| p.role == Role::Leader && p.model_type == ModelType::Cavalry) {
            return Err(format!("{}: mounted leaders may not be used (p.78)", INFO.title));
        }
        Ok(())
    }

    fn leader_deploys_apart(&self) -> bool {
        true
    }

    fn has_infiltration_table(&self) -> bool {
        true
    }

    /// The central treasure; up to two infiltrators per side, the first in the crew list
    /// (docs/rulings.md).
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        set_up::initial_state(stat, models, 2, vec![set_up::centre_marker(stat, MarkerKind::Central)])
    }

    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep> {
        plan(state)
    }

    set_up::shared_step_hooks!();

    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        zone(state, side, placement, cell)
    }

    fn keeps_spacing(&self, state: &GameState, _side: Side, placement: Placement, cell: CellIdx) -> bool {
        spacing(state, placement, cell)
    }

    fn after_health_changes(&self, state: &mut GameState, _seq: Option<&Sequence>) {
        score_take_outs(state)
    }

    fn end_of_turn(&self, state: &mut GameState) -> bool {
        game_ends(state, state.turn())
    }

    fn final_scoring(&self, state: &mut GameState) {
        final_scoring(state)
    }
}
