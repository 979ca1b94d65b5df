//! The Leader's Command ability (p.46): command orders move AP between friendly models.
//!
//! A leader declares its first order after declaring an action (Declare C, before the
//! reactions) and makes it once the action's other results are in (Apply D-F). Each success
//! lets it declare another; the first failure, or the end of the action, ends its orders for
//! the turn.

use super::model::ModelId;
use super::sequence::Sequence;
use super::step::{Purpose, Step};
use super::{Action, GameState};
use crate::dice::{clamp_attribute, TestLevel};
use crate::profile::Role;

/// Whether the active model is a leader that may still give orders during this action.
pub(super) fn may_command(state: &GameState, seq: &Sequence) -> bool {
    let leader = &state.models()[seq.actor as usize];
    state.profile(seq.actor).role == Role::Leader
        && leader.is_conscious()
        && !leader.commanded
        && seq.command.is_none()
}

/// Whether the leader sees `m` (itself included). Sight is taken from where the leader stands
/// when the order is declared (docs/rulings.md).
fn sees(state: &GameState, leader: ModelId, m: ModelId) -> bool {
    leader == m || state.model_sight(leader, m).is_some()
}

/// Every command order the leader may declare: donor and recipient distinct, conscious, of the
/// leader's faction, in its sight; the donor has an AP (p.46).
pub(super) fn command_options(state: &GameState, out: &mut Vec<Action>) {
    let seq = state.dynamic().sequence.as_ref().expect("sequence");
    if !may_command(state, seq) {
        return;
    }
    let leader = seq.actor;
    let faction = &state.profile(leader).faction;
    let side = state.models()[leader as usize].side;
    // Who may give or receive an order, decided once per model (each needs a sight check).
    let eligible: crate::inline_vec::InlineVec<bool, { super::INLINE_MODELS }> = state
        .models()
        .iter()
        .enumerate()
        .map(|(m, model)| {
            model.side == side
                && model.is_conscious()
                && state.profile(m as ModelId).faction == *faction
                && sees(state, leader, m as ModelId)
        })
        .collect();
    let n = state.models().len() as ModelId;
    for donor in (0..n).filter(|&d| state.models()[d as usize].ap > 0 && eligible[d as usize]) {
        for recipient in (0..n).filter(|&r| r != donor && eligible[r as usize]) {
            out.push(Action::Command { donor, recipient });
        }
    }
}

/// Record a declared order.
pub(super) fn declare_order(state: &mut GameState, donor: ModelId, recipient: ModelId) {
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    seq.command = Some((donor, recipient));
    seq.commanded = true;
}

/// Apply D (p.39): make the declared order's Intelligence test, then resolve it.
pub(super) fn command_order(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    if seq.command.is_none() {
        if seq.commanded {
            // The action is over: no more orders this turn.
            let actor = seq.actor;
            state.dyn_.models[actor as usize].commanded = true;
        }
        return;
    }
    let leader = seq.actor;
    let attr = clamp_attribute(state.profile(leader).intelligence as i32);
    state.dyn_.steps.push(Step::CommandOrder);
    state.dyn_.steps.push(Step::ResolveCommand);
    state.dyn_.steps.push(Step::Test {
        model: leader,
        attr,
        purpose: Purpose::Command,
        opposed: false,
        rerolled: false,
    });
}

/// Apply E-F (p.39): move the AP, then offer the next order on a success. A blunder discards
/// one of the donor's AP; a failure or blunder ends the leader's orders for the turn. On
/// "Nailed It" (or a Feat, which counts as one) the leader's side chooses to move 1 or 2 AP
/// (p.46) when the donor has two to give.
pub(super) fn resolve_command(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    let (donor, recipient) = seq.command.take().expect("a declared order");
    let level = seq.command_test.take().expect("command test rolled").level;
    let leader = seq.actor;
    if !level.is_success() {
        if level == TestLevel::Blunder {
            let d = &mut state.dyn_.models[donor as usize];
            d.ap = d.ap.saturating_sub(1);
        }
        state.dyn_.models[leader as usize].commanded = true;
        state.dyn_.steps.pop(); // the pending CommandOrder: no more orders
        return;
    }
    if level == TestLevel::Feat {
        state.dyn_.models[leader as usize].pending.feat_ap += 1;
    }
    // A successful order lets the leader declare another.
    state.dyn_.steps.push(Step::ChooseCommand);
    if level.is_nailed() && state.dyn_.models[donor as usize].ap >= 2 {
        state.dyn_.steps.push(Step::ChooseCommandAp { donor, recipient });
    } else {
        transfer_ap(state, donor, recipient, 1);
    }
}

/// Every AP count the leader may move after "Nailed It": 1 or 2 (p.46).
pub(super) fn amount_options(out: &mut Vec<Action>) {
    out.extend([Action::CommandAp(1), Action::CommandAp(2)]);
}

/// Move `n` AP from the donor to the recipient; AP above the recipient's maximum are
/// discarded (p.12).
pub(super) fn transfer_ap(state: &mut GameState, donor: ModelId, recipient: ModelId, n: u8) {
    let give = n.min(state.dyn_.models[donor as usize].ap);
    state.dyn_.models[donor as usize].ap -= give;
    let cap = state.profile(recipient).ap_max;
    let r = &mut state.dyn_.models[recipient as usize];
    r.ap = r.ap.saturating_add(give).min(cap);
}
