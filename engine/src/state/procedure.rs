//! The procedure stack: turn structure (p.21) and the Declare → Test → Apply action sequence
//! (pp.22, 39 "Order of Activation Sequence Master List").
//!
//! Each [`Step`] is either automatic (executed as soon as it reaches the top of the stack), a
//! chance node (a die roll) or a decision node for one side. Declaring an action pushes the
//! steps of its sequence in reverse order: the mover's nested action, the reacting side's
//! reactions and the mover's firefight (declare), the movement test and the cancelling of
//! what the mover did not reach, the combat tests and their results (test), and the end of
//! the sequence (apply). Wounds, feat AP and health changes wait in the models' sequence
//! accumulators until [`Step::EndSequence`] applies them all at once.

use super::abilities::resolve_interact;
use super::actors::{absent_decision, has_eligible, is_ai, other_side};
use super::chance::{level_table, test_table, wound_table};
use super::combat::{
    charge_strike, resolve_combat, roll_combat, scatter_outcomes, template_damage, template_hits,
};
use super::command::{command_order, declare_order, resolve_command, transfer_ap};
use super::declare::{add_combat, cancel_unreached, declare};
use super::legal;
use super::model::{Health, ModelId, ModelState, Side, Stance};
use super::move_resolution::{fall, place_on_path, reach, resolve_move, settle_stance};
use super::step::{Purpose, Step};
use super::{Action, GameState, NodeKind};
use crate::board::Terrain;
use crate::dice::TestOutcome;
use crate::profile::Profile;

/// The grouped outcomes of the test on top of the stack, if it is one.
pub(super) fn pending_test(state: &GameState) -> Option<&'static [(TestOutcome, f64)]> {
    match state.dyn_.steps.last() {
        // An AI model rolls the enemy die (seed 003, Conversion, "Dice mechanics").
        Some(Step::Test { model, attr, opposed, .. }) if is_ai(state, *model) => {
            Some(crate::uc::enemy_die::enemy_test_table(*attr, *opposed))
        }
        Some(Step::Test { attr, opposed, .. }) => {
            let narrative = state.stat.variant.narrative_feats;
            Some(if *opposed { test_table(*attr, narrative) } else { level_table(*attr, narrative) })
        }
        _ => None,
    }
}

/// Most options the absent side's random choice is made among (a chance outcome is a byte);
/// a larger choice is thinned to this many, evenly spread over its sorted options.
const MAX_ABSENT_OPTIONS: usize = 256;

/// The options the absent side's random choice on top of the stack is made among.
fn absent_options(state: &GameState) -> Vec<Action> {
    let mut options = Vec::new();
    legal::decisions(state, &mut options);
    if options.len() > MAX_ABSENT_OPTIONS {
        let n = options.len();
        options = (0..MAX_ABSENT_OPTIONS).map(|i| options[i * n / MAX_ABSENT_OPTIONS]).collect();
    }
    options
}

/// Outcomes of the chance node on top of the stack.
pub(super) fn chance_outcomes(state: &GameState) -> Vec<(Action, f64)> {
    if absent_decision(state) {
        let n = absent_options(state).len();
        return (0..n).map(|i| (Action::Chance(i as u8), 1.0 / n as f64)).collect();
    }
    if let Some(table) = pending_test(state) {
        return table.iter().enumerate().map(|(i, &(_, p))| (Action::Chance(i as u8), p)).collect();
    }
    match state.dyn_.steps.last() {
        Some(Step::RollOff) => vec![(Action::Chance(0), 0.5), (Action::Chance(1), 0.5)],
        Some(Step::Scatter { template, distance }) => scatter_outcomes(state, *template, *distance)
            .iter()
            .enumerate()
            .map(|(i, &(_, p))| (Action::Chance(i as u8), p))
            .collect(),
        Some(Step::TemplateStealth { template, .. }) => {
            let firer = state.dyn_.sequence.as_ref().expect("sequence").templates[*template as usize].firer;
            let p = crate::dice::clamp_attribute(state.profile(firer).intelligence as i32) as f64 / 10.0;
            vec![(Action::Chance(0), p), (Action::Chance(1), 1.0 - p)]
        }
        Some(Step::FireRoll { model }) => {
            let save = fire_save_chance(state, *model);
            vec![(Action::Chance(0), save), (Action::Chance(1), 1.0 - save)]
        }
        Some(Step::Scenario(s)) => {
            let values = state.rules().chance_values(state, s);
            let p = 1.0 / values.len().max(1) as f64;
            (0..values.len()).map(|i| (Action::Chance(i as u8), p)).collect()
        }
        Some(Step::Enemy(s)) => super::dinosaur_ai::chance_outcomes(state, s),
        Some(Step::Armour { damage, target, .. }) => wound_table(*damage, *target)
            .iter()
            .enumerate()
            .map(|(i, &p)| (Action::Chance(i as u8), p))
            .collect(),
        _ => Vec::new(),
    }
}

