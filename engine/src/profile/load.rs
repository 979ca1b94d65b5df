//! Reading profile cards from TOML files (`configs/factions/*.toml`).
//!
//! Each file is a table with an optional `illustrative` flag, an optional file-wide default
//! `faction`, and an array of `[[profile]]` tables, each with `[[profile.weapon]]` entries.
//! See `configs/README.md` for the format. Raw structs deny unknown fields; the conversion
//! validates every value and reports the file, the field path and the reason.

use super::{Catalog, ModelType, Profile, Role, Weapon, WeaponProperty};
use crate::board::LosTemplate;
use crate::data::{parse_ap, parse_pair, parse_toml_table, read_file, serde_error, DataError};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    /// Marks shipped data that is not official; informational only.
    #[serde(default)]
    #[allow(dead_code)]
    illustrative: bool,
    /// Default faction for the profiles of this file.
    #[serde(default)]
    faction: Option<String>,
    #[serde(default)]
    profile: Vec<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    id: String,
    name: String,
    #[serde(rename = "type")]
    model_type: String,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    faction: Option<String>,
    #[serde(default = "one")]
    frequency: i64,
    points: i64,
    ap: String,
    speed: String,
    wounds: i64,
    cc: i64,
    #[serde(alias = "a")]
    agility: i64,
    #[serde(alias = "m")]
    marksmanship: i64,
    #[serde(alias = "i")]
    intelligence: i64,
    #[serde(alias = "t")]
    toughness: i64,
    #[serde(default)]
    armour: i64,
    #[serde(default)]
    skills: Vec<String>,
    los_template: String,
    base_mm: i64,
    #[serde(default)]
    weapon: Vec<toml::Value>,
    #[serde(default)]
    rider: Option<String>,
    #[serde(default)]
    mount: Option<String>,
}

fn one() -> i64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: String,
    #[serde(default)]
    range: Option<String>,
    damage: String,
    #[serde(default)]
    properties: Vec<String>,
}

/// Error builder for one file.
struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> DataError {
        DataError::new(self.file, field, reason)
    }

    fn int<T: TryFrom<i64>>(&self, field: String, value: i64, lo: i64, hi: i64) -> Result<T, DataError> {
        if value < lo || value > hi {
            return Err(self.err(field, format!("must be {lo}..={hi}, got {value}")));
        }
        T::try_from(value).map_err(|_| self.err(field, format!("must be {lo}..={hi}, got {value}")))
    }
}

/// Parses the text of one profile file. `file` names the file in errors. Ids are checked for
/// duplicates within the file only; [`load_catalog`] checks across files.
pub fn parse_profiles(text: &str, file: &str) -> Result<Vec<Profile>, DataError> {
    read_profiles(parse_toml_table(text, file)?, file)
}

/// The profiles of a profile file's table, every one checked; ids must be unique.
fn read_profiles(table: toml::Table, file: &str) -> Result<Vec<Profile>, DataError> {
    let ctx = Ctx { file };
    let raw = RawFile::deserialize(toml::Value::Table(table)).map_err(|e| serde_error(file, "", &e))?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(raw.profile.len());
    for (index, value) in raw.profile.into_iter().enumerate() {
        let profile = convert_profile(&ctx, index, value, raw.faction.as_deref())?;
        if let Some(first) = seen.insert(profile.id.clone(), index) {
            return Err(ctx.err(
                format!("profile[{index}].id"),
                format!("duplicate id \"{}\" (already used by profile[{first}] in this file)", profile.id),
            ));
        }
        out.push(profile);
    }
    Ok(out)
}

/// Loads every `*.toml` file in `dir` (sorted by file name) into one catalog. Ids must be
/// unique across all files.
pub fn load_catalog(dir: &Path) -> Result<Catalog, DataError> {
    let dir_name = dir.display().to_string();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| DataError::new(&dir_name, "(directory)", format!("cannot read profile folder: {e}")))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| {
            DataError::new(&dir_name, "(directory)", format!("cannot list profile folder: {e}"))
        })?;
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|x| x == "toml") {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(DataError::new(&dir_name, "(directory)", "no *.toml profile files found"));
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    let texts: Vec<(PathBuf, String)> =
        files.into_iter().map(|path| read_file(&path).map(|text| (path, text))).collect::<Result<_, _>>()?;
    // Every game loads the catalog: the files are read each time (an edit is seen), but the
    // same texts are parsed and checked once per process.
    type Loaded = Mutex<HashMap<Vec<(PathBuf, String)>, Catalog>>;
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    let loaded = LOADED.get_or_init(Loaded::default);
    if let Some(catalog) = loaded.lock().unwrap_or_else(|p| p.into_inner()).get(&texts) {
        return Ok(catalog.clone());
    }
    let catalog = parse_catalog(&texts)?;
    loaded.lock().unwrap_or_else(|p| p.into_inner()).insert(texts, catalog.clone());
    Ok(catalog)
}

