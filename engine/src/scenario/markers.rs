//! Objective markers and prizes: Interact actions on them (control, look, pick up), passing
//! and taking a prize between friends, and dropping whatever an unconscious model carried
//! (pp.81–85).

use super::types::{MarkerKind, ScenarioStep};
use super::zones;
use crate::board::Terrain;
use crate::profile::ModelType;
use crate::state::{Action, GameState, InteractKind, ModelId, Step};

/// Whether `m` is in base contact with marker `i` lying on the table.
pub(crate) fn touches_marker(state: &GameState, m: ModelId, i: usize) -> bool {
    let mk = &state.dynamic().scenario.markers[i];
    let model = &state.models()[m as usize];
    let board = state.board();
    mk.is_loose()
        && model.is_on_table()
        && zones::touches(board, model.cell, mk.cell)
        && model.z.abs_diff(board.cell(mk.cell).height) <= 1
}

/// Beasts and cavalry never carry objectives (they never interact, p.61).
pub(crate) fn can_carry(state: &GameState, m: ModelId) -> bool {
    !matches!(state.profile(m).model_type, ModelType::Beast | ModelType::Cavalry)
}

/// Whether `m` carries a prize (Couriers: one at most).
pub(crate) fn carries_prize(state: &GameState, m: ModelId) -> bool {
    state.dynamic().scenario.markers.iter().any(|mk| mk.holder == Some(m) && !mk.off_table)
}

/// The scenario Interact actions open to `actor` (already known to be able to interact).
pub(crate) fn interact_options(state: &GameState, actor: ModelId, out: &mut Vec<Action>) {
    let sc = &state.dynamic().scenario;
    let side = state.models()[actor as usize].side;
    let rules = state.rules();
    let on_self = |kind| Action::Interact { kind, target: actor };
    for (i, mk) in sc.markers.iter().enumerate() {
        let marker = i as u8;
        if touches_marker(state, actor, i) && rules.marker_useful(state, actor, marker) {
            out.push(on_self(InteractKind::Marker { marker }));
        }
        if !rules.markers_pass_between_friends() || mk.off_table {
            continue;
        }
        // Pass the prize to, or take it from, a friend in base contact (p.82).
        for (f, fm) in state.models().iter().enumerate() {
            let f = f as ModelId;
            if f == actor || fm.side != side || !fm.is_conscious() || !state.in_contact(actor, f) {
                continue;
            }
            if mk.holder == Some(actor) && can_carry(state, f) && !carries_prize(state, f) {
                out.push(Action::Interact { kind: InteractKind::Give { marker }, target: f });
            }
            if mk.holder == Some(f) && !carries_prize(state, actor) {
                out.push(Action::Interact { kind: InteractKind::Take { marker }, target: f });
            }
        }
    }
}

/// Apply a scenario Interact action of `actor`: on a marker, what the scenario makes of it
/// ([`crate::state::hooks::ScenarioRules::take_marker`]); a prize given or taken.
pub(crate) fn resolve(state: &mut GameState, actor: ModelId, kind: InteractKind, target: ModelId) {
    match kind {
        InteractKind::Marker { marker } => state.rules().take_marker(state, actor, marker),
        InteractKind::Give { marker } => state.dyn_.scenario.markers[marker as usize].holder = Some(target),
        InteractKind::Take { marker } => state.dyn_.scenario.markers[marker as usize].holder = Some(actor),
        other => unreachable!("{other:?} is not a marker interaction"),
    }
}

/// Numbers 1–6 not yet under any marker that has been looked at.
pub(crate) fn undrawn_numbers(state: &GameState) -> Vec<u8> {
    let markers = &state.dynamic().scenario.markers;
    (1..=6).filter(|&n| !markers.iter().any(|m| m.number == Some(n))).collect()
}

/// Carriers that went unconscious drop what they carried; the enemy places each marker in
/// base contact with them (a decision). Returns the carriers that dropped something (bit m:
/// model m), which Scavenger Hunt scores (p.84).
pub(crate) fn drop_from_unconscious(state: &mut GameState) -> u32 {
    let mut carriers: u32 = 0;
    for i in 0..state.dyn_.scenario.markers.len() {
        let mk = state.dyn_.scenario.markers[i];
        let Some(h) = mk.holder.filter(|_| !mk.off_table) else { continue };
        let model = state.dyn_.models[h as usize];
        if !model.is_unconscious() {
            continue;
        }
        let chooser = 1 - model.side;
        let m = &mut state.dyn_.scenario.markers[i];
        m.holder = None;
        m.cell = model.cell;
        m.placed = false;
        carriers |= 1 << h;
        state.dyn_.steps.push(Step::Scenario(ScenarioStep::DropMarker {
            marker: i as u8,
            chooser,
            carrier: h,
        }));
    }
    carriers
}

/// Cells in base contact with the unconscious carrier where its marker may be placed.
pub(crate) fn drop_cells(state: &GameState, carrier: ModelId, out: &mut Vec<Action>) {
    let board = state.board();
    let model = &state.models()[carrier as usize];
    let at = model.cell;
    let (x, y) = board.xy(at);
    for dy in -1..=1 {
        for dx in -1..=1 {
            let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) else { continue };
            let cell = board.cell(c);
            if c != at && cell.terrain != Terrain::Impassable && cell.height.abs_diff(model.z) <= 1 {
                out.push(Action::Deploy(c));
            }
        }
    }
    if out.is_empty() {
        out.push(Action::Deploy(at));
    }
}

/// The markers carried by models of `side`.
pub(crate) fn carried_by(
    state: &GameState,
    side: crate::state::Side,
) -> impl Iterator<Item = (usize, MarkerKind)> + '_ {
    state.dynamic().scenario.markers.iter().enumerate().filter_map(move |(i, mk)| {
        let h = mk.holder.filter(|_| !mk.off_table)?;
        (state.models()[h as usize].side == side).then_some((i, mk.kind))
    })
}

/// The two hooks of Interact actions on markers (`interact_options`, `resolve_interact`),
/// handed to this module's [`interact_options`] and [`resolve`]: placed in the
/// `impl ScenarioRules` of every scenario whose models interact with markers with
/// `markers::marker_interact_hooks!();`.
macro_rules! marker_interact_hooks {
    () => {
        fn interact_options(
            &self,
            state: &crate::state::GameState,
            actor: crate::state::ModelId,
            out: &mut Vec<crate::state::Action>,
        ) {
            crate::scenario::markers::interact_options(state, actor, out)
        }

        fn resolve_interact(
            &self,
            state: &mut crate::state::GameState,
            actor: crate::state::ModelId,
            kind: crate::state::InteractKind,
            target: crate::state::ModelId,
        ) {
            crate::scenario::markers::resolve(state, actor, kind, target)
        }
    };
}
pub(super) use marker_interact_hooks;
