//! The steps of the Ulaya Chronicles AI side's procedure ([`EnemyStep`]): plain data kept in
//! [`Step::Enemy`](super::step::Step::Enemy), with the kind of node each is and its words.
//! What the steps do is in `dinosaur_ai` (the AI models' behaviour), `ambush` and `spawning`.

use super::model::{ModelId, Side};
use super::{GameState, NodeKind};
use crate::board::CellIdx;
use serde::{Deserialize, Serialize};

/// The card AI's procedure steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnemyStep {
    /// Chance: the spawn-table roll for the next AI model placed before deployment; `chooser`
    /// then places it. The outcomes are the distinct AI models of the table, in the order of
    /// their first face, each with its share of the ten faces.
    RollPlacement {
        /// The player who places the model rolled.
        chooser: Side,
    },
    /// Decision for `chooser`: the cell AI model `model` is placed on (`Action::Deploy`).
    Place {
        /// The AI model being placed.
        model: ModelId,
        /// The player placing it.
        chooser: Side,
    },
    /// Chance: the spawn-table roll for an AI model that a noise brings to the table at the
    /// start of the enemy phase; it arrives at the spawn point nearest the cell `near`.
    Spawn {
        /// Where the noise was made.
        near: CellIdx,
    },
    /// Automatic: the enemy phase begins: the decks are shuffled and every AI model on the
    /// table draws a card, left to right (top to bottom breaking ties).
    Phase,
    /// Chance: the card AI model `model` draws (uniform over its deck's cards not yet drawn);
    /// skipped when the model is no longer conscious.
    Draw {
        /// The AI model.
        model: ModelId,
    },
    /// Automatic: box `index` of card `card` of the model's deck: its move.
    Box {
        /// The AI model.
        model: ModelId,
        /// The card (index in the model's deck).
        card: u8,
        /// The box (index in the card).
        index: u8,
        /// This is the second resolution after a frenzy.
        again: bool,
    },
    /// Automatic: the act of the box, after its move.
    Act {
        /// The AI model.
        model: ModelId,
        /// The card (index in the model's deck).
        card: u8,
        /// The box (index in the card).
        index: u8,
        /// This is the second resolution after a frenzy.
        again: bool,
        /// The move was a charge: its blow was the act.
        charged: bool,
    },
    /// Automatic, after the players' reactions to a player's shot or blow at an AI model: the
    /// AI model shoots back or dodges, or fights back or dodges (seed 003, "Shoot (player)",
    /// "Close combat (player)").
    AnswerAttack,
    /// Automatic, after a player's move: AI model `model`, whose movement reaction range the
    /// mover entered, reacts to `trigger` by its profile (seed 003, "Enemy reactions vs
    /// movement"). No one may react to it.
    MoveReaction {
        /// The reacting AI model.
        model: ModelId,
        /// The model that moved.
        trigger: ModelId,
    },
    /// Automatic, after a player's sequence that made a noise: AI model `model`, within 12" of
    /// the noise at `source` made by `maker`, performs its noise reaction (seed 003, "Noise
    /// reactions"). No one may react to it.
    NoiseReaction {
        /// The reacting AI model.
        model: ModelId,
        /// The model whose weapon made the noise.
        maker: ModelId,
        /// Where the noise was: the shooter, or a template's centre.
        source: CellIdx,
    },
    /// Automatic: the attack of a movement reaction, after its move.
    ReactionAct {
        /// The reacting AI model.
        model: ModelId,
        /// The model that moved.
        trigger: ModelId,
        /// The reaction's move was a charge: its blow was the attack.
        charged: bool,
    },
    /// Chance: the kind of the next ambush marker placed before deployment (every kind of
    /// `configs/uc/spawn.toml` alike); `chooser` then places it.
    RollMarker {
        /// The player who places the marker.
        chooser: Side,
    },
    /// Decision for `chooser`: the cell an ambush marker of `kind` is placed on
    /// (`Action::Deploy`).
    PlaceMarker {
        /// The marker's kind (index into the UC data's markers).
        kind: u8,
        /// The player placing it.
        chooser: Side,
    },
    /// Chance: the spawn-table roll for the AI model that replaces an ambush marker that
    /// sprang or was recognised (seed 003, "Ambush markers", "Recognise").
    Ambush {
        /// Where the marker lay: the model arrives there.
        cell: CellIdx,
        /// The marker kind's spawn table (index into the UC data's tables).
        table: u8,
        /// The player model that triggered or recognised it.
        trigger: ModelId,
        /// Confusion tokens the model arrives with: 0 when the marker sprang (it then makes
        /// its ambush reaction against `trigger`), 1 or 2 when recognised (no reaction).
        confusion: u8,
    },
    /// Automatic: a model that sprang from an ambush marker performs its ambush reaction
    /// against `trigger`. No one may react to it.
    AmbushReaction {
        /// The AI model.
        model: ModelId,
        /// The model that triggered the marker.
        trigger: ModelId,
    },
}

