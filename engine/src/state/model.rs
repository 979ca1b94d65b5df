//! The per-model part of the game state: position, stance, AP, wounds and health.

use crate::board::{Board, CellIdx, Terrain};
use crate::profile::Profile;
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
    /// A rider that remounted: it is part of its cavalry model again, not a casualty (p.60).
    Remounted,
    /// Not on the table yet: waiting to deploy, or to arrive later (scenario infiltration).
    Reserve,
    /// Left the battlefield by the enemy deployment edge (Couriers); takes no further part.
    LeftTable,
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
    /// Wounds remaining (a cavalry model's rider's).
    pub wounds: u8,
    /// A cavalry model's mount's wounds remaining; 0 for other models.
    pub mount_wounds: u8,
    /// Health state.
    pub health: Health,
    /// Whether it has had its activation this turn.
    pub activated: bool,
    /// Bit i set: weapon i is jammed (a Mech can repair it).
    pub jammed: u8,
    /// A leader that has made (or failed) its command orders for this turn (p.46).
    pub commanded: bool,
    /// The other half of a separated cavalry model (rider or mount), for remounting.
    #[serde(default)]
    pub partner: Option<ModelId>,
    /// Bit i set: weapon i is broken for the rest of the game (Finite, or a blundered repair).
    pub broken: u8,
    /// Times each weapon was used, for Scarce(X).
    pub uses: [u8; MAX_WEAPONS],
    /// Tokens and persistent effects on the model.
    pub tokens: Tokens,
    /// What the current action sequence will do to the model when it ends.
    pub pending: Pending,
    /// AP added to (or, negative, removed from) its next AP grant: a scenario's infiltration
    /// Feat (+1) or Blunder (−1).
    #[serde(default)]
    pub ap_adjust: i8,
}

/// Most weapons a profile may carry (jams and uses are tracked per weapon).
pub const MAX_WEAPONS: usize = 8;

/// Tokens and persistent effects on a model (p.53, and "Model Stances", p.40).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tokens {
    /// Fire tokens: an armour roll each cleanup, one wound on a failure, one token fewer on a
    /// success; all lost on entering water.
    pub fire: u8,
    /// Blinded: −2 Marksmanship, Close Combat and Agility until the start of the cleanup.
    pub blind: bool,
    /// Speed penalty (pass, nailed it) from Slow(X/X).
    pub slow: (u8, u8),
    /// Activations of the model that end before the slow wears off.
    pub slow_activations: u8,
    /// Stealthed (p.48): no sight to it, not shot, charged or contacted, moved through.
    pub stealth: bool,
}

/// Effects a model receives during an action sequence, all applied at its end (p.39 Apply
/// G-J), so that "taken out" sees every wound of the sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pending {
    /// Wounds received (by a cavalry model's rider).
    pub wounds: u8,
    /// Wounds received by a cavalry model's mount.
    pub mount_wounds: u8,
    /// Damaged while down: it will be taken out.
    pub take_out: bool,
    /// AP earned by feats.
    pub feat_ap: u8,
    /// AP removed by Stun(X).
    pub stun: u8,
    /// Fire tokens received.
    pub fire: u8,
    /// Blinded.
    pub blind: bool,
    /// Knocked prone.
    pub knockdown: bool,
    /// Slowed (pass, nailed it).
    pub slow: (u8, u8),
    /// Wounds healed by First Aid.
    pub heal: u8,
    /// Loses its stealth token (it declared a non-move action, was revealed, or caught fire).
    pub reveal: bool,
}

impl Pending {
    /// Nothing pending.
    pub fn is_empty(&self) -> bool {
        *self == Pending::default()
    }
}

impl ModelState {
    /// A model as deployed: on `cell`'s surface (swimming in water), unhurt, no AP yet, with
    /// its stealth token if it has the Stealth skill.
    pub fn fresh(p: &Profile, profile: u8, side: u8, cell: CellIdx, board: &Board) -> ModelState {
        let c = board.cell(cell);
        // A model with the Stealth skill deploys with its stealth token (docs/rulings.md).
        let tokens = Tokens { stealth: p.skills.iter().any(|s| s == "Stealth"), ..Default::default() };
        ModelState {
            profile,
            side,
            cell,
            z: c.height,
            stance: if c.terrain == Terrain::Water { Stance::Swimming } else { Stance::Standing },
            ap: 0,
            wounds: p.wounds,
            mount_wounds: 0,
            health: Health::Conscious,
            activated: false,
            commanded: false,
            partner: None,
            jammed: 0,
            broken: 0,
            uses: [0; MAX_WEAPONS],
            tokens,
            pending: Default::default(),
            ap_adjust: 0,
        }
    }

    /// Healthy or wounded.
    pub fn is_conscious(&self) -> bool {
        self.health == Health::Conscious
    }

    /// Still on the table (conscious or down).
    pub fn is_on_table(&self) -> bool {
        matches!(self.health, Health::Conscious | Health::Down)
    }

    /// Down or taken out: "Unconscious" in the scenarios' words (p.42).
    pub fn is_unconscious(&self) -> bool {
        matches!(self.health, Health::Down | Health::TakenOut)
    }

    /// Sight is drawn to and from the base only (p.40).
    pub fn is_low(&self) -> bool {
        !matches!(self.stance, Stance::Standing)
    }

    /// Whether weapon `i` is jammed.
    pub fn is_jammed(&self, i: u8) -> bool {
        self.jammed & (1 << i) != 0
    }

    /// Whether weapon `i` is broken for the game.
    pub fn is_broken(&self, i: u8) -> bool {
        self.broken & (1 << i) != 0
    }

    /// Whether weapon `i` (whose Scarce limit, if any, is `scarce`) may be used now: not
    /// jammed, not broken, and not used up.
    pub fn can_use(&self, i: u8, scarce: Option<u8>) -> bool {
        !self.is_jammed(i) && !self.is_broken(i) && scarce.is_none_or(|x| self.uses[i as usize] < x)
    }
}
