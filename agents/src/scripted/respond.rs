//! Choices inside an action sequence and around activations: reactions, nested actions,
//! firefights, command orders, cards, cavalry damage, falls and the continuing model.
//!
//! - A reaction is worth its expected harm to the active model (opposed when the active model
//!   attacks the reactor or dodges), plus the harm it prevents when the reactor is the one
//!   attacked; a dodge is worth only the harm it prevents. Its AP costs little once the
//!   reactor has activated (they are lost at the cleanup) and more before. Reactions at points
//!   the mover may not reach are weighed by the chance it gets there (otherwise the AP comes
//!   back).
//! - A nested shot is taken when it is worth more than what the AP would buy after the move.
//! - A firefight turns an unopposed reaction shot into an opposed test: taken when the shot
//!   back (or the dodge) gains more than the AP.
//! - Command orders move AP from models that have activated (or matter least) to the model
//!   with the best use for them; AP cards go to the model with the best attack at the start
//!   of a turn, or are played anyway before the game ends; re-rolls repeat failed attacks
//!   that matter, dodges against real danger, failed heals and a carrier's failed move.

use super::act::{activation_priority, is_attack, Scene, NEVER};
use super::estimate::{duel, melee, shot, single, Spot, Strike};
use super::fields::Fields;
use super::terms::Term;
use super::view::View;
use engine::cards::{Effect as CardEffect, Timing};
use engine::state::{Action, CombatKind, CombatRoll, ModelId, Purpose, RollRole, Sequence, Stance, Step};

/// The active model's pose at point `k` of its sequence.
fn actor_spot(view: &View, seq: &Sequence, k: u8) -> Spot {
    let state = view.state;
    if k == 0 || !seq.has_path() {
        let mut s = Spot::of(state, seq.actor);
        if seq.prone && seq.has_path() {
            s.volume = engine::board::Volume::Base;
        }
        s
    } else {
        let p = state.path_pose(seq.actor, &seq.path.points[k as usize - 1], seq.prone);
        Spot { cell: p.cell, z: p.z, volume: p.volume, swimming: p.swimming }
    }
}

/// Chance that the mover reaches point `k` of its path (a reaction there happens only then).
fn reach_chance(view: &View, seq: &Sequence, k: u8) -> f64 {
    let state = view.state;
    let me = &state.models()[seq.actor as usize];
    let p = state.profile(seq.actor);
    let budget = ((p.speed.0.saturating_sub(me.tokens.slow.0)) as u16 * 10).saturating_sub(seq.stance_cost);
    let blind = if me.tokens.blind { 2 } else { 0 };
    let eff = single((p.agility as i32 - blind).clamp(1, 9) as u8, view.nf);
    match seq.reach_class(k, budget) % 3 {
        0 => 1.0,
        1 => eff.any(),
        _ => eff.nailed,
    }
}

/// A roll of the sequence as a strike (for attacks only).
fn roll_strike(roll: &CombatRoll) -> Option<Strike> {
    let (weapon, ranged) = match roll.kind {
        CombatKind::Shoot { weapon } => (weapon, true),
        CombatKind::CloseCombat { weapon } => (weapon, false),
        _ => return None,
    };
    Some(Strike {
        attacker: roll.model,
        weapon,
        target: roll.target?,
        attr: roll.attr,
        attr_alone: roll.attr,
        ranged,
        pass_range: roll.pass_range,
        hard: roll.hard_cover,
    })
}

/// The active side's attack on `r` in this sequence, if any (a charge's blow, declared with it,
/// estimated at its destination with Sneaky when unopposed).
pub(crate) fn attack_on(view: &View, seq: &Sequence, r: ModelId) -> Option<Strike> {
    let state = view.state;
    if let Action::Charge { target, weapon, dest } = seq.declared {
        if target == r {
            let z = state.board().cell(dest).height;
            return Some(melee(state, seq.actor, weapon, r, (dest, z), !seq.started_in_water));
        }
    }
    seq.rolls.iter().filter(|x| x.role.is_active() && !x.cancelled && x.attacks(r)).find_map(roll_strike)
}

/// Cost of spending one of `r`'s AP on a reaction.
fn reaction_cost(view: &View, r: ModelId) -> f64 {
    let rm = &view.state.models()[r as usize];
    if rm.activated {
        0.02
    } else if rm.ap <= 1 {
        0.3
    } else {
        0.2
    }
}

fn agility(view: &View, m: ModelId) -> u8 {
    let mm = &view.state.models()[m as usize];
    let blind = if mm.tokens.blind { 2 } else { 0 };
    (view.state.profile(m).agility as i32 - blind - (mm.stance == Stance::Prone) as i32).clamp(1, 9) as u8
}

