//! The Ulaya Chronicles data the card AI runs on, read from `configs/uc/` (seed 003: "Enemy
//! phase", "Movement (enemy)", "Ambush markers", "Spawning"). The texts hold no card or
//! profile texts, so the shipped files are illustrative, marked so, and meant to be replaced:
//!
//! - `enemies.toml`: `[[profile]]` TDE cards of the AI models (the same format as
//!   `configs/factions/`), and an `[[enemy]]` entry per AI model with the UC fields — the
//!   action deck it draws from, its movement reaction range and reaction, how it answers being
//!   shot (shoot back or dodge), its noise and ambush reactions, and the elite symbol;
//! - `decks.toml`: action decks of cards made of boxes (move up to N" towards a target symbol,
//!   then act) with an optional elite effect;
//! - `spawn.toml`: spawn tables (an enemy for every D10 face) and ambush marker kinds.
//!
//! Every value is checked and cross-referenced; an error names the file, the field and why.

use crate::data::{parse_toml_table, read_file, serde_error, DataError};
use crate::profile::{parse_profiles, Catalog, Profile};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// What an action box moves towards (the card's target symbol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetSymbol {
    /// A position from which the model can shoot a player's model.
    Shoot,
    /// A position from which the model can make a close-combat attack.
    CloseCombat,
    /// A position seen by as few players' models as possible.
    BreakLos,
    /// A position in cover from the nearest players' model, then from as many others as possible.
    Cover,
}

/// What an action box does after its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxAct {
    /// Shoot the nearest target in range and sight.
    Shoot,
    /// Close combat with a model in reach.
    CloseCombat,
    /// Nothing: the box is a move only.
    Nothing,
}

/// One box of an action card: move up to `inches` towards `target`, then `act`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionBox {
    /// Most inches moved.
    pub inches: u8,
    /// The target symbol.
    pub target: TargetSymbol,
    /// The act after the move.
    pub act: BoxAct,
    /// The colour of its movement symbol: how it crosses terrain that needs a test.
    pub colour: MoveColour,
}

/// The colour of a box's movement symbol (seed 003, Conversion, "Terrain and dynamic
/// movement"). Red ("may move over and ignore terrain features") is not supported: the data
/// loader refuses it by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveColour {
    /// An Agility test with the enemy die: pass or frenzy goes the full move (frenzy resolves
    /// the box again), a fail as the TDE rules say.
    #[default]
    Green,
    /// No test: the full move, as though it nailed it.
    Amber,
    /// Over the terrain as though it were open ground: no climbing, leaping, swimming or
    /// test, and impassable ground passed over (but not ended on).
    Red,
}

/// The extra effect of a card's elite symbol, resolved only for elite models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EliteEffect {
    /// +N damage to the card's attacks.
    Damage(u8),
    /// Heal N wounds at the end of the card.
    Heal(u8),
    /// +N inches to every move of the card.
    Move(u8),
}

/// An action card.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActionCard {
    /// Display name.
    pub name: String,
    /// Boxes, resolved in order.
    pub boxes: Vec<ActionBox>,
    /// Elite effect, if the card shows the elite symbol.
    pub elite: Option<EliteEffect>,
}

/// An action deck.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    /// Stable id.
    pub id: String,
    /// The cards.
    pub cards: Vec<ActionCard>,
}

/// How an AI model answers a trigger (a player's move in its reaction range, a noise, an
/// ambush marker turning into it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnemyReaction {
    /// Move towards the trigger and attack it in close combat if it reaches.
    Charge,
    /// Shoot the trigger's model.
    Shoot,
    /// Move towards the trigger (a noise) without attacking.
    Investigate,
    /// No reaction.
    Ignore,
}

/// How an AI model answers being shot (UC "Shoot (player)").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhenShot {
    /// Shoots back with its marksmanship (needs a ranged weapon).
    ShootBack,
    /// Dodges with its agility.
    Dodge,
}

/// An AI model: its TDE card and its UC behaviour.
#[derive(Clone, Debug, PartialEq)]
pub struct EnemyProfile {
    /// Stable id (the TDE card's id).
    pub id: String,
    /// The TDE card: attributes, weapons, base.
    pub profile: Arc<Profile>,
    /// Shows the elite symbol.
    pub elite: bool,
    /// The deck it draws action cards from.
    pub deck: String,
    /// Players' models entering this range (inches) trigger its movement reaction.
    pub reaction_range: u8,
    /// Its movement reaction.
    pub movement_reaction: EnemyReaction,
    /// How it answers being shot.
    pub when_shot: WhenShot,
    /// Its noise reaction.
    pub noise_reaction: EnemyReaction,
    /// Its ambush reaction, when an ambush marker turns into it.
    pub ambush_reaction: EnemyReaction,
}

