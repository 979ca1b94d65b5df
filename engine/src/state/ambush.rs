//! Ambush markers (seed 003, "Ambush markers", "Recognise", "Noise reactions"; Conversion,
//! "Ambush markers and spawn tables"): enemies the players have not located yet, placed with
//! the AI models before deployment.
//!
//! A marker lies passive side up. A trigger its kind lists among `flips_on` turns it active;
//! a trigger among `springs_on` while it is active replaces it with an AI model rolled on its
//! kind's spawn table, which performs its profile's ambush reaction against the model that
//! triggered it (no one reacts to that). A player's move passing within the kind's range
//! (from a model without a stealth token) and a player's shot or template fired from within
//! it trigger at the end of the sequence; a noise within 12" is heard then and acts in the
//! next enemy phase, before the noise's spawn. A Recognise action (an Interact with an
//! Intelligence test) brings the enemy out confused instead, without an ambush reaction.
//! Models move through markers but never stop on one. Each trigger event does one thing to a
//! marker: a passive marker flipped by a move is not also sprung by it (docs/rulings.md).

use super::dinosaur_step::EnemyStep;
use super::spawning::{new_ai_model, place_model, MAX_AI_MODELS, NOISE_RANGE};
use super::step::Step;
use super::{Action, CombatKind, GameState, InteractKind, ModelId, Sequence};
use crate::board::CellIdx;
use crate::dice::TestLevel;
use crate::uc::data::MarkerTrigger;
use crate::uc::AI_SIDE;

/// How far a model may recognise a marker from, in inches (seed 003, "Recognise").
pub const RECOGNISE_RANGE: f32 = 12.0;

/// Chance outcomes of the roll for the kind of the next marker placed: every kind of the UC
/// data alike.
pub(super) fn kind_outcomes(state: &GameState) -> Vec<(Action, f64)> {
    let kinds = state.stat.uc.as_ref().map_or(0, |uc| uc.data.markers.len());
    (0..kinds).map(|k| (Action::Chance(k as u8), 1.0 / kinds as f64)).collect()
}

/// Put a passive marker of `kind` on `cell` (a placement decision).
pub(super) fn place(state: &mut GameState, kind: u8, cell: CellIdx) {
    state.dyn_.uc.add_marker(cell, kind).expect("the game holds at most MAX_MARKERS markers");
}

/// The Recognise actions open to `actor`: one per marker within 12" that it can see (terrain
/// only decides sight: a marker has no height and models do not hide it, docs/rulings.md).
pub(super) fn recognise_options(state: &GameState, actor: ModelId, out: &mut Vec<Action>) {
    let uc = &state.dyn_.uc;
    if uc.marker_mask == 0 || state.dyn_.models[actor as usize].side == AI_SIDE {
        return;
    }
    let board = state.board();
    let pose = state.pose(actor);
    for (i, mk) in uc.markers_on_table() {
        let near = board.ground_distance(pose.cell, mk.cell) <= RECOGNISE_RANGE;
        if near
            && board
                .sight(
                    pose.cell,
                    pose.z,
                    pose.volume,
                    mk.cell,
                    board.cell(mk.cell).height,
                    crate::board::Volume::Base,
                )
                .visible
        {
            out.push(Action::Interact { kind: InteractKind::Recognise { marker: i }, target: actor });
        }
    }
}

/// Confusion tokens the enemy a Recognise test brings out arrives with, if it brings one out
/// (seed 003, "Recognise"): against a passive marker 1 on Nailed It, none on a Pass; against
/// an active one 2 on Nailed It, 1 on a Pass; nothing on a fail.
pub fn recognised_confusion(level: TestLevel, active: bool) -> Option<u8> {
    match (level, active) {
        (TestLevel::NailedIt | TestLevel::Feat, false) => Some(1),
        (TestLevel::NailedIt | TestLevel::Feat, true) => Some(2),
        (TestLevel::Pass, true) => Some(1),
        _ => None,
    }
}

/// At the end of a players' sequence: a Recognise's result, then the movement and shooting
/// triggers of every marker on the table. Springs are pushed on top of the step stack, so the
/// ambush reactions come before the AI models' movement and noise reactions.
pub(super) fn after_sequence(state: &mut GameState, seq: &Sequence, stealthed: bool) {
    let Some(uc) = state.stat.uc.clone() else { return };
    if state.dyn_.uc.marker_mask == 0 {
        return;
    }
    let mut springs: Vec<(u8, ModelId, u8)> = Vec::new();
    if let (Action::Interact { kind: InteractKind::Recognise { marker }, .. }, Some(test)) =
        (seq.declared, seq.interact_test)
    {
        if state.dyn_.uc.marker_mask & (1 << marker) != 0 {
            let active = state.dyn_.uc.markers[marker as usize].active;
            if let Some(confusion) = recognised_confusion(test.level, active) {
                springs.push((marker, seq.actor, confusion));
            }
        }
    }
    let stat = std::sync::Arc::clone(&state.stat);
    let board = &stat.board;
    let mover = &state.dyn_.models[seq.actor as usize];
    // As for the AI models' movement reactions, a stealthed mover triggers nothing.
    let moved = mover.side != AI_SIDE && seq.has_path() && !stealthed;
    let reached = &seq.path.points[..(seq.reached as usize).min(seq.path.points.len())];
    let shooters: Vec<(CellIdx, ModelId)> = seq
        .rolls
        .iter()
        .filter(|r| !r.cancelled && matches!(r.kind, CombatKind::Shoot { .. } | CombatKind::Template { .. }))
        .filter(|r| state.dyn_.models[r.model as usize].side != AI_SIDE)
        .map(|r| (super::declare::roll_cell(state, seq, r), r.model))
        .collect();
    let markers: Vec<_> = state.dyn_.uc.markers_on_table().collect();
    for (i, mk) in markers {
        if springs.iter().any(|s| s.0 == i) {
            continue;
        }
        let kind = &uc.data.markers[mk.kind as usize];
        let within = |c: CellIdx| board.ground_distance(c, mk.cell) <= kind.range as f32;
        let moved_by = (moved && reached.iter().any(|p| within(p.cell))).then_some(seq.actor);
        let shot_by = shooters.iter().find(|(c, _)| within(*c)).map(|&(_, m)| m);
        let triggers = [(MarkerTrigger::Movement, moved_by), (MarkerTrigger::Shooting, shot_by)];
        let fired = |list: &[MarkerTrigger]| triggers.iter().find(|(t, by)| by.is_some() && list.contains(t));
        if !mk.active {
            if fired(&kind.flips_on).is_some() {
                state.dyn_.uc.markers[i as usize].active = true;
            }
        } else if let Some(&(_, Some(by))) = fired(&kind.springs_on) {
            springs.push((i, by, 0));
        }
    }
    push_springs(state, springs);
}

