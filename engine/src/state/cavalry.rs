//! Cavalry models (pp.58-61): rider and mount tracked separately, each part's armour, and the
//! two separating when either is reduced to 0 wounds (`damage` allocates hits between them).
//!
//! A cavalry model's own wounds, toughness and armour are its rider's; its `mount_wounds` and
//! the mount profile's toughness and armour are the mount's. Damage from a Pass goes to the
//! mount; from Nailed It (or a template) the attacker chooses (a decision node); falls and
//! blunders hurt the mount. Dismounting and remounting are not implemented yet.

use super::model::{Health, ModelId, Stance};
use super::step::Step;
use super::GameState;
use crate::board::{CellIdx, Terrain};
use crate::odds::armour_target;
use crate::profile::{ModelType, Weapon};
use serde::{Deserialize, Serialize};

/// Which part of a cavalry model damage goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The rider (or any model that is not cavalry).
    Rider,
    /// The mount.
    Mount,
}

/// Whether model `m` is cavalry.
pub(super) fn is_cavalry(state: &GameState, m: ModelId) -> bool {
    state.profile(m).model_type == ModelType::Cavalry
}

/// Index of the profile with this id among the game's profiles.
fn profile_index(state: &GameState, id: &str) -> u8 {
    state
        .stat
        .profiles
        .iter()
        .position(|p| p.id == id)
        .expect("cavalry riders and mounts are loaded with the game") as u8
}

/// Armour-roll target of `part` of model `m` against weapon `w` (`None`: no weapon).
pub(super) fn part_armour(state: &GameState, m: ModelId, part: Part, w: Option<&Weapon>, hard: bool) -> u8 {
    let p = state.profile(m);
    let (pierce, sunder) = w.map_or((0, 0), |w| (w.pierce(), w.sunder()));
    match (part, &p.cavalry) {
        (Part::Mount, Some((_, mount))) => {
            let mp = &state.stat.profiles[profile_index(state, mount) as usize];
            armour_target(mp.toughness, mp.total_armour(), pierce, sunder, hard)
        }
        _ => armour_target(p.toughness, p.total_armour(), pierce, sunder, hard),
    }
}

/// The health of one part after `pending` wounds: taken out by wounds at least double its
/// current wounds in one sequence (p.42), down at 0.
fn part_after(wounds: &mut u8, pending: u8) -> Health {
    if pending == 0 {
        return if *wounds > 0 { Health::Conscious } else { Health::Down };
    }
    if pending as u16 >= 2 * *wounds as u16 {
        *wounds = 0;
        Health::TakenOut
    } else {
        *wounds -= pending.min(*wounds);
        if *wounds == 0 {
            Health::Down
        } else {
            Health::Conscious
        }
    }
}

/// After a sequence, separate every cavalry model whose rider or mount is at 0 wounds (p.61):
/// the cavalry model becomes the mount or the rider, and the other, if still on the table, is
/// placed in base contact with it. The conscious one keeps the AP and tokens.
pub(super) fn separate(state: &mut GameState, m: ModelId, rider_wounds: u8, mount_wounds: u8) {
    let cav = state.dyn_.models[m as usize];
    let (rider_id, mount_id) = state.profile(m).cavalry.clone().expect("a cavalry model");
    let (mut rw, mut mw) = (cav.wounds, cav.mount_wounds);
    let rider_h = part_after(&mut rw, rider_wounds);
    let mount_h = part_after(&mut mw, mount_wounds);
    if rider_h == Health::Conscious && mount_h == Health::Conscious {
        let model = &mut state.dyn_.models[m as usize];
        model.wounds = rw;
        model.mount_wounds = mw;
        return;
    }
    let part = |profile: u8, wounds: u8, health: Health, keep: bool| {
        let mut p = cav;
        p.profile = profile;
        p.wounds = wounds;
        p.mount_wounds = 0;
        p.health = health;
        if !keep {
            p.ap = 0;
            p.tokens = Default::default();
        }
        if health != Health::Conscious {
            p.ap = 0;
            if p.stance == Stance::Standing {
                p.stance = Stance::Prone;
            }
        }
        p
    };
    let rider = part(profile_index(state, &rider_id), rw, rider_h, rider_h == Health::Conscious);
    let mount = part(
        profile_index(state, &mount_id),
        mw,
        mount_h,
        rider_h != Health::Conscious && mount_h == Health::Conscious,
    );
    // The mount takes the cavalry model's place unless it is taken out; then the rider does.
    let (stays, other) = if mount_h == Health::TakenOut { (rider, None) } else { (mount, Some(rider)) };
    state.dyn_.models[m as usize] = stays;
    if let Some(mut other) = other.filter(|o| o.health != Health::TakenOut) {
        other.partner = Some(m);
        other.activated = true;
        if let Some(cell) = free_cell_near(state, cav.cell) {
            other.cell = cell;
            other.z = state.board().cell(cell).height;
            other.stance = if state.board().cell(cell).terrain == Terrain::Water {
                other.tokens.fire = 0; // water puts fire out (p.40)
                Stance::Swimming
            } else if other.health == Health::Conscious {
                Stance::Standing
            } else {
                Stance::Prone
            };
            state.dyn_.models.push(other);
            let partner = (state.dyn_.models.len() - 1) as ModelId;
            state.dyn_.models[m as usize].partner = Some(partner);
        }
    }
}

