//! Scavenger Hunt, scenario 5 (p.84): six markers numbered 1–6 underneath, placed face down by the
//! players; crews split between two diagonal corners; infiltrators anywhere more than 6" from
//! enemies and markers. Each side seeks one number at a time (public, rolled at the start of
//! the initiative phase); a model looks at a marker by an Interact action and takes it if it
//! is the number sought. 1 VP per marker held at the end and per enemy carrier put down.
//!
//! The numbers are hidden information. A marker's number is drawn (a chance node) the first
//! time anyone looks at it, from the numbers not drawn yet: the same odds as numbers fixed at
//! set-up, and a state never holds a number nobody has seen.

use super::common::score;
use super::common::{clear_of_markers, clear_of_models, deploy_crew};
use super::markers;
use super::set_up;
use super::types::ScenarioInfo;
use super::types::ScenarioStep;
use super::types::{Marker, MarkerKind, ScenarioState};
use super::types::{Placement, ZoneKind};
use super::zones::{edge_distance, in_corner, EDGES};
use crate::board::CellIdx;
use crate::state::hooks::ScenarioRules;
use crate::state::{Action, GameState, Health, ModelId, Side};
use crate::state::{ModelState, Sequence, StaticData, Step};

/// Number of markers.
pub(crate) const MARKERS: u8 = 6;
/// Markers lie at least this far from the table edges...
pub(crate) const EDGE_CLEARANCE: u8 = 5;
/// The rows and the columns the scenario needs: a band clear of the edges wide enough for
/// markers, and the deployment strips.
const BOARD_NEED: u8 = {
    let markers = 2 * EDGE_CLEARANCE + 3;
    let strips = 2 * crate::limits::DEPLOYMENT_DEPTH + 1;
    if markers > strips {
        markers
    } else {
        strips
    }
};
/// ...and more than this far from each other.
pub(crate) const MARKER_SPACING: f32 = 5.0;
/// Infiltrators deploy more than this far from enemy models and markers.
pub(crate) const INFILTRATOR_CLEARANCE: f32 = 6.0;

/// Set-up and deployment in the order of p.84.
pub(super) fn plan(state: &GameState) -> Vec<ScenarioStep> {
    let a = state.dynamic().scenario.player_a;
    let b = 1 - a;
    let mut steps: Vec<ScenarioStep> = (0..MARKERS)
        .map(|marker| ScenarioStep::PlaceMarker {
            side: if marker.is_multiple_of(2) { a } else { b },
            marker,
        })
        .collect();
    for side in [a, b] {
        // The first group is the larger half when the crew is odd (docs/rulings.md).
        let first_group = deployable(state, side).div_ceil(2);
        steps.extend(std::iter::repeat_n(ScenarioStep::ChooseGroup(side), first_group));
        steps.push(ScenarioStep::ChooseZone { side, zone: ZoneKind::FirstCorner });
        steps.extend(std::iter::repeat_n(
            ScenarioStep::DeployNext { side, placement: Placement::Crew },
            first_group,
        ));
    }
    for side in [a, b] {
        steps.extend(deploy_crew(state, side, Placement::SecondGroup));
    }
    steps.extend(super::common::alternate_infiltrators(state, a));
    steps
}

/// Models of `side` that deploy in the corners (all but the infiltrators).
fn deployable(state: &GameState, side: Side) -> usize {
    let set_aside = state.dynamic().scenario.set_aside;
    state.models().iter().enumerate().filter(|(i, m)| m.side == side && set_aside & (1 << i) == 0).count()
}

/// Models the side may still put in its first group.
pub(super) fn group_options(state: &GameState, side: Side, out: &mut Vec<Action>) {
    let sc = &state.dynamic().scenario;
    out.extend(
        state
            .models()
            .iter()
            .enumerate()
            .filter(|(i, m)| {
                m.side == side && m.health == Health::Reserve && (sc.set_aside | sc.group) & (1 << i) == 0
            })
            .map(|(i, _)| Action::Nominate(i as ModelId)),
    );
}

