//! The per-model part of the game state: position, stance, AP, wounds and health.

use crate::board::CellIdx;
use serde::{Deserialize, Serialize};

/// Index of a model in the game's model list.
pub type ModelId = u8;

/// A player side: 0 is side A, 1 is side B. Room is left for a third, AI-controlled side
/// (the Ulaya Chronicles conversion) by keeping per-side arrays at [`MAX_SIDES`].
pub type Side = u8;

/// Number of sides the per-side arrays have room for.
pub const MAX_SIDES: usize = 3;

/// Model stances (p.40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// The default stance.
    Standing,
    /// Lying down: sight to and from the base, −1 CC and Agility.
    Prone,
    /// Base entirely in water: soft cover, restricted movement.
    Swimming,
    /// Part-way up a climb: sight to and from the base.
    Climbing,
}

/// Health states (p.42). Healthy and Wounded are both `Conscious`; compare wounds with the
/// profile to tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    /// Healthy or wounded.
    Conscious,
    /// At 0 wounds: prone, no AP, no activation, skills off.
    Down,
    /// Removed from the game.
    TakenOut,
}

/// One model on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModelState {
    /// Index of its profile in the game's static data.
    pub profile: u8,
    /// Owning side.
    pub side: Side,
    /// Cell its base stands over.
    pub cell: CellIdx,
    /// Height of its base in inches (above the cell surface while climbing).
    pub z: u8,
    /// Current stance.
    pub stance: Stance,
    /// Action points held.
    pub ap: u8,
    /// Wounds remaining.
    pub wounds: u8,
    /// Health state.
    pub health: Health,
    /// Whether it has had its activation this turn.
    pub activated: bool,
    /// Bit i set: weapon i is jammed.
    pub jammed: u8,
    /// Wounds received in the current action sequence, applied all at once at its end.
    pub seq_wounds: u8,
    /// Damage was dealt to it while down in this sequence: it will be taken out.
    pub seq_take_out: bool,
    /// AP earned by feats in the current sequence, granted at its end.
    pub seq_feat_ap: u8,
}

impl ModelState {
    /// Healthy or wounded.
    pub fn is_conscious(&self) -> bool {
        self.health == Health::Conscious
    }

    /// Still on the table (conscious or down).
    pub fn is_on_table(&self) -> bool {
        self.health != Health::TakenOut
    }

    /// Sight is drawn to and from the base only (p.40).
    pub fn is_low(&self) -> bool {
        !matches!(self.stance, Stance::Standing)
    }

    /// Whether weapon `i` is jammed.
    pub fn is_jammed(&self, i: u8) -> bool {
        self.jammed & (1 << i) != 0
    }
}
