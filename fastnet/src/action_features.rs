//! The action features: what the policy head reads of each legal action at a decision. Each
//! action is a few sparse features, all crossed with its kind ([`KINDS`]): the bucket, AP and
//! health of the model it concerns, the zone of the cell it goes to, that cell's cover, the
//! distance from there to the nearest conscious enemy and the distance moved, and the
//! relation, bucket and health of the model it targets. `docs/fast-network.md` lists them.

use crate::features::{bucket, relation, zone, BUCKETS, RELATIONS, ZONES};
use engine::board::{CellIdx, Cover};
use engine::state::{CombatKind, Health, InteractKind, ModelId, Side};
use engine::{Action, GameState};

/// The kinds of action, each a separate set of feature rows.
pub const KINDS: usize = 52;
/// Bands of the distance from the destination to the nearest conscious enemy, in inches.
const NEAR_BANDS: [f32; 5] = [1.5, 3.5, 6.5, 10.5, 15.5];
/// Bands of the distance moved, in inches.
const MOVED_BANDS: [f32; 3] = [2.5, 5.5, 8.5];

/// First feature crossing the kind with the concerned model's bucket (or none).
const SUBJECT: usize = 0;
/// The kind × the destination's zone.
const DEST_ZONE: usize = SUBJECT + KINDS * (BUCKETS + 1);
/// The kind × the target's relation, bucket and health.
const TARGET: usize = DEST_ZONE + KINDS * ZONES;
/// The kind × the nearest enemy's distance band from the destination.
const NEAR: usize = TARGET + KINDS * RELATIONS * BUCKETS * 3;
/// The kind × the destination's cover.
const COVER: usize = NEAR + KINDS * (NEAR_BANDS.len() + 1);
/// The kind × the distance moved.
const MOVED: usize = COVER + KINDS * 3;
/// The kind × the concerned model's AP (0..=4+).
const SUBJECT_AP: usize = MOVED + KINDS * (MOVED_BANDS.len() + 1);
/// The kind × the concerned model's health (healthy, wounded, other).
const SUBJECT_HEALTH: usize = SUBJECT_AP + KINDS * 5;

/// Number of action features.
pub const ACTION_FEATURES: usize = SUBJECT_HEALTH + KINDS * 3;

/// Most features one action has.
pub const MAX_ACTION_FEATURES: usize = 8;

/// One action's features (at most [`MAX_ACTION_FEATURES`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionFeatures {
    /// How many of `ids` are used.
    pub len: u8,
    /// The features.
    pub ids: [u16; MAX_ACTION_FEATURES],
}

impl ActionFeatures {
    /// The features in use.
    pub fn as_slice(&self) -> &[u16] {
        &self.ids[..self.len as usize]
    }

    fn push(&mut self, id: usize) {
        debug_assert!(id < ACTION_FEATURES);
        self.ids[self.len as usize] = id as u16;
        self.len += 1;
    }
}

/// The kind of a combat action used as a reaction, nested action or firefight (0..5).
fn combat(kind: CombatKind) -> usize {
    match kind {
        CombatKind::Shoot { .. } => 0,
        CombatKind::Dodge => 1,
        CombatKind::CloseCombat { .. } => 2,
        CombatKind::Reveal => 3,
        CombatKind::Template { .. } => 4,
    }
}

