//! Everything a player (or chance) can do at a node of the game.

use super::model::{ModelId, Side};
use crate::board::CellIdx;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A combat action used as a reaction, nested action or firefight (p.23): never a charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    /// Shoot with a ranged weapon.
    Shoot {
        /// Weapon index on the profile.
        weapon: u8,
    },
    /// Dodge.
    Dodge,
    /// Close combat with a close-combat weapon (needs base contact).
    CloseCombat {
        /// Weapon index on the profile.
        weapon: u8,
    },
    /// The Reveal shoot action against a stealthed model (p.49): Intelligence, 8/14, no damage.
    Reveal,
    /// A template weapon's hit roll (never opposed, p.51).
    Template {
        /// Weapon index on the profile.
        weapon: u8,
    },
}

/// What an Interact action does (p.38): role abilities now, scenario objectives later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InteractKind {
    /// Medic's First Aid (p.46).
    FirstAid,
    /// Mech's Repair of a jammed weapon (p.47); anyone may repair a Primitive weapon.
    Repair {
        /// Index of the jammed weapon on its owner's profile.
        weapon: u8,
    },
    /// A scenario marker the model touches: take control of an objective, look at a numbered
    /// marker, or pick up a dropped prize or marker (the target is the model itself).
    Marker {
        /// Index of the marker.
        marker: u8,
    },
    /// Pass the prize it carries to the target, a friend in base contact (Couriers).
    Give {
        /// Index of the prize.
        marker: u8,
    },
    /// Take the prize a friend in base contact (the target) carries (Couriers).
    Take {
        /// Index of the prize.
        marker: u8,
    },
    /// Recognise an ambush marker within 12" and sight (seed 003, "Recognise"): an
    /// Intelligence test that may bring its enemy out confused (the target is the model
    /// itself).
    Recognise {
        /// Index of the ambush marker.
        marker: u8,
    },
}

impl InteractKind {
    /// Whether it is a scenario Interact, on a marker (no Intelligence test).
    pub fn is_marker(self) -> bool {
        matches!(self, InteractKind::Marker { .. } | InteractKind::Give { .. } | InteractKind::Take { .. })
    }
}