/// A spawn table: the enemy for each D10 face.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpawnTable {
    /// Stable id.
    pub id: String,
    /// Enemy ids for faces 1..=10.
    pub faces: [String; 10],
}

/// What flips or triggers an ambush marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkerTrigger {
    /// A noise within 12".
    Noise,
    /// A players' model moving within the marker's range.
    Movement,
    /// A players' model shooting within the marker's range.
    Shooting,
}

/// A kind of ambush marker.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarkerKind {
    /// Stable id.
    pub id: String,
    /// Range (inches) of its movement and shooting triggers.
    pub range: u8,
    /// Triggers that flip its passive side to active.
    pub flips_on: Vec<MarkerTrigger>,
    /// Triggers that make its active side spawn.
    pub springs_on: Vec<MarkerTrigger>,
    /// The spawn table it rolls on.
    pub spawn_table: String,
}

/// Everything the card AI needs.
#[derive(Clone, Debug)]
pub struct UcData {
    /// The AI models' TDE cards.
    pub catalog: Catalog,
    /// The AI models, sorted by id.
    pub enemies: Vec<EnemyProfile>,
    /// Action decks, sorted by id.
    pub decks: Vec<Deck>,
    /// Spawn tables, sorted by id.
    pub spawn_tables: Vec<SpawnTable>,
    /// Ambush marker kinds, sorted by id.
    pub markers: Vec<MarkerKind>,
    /// The files it was read from, kept so that a saved game can carry them.
    pub sources: UcSources,
}

/// The three UC data files, by name and text: what [`parse_uc`] reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UcSources {
    /// The AI models (`enemies.toml`): (file name, text).
    pub enemies: (String, String),
    /// The action decks (`decks.toml`).
    pub decks: (String, String),
    /// The spawn tables and ambush markers (`spawn.toml`).
    pub spawn: (String, String),
}

impl UcData {
    /// The AI model with this id.
    pub fn enemy(&self, id: &str) -> Option<&EnemyProfile> {
        self.enemies.iter().find(|e| e.id == id)
    }

    /// The deck with this id.
    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.decks.iter().find(|d| d.id == id)
    }

    /// The spawn table with this id.
    pub fn spawn_table(&self, id: &str) -> Option<&SpawnTable> {
        self.spawn_tables.iter().find(|t| t.id == id)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnemy {
    id: String,
    #[serde(default)]
    elite: bool,
    deck: String,
    reaction_range: i64,
    movement_reaction: String,
    when_shot: String,
    noise_reaction: String,
    ambush_reaction: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    id: String,
    card: Vec<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    name: String,
    #[serde(rename = "box")]
    boxes: Vec<toml::Value>,
    #[serde(default)]
    elite: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBox {
    #[serde(rename = "move")]
    inches: i64,
    target: String,
    act: String,
    colour: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    id: String,
    faces: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMarker {
    id: String,
    range: i64,
    flips_on: Vec<String>,
    springs_on: Vec<String>,
    spawn_table: String,
}

/// One file's errors.
struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> DataError {
        DataError::new(self.file, field, reason)
    }

    /// Deserialize the entry `value` at `label`.
    fn entry<T: for<'de> Deserialize<'de>>(&self, label: &str, value: toml::Value) -> Result<T, DataError> {
        if !value.is_table() {
            return Err(self.err(label, "expected a table"));
        }
        T::deserialize(value).map_err(|e| serde_error(self.file, label, &e))
    }

    fn id(&self, field: String, id: &str) -> Result<String, DataError> {
        let ok = !id.is_empty()
            && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        if !ok {
            return Err(self.err(
                field,
                format!("\"{id}\" is not a valid id: use lowercase letters, digits, '_' or '-'"),
            ));
        }
        Ok(id.to_string())
    }

    fn inches(&self, field: String, value: i64) -> Result<u8, DataError> {
        if !(0..=48).contains(&value) {
            return Err(self.err(field, format!("must be 0..=48 inches, got {value}")));
        }
        Ok(value as u8)
    }

    /// One word of `choices` (case-insensitive).
    fn pick<T: Copy>(&self, field: String, word: &str, choices: &[(&str, T)]) -> Result<T, DataError> {
        let w = word.trim().to_ascii_lowercase();
        choices.iter().find(|(name, _)| *name == w).map(|&(_, v)| v).ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            self.err(field, format!("unknown value \"{word}\"; expected one of {}", names.join(", ")))
        })
    }
}