/// Parse and check the profile files of a catalog, in order.
fn parse_catalog(texts: &[(PathBuf, String)]) -> Result<Catalog, DataError> {
    let mut origin: HashMap<String, String> = HashMap::new();
    let mut all = Vec::new();
    for (path, text) in texts {
        let file = path.display().to_string();
        for profile in parse_profiles(text, &file)? {
            if let Some(first) = origin.get(&profile.id) {
                return Err(DataError::new(
                    &file,
                    format!("profile \"{}\".id", profile.id),
                    format!("duplicate id \"{}\" (already defined in {first})", profile.id),
                ));
            }
            origin.insert(profile.id.clone(), file.clone());
            all.push(profile);
        }
    }
    let catalog = Catalog::new(all);
    check_cavalry_parts(&catalog, |id| origin.get(id).cloned().unwrap_or_default())?;
    Ok(catalog)
}

/// Riders and mounts must exist: a rider that is not cavalry, a mount that is a beast.
/// `file_of` names the file a profile comes from, by id.
fn check_cavalry_parts(catalog: &Catalog, file_of: impl Fn(&str) -> String) -> Result<(), DataError> {
    for p in catalog.profiles() {
        let Some((rider, mount)) = &p.cavalry else { continue };
        let file = file_of(&p.id);
        let field = format!("profile \"{}\".rider", p.id);
        match catalog.get(rider) {
            Some(r) if r.model_type != ModelType::Cavalry => {}
            _ => {
                return Err(DataError::new(
                    &file,
                    field,
                    format!("rider \"{rider}\" is not a non-cavalry profile"),
                ))
            }
        }
        match catalog.get(mount) {
            Some(m) if m.model_type == ModelType::Beast => {}
            _ => {
                let field = format!("profile \"{}\".mount", p.id);
                return Err(DataError::new(
                    &file,
                    field,
                    format!("mount \"{mount}\" is not a beast profile"),
                ));
            }
        }
    }
    Ok(())
}

/// Checks profiles that come from elsewhere than a profile file (a saved game carries its
/// own) against every rule a profile file must meet, with the loader's own checks and
/// messages: each profile is written out as the `[[profile]]` table of a file and read back
/// by the conversion [`parse_profiles`] uses; ids must be unique, riders and mounts of the
/// right types, and the reading must give the profile back unchanged (names trimmed, skills
/// and weapon properties spelt as the loader spells them). `file` names the source in errors.
pub fn check_profiles<'a>(
    profiles: impl IntoIterator<Item = &'a Profile>,
    file: &str,
) -> Result<(), DataError> {
    let given: Vec<&Profile> = profiles.into_iter().collect();
    let mut table = toml::Table::new();
    table.insert("profile".into(), toml::Value::Array(given.iter().map(|p| profile_table(p)).collect()));
    let read = read_profiles(table, file)?;
    for (given, read) in given.iter().zip(&read) {
        let (a, b) = (serde_json::to_value(given), serde_json::to_value(read));
        let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) = (a, b) else { continue };
        if let Some((field, value)) = a.iter().find(|(k, v)| b.get(*k) != Some(*v)) {
            let loaded = b.get(field).cloned().unwrap_or_default();
            return Err(DataError::new(
                file,
                format!("profile \"{}\".{field}", given.id),
                format!("is {value}, which a profile file would give as {loaded}"),
            ));
        }
    }
    check_cavalry_parts(&Catalog::new(read), |_| file.to_string())
}

