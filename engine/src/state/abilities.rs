//! Role abilities used through the Interact action (pp.46-47): the Medic's First Aid and the
//! Mech's Repair (anyone may repair a Primitive weapon, p.53).

use super::action::InteractKind;
use super::model::ModelId;
use super::{Action, GameState};
use crate::dice::TestLevel;
use crate::profile::{ModelType, Role, WeaponProperty};

/// Whether `actor` may perform `kind` on `target` now: in base contact (or itself), of its
/// faction, and the ability applies.
pub(super) fn can_interact(state: &GameState, actor: ModelId, kind: InteractKind, target: ModelId) -> bool {
    let a = state.profile(actor);
    let tm = &state.models()[target as usize];
    let t = state.profile(target);
    let near = actor == target || state.in_contact(actor, target);
    if !near || !tm.is_on_table() || tm.side != state.models()[actor as usize].side || t.faction != a.faction
    {
        return false;
    }
    match kind {
        InteractKind::Marker { .. }
        | InteractKind::Give { .. }
        | InteractKind::Take { .. }
        | InteractKind::Recognise { .. } => false,
        // Not beasts, not cavalry (p.58, p.61); only a model below its starting wounds.
        InteractKind::FirstAid => {
            a.role == Role::Medic
                && tm.wounds < t.wounds
                && !matches!(t.model_type, ModelType::Beast | ModelType::Cavalry)
        }
        InteractKind::Repair { weapon } => {
            let Some(w) = t.weapons.get(weapon as usize) else { return false };
            tm.is_jammed(weapon)
                && !tm.is_broken(weapon)
                && (a.role == Role::Mech || w.has(WeaponProperty::Primitive))
        }
    }
}

/// Every Interact action of `actor` (beasts never interact, p.61).
pub(super) fn interact_options(state: &GameState, actor: ModelId, out: &mut Vec<Action>) {
    // Beasts (p.61) and cavalry models (p.61) never interact.
    if matches!(state.profile(actor).model_type, ModelType::Beast | ModelType::Cavalry) {
        return;
    }
    state.rules().interact_options(state, actor, out);
    super::ambush::recognise_options(state, actor, out);
    for (t, tm) in state.models().iter().enumerate() {
        let t = t as ModelId;
        if tm.side != state.models()[actor as usize].side {
            continue;
        }
        if can_interact(state, actor, InteractKind::FirstAid, t) {
            out.push(Action::Interact { kind: InteractKind::FirstAid, target: t });
        }
        for w in 0..state.profile(t).weapons.len() as u8 {
            let kind = InteractKind::Repair { weapon: w };
            if can_interact(state, actor, kind, t) {
                out.push(Action::Interact { kind, target: t });
            }
        }
    }
}

/// Apply the Interact test: First Aid heals 1 (Pass) or 2 (Nailed It), a Blunder wounds the
/// target; Repair removes the jam on a success, a Blunder breaks the weapon for the game. A
/// Feat also gives the model an AP.
pub(super) fn resolve_interact(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let Action::Interact { kind, target } = seq.declared else {
        unreachable!("interact test without interact")
    };
    let actor = seq.actor;
    if kind.is_marker() {
        state.rules().resolve_interact(state, actor, kind, target);
        return;
    }
    let level = seq.interact_test.expect("interact test rolled").level;
    if level == TestLevel::Feat {
        state.dyn_.models[actor as usize].pending.feat_ap += 1;
    }
    let t = &mut state.dyn_.models[target as usize];
    match (kind, level) {
        (InteractKind::FirstAid, TestLevel::Blunder) => t.pending.wounds = t.pending.wounds.saturating_add(1),
        (InteractKind::FirstAid, TestLevel::Pass) => t.pending.heal += 1,
        (InteractKind::FirstAid, TestLevel::NailedIt | TestLevel::Feat) => t.pending.heal += 2,
        (InteractKind::Repair { weapon }, TestLevel::Blunder) => {
            t.jammed &= !(1 << weapon);
            t.broken |= 1 << weapon;
        }
        (InteractKind::Repair { weapon }, l) if l.is_success() => t.jammed &= !(1 << weapon),
        (InteractKind::Marker { .. } | InteractKind::Give { .. } | InteractKind::Take { .. }, _) => {
            unreachable!("handled above")
        }
        // The enemy it brings out arrives at the end of the sequence (ambush::after_sequence).
        (InteractKind::Recognise { .. }, _) => {}
        _ => {}
    }
}