/// Run automatic steps until the top of the stack is a decision, a chance node or empty.
pub(super) fn advance(state: &mut GameState) {
    loop {
        let Some(step) = state.dyn_.steps.last().cloned() else { return };
        match step {
            Step::ChooseActivation => {
                let active = state.dyn_.active;
                if has_eligible(state, active) {
                    return;
                }
                let other = other_side(active);
                if has_eligible(state, other) {
                    state.dyn_.active = other;
                    return;
                }
                state.dyn_.steps.pop();
                state.dyn_.steps.push(Step::Cleanup);
                // The enemy phase: after the activation phase, before the cleanup (seed 003,
                // Conversion, "Turn order").
                if state.stat.uc.is_some() {
                    state.dyn_.steps.push(Step::Enemy(super::EnemyStep::Phase));
                }
            }
            // Optional declarations with nothing to declare are skipped.
            Step::ChooseNested
            | Step::ChooseReaction
            | Step::ChooseReactionBy(_)
            | Step::ChooseFirefight
            | Step::ChooseCommand
            | Step::ChooseCard { .. } => {
                if legal::has_declarations(state, &step) {
                    return;
                }
                state.dyn_.steps.pop();
            }
            Step::Enemy(e) if super::dinosaur_ai::skipped(state, &e) => {
                state.dyn_.steps.pop();
            }
            // The absent side of a solo game passes over a choice it has no option in (its
            // crew's nominations).
            _ if absent_decision(state) && absent_options(state).is_empty() => {
                state.dyn_.steps.pop();
            }
            step if step.kind() != NodeKind::Automatic => return,
            _ => {
                state.dyn_.steps.pop();
                run_auto(state, step);
            }
        }
    }
}

/// Apply a (validated) action to the step on top of the stack.
pub(super) fn apply(state: &mut GameState, action: Action) {
    if absent_decision(state) {
        let Action::Chance(i) = action else { unreachable!("validated: a chance outcome") };
        let chosen = absent_options(state)[i as usize];
        let step = state.dyn_.steps.pop().expect("a decision on top");
        state.dyn_.chance_events += 1;
        decide(state, step, chosen);
        return;
    }
    if let (Some(table), Action::Chance(i)) = (pending_test(state), action) {
        let outcome = table[i as usize].0;
        let Some(Step::Test { model, attr, purpose, opposed, rerolled }) = state.dyn_.steps.pop() else {
            unreachable!("a test is on top")
        };
        state.dyn_.chance_events += 1;
        // A side holding a re-roll card may re-roll its model's test — never a re-roll, a
        // Feat or a Blunder (p.9).
        // (AI models hold no cards.)
        if (crate::dice::RerollState { rerolled }).may_reroll(outcome) && !is_ai(state, model) {
            let side = state.dyn_.models[model as usize].side;
            state.dyn_.steps.push(Step::ChooseCard {
                side,
                timing: crate::cards::Timing::AfterTest,
                test: Some((model, attr, purpose, opposed)),
            });
        }
        if purpose == Purpose::Infiltrate {
            state.dyn_.scenario.infiltration = Some(outcome);
            return;
        }
        let seq = state.dyn_.sequence.as_mut().expect("test outside a sequence");
        match purpose {
            Purpose::Movement => seq.move_test = Some(outcome),
            Purpose::Combat(r) => seq.rolls[r as usize].outcome = Some(outcome),
            Purpose::Interact => seq.interact_test = Some(outcome),
            Purpose::Command => seq.command_test = Some(outcome),
            Purpose::Infiltrate => unreachable!("handled above"),
        }
        return;
    }
    let step = state.dyn_.steps.pop().expect("apply on a terminal state");
    match (step, action) {
        (Step::RollOff, Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            state.dyn_.steps.push(Step::ChooseInitiative(i));
        }
        (Step::Scatter { template, distance }, Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            let landing = scatter_outcomes(state, template, distance)[i as usize].0;
            state.dyn_.sequence.as_mut().expect("sequence").templates[template as usize].at = landing;
        }
        (Step::TemplateStealth { template, model, hard }, Action::Chance(outcome)) => {
            state.dyn_.chance_events += 1;
            if outcome == 0 {
                template_damage(state, template, model, hard);
                state.dyn_.models[model as usize].pending.reveal = true;
            }
        }
        (Step::FireRoll { model }, Action::Chance(outcome)) => {
            state.dyn_.chance_events += 1;
            let stat = state.stat.clone();
            let m = &mut state.dyn_.models[model as usize];
            if outcome == 0 {
                m.tokens.fire -= 1;
            } else if stat.profiles[m.profile as usize].model_type == crate::profile::ModelType::Cavalry {
                // The burning wound goes to the rider (docs/rulings.md).
                super::cavalry::separate(state, model, 1, 0);
            } else {
                m.pending.wounds = 1;
                apply_pending(m, &stat.profiles[m.profile as usize], false);
            }
            state.rules().after_health_changes(state, None);
        }
        (Step::Scenario(s), Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            state.rules().chance(state, s, i);
        }
        (Step::Enemy(s), Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            super::dinosaur_ai::chance(state, s, i);
        }
        (Step::Armour { model, mount, .. }, Action::Chance(w)) => {
            state.dyn_.chance_events += 1;
            let p = &mut state.dyn_.models[model as usize].pending;
            if mount {
                p.mount_wounds = p.mount_wounds.saturating_add(w);
            } else {
                p.wounds = p.wounds.saturating_add(w);
            }
        }
        (step, action) => {
            state.dyn_.decisions += 1;
            decide(state, step, action);
        }
    }
}

