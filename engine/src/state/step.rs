//! The procedure's steps: the [`Step`] enum the state's stack holds and what kind of node each
//! is (a decision, a chance node or an automatic step), with the [`Purpose`] of a test.
//!
//! Plain data with its descriptions: the rules that run the steps (`procedure`, and the rule
//! modules it hands them to) import it, never the other way round.

use super::dinosaur_step::EnemyStep;
use super::model::{ModelId, Side};
use super::{GameState, NodeKind};
use serde::{Deserialize, Serialize};

/// What a test decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// The dynamic movement (Agility) test.
    Movement,
    /// Combat roll `i` of the sequence.
    Combat(u8),
    /// The active model's Interact test (Intelligence).
    Interact,
    /// A leader's Command test (Intelligence).
    Command,
    /// A set-aside infiltrator's deployment test (Intelligence, the scenario's table).
    Infiltrate,
}

/// One pending step of the procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Automatic: the initiative phase: the scenario's start-of-phase steps (late arrivals,
    /// numbers sought), pass tokens, then the roll-off.
    StartTurn,
    /// Automatic: the side with fewer conscious models gets the difference in pass tokens.
    PassTokens,
    /// Chance: the initiative roll-off; outcome 0 = side A rolled lowest, 1 = side B (ties
    /// are re-rolled, so each has probability 1/2).
    RollOff,
    /// Decision for the roll-off loser: take or give the initiative.
    ChooseInitiative(Side),
    /// Automatic: grant AP to conscious models and start the activation phase.
    GrantAp,
    /// Decision for the active side: activate a model or discard a pass token. Handled
    /// automatically when the active side has nothing to activate.
    ChooseActivation,
    /// Decision for the active model's side: its next action, or ending its activation.
    ChooseAction(ModelId),
    /// Decision for the mover: a nested shoot or dodge on its path, or none (skipped when it
    /// has no AP left or nothing to nest).
    ChooseNested,
    /// Decision for the reacting side: one more reaction, or no more (skipped when no model
    /// can react).
    ChooseReaction,
    /// Decision for the mover: a firefight against one reactor, or none (skipped when there is
    /// nothing to answer).
    ChooseFirefight,
    /// Chance: an attribute test against an already-modified attribute.
    Test {
        /// The model testing.
        model: ModelId,
        /// Attribute after modifiers, 1..=9.
        attr: u8,
        /// What the result is for.
        purpose: Purpose,
        /// Opposed tests need the highest successful die for ties; unopposed ones only the
        /// level, so their outcomes are grouped by level.
        opposed: bool,
        /// This roll is a re-roll, which may never be re-rolled (p.9).
        rerolled: bool,
    },
    /// Decision for a side: play one of its cards now (see [`crate::cards::Timing`]), or not.
    /// After a test, the test is described so that a re-roll can repeat it.
    ChooseCard {
        /// The side that may play.
        side: Side,
        /// When this is.
        timing: crate::cards::Timing,
        /// The test just rolled (for a re-roll): model, attribute, purpose, opposed.
        test: Option<(ModelId, u8, Purpose, bool)>,
    },
    /// Chance: an armour roll, outcome = number of wounds.
    Armour {
        /// The model rolling armour.
        model: ModelId,
        /// Number of dice (damage).
        damage: u8,
        /// Each die at or under this saves.
        target: u8,
        /// The wounds go to a cavalry model's mount.
        mount: bool,
    },
    /// Decision for the attacker: whether damage to a cavalry model goes to the rider or the
    /// mount (Nailed It or a template, p.58).
    ChooseAllocation {
        /// The cavalry model.
        model: ModelId,
        /// The damage.
        damage: u8,
        /// Armour-roll target of the rider.
        rider: u8,
        /// Armour-roll target of the mount.
        mount: u8,
        /// The side choosing.
        chooser: Side,
    },
    /// Automatic: how far the movement test lets the mover go.
    ResolveMove,
    /// Decision for the mover, left in mid-leap by a Pass: rest back or fall.
    ChooseMidAir,
    /// Decision for the opponent after a movement Blunder: the point the model falls from.
    ChooseFallPoint {
        /// The side choosing.
        chooser: Side,
    },
    /// Automatic: cancel reactions, nested actions and firefights the mover did not reach.
    CancelUnreached,
    /// Automatic: after a charge move, the charger's close combat if it reached its target.
    ChargeStrike,
    /// Automatic: decide which rolls are opposed and push their tests.
    RollCombat,
    /// Automatic: apply the combat results (armour rolls, jams, feat AP, dodge moves).
    ResolveCombat,
    /// Automatic: a dismounting cavalry model that reached its separation point becomes its
    /// mount, and its rider is placed beside it and continues the activation (p.58).
    Dismount,
    /// Automatic: a rider that reached its mount rejoins it as the cavalry model (p.60).
    Remount,
    /// Decision for a dismounting side: which of rider and mount continues the activation
    /// (`Activate` one of them, p.58); the other counts as activated.
    ChooseContinuer {
        /// The rider.
        rider: ModelId,
        /// The mount.
        mount: ModelId,
    },
    /// Automatic: apply the active model's Interact test (First Aid, Repair).
    ResolveInteract,
    /// Chance: where a template scatters (outcomes are the distinct landing cells, in cell
    /// order); `distance` is Deviate's X, or a D10 when `None`.
    Scatter {
        /// Index of the template in the sequence.
        template: u8,
        /// Scatter distance in inches, or `None` for a D10.
        distance: Option<u8>,
    },
    /// Automatic: the hits of the sequence's template, after the dodge moves.
    TemplateHits,
    /// Chance: the firer's Intelligence roll to hurt a stealthed model under a template;
    /// outcome 0 succeeds, 1 fails.
    TemplateStealth {
        /// Index of the template in the sequence.
        template: u8,
        /// The stealthed model.
        model: ModelId,
        /// It is in hard cover from the template's origin.
        hard: bool,
    },
    /// Decision for a leader: declare a command order, or none (skipped when it cannot).
    ChooseCommand,
    /// Decision for a leader's side after a "Nailed It" command test: move 1 or 2 AP (p.46).
    ChooseCommandAp {
        /// The model giving AP.
        donor: ModelId,
        /// The model receiving them.
        recipient: ModelId,
    },
    /// Automatic: make the declared command order's test, if any (Apply D).
    CommandOrder,
    /// Automatic: apply the command test and offer the next order (Apply E-F).
    ResolveCommand,
    /// Decision for the dodger: where its dodge move ends.
    ChooseDodgeMove {
        /// The dodging model.
        model: ModelId,
        /// Allowance in tenths of an inch.
        budget: u8,
    },
    /// Automatic: apply wounds, health changes, feat AP and refunds, then continue.
    EndSequence,
    /// Automatic: cleanup phase: blind tokens and unspent AP go, fires burn.
    Cleanup,
    /// Chance: the cleanup armour roll of a model on fire; outcome 0 saves (one fire token
    /// less), 1 fails (one wound).
    FireRoll {
        /// The burning model.
        model: ModelId,
    },
    /// Automatic: end of the cleanup, then the next turn or the end of the game.
    EndTurn,
    /// A scenario's set-up, deployment or objective step.
    Scenario(crate::scenario::types::ScenarioStep),
    /// A step of the Ulaya Chronicles AI side (games with AI dinosaurs). Kept last so that the
    /// hashes of games without them do not change.
    Enemy(EnemyStep),
    /// Decision for one player: one more reaction to an AI model's action, or no more
    /// (skipped when none of its models can react). Both players may react to an AI model,
    /// the side with the initiative first (seed 003, Conversion, "Three way reactions").
    ChooseReactionBy(Side),
}