/// At least 5" from every table edge and more than 5" from any other marker.
pub(super) fn marker_allowed(state: &GameState, _marker: u8, cell: CellIdx) -> bool {
    (0..EDGES).all(|e| edge_distance(state.board(), cell, e) >= EDGE_CLEARANCE)
        && clear_of_markers(state, cell, MARKER_SPACING, true)
}

/// The two corner groups; infiltrators anywhere.
pub(super) fn zone(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    let [first, second] = state.dynamic().scenario.zones[side as usize];
    let corner = super::assassinate::CORNER;
    match placement {
        Placement::Crew => in_corner(state.board(), cell, first, corner),
        Placement::SecondGroup => in_corner(state.board(), cell, second, corner),
        _ => true,
    }
}

/// Infiltrators more than 6" from enemy models and objective markers.
pub(super) fn spacing(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    !matches!(placement, Placement::Infiltrator(_))
        || (clear_of_markers(state, cell, INFILTRATOR_CLEARANCE, true)
            && clear_of_models(state, cell, INFILTRATOR_CLEARANCE, true, |m| {
                state.models()[m as usize].side != side
            }))
}

/// The numbers `side` may be told to seek: not one it holds, and on the first roll not the
/// number the other side just rolled.
pub(super) fn sought_candidates(state: &GameState, side: Side) -> Vec<u8> {
    let sc = &state.dynamic().scenario;
    let held: Vec<u8> =
        super::markers::carried_by(state, side).filter_map(|(i, _)| sc.markers[i].number).collect();
    let other = if state.turn() == 1 { sc.sought[1 - side as usize] } else { None };
    (1..=MARKERS).filter(|n| !held.contains(n) && Some(*n) != other).collect()
}

/// At the start of the initiative phase each side that seeks nothing (the first turn, or it
/// found its number) rolls a number to seek, player A first. A side that came to hold the
/// number it seeks another way (it picked up the dropped marker, special rules 4 and 6) has
/// found it too.
pub(super) fn sought_steps(state: &GameState) -> Vec<ScenarioStep> {
    let sc = &state.dynamic().scenario;
    let found = |s: Side| {
        sc.sought[s as usize].is_none_or(|n| {
            super::markers::carried_by(state, s).any(|(i, _)| sc.markers[i].number == Some(n))
        })
    };
    [sc.player_a, 1 - sc.player_a]
        .into_iter()
        .filter(|&s| found(s) && !sought_candidates(state, s).is_empty())
        .map(ScenarioStep::RollSought)
        .collect()
}

/// A model has looked at a marker: its side learns the number; the number sought is shown and
/// carried off, anything else is put back (and everyone knows it was not the number sought).
pub(super) fn resolve_look(state: &mut GameState, model: ModelId, marker: u8) {
    let side = state.models()[model as usize].side;
    let sc = &mut state.dyn_.scenario;
    let sought = sc.sought[side as usize];
    let mk = &mut sc.markers[marker as usize];
    mk.known |= 1 << side;
    if mk.number.is_some() && mk.number == sought {
        mk.holder = Some(model);
        mk.known = 0b11;
        mk.shown = true;
        sc.sought[side as usize] = None;
    } else if let Some(n) = sought {
        mk.not |= 1 << n;
    }
}

/// "The game ends if, during the Initiative Phase, either player has no Models to assign AP's."
pub(super) fn a_side_cannot_act(state: &GameState) -> bool {
    state.playing_sides().any(|s| !state.models().iter().any(|m| m.side == s && m.is_conscious()))
}

/// Markers held by each side.
fn held(state: &GameState) -> [usize; 2] {
    [super::markers::carried_by(state, 0).count(), super::markers::carried_by(state, 1).count()]
}

/// From turn 4: a side holds an odd number of markers above 1 and the sides hold different
/// numbers.
pub(super) fn game_ends(state: &GameState, turn: u8) -> bool {
    let h = held(state);
    turn >= 4 && h.iter().any(|&n| n > 1 && n % 2 == 1) && h[0] != h[1]
}

/// 1 VP per marker held at the end.
pub(super) fn final_scoring(state: &mut GameState) {
    let h = held(state);
    for side in 0..2u8 {
        score(state, side, h[side as usize] as i16);
    }
}