fn decide(state: &mut GameState, step: Step, action: Action) {
    match (step, action) {
        (Step::ChooseInitiative(s), Action::TakeInitiative) => state.dyn_.initiative = s,
        (Step::ChooseInitiative(s), Action::GiveInitiative) => state.dyn_.initiative = other_side(s),
        (Step::ChooseActivation, Action::Activate(m)) => {
            state.dyn_.activating = Some(m);
            state.dyn_.steps.push(Step::ChooseAction(m));
        }
        (Step::ChooseActivation, Action::PassToken) => {
            let d = &mut state.dyn_;
            d.pass_tokens[d.active as usize] -= 1;
            d.active = other_side(d.active);
            d.steps.push(Step::ChooseActivation);
        }
        (Step::ChooseAction(_), Action::EndActivation) => end_activation(state),
        (Step::ChooseAction(m), Action::LeaveTable) => {
            state.rules().leave_table(state, m);
            end_activation(state);
        }
        (Step::Scenario(s), action) => state.rules().decide(state, s, action),
        (Step::Enemy(s), action) => super::dinosaur_ai::decide(state, s, action),
        (Step::ChooseAction(m), declared) => declare(state, m, declared),
        (Step::ChooseNested, Action::NoNested) | (Step::ChooseFirefight, Action::NoFirefight) => {}
        (Step::ChooseReaction | Step::ChooseReactionBy(_), Action::EndReactions)
        | (Step::ChooseCommand, Action::NoCommand) => {}
        (Step::ChooseCard { .. }, Action::NoCard) => {}
        (Step::ChooseContinuer { rider, mount }, Action::Activate(chosen)) => {
            super::cavalry::continue_with(state, rider, mount, chosen)
        }
        (Step::ChooseAllocation { model, damage, rider, mount, .. }, allocation) => {
            let to_mount = allocation == Action::AllocateMount;
            let target = if to_mount { mount } else { rider };
            state.dyn_.steps.push(Step::Armour { model, damage, target, mount: to_mount });
        }
        (Step::ChooseCard { side, test, .. }, Action::PlayCard { card, target }) => {
            play_card(state, side, card, target, test)
        }
        (Step::ChooseCommand, Action::Command { donor, recipient }) => declare_order(state, donor, recipient),
        (Step::ChooseCommandAp { donor, recipient }, Action::CommandAp(n)) => {
            transfer_ap(state, donor, recipient, n)
        }
        (Step::ChooseNested, nested @ Action::Nested { .. }) => add_combat(state, nested),
        (Step::ChooseFirefight, firefight @ Action::Firefight { .. }) => add_combat(state, firefight),
        (step @ (Step::ChooseReaction | Step::ChooseReactionBy(_)), reaction @ Action::React { .. }) => {
            add_combat(state, reaction);
            state.dyn_.steps.push(step);
        }
        (Step::ChooseMidAir, Action::RestBack) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let from = seq.mid_air.expect("mid-air point") as usize;
            let actor = seq.actor;
            place_on_path(state, actor, from.checked_sub(1));
        }
        (Step::ChooseMidAir, Action::Fall) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let p = seq.path.points[seq.mid_air.expect("mid-air point") as usize];
            let actor = seq.actor;
            fall(state, actor, p.cell, p.z, false);
        }
        (Step::ChooseFallPoint { .. }, Action::FallPoint(i)) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let p = seq.path.points[i as usize];
            let actor = seq.actor;
            reach(state, Some(i as usize));
            fall(state, actor, p.cell, p.z, true);
        }
        (Step::ChooseDodgeMove { model, .. }, Action::DodgeMove(cell)) => {
            let surface = state.board().cell(cell).height;
            let prone = state.dyn_.models[model as usize].stance == Stance::Prone;
            // The straight way from its cell to the destination crosses water at surface
            // level: entering water puts out every fire, received or pending (p.40, p.53).
            let from = state.dyn_.models[model as usize].cell;
            let board = state.board();
            let mut wet = false;
            board.for_each_cell_between(from, cell, |c, _| {
                wet |= board.cell(c).terrain == Terrain::Water;
            });
            let m = &mut state.dyn_.models[model as usize];
            if wet {
                m.tokens.fire = 0;
                m.pending.fire = 0;
            }
            m.cell = cell;
            m.z = surface;
            settle_stance(state, model, prone);
        }
        (step, action) => unreachable!("validated action {action:?} does not fit step {step:?}"),
    }
}

