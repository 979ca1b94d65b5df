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

use crate::cards::{Card, CardCatalog, CardKind};
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
    /// [`check_crew_cards`]).
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

/// Parses and checks the text of a crew file; `file` names it in errors. The first rule the
/// crew breaks is the error; [`check_crew`] lists them all.
pub fn parse_crew(text: &str, file: &str, catalog: &Catalog) -> Result<CrewList, DataError> {
    let crew = parse_crew_unchecked(text, file)?;
    match check_crew(&crew, catalog, None).violations.into_iter().next() {
        Some(v) => Err(DataError::new(file, v.field, v.rule)),
        None => Ok(crew),
    }
}

/// Parses a crew file's structure only (names, numbers, lists), without the crew rules.
pub fn parse_crew_unchecked(text: &str, file: &str) -> Result<CrewList, DataError> {
    let err = |field: &str, reason: String| DataError::new(file, field, reason);
    let table = parse_toml_table(text, file)?;
    let raw = RawCrew::deserialize(toml::Value::Table(table)).map_err(|e| serde_error(file, "", &e))?;
    if raw.name.trim().is_empty() {
        return Err(err("name", "must not be empty".into()));
    }
    if raw.points < 1 || raw.points > i64::from(u16::MAX) {
        return Err(err(
            "points",
            format!("the agreed game size must be 1..={}, got {}", u16::MAX, raw.points),
        ));
    }
    Ok(CrewList {
        name: raw.name.trim().to_string(),
        faction: raw.faction.trim().to_string(),
        points: raw.points as u16,
        models: raw.models,
        cards: raw.cards,
    })
}

/// One crew-building rule a crew breaks: the field and the rule, in words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    /// The field of the crew file, e.g. `models[3]`.
    pub field: String,
    /// What is wrong, with the rule and its page.
    pub rule: String,
}

/// The verdict on a crew: its cost and every rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CrewReport {
    /// Points of the models and the effect cards.
    pub points: u32,
    /// The agreed game size.
    pub limit: u16,
    /// Every rule broken; empty for a legal crew.
    pub violations: Vec<Violation>,
}