/// Scores of the reacting side's options.
pub(crate) fn score_reactions(view: &View, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let Some(seq) = state.dynamic().sequence.as_ref() else {
        scores.extend(legal.iter().map(|&a| if a == Action::EndReactions { 0.0 } else { NEVER }));
        return;
    };
    let actor = seq.actor;
    let dodging = matches!(seq.declared, Action::Dodge);
    for &a in legal {
        let Action::React { model: r, kind, point } = a else {
            scores.push(0.0);
            continue;
        };
        let pose = actor_spot(view, seq, point);
        let threat = attack_on(view, seq, r);
        let harm0 = threat.map_or(0.0, |t| view.strike_value(&t, single(t.attr_alone, view.nf)));
        let rm = &state.models()[r as usize];
        let ours = match kind {
            CombatKind::Shoot { weapon } => shot(state, r, weapon, actor, Spot::of(state, r), pose, true),
            CombatKind::CloseCombat { weapon } => {
                Some(melee(state, r, weapon, actor, (rm.cell, rm.z), false))
            }
            _ => None,
        };
        let value = match (kind, ours) {
            (_, Some(_)) if view.carries_prize(r) => NEVER,
            (CombatKind::Dodge, _) => match threat {
                Some(t) => harm0 - view.strike_value(&t, duel(t.attr, agility(view, r), view.nf).0),
                None => -0.05,
            },
            (_, Some(s)) => {
                if let Some(t) = threat {
                    let (mine, theirs) = duel(s.attr, t.attr, view.nf);
                    view.strike_value(&s, mine) + harm0 - view.strike_value(&t, theirs)
                } else if dodging {
                    view.strike_value(&s, duel(s.attr, agility(view, actor), view.nf).0)
                } else {
                    view.strike_value(&s, single(s.attr_alone, view.nf))
                }
            }
            (CombatKind::Reveal, _) => 0.03,
            (CombatKind::Template { weapon }, _) => 0.5 * super::act::template_at(view, r, weapon, pose.cell),
            _ => -0.05,
        };
        let (gain, cost) = (view.w.weigh(Term::ReactValue, value), view.w.get(Term::ReactCost));
        let score = reach_chance(view, seq, point) * (gain - cost * reaction_cost(view, r)) - cost * 0.01;
        scores.push(score + timing(view, seq, point));
    }
}

/// Value of a reaction's point along the mover's path beyond the odds there (the added
/// reaction timing terms; nothing with their weights at 0, as in the hand-written player).
fn timing(view: &View, seq: &Sequence, point: u8) -> f64 {
    let (late, early) = (view.w.get(Term::ReactLate), view.w.get(Term::ReactEarly));
    if (late == 0.0 && early == 0.0) || !seq.has_path() || seq.path.points.is_empty() {
        return 0.0;
    }
    let behind = point as f64 / seq.path.points.len() as f64 - 0.5;
    REACT_TIMING * (late - early) * behind
}

/// Value of reacting at the end of a mover's path rather than at its middle, at weight 1.
const REACT_TIMING: f64 = 0.1;

/// Scores of the mover's nested actions.
pub(crate) fn score_nested(view: &View, fields: &mut Fields, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let Some(seq) = state.dynamic().sequence.as_ref() else {
        scores.extend(legal.iter().map(|_| 0.0));
        return;
    };
    let me = seq.actor;
    if view.carries_prize(me) {
        scores.extend(legal.iter().map(|&a| if a == Action::NoNested { 0.0 } else { NEVER }));
        return;
    }
    let scene = Scene::new(view, fields, me);
    let last = if seq.has_path() { seq.path.points.len() as u8 } else { 0 };
    let end = actor_spot(view, seq, last);
    let ap = state.models()[me as usize].ap;
    let spare =
        if ap >= 2 { scene.keep(ap) - scene.keep(ap - 1) } else { scene.fire(end).max(scene.keep(1)) };
    let spare = view.w.get(Term::NestedSpare) * spare;
    for &a in legal {
        let s = match a {
            Action::Nested { kind: CombatKind::Shoot { weapon }, target, point } => {
                let from = actor_spot(view, seq, point);
                match shot(state, me, weapon, target, from, Spot::of(state, target), true) {
                    Some(strike) => reach_chance(view, seq, point) * (scene.attack(&strike, from) - spare),
                    None => NEVER,
                }
            }
            Action::Nested { kind: CombatKind::Template { weapon }, target, point } => {
                let at = state.models()[target as usize].cell;
                let value = view.w.weigh(Term::Template, super::act::template_at(view, me, weapon, at));
                reach_chance(view, seq, point) * (value - spare)
            }
            Action::NoNested => 0.0,
            _ => -0.05,
        };
        scores.push(s);
    }
}