fn run_auto(state: &mut GameState, step: Step) {
    match step {
        Step::StartTurn => start_turn(state),
        Step::PassTokens => pass_tokens(state),
        Step::GrantAp => grant_ap(state),
        Step::ResolveMove => resolve_move(state),
        Step::CancelUnreached => cancel_unreached(state),
        Step::ChargeStrike => charge_strike(state),
        Step::RollCombat => roll_combat(state),
        Step::ResolveCombat => resolve_combat(state),
        Step::ResolveInteract => resolve_interact(state),
        Step::TemplateHits => template_hits(state),
        Step::Dismount => super::cavalry::dismount(state),
        Step::Remount => super::cavalry::remount(state),
        Step::CommandOrder => command_order(state),
        Step::ResolveCommand => resolve_command(state),
        Step::EndSequence => end_sequence(state),
        Step::Cleanup => cleanup(state),
        Step::EndTurn => end_turn(state),
        Step::Scenario(s) => state.rules().run(state, s),
        Step::Enemy(s) => super::dinosaur_ai::run(state, s),
        other => unreachable!("{other:?} is not automatic"),
    }
}

/// Initiative phase (p.21): the scenario's steps at its beginning (models arriving, numbers
/// sought), then pass tokens, the roll-off and the AP grant.
fn start_turn(state: &mut GameState) {
    let d = &mut state.dyn_;
    d.steps.push(Step::GrantAp);
    // A scenario's first turn has no roll-off: player B takes the first activation.
    let scenario = state.stat.scenario != crate::scenario::types::Scenario::Skirmish;
    if !(scenario && d.turn == 1) {
        d.steps.push(Step::RollOff);
    }
    d.steps.push(Step::PassTokens);
    let extra = state.rules().turn_start_steps(state);
    state.dyn_.steps.extend(extra);
}

/// Initiative phase, first bullet (p.21): the side with fewer conscious models gets the
/// difference in pass tokens.
fn pass_tokens(state: &mut GameState) {
    // A solo game has no second crew to balance activations against.
    if state.is_solo() {
        state.dyn_.pass_tokens = [0; super::MAX_SIDES];
        return;
    }
    let a = state.conscious_count(0) as i32;
    let b = state.conscious_count(1) as i32;
    let d = &mut state.dyn_;
    d.pass_tokens = [0; super::MAX_SIDES];
    if a < b {
        d.pass_tokens[0] = (b - a) as u8;
    } else if b < a {
        d.pass_tokens[1] = (a - b) as u8;
    }
}