/// One action at a decision or chance node. Actions are small, `Copy` and serialisable so
/// that game records are plain lists of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Chance node: the index of the outcome in [`crate::GameState::chance_outcomes`].
    Chance(u8),
    /// The roll-off loser keeps the initiative.
    TakeInitiative,
    /// The roll-off loser hands the initiative to the opponent.
    GiveInitiative,
    /// Activate a model of the active side.
    Activate(ModelId),
    /// Discard a pass token instead of activating.
    PassToken,
    /// Move action to a destination cell; `prone` is the stance kept while moving (crawling
    /// when true; entering or leaving prone costs 1"/1").
    Move {
        /// Destination cell.
        dest: CellIdx,
        /// Crawl prone (true) or move standing (false).
        prone: bool,
    },
    /// A cavalry model's move during which the rider dismounts (p.58), at −2/−2 speed; the
    /// rider separates at the start or at the end of the path and continues the activation.
    Dismount {
        /// Destination cell of the mount.
        dest: CellIdx,
        /// Separate at the end of the path (true) or at its start (false).
        at_end: bool,
    },
    /// A dismounted rider's move back into base contact with its mount, at −1/−1, remounting
    /// (p.60); the action ends there.
    Remount {
        /// Destination cell, in base contact with the mount.
        dest: CellIdx,
    },
    /// Shoot action with a ranged weapon at an enemy model.
    Shoot {
        /// Index of the weapon on the profile.
        weapon: u8,
        /// Target model.
        target: ModelId,
    },
    /// Shoot action with a template weapon, placing the template at a cell (p.51).
    Template {
        /// Index of the template weapon.
        weapon: u8,
        /// Centre (small, large) or aiming point (teardrop) of the template.
        at: CellIdx,
    },
    /// Reveal action against a stealthed enemy (p.49).
    Reveal {
        /// The stealthed model.
        target: ModelId,
    },
    /// Dodge action.
    Dodge,
    /// Charge action: move to a cell in base contact with the target, then close combat.
    Charge {
        /// Target model.
        target: ModelId,
        /// Close-combat weapon index.
        weapon: u8,
        /// Destination cell.
        dest: CellIdx,
    },
    /// Close Combat action against a model in base contact.
    CloseCombat {
        /// Close-combat weapon index.
        weapon: u8,
        /// Target model.
        target: ModelId,
    },
    /// Interact action on a model in base contact (or itself).
    Interact {
        /// What it does.
        kind: InteractKind,
        /// The model healed or whose weapon is repaired.
        target: ModelId,
    },
    /// End the active model's activation.
    EndActivation,
    /// The mover declares no nested action.
    NoNested,
    /// The mover nests a shoot or dodge at a point of its path, for one more AP (p.28).
    Nested {
        /// Shoot or dodge.
        kind: CombatKind,
        /// The shot's target (the mover itself for a dodge).
        target: ModelId,
        /// Point of the path: 0 is the start, `k` the path's `k`-th point.
        point: u8,
    },
    /// A model of the reacting side reacts (p.36); damaging reactions target the active model.
    React {
        /// The reacting model.
        model: ModelId,
        /// Its combat action.
        kind: CombatKind,
        /// Point of the active model's path at which it reacts (0 when there is no path).
        point: u8,
    },
    /// The reacting side declares no more reactions.
    EndReactions,
    /// The active model answers a reaction to its move with a combat action (p.38).
    Firefight {
        /// Its combat action (a shot or close combat targets the reactor).
        kind: CombatKind,
        /// The reacting model it answers.
        reactor: ModelId,
    },
    /// The active model declares no firefight.
    NoFirefight,
    /// A leader's command order (p.46): move AP from the donor to the recipient.
    Command {
        /// The model giving AP.
        donor: ModelId,
        /// The model receiving them.
        recipient: ModelId,
    },
    /// After a "Nailed It" command test: how many AP the order moves, 1 or 2 (p.46).
    CommandAp(u8),
    /// No (further) command order.
    NoCommand,
    /// Play one of the side's cards (index in its crew's card list) on a model.
    PlayCard {
        /// Index of the card.
        card: u8,
        /// The model it is played on.
        target: ModelId,
    },
    /// Play no card now.
    NoCard,
    /// Damage to a cavalry model goes to its rider.
    AllocateRider,
    /// Damage to a cavalry model goes to its mount.
    AllocateMount,
    /// Left in mid-air by a Pass: move back to the last legal resting point.
    RestBack,
    /// Left in mid-air by a Pass: fall from here instead.
    Fall,
    /// After a movement Blunder, the opponent picks the path point the model falls from.
    FallPoint(u8),
    /// Dodge move destination (the model's own cell to stay put).
    DodgeMove(CellIdx),
    /// Scenario set-up: the side that will be player A.
    PlayerA(Side),
    /// Grudge Match: the grudge holder (own character) and target (enemy character).
    Grudge {
        /// The side's own character.
        holder: ModelId,
        /// The enemy character.
        target: ModelId,
    },
    /// Nominate a model (a courier, a member of the first deployment group).
    Nominate(ModelId),
    /// Choose a board edge or corner (see `scenario::zones` for the numbering).
    Zone(u8),
    /// Place the model or marker being deployed on a cell.
    Deploy(CellIdx),
    /// Keep the model being deployed off the table for now (it arrives on a later turn).
    Reserve,
    /// Leave the battlefield by the enemy deployment edge (Couriers).
    LeaveTable,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Chance(i) => write!(f, "chance #{i}"),
            Action::TakeInitiative => write!(f, "take initiative"),
            Action::GiveInitiative => write!(f, "give initiative"),
            Action::Activate(m) => write!(f, "activate m{m}"),
            Action::PassToken => write!(f, "pass token"),
            Action::Move { dest, prone } => {
                write!(f, "move to c{dest}{}", if *prone { " prone" } else { "" })
            }
            Action::Dismount { dest, at_end } => {
                write!(
                    f,
                    "dismount {} and move to c{dest}",
                    if *at_end { "at the end" } else { "at the start" }
                )
            }
            Action::Remount { dest } => write!(f, "remount from c{dest}"),
            Action::Shoot { weapon, target } => write!(f, "shoot m{target} with w{weapon}"),
            Action::Reveal { target } => write!(f, "reveal m{target}"),
            Action::Template { weapon, at } => write!(f, "template w{weapon} at c{at}"),
            Action::Dodge => write!(f, "dodge"),
            Action::Charge { target, weapon, dest } => {
                write!(f, "charge m{target} with w{weapon} via c{dest}")
            }
            Action::CloseCombat { weapon, target } => {
                write!(f, "close combat m{target} with w{weapon}")
            }
            Action::Interact { kind, target } => write!(f, "interact {kind:?} on m{target}"),
            Action::EndActivation => write!(f, "end activation"),
            Action::NoNested => write!(f, "no nested action"),
            Action::Nested { kind, target, point } => {
                write!(f, "nested {kind:?} at m{target} at point {point}")
            }
            Action::React { model, kind, point } => {
                write!(f, "m{model} reacts with {kind:?} at point {point}")
            }
            Action::EndReactions => write!(f, "no more reactions"),
            Action::Firefight { kind, reactor } => write!(f, "firefight {kind:?} against m{reactor}"),
            Action::NoFirefight => write!(f, "no firefight"),
            Action::Command { donor, recipient } => write!(f, "command order m{donor} -> m{recipient}"),
            Action::CommandAp(n) => write!(f, "the order moves {n} AP"),
            Action::NoCommand => write!(f, "no command order"),
            Action::PlayCard { card, target } => write!(f, "play card {card} on m{target}"),
            Action::NoCard => write!(f, "no card"),
            Action::AllocateRider => write!(f, "damage the rider"),
            Action::AllocateMount => write!(f, "damage the mount"),
            Action::RestBack => write!(f, "rest back"),
            Action::Fall => write!(f, "fall"),
            Action::FallPoint(i) => write!(f, "fall from point {i}"),
            Action::DodgeMove(c) => write!(f, "dodge move to c{c}"),
            Action::PlayerA(s) => write!(f, "side {s} is player A"),
            Action::Grudge { holder, target } => write!(f, "grudge of m{holder} against m{target}"),
            Action::Nominate(m) => write!(f, "nominate m{m}"),
            Action::Zone(z) => write!(f, "choose zone {z}"),
            Action::Deploy(c) => write!(f, "deploy at c{c}"),
            Action::Reserve => write!(f, "deploy later"),
            Action::LeaveTable => write!(f, "leave the table"),
        }
    }
}
