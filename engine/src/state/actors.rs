//! Who acts: the other side, the models that may still activate, the AI side's models, and
//! the player who chooses at a step (a leaf the rule modules and the dispatcher share).

use super::model::{ModelId, ModelState, Side};
use super::step::Step;
use super::{GameState, Player, ABSENT_SIDE};

/// Which player acts at `step`.
pub(super) fn player_of(state: &GameState, step: &Step) -> Player {
    let d = &state.dyn_;
    let actor_side = || d.models[d.sequence.as_ref().expect("sequence").actor as usize].side;
    match step {
        s if s.is_chance() => Player::Chance,
        Step::ChooseInitiative(s) => Player::Side(*s),
        Step::ChooseActivation => Player::Side(d.active),
        // An AI model's dodge move is chosen by the player it dodged (seed 003, "Player choices").
        Step::ChooseDodgeMove { model: m, .. } if d.models[*m as usize].side == crate::uc::AI_SIDE => {
            Player::Side(actor_side())
        }
        Step::ChooseAction(m) | Step::ChooseDodgeMove { model: m, .. } => {
            Player::Side(d.models[*m as usize].side)
        }
        Step::ChooseNested
        | Step::ChooseFirefight
        | Step::ChooseCommand
        | Step::ChooseCommandAp { .. }
        | Step::ChooseMidAir => Player::Side(actor_side()),
        Step::ChooseReaction => Player::Side(other_side(actor_side())),
        Step::ChooseReactionBy(s) => Player::Side(*s),
        Step::ChooseFallPoint { chooser } => Player::Side(*chooser),
        Step::ChooseCard { side, .. } => Player::Side(*side),
        Step::ChooseAllocation { chooser, .. } => Player::Side(*chooser),
        Step::ChooseContinuer { rider, .. } => Player::Side(d.models[*rider as usize].side),
        Step::Scenario(s) => state.rules().player_of(state, s),
        Step::Enemy(s) => s.chooser().map_or(Player::Terminal, Player::Side),
        // Automatic steps never rest on top of the stack after `advance`.
        _ => Player::Terminal,
    }
}

/// Whether the node on top is a decision of the absent side of a solo game: a chance node
/// whose outcomes are that decision's options, all alike (docs/rulings.md).
pub(super) fn absent_decision(state: &GameState) -> bool {
    state.is_solo()
        && state.dyn_.steps.last().is_some_and(|s| player_of(state, s) == Player::Side(ABSENT_SIDE))
}

/// Whether model `m` belongs to the AI side.
pub(super) fn is_ai(state: &GameState, m: ModelId) -> bool {
    state.dyn_.models[m as usize].side == crate::uc::AI_SIDE
}

/// Conscious models of `side` that have not activated and hold AP.
pub(super) fn has_eligible(state: &GameState, side: Side) -> bool {
    state.dyn_.models.iter().any(|m| m.side == side && can_activate(m))
}

/// Whether a model may still be activated this turn.
pub(super) fn can_activate(m: &ModelState) -> bool {
    m.is_conscious() && !m.activated && m.ap > 0
}

/// The other player side (sides 0 and 1 alternate).
pub(super) fn other_side(side: Side) -> Side {
    1 - side.min(1)
}