/// Scores of the mover's firefights.
pub(crate) fn score_firefights(view: &View, fields: &mut Fields, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let Some(seq) = state.dynamic().sequence.as_ref() else {
        scores.extend(legal.iter().map(|_| 0.0));
        return;
    };
    let me = seq.actor;
    let scene = Scene::new(view, fields, me);
    let ap = state.models()[me as usize].ap;
    let spare =
        view.w.get(Term::FirefightSpare) * (scene.keep(ap) - scene.keep(ap.saturating_sub(1))).max(0.08);
    for &a in legal {
        let Action::Firefight { kind, reactor } = a else {
            scores.push(0.0);
            continue;
        };
        let Some(roll) =
            seq.rolls.iter().find(|x| x.role == RollRole::Reaction && x.model == reactor && x.attacks(me))
        else {
            scores.push(NEVER);
            continue;
        };
        let Some(theirs) = roll_strike(roll) else {
            scores.push(NEVER);
            continue;
        };
        let harm0 = view.strike_value(&theirs, single(theirs.attr, view.nf));
        let from = actor_spot(view, seq, roll.point);
        let mine = match kind {
            CombatKind::Shoot { weapon } => {
                shot(state, me, weapon, reactor, from, Spot::of(state, reactor), true)
            }
            CombatKind::CloseCombat { weapon } => {
                Some(melee(state, me, weapon, reactor, (from.cell, from.z), false))
            }
            _ => None,
        };
        let value = match (kind, mine) {
            (_, Some(_)) if view.carries_prize(me) => NEVER,
            // A template is never opposed (p.51): it does not blunt their shot.
            (CombatKind::Template { weapon }, _) if !view.carries_prize(me) => {
                super::act::template_at(view, me, weapon, state.models()[reactor as usize].cell)
            }
            (CombatKind::Dodge, _) => {
                harm0 - view.strike_value(&theirs, duel(theirs.attr, agility(view, me), view.nf).0)
            }
            (_, Some(s)) => {
                let (ours, back) = duel(s.attr, theirs.attr, view.nf);
                view.strike_value(&s, ours) + harm0 - view.strike_value(&theirs, back)
            }
            _ => NEVER,
        };
        scores
            .push(reach_chance(view, seq, roll.point) * (view.w.weigh(Term::FirefightValue, value) - spare));
    }
}

/// What one more AP is worth to `m` now.
fn ap_value(view: &View, fields: &mut Fields, m: ModelId, active: Option<ModelId>) -> f64 {
    let mm = &view.state.models()[m as usize];
    if !mm.is_conscious() {
        return 0.0;
    }
    if mm.activated && Some(m) != active {
        return 0.03;
    }
    if view.carries_prize(m) {
        return 1.5;
    }
    0.2 + activation_priority(view, fields, m).min(1.5) * 0.5
}

/// Scores of the leader's command orders.
pub(crate) fn score_commands(view: &View, fields: &mut Fields, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let active = state.dynamic().sequence.as_ref().map(|s| s.actor);
    let eff = active.map_or_else(Default::default, |l| single(state.profile(l).intelligence, view.nf));
    let blunder = 1.0 - eff.any() - 0.8 * (1.0 - eff.any());
    let mut values: Vec<Option<f64>> = vec![None; state.models().len()];
    for &a in legal {
        let Action::Command { donor, recipient } = a else {
            scores.push(0.0);
            continue;
        };
        let mut value =
            |m: ModelId| *values[m as usize].get_or_insert_with(|| ap_value(view, fields, m, active));
        let (vd, vr) = (value(donor), value(recipient));
        let dm = &state.models()[donor as usize];
        let rm = &state.models()[recipient as usize];
        let room = state.profile(recipient).ap_max.saturating_sub(rm.ap);
        let gain = |k: u8| k.min(dm.ap).min(room) as f64 * (vr - vd);
        let (wg, wc) = (view.w.get(Term::CommandGain), view.w.get(Term::CommandCost));
        scores.push(
            wg * (eff.pass * gain(1)) + wg * (eff.nailed * gain(2))
                - wc * (blunder.max(0.0) * vd)
                - wc * 0.05,
        );
    }
}