const REACTIONS: [(&str, EnemyReaction); 4] = [
    ("charge", EnemyReaction::Charge),
    ("shoot", EnemyReaction::Shoot),
    ("investigate", EnemyReaction::Investigate),
    ("ignore", EnemyReaction::Ignore),
];

const TRIGGERS: [(&str, MarkerTrigger); 3] = [
    ("noise", MarkerTrigger::Noise),
    ("movement", MarkerTrigger::Movement),
    ("shooting", MarkerTrigger::Shooting),
];

/// Split the `key` array of tables out of a file's table.
fn take_array(table: &mut toml::Table, key: &str, ctx: &Ctx) -> Result<Vec<toml::Value>, DataError> {
    match table.remove(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(items)) => Ok(items),
        Some(_) => Err(ctx.err(key, format!("expected an array of tables ([[{key}]])"))),
    }
}

/// Refuse keys other than `allowed` at the top of a file.
fn only_keys(table: &toml::Table, allowed: &[&str], ctx: &Ctx) -> Result<(), DataError> {
    match table.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(ctx.err(k.as_str(), format!("unknown key; expected {}", allowed.join(", ")))),
        None => Ok(()),
    }
}

/// Parse `enemies.toml`: the AI models' TDE cards and their UC fields.
pub fn parse_enemies(text: &str, file: &str) -> Result<(Vec<Profile>, Vec<EnemyProfile>), DataError> {
    let ctx = Ctx { file };
    let mut table = parse_toml_table(text, file)?;
    let raw_enemies = take_array(&mut table, "enemy", &ctx)?;
    only_keys(&table, &["illustrative", "faction", "profile"], &ctx)?;
    let cards_text = toml::to_string(&table).map_err(|e| ctx.err("(toml)", e.to_string()))?;
    let profiles = parse_profiles(&cards_text, file)?;
    let mut enemies: Vec<EnemyProfile> = Vec::new();
    for (i, value) in raw_enemies.into_iter().enumerate() {
        let label = format!("enemy[{i}]");
        let raw: RawEnemy = ctx.entry(&label, value)?;
        let f = |k: &str| format!("{label}.{k}");
        let id = ctx.id(f("id"), &raw.id)?;
        let profile = profiles
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| ctx.err(f("id"), format!("no [[profile]] with id \"{id}\" in this file")))?;
        if enemies.iter().any(|e| e.id == id) {
            return Err(ctx.err(f("id"), format!("duplicate enemy \"{id}\"")));
        }
        let when_shot = ctx.pick(
            f("when_shot"),
            &raw.when_shot,
            &[("shoot_back", WhenShot::ShootBack), ("dodge", WhenShot::Dodge)],
        )?;
        if when_shot == WhenShot::ShootBack && !profile.weapons.iter().any(|w| w.is_ranged()) {
            return Err(ctx.err(f("when_shot"), "shoot_back needs a ranged weapon on the profile; use dodge"));
        }
        enemies.push(EnemyProfile {
            id: id.clone(),
            profile: Arc::new(profile.clone()),
            elite: raw.elite,
            deck: ctx.id(f("deck"), &raw.deck)?,
            reaction_range: ctx.inches(f("reaction_range"), raw.reaction_range)?,
            movement_reaction: ctx.pick(f("movement_reaction"), &raw.movement_reaction, &REACTIONS)?,
            when_shot,
            noise_reaction: ctx.pick(f("noise_reaction"), &raw.noise_reaction, &REACTIONS)?,
            ambush_reaction: ctx.pick(f("ambush_reaction"), &raw.ambush_reaction, &REACTIONS)?,
        });
    }
    if let Some(p) = profiles.iter().find(|p| !enemies.iter().any(|e| e.id == p.id)) {
        return Err(ctx.err(format!("profile \"{}\"", p.id), "a card without an [[enemy]] entry"));
    }
    if enemies.is_empty() {
        return Err(ctx.err("enemy", "no [[enemy]] entries"));
    }
    Ok((profiles, enemies))
}

