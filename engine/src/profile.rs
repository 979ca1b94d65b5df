//! Model profiles and weapons (rulebook "Model Profiles", p.12, and "Weapon Rules", p.50),
//! loaded from TOML files under `configs/factions/`.
//!
//! The rulebook text holds no official profile cards: the shipped data is illustrative and
//! marked as such. Users add their own cards by writing a TOML file in the same format.

use crate::board::LosTemplate;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

mod load;

pub use load::{check_profiles, load_catalog, parse_profiles};

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

impl WeaponProperty {
    /// The property's name as printed in the Weapon Properties table, without its value.
    pub fn name(&self) -> &'static str {
        match self {
            WeaponProperty::Armour(_) => "Armour",
            WeaponProperty::Blind => "Blind",
            WeaponProperty::Choke => "Choke",
            WeaponProperty::Deviate(_) => "Deviate",
            WeaponProperty::Finite => "Finite",
            WeaponProperty::Fire(_) => "Fire",
            WeaponProperty::Knockdown => "Knockdown",
            WeaponProperty::Natural => "Natural",
            WeaponProperty::Pierce(_) => "Pierce",
            WeaponProperty::Primitive => "Primitive",
            WeaponProperty::Reach(_) => "Reach",
            WeaponProperty::Sunder(_) => "Sunder",
            WeaponProperty::Scarce(_) => "Scarce",
            WeaponProperty::Slow(_, _) => "Slow",
            WeaponProperty::Smoke => "Smoke",
            WeaponProperty::Sneaky(_) => "Sneaky",
            WeaponProperty::Spray => "Spray",
            WeaponProperty::Stun(_) => "Stun",
            WeaponProperty::Template(_) => "Template",
        }
    }
}

/// Every property name accepted in profile files, in table order (p.53).
pub const WEAPON_PROPERTY_NAMES: [&str; 19] = [
    "Armour(X)",
    "Blind",
    "Choke",
    "Deviate(X)",
    "Finite",
    "Fire(X)",
    "Knockdown",
    "Natural",
    "Pierce(X)",
    "Primitive",
    "Reach(X)",
    "Sunder(X)",
    "Scarce(X)",
    "Slow(X/Y)",
    "Smoke",
    "Sneaky(X)",
    "Spray",
    "Stun(X)",
    "Template(Teardrop|Small|Large)",
];

/// Writes the property as printed on a card: `Pierce(1)`, `Slow(1/1)`, `Template(Small)`, `Spray`.
impl fmt::Display for WeaponProperty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            WeaponProperty::Armour(x)
            | WeaponProperty::Deviate(x)
            | WeaponProperty::Fire(x)
            | WeaponProperty::Pierce(x)
            | WeaponProperty::Reach(x)
            | WeaponProperty::Sunder(x)
            | WeaponProperty::Scarce(x)
            | WeaponProperty::Sneaky(x)
            | WeaponProperty::Stun(x) => write!(f, "{name}({x})"),
            WeaponProperty::Slow(x, y) => write!(f, "{name}({x}/{y})"),
            WeaponProperty::Template(kind) => write!(f, "{name}({kind})"),
            _ => f.write_str(name),
        }
    }
}

/// Parses a property as printed on a card (case-insensitive name, optional spaces):
/// `"Pierce(1)"`, `"Slow(1/1)"`, `"Template(Small)"`, `"Spray"`. `Armor` is accepted for
/// `Armour`. Values must be 1..=10. The error is a human-readable reason.
impl FromStr for WeaponProperty {
    type Err = String;

