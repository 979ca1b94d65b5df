//! Combat rolls of a sequence (Test G-J and Apply, p.39): which rolls are opposed, rolling
//! them, and applying their results — hits, damage, jams, blunders, feat AP and dodge moves.
//!
//! Two rolls are opposed when the active side's and a reactor's combat actions target each
//! other, or one of them is a dodge against the other (p.36). A dodge by the active model is
//! compared with every roll attacking it (dodging several shots, p.32); every other roll is
//! opposed by at most one roll.

use super::action::CombatKind;
use super::damage::{add_damage, allocate_hit, self_armour};
use super::declare::{self, charge_bonus, close_combat, close_combat_attr, reaches, refund_ap};
use super::model::ModelId;
use super::sequence::{CombatRoll, RollRole};
use super::step::{Purpose, Step};
use super::{template, Action, GameState};
use crate::board::CellIdx;
use crate::dice::{opposed, OpposedResult, TestLevel};
use crate::odds::armour_target;
use crate::profile::WeaponProperty;

/// Whether an active-side roll `a` and a reaction `r` oppose each other. "Rolls involving
/// Template Weapons may never be Opposed Tests" (p.51).
fn opposes(a: &CombatRoll, r: &CombatRoll) -> bool {
    let dodge = |x: &CombatRoll| matches!(x.kind, CombatKind::Dodge);
    let template = |x: &CombatRoll| matches!(x.kind, CombatKind::Template { .. });
    !template(a)
        && !template(r)
        && ((a.attacks(r.model) && (r.attacks(a.model) || dodge(r))) || (dodge(a) && r.attacks(a.model)))
}

/// The opposed pairs (active-side roll, reaction) among the rolls that happen: each reaction
/// is paired with the first active-side roll (main, nested, firefight) it opposes.
fn pairings(rolls: &[CombatRoll]) -> Vec<(usize, usize)> {
    let mut active: Vec<usize> =
        (0..rolls.len()).filter(|&i| rolls[i].role.is_active() && !rolls[i].cancelled).collect();
    active.sort_by_key(|&i| rolls[i].role);
    let mut pairs = Vec::new();
    for (r, roll) in rolls.iter().enumerate() {
        if roll.role != RollRole::Reaction || roll.cancelled {
            continue;
        }
        if let Some(&a) = active.iter().find(|&&a| opposes(&rolls[a], roll)) {
            pairs.push((a, r));
        }
    }
    pairs
}

/// The order rolls are made and applied in: the active side first (main, nested, firefight),
/// then the reactions in the order they were declared.
fn roll_order(rolls: &[CombatRoll]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rolls.len()).filter(|&i| !rolls[i].cancelled).collect();
    order.sort_by_key(|&i| (rolls[i].role, i));
    order
}

