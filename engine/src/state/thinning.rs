//! The thinning of reaction and nested-action points (docs/rulings.md, ruling 41): of the
//! points of the active model's action where one reactor could act, only the first of each
//! class of equivalent points is offered, so that a decision lists a handful of points instead
//! of every cell of the path. Two points are equivalent when the reactor's test is the same
//! there ([`PointClass`]) and so is everything that follows the reaction (ruling 147): the
//! mover's firefight answers, the worst fall its Blunder may bring, water that puts out a
//! Fire hit, and the models under a template.
//!
//! A search shortcut, not a rule: `legal.rs` generates the options (and digests the mover's
//! firefight answers, `answers_digest`) and asks a [`Thinning`]
//! which points to keep.

use super::action::CombatKind;
use super::sequence::Sequence;
use super::sight::Pose;
use super::{Action, GameState, ModelId};

/// Keeps the first point of each equivalence class, so that reactions and nested actions
/// offer a handful of points instead of every cell of the path (see docs/rulings.md).
pub(super) struct Thinning {
    seen: Vec<ThinKey>,
}

/// (model, target, kind, reach class, attribute, within pass range, hard cover, what follows).
pub(super) type ThinKey = (u8, u8, CombatKind, u8, u8, bool, bool, u64);

/// A reaction at one point of the active model's action, offered or thinned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReactionPoint {
    /// The reaction (`Action::React`).
    pub action: Action,
    /// The class of equivalent points it belongs to (docs/rulings.md, thinning of points).
    pub class: PointClass,
    /// Whether it is the first point of its class, the one `legal_actions` offers.
    pub offered: bool,
}

/// What makes two points of one reactor's reaction equivalent: reach class (0 always reached,
/// 1 on a Pass or better, 2 only on Nailed It, 3-5 the same after a dismount's separation),
/// the attribute after modifiers, whether the mover is within the weapon's pass range,
/// whether it is in hard cover, and what follows the reaction there (`follow`, ruling 147).
/// Dodges and close combat have no attribute, band or cover of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointClass {
    /// Reach class of the point.
    pub reach: u8,
    /// The test's attribute after modifiers (0 for dodges, close combat and templates).
    pub attr: u8,
    /// The mover is within the pass range (short range band) of the weapon.
    pub pass_range: bool,
    /// The mover is in hard cover from the reactor (+1 armour).
    pub hard_cover: bool,
    /// A digest of what follows the reaction at the point and differs from point to point
    /// although the reactor's own test does not (ruling 147): the mover's firefight answers
    /// there (each weapon's test against the reactor, or none), the worst fall the reacting
    /// side may still choose on the mover's Blunder without cancelling the reaction, water at
    /// or after the point (which puts out a Fire hit), and the models under a template placed
    /// there. Points share a class only if this is equal.
    pub follow: u64,
}

impl Thinning {
    pub(super) fn new() -> Thinning {
        Thinning { seen: Vec::new() }
    }

    /// [`first`](Self::first) for a reaction, also recording it in `all` when given.
    pub(super) fn offer(
        &mut self,
        key: ThinKey,
        action: Action,
        all: &mut Option<&mut Vec<ReactionPoint>>,
    ) -> bool {
        let offered = self.first(key);
        if let Some(all) = all {
            let class =
                PointClass { reach: key.3, attr: key.4, pass_range: key.5, hard_cover: key.6, follow: key.7 };
            all.push(ReactionPoint { action, class, offered });
        }
        offered
    }

    /// True the first time a (model, target, kind, reach class, attribute, range band, hard
    /// cover, what follows) combination is seen.
    pub(super) fn first(&mut self, key: ThinKey) -> bool {
        if self.seen.contains(&key) {
            false
        } else {
            self.seen.push(key);
            true
        }
    }
}

/// What follows a template reaction by `r` (at `rp`) with weapon `weapon` placed over the
/// mover at point `k` (at `pose`): `follow` (falls, answers, water), the template's test there
/// and the models under it with their cover from its origin (p.51).
pub(super) fn template_follow(
    state: &GameState,
    r: ModelId,
    rp: Pose,
    weapon: u8,
    pose: Pose,
    k: u8,
    follow: u64,
) -> u64 {
    let actor = state.dynamic().sequence.as_ref().expect("sequence").actor;
    let roll = super::declare::template_roll(state, r, rp, weapon, pose.cell, k);
    let mut h = digest(follow, (roll.attr as u64) << 1 | roll.pass_range as u64);
    let w = &state.profile(r).weapons[weapon as usize];
    if let Some(kind) = super::template::template_of(w) {
        for (m, hidden) in
            super::template::models_under(state, kind, rp.cell, pose.cell, Some((actor, pose.cell, pose.z)))
        {
            h = digest(h, (m as u64) << 1 | hidden as u64);
        }
    }
    h
}

/// One step of a digest of what follows a reaction (FNV-1a over 64-bit words).
pub(super) fn digest(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3)
}

/// The start of a digest.
pub(super) const DIGEST: u64 = 0xcbf2_9ce4_8422_2325;

/// For every point of the action, the worst fall (its damage, plus 1) the reacting side may
/// choose on the mover's Blunder without cancelling a reaction there: a reaction at point `k`
/// happens only if the chosen fall point is at or after path point `k − 1` (p.38 Conditional
/// Reactions, p.39 Test C; rulings 42, 147). 0 where every result of the test reaches the
/// point, and everywhere on a path without a movement test.
pub(super) fn fall_follow(
    state: &GameState,
    seq: &Sequence,
    budget: u16,
) -> crate::inline_vec::InlineVec<u64, 25> {
    let n = seq.path.points.len();
    let first = seq.path.first_dynamic;
    let damage: Vec<u64> = match first {
        Some(_) if seq.has_path() => seq
            .path
            .points
            .iter()
            .map(|p| super::move_resolution::fall_landing(state, seq.actor, p.cell, p.z).2 as u64)
            .collect(),
        _ => Vec::new(),
    };
    seq.action_points()
        .map(|k| match first {
            Some(first) if !damage.is_empty() && !seq.reach_class(k, budget).is_multiple_of(3) => {
                let from = first.max(k as usize - 1).min(n);
                1 + damage[from..].iter().copied().max().unwrap_or(0)
            }
            _ => 0,
        })
        .collect()
}

/// For every point of the action, whether the mover is in water there or enters water at a
/// later point of its path, which puts out the fire of a hit at that point (p.40, Fire(X)
/// p.53; `move_resolution::water_on_path` once the points reached are known).
pub(super) fn wet_follow(state: &GameState, seq: &Sequence) -> crate::inline_vec::InlineVec<bool, 25> {
    let board = state.board();
    let wet = |cell: crate::board::CellIdx, z: u8| {
        let c = board.cell(cell);
        c.terrain == crate::board::Terrain::Water && z <= c.height
    };
    let origin_wet = wet(seq.origin, board.cell(seq.origin).height);
    seq.action_points()
        .map(|k| {
            let first = (k as usize).saturating_sub(1);
            (k == 0 && origin_wet)
                || seq.path.points.get(first..).is_some_and(|ps| ps.iter().any(|p| wet(p.cell, p.z)))
        })
        .collect()
}
