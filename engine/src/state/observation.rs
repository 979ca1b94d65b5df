//! What a player sees. TDE's core game has no hidden information, so an observation is the
//! public state from one side's point of view; scenarios with secrets (grudges, scavenger
//! markers) will hide them here.

use super::{GameState, Health, Player, Side, Stance};
use serde::Serialize;

/// One model as a player sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelView {
    /// Index of the model.
    pub id: u8,
    /// Profile id.
    pub profile: String,
    /// Owning side.
    pub side: Side,
    /// Whether it belongs to the observing side.
    pub own: bool,
    /// Column and row.
    pub at: [u8; 2],
    /// Base height in inches.
    pub z: u8,
    /// Stance.
    pub stance: Stance,
    /// Health state.
    pub health: Health,
    /// Wounds left.
    pub wounds: u8,
    /// AP held.
    pub ap: u8,
    /// Whether it has activated this turn.
    pub activated: bool,
    /// Bit mask of jammed weapons.
    pub jammed: u8,
}

/// A player's view of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// The observing side.
    pub observer: Side,
    /// Turn number.
    pub turn: u8,
    /// Side with the initiative.
    pub initiative: Side,
    /// Active side.
    pub active: Side,
    /// Who acts now.
    pub to_act: Player,
    /// Pass tokens of sides A and B.
    pub pass_tokens: [u8; 2],
    /// The model being activated, if any.
    pub activating: Option<u8>,
    /// The current node in words.
    pub node: String,
    /// Every model still on the table.
    pub models: Vec<ModelView>,
}

impl GameState {
    /// What `observer` sees now.
    pub fn observation(&self, observer: Side) -> Observation {
        let board = self.board();
        let d = self.dynamic();
        Observation {
            observer,
            turn: d.turn,
            initiative: d.initiative,
            active: d.active,
            to_act: self.current_player(),
            pass_tokens: [d.pass_tokens[0], d.pass_tokens[1]],
            activating: d.activating,
            node: self.describe_node(),
            models: d
                .models
                .iter()
                .enumerate()
                .filter(|(_, m)| m.is_on_table())
                .map(|(i, m)| {
                    let (x, y) = board.xy(m.cell);
                    ModelView {
                        id: i as u8,
                        profile: self.profile(i as u8).id.clone(),
                        side: m.side,
                        own: m.side == observer,
                        at: [x, y],
                        z: m.z,
                        stance: m.stance,
                        health: m.health,
                        wounds: m.wounds,
                        ap: m.ap,
                        activated: m.activated,
                        jammed: m.jammed,
                    }
                })
                .collect(),
        }
    }
}