impl EnemyStep {
    /// What kind of node the step is (every step listed: see
    /// [`Step::kind`](super::step::Step::kind)).
    pub fn kind(&self) -> NodeKind {
        match self {
            EnemyStep::RollPlacement { .. }
            | EnemyStep::Draw { .. }
            | EnemyStep::Spawn { .. }
            | EnemyStep::RollMarker { .. }
            | EnemyStep::Ambush { .. } => NodeKind::Chance,
            EnemyStep::Place { .. } | EnemyStep::PlaceMarker { .. } => NodeKind::Decision,
            EnemyStep::Phase
            | EnemyStep::Box { .. }
            | EnemyStep::Act { .. }
            | EnemyStep::AnswerAttack
            | EnemyStep::MoveReaction { .. }
            | EnemyStep::NoiseReaction { .. }
            | EnemyStep::ReactionAct { .. }
            | EnemyStep::AmbushReaction { .. } => NodeKind::Automatic,
        }
    }

    /// One-line description in words.
    pub(super) fn describe(&self, state: &GameState) -> String {
        let side = |s: &Side| format!("side {}", (b'A' + s.min(&25)) as char);
        match self {
            EnemyStep::RollPlacement { .. } => "roll on the spawn table for the next AI model".into(),
            EnemyStep::Place { model, chooser } => {
                format!("{} places {}", side(chooser), state.model_name(*model))
            }
            EnemyStep::Phase => "the enemy phase".into(),
            EnemyStep::Spawn { .. } => "roll on the spawn table for the AI model the noise brings".into(),
            EnemyStep::Draw { model } => {
                format!("{} draws an action card", state.model_name(*model))
            }
            EnemyStep::Box { model, .. } | EnemyStep::Act { model, .. } => {
                format!("{} resolves its card", state.model_name(*model))
            }
            EnemyStep::AnswerAttack => "the attacked AI model answers".into(),
            EnemyStep::MoveReaction { model, .. } | EnemyStep::ReactionAct { model, .. } => {
                format!("{} reacts to the move", state.model_name(*model))
            }
            EnemyStep::NoiseReaction { model, .. } => {
                format!("{} reacts to the noise", state.model_name(*model))
            }
            EnemyStep::RollMarker { .. } => "roll for the kind of the next ambush marker".into(),
            EnemyStep::PlaceMarker { chooser, .. } => format!("{} places an ambush marker", side(chooser)),
            EnemyStep::Ambush { confusion: 0, .. } => {
                "an ambush marker springs: roll on its spawn table".into()
            }
            EnemyStep::Ambush { .. } => "an ambush marker is recognised: roll on its spawn table".into(),
            EnemyStep::AmbushReaction { model, .. } => {
                format!("{} makes its ambush reaction", state.model_name(*model))
            }
        }
    }

    /// The side deciding at this step (chance steps have none).
    pub fn chooser(&self) -> Option<Side> {
        match self {
            EnemyStep::Place { chooser, .. } | EnemyStep::PlaceMarker { chooser, .. } => Some(*chooser),
            _ => None,
        }
    }
}
