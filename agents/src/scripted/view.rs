//! What the scripted player knows at a decision (what models are worth to it, which asks the
//! scenario's plan, is in [`super::worth`]).
//!
//! The scenario state is read only through [`GameState::masked`]: the enemy's grudge until it
//! is announced and the numbers of markers the side has not looked at are gone from it, so
//! nothing hidden can leak into a choice.

use super::terms::TermWeights;
use engine::profile::{ModelType, Role};
use engine::scenario::{MarkerKind, Scenario, ScenarioState};
use engine::state::{ModelId, Side};
use engine::GameState;

/// The deciding side's view of the game.
pub(crate) struct View<'a> {
    /// The state (its public parts only are read).
    pub state: &'a GameState,
    /// The deciding side.
    pub side: Side,
    /// The scenario played.
    pub scenario: Scenario,
    /// The scenario state as the side knows it.
    pub sc: ScenarioState,
    /// Narrative feats are in force.
    pub nf: bool,
    /// This turn is surely the last one.
    pub last_turn: bool,
    /// The weights of the score's terms (all 1 for the scripted player).
    pub w: TermWeights,
}

impl<'a> View<'a> {
    /// Whether `m` belongs to the other side.
    pub fn is_enemy(&self, m: ModelId) -> bool {
        self.state.models()[m as usize].side != self.side
    }

    /// The side's own grudge (Grudge Match).
    pub fn grudge(&self) -> Option<engine::scenario::Grudge> {
        self.sc.grudges[self.side as usize]
    }

    /// Markers `m` carries (prizes, numbered markers).
    pub fn carried(&self, m: ModelId) -> usize {
        self.sc.markers.iter().filter(|k| k.holder == Some(m) && !k.off_table).count()
    }

    /// Whether `m` carries a Couriers prize.
    pub fn carries_prize(&self, m: ModelId) -> bool {
        self.sc
            .markers
            .iter()
            .any(|k| k.holder == Some(m) && !k.off_table && matches!(k.kind, MarkerKind::Prize(_)))
    }

    /// A model's fighting worth: its points over 20.
    pub fn worth(&self, m: ModelId) -> f64 {
        self.state.profile(m).points as f64 / 20.0
    }

    /// Whether `m` is the enemy leader.
    pub fn is_enemy_leader(&self, m: ModelId) -> bool {
        self.is_enemy(m) && self.state.profile(m).role == Role::Leader
    }

    /// Own conscious models.
    pub fn friends(&self) -> impl Iterator<Item = ModelId> + '_ {
        self.models_of(self.side, true)
    }

    /// Enemy models on the table (down ones included when `conscious` is false): the other
    /// player's and any AI dinosaurs, which attack both players.
    pub fn enemies(&self, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        self.models_where(self.side, false, conscious)
    }

    fn models_of(&self, side: Side, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        self.models_where(side, true, conscious)
    }

    /// Models of `side` (`of_side`) or of every other side.
    fn models_where(&self, side: Side, of_side: bool, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        let models = self.state.models();
        (0..models.len() as ModelId).filter(move |&m| {
            let mm = &models[m as usize];
            (mm.side == side) == of_side && if conscious { mm.is_conscious() } else { mm.is_on_table() }
        })
    }
}

/// The side's leader, if it has one.
pub(crate) fn leader(state: &GameState, side: Side) -> Option<ModelId> {
    (0..state.models().len() as ModelId)
        .find(|&m| state.models()[m as usize].side == side && state.profile(m).role == Role::Leader)
}

/// A "Character" for the scenarios (not a troop, cavalry or beast).
pub(crate) fn is_character(state: &GameState, m: ModelId) -> bool {
    state.profile(m).model_type == ModelType::Character
}

/// Beasts and cavalry never interact nor carry objectives (p.61).
pub(crate) fn can_carry(state: &GameState, m: ModelId) -> bool {
    !matches!(state.profile(m).model_type, ModelType::Beast | ModelType::Cavalry)
}
