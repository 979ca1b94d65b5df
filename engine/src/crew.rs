//! Crew lists (rulebook "Force Organisation", p.74), read from `configs/crews/*.toml`.
//!
//! A crew file names the crew, its faction, the agreed game size in points and the profile
//! ids of its models (repeats allowed):
//!
//! ```toml
//! name = "Artifacters starter"
//! faction = "Artifacters"
//! points = 100
//! models = ["artifacter_captain", "nix", "slethssk", "artifacter_medic", "artifacter_delver"]
//! ```
//!
//! [`load_crew`] checks that every id is in the catalog, that each model is of the crew's
//! faction or faction-neutral, that the models cost no more than the agreed points, and that
//! there is exactly one Leader. Frequency and Wayfarer limits come with the full
//! crew-building rules.

use crate::data::{parse_toml_table, read_file, serde_error, DataError};
use crate::profile::{Catalog, Profile, Role};
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// Faction name of faction-neutral models (Wayfarers and Beasts), which any crew may take.
pub const NEUTRAL_FACTION: &str = "Neutral";

/// A crew list as written in a crew file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrewList {
    /// Display name of the crew.
    pub name: String,
    /// The crew's faction, e.g. "Artifacters".
    pub faction: String,
    /// The agreed game size in points; the models cost at most this much.
    pub points: u16,
    /// Profile ids of the models, in file order; repeats allowed.
    pub models: Vec<String>,
    /// Ids of its leader ability card and effect cards (checked by
    /// [`crate::cards::check_crew_cards`]).
    pub cards: Vec<String>,
}

impl CrewList {
    /// Total points cost of the models (ids missing from the catalog count 0).
    pub fn total_points(&self, catalog: &Catalog) -> u32 {
        self.models.iter().filter_map(|id| catalog.get(id)).map(|p| u32::from(p.points)).sum()
    }

    /// The models' profiles, in list order (ids missing from the catalog are skipped).
    pub fn profiles(&self, catalog: &Catalog) -> Vec<Arc<Profile>> {
        self.models.iter().filter_map(|id| catalog.get(id).cloned()).collect()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrew {
    name: String,
    faction: String,
    points: i64,
    models: Vec<String>,
    #[serde(default)]
    cards: Vec<String>,
}

/// Reads and checks a crew file against `catalog`.
pub fn load_crew(path: &Path, catalog: &Catalog) -> Result<CrewList, DataError> {
    let text = read_file(path)?;
    parse_crew(&text, &path.display().to_string(), catalog)
}

/// Parses and checks the text of a crew file; `file` names it in errors.
pub fn parse_crew(text: &str, file: &str, catalog: &Catalog) -> Result<CrewList, DataError> {
    let err = |field: &str, reason: String| DataError::new(file, field, reason);
    let table = parse_toml_table(text, file)?;
    let raw = RawCrew::deserialize(toml::Value::Table(table)).map_err(|e| serde_error(file, "", &e))?;
    if raw.name.trim().is_empty() {
        return Err(err("name", "must not be empty".into()));
    }
    let faction = raw.faction.trim().to_string();
    if !catalog.profiles().iter().any(|p| p.faction == faction) {
        let mut known: Vec<&str> =
            catalog.profiles().iter().map(|p| p.faction.as_str()).filter(|f| *f != NEUTRAL_FACTION).collect();
        known.sort_unstable();
        known.dedup();
        return Err(err(
            "faction",
            format!("no profile in the catalog has faction \"{faction}\"; known: {}", known.join(", ")),
        ));
    }
    if raw.points < 1 || raw.points > i64::from(u16::MAX) {
        return Err(err(
            "points",
            format!("the agreed game size must be 1..={}, got {}", u16::MAX, raw.points),
        ));
    }
    let points = raw.points as u16;
    if raw.models.is_empty() {
        return Err(err("models", "the crew has no models".into()));
    }
    let mut total: u32 = 0;
    let mut leaders: Vec<&str> = Vec::new();
    for (i, id) in raw.models.iter().enumerate() {
        let field = format!("models[{i}]");
        let Some(profile) = catalog.get(id) else {
            return Err(err(&field, format!("unknown profile id \"{id}\"")));
        };
        if profile.faction != faction && profile.faction != NEUTRAL_FACTION {
            return Err(err(
                &field,
                format!("\"{id}\" belongs to {}, not {faction} (only {faction} and {NEUTRAL_FACTION} models may join)", profile.faction),
            ));
        }
        total += u32::from(profile.points);
        if profile.role == Role::Leader {
            leaders.push(id);
        }
    }
    if total > u32::from(points) {
        return Err(err("points", format!("the models cost {total} points, more than the agreed {points}")));
    }
    match leaders.len() {
        1 => {}
        0 => {
            return Err(err(
                "models",
                "the crew has no Leader; it must have exactly one (Force Organisation, p.74)".into(),
            ))
        }
        n => {
            return Err(err(
                "models",
                format!(
                    "the crew has {n} Leaders ({}); it must have exactly one (Force Organisation, p.74)",
                    leaders.join(", ")
                ),
            ))
        }
    }
    Ok(CrewList { name: raw.name.trim().to_string(), faction, points, models: raw.models, cards: raw.cards })
}