/// Initiative phase, last bullet: each conscious model gets its AP (up to its maximum); the
/// side with the initiative is the first active player.
fn grant_ap(state: &mut GameState) {
    if state.rules().ends_at_ap_grant(state) {
        finish(state);
        return;
    }
    let stat = state.stat.clone();
    let d = &mut state.dyn_;
    for m in d.models.iter_mut() {
        m.activated = false;
        // AI models hold no AP: they act in the enemy phase by their cards.
        if m.is_conscious() && m.side != crate::uc::AI_SIDE {
            let p = &stat.profiles[m.profile as usize];
            // A scenario's infiltration Feat or Blunder changes the first grant (p.78).
            let ap = (m.ap as i16 + p.ap_gain as i16 + m.ap_adjust as i16).clamp(0, p.ap_max as i16);
            m.ap = ap as u8;
            m.ap_adjust = 0;
        }
    }
    d.active = d.initiative;
    d.steps.push(Step::ChooseActivation);
    // Start-of-turn cards: the side without the initiative is asked first.
    for side in [d.initiative, other_side(d.initiative)] {
        d.steps.push(Step::ChooseCard { side, timing: crate::cards::Timing::StartOfTurn, test: None });
    }
}

fn end_activation(state: &mut GameState) {
    let d = &mut state.dyn_;
    if let Some(m) = d.activating.take() {
        let model = &mut d.models[m as usize];
        model.activated = true;
        // Slow lasts until the end of the model's next activation (p.53).
        if model.tokens.slow_activations > 0 {
            model.tokens.slow_activations -= 1;
            if model.tokens.slow_activations == 0 {
                model.tokens.slow = (0, 0);
            }
        }
    }
    d.active = other_side(d.active);
    d.steps.push(Step::ChooseActivation);
}

/// Apply step (p.39, 3.G-J): refunds and feat AP, then every wound of the sequence at once,
/// then health states. A model taking wounds at least double its current wounds is taken out.
fn end_sequence(state: &mut GameState) {
    let stat = state.stat.clone();
    let d = &mut state.dyn_;
    let seq = d.sequence.take();
    // Whether the active model was stealthed as it acted, before the sequence's reveals: a
    // stealthed mover triggers no reactions nor markers (seed 003, "Stealth").
    let stealthed = seq.as_ref().is_some_and(|s| d.models[s.actor as usize].tokens.stealth);
    // A card's elite damage bonus lasts for the attack it was declared with.
    d.uc.card_damage = 0;
    // AP of a cancelled nested action or firefight come back at the end of the sequence (p.28).
    if let Some(seq) = &seq {
        let m = &mut d.models[seq.actor as usize];
        m.ap = m.ap.saturating_add(seq.refund).min(stat.profiles[m.profile as usize].ap_max);
    }
    // A stealthed model that declared anything but a move is revealed at the end of the
    // sequence (p.48): the active model's action, nested action or firefight, or a reaction.
    if let Some(seq) = &seq {
        if !matches!(seq.declared, Action::Move { .. } | Action::Dismount { .. } | Action::Remount { .. }) {
            d.models[seq.actor as usize].pending.reveal = true;
        }
        for r in seq.rolls.iter().filter(|r| !r.cancelled) {
            d.models[r.model as usize].pending.reveal = true;
        }
    }
    // A cavalry model's wounds go to its rider and mount, which separate at 0 (p.61).
    let mut cavalry = Vec::new();
    for (i, m) in d.models.iter_mut().enumerate() {
        if stat.profiles[m.profile as usize].model_type == crate::profile::ModelType::Cavalry
            && m.is_on_table()
        {
            cavalry.push((i as ModelId, m.pending.wounds, m.pending.mount_wounds));
            m.pending.wounds = 0;
            m.pending.mount_wounds = 0;
            m.pending.take_out = false;
        }
    }
    // Stun on an AI model is Confusion (seed 003, Conversion, "Skill and weapon property
    // exceptions").
    if stat.uc.is_some() {
        for (i, m) in d.models.iter_mut().enumerate() {
            if m.side == crate::uc::AI_SIDE && m.pending.stun > 0 {
                d.uc.confuse(i as ModelId, std::mem::take(&mut m.pending.stun));
            }
        }
    }
    let activating = d.activating;
    // Who was conscious before, to count who put whom out of action (AI dinosaur games only).
    let conscious: u64 = if stat.uc.is_some() {
        d.models.iter().enumerate().filter(|(_, m)| m.is_conscious()).fold(0, |bits, (i, _)| bits | 1 << i)
    } else {
        0
    };
    for (i, m) in d.models.iter_mut().enumerate() {
        apply_pending(m, &stat.profiles[m.profile as usize], activating == Some(i as ModelId));
    }
    for (m, rider, mount) in cavalry {
        super::cavalry::separate(state, m, rider, mount);
    }
    if state.stat.uc.is_some() {
        count_out_of_action(state, conscious);
    }
    let actor = seq.as_ref().map(|s| s.actor);
    // AI models never keep AP (a frenzy counts as a Feat in the engine's tests).
    for m in state.dyn_.models.iter_mut().filter(|m| m.side == crate::uc::AI_SIDE) {
        m.ap = 0;
    }
    if game_over(state) {
        finish(state);
        return;
    }
    let d = &mut state.dyn_;
    match actor {
        // An AI model's action belongs to its card: the enemy phase goes on.
        Some(a) if d.models[a as usize].side == crate::uc::AI_SIDE => {}
        Some(a) if d.models[a as usize].is_conscious() && d.models[a as usize].ap > 0 => {
            d.steps.push(Step::ChooseAction(a));
        }
        _ => end_activation(state),
    }
    // AI models whose reaction range the mover entered react before anything else; noise
    // reactions come last of all reactions (seed 003, "Noise reactions").
    if let Some(seq) = &seq {
        if state.stat.uc.is_some() {
            let noises = super::dinosaur_ai::noises(state, seq);
            if let (None, Some(&(first, _))) = (state.dyn_.uc.noise, noises.first()) {
                state.dyn_.uc.noise = Some(first);
            }
            super::dinosaur_ai::noise_reactions(state, &noises);
            super::ambush::hear(state, &noises);
        }
        super::dinosaur_ai::movement_reactions(state, seq, stealthed);
        // Ambush markers that spring come out before the movement reactions.
        super::ambush::after_sequence(state, seq, stealthed);
    }
    // Scored events and dropped markers come first (their steps go on top).
    state.rules().after_health_changes(state, seq.as_ref());
}

