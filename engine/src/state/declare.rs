//! Declaring an action and the answers to it (pp.22-39): the path a move takes, the combat
//! rolls each declaration adds to the [`Sequence`] (shots, blows, dodges, templates) with
//! their attributes and modifiers, and the steps it pushes (tests, reactions, firefight).

use super::action::CombatKind;
use super::model::{ModelId, Stance};
use super::move_resolution::{move_spec, MoverOccupancy};
use super::sequence::{CombatRoll, RollRole, Sequence};
use super::sight::Pose;
use super::step::Step;
use super::{template, Action, GameState};
use crate::cards::LeaderRule;
use crate::dice::clamp_attribute;
use crate::movement::{self, MovePath, ORTHO};
use crate::profile::WeaponProperty;
use crate::uc::AI_SIDE;

impl GameState {
    /// The path the model choosing its action would declare with `action` (a legal move,
    /// charge, dismount or remount), computed as [`declare`] does but without declaring it:
    /// interfaces draw it before the choice. `None` for other actions or nodes.
    pub fn declared_path(&self, action: Action) -> Option<MovePath> {
        let Some(Step::ChooseAction(m)) = self.dyn_.steps.last() else { return None };
        let m = *m;
        let (spec, dest) = match action {
            Action::Remount { dest } => (speed_penalty_spec(self, m, 1).0, dest),
            Action::Dismount { dest, .. } => (dismount_spec(self, m).0, dest),
            Action::Move { dest, prone } => (move_spec(self, m, prone).0, dest),
            Action::Charge { dest, .. } => (move_spec(self, m, false).0, dest),
            _ => return None,
        };
        movement::path_to(self.board(), &MoverOccupancy { state: self, mover: m }, &spec, dest)
    }
}

/// The declared path of a move, charge, dismount or remount to `dest`, pushing the steps every
/// path shares: the movement test if it needs one, moving, and cancelling what was not reached.
fn declare_path(
    state: &GameState,
    m: ModelId,
    spec: &movement::MoveSpec,
    dest: crate::board::CellIdx,
    push: &mut Vec<Step>,
) -> MovePath {
    let path = movement::path_to(state.board(), &MoverOccupancy { state, mover: m }, spec, dest)
        .expect("legal destination is reachable");
    push.extend([Step::CancelUnreached, Step::ResolveMove]);
    // An AI model's box with an amber movement symbol makes no test (seed 003, Conversion).
    let amber = super::actors::is_ai(state, m) && state.dyn_.uc.amber;
    if path.first_dynamic.is_some() && !amber {
        let attr = clamp_attribute(state.profile(m).agility as i32 - blind_penalty(state, m));
        let purpose = super::step::Purpose::Movement;
        push.push(Step::Test { model: m, attr, purpose, opposed: false, rerolled: false });
    }
    path
}

/// Movement rules of a dismounting cavalry model: a standing move at −2/−2 (p.58).
pub(super) fn dismount_spec(state: &GameState, m: ModelId) -> (movement::MoveSpec, u16) {
    speed_penalty_spec(state, m, 2)
}

/// A standing move with `penalty` inches off both speeds (−2/−2 to dismount, −1/−1 to remount).
pub(super) fn speed_penalty_spec(state: &GameState, m: ModelId, penalty: u16) -> (movement::MoveSpec, u16) {
    let (mut spec, stance_cost) = move_spec(state, m, false);
    spec.budget_free = spec.budget_free.saturating_sub(penalty * ORTHO);
    spec.budget_restricted = spec.budget_restricted.saturating_sub(penalty * ORTHO);
    (spec, stance_cost + penalty * ORTHO)
}

/// The active model's pose at point `k` of the sequence's path, the start (`k` = 0) included:
/// at every point, the start too, it stands over the point's cell at the point's height,
/// climbing above the surface, swimming in water, else prone when crawling and standing when
/// not (p.40, p.25: a change of stance is made at the start of the move, ruling 16). Its own
/// pose where it stands when the action has no path.
pub(super) fn actor_pose(state: &GameState, seq: &Sequence, k: u8) -> Pose {
    if !seq.has_path() {
        return state.pose(seq.actor);
    }
    state.path_pose(seq.actor, &path_point(seq, k), seq.prone)
}

/// Point `k` of the sequence's path: its start for 0 (where the active model stood when it
/// declared), else the path's `k`-th point.
pub(super) fn path_point(seq: &Sequence, k: u8) -> movement::PathPoint {
    match k.checked_sub(1) {
        None => movement::PathPoint {
            cell: seq.origin,
            z: seq.origin_z,
            cost: 0,
            rest: true,
            kind: movement::StepKind::Normal,
        },
        Some(i) => seq.path.points[i as usize],
    }
}