/// After a players' sequence that made noises: every marker within 12" of one hears the
/// nearest (its maker is remembered until the next enemy phase; the first noise heard counts).
pub(super) fn hear(state: &mut GameState, noises: &[(CellIdx, ModelId)]) {
    if noises.is_empty() || state.dyn_.uc.marker_mask == 0 {
        return;
    }
    let stat = std::sync::Arc::clone(&state.stat);
    let board = &stat.board;
    let markers: Vec<_> = state.dyn_.uc.markers_on_table().collect();
    for (i, mk) in markers {
        let d = |c: CellIdx| board.ground_distance(c, mk.cell);
        let nearest =
            noises.iter().filter(|(c, _)| d(*c) <= NOISE_RANGE).min_by(|a, b| d(a.0).total_cmp(&d(b.0)));
        let heard = &mut state.dyn_.uc.markers[i as usize].heard_by;
        if let (None, Some(&(_, maker))) = (*heard, nearest) {
            *heard = Some(maker);
        }
    }
}

/// The start of the enemy phase, once the order of the draws is fixed: every marker that heard
/// a noise flips to active, or, active already and listing noise among its spring triggers,
/// springs against the noise's maker (seed 003: "flip any ambush markers within 12" of a
/// noise, then spawn an enemy at the nearest spawn point"; the seed says "any", so every
/// marker flips whatever its kind lists, docs/rulings.md). Pushed above the noise's spawn.
pub(super) fn enemy_phase(state: &mut GameState) {
    let Some(uc) = state.stat.uc.clone() else { return };
    let mut springs = Vec::new();
    let markers: Vec<_> = state.dyn_.uc.markers_on_table().collect();
    for (i, mk) in markers {
        let Some(maker) = mk.heard_by else { continue };
        state.dyn_.uc.markers[i as usize].heard_by = None;
        if !mk.active {
            state.dyn_.uc.markers[i as usize].active = true;
        } else if uc.data.markers[mk.kind as usize].springs_on.contains(&MarkerTrigger::Noise) {
            springs.push((i, maker, 0));
        }
    }
    push_springs(state, springs);
}

/// Replace the markers of `springs` (marker, trigger, confusion tokens) by their rolls on the
/// spawn table, left to right (top to bottom breaking ties).
fn push_springs(state: &mut GameState, mut springs: Vec<(u8, ModelId, u8)>) {
    let Some(uc) = state.stat.uc.clone() else { return };
    let board = state.board();
    springs.sort_by_key(|&(i, ..)| {
        let (x, y) = board.xy(state.dyn_.uc.markers[i as usize].cell);
        (x, y)
    });
    for &(i, trigger, confusion) in springs.iter().rev() {
        let mk = state.dyn_.uc.markers[i as usize];
        state.dyn_.uc.remove_marker(i);
        let table = uc.marker_table[mk.kind as usize];
        state.dyn_.steps.push(Step::Enemy(EnemyStep::Ambush { cell: mk.cell, table, trigger, confusion }));
    }
}

/// The rolled AI model takes the marker's place, with its confusion tokens; sprung (no
/// tokens) it then performs its ambush reaction against `trigger`.
pub(super) fn arrive(
    state: &mut GameState,
    cell: CellIdx,
    table: u8,
    trigger: ModelId,
    confusion: u8,
    outcome: u8,
) {
    let model = new_ai_model(state, table, outcome);
    place_model(state, model, cell);
    if confusion > 0 {
        state.dyn_.uc.confuse(model, confusion);
    } else {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::AmbushReaction { model, trigger }));
    }
}

/// Whether an ambush spawn cannot happen: the game holds its most AI models or 32 models
/// ("If you have none left, spawn nothing"), or a model lies on the marker's cell.
pub(super) fn spawn_blocked(state: &GameState, cell: CellIdx) -> bool {
    let ai = state.dyn_.models.iter().filter(|m| m.side == AI_SIDE).count();
    ai >= MAX_AI_MODELS
        || state.dyn_.models.len() >= crate::limits::MAX_GAME_MODELS
        || state.dyn_.models.iter().any(|m| m.is_on_table() && m.cell == cell)
}
