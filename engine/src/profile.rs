//! Model profiles and weapons (rulebook "Model Profiles", p.12, and "Weapon Rules", p.50),
//! loaded from TOML files under `configs/factions/`.
//!
//! The rulebook text holds no official profile cards: the shipped data is illustrative and
//! marked as such. Users add their own cards by writing a TOML file in the same format.

use crate::board::LosTemplate;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Model type (p.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelType {
    /// Named characters.
    Character,
    /// Rank-and-file troops.
    Troop,
    /// A rider on a mount (chapter 4).
    Cavalry,
    /// Animals (chapter 4).
    Beast,
}

/// A character's role within the crew (p.12, abilities p.46).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Command ability.
    Leader,
    /// First Aid ability.
    Medic,
    /// Repair ability.
    Mech,
    /// Infiltrate ability.
    Scout,
    /// No role ability.
    Tough,
    /// No role.
    None,
}

/// A weapon's special property (Weapon Properties table, p.53). `X` values are carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponProperty {
    /// +X toughness during armour rolls (worn armour).
    Armour(u8),
    /// Blind token on a hit.
    Blind,
    /// Smoke becomes noxious.
    Choke,
    /// Template scatters X" on a Pass.
    Deviate(u8),
    /// Cannot be repaired after a blunder.
    Finite,
    /// X fire tokens on a hit.
    Fire(u8),
    /// Target knocked prone.
    Knockdown,
    /// A blunder causes 1 wound instead of 1 damage.
    Natural,
    /// −X to the target's toughness for armour rolls.
    Pierce(u8),
    /// Anyone can repair it.
    Primitive,
    /// Close combat at up to X".
    Reach(u8),
    /// −X to the target's armour.
    Sunder(u8),
    /// Usable X times per game.
    Scarce(u8),
    /// −X/−X speed until the end of the target's next activation.
    Slow(u8, u8),
    /// Places a smoke template.
    Smoke,
    /// +X CC when unopposed.
    Sneaky(u8),
    /// +1 M at pass range.
    Spray,
    /// Remove up to X AP from a model hit.
    Stun(u8),
    /// Uses a template instead of a target model.
    Template(TemplateKind),
}

/// The three weapon templates (p.51).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TemplateKind {
    /// Teardrop, placed touching the firer.
    Teardrop,
    /// Small blast.
    Small,
    /// Large blast.
    Large,
}

/// A weapon on a profile card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weapon {
    /// Display name, e.g. "Recurve".
    pub name: String,
    /// Pass and "Nailed It" ranges in inches; `None` for close-combat weapons.
    pub range: Option<(u8, u8)>,
    /// Standard and superior damage.
    pub damage: (u8, u8),
    /// Special properties.
    pub properties: Vec<WeaponProperty>,
}

impl Weapon {
    /// Whether this weapon shoots (has a range).
    pub fn is_ranged(&self) -> bool {
        self.range.is_some()
    }

    /// The value X of `Pierce(X)`, 0 if absent.
    pub fn pierce(&self) -> u8 {
        self.properties.iter().find_map(|p| match p { WeaponProperty::Pierce(x) => Some(*x), _ => None }).unwrap_or(0)
    }

    /// The value X of `Sunder(X)`, 0 if absent.
    pub fn sunder(&self) -> u8 {
        self.properties.iter().find_map(|p| match p { WeaponProperty::Sunder(x) => Some(*x), _ => None }).unwrap_or(0)
    }
}

/// One profile card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Stable identifier used by crew and setup files, e.g. "nix".
    pub id: String,
    /// Display name.
    pub name: String,
    /// Model type.
    pub model_type: ModelType,
    /// Role.
    pub role: Role,
    /// Faction name, e.g. "Artifacters"; "Neutral" for wayfarers and beasts.
    pub faction: String,
    /// Copies allowed in one crew.
    pub frequency: u8,
    /// Points cost.
    pub points: u16,
    /// AP gained each turn.
    pub ap_gain: u8,
    /// Maximum AP held.
    pub ap_max: u8,
    /// Pass and "Nailed It" speeds in inches.
    pub speed: (u8, u8),
    /// Starting wounds.
    pub wounds: u8,
    /// Close Combat.
    pub cc: u8,
    /// Agility.
    pub agility: u8,
    /// Marksmanship.
    pub marksmanship: u8,
    /// Intelligence.
    pub intelligence: u8,
    /// Toughness.
    pub toughness: u8,
    /// Worn armour: +X toughness in armour rolls.
    pub armour: u8,
    /// Skill names as printed on the card.
    pub skills: Vec<String>,
    /// Line-of-sight template letter.
    pub los_template: LosTemplate,
    /// Base diameter in millimetres (every base occupies one 1" cell on the grid).
    pub base_mm: u8,
    /// Weapons carried; ranged and close-combat.
    pub weapons: Vec<Weapon>,
}

/// All profiles known to a game, by id. Shared behind `Arc`.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    profiles: Vec<Arc<Profile>>,
}

impl Catalog {
    /// Build a catalog from profiles; ids must be unique (the loader checks and reports).
    pub fn new(profiles: Vec<Profile>) -> Catalog {
        let mut profiles: Vec<Arc<Profile>> = profiles.into_iter().map(Arc::new).collect();
        profiles.sort_by(|a, b| a.id.cmp(&b.id));
        Catalog { profiles }
    }

    /// The profile with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<Profile>> {
        self.profiles.binary_search_by(|p| p.id.as_str().cmp(id)).ok().map(|i| &self.profiles[i])
    }

    /// Every profile, sorted by id.
    pub fn profiles(&self) -> &[Arc<Profile>] {
        &self.profiles
    }
}