impl Step {
    /// One-line description in words, for errors and logs (models by name and map letter).
    pub fn describe(&self, state: &GameState) -> String {
        let name = |m: &ModelId| {
            if (*m as usize) < state.models().len() {
                state.model_name(*m)
            } else {
                format!("model {m}")
            }
        };
        let side = |s: &Side| format!("side {}", (b'A' + s.min(&25)) as char);
        match self {
            Step::StartTurn => "the turn begins".into(),
            Step::PassTokens => "pass tokens are handed out".into(),
            Step::RollOff => "roll off for the initiative".into(),
            Step::ChooseInitiative(s) => format!("{} takes or gives the initiative", side(s)),
            Step::GrantAp => "action points are granted".into(),
            Step::ChooseActivation => "choose a model to activate, or pass".into(),
            Step::ChooseAction(m) => format!("choose an action for {}", name(m)),
            Step::ChooseNested => "the mover may nest a shoot or dodge".into(),
            Step::ChooseReaction => "the reacting side may react".into(),
            Step::ChooseFirefight => "the mover may start a firefight".into(),
            Step::Test { model, attr, purpose, .. } => {
                let what = match purpose {
                    Purpose::Movement => "movement".to_string(),
                    Purpose::Combat(_) => "combat".to_string(),
                    Purpose::Interact => "interact".to_string(),
                    Purpose::Command => "command".to_string(),
                    Purpose::Infiltrate => "infiltration".to_string(),
                };
                format!("{} makes a {what} test against {attr}", name(model))
            }
            Step::ChooseCard { side: s, .. } => format!("{} may play a card", side(s)),
            Step::Armour { model, damage, target, .. } => {
                format!("{} rolls {damage} armour dice, saving on {target} or less", name(model))
            }
            Step::ChooseAllocation { model, .. } => {
                format!("the attacker chooses rider or mount of {}", name(model))
            }
            Step::ResolveMove => "the move is made".into(),
            Step::ChooseMidAir => "the mover, stopped mid-leap, rests back or falls".into(),
            Step::ChooseFallPoint { .. } => "the opponent chooses the point the mover falls from".into(),
            Step::CancelUnreached => "actions at unreached points are cancelled".into(),
            Step::ChargeStrike => "the charger strikes".into(),
            Step::RollCombat => "the combat rolls are made".into(),
            Step::ResolveCombat => "the combat results are applied".into(),
            Step::Dismount => "the rider dismounts".into(),
            Step::Remount => "the rider remounts".into(),
            Step::ChooseContinuer { rider, .. } => {
                format!("rider or mount of {} continues the activation", name(rider))
            }
            Step::ResolveInteract => "the interaction is resolved".into(),
            Step::Scatter { .. } => "the template scatters".into(),
            Step::TemplateHits => "the template hits".into(),
            Step::TemplateStealth { model, .. } => {
                format!("the firer tests to hurt stealthed {}", name(model))
            }
            Step::ChooseCommand => "the leader may give a command order".into(),
            Step::ChooseCommandAp { donor, recipient } => {
                format!("the leader moves 1 or 2 AP from {} to {}", name(donor), name(recipient))
            }
            Step::CommandOrder => "the command order is tested".into(),
            Step::ResolveCommand => "the command order is resolved".into(),
            Step::ChooseDodgeMove { model, .. } => format!("{} makes its dodge move", name(model)),
            Step::EndSequence => "the action's effects are applied".into(),
            Step::Cleanup => "the cleanup phase".into(),
            Step::FireRoll { model } => format!("{} rolls against the fire", name(model)),
            Step::EndTurn => "the turn ends".into(),
            Step::Scenario(s) => state.rules().describe_step(state, s),
            Step::Enemy(s) => s.describe(state),
            Step::ChooseReactionBy(s) => format!("{} may react to the AI model", side(s)),
        }
    }