/// A charge's close combat (p.33), once the charger has moved: the blow declared with the
/// charge (`declare::charge_blow`) is made only if the charger reached base contact with its
/// target (or its Reach) where it ended (ruling 26); a charger that ended short of its
/// destination but still reaches strikes from where it stands, with the modifiers there.
/// Close-combat reactions whose reactor the charger did not reach are off.
pub(super) fn charge_strike(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let Action::Charge { target, weapon, .. } = seq.declared else {
        unreachable!("charge strike without a charge")
    };
    let actor = seq.actor;
    let main = seq.rolls.iter().position(|r| r.role == RollRole::Main).expect("the charge's declared blow");
    let here = state.pose(actor);
    // A Reach charge strikes from its destination point (p.53).
    let strikes = state.dyn_.models[actor as usize].is_conscious()
        && state.dyn_.models[target as usize].is_conscious()
        && reaches(state, actor, here, weapon, target, state.pose(target));
    let destination = declare::path_point(seq, seq.path.points.len() as u8);
    let short = (here.cell, here.z) != (destination.cell, destination.z);
    let blow = if strikes && short {
        // Where it stopped: the last point it reached at which it stands (its start if none).
        let reached = &seq.path.points[..(seq.reached as usize).min(seq.path.points.len())];
        let point =
            reached.iter().rposition(|p| (p.cell, p.z) == (here.cell, here.z)).map_or(0, |i| i as u8 + 1);
        let charged = charge_bonus(state, seq);
        Some(close_combat(state, actor, here, weapon, target, RollRole::Main, point, charged))
    } else {
        None
    };
    // A harmless reaction (the target fighting back from beyond its own reach) needs the
    // charger's blow to oppose.
    let unreached: Vec<usize> = seq
        .rolls
        .iter()
        .enumerate()
        .filter(|(_, r)| match r.kind {
            CombatKind::CloseCombat { weapon } if !r.cancelled && r.role == RollRole::Reaction => {
                if r.harmless {
                    !(strikes && r.model == target)
                } else {
                    !reaches(state, r.model, state.pose(r.model), weapon, actor, state.pose(actor))
                }
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .collect();
    for i in unreached {
        let seq = state.dyn_.sequence.as_mut().expect("sequence");
        seq.rolls[i].cancelled = true;
        let m = seq.rolls[i].model;
        refund_ap(state, m);
    }
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    match blow {
        Some(roll) => seq.rolls[main] = roll,
        // The charge's AP pays for the move too: none comes back.
        None => seq.rolls[main].cancelled |= !strikes,
    }
}

/// Test G-H (p.39): mark opposed rolls, give unopposed close combat its Sneaky bonus, and push
/// one test per roll: opposed rolls first, then unopposed ones, active side first.
pub(super) fn roll_combat(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let pairs = pairings(&seq.rolls);
    let charge = charge_bonus(state, seq);
    let mut rolls = seq.rolls.clone();
    let stealthed_attacker = seq.stealthed_attacker;
    for (i, roll) in rolls.iter_mut().enumerate() {
        roll.opposed = pairs.iter().any(|&(a, r)| a == i || r == i);
        // Opposed reactions against a stealthed model that initiated combat are at −2 (p.49).
        if stealthed_attacker && roll.opposed && roll.role == RollRole::Reaction {
            roll.attr = crate::dice::clamp_attribute(roll.attr as i32 - 2);
        }
        if let (false, CombatKind::CloseCombat { weapon }, Some(t)) = (roll.opposed, roll.kind, roll.target) {
            let charged = charge && roll.role == RollRole::Main;
            roll.attr = close_combat_attr(state, roll.model, t, weapon, charged, true);
        }
    }
    let mut order = roll_order(&rolls);
    order.sort_by_key(|&i| !rolls[i].opposed);
    // A Scarce weapon's use counts when its shot or blow is made (p.53), template shots
    // included, teardrops too although they roll nothing.
    for &i in &order {
        if let CombatKind::Shoot { weapon }
        | CombatKind::CloseCombat { weapon }
        | CombatKind::Template { weapon } = rolls[i].kind
        {
            let m = &mut state.dyn_.models[rolls[i].model as usize];
            m.uses[weapon as usize] = m.uses[weapon as usize].saturating_add(1);
        }
    }
    let tests: Vec<Step> = order
        .iter()
        .filter(|&&i| !rolls[i].automatic)
        .rev()
        .map(|&i| Step::Test {
            model: rolls[i].model,
            attr: rolls[i].attr,
            purpose: Purpose::Combat(i as u8),
            opposed: rolls[i].opposed,
            rerolled: false,
        })
        .collect();
    state.dyn_.sequence.as_mut().expect("sequence").rolls = rolls;
    state.dyn_.steps.extend(tests);
}

/// Whether roll `i`'s action takes effect: an unopposed success, or a roll that won or tied
/// its opposed test (a dodge needs to win or tie against at least one of the rolls it faces;
/// it counts as one dodge however many shots it faced, p.32).
/// `ai(m)` tells the AI models, whose enemy die is compared by the UC ladder (seed 003).
fn takes_effect(
    rolls: &[CombatRoll],
    pairs: &[(usize, usize)],
    i: usize,
    ai: impl Fn(ModelId) -> bool,
) -> bool {
    let Some(mine) = rolls[i].outcome else { return false };
    let results: Vec<bool> = pairs
        .iter()
        .filter_map(|&(a, r)| {
            let (me, other) = if a == i {
                (a, r)
            } else if r == i {
                (r, a)
            } else {
                return None;
            };
            let (mine, theirs) = (rolls[me].outcome?, rolls[other].outcome?);
            use crate::uc::enemy_die::{from_test_outcome, opposed_vs_enemy, VsEnemy};
            Some(match (ai(rolls[me].model), ai(rolls[other].model)) {
                (false, true) => opposed_vs_enemy(mine, from_test_outcome(theirs)) == VsEnemy::Player,
                (true, false) => opposed_vs_enemy(theirs, from_test_outcome(mine)) == VsEnemy::Enemy,
                _ => matches!(opposed(mine, theirs), OpposedResult::AWins | OpposedResult::TrueTie),
            })
        })
        .collect();
    if results.is_empty() {
        mine.is_success()
    } else if matches!(rolls[i].kind, CombatKind::Dodge) {
        results.iter().any(|&won| won)
    } else {
        results.iter().all(|&won| won)
    }
}

/// Test G-J and Apply B-H (p.39): apply every roll — blunders whatever the opposed result,
/// then hits (armour rolls), feat AP and dodge moves for the rolls that take effect.
pub(super) fn resolve_combat(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let rolls = seq.rolls.clone();
    let pairs = pairings(&rolls);
    let mut hits: Vec<(ModelId, u8, u8)> = Vec::new();
    let mut cavalry_hits: Vec<(ModelId, u8, crate::profile::Weapon, bool, Option<u8>)> = Vec::new();
    let mut dodges: Vec<(ModelId, u8)> = Vec::new();
    for i in roll_order(&rolls) {
        let roll = rolls[i];
        let Some(outcome) = roll.outcome else { continue };
        let profile = state.stat.profiles[state.dyn_.models[roll.model as usize].profile as usize].clone();
        if outcome.level == TestLevel::Blunder {
            match roll.kind {
                // p.30: the shot misses and the weapon jams; a Finite weapon is lost for the
                // game instead (p.53).
                CombatKind::Shoot { weapon } | CombatKind::Template { weapon } => {
                    let m = &mut state.dyn_.models[roll.model as usize];
                    if profile.weapons[weapon as usize].has(WeaponProperty::Finite) {
                        m.broken |= 1 << weapon;
                    } else {
                        m.jammed |= 1 << weapon;
                    }
                }
                CombatKind::CloseCombat { weapon }
                    if profile.weapons[weapon as usize].properties.contains(&WeaponProperty::Natural) =>
                {
                    let cavalry = super::cavalry::is_cavalry(state, roll.model);
                    let p = &mut state.dyn_.models[roll.model as usize].pending;
                    if cavalry {
                        p.mount_wounds = p.mount_wounds.saturating_add(1);
                    } else {
                        p.wounds = p.wounds.saturating_add(1);
                    }
                }
                // A blundered reveal simply fails (p.49).
                CombatKind::Reveal => {}
                // p.32-33: a blundered dodge or close combat costs 1 damage.
                _ => hits.push((roll.model, 1, self_armour(state, roll.model))),
            }
        }
        if let CombatKind::Template { weapon } = roll.kind {
            // A template shot is a Shoot Action (p.51): a Feat gains 1 AP like any shot (p.30).
            if outcome.level == TestLevel::Feat {
                state.dyn_.models[roll.model as usize].pending.feat_ap += 1;
            }
            scatter_or_land(state, i as u8, weapon, outcome.level);
            continue;
        }
        if !takes_effect(&rolls, &pairs, i, |m| super::actors::is_ai(state, m)) {
            continue;
        }
        if outcome.level == TestLevel::Feat {
            state.dyn_.models[roll.model as usize].pending.feat_ap += 1;
        }
        let nailed = outcome.level.is_nailed();
        match roll.kind {
            CombatKind::Dodge => dodges.push((roll.model, if nailed { 20 } else { 10 })),
            // Deviate (p.53): Nailed It lands on target, a Pass scatters X", a Fail D10";
            // without Deviate a Pass lands and a Fail misses.
            CombatKind::Template { .. } => {}
            // A Pass reveals within 8", Nailed It within 14" (p.49).
            CombatKind::Reveal => {
                if nailed || roll.pass_range {
                    let target = roll.target.expect("a reveal has a target");
                    state.dyn_.models[target as usize].pending.reveal = true;
                }
            }
            // Fighting back against a Reach blow from beyond one's own reach (p.53).
            CombatKind::CloseCombat { .. } if roll.harmless => {}
            CombatKind::Shoot { weapon } | CombatKind::CloseCombat { weapon } => {
                let w = &profile.weapons[weapon as usize];
                let ranged = matches!(roll.kind, CombatKind::Shoot { .. });
                // Close combat, and shots at pass range, deal standard damage on a Pass and
                // superior on Nailed It; beyond pass range Nailed It deals standard damage and
                // a Pass misses (p.30).
                let damage = match (!ranged || roll.pass_range, nailed) {
                    (true, true) => w.damage.1,
                    (true, false) | (false, true) => w.damage.0,
                    (false, false) => continue, // a Pass beyond pass range misses
                };
                // An elite card's `damage +N` on the AI model's own attack (ruling 134).
                let damage = if roll.role == RollRole::Main
                    && state.dyn_.models[roll.model as usize].side == crate::uc::AI_SIDE
                {
                    damage.saturating_add(state.dyn_.uc.card_damage)
                } else {
                    damage
                };
                let target = roll.target.expect("attacks have a target");
                let hard = ranged && roll.hard_cover;
                if super::cavalry::is_cavalry(state, target) {
                    // A Pass hurts the mount; Nailed It lets the attacker choose (p.58).
                    let seq = state.dyn_.sequence.as_ref().expect("sequence");
                    let after_separation = seq.separation.is_some_and(|k| roll.point > k);
                    // An AI attacker's choice is the opposing player's (seed 003, "Player choices").
                    let chooser = (nailed && !after_separation).then(|| {
                        match state.dyn_.models[roll.model as usize].side {
                            crate::uc::AI_SIDE => {
                                super::actors::other_side(state.dyn_.models[target as usize].side)
                            }
                            side => side,
                        }
                    });
                    cavalry_hits.push((target, damage, w.clone(), hard, chooser));
                    on_hit(state, roll.model, target, w, roll.point);
                    continue;
                }
                let tp = state.profile(target);
                hits.push((
                    target,
                    damage,
                    armour_target(tp.toughness, tp.total_armour(), w.pierce(), w.sunder(), hard),
                ));
                on_hit(state, roll.model, target, w, roll.point);
            }
        }
    }
    // Templates' hits are worked out after the dodge moves, which may take models out from
    // under them (p.32, p.39 J), and after their scatter (kept on top of the stack).
    let mut scatters = Vec::new();
    while let Some(step @ Step::Scatter { .. }) = state.dyn_.steps.last().cloned() {
        state.dyn_.steps.pop();
        scatters.push(step);
    }
    if !state.dyn_.sequence.as_ref().expect("sequence").templates.is_empty() {
        state.dyn_.steps.push(Step::TemplateHits);
    }
    // Dodge moves after every armour roll: the active model's first, then the reactors' (p.39).
    let actor = state.dyn_.sequence.as_ref().expect("sequence").actor;
    dodges.sort_by_key(|&(m, _)| m != actor);
    for &(model, budget) in dodges.iter().rev() {
        state.dyn_.steps.push(Step::ChooseDodgeMove { model, budget });
    }
    for &(m, damage, target) in hits.iter().rev() {
        add_damage(state, m, damage, target);
    }
    for (m, damage, w, hard, chooser) in cavalry_hits.into_iter().rev() {
        allocate_hit(state, m, damage, &w, hard, chooser);
    }
    state.dyn_.steps.extend(scatters.into_iter().rev());
}

/// Where a template lands after its hit roll `roll` (p.53 Deviate): on target, scattered (a
/// chance node, pushed), or nowhere.
fn scatter_or_land(state: &mut GameState, roll: u8, weapon: u8, level: TestLevel) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let Some(t) = seq.templates.iter().position(|t| t.roll == roll) else { return };
    let firer = seq.templates[t].firer;
    let deviate = {
        let profile = &state.stat.profiles[state.dyn_.models[firer as usize].profile as usize];
        template::deviate_of(&profile.weapons[weapon as usize])
    };
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    let shot = &mut seq.templates[t];
    match (level, deviate) {
        (TestLevel::NailedIt | TestLevel::Feat, _) => {
            shot.nailed = true;
            shot.landed = true;
        }
        // Without Deviate a Pass hits only within the weapon's Pass range, as any shot (p.30).
        (TestLevel::Pass, None) => shot.landed = shot.pass_range,
        (TestLevel::Pass, Some(x)) => {
            shot.landed = true;
            state.dyn_.steps.push(Step::Scatter { template: t as u8, distance: Some(x) });
        }
        (TestLevel::Fail, Some(_)) => {
            shot.landed = true;
            state.dyn_.steps.push(Step::Scatter { template: t as u8, distance: None });
        }
        _ => {} // a miss (or a blunder: jammed)
    }
}

/// The landing cells of a scatter with their probabilities, in cell order: ten equally likely
/// directions, and a D10" distance when `distance` is `None`.
pub(super) fn scatter_outcomes(state: &GameState, template: u8, distance: Option<u8>) -> Vec<(CellIdx, f64)> {
    let at = state.dyn_.sequence.as_ref().expect("sequence").templates[template as usize].at;
    let distances: Vec<u8> = match distance {
        Some(x) => vec![x],
        None => (1..=10).collect(),
    };
    let p = 1.0 / (10 * distances.len()) as f64;
    let mut out: Vec<(CellIdx, f64)> = Vec::new();
    for face in 1..=10 {
        for &d in &distances {
            let c = template::scatter(state, at, face, d);
            match out.iter_mut().find(|(cell, _)| *cell == c) {
                Some((_, q)) => *q += p,
                None => out.push((c, p)),
            }
        }
    }
    out.sort_by_key(|&(c, _)| c);
    out
}

/// Apply J (p.39) for the templates: every model under a landed template, visible from its
/// point of origin, suffers the weapon's damage and properties (hard cover from the origin adds
/// 1 armour); smoke leaves a cloud; a stealthed model is only hurt if the firer passes an
/// Intelligence roll (p.51), and is then revealed.
pub(super) fn template_hits(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let shots: Vec<(usize, template::TemplateShot)> = seq
        .templates
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, t)| t.landed && !seq.rolls[t.roll as usize].cancelled)
        .collect();
    for (t, shot) in shots.into_iter().rev() {
        let w = state.profile(shot.firer).weapons[shot.weapon as usize].clone();
        let kind = template::template_of(&w).expect("a template weapon");
        if w.has(WeaponProperty::Smoke) {
            state.dyn_.clouds.push(template::Cloud {
                centre: shot.at,
                large: kind == crate::profile::TemplateKind::Large,
                noxious: w.has(WeaponProperty::Choke),
            });
        }
        // Every model under the template is hit, whatever the weapon's damage (p.53 Template(X),
        // p.51); only a template that causes damage lets a stealthed model try to avoid it (p.51).
        let damaging = template::damages(&w);
        let under = template::models_under(state, kind, shot.origin, shot.at, shot.mover_at);
        for &(m, hard) in under.iter().rev() {
            if damaging && state.dyn_.models[m as usize].tokens.stealth {
                state.dyn_.steps.push(Step::TemplateStealth { template: t as u8, model: m, hard });
            } else {
                template_damage(state, t as u8, m, hard);
            }
        }
    }
}