/// Play card `card` of `side` (validated): a start-of-turn AP for `target`, or a re-roll of the
/// test just made.
fn play_card(
    state: &mut GameState,
    side: Side,
    card: u8,
    target: ModelId,
    test: Option<(ModelId, u8, Purpose, bool)>,
) {
    state.dyn_.cards_used[side as usize] |= 1 << card;
    let c = state.stat.cards[side as usize][card as usize].clone();
    match c.effect {
        Some(crate::cards::Effect::GainAp) => {
            let max = state.profile(target).ap_max;
            let m = &mut state.dyn_.models[target as usize];
            m.ap = m.ap.saturating_add(c.amount).min(max);
        }
        Some(crate::cards::Effect::Reroll) => {
            let (model, attr, purpose, opposed) = test.expect("a re-roll follows a test");
            state.dyn_.steps.push(Step::Test { model, attr, purpose, opposed, rerolled: true });
        }
        None => unreachable!("validated: only effect cards are played"),
    }
}

/// At the end of a sequence in a game with AI dinosaurs: every model conscious at its start
/// (bit set in `conscious`) that is no longer, counted against each side whose attacks hit it.
fn count_out_of_action(state: &mut GameState, conscious: u64) {
    let d = &mut state.dyn_;
    let hit_by = std::mem::take(&mut d.uc.hit_by);
    for (i, m) in d.models.iter().enumerate() {
        if conscious & (1 << i) == 0 || m.is_conscious() || !m.is_unconscious() {
            continue;
        }
        for (by, hits) in hit_by.iter().enumerate() {
            if hits & (1 << i) != 0 {
                let n = &mut d.uc.out_of_action[by][m.side as usize];
                *n = n.saturating_add(1);
            }
        }
    }
}

/// A skirmish ends at once when a side has no conscious model left; scenarios have their
/// own end conditions.
fn game_over(state: &GameState) -> bool {
    state.stat.scenario == crate::scenario::types::Scenario::Skirmish
        && state.playing_sides().any(|s| !state.dyn_.models.iter().any(|m| m.side == s && m.is_conscious()))
}