/// Parse an elite effect: `damage +N`, `heal N` or `move +N`.
fn elite_effect(ctx: &Ctx, field: String, text: &str) -> Result<EliteEffect, DataError> {
    let bad =
        || ctx.err(field.clone(), format!("\"{text}\" is not `damage +N`, `heal N` or `move +N` (N 1..=9)"));
    let (kind, n) = text.trim().split_once(' ').ok_or_else(bad)?;
    let n: u8 = n.trim().trim_start_matches('+').parse().map_err(|_| bad())?;
    if !(1..=9).contains(&n) {
        return Err(bad());
    }
    match kind.to_ascii_lowercase().as_str() {
        "damage" => Ok(EliteEffect::Damage(n)),
        "heal" => Ok(EliteEffect::Heal(n)),
        "move" => Ok(EliteEffect::Move(n)),
        _ => Err(bad()),
    }
}

/// Parse `decks.toml`.
pub fn parse_decks(text: &str, file: &str) -> Result<Vec<Deck>, DataError> {
    let ctx = Ctx { file };
    let mut table = parse_toml_table(text, file)?;
    let raw_decks = take_array(&mut table, "deck", &ctx)?;
    only_keys(&table, &["illustrative"], &ctx)?;
    let mut decks: Vec<Deck> = Vec::new();
    for (d, value) in raw_decks.into_iter().enumerate() {
        let label = format!("deck[{d}]");
        let raw: RawDeck = ctx.entry(&label, value)?;
        let id = ctx.id(format!("{label}.id"), &raw.id)?;
        if decks.iter().any(|x| x.id == id) {
            return Err(ctx.err(format!("{label}.id"), format!("duplicate deck \"{id}\"")));
        }
        if raw.card.is_empty() {
            return Err(ctx.err(format!("{label}.card"), "a deck needs at least one card"));
        }
        let mut cards = Vec::new();
        for (c, value) in raw.card.into_iter().enumerate() {
            let label = format!("{label}.card[{c}]");
            let raw: RawCard = ctx.entry(&label, value)?;
            if raw.name.trim().is_empty() {
                return Err(ctx.err(format!("{label}.name"), "must not be empty"));
            }
            if raw.boxes.is_empty() || raw.boxes.len() > 4 {
                return Err(ctx.err(format!("{label}.box"), "a card has 1 to 4 boxes"));
            }
            let mut boxes = Vec::new();
            for (b, value) in raw.boxes.into_iter().enumerate() {
                let label = format!("{label}.box[{b}]");
                let raw: RawBox = ctx.entry(&label, value)?;
                boxes.push(ActionBox {
                    inches: ctx.inches(format!("{label}.move"), raw.inches)?,
                    target: ctx.pick(
                        format!("{label}.target"),
                        &raw.target,
                        &[
                            ("shoot", TargetSymbol::Shoot),
                            ("close_combat", TargetSymbol::CloseCombat),
                            ("break_los", TargetSymbol::BreakLos),
                            ("cover", TargetSymbol::Cover),
                        ],
                    )?,
                    act: ctx.pick(
                        format!("{label}.act"),
                        &raw.act,
                        &[
                            ("shoot", BoxAct::Shoot),
                            ("close_combat", BoxAct::CloseCombat),
                            ("nothing", BoxAct::Nothing),
                        ],
                    )?,
                    colour: match raw.colour.as_deref() {
                        None => MoveColour::Green,
                        Some(c) => ctx.pick(
                            format!("{label}.colour"),
                            c,
                            &[
                                ("green", MoveColour::Green),
                                ("amber", MoveColour::Amber),
                                ("red", MoveColour::Red),
                            ],
                        )?,
                    },
                });
            }
            let elite =
                raw.elite.as_deref().map(|e| elite_effect(&ctx, format!("{label}.elite"), e)).transpose()?;
            cards.push(ActionCard { name: raw.name.trim().to_string(), boxes, elite });
        }
        decks.push(Deck { id, cards });
    }
    decks.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(decks)
}