/// Scenario 5 of the D5 table.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "scavenger_hunt",
    title: "Scavenger Hunt",
    summary: "six hidden numbered markers; find the number you seek by Interact, 1 VP per \
              marker held at the end and per enemy carrier put down",
    page: 84,
    d5: Some(5),
    min_rows: BOARD_NEED,
    min_columns: BOARD_NEED,
};

/// The rules of Scavenger Hunt.
pub(crate) struct ScavengerHunt;

impl ScenarioRules for ScavengerHunt {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    /// The first group deploys in the first corner, the rest in the second.
    fn deploys_in_groups(&self) -> bool {
        true
    }

    /// Look at a marker whose number the side does not know or seeks; pick up a dropped
    /// (shown) one (p.84).
    fn marker_useful(&self, state: &GameState, actor: ModelId, marker: u8) -> bool {
        let sc = &state.dynamic().scenario;
        let side = state.models()[actor as usize].side;
        let mk = &sc.markers[marker as usize];
        mk.shown || !mk.known_to(side) || mk.number == sc.sought[side as usize]
    }

    /// A hidden marker is looked at (its number drawn the first time); a shown one is picked
    /// up.
    fn take_marker(&self, state: &mut GameState, actor: ModelId, marker: u8) {
        let mk = &mut state.dyn_.scenario.markers[marker as usize];
        if mk.shown {
            mk.holder = Some(actor);
            return;
        }
        state.dyn_.steps.push(Step::Scenario(ScenarioStep::ResolveLook { model: actor, marker }));
        if mk.number.is_none() {
            state.dyn_.steps.push(Step::Scenario(ScenarioStep::DrawNumber { marker }));
        }
    }

    /// The six numbered markers, placed by the players.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        let markers = vec![Marker::new(MarkerKind::Numbered); MARKERS as usize];
        set_up::initial_state(stat, models, usize::MAX, markers)
    }

    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep> {
        plan(state)
    }

    fn legal(&self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
        match *step {
            ScenarioStep::ChooseGroup(side) => group_options(state, side, out),
            _ => set_up::legal(state, step, out),
        }
    }

    /// The numbers a side may seek, or those not yet under a marker.
    fn chance_values(&self, state: &GameState, step: &ScenarioStep) -> Vec<u8> {
        match *step {
            ScenarioStep::RollSought(side) => sought_candidates(state, side),
            _ => set_up::chance_values(state, step),
        }
    }

    fn decide(&self, state: &mut GameState, step: ScenarioStep, action: Action) {
        match (step, action) {
            (ScenarioStep::ChooseGroup(_), Action::Nominate(m)) => state.dyn_.scenario.group |= 1 << m,
            _ => set_up::decide(state, step, action),
        }
    }

    fn run(&self, state: &mut GameState, step: ScenarioStep) {
        match step {
            ScenarioStep::ResolveLook { model, marker } => resolve_look(state, model, marker),
            _ => set_up::run(state, step),
        }
    }

    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        zone(state, side, placement, cell)
    }

    fn keeps_spacing(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        spacing(state, side, placement, cell)
    }

    fn marker_allowed(&self, state: &GameState, _side: Side, marker: u8, cell: CellIdx) -> bool {
        marker_allowed(state, marker, cell)
    }

    /// Each side rolls the number it seeks.
    fn turn_start_steps(&self, state: &GameState) -> Vec<Step> {
        set_up::last_first(sought_steps(state))
    }

    /// A side with no model to give AP to ends the game.
    fn ends_at_ap_grant(&self, state: &GameState) -> bool {
        a_side_cannot_act(state)
    }

    /// A carrier that goes unconscious drops its markers; the enemy scores 1 VP per carrier
    /// put down (p.84).
    fn after_health_changes(&self, state: &mut GameState, _seq: Option<&Sequence>) {
        let carriers = markers::drop_from_unconscious(state);
        for h in 0..32 {
            if carriers & (1 << h) != 0 {
                let enemy = 1 - state.dyn_.models[h as usize].side;
                score(state, enemy, 1);
            }
        }
    }

    fn end_of_turn(&self, state: &mut GameState) -> bool {
        game_ends(state, state.turn())
    }

    fn final_scoring(&self, state: &mut GameState) {
        final_scoring(state)
    }

    markers::marker_interact_hooks!();
}