/// An action's kind (0..[`KINDS`]), the model it concerns beside the acting one, its
/// destination and its target.
fn parts(action: Action) -> (usize, Option<ModelId>, Option<CellIdx>, Option<ModelId>) {
    use Action as A;
    match action {
        A::Chance(_) => (51, None, None, None),
        A::TakeInitiative => (0, None, None, None),
        A::GiveInitiative => (1, None, None, None),
        A::Activate(m) => (2, Some(m), None, None),
        A::PassToken => (3, None, None, None),
        A::Move { dest, prone } => (4 + prone as usize, None, Some(dest), None),
        A::Dismount { dest, .. } => (6, None, Some(dest), None),
        A::Remount { dest } => (7, None, Some(dest), None),
        A::Shoot { target, .. } => (8, None, None, Some(target)),
        A::Template { at, .. } => (9, None, Some(at), None),
        A::Reveal { target } => (10, None, None, Some(target)),
        A::Dodge => (11, None, None, None),
        A::Charge { target, dest, .. } => (12, None, Some(dest), Some(target)),
        A::CloseCombat { target, .. } => (13, None, None, Some(target)),
        A::Interact { kind, target } => {
            let k = match kind {
                InteractKind::FirstAid => 14,
                InteractKind::Repair { .. } => 15,
                InteractKind::Marker { .. } | InteractKind::Give { .. } | InteractKind::Take { .. } => 16,
                InteractKind::Recognise { .. } => 17,
            };
            (k, None, None, Some(target))
        }
        A::EndActivation => (18, None, None, None),
        A::NoNested => (19, None, None, None),
        A::Nested { kind, target, .. } => (20 + combat(kind), None, None, Some(target)),
        A::React { model, kind, .. } => (25 + combat(kind), Some(model), None, None),
        A::EndReactions => (30, None, None, None),
        A::Firefight { kind, reactor } => (31 + combat(kind), None, None, Some(reactor)),
        A::NoFirefight => (36, None, None, None),
        A::Command { donor, recipient } => (37, Some(donor), None, Some(recipient)),
        A::CommandAp(_) => (38, None, None, None),
        A::NoCommand => (39, None, None, None),
        A::PlayCard { target, .. } => (40, None, None, Some(target)),
        A::NoCard => (41, None, None, None),
        A::AllocateRider | A::AllocateMount => (42, None, None, None),
        A::RestBack | A::Fall | A::FallPoint(_) => (43, None, None, None),
        A::DodgeMove(c) => (44, None, Some(c), None),
        A::PlayerA(_) => (45, None, None, None),
        A::Grudge { holder, target } => (46, Some(holder), None, Some(target)),
        A::Nominate(m) => (47, Some(m), None, None),
        A::Zone(_) => (48, None, None, None),
        A::Deploy(c) => (49, None, Some(c), None),
        A::Reserve => (50, None, None, None),
        A::LeaveTable => (50, None, None, None),
    }
}

/// The features of `action`, legal at `state`'s decision for `mover`.
pub fn action_features(state: &GameState, mover: Side, action: Action) -> ActionFeatures {
    let d = state.dynamic();
    let board = state.board();
    let (kind, concerned, dest, target) = parts(action);
    let acting = d.sequence.as_ref().map(|s| s.actor).or(d.activating);
    let subject = concerned.or(acting).filter(|&m| (m as usize) < d.models.len());
    let mut f = ActionFeatures::default();
    let subject_bucket = subject.map_or(BUCKETS, |m| bucket(state, m));
    f.push(SUBJECT + kind * (BUCKETS + 1) + subject_bucket);
    if let Some(m) = subject {
        let model = &d.models[m as usize];
        f.push(SUBJECT_AP + kind * 5 + model.ap.min(4) as usize);
        let health = match model.health {
            Health::Conscious if model.wounds >= state.profile(m).wounds => 0,
            Health::Conscious => 1,
            _ => 2,
        };
        f.push(SUBJECT_HEALTH + kind * 3 + health);
    }
    if let Some(c) = dest.filter(|&c| (c as usize) < board.len()) {
        f.push(DEST_ZONE + kind * ZONES + zone(state, c));
        let cover = match board.cell(c).cover {
            Cover::None => 0,
            Cover::Soft => 1,
            Cover::Hard => 2,
        };
        f.push(COVER + kind * 3 + cover);
        let nearest = d
            .models
            .iter()
            .filter(|m| m.side != mover && m.is_on_table() && m.is_conscious())
            .map(|m| board.ground_distance(c, m.cell))
            .fold(f32::INFINITY, f32::min);
        let band = NEAR_BANDS.iter().position(|&b| nearest <= b).unwrap_or(NEAR_BANDS.len());
        f.push(NEAR + kind * (NEAR_BANDS.len() + 1) + band);
        if let Some(m) = subject.filter(|&m| d.models[m as usize].is_on_table()) {
            let moved = board.ground_distance(d.models[m as usize].cell, c);
            let band = MOVED_BANDS.iter().position(|&b| moved <= b).unwrap_or(MOVED_BANDS.len());
            f.push(MOVED + kind * (MOVED_BANDS.len() + 1) + band);
        }
    }
    if let Some(t) = target.filter(|&t| (t as usize) < d.models.len()) {
        let model = &d.models[t as usize];
        let health = match model.health {
            Health::Conscious if model.wounds >= state.profile(t).wounds => 0,
            Health::Conscious => 1,
            _ => 2,
        };
        let r = relation(model.side, mover);
        f.push(TARGET + ((kind * RELATIONS + r) * BUCKETS + bucket(state, t)) * 3 + health);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_below_the_count() {
        for a in [Action::Chance(0), Action::LeaveTable, Action::Zone(1), Action::NoCard] {
            assert!(parts(a).0 < KINDS);
        }
    }
}
