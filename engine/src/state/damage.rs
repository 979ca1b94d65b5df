//! Damage to models (p.42, p.58): the armour roll a hit brings, or taken out at once when the
//! model is down, and the part of a cavalry model (rider or mount) that takes it.

use super::cavalry::{is_cavalry, part_armour, Part};
use super::model::{Health, ModelId};
use super::step::Step;
use super::GameState;
use crate::profile::Weapon;

/// Armour-roll target of a model against damage with no weapon properties (a cavalry model's
/// mount's, which takes such damage).
pub(super) fn self_armour(state: &GameState, m: ModelId) -> u8 {
    let part = if is_cavalry(state, m) { Part::Mount } else { Part::Rider };
    part_armour(state, m, part, None, false)
}

/// Damage to a model that nobody allocates: a cavalry model's goes to its mount (falls,
/// blunders, p.58); an armour roll, or taken out with no roll if the model is down (p.42).
pub(super) fn add_damage(state: &mut GameState, m: ModelId, damage: u8, target: u8) {
    let part = if is_cavalry(state, m) { Part::Mount } else { Part::Rider };
    add_damage_to(state, m, part, damage, target);
}

/// Damage to one part of a model (`Part::Rider` for any model that is not cavalry).
pub(super) fn add_damage_to(state: &mut GameState, m: ModelId, part: Part, damage: u8, target: u8) {
    if damage == 0 {
        return;
    }
    if state.dyn_.models[m as usize].health == Health::Down {
        state.dyn_.models[m as usize].pending.take_out = true;
    } else {
        state.dyn_.steps.push(Step::Armour { model: m, damage, target, mount: part == Part::Mount });
    }
}

/// Damage to a cavalry model from an attack: the mount's on a Pass, the attacker's choice on
/// Nailed It or with a template (p.58).
pub(super) fn allocate_hit(
    state: &mut GameState,
    m: ModelId,
    damage: u8,
    w: &Weapon,
    hard: bool,
    chooser: Option<u8>,
) {
    match chooser {
        None => {
            let target = part_armour(state, m, Part::Mount, Some(w), hard);
            add_damage_to(state, m, Part::Mount, damage, target);
        }
        Some(side) => {
            let rider = part_armour(state, m, Part::Rider, Some(w), hard);
            let mount = part_armour(state, m, Part::Mount, Some(w), hard);
            state.dyn_.steps.push(Step::ChooseAllocation { model: m, damage, rider, mount, chooser: side });
        }
    }
}