/// Where the roll `r` of a finished sequence was made from: the active model's nested shot or
/// firefight at the path point where it happened (its start for point 0), anyone else's
/// where it stands.
pub(super) fn roll_cell(state: &GameState, seq: &Sequence, r: &CombatRoll) -> crate::board::CellIdx {
    if r.model == seq.actor && seq.has_path() {
        match r.point {
            0 => seq.origin,
            k => seq.path.points[(k as usize - 1).min(seq.path.points.len() - 1)].cell,
        }
    } else {
        state.dyn_.models[r.model as usize].cell
    }
}

/// Blinded models are at −2 Marksmanship, Close Combat and Agility (Blind, p.53).
pub(super) fn blind_penalty(state: &GameState, m: ModelId) -> i32 {
    if state.models()[m as usize].tokens.blind {
        2
    } else {
        0
    }
}

/// A shot from `shooter` at `sp` on `target` at `tp`, with the ranged modifiers of p.30.
/// `None` when the shot is not allowed (no sight, out of range, engaged with a friend of the
/// shooter, or screened by a nearer enemy).
#[allow(clippy::too_many_arguments)]
pub(super) fn shot(
    state: &GameState,
    shooter: ModelId,
    sp: Pose,
    weapon: u8,
    target: ModelId,
    tp: Pose,
    role: RollRole,
    point: u8,
) -> Option<CombatRoll> {
    let profile = state.profile(shooter);
    let w = profile.weapons.get(weapon as usize)?;
    let (pass_range, nailed_range) = w.range?;
    if super::template::template_of(w).is_some() {
        return None; // template weapons are placed, not aimed at a model (p.51)
    }
    if !state.models()[shooter as usize].can_use(weapon, w.scarce()) {
        return None;
    }
    // Cheap checks first: range, then the target's base contacts, then sight.
    let dist = state.board().edge_distance(sp.cell, sp.z, tp.cell, tp.z);
    if dist > nailed_range as f32 {
        return None;
    }
    // The target may not be in base contact with a friend of the shooter (p.30).
    let side = state.models()[shooter as usize].side;
    if state.touches_side(|s| s == side, tp.cell, tp.z, Some(shooter)) {
        return None;
    }
    let seen = state.sight_between(shooter, sp, target, tp)?;
    if !state.nearest_rule_allows(shooter, sp, target, tp, seen.screened_by_enemy) {
        return None;
    }
    let mut attr = profile.marksmanship as i32;
    let in_pass = dist <= pass_range as f32;
    shot_modifiers(state, shooter, sp, w, target, tp, seen.sight, in_pass, |_, d| attr += d);
    Some(CombatRoll {
        model: shooter,
        role,
        kind: CombatKind::Shoot { weapon },
        target: Some(target),
        point,
        attr: clamp_attribute(attr),
        pass_range: in_pass,
        hard_cover: seen.sight.hard_cover,
        opposed: false,
        cancelled: false,
        outcome: None,
        automatic: false,
        harmless: false,
    })
}

