//! The action sequence under way (pp.22-39): what the active model declared, its movement
//! path, and every combat roll of the sequence — its own action, a nested action, a firefight
//! and the reactions — each with the point of the path where it happens.

use super::action::CombatKind;
use super::model::ModelId;
use super::Action;
use crate::dice::TestOutcome;
use crate::movement::MovePath;
use serde::{Deserialize, Serialize};

/// Who a combat roll belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollRole {
    /// The active model's declared action (or a charge's close combat).
    Main,
    /// The active model's nested shoot or dodge.
    Nested,
    /// The active model's firefight.
    Firefight,
    /// A reacting model's reaction.
    Reaction,
}

impl RollRole {
    /// Rolls of the active side.
    pub fn is_active(self) -> bool {
        self != RollRole::Reaction
    }
}

/// One combat test of the sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CombatRoll {
    /// The model rolling.
    pub model: ModelId,
    /// Its part in the sequence.
    pub role: RollRole,
    /// Shoot, dodge or close combat.
    pub kind: CombatKind,
    /// The model a shot or close combat targets.
    pub target: Option<ModelId>,
    /// Path point where it happens (0 = start); only reached points happen.
    pub point: u8,
    /// Attribute after modifiers.
    pub attr: u8,
    /// A shot's target is within the weapon's pass range.
    pub pass_range: bool,
    /// A shot's target is in hard cover (+1 armour).
    pub hard_cover: bool,
    /// Opposed by another roll of the sequence (set when the rolls are made).
    pub opposed: bool,
    /// Cancelled because the mover never reached its point (p.38).
    pub cancelled: bool,
    /// The test result, once rolled.
    pub outcome: Option<TestOutcome>,
    /// Rolls no test: a teardrop template is placed without a roll to hit (p.52).
    pub automatic: bool,
    /// A close-combat reaction to a Reach blow from beyond the reactor's own reach: opposed
    /// as usual, but it deals no damage (Reach, p.53).
    pub harmless: bool,
}

impl CombatRoll {
    /// Whether this roll attacks `m` (a shot or close combat targeting it).
    pub fn attacks(&self, m: ModelId) -> bool {
        !matches!(self.kind, CombatKind::Dodge) && self.target == Some(m)
    }
}

/// The action sequence under way.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sequence {
    /// The active model.
    pub actor: ModelId,
    /// The declared action.
    pub declared: Action,
    /// Declared movement path (move and charge).
    pub path: MovePath,
    /// Crawling prone during the move.
    pub prone: bool,
    /// Stance-change cost paid out of the move, tenths of an inch.
    pub stance_cost: u16,
    /// Whether the charger started its move in water (no charge bonus).
    pub started_in_water: bool,
    /// Movement test result.
    pub move_test: Option<TestOutcome>,
    /// Interact test result (First Aid, Repair).
    pub interact_test: Option<TestOutcome>,
    /// Path index where a Pass left the model in mid-air.
    pub mid_air: Option<u8>,
    /// Last path point the mover reached (0 = start, `k` = the path's `k`-th point).
    pub reached: u8,
    /// Every combat roll of the sequence.
    pub rolls: crate::inline_vec::InlineVec<CombatRoll, 4>,
    /// AP the active model gets back at the end (cancelled nested action or firefight).
    pub refund: u8,
    /// The command order declared and not yet made: (donor, recipient).
    pub command: Option<(ModelId, ModelId)>,
    /// Command test result of the order being made.
    pub command_test: Option<TestOutcome>,
    /// Whether any command order was declared during this action.
    pub commanded: bool,
    /// A dismount's separation point (0 = the start of the path).
    pub separation: Option<u8>,
    /// Where the active model started.
    pub origin: crate::board::CellIdx,
    /// The height of its base where it started (above the surface when it started mid-climb).
    #[serde(default)]
    pub origin_z: u8,
    /// The sequence's template shots (the active model's and reactions').
    pub templates: crate::inline_vec::InlineVec<super::template::TemplateShot, 2>,
    /// The active model was stealthed when it initiated combat: opposed reactions against it
    /// are at −2 (p.49).
    pub stealthed_attacker: bool,
}

impl Sequence {
    pub(super) fn new(actor: ModelId, declared: Action) -> Sequence {
        Sequence {
            actor,
            declared,
            path: MovePath::default(),
            prone: false,
            stance_cost: 0,
            started_in_water: false,
            move_test: None,
            interact_test: None,
            mid_air: None,
            reached: 0,
            rolls: Default::default(),
            refund: 0,
            command: None,
            command_test: None,
            commanded: false,
            stealthed_attacker: false,
            templates: Default::default(),
            separation: None,
            origin: 0,
            origin_z: 0,
        }
    }

    /// The points of the action: every point of its path (0 = the start), or its position
    /// alone (0).
    pub fn action_points(&self) -> std::ops::RangeInclusive<u8> {
        0..=if self.has_path() { self.path.points.len() as u8 } else { 0 }
    }

    /// Whether the declared action has a movement path (move or charge).
    pub fn has_path(&self) -> bool {
        matches!(
            self.declared,
            Action::Move { .. } | Action::Charge { .. } | Action::Dismount { .. } | Action::Remount { .. }
        )
    }

    /// Whether a nested action was declared.
    pub fn has_nested(&self) -> bool {
        self.rolls.iter().any(|r| r.role == RollRole::Nested)
    }

    /// Whether `m` already reacted to this action.
    pub fn has_reacted(&self, m: ModelId) -> bool {
        self.rolls.iter().any(|r| r.role == RollRole::Reaction && r.model == m)
    }

    /// Which part of a path a point is in: 0 before any dynamic movement (always reached),
    /// 1 within the pass distance (reached on a Pass), 2 in the "Nailed It" portion (reached
    /// only on Nailed It). Conditional reactions live in classes 1 and 2 (p.38).
    /// During a dismount, points after the separation point form classes of their own (3-5):
    /// only the mount can be hurt there (p.58).
    pub fn reach_class(&self, point: u8, pass_budget: u16) -> u8 {
        let after_separation = if self.separation.is_some_and(|k| point > k) { 3 } else { 0 };
        after_separation + self.reach_only(point, pass_budget)
    }

    /// The reach class alone (0-2), without the dismount's separation.
    fn reach_only(&self, point: u8, pass_budget: u16) -> u8 {
        let Some(first) = self.path.first_dynamic else { return 0 };
        if point == 0 || ((point - 1) as usize) < first {
            0
        } else if self.path.points[point as usize - 1].cost <= pass_budget {
            1
        } else {
            2
        }
    }
}