/// Scores of the side's card plays.
pub(crate) fn score_cards(view: &View, fields: &mut Fields, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let Some(Step::ChooseCard { side, timing, test }) = state.node().cloned() else {
        scores.extend(legal.iter().map(|_| 0.0));
        return;
    };
    let cards = &state.static_data().cards[side as usize];
    for &a in legal {
        let Action::PlayCard { card, target } = a else {
            scores.push(0.0);
            continue;
        };
        let c = &cards[card as usize];
        let s = match (timing, c.effect) {
            (Timing::StartOfTurn, Some(CardEffect::GainAp)) => {
                let tm = &state.models()[target as usize];
                let room = state.profile(target).ap_max.saturating_sub(tm.ap).min(c.amount);
                let late = state.turn() + 1 >= super::plan::end_turn(view);
                let value = room as f64 * ap_value(view, fields, target, None);
                view.w.get(Term::CardValue) * value
                    - view.w.get(Term::CardHold) * if late { 0.0 } else { 0.6 }
            }
            (Timing::AfterTest, Some(CardEffect::Reroll)) => {
                view.w.weigh(Term::CardValue, test.map_or(NEVER, |t| reroll_value(view, t)))
            }
            _ => NEVER,
        };
        scores.push(s);
    }
}

/// Value of re-rolling the test just made, if it failed and mattered.
fn reroll_value(view: &View, test: (ModelId, u8, Purpose, bool)) -> f64 {
    let state = view.state;
    let (model, attr, purpose, _) = test;
    let seq = state.dynamic().sequence.as_ref();
    let outcome = match purpose {
        Purpose::Combat(i) => seq.and_then(|s| s.rolls.get(i as usize)).and_then(|r| r.outcome),
        Purpose::Movement => seq.and_then(|s| s.move_test),
        Purpose::Interact => seq.and_then(|s| s.interact_test),
        _ => None,
    };
    if outcome.is_none_or(|o| o.is_success()) {
        return NEVER;
    }
    let chance = single(attr, view.nf).any();
    match purpose {
        Purpose::Combat(i) => {
            let Some(roll) = seq.and_then(|s| s.rolls.get(i as usize)) else { return NEVER };
            if is_attack(roll.kind) {
                roll_strike(roll)
                    .map_or(NEVER, |s| chance * view.strike_value(&s, single(attr, view.nf)) - 0.4)
            } else if roll.kind == CombatKind::Dodge {
                let danger: f64 = seq
                    .map(|s| {
                        s.rolls
                            .iter()
                            .filter(|x| x.attacks(model))
                            .filter_map(roll_strike)
                            .map(|x| view.strike_value(&x, single(x.attr, view.nf)))
                            .sum()
                    })
                    .unwrap_or(0.0);
                chance * danger - 0.4
            } else {
                NEVER
            }
        }
        Purpose::Movement if view.carries_prize(model) || view.carried(model) > 0 => 0.1,
        Purpose::Interact => 0.1,
        _ => NEVER,
    }
}

/// Scores at the other decisions: cavalry damage, falls, mid-air, the continuing model.
pub(crate) fn score_misc(view: &View, fields: &mut Fields, legal: &[Action], scores: &mut Vec<f64>) {
    let state = view.state;
    let step = state.node().cloned();
    for &a in legal {
        let s = match (&step, a) {
            (_, Action::TakeInitiative | Action::RestBack) => 1.0,
            (Some(Step::ChooseAllocation { model, damage, rider, mount, .. }), _) => {
                let mm = &state.models()[*model as usize];
                let down = |save: u8, wounds: u8| {
                    let mut p = 0.0;
                    super::estimate::for_wounds(*damage, save, |k, q| {
                        if k >= wounds {
                            p += q;
                        }
                    });
                    p
                };
                let rider_p = down(*rider, mm.wounds.max(1)) * 1.2;
                let mount_p = down(*mount, mm.mount_wounds.max(1));
                if a == Action::AllocateRider {
                    rider_p
                } else {
                    mount_p
                }
            }
            (_, Action::FallPoint(i)) => state.dynamic().sequence.as_ref().map_or(0.0, |seq| {
                seq.path
                    .points
                    .get(i as usize)
                    .map_or(0.0, |p| p.z as f64 - state.board().cell(p.cell).height as f64 + 0.01 * i as f64)
            }),
            (Some(Step::ChooseContinuer { .. }), Action::Activate(m)) => activation_priority(view, fields, m),
            // Move as many AP as the recipient can still hold, never wasting one (p.12).
            (Some(Step::ChooseCommandAp { recipient, .. }), Action::CommandAp(n)) => {
                let room =
                    state.profile(*recipient).ap_max.saturating_sub(state.models()[*recipient as usize].ap);
                n.min(room) as f64 - 0.1 * n as f64
            }
            _ => 0.0,
        };
        scores.push(s);
    }
}