/// The nearest free, passable cell to `cell` (not `cell` itself), in rings.
fn free_cell_near(state: &GameState, cell: CellIdx) -> Option<CellIdx> {
    let board = state.board();
    let (x, y) = board.xy(cell);
    for r in 1..=3i32 {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) else { continue };
                let free = board.cell(c).terrain != Terrain::Impassable
                    && !state.models().iter().any(|o| o.cell == c && o.is_on_table())
                    && state.dyn_.uc.marker_at(c).is_none();
                if free {
                    return Some(c);
                }
            }
        }
    }
    None
}

/// Apply A (p.58, 39): a dismounting cavalry model that reached its separation point becomes
/// its mount where it stands; the rider is placed in base contact with the separation point
/// with the tokens; the owner then chooses which of the two continues the activation with the
/// AP. Damage already allocated to rider and mount stays with each.
pub(super) fn dismount(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let m = seq.actor;
    let k = seq.separation.expect("a dismount");
    if seq.reached < k || !is_cavalry(state, m) {
        return;
    }
    let at = if k == 0 { seq.origin } else { seq.path.points[k as usize - 1].cell };
    let cav = state.dyn_.models[m as usize];
    let (rider_id, mount_id) = state.profile(m).cavalry.clone().expect("a cavalry model");
    let mut rider = cav;
    rider.profile = profile_index(state, &rider_id);
    rider.mount_wounds = 0;
    rider.pending.mount_wounds = 0;
    let mut mount = cav;
    mount.profile = profile_index(state, &mount_id);
    mount.wounds = cav.mount_wounds;
    mount.mount_wounds = 0;
    mount.ap = 0;
    mount.activated = true;
    mount.tokens = Default::default();
    mount.pending = Default::default();
    mount.pending.wounds = cav.pending.mount_wounds;
    let Some(cell) = free_cell_near(state, at).or_else(|| free_cell_near(state, cav.cell)) else { return };
    rider.cell = cell;
    rider.z = state.board().cell(cell).height;
    rider.stance = if state.board().cell(cell).terrain == Terrain::Water {
        rider.tokens.fire = 0;
        Stance::Swimming
    } else {
        Stance::Standing
    };
    state.dyn_.models[m as usize] = mount;
    rider.partner = Some(m);
    state.dyn_.models.push(rider);
    let r = (state.dyn_.models.len() - 1) as ModelId;
    state.dyn_.models[m as usize].partner = Some(r);
    continue_with(state, r, m, r);
    // The owner says which of the two carries on (p.58).
    state.dyn_.steps.push(Step::ChooseContinuer { rider: r, mount: m });
}

/// After a dismount, `chosen` (rider or mount) continues the activation with the AP; the
/// other counts as activated for the turn.
pub(super) fn continue_with(state: &mut GameState, rider: ModelId, mount: ModelId, chosen: ModelId) {
    let other = if chosen == rider { mount } else { rider };
    let ap = state.dyn_.models[rider as usize].ap + state.dyn_.models[mount as usize].ap;
    let cap = state.profile(chosen).ap_max;
    let d = &mut state.dyn_;
    d.models[other as usize].ap = 0;
    d.models[other as usize].activated = true;
    d.models[chosen as usize].ap = ap.min(cap);
    d.models[chosen as usize].activated = false;
    d.activating = Some(chosen);
    d.sequence.as_mut().expect("sequence").actor = chosen;
}

/// Apply L (p.60): a remounting rider that reached base contact with its mount rejoins it. The
/// cavalry model takes the mount's place with both wound totals; the mount's AP are discarded,
/// the rider's carried over; tokens of both join it; it continues the activation.
pub(super) fn remount(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let r = seq.actor;
    let rider = state.dyn_.models[r as usize];
    let Some(m) = rider.partner else { return };
    let mount = state.dyn_.models[m as usize];
    let reached = seq.reached as usize == seq.path.points.len();
    if !reached || !rider.is_conscious() || !mount.is_conscious() || !state.in_contact(r, m) {
        return;
    }
    let (rider_id, mount_id) = (state.profile(r).id.clone(), state.profile(m).id.clone());
    let Some(cavalry) =
        state.stat.profiles.iter().position(|p| p.cavalry == Some((rider_id.clone(), mount_id.clone())))
    else {
        return;
    };
    let mut cav = mount;
    cav.profile = cavalry as u8;
    cav.wounds = rider.wounds;
    cav.mount_wounds = mount.wounds;
    cav.ap = rider.ap;
    cav.activated = rider.activated;
    cav.partner = None;
    cav.stance = if mount.stance == Stance::Prone { Stance::Standing } else { mount.stance };
    cav.tokens.fire = rider.tokens.fire.saturating_add(mount.tokens.fire);
    cav.tokens.blind |= rider.tokens.blind;
    cav.tokens.slow =
        (cav.tokens.slow.0.max(rider.tokens.slow.0), cav.tokens.slow.1.max(rider.tokens.slow.1));
    cav.tokens.stealth = false;
    cav.pending = rider.pending;
    cav.pending.mount_wounds = mount.pending.wounds;
    let mut gone = rider;
    gone.health = Health::Remounted;
    gone.ap = 0;
    gone.partner = None;
    gone.pending = Default::default();
    state.dyn_.models[m as usize] = cav;
    state.dyn_.models[r as usize] = gone;
    state.dyn_.activating = Some(m);
    state.dyn_.sequence.as_mut().expect("sequence").actor = m;
}