/// Apply G-J (p.39) for one model: feat AP, then token effects and Stun, then every wound at
/// once and the health state. `activating` tells whether the model is in its own activation
/// (a slow then lasts through its next one too).
fn apply_pending(m: &mut ModelState, p: &Profile, activating: bool) {
    let pending = std::mem::take(&mut m.pending);
    // First Aid: never above the starting wounds; a down model healed comes back (p.46).
    if pending.heal > 0 && m.is_on_table() {
        m.wounds = (m.wounds + pending.heal).min(p.wounds);
        m.health = Health::Conscious;
    }
    if pending.feat_ap > 0 && m.is_conscious() {
        m.ap = m.ap.saturating_add(pending.feat_ap).min(p.ap_max);
    }
    m.ap = m.ap.saturating_sub(pending.stun);
    // A model in water by the end of the sequence has put the fire out (Fire, p.53).
    if m.stance != Stance::Swimming {
        m.tokens.fire = m.tokens.fire.saturating_add(pending.fire);
    }
    // Revealed, or set on fire: the stealth token goes (p.49).
    if pending.reveal || pending.fire > 0 {
        m.tokens.stealth = false;
    }
    m.tokens.blind |= pending.blind;
    if pending.slow != (0, 0) {
        m.tokens.slow = (m.tokens.slow.0.max(pending.slow.0), m.tokens.slow.1.max(pending.slow.1));
        m.tokens.slow_activations = if activating { 2 } else { 1 };
    }
    // Cavalry models are never prone (p.61).
    if pending.knockdown && m.stance == Stance::Standing && p.model_type != crate::profile::ModelType::Cavalry
    {
        m.stance = Stance::Prone;
    }
    if pending.take_out || pending.wounds > 0 {
        if m.health == Health::Down || pending.wounds as u16 >= 2 * m.wounds as u16 {
            m.health = Health::TakenOut;
            m.wounds = 0;
            m.ap = 0;
        } else {
            m.wounds -= pending.wounds.min(m.wounds);
            if m.wounds == 0 {
                m.health = Health::Down;
                m.ap = 0;
                if m.stance == Stance::Standing {
                    m.stance = Stance::Prone;
                }
            }
        }
    }
}

/// Cleanup phase (p.21): blind tokens go at its start (p.53), unspent AP are lost, then each
/// model on fire makes its armour roll.
fn cleanup(state: &mut GameState) {
    let d = &mut state.dyn_;
    for m in d.models.iter_mut() {
        m.tokens.blind = false;
        m.ap = 0;
        m.activated = false;
        m.commanded = false;
        // An AI model's activation is its card, resolved in the enemy phase just ended: Slow
        // wears off at its end, or at the end of that phase if it drew none (ruling 140).
        if m.side == crate::uc::AI_SIDE && m.tokens.slow_activations > 0 {
            m.tokens.slow_activations -= 1;
            if m.tokens.slow_activations == 0 {
                m.tokens.slow = (0, 0);
            }
        }
    }
    d.clouds.clear(); // smoke templates go in the cleanup (p.53)
    d.steps.push(Step::EndTurn);
    for (i, m) in d.models.iter().enumerate().rev() {
        if m.tokens.fire > 0 && m.is_on_table() {
            d.steps.push(Step::FireRoll { model: i as ModelId });
        }
    }
}

/// The end of the cleanup: pass tokens returned, then the next turn or the end of the game.
fn end_turn(state: &mut GameState) {
    if game_over(state) {
        finish(state);
        return;
    }
    if state.rules().end_of_turn(state) {
        finish(state);
        return;
    }
    let d = &mut state.dyn_;
    d.pass_tokens = [0; super::MAX_SIDES];
    if d.turn >= state.stat.max_turns {
        finish(state);
    } else {
        d.turn += 1;
        d.steps.push(Step::StartTurn);
    }
}

/// Probability that a model on fire saves its cleanup armour roll (one die, p.53).
pub(super) fn fire_save_chance(state: &GameState, m: ModelId) -> f64 {
    let p = state.profile(m);
    crate::odds::armour_target(p.toughness, p.total_armour(), 0, 0, false) as f64 / 10.0
}

fn finish(state: &mut GameState) {
    state.rules().final_scoring(state);
    let d = &mut state.dyn_;
    d.steps.clear();
    d.activating = None;
    d.sequence = None;
}