/// A profile as the `[[profile]]` table of a profile file (the inverse of the conversion).
fn profile_table(p: &Profile) -> toml::Value {
    use toml::Value;
    let text = |s: &str| Value::String(s.to_string());
    let pair = |(a, b): (u8, u8)| Value::String(format!("{a}/{b}"));
    let mut t = toml::Table::new();
    t.insert("id".into(), text(&p.id));
    t.insert("name".into(), text(&p.name));
    let model_type = match p.model_type {
        ModelType::Character => "character",
        ModelType::Troop => "troop",
        ModelType::Cavalry => "cavalry",
        ModelType::Beast => "beast",
    };
    t.insert("type".into(), text(model_type));
    let role = match p.role {
        Role::Leader => "leader",
        Role::Medic => "medic",
        Role::Mech => "mech",
        Role::Scout => "scout",
        Role::Tough => "tough",
        Role::None => "none",
    };
    t.insert("role".into(), text(role));
    t.insert("faction".into(), text(&p.faction));
    t.insert("frequency".into(), Value::Integer(p.frequency.into()));
    t.insert("points".into(), Value::Integer(p.points.into()));
    t.insert("ap".into(), Value::String(format!("{}({})", p.ap_gain, p.ap_max)));
    t.insert("speed".into(), pair(p.speed));
    for (key, v) in [
        ("wounds", p.wounds),
        ("cc", p.cc),
        ("agility", p.agility),
        ("marksmanship", p.marksmanship),
        ("intelligence", p.intelligence),
        ("toughness", p.toughness),
        ("armour", p.armour),
        ("base_mm", p.base_mm),
    ] {
        t.insert(key.into(), Value::Integer(v.into()));
    }
    t.insert("skills".into(), Value::Array(p.skills.iter().map(|s| text(s)).collect()));
    t.insert("los_template".into(), Value::String(format!("{:?}", p.los_template)));
    let weapons = p.weapons.iter().map(|w| {
        let mut wt = toml::Table::new();
        wt.insert("name".into(), text(&w.name));
        if let Some(range) = w.range {
            wt.insert("range".into(), pair(range));
        }
        wt.insert("damage".into(), pair(w.damage));
        wt.insert(
            "properties".into(),
            Value::Array(w.properties.iter().map(|x| text(&x.to_string())).collect()),
        );
        Value::Table(wt)
    });
    t.insert("weapon".into(), Value::Array(weapons.collect()));
    if let Some((rider, mount)) = &p.cavalry {
        t.insert("rider".into(), text(rider));
        t.insert("mount".into(), text(mount));
    }
    Value::Table(t)
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

fn convert_profile(
    ctx: &Ctx,
    index: usize,
    value: toml::Value,
    default_faction: Option<&str>,
) -> Result<Profile, DataError> {
    // Name the profile by id where it has a usable one, else by position.
    let label = match value.get("id").and_then(toml::Value::as_str) {
        Some(id) if valid_id(id) => format!("profile \"{id}\""),
        _ => format!("profile[{index}]"),
    };
    if !value.is_table() {
        return Err(ctx.err(label, "expected a table ([[profile]])"));
    }
    let raw = RawProfile::deserialize(value).map_err(|e| serde_error(ctx.file, &label, &e))?;
    let f = |field: &str| format!("{label}.{field}");

    if !valid_id(&raw.id) {
        return Err(ctx.err(
            f("id"),
            format!("\"{}\" is not a valid id: use lowercase letters, digits, '_' or '-'", raw.id),
        ));
    }
    if raw.name.trim().is_empty() {
        return Err(ctx.err(f("name"), "must not be empty"));
    }
    let model_type = match raw.model_type.trim().to_ascii_lowercase().as_str() {
        "character" => ModelType::Character,
        "troop" => ModelType::Troop,
        "cavalry" => ModelType::Cavalry,
        "beast" => ModelType::Beast,
        other => {
            return Err(ctx.err(
                f("type"),
                format!("unknown model type \"{other}\"; expected character, troop, cavalry or beast"),
            ))
        }
    };
    let role = match raw.role.as_deref().map(|r| r.trim().to_ascii_lowercase()).as_deref() {
        None | Some("none") | Some("") => Role::None,
        Some("leader") => Role::Leader,
        Some("medic") => Role::Medic,
        Some("mech") => Role::Mech,
        Some("scout") => Role::Scout,
        Some("tough") => Role::Tough,
        Some(other) => {
            return Err(ctx.err(
                f("role"),
                format!("unknown role \"{other}\"; expected leader, medic, mech, scout, tough or none"),
            ))
        }
    };
    let faction = match raw.faction.as_deref().or(default_faction) {
        Some(name) if !name.trim().is_empty() => name.trim().to_string(),
        _ => return Err(ctx.err(f("faction"), "missing: give `faction` here or at the top of the file")),
    };
    let frequency: u8 = ctx.int(f("frequency"), raw.frequency, 1, 20)?;
    let points: u16 = ctx.int(f("points"), raw.points, 0, 1000)?;

    let (ap_gain, ap_max) = parse_ap(&raw.ap).map_err(|r| ctx.err(f("ap"), r))?;
    if ap_gain == 0 || ap_max > 10 {
        return Err(ctx.err(
            f("ap"),
            format!("AP gained must be at least 1 and the maximum at most 10, got \"{}\"", raw.ap),
        ));
    }
    if ap_gain > ap_max {
        return Err(
            ctx.err(f("ap"), format!("AP gained each turn ({ap_gain}) is above the maximum held ({ap_max})"))
        );
    }
    let speed = parse_pair(&raw.speed, "4/6").map_err(|r| ctx.err(f("speed"), r))?;
    if speed.0 == 0 || speed.1 > 20 {
        return Err(ctx.err(f("speed"), format!("speeds must be 1..=20 inches, got \"{}\"", raw.speed)));
    }
    if speed.0 > speed.1 {
        return Err(
            ctx.err(f("speed"), format!("pass speed {} is above \"Nailed It\" speed {}", speed.0, speed.1))
        );
    }
    let wounds: u8 = ctx.int(f("wounds"), raw.wounds, 1, 20)?;
    let cc: u8 = ctx.int(f("cc"), raw.cc, 1, 10)?;
    let agility: u8 = ctx.int(f("agility"), raw.agility, 1, 10)?;
    let marksmanship: u8 = ctx.int(f("marksmanship"), raw.marksmanship, 1, 10)?;
    let intelligence: u8 = ctx.int(f("intelligence"), raw.intelligence, 1, 10)?;
    let toughness: u8 = ctx.int(f("toughness"), raw.toughness, 1, 10)?;
    let armour: u8 = ctx.int(f("armour"), raw.armour, 0, 10)?;

    let mut skills: Vec<String> = Vec::with_capacity(raw.skills.len());
    for (i, skill) in raw.skills.iter().enumerate() {
        let skill = skill.trim();
        if skill.is_empty() {
            return Err(ctx.err(f(&format!("skills[{i}]")), "must not be empty"));
        }
        let Some(&canonical) = crate::profile::SKILLS.iter().find(|s| s.eq_ignore_ascii_case(skill)) else {
            return Err(ctx.err(
                f(&format!("skills[{i}]")),
                format!(
                    "unknown skill \"{skill}\": the engine implements {} (the rulebook gives no other \
                     skill's text; see docs/rulings.md)",
                    crate::profile::SKILLS.join(", ")
                ),
            ));
        };
        let skill = canonical;
        if skills.iter().any(|s| s.eq_ignore_ascii_case(skill)) {
            return Err(ctx.err(f(&format!("skills[{i}]")), format!("skill \"{skill}\" listed twice")));
        }
        skills.push(skill.to_string());
    }
    let los_template = match raw.los_template.trim().to_ascii_uppercase().as_str() {
        "A" => LosTemplate::A,
        "B" => LosTemplate::B,
        "C" => LosTemplate::C,
        "D" => LosTemplate::D,
        "E" => LosTemplate::E,
        _ => {
            return Err(
                ctx.err(f("los_template"), format!("expected a letter A..E, got \"{}\"", raw.los_template))
            )
        }
    };
    let base_mm: u8 = ctx.int(f("base_mm"), raw.base_mm, 10, 255)?;

    // A cavalry card names its rider's and mount's profiles (p.58); no other card does.
    let cavalry = match (model_type == ModelType::Cavalry, raw.rider.clone(), raw.mount.clone()) {
        (true, Some(r), Some(m)) => Some((r, m)),
        (true, _, _) => {
            return Err(ctx.err(f("rider"), "a cavalry profile needs `rider` and `mount` profile ids"))
        }
        (false, None, None) => None,
        (false, _, _) => {
            return Err(ctx.err(f("rider"), "only cavalry profiles have a `rider` and a `mount`"))
        }
    };
    if raw.weapon.len() > crate::state::model::MAX_WEAPONS {
        return Err(ctx.err(
            f("weapon"),
            format!(
                "{} weapons; a profile carries at most {}",
                raw.weapon.len(),
                crate::state::model::MAX_WEAPONS
            ),
        ));
    }
    let mut weapons: Vec<Weapon> = Vec::with_capacity(raw.weapon.len());
    for (i, value) in raw.weapon.into_iter().enumerate() {
        let wlabel = f(&format!("weapon[{i}]"));
        let weapon = convert_weapon(ctx, &wlabel, value)?;
        if weapons.iter().any(|w| w.name.eq_ignore_ascii_case(&weapon.name)) {
            return Err(ctx.err(format!("{wlabel}.name"), format!("weapon \"{}\" listed twice", weapon.name)));
        }
        weapons.push(weapon);
    }
    if !weapons.iter().any(|w| !w.is_ranged()) {
        return Err(ctx.err(
            f("weapon"),
            "needs at least one close-combat weapon (one without `range`); give unarmed models e.g. name = \"Fists\", damage = \"1/1\"",
        ));
    }

    Ok(Profile {
        id: raw.id,
        name: raw.name.trim().to_string(),
        model_type,
        role,
        faction,
        frequency,
        points,
        ap_gain,
        ap_max,
        speed,
        wounds,
        cc,
        agility,
        marksmanship,
        intelligence,
        toughness,
        armour,
        skills,
        los_template,
        base_mm,
        weapons,
        cavalry,
    })
}

fn convert_weapon(ctx: &Ctx, label: &str, value: toml::Value) -> Result<Weapon, DataError> {
    if !value.is_table() {
        return Err(ctx.err(label, "expected a table ([[profile.weapon]])"));
    }
    let raw = RawWeapon::deserialize(value).map_err(|e| serde_error(ctx.file, label, &e))?;
    let f = |field: &str| format!("{label}.{field}");
    if raw.name.trim().is_empty() {
        return Err(ctx.err(f("name"), "must not be empty"));
    }
    let range = match raw.range.as_deref().map(str::trim) {
        None | Some("") | Some("-") => None,
        Some(text) => {
            let r = parse_pair(text, "12/18").map_err(|r| ctx.err(f("range"), r))?;
            if r.0 == 0 || r.1 > 60 {
                return Err(ctx.err(f("range"), format!("ranges must be 1..=60 inches, got \"{text}\"")));
            }
            if r.0 > r.1 {
                return Err(
                    ctx.err(f("range"), format!("pass range {} is above \"Nailed It\" range {}", r.0, r.1))
                );
            }
            Some(r)
        }
    };
    let damage = parse_pair(&raw.damage, "3/4").map_err(|r| ctx.err(f("damage"), r))?;
    if damage.1 > 10 {
        return Err(ctx.err(f("damage"), format!("damage must be 0..=10, got \"{}\"", raw.damage)));
    }
    if damage.0 > damage.1 {
        return Err(ctx.err(
            f("damage"),
            format!("standard damage {} is above superior damage {}", damage.0, damage.1),
        ));
    }
    let mut properties: Vec<WeaponProperty> = Vec::with_capacity(raw.properties.len());
    for (i, text) in raw.properties.iter().enumerate() {
        let field = f(&format!("properties[{i}]"));
        let p: WeaponProperty = text.parse().map_err(|r: String| ctx.err(&field, r))?;
        if properties.iter().any(|q| q.name() == p.name()) {
            return Err(ctx.err(&field, format!("{} listed twice", p.name())));
        }
        let needs_range = matches!(
            p,
            WeaponProperty::Template(_)
                | WeaponProperty::Deviate(_)
                | WeaponProperty::Spray
                | WeaponProperty::Smoke
        );
        if needs_range && range.is_none() {
            return Err(ctx.err(&field, format!("{} needs a ranged weapon (give `range`)", p.name())));
        }
        let close_only = matches!(p, WeaponProperty::Reach(_) | WeaponProperty::Sneaky(_));
        if close_only && range.is_some() {
            return Err(ctx.err(&field, format!("{} is for close-combat weapons (remove `range`)", p.name())));
        }
        properties.push(p);
    }
    let has = |name: &str| properties.iter().any(|p| p.name() == name);
    for (i, p) in properties.iter().enumerate() {
        let field = f(&format!("properties[{i}]"));
        match p {
            WeaponProperty::Deviate(_) | WeaponProperty::Smoke if !has("Template") => {
                return Err(
                    ctx.err(field, format!("{} needs a Template(...) property on the same weapon", p.name()))
                );
            }
            WeaponProperty::Choke if !has("Smoke") => {
                return Err(ctx.err(field, "Choke needs the Smoke property on the same weapon"));
            }
            _ => {}
        }
    }
    Ok(Weapon { name: raw.name.trim().to_string(), range, damage, properties })
}