    fn from_str(s: &str) -> Result<WeaponProperty, String> {
        let text = s.trim();
        let (name, arg) = match text.find('(') {
            Some(open) => {
                let Some(inner) = text[open + 1..].strip_suffix(')') else {
                    return Err(format!("\"{text}\": missing closing ')'"));
                };
                (text[..open].trim(), Some(inner.trim()))
            }
            None => (text, None),
        };
        let lower = name.to_ascii_lowercase();
        let number = |arg: Option<&str>| -> Result<u8, String> {
            let Some(a) = arg else {
                return Err(format!("\"{text}\": {name} needs a value, e.g. \"{name}(1)\""));
            };
            match a.parse::<u8>() {
                Ok(x) if (1..=10).contains(&x) => Ok(x),
                _ => {
                    Err(format!("\"{text}\": the value of {name} must be a whole number 1..=10, got \"{a}\""))
                }
            }
        };
        let flag = |arg: Option<&str>, p: WeaponProperty| -> Result<WeaponProperty, String> {
            match arg {
                None => Ok(p),
                Some(_) => Err(format!("\"{text}\": {name} takes no value")),
            }
        };
        match lower.as_str() {
            "armour" | "armor" => number(arg).map(WeaponProperty::Armour),
            "blind" => flag(arg, WeaponProperty::Blind),
            "choke" => flag(arg, WeaponProperty::Choke),
            "deviate" => number(arg).map(WeaponProperty::Deviate),
            "finite" => flag(arg, WeaponProperty::Finite),
            "fire" => number(arg).map(WeaponProperty::Fire),
            "knockdown" => flag(arg, WeaponProperty::Knockdown),
            "natural" => flag(arg, WeaponProperty::Natural),
            "pierce" => number(arg).map(WeaponProperty::Pierce),
            "primitive" => flag(arg, WeaponProperty::Primitive),
            "reach" => number(arg).map(WeaponProperty::Reach),
            "sunder" => number(arg).map(WeaponProperty::Sunder),
            "scarce" => number(arg).map(WeaponProperty::Scarce),
            "slow" => {
                let pair = arg.and_then(|a| a.split_once('/')).and_then(|(x, y)| {
                    let x = x.trim().parse::<u8>().ok()?;
                    let y = y.trim().parse::<u8>().ok()?;
                    ((1..=10).contains(&x) && (1..=10).contains(&y)).then_some((x, y))
                });
                match pair {
                    Some((x, y)) => Ok(WeaponProperty::Slow(x, y)),
                    None => Err(format!("\"{text}\": Slow needs two values 1..=10, e.g. \"Slow(1/1)\"")),
                }
            }
            "smoke" => flag(arg, WeaponProperty::Smoke),
            "sneaky" => number(arg).map(WeaponProperty::Sneaky),
            "spray" => flag(arg, WeaponProperty::Spray),
            "stun" => number(arg).map(WeaponProperty::Stun),
            "template" => match arg.map(str::to_ascii_lowercase).as_deref() {
                Some("teardrop") => Ok(WeaponProperty::Template(TemplateKind::Teardrop)),
                Some("small") => Ok(WeaponProperty::Template(TemplateKind::Small)),
                Some("large") => Ok(WeaponProperty::Template(TemplateKind::Large)),
                _ => Err(format!(
                    "\"{text}\": Template needs Teardrop, Small or Large, e.g. \"Template(Small)\""
                )),
            },
            _ => Err(format!(
                "unknown weapon property \"{text}\"; known: {}",
                WEAPON_PROPERTY_NAMES.join(", ")
            )),
        }
    }
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

/// Writes `Teardrop`, `Small` or `Large`.
impl fmt::Display for TemplateKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TemplateKind::Teardrop => "Teardrop",
            TemplateKind::Small => "Small",
            TemplateKind::Large => "Large",
        })
    }
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

    /// The X of the first property that `pick` recognises.
    fn value(&self, pick: impl Fn(&WeaponProperty) -> Option<u8>) -> Option<u8> {
        self.properties.iter().find_map(pick)
    }

    /// Whether the weapon has `property` (for properties without a value).
    pub fn has(&self, property: WeaponProperty) -> bool {
        self.properties.contains(&property)
    }

    /// The value X of `Pierce(X)`, 0 if absent.
    pub fn pierce(&self) -> u8 {
        self.value(|p| if let WeaponProperty::Pierce(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    /// The value X of `Sunder(X)`, 0 if absent.
    pub fn sunder(&self) -> u8 {
        self.value(|p| if let WeaponProperty::Sunder(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    /// Uses per game of a `Scarce(X)` weapon.
    pub fn scarce(&self) -> Option<u8> {
        self.value(|p| if let WeaponProperty::Scarce(x) = p { Some(*x) } else { None })
    }

    /// Reach in inches of a `Reach(X)` close-combat weapon.
    pub fn reach(&self) -> Option<u8> {
        self.value(|p| if let WeaponProperty::Reach(x) = p { Some(*x) } else { None })
    }

    /// AP removed by a hit of a `Stun(X)` weapon, 0 if absent.
    pub fn stun(&self) -> u8 {
        self.value(|p| if let WeaponProperty::Stun(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    /// Fire tokens placed by a hit of a `Fire(X)` weapon, 0 if absent.
    pub fn fire(&self) -> u8 {
        self.value(|p| if let WeaponProperty::Fire(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    /// Speed penalty (pass, nailed it) of a `Slow(X/X)` weapon.
    pub fn slow(&self) -> Option<(u8, u8)> {
        self.properties.iter().find_map(|p| {
            if let WeaponProperty::Slow(a, b) = p {
                Some((*a, *b))
            } else {
                None
            }
        })
    }

    /// The value X of `Armour(X)`, 0 if absent.
    pub fn armour(&self) -> u8 {
        self.value(|p| if let WeaponProperty::Armour(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }
}

/// The skills the engine implements, as profile files write them (matched without regard to
/// case): Camouflage (−1 to shoot the model, p.14) and Stealth (pp.48-49).
pub const SKILLS: [&str; 2] = ["Camouflage", "Stealth"];

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
    /// For a cavalry model: the rider's and the mount's profile ids (p.58). The cavalry
    /// card's own wounds, toughness and armour are the rider's; the mount's come from its
    /// profile. When the two separate, these are the models they become.
    #[serde(default)]
    pub cavalry: Option<(String, String)>,
}

impl Profile {
    /// Whether the model deploys by Infiltrate (the Scout's ability, p.47): the hook the
    /// scenarios' infiltration tables use.
    pub fn infiltrates(&self) -> bool {
        self.role == Role::Scout
    }

    /// Armour in armour rolls: worn armour plus every carried item's Armour(X) (a shield
    /// protects whoever carries it, p.53).
    pub fn total_armour(&self) -> u8 {
        self.weapons.iter().fold(self.armour, |a, w| a.saturating_add(w.armour()))
    }
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