    /// What kind of node the step is: the one table that says whether it waits for a
    /// side's decision, for a die roll, or runs on its own. Every step is listed, so a new
    /// step cannot be added without saying which it is.
    pub fn kind(&self) -> NodeKind {
        match self {
            Step::Scenario(s) => s.kind(),
            Step::Enemy(s) => s.kind(),
            Step::RollOff
            | Step::FireRoll { .. }
            | Step::Scatter { .. }
            | Step::TemplateStealth { .. }
            | Step::Test { .. }
            | Step::Armour { .. } => NodeKind::Chance,
            Step::ChooseInitiative(_)
            | Step::ChooseActivation
            | Step::ChooseAction(_)
            | Step::ChooseNested
            | Step::ChooseReaction
            | Step::ChooseReactionBy(_)
            | Step::ChooseFirefight
            | Step::ChooseCommand
            | Step::ChooseCommandAp { .. }
            | Step::ChooseCard { .. }
            | Step::ChooseAllocation { .. }
            | Step::ChooseContinuer { .. }
            | Step::ChooseMidAir
            | Step::ChooseFallPoint { .. }
            | Step::ChooseDodgeMove { .. } => NodeKind::Decision,
            Step::StartTurn
            | Step::PassTokens
            | Step::GrantAp
            | Step::ResolveMove
            | Step::CancelUnreached
            | Step::ChargeStrike
            | Step::RollCombat
            | Step::ResolveCombat
            | Step::Dismount
            | Step::Remount
            | Step::ResolveInteract
            | Step::TemplateHits
            | Step::CommandOrder
            | Step::ResolveCommand
            | Step::EndSequence
            | Step::Cleanup
            | Step::EndTurn => NodeKind::Automatic,
        }
    }

    /// Chance nodes: die rolls.
    pub fn is_chance(&self) -> bool {
        self.kind() == NodeKind::Chance
    }
}