/// Every Force Organisation rule (p.74) a crew breaks: known faction and profiles, faction or
/// neutral models only, points (models and effect cards) within the game size, exactly one
/// leader, model frequencies, one version of a character (a cavalry version and its rider are
/// one character), wayfarer limits in a non-wayfarer crew (1 per 100 points, 2 per 125, 3 per
/// 150), and, given the card catalog, the card rules.
pub fn check_crew(crew: &CrewList, catalog: &Catalog, cards: Option<&CardCatalog>) -> CrewReport {
    let mut v = Vec::new();
    let mut bad = |field: String, rule: String| v.push(Violation { field, rule });
    let faction = crew.faction.as_str();
    if !catalog.profiles().iter().any(|p| p.faction == faction) {
        bad("faction".into(), format!("no profile in the catalog has faction \"{faction}\""));
    }
    if crew.models.is_empty() {
        bad("models".into(), "the crew has no models".into());
    }
    let mut total: u32 = 0;
    let mut leaders = Vec::new();
    let mut counts: Vec<(&str, u32)> = Vec::new();
    let mut characters: Vec<(String, usize)> = Vec::new();
    let mut wayfarers = 0u32;
    for (i, id) in crew.models.iter().enumerate() {
        let field = format!("models[{i}]");
        let Some(p) = catalog.get(id) else {
            bad(field, format!("unknown profile id \"{id}\""));
            continue;
        };
        if p.faction != faction && p.faction != NEUTRAL_FACTION {
            bad(field.clone(), format!("\"{id}\" belongs to {}, not {faction}: only {faction} and {NEUTRAL_FACTION} models may join (p.74)", p.faction));
        }
        total += u32::from(p.points);
        if p.role == Role::Leader {
            leaders.push(id.as_str());
        }
        match counts.iter_mut().find(|(c, _)| *c == id.as_str()) {
            Some((_, n)) => *n += 1,
            None => counts.push((id.as_str(), 1)),
        }
        let character = p.cavalry.as_ref().map_or(id.clone(), |(rider, _)| rider.clone());
        if p.model_type != crate::profile::ModelType::Troop
            && p.model_type != crate::profile::ModelType::Beast
        {
            if let Some((_, first)) = characters.iter().find(|(c, _)| *c == character) {
                // The same card again is a matter of frequency, checked below.
                if crew.models[*first] != *id {
                    bad(field.clone(), format!("\"{id}\" is another version of models[{first}]: only one version of a character may be taken (p.74)"));
                }
            } else {
                characters.push((character, i));
            }
        }
        if p.faction == NEUTRAL_FACTION
            && p.model_type != crate::profile::ModelType::Beast
            && faction != NEUTRAL_FACTION
        {
            wayfarers += 1;
        }
    }
    for (id, n) in &counts {
        if let Some(p) = catalog.get(id) {
            if *n > u32::from(p.frequency) {
                bad("models".into(), format!("{n} \"{id}\", but its frequency is {} (p.74)", p.frequency));
            }
        }
    }
    let allowed_wayfarers = match crew.points {
        0..=124 => 1,
        125..=149 => 2,
        _ => 3,
    };
    if wayfarers > allowed_wayfarers {
        bad(
            "models".into(),
            format!(
                "{wayfarers} wayfarers; a {}-point crew may take {allowed_wayfarers} (p.74)",
                crew.points
            ),
        );
    }
    match leaders.len() {
        1 => {}
        0 => bad("models".into(), "the crew has no Leader; it must have exactly one (p.74)".into()),
        n => bad(
            "models".into(),
            format!("the crew has {n} Leaders ({}); it must have exactly one (p.74)", leaders.join(", ")),
        ),
    }
    if let Some(catalog) = cards {
        match check_crew_cards("", crew, catalog) {
            Ok(taken) => {
                total += taken
                    .iter()
                    .filter(|c| c.kind == CardKind::Effect)
                    .map(|c| u32::from(c.points))
                    .sum::<u32>();
            }
            Err(e) => bad(e.field, e.reason),
        }
    }
    if total > u32::from(crew.points) {
        bad(
            "points".into(),
            format!("the crew costs {total} points, more than the agreed {} (p.74)", crew.points),
        );
    }
    CrewReport { points: total, limit: crew.points, violations: v }
}

/// The cards of a crew, checked against p.74: every id known, no card twice, at most 10 points
/// of effect cards, and at most one leader ability card, of the crew's faction. `file` names
/// the crew file in errors.
pub fn check_crew_cards(
    file: &str,
    crew: &CrewList,
    catalog: &CardCatalog,
) -> Result<Vec<Arc<Card>>, DataError> {
    let mut out: Vec<Arc<Card>> = Vec::new();
    for (i, id) in crew.cards.iter().enumerate() {
        let field = format!("cards[{i}]");
        let card = catalog
            .get(id)
            .ok_or_else(|| DataError::new(file, &field, format!("no card with id \"{id}\"")))?;
        if out.iter().any(|c| c.id == card.id) {
            return Err(DataError::new(file, &field, format!("card \"{id}\" is taken twice")));
        }
        if card.kind == CardKind::LeaderAbility {
            if card.faction != crew.faction {
                return Err(DataError::new(
                    file,
                    &field,
                    format!("leader ability card \"{id}\" is not of the {} faction", crew.faction),
                ));
            }
            if out.iter().any(|c| c.kind == CardKind::LeaderAbility) {
                return Err(DataError::new(file, &field, "a crew takes at most one leader ability card"));
            }
        }
        out.push(card.clone());
    }
    let effect_points: u16 = out.iter().filter(|c| c.kind == CardKind::Effect).map(|c| c.points).sum();
    if effect_points > 10 {
        return Err(DataError::new(
            file,
            "cards",
            format!("{effect_points} points of effect cards; at most 10"),
        ));
    }
    Ok(out)
}

/// Board size for a game of `points` (p.74): 3'x3' up to 150 points, 3'x4' above (columns, rows;
/// deployment on the long edges).
pub fn board_size(points: u16) -> (u8, u8) {
    if points <= 150 {
        (36, 36)
    } else {
        (48, 36)
    }
}