/// One model's share of template `t`'s damage and properties.
pub(super) fn template_damage(state: &mut GameState, t: u8, m: ModelId, hard: bool) {
    let shot = state.dyn_.sequence.as_ref().expect("sequence").templates[t as usize];
    let w = state.profile(shot.firer).weapons[shot.weapon as usize].clone();
    let damage = if shot.nailed && shot.pass_range { w.damage.1 } else { w.damage.0 };
    let point = state.dyn_.sequence.as_ref().expect("sequence").rolls[shot.roll as usize].point;
    on_hit(state, shot.firer, m, &w, point);
    if damage == 0 {
        return; // the properties alone: no armour roll, nothing to allocate
    }
    if super::cavalry::is_cavalry(state, m) {
        // The template's owner chooses rider or mount (p.58).
        let owner = state.dyn_.models[shot.firer as usize].side;
        allocate_hit(state, m, damage, &w, hard, Some(owner));
        return;
    }
    let tp = state.profile(m);
    let target = armour_target(tp.toughness, tp.total_armour(), w.pierce(), w.sunder(), hard);
    add_damage(state, m, damage, target);
}
/// The token and AP effects of a hit by `attacker`'s weapon `w` on `target` at path point
/// `point` of the sequence (p.53), applied
/// with the sequence's other effects at its end. In games with AI dinosaurs the hit is noted
/// for the count of models each side puts out of action.
fn on_hit(state: &mut GameState, attacker: ModelId, target: ModelId, w: &crate::profile::Weapon, point: u8) {
    if state.stat.uc.is_some() {
        let by = state.dyn_.models[attacker as usize].side;
        state.dyn_.uc.hit_by[by as usize] |= 1 << target;
    }
    // A model in water takes no fire tokens (p.40), and a mover hit at path point `point`
    // that is in water there or enters water later on its path has the fire put out
    // (p.40, Fire(X) p.53).
    let seq = state.dyn_.sequence.as_ref();
    let mover = seq.is_some_and(|s| s.actor == target && !s.path.points.is_empty());
    let swimming = if mover {
        super::move_resolution::water_on_path(state, point)
    } else {
        state.dyn_.models[target as usize].stance == super::model::Stance::Swimming
    };
    let p = &mut state.dyn_.models[target as usize].pending;
    p.knockdown |= w.has(WeaponProperty::Knockdown);
    p.blind |= w.has(WeaponProperty::Blind);
    p.stun = p.stun.saturating_add(w.stun());
    if !swimming {
        p.fire = p.fire.saturating_add(w.fire()); // swimming models take no fire tokens (p.40)
    }
    if let Some((a, b)) = w.slow() {
        p.slow = (p.slow.0.max(a), p.slow.1.max(b));
    }
}