/// Parse `spawn.toml`: spawn tables and ambush marker kinds.
pub fn parse_spawn(text: &str, file: &str) -> Result<(Vec<SpawnTable>, Vec<MarkerKind>), DataError> {
    let ctx = Ctx { file };
    let mut table = parse_toml_table(text, file)?;
    let raw_tables = take_array(&mut table, "table", &ctx)?;
    let raw_markers = take_array(&mut table, "marker", &ctx)?;
    only_keys(&table, &["illustrative"], &ctx)?;
    let mut tables: Vec<SpawnTable> = Vec::new();
    for (t, value) in raw_tables.into_iter().enumerate() {
        let label = format!("table[{t}]");
        let raw: RawTable = ctx.entry(&label, value)?;
        let id = ctx.id(format!("{label}.id"), &raw.id)?;
        if tables.iter().any(|x| x.id == id) {
            return Err(ctx.err(format!("{label}.id"), format!("duplicate spawn table \"{id}\"")));
        }
        let faces: [String; 10] = raw.faces.clone().try_into().map_err(|_| {
            ctx.err(
                format!("{label}.faces"),
                format!("needs an enemy for each of the 10 faces of a D10, got {}", raw.faces.len()),
            )
        })?;
        for (i, face) in faces.iter().enumerate() {
            ctx.id(format!("{label}.faces[{i}]"), face)?;
        }
        tables.push(SpawnTable { id, faces });
    }
    let mut markers: Vec<MarkerKind> = Vec::new();
    for (m, value) in raw_markers.into_iter().enumerate() {
        let label = format!("marker[{m}]");
        let raw: RawMarker = ctx.entry(&label, value)?;
        let id = ctx.id(format!("{label}.id"), &raw.id)?;
        if markers.iter().any(|x| x.id == id) {
            return Err(ctx.err(format!("{label}.id"), format!("duplicate marker kind \"{id}\"")));
        }
        let triggers = |key: &str, words: &[String]| -> Result<Vec<MarkerTrigger>, DataError> {
            words
                .iter()
                .enumerate()
                .map(|(i, w)| ctx.pick(format!("{label}.{key}[{i}]"), w, &TRIGGERS))
                .collect()
        };
        markers.push(MarkerKind {
            id,
            range: ctx.inches(format!("{label}.range"), raw.range)?,
            flips_on: triggers("flips_on", &raw.flips_on)?,
            springs_on: triggers("springs_on", &raw.springs_on)?,
            spawn_table: ctx.id(format!("{label}.spawn_table"), &raw.spawn_table)?,
        });
    }
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    markers.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((tables, markers))
}

/// Load and cross-check `dir/enemies.toml`, `dir/decks.toml` and `dir/spawn.toml`.
pub fn load_uc(dir: &Path) -> Result<UcData, DataError> {
    let read = |file: &str| -> Result<(String, String), DataError> {
        let path = dir.join(file);
        Ok((path.display().to_string(), read_file(&path)?))
    };
    parse_uc(UcSources {
        enemies: read("enemies.toml")?,
        decks: read("decks.toml")?,
        spawn: read("spawn.toml")?,
    })
}

/// Parse and cross-check the three UC files.
pub fn parse_uc(sources: UcSources) -> Result<UcData, DataError> {
    let name = |file: &str| match file {
        "enemies.toml" => sources.enemies.0.clone(),
        "decks.toml" => sources.decks.0.clone(),
        _ => sources.spawn.0.clone(),
    };
    let (profiles, mut enemies) = parse_enemies(&sources.enemies.1, &sources.enemies.0)?;
    let decks = parse_decks(&sources.decks.1, &sources.decks.0)?;
    let (spawn_tables, markers) = parse_spawn(&sources.spawn.1, &sources.spawn.0)?;
    for (i, e) in enemies.iter().enumerate() {
        if !decks.iter().any(|d| d.id == e.deck) {
            return Err(DataError::new(
                name("enemies.toml"),
                format!("enemy[{i}].deck"),
                format!("no deck \"{}\" in decks.toml", e.deck),
            ));
        }
    }
    for (t, table) in spawn_tables.iter().enumerate() {
        if let Some((i, face)) =
            table.faces.iter().enumerate().find(|(_, f)| !enemies.iter().any(|e| &e.id == *f))
        {
            return Err(DataError::new(
                name("spawn.toml"),
                format!("table[{t}].faces[{i}]"),
                format!("no enemy \"{face}\" in enemies.toml"),
            ));
        }
    }
    for (m, marker) in markers.iter().enumerate() {
        if !spawn_tables.iter().any(|t| t.id == marker.spawn_table) {
            return Err(DataError::new(
                name("spawn.toml"),
                format!("marker[{m}].spawn_table"),
                format!("no spawn table \"{}\"", marker.spawn_table),
            ));
        }
    }
    enemies.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(UcData { catalog: Catalog::new(profiles), enemies, decks, spawn_tables, markers, sources })
}

/// The shipped (or `$TDE_CONFIGS`) UC data: `configs/uc/`.
pub fn default_uc() -> Result<UcData, DataError> {
    load_uc(&crate::data::configs_dir().join("uc"))
}
