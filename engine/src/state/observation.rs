//! What a player sees: the public state from one side's point of view, with the scenario's
//! secrets (the enemy's grudge, marker numbers it has not seen) left out.

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
    /// The scenario as the observer knows it.
    pub scenario: ScenarioView,
}

/// The scenario part of an observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioView {
    /// Scenario name.
    pub name: &'static str,
    /// The side that is player A.
    pub player_a: Side,
    /// Victory points so far, sides A and B.
    pub vp: [i16; 2],
    /// Markers with their number where the observer knows it.
    pub markers: Vec<crate::scenario::types::Marker>,
    /// Grudges the observer knows: its own, and the enemy's once announced.
    pub grudges: [Option<crate::scenario::types::Grudge>; 2],
    /// Couriers.
    pub couriers: [Option<u8>; 2],
    /// Numbers sought (public).
    pub sought: [Option<u8>; 2],
}

impl GameState {
    /// What `observer` sees now.
    pub fn observation(&self, observer: Side) -> Observation {
        let board = self.board();
        let d = self.dynamic();
        let mut sc = d.scenario.clone();
        sc.mask(observer);
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
            scenario: ScenarioView {
                name: self.static_data().scenario.name(),
                player_a: sc.player_a,
                vp: [sc.vp[0], sc.vp[1]],
                markers: sc.markers.to_vec(),
                grudges: [sc.grudges[0], sc.grudges[1]],
                couriers: [sc.couriers[0], sc.couriers[1]],
                sought: [sc.sought[0], sc.sought[1]],
            },
        }
    }
}