/// The ranged modifiers of p.30 to a shot's Marksmanship, each passed to `add` with its reason:
/// blinded, cover, shooting while swimming or climbing, Spray within short range, smoke and
/// the target's Camouflage.
#[allow(clippy::too_many_arguments)]
pub(super) fn shot_modifiers(
    state: &GameState,
    shooter: ModelId,
    sp: Pose,
    w: &crate::profile::Weapon,
    target: ModelId,
    tp: Pose,
    sight: crate::board::Sight,
    in_pass: bool,
    mut add: impl FnMut(&'static str, i32),
) {
    if blind_penalty(state, shooter) != 0 {
        add("blinded", -2);
    }
    if sight.hard_cover {
        add("hard cover", -1);
    }
    if sight.soft_cover {
        add("soft cover", -1);
    }
    if sp.swimming || sp.z > state.board().cell(sp.cell).height {
        add("shooting while swimming or climbing", -1);
    }
    if in_pass && w.properties.contains(&WeaponProperty::Spray) {
        add("Spray within short range", 1);
    }
    // A target in or behind smoke is at −2 (Smoke, p.53).
    if super::template::smoke_between(state, sp.cell, tp.cell) {
        add("smoke in the way", -2);
    }
    // Shooting a model with the Camouflage skill is at −1 Marksmanship (p.14), the skill of
    // its card or of its leader's rule (p.74).
    if state.profile(target).skills.iter().any(|s| s == "Camouflage")
        || state.has_leader_rule(target, LeaderRule::Camouflage)
    {
        add("the target's Camouflage", -1);
    }
    let bonus = state.leader_bonus(shooter, LeaderRule::Marksmanship);
    if bonus != 0 {
        add("the leader's rule", bonus);
    }
}

impl GameState {
    /// The sum of the Marksmanship modifiers of a shot of `shooter` at `sp` with `weapon` on
    /// `target` at `tp` (p.30, with Spray, Smoke, Camouflage and the leader's rule; see
    /// `shot_modifiers`), given what the shooter sees (`sight`) and whether the target is
    /// within the weapon's pass range: the computation the engine's shots use, for agents that
    /// estimate a shot from where a model stands or might stand. 0 for a weapon it lacks.
    #[allow(clippy::too_many_arguments)]
    pub fn shot_modifier_total(
        &self,
        shooter: ModelId,
        sp: Pose,
        weapon: u8,
        target: ModelId,
        tp: Pose,
        sight: crate::board::Sight,
        in_pass: bool,
    ) -> i32 {
        let Some(w) = self.profile(shooter).weapons.get(weapon as usize) else { return 0 };
        let mut total = 0;
        shot_modifiers(self, shooter, sp, w, target, tp, sight, in_pass, |_, d| total += d);
        total
    }

    /// The modifiers of `roll`, a combat roll of the sequence under way, each with its reason,
    /// in the order the rules apply them: the attribute tested is the profile's value plus
    /// these, kept within the dice's range. Worked out again for where the models stand (the
    /// active model at the roll's point of its path); empty without a sequence.
    pub fn roll_modifiers(&self, roll: &CombatRoll) -> Vec<(&'static str, i32)> {
        let mut out = Vec::new();
        let Some(seq) = self.dyn_.sequence.as_ref() else { return out };
        // The rolls are made once the mover has moved: the active model is taken at the
        // roll's point of its path, wherever it stands now.
        let pose_of =
            |m: ModelId| if m != seq.actor { self.pose(m) } else { actor_pose(self, seq, roll.point) };
        let sp = pose_of(roll.model);
        let profile = self.profile(roll.model);
        match (roll.kind, roll.target) {
            (CombatKind::Shoot { weapon }, Some(t)) => {
                let tp = pose_of(t);
                let sight = self.sight_between(roll.model, sp, t, tp).map(|s| s.sight).unwrap_or_default();
                let w = &profile.weapons[weapon as usize];
                shot_modifiers(self, roll.model, sp, w, t, tp, sight, roll.pass_range, |why, d| {
                    out.push((why, d))
                });
            }
            (CombatKind::CloseCombat { weapon }, Some(t)) => {
                let charge = roll.role == RollRole::Main && matches!(seq.declared, Action::Charge { .. });
                let charged = charge && charge_bonus(self, seq);
                // A charge's blow is struck at its point of the path; other blows where the
                // model stands.
                let at = if charge { sp } else { self.pose(roll.model) };
                // Sneaky counts once the roll turns out unopposed: the variant that gives the
                // roll's attribute is the one that applied.
                let mut plain = Vec::new();
                close_combat_modifiers(self, roll.model, at, t, weapon, charged, false, |why, d| {
                    plain.push((why, d))
                });
                let sum =
                    |mods: &[(&'static str, i32)]| profile.cc as i32 + mods.iter().map(|m| m.1).sum::<i32>();
                let mut sneaky = Vec::new();
                close_combat_modifiers(self, roll.model, at, t, weapon, charged, true, |why, d| {
                    sneaky.push((why, d))
                });
                let fits =
                    clamp_attribute(sum(&sneaky)) == roll.attr && clamp_attribute(sum(&plain)) != roll.attr;
                out = if fits { sneaky } else { plain };
            }
            (CombatKind::Dodge, _) => {
                if blind_penalty(self, roll.model) != 0 {
                    out.push(("blinded", -2));
                }
                if sp.volume == crate::board::Volume::Base {
                    out.push(("prone, climbing or swimming", -1));
                }
            }
            (CombatKind::Template { weapon }, _) => {
                let w = &profile.weapons[weapon as usize];
                if blind_penalty(self, roll.model) != 0 {
                    out.push(("blinded", -2));
                }
                if roll.pass_range && !roll.automatic && w.has(WeaponProperty::Spray) {
                    out.push(("Spray within short range", 1));
                }
                if sp.swimming || sp.z > self.board().cell(sp.cell).height {
                    out.push(("shooting while swimming or climbing", -1));
                }
                let bonus = self.leader_bonus(roll.model, LeaderRule::Marksmanship);
                if bonus != 0 {
                    out.push(("the leader's rule", bonus));
                }
            }
            (CombatKind::Reveal, Some(t)) => {
                if let Some(seen) = self.sight_ignoring_stealth(roll.model, sp, t, pose_of(t)) {
                    if seen.sight.hard_cover {
                        out.push(("hard cover", -1));
                    }
                    if seen.sight.soft_cover {
                        out.push(("soft cover", -1));
                    }
                }
            }
            _ => {}
        }
        // Opposed reactions against a stealthed model that initiated combat are at −2 (p.49).
        if seq.stealthed_attacker && roll.opposed && roll.role == RollRole::Reaction {
            out.push(("against a stealthed attacker", -2));
        }
        out
    }
}

/// Range bands of the Reveal profile (p.49): 8/14, damage 0/0.
pub const REVEAL_RANGE: (u8, u8) = (8, 14);

/// A Reveal (p.49) by `revealer` at `rp` on the stealthed `target` at `tp`: like a shot (sight
/// as if the target were not stealthed, range, cover modifiers, not engaged with a friend) but
/// testing Intelligence with the Reveal profile. `None` when not allowed.
#[allow(clippy::too_many_arguments)]
pub(super) fn reveal(
    state: &GameState,
    revealer: ModelId,
    rp: Pose,
    target: ModelId,
    tp: Pose,
    role: RollRole,
    point: u8,
) -> Option<CombatRoll> {
    if !state.models()[target as usize].tokens.stealth {
        return None;
    }
    let dist = state.board().edge_distance(rp.cell, rp.z, tp.cell, tp.z);
    if dist > REVEAL_RANGE.1 as f32 {
        return None;
    }
    let side = state.models()[revealer as usize].side;
    if state.touches_side(|s| s == side, tp.cell, tp.z, Some(revealer)) {
        return None;
    }
    let seen = state.sight_ignoring_stealth(revealer, rp, target, tp)?;
    let attr = state.profile(revealer).intelligence as i32
        - seen.sight.hard_cover as i32
        - seen.sight.soft_cover as i32;
    Some(CombatRoll {
        model: revealer,
        role,
        kind: CombatKind::Reveal,
        target: Some(target),
        point,
        attr: clamp_attribute(attr),
        pass_range: dist <= REVEAL_RANGE.0 as f32,
        hard_cover: seen.sight.hard_cover,
        opposed: false,
        cancelled: false,
        outcome: None,
        automatic: false,
        harmless: false,
    })
}

/// Close Combat attribute of `m` where it stands with the modifiers of p.33: −1 per further
/// standing enemy in base contact, +1 for a charge not begun in water, −1 when prone, climbing
/// or swimming, and Sneaky(X) when the roll is not opposed (`sneaky`).
pub(super) fn close_combat_attr(
    state: &GameState,
    m: ModelId,
    target: ModelId,
    weapon: u8,
    charged: bool,
    sneaky: bool,
) -> u8 {
    close_combat_attr_at(state, m, state.pose(m), target, weapon, charged, sneaky)
}

/// [`close_combat_attr`] for `m` at pose `at` (a charger at its destination point).
pub(super) fn close_combat_attr_at(
    state: &GameState,
    m: ModelId,
    at: Pose,
    target: ModelId,
    weapon: u8,
    charged: bool,
    sneaky: bool,
) -> u8 {
    let mut attr = state.profile(m).cc as i32;
    close_combat_modifiers(state, m, at, target, weapon, charged, sneaky, |_, d| attr += d);
    clamp_attribute(attr)
}

/// The modifiers of [`close_combat_attr_at`] for `m` at `at`, each passed to `add` with its
/// reason.
#[allow(clippy::too_many_arguments)]
fn close_combat_modifiers(
    state: &GameState,
    m: ModelId,
    at: Pose,
    target: ModelId,
    weapon: u8,
    charged: bool,
    sneaky: bool,
    mut add: impl FnMut(&'static str, i32),
) {
    let profile = state.profile(m);
    if blind_penalty(state, m) != 0 {
        add("blinded", -2);
    }
    let side = state.models()[m as usize].side;
    let extra = state
        .models()
        .iter()
        .enumerate()
        .filter(|&(o, om)| {
            o != target as usize
                && o != m as usize
                && om.side != side
                && om.is_conscious()
                && om.stance == Stance::Standing
                && super::sight::cells_touch(state, at.cell, at.z, om.cell, om.z)
        })
        .count();
    if extra > 0 {
        add("more enemies in base contact", -(extra as i32));
    }
    if charged {
        add("charging", 1);
    }
    // Low where it stands: prone, climbing or swimming.
    if at.volume == crate::board::Volume::Base {
        add("prone, climbing or swimming", -1);
    }
    let bonus = state.leader_bonus(m, LeaderRule::CloseCombat);
    if bonus != 0 {
        add("the leader's rule", bonus);
    }
    if sneaky {
        for p in &profile.weapons[weapon as usize].properties {
            if let WeaponProperty::Sneaky(x) = p {
                add("Sneaky, unopposed", *x as i32);
            }
        }
    }
}

/// Whether `attacker` at `ap` can strike `target` at `tp` with close-combat weapon `weapon`:
/// in base contact, or within the weapon's Reach(X) and in sight (p.53).
pub(super) fn reaches(
    state: &GameState,
    attacker: ModelId,
    ap: Pose,
    weapon: u8,
    target: ModelId,
    tp: Pose,
) -> bool {
    if super::sight::cells_touch(state, ap.cell, ap.z, tp.cell, tp.z) {
        return true;
    }
    let Some(x) = state.profile(attacker).weapons[weapon as usize].reach() else { return false };
    state.board().edge_distance(ap.cell, ap.z, tp.cell, tp.z) <= x as f32
        && state.sight_between(attacker, ap, target, tp).is_some()
}

/// A close-combat roll of `m` at pose `at` (Sneaky is added later if the roll turns out
/// unopposed).
#[allow(clippy::too_many_arguments)]
pub(super) fn close_combat(
    state: &GameState,
    m: ModelId,
    at: Pose,
    weapon: u8,
    target: ModelId,
    role: RollRole,
    point: u8,
    charged: bool,
) -> CombatRoll {
    CombatRoll {
        model: m,
        role,
        kind: CombatKind::CloseCombat { weapon },
        target: Some(target),
        point,
        attr: close_combat_attr_at(state, m, at, target, weapon, charged, false),
        pass_range: false,
        hard_cover: false,
        opposed: false,
        cancelled: false,
        outcome: None,
        automatic: false,
        harmless: false,
    }
}

/// A dodge roll: Agility, −1 when prone, climbing or swimming (p.33).
pub(super) fn dodge(state: &GameState, m: ModelId, low: bool, role: RollRole, point: u8) -> CombatRoll {
    let attr = state.profile(m).agility as i32 - low as i32 - blind_penalty(state, m);
    CombatRoll {
        model: m,
        role,
        kind: CombatKind::Dodge,
        target: None,
        point,
        attr: clamp_attribute(attr),
        pass_range: false,
        hard_cover: false,
        opposed: false,
        cancelled: false,
        outcome: None,
        automatic: false,
        harmless: false,
    }
}

/// Declare the active model's action (Declare step A-B, p.39): pay its AP, record what it
/// does, and push the rest of the sequence.
pub(super) fn declare(state: &mut GameState, m: ModelId, declared: Action) {
    spend_ap(state, m);
    let mut seq = Sequence::new(m, declared);
    let model = state.dyn_.models[m as usize];
    seq.stealthed_attacker = model.tokens.stealth
        && matches!(
            declared,
            Action::Shoot { .. }
                | Action::Template { .. }
                | Action::CloseCombat { .. }
                | Action::Charge { .. }
        );
    seq.origin = model.cell;
    seq.origin_z = model.z;
    let mut push = vec![Step::EndSequence, Step::ResolveCombat, Step::RollCombat];
    match declared {
        Action::Remount { dest } => {
            let (spec, stance_cost) = speed_penalty_spec(state, m, 1);
            seq.stance_cost = stance_cost;
            seq.path = declare_path(state, m, &spec, dest, &mut push);
            push.push(Step::ChooseReaction);
        }
        Action::Dismount { dest, at_end } => {
            let (spec, stance_cost) = dismount_spec(state, m);
            seq.stance_cost = stance_cost;
            seq.path = declare_path(state, m, &spec, dest, &mut push);
            seq.separation = Some(if at_end { seq.path.points.len() as u8 } else { 0 });
            // No nested action or firefight during a dismount (p.58).
            push.push(Step::ChooseReaction);
        }
        Action::Move { dest, .. } | Action::Charge { dest, .. } => {
            let prone = matches!(declared, Action::Move { prone: true, .. });
            let (spec, stance_cost) = move_spec(state, m, prone);
            seq.prone = prone;
            seq.stance_cost = stance_cost;
            seq.started_in_water = state.in_water(&model);
            if matches!(declared, Action::Charge { .. }) {
                push.push(Step::ChargeStrike);
            }
            seq.path = declare_path(state, m, &spec, dest, &mut push);
            if let Action::Charge { target, weapon, .. } = declared {
                seq.rolls.push(charge_blow(state, &seq, target, weapon));
            }
            if matches!(declared, Action::Move { .. }) {
                push.extend([Step::ChooseFirefight, Step::ChooseReaction, Step::ChooseNested]);
            } else {
                push.push(Step::ChooseReaction);
            }
        }
        Action::Shoot { weapon, target } => {
            let roll = shot(state, m, state.pose(m), weapon, target, state.pose(target), RollRole::Main, 0)
                .expect("legal shot");
            seq.rolls.push(roll);
            push.push(Step::ChooseReaction);
        }
        Action::CloseCombat { weapon, target } => {
            seq.rolls.push(close_combat(state, m, state.pose(m), weapon, target, RollRole::Main, 0, false));
            push.push(Step::ChooseReaction);
        }
        Action::Template { weapon, at } => {
            let aim = TemplateAim { firer: m, from: state.pose(m), weapon, at, mover_at: None, target: None };
            let (roll, shot) = template_shot(state, aim, RollRole::Main, 0, seq.rolls.len());
            seq.templates.push(shot);
            seq.rolls.push(roll);
            push.push(Step::ChooseReaction);
        }
        Action::Reveal { target } => {
            let roll = reveal(state, m, state.pose(m), target, state.pose(target), RollRole::Main, 0)
                .expect("legal reveal");
            seq.rolls.push(roll);
            push.push(Step::ChooseReaction);
        }
        Action::Dodge => {
            seq.rolls.push(dodge(state, m, model.stance != Stance::Standing, RollRole::Main, 0));
            push.push(Step::ChooseReaction);
        }
        Action::Interact { kind, .. } if kind.is_marker() => {
            // Scenario interactions need no test (p.81); they apply after the combat rolls.
            push = vec![
                Step::EndSequence,
                Step::ResolveCombat,
                Step::ResolveInteract,
                Step::RollCombat,
                Step::ChooseFirefight,
                Step::ChooseReaction,
            ];
        }
        Action::Interact { .. } => {
            // The Intelligence test is made after the combat rolls; its results apply with
            // the sequence's other effects (p.39).
            let attr = clamp_attribute(state.profile(m).intelligence as i32);
            push = vec![
                Step::EndSequence,
                Step::ResolveCombat,
                Step::ResolveInteract,
                Step::Test {
                    model: m,
                    attr,
                    purpose: super::step::Purpose::Interact,
                    opposed: false,
                    rerolled: false,
                },
                Step::RollCombat,
                Step::ChooseFirefight,
                Step::ChooseReaction,
            ];
        }
        other => unreachable!("not an action declaration: {other:?}"),
    }
    // A leader may declare command orders before the reactions (Declare C) and make them
    // once the action's other results are in (Apply D-F).
    push.insert(1, Step::CommandOrder);
    let reaction =
        push.iter().position(|s| *s == Step::ChooseReaction).expect("every action can be reacted to");
    push.insert(reaction + 1, Step::ChooseCommand);
    if matches!(declared, Action::Dismount { .. }) {
        push.insert(1, Step::Dismount); // after the tests and command orders (Apply A)
    }
    if matches!(declared, Action::Remount { .. }) {
        push.insert(1, Step::Remount); // Apply L: the cavalry model is back
    }
    if model.side == crate::uc::AI_SIDE {
        ai_reactions(state, &mut push);
    } else if attacked_ai(state, declared).is_some() {
        // The attacked AI model answers once the players' reactions are declared.
        let at =
            push.iter().position(|s| *s == Step::ChooseReaction).expect("every action can be reacted to");
        push.insert(at, Step::Enemy(super::EnemyStep::AnswerAttack));
    }
    state.dyn_.sequence = Some(seq);
    state.dyn_.steps.extend(push);
}

/// An AI model's action: both players may react, the side with the initiative first; the AI
/// model nests nothing, gives no command and fights no firefight (its card says what it does).
/// A movement reaction is never reacted to (seed 003, "Enemy reactions vs movement").
fn ai_reactions(state: &GameState, push: &mut Vec<Step>) {
    push.retain(|s| !matches!(s, Step::ChooseNested | Step::ChooseFirefight | Step::ChooseCommand));
    let first = state.dyn_.initiative;
    let at = push.iter().position(|s| *s == Step::ChooseReaction).expect("every action can be reacted to");
    if state.dyn_.uc.reacting {
        push.remove(at);
    } else {
        push.splice(
            at..=at,
            [Step::ChooseReactionBy(super::actors::other_side(first)), Step::ChooseReactionBy(first)],
        );
    }
}

/// Who fires a template from where, and where it is placed.
pub(super) struct TemplateAim {
    /// The firing model.
    pub firer: ModelId,
    /// Where it fires from.
    pub from: Pose,
    /// The template weapon.
    pub weapon: u8,
    /// Centre (small, large) or aiming point (teardrop).
    pub at: crate::board::CellIdx,
    /// The active model at the point of its path where the shot happens, if it moved.
    pub mover_at: Option<(ModelId, crate::board::CellIdx, u8)>,
    /// The model nominated as its target, when the shot needs one (a reaction's, a nested
    /// shot's or a firefight's, p.51).
    pub target: Option<ModelId>,
}

/// A template shot (a Shoot Action, p.51) and its hit roll, the roll to be stored at index
/// `roll_index` of the sequence's rolls.
pub(super) fn template_shot(
    state: &GameState,
    aim: TemplateAim,
    role: RollRole,
    point: u8,
    roll_index: usize,
) -> (CombatRoll, super::template::TemplateShot) {
    let mut roll = template_roll(state, aim.firer, aim.from, aim.weapon, aim.at, point);
    roll.role = role;
    roll.target = aim.target;
    let shot = super::template::TemplateShot {
        roll: roll_index as u8,
        landed: roll.automatic,
        mover_at: aim.mover_at,
        firer: aim.firer,
        origin: aim.from.cell,
        weapon: aim.weapon,
        at: aim.at,
        pass_range: roll.pass_range,
        nailed: false,
    };
    (roll, shot)
}

/// The hit roll of a template shot by `m` at pose `fp` placed at `at`: the shooter's own
/// Marksmanship modifiers (Blind, Spray, swimming or climbing, p.30) but none for cover, which
/// small and large templates ignore (p.52). A teardrop rolls nothing: it always lands (p.52).
pub(super) fn template_roll(
    state: &GameState,
    m: ModelId,
    fp: Pose,
    weapon: u8,
    at: crate::board::CellIdx,
    point: u8,
) -> CombatRoll {
    let w = &state.profile(m).weapons[weapon as usize];
    let (pass, _) = w.range.expect("template weapons have a range");
    let pass_range =
        state.board().edge_distance(fp.cell, fp.z, at, state.board().cell(at).height) <= pass as f32;
    let mut attr = state.profile(m).marksmanship as i32 - blind_penalty(state, m);
    if pass_range && w.has(WeaponProperty::Spray) {
        attr += 1;
    }
    if fp.swimming || fp.z > state.board().cell(fp.cell).height {
        attr -= 1; // shooting while swimming or climbing
    }
    attr += state.leader_bonus(m, LeaderRule::Marksmanship);
    let automatic = super::template::template_of(w) == Some(crate::profile::TemplateKind::Teardrop);
    CombatRoll {
        model: m,
        role: RollRole::Reaction,
        kind: CombatKind::Template { weapon },
        target: None,
        point,
        attr: clamp_attribute(attr),
        pass_range: pass_range || automatic,
        hard_cover: false,
        opposed: false,
        cancelled: false,
        outcome: None,
        automatic,
        harmless: false,
    }
}

/// Spend an AP for an action; under noxious smoke that costs a wound (Choke, p.53). An AI
/// model holds no AP, but an action of its card counts as spending one (seed 003, Conversion,
/// "Skill and weapon property exceptions").
fn spend_ap(state: &mut GameState, m: ModelId) {
    let noxious = super::template::under_noxious_smoke(state, state.dyn_.models[m as usize].cell);
    let model = &mut state.dyn_.models[m as usize];
    model.ap = model.ap.saturating_sub(1);
    if noxious {
        model.pending.wounds = model.pending.wounds.saturating_add(1);
    }
}

/// Record a nested action, a reaction or a firefight (validated beforehand) and pay its AP.
pub(super) fn add_combat(state: &mut GameState, action: Action) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let roll = match action {
        Action::Nested { kind, target, point } => {
            let pose = actor_pose(state, seq, point);
            match kind {
                CombatKind::Shoot { weapon } => {
                    shot(state, actor, pose, weapon, target, state.pose(target), RollRole::Nested, point)
                        .expect("legal")
                }
                // A nested template is centred on (or aimed at) its target model (p.51).
                CombatKind::Template { weapon } => {
                    let at = state.models()[target as usize].cell;
                    let mover_at = Some((actor, pose.cell, pose.z));
                    let aim =
                        TemplateAim { firer: actor, from: pose, weapon, at, mover_at, target: Some(target) };
                    return add_template(state, aim, RollRole::Nested, point);
                }
                _ => dodge(state, actor, pose.volume == crate::board::Volume::Base, RollRole::Nested, point),
            }
        }
        Action::React { model, kind, point } => {
            let tp = actor_pose(state, seq, point);
            match kind {
                CombatKind::Shoot { weapon } => {
                    shot(state, model, state.pose(model), weapon, actor, tp, RollRole::Reaction, point)
                        .expect("legal")
                }
                CombatKind::Dodge => dodge(
                    state,
                    model,
                    state.models()[model as usize].stance != Stance::Standing,
                    RollRole::Reaction,
                    point,
                ),
                CombatKind::CloseCombat { weapon } => {
                    let at = state.pose(model);
                    let mut roll =
                        close_combat(state, model, at, weapon, actor, RollRole::Reaction, point, false);
                    roll.harmless = !reaches(state, model, state.pose(model), weapon, actor, tp);
                    roll
                }
                CombatKind::Reveal => {
                    reveal(state, model, state.pose(model), actor, tp, RollRole::Reaction, point)
                        .expect("legal")
                }
                // A template reaction is placed over the active model where it reacts (p.51).
                CombatKind::Template { weapon } => {
                    let mover_at = Some((actor, tp.cell, tp.z));
                    let from = state.pose(model);
                    let aim = TemplateAim {
                        firer: model,
                        from,
                        weapon,
                        at: tp.cell,
                        mover_at,
                        target: Some(actor),
                    };
                    return add_template(state, aim, RollRole::Reaction, point);
                }
            }
        }
        Action::Firefight { kind, reactor } => {
            let point = seq
                .rolls
                .iter()
                .find(|r| r.role == RollRole::Reaction && r.model == reactor)
                .expect("reactor")
                .point;
            let pose = actor_pose(state, seq, point);
            match kind {
                CombatKind::Shoot { weapon } => {
                    shot(state, actor, pose, weapon, reactor, state.pose(reactor), RollRole::Firefight, point)
                        .expect("legal")
                }
                CombatKind::Dodge => {
                    dodge(state, actor, pose.volume == crate::board::Volume::Base, RollRole::Firefight, point)
                }
                CombatKind::CloseCombat { weapon } => {
                    let at = state.pose(actor);
                    close_combat(state, actor, at, weapon, reactor, RollRole::Firefight, point, false)
                }
                // A firefight template is placed over the reactor it answers (p.51).
                CombatKind::Template { weapon } => {
                    let at = state.models()[reactor as usize].cell;
                    let mover_at = Some((actor, pose.cell, pose.z));
                    let aim =
                        TemplateAim { firer: actor, from: pose, weapon, at, mover_at, target: Some(reactor) };
                    return add_template(state, aim, RollRole::Firefight, point);
                }
                CombatKind::Reveal => unreachable!("a firefight is never a reveal"),
            }
        }
        other => unreachable!("not a combat declaration: {other:?}"),
    };
    spend_ap(state, roll.model);
    state.dyn_.sequence.as_mut().expect("sequence").rolls.push(roll);
}

/// Record a template shot declared during the sequence and pay its AP.
fn add_template(state: &mut GameState, aim: TemplateAim, role: RollRole, point: u8) {
    let firer = aim.firer;
    let index = state.dyn_.sequence.as_ref().expect("sequence").rolls.len();
    let (roll, shot) = template_shot(state, aim, role, point, index);
    spend_ap(state, firer);
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    seq.rolls.push(roll);
    seq.templates.push(shot);
}

/// Test step C (p.39): reactions, nested actions and firefights at points the mover never
/// reached do not happen (a firefight happens at the point of the reaction it answers). A
/// reactor spends no AP; the active model gets its AP back at the end of the sequence.
pub(super) fn cancel_unreached(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    let reached = seq.reached;
    let mut refunds = Vec::new();
    for r in seq.rolls.iter_mut() {
        if r.role != RollRole::Main && r.point > reached && !r.cancelled {
            r.cancelled = true;
            if r.role == RollRole::Reaction {
                refunds.push(r.model);
            } else {
                seq.refund += 1;
            }
        }
    }
    for m in refunds {
        refund_ap(state, m);
    }
}

/// The charger's close combat, declared with its charge (p.33 "Declaring a Charge Action":
/// "indicating your desired Movement Path, your Point of Destination, and your Target Model";
/// p.39 Declare A-D: the active model declares its action before the reacting player declares
/// reactions): a blow at the target with the declared weapon, struck at the path's last point
/// (its destination) with the modifiers there — the charger's stance at that point, the
/// enemies in base contact with it there, the charge bonus. The reacting player sees it when
/// declaring. `combat::charge_strike` makes it only if the charger reaches its target.
fn charge_blow(state: &GameState, seq: &Sequence, target: ModelId, weapon: u8) -> CombatRoll {
    let point = seq.path.points.len() as u8;
    let at = actor_pose(state, seq, point);
    close_combat(state, seq.actor, at, weapon, target, RollRole::Main, point, charge_bonus(state, seq))
}

/// Whether the sequence's charge earns its +1 Close Combat (p.33): a charge not begun in water
/// and not through smoke.
pub(super) fn charge_bonus(state: &GameState, seq: &super::Sequence) -> bool {
    let through_smoke = !state.dyn_.clouds.is_empty()
        && (template::smoke_between(state, seq.origin, seq.origin)
            || seq.path.points.iter().any(|p| template::smoke_between(state, p.cell, p.cell)));
    matches!(seq.declared, Action::Charge { .. }) && !seq.started_in_water && !through_smoke
}

/// Give back the AP of a cancelled reaction; AI models hold none (seed 003, Conversion).
pub(super) fn refund_ap(state: &mut GameState, m: ModelId) {
    let model = &mut state.dyn_.models[m as usize];
    if model.side != crate::uc::AI_SIDE {
        model.ap += 1;
    }
}

/// The AI model a player's main shot, blow or charge is made at, if any.
pub(super) fn attacked_ai(state: &GameState, declared: Action) -> Option<ModelId> {
    match declared {
        Action::Shoot { target, .. } | Action::CloseCombat { target, .. } | Action::Charge { target, .. }
            if state.dyn_.models[target as usize].side == AI_SIDE =>
        {
            Some(target)
        }
        _ => None,
    }
}
