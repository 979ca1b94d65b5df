//! The set-up every scenario shares (p.76): the scenario state a game starts with, the
//! opening steps (roll-off, the choice of player A), and the shared steps of deployment and
//! markers. A scenario's own rules hand the steps that are not theirs to these functions.

use super::deployment;
use super::markers;
use super::types::{Marker, MarkerKind, ScenarioState, ScenarioStep};
use super::zones;
use crate::state::{Action, GameState, ModelState, StaticData, Step, MAX_SIDES};

/// A new game's scenario state with `markers`, and the infiltrators set aside: up to
/// `infiltrators` per side, the first in the crew list (docs/rulings.md).
pub(super) fn initial_state(
    stat: &StaticData,
    models: &[ModelState],
    infiltrators: usize,
    markers: Vec<Marker>,
) -> ScenarioState {
    let mut sc = ScenarioState::default();
    let mut count = [0usize; MAX_SIDES];
    for (i, m) in models.iter().enumerate() {
        if stat.profiles[m.profile as usize].infiltrates() && count[m.side as usize] < infiltrators {
            count[m.side as usize] += 1;
            sc.set_aside |= 1 << i;
        }
    }
    sc.markers = markers.into();
    sc
}

/// A marker of `kind` placed at the centre of the table.
pub(super) fn centre_marker(stat: &StaticData, kind: MarkerKind) -> Marker {
    Marker { cell: zones::centre(&stat.board), placed: true, ..Marker::new(kind) }
}

/// Steps a scenario lists in the order they happen, as the stack takes them (last first).
pub(super) fn last_first(mut steps: Vec<ScenarioStep>) -> Vec<Step> {
    steps.reverse();
    steps.into_iter().map(Step::Scenario).collect()
}

/// The legal actions at a shared scenario decision, or the outcomes of a scenario chance
/// node; none at a step that is not shared.
pub(super) fn legal(state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
    match *step {
        ScenarioStep::ChooseRoles => out.extend([Action::PlayerA(0), Action::PlayerA(1)]),
        ScenarioStep::ChooseZone { side, zone } => deployment::zone_options(state, side, zone, out),
        ScenarioStep::PlaceMarker { side, marker } => deployment::marker_cells(state, side, marker, out),
        ScenarioStep::Deploy { model, placement } => deployment::deploy_options(state, model, placement, out),
        ScenarioStep::DropMarker { carrier, .. } => markers::drop_cells(state, carrier, out),
        s if s.is_chance() => {
            let n = state.rules().chance_values(state, &s).len();
            out.extend((0..n).map(|i| Action::Chance(i as u8)));
        }
        _ => {}
    }
}

/// The numbers a shared scenario chance node draws among: those not yet under a marker;
/// empty at other steps.
pub(super) fn chance_values(state: &GameState, step: &ScenarioStep) -> Vec<u8> {
    match *step {
        ScenarioStep::DrawNumber { .. } => markers::undrawn_numbers(state),
        _ => Vec::new(),
    }
}

/// Apply a (validated) decision at a shared scenario step.
pub(super) fn decide(state: &mut GameState, step: ScenarioStep, action: Action) {
    match (step, action) {
        (ScenarioStep::ChooseRoles, Action::PlayerA(side)) => {
            state.dyn_.scenario.player_a = side;
            let plan = state.rules().deployment_plan(state);
            state.dyn_.steps.extend(last_first(plan));
        }
        (ScenarioStep::ChooseZone { side, zone }, Action::Zone(z)) => {
            deployment::choose_zone(state, side, zone, z)
        }
        (
            ScenarioStep::PlaceMarker { marker, .. } | ScenarioStep::DropMarker { marker, .. },
            Action::Deploy(cell),
        ) => {
            let m = &mut state.dyn_.scenario.markers[marker as usize];
            m.cell = cell;
            m.placed = true;
        }
        (ScenarioStep::Deploy { model, placement }, action) => {
            deployment::deploy(state, model, placement, action)
        }
        (step, action) => unreachable!("validated action {action:?} does not fit {step:?}"),
    }
}

/// Run a shared automatic scenario step.
pub(super) fn run(state: &mut GameState, step: ScenarioStep) {
    match step {
        ScenarioStep::DeployNext { side, placement } => deployment::deploy_next(state, side, placement),
        ScenarioStep::Infiltrate(side) => deployment::infiltrate(state, side),
        ScenarioStep::InfiltrationResult(m) => deployment::infiltration_result(state, m),
        ScenarioStep::BeginGame => {
            // "Then begin the game, with player B taking the first Activation" (every scenario).
            let b = state.dyn_.scenario.side_of(false);
            state.dyn_.initiative = b;
        }
        other => unreachable!("{other:?} is not automatic"),
    }
}

/// The four hooks of the shared steps (`legal`, `chance_values`, `decide`, `run`), each handed
/// to this module's function of the same name: written once here and placed in every
/// scenario's `impl ScenarioRules` with `set_up::shared_step_hooks!();`.
macro_rules! shared_step_hooks {
    () => {
        fn legal(
            &self,
            state: &crate::state::GameState,
            step: &crate::scenario::ScenarioStep,
            out: &mut Vec<crate::state::Action>,
        ) {
            crate::scenario::set_up::legal(state, step, out)
        }

        fn chance_values(
            &self,
            state: &crate::state::GameState,
            step: &crate::scenario::ScenarioStep,
        ) -> Vec<u8> {
            crate::scenario::set_up::chance_values(state, step)
        }

        fn decide(
            &self,
            state: &mut crate::state::GameState,
            step: crate::scenario::ScenarioStep,
            action: crate::state::Action,
        ) {
            crate::scenario::set_up::decide(state, step, action)
        }

        fn run(&self, state: &mut crate::state::GameState, step: crate::scenario::ScenarioStep) {
            crate::scenario::set_up::run(state, step)
        }
    };
}
pub(super) use shared_step_hooks;
