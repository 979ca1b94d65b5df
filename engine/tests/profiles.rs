//! Profile and crew data: the shipped illustrative catalog and crews load, carry the values the
//! rulebook's examples state, and malformed files are reported with file, field and reason.

use engine::crew::{load_crew, parse_crew};
use engine::data::{configs_dir, DataError};
use engine::profile::{load_catalog, parse_profiles, Catalog, ModelType, Role, TemplateKind, WeaponProperty};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn workspace_configs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("configs")
}

fn catalog() -> Catalog {
    load_catalog(&workspace_configs().join("factions"))
        .unwrap_or_else(|e| panic!("shipped catalog must load: {e}"))
}

/// A fresh, empty temp folder unique to this test process and call.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tde-profiles-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const GOOD: &str = r#"
illustrative = true
[[profile]]
id = "tester"
name = "Tester"
type = "character"
role = "leader"
faction = "Testers"
frequency = 1
points = 20
ap = "2(3)"
speed = "4/6"
wounds = 3
cc = 5
agility = 5
marksmanship = 5
intelligence = 5
toughness = 4
armour = 0
skills = []
los_template = "C"
base_mm = 30
[[profile.weapon]]
name = "Bow"
range = "12/18"
damage = "3/4"
properties = ["Primitive"]
[[profile.weapon]]
name = "Fists"
damage = "1/1"
"#;

/// Writes `text` as `name` in a fresh folder and loads the folder as a catalog.
fn load_one(name: &str, text: &str) -> Result<Catalog, DataError> {
    let dir = temp_dir("cat");
    std::fs::write(dir.join(name), text).unwrap();
    let r = load_catalog(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn expect_err(name: &str, text: &str, field_part: &str) -> DataError {
    let e = load_one(name, text).expect_err("malformed data must be rejected");
    assert!(e.file.ends_with(name), "file not named: {e}");
    assert!(e.field.contains(field_part), "field `{}` should mention `{field_part}`: {e}", e.field);
    assert!(!e.reason.is_empty());
    let shown = e.to_string();
    assert!(shown.contains(name) && shown.contains(&e.field) && shown.contains(&e.reason));
    e
}

#[test]
fn shipped_catalog_loads_with_every_faction_and_role() {
    let cat = catalog();
    for faction in ["Artifacters", "The Firm", "Bondsmen", "Militia"] {
        let of: Vec<_> = cat.profiles().iter().filter(|p| p.faction == faction).collect();
        for role in [Role::Leader, Role::Tough, Role::Medic, Role::Mech, Role::Scout] {
            assert!(of.iter().any(|p| p.role == role), "{faction} lacks a {role:?}");
        }
        assert!(of.len() >= 7, "{faction} has {} profiles", of.len());
        let templates = of
            .iter()
            .flat_map(|p| p.weapons.iter())
            .filter(|w| w.properties.iter().any(|q| matches!(q, WeaponProperty::Template(_))))
            .count();
        assert!(templates <= 1, "{faction} has {templates} template weapons");
    }
    assert!(cat.profiles().iter().any(|p| p.faction == "Neutral" && p.model_type == ModelType::Beast));
    assert!(cat.profiles().iter().any(|p| p.faction == "Neutral" && p.model_type != ModelType::Beast));
    for p in cat.profiles() {
        assert!(p.weapons.iter().any(|w| !w.is_ranged()), "{} has no close-combat weapon", p.id);
        // Cavalry models, rider and mount together, cost more (p.74: for larger games).
        let most = if p.model_type == ModelType::Cavalry { 45 } else { 32 };
        assert!((8..=most).contains(&p.points), "{} costs {}", p.id, p.points);
        if p.model_type == ModelType::Beast {
            assert!(p.weapons.iter().all(|w| w.properties.contains(&WeaponProperty::Natural)), "{}", p.id);
        }
    }
}

#[test]
fn rulebook_stated_values_are_in_the_catalog() {
    let cat = catalog();
    let nix = cat.get("nix").expect("nix");
    assert_eq!(nix.faction, "Artifacters");
    assert_eq!(nix.marksmanship, 7, "TN 7 for shooting, RB l.1040");
    assert_eq!(nix.cc, 6, "FR l.1295");
    assert_eq!(nix.ap_gain, 2, "two APs, RB l.1071");
    let recurve = nix.weapons.iter().find(|w| w.name == "Recurve").expect("Recurve");
    assert_eq!(recurve.range, Some((12, 18)));
    assert_eq!(recurve.damage, (3, 4));
    assert_eq!(recurve.properties, vec![WeaponProperty::Primitive]);
    let pick = nix.weapons.iter().find(|w| w.name == "Hand Pick").expect("Hand Pick");
    assert_eq!(pick.range, None);
    assert_eq!(pick.damage, (2, 2));
    assert_eq!(pick.properties, vec![WeaponProperty::Pierce(1)]);
    assert_eq!(pick.pierce(), 1);

    let slethssk = cat.get("slethssk").expect("slethssk");
    assert_eq!(slethssk.speed, (4, 7), "RB l.845");
    let mattock = slethssk.weapons.iter().find(|w| w.name == "Mattock").expect("Mattock");
    assert_eq!(mattock.pierce(), 1, "RB l.376");
    assert!(slethssk.weapons.iter().any(|w| w.is_ranged()), "Slethssk shoots, RB l.1302");

    let lissz = cat.get("lissz").expect("lissz");
    assert_eq!(lissz.cc, 7, "FR l.1277");

    let kaneda = cat.get("kaneda").expect("kaneda");
    assert_eq!(kaneda.faction, "The Firm", "of the Lagoon Firms, RB l.2243");
    assert_eq!(kaneda.role, Role::Leader);
    assert!(kaneda.weapons.iter().any(|w| w.is_ranged()));
    assert_eq!(cat.get("hosk").expect("hosk").faction, "The Firm");
    for id in ["venk", "corian", "juchita", "yuttaraptor", "carnodact"] {
        assert!(cat.get(id).is_some(), "{id}");
    }
    assert!(cat.get("juchita").unwrap().weapons.iter().any(|w| w.name == "Rifle"), "RB l.1860");
}

#[test]
fn weapon_properties_round_trip() {
    for text in [
        "Pierce(1)",
        "Slow(1/1)",
        "Template(Small)",
        "Fire(2)",
        "Spray",
        "Reach(2)",
        "Armour(1)",
        "Template(Teardrop)",
    ] {
        let p: WeaponProperty = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
    }
    assert_eq!(
        "template( large )".parse::<WeaponProperty>(),
        Ok(WeaponProperty::Template(TemplateKind::Large))
    );
    assert_eq!("Armor(2)".parse::<WeaponProperty>(), Ok(WeaponProperty::Armour(2)));
    for bad in
        ["Piercing(1)", "Pierce", "Pierce(0)", "Pierce(x)", "Spray(1)", "Slow(1)", "Template(Huge)", "Stun(2"]
    {
        assert!(bad.parse::<WeaponProperty>().is_err(), "{bad}");
    }
}

#[test]
fn shipped_crews_load_within_100_points_with_one_leader() {
    let cat = catalog();
    let dir = workspace_configs().join("crews");
    for faction in ["artifacters", "the_firm", "bondsmen", "militia"] {
        let path = dir.join(format!("{faction}_100.toml"));
        let crew = load_crew(&path, &cat).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(crew.points, 100);
        let total = crew.total_points(&cat);
        assert!((90..=100).contains(&total), "{faction}: {total} points");
        let profiles = crew.profiles(&cat);
        assert_eq!(profiles.len(), crew.models.len());
        assert!((4..=6).contains(&profiles.len()), "{faction}: {} models", profiles.len());
        assert_eq!(profiles.iter().filter(|p| p.role == Role::Leader).count(), 1, "{faction}");
        assert!(profiles.iter().all(|p| p.faction == crew.faction || p.faction == "Neutral"));
    }
}

#[test]
fn configs_dir_finds_the_workspace_configs() {
    // Without TDE_CONFIGS the tests run in engine/, which has no configs/, so the fallback applies.
    if std::env::var_os("TDE_CONFIGS").is_none() {
        let dir = configs_dir();
        assert!(dir.join("factions").is_dir(), "{}", dir.display());
    }
}

#[test]
fn the_good_fixture_loads() {
    let cat = load_one("good.toml", GOOD).unwrap();
    let p = cat.get("tester").unwrap();
    assert_eq!((p.ap_gain, p.ap_max, p.speed), (2, 3, (4, 6)));
    assert_eq!(parse_profiles(GOOD, "inline").unwrap().len(), 1);
}

#[test]
fn unknown_field_is_reported() {
    let e = expect_err(
        "unknown_field.toml",
        &GOOD.replace("wounds = 3", "wounds = 3\nspeeed = \"4/6\""),
        "speeed",
    );
    assert!(e.field.contains("tester"), "{e}");
    expect_err(
        "unknown_weapon_field.toml",
        &GOOD.replace("damage = \"1/1\"", "damage = \"1/1\"\nrnage = \"1/2\""),
        "weapon[1].rnage",
    );
}

#[test]
fn bad_property_string_is_reported() {
    let e = expect_err(
        "bad_property.toml",
        &GOOD.replace("[\"Primitive\"]", "[\"Primitive\", \"Piercing(1)\"]"),
        "weapon[0].properties[1]",
    );
    assert!(e.reason.contains("Piercing"), "{e}");
    expect_err(
        "template_cc.toml",
        &GOOD.replace("damage = \"1/1\"", "damage = \"1/1\"\nproperties = [\"Template(Small)\"]"),
        "weapon[1].properties[0]",
    );
}

#[test]
fn bad_speeds_and_numbers_are_reported() {
    expect_err("speed_syntax.toml", &GOOD.replace("speed = \"4/6\"", "speed = \"4-6\""), "speed");
    let e = expect_err("speed_order.toml", &GOOD.replace("speed = \"4/6\"", "speed = \"7/6\""), "speed");
    assert!(e.reason.contains("pass speed"), "{e}");
    expect_err("ap_order.toml", &GOOD.replace("ap = \"2(3)\"", "ap = \"4(3)\""), "ap");
    expect_err("ap_syntax.toml", &GOOD.replace("ap = \"2(3)\"", "ap = \"2/3\""), "ap");
    expect_err("attr_range.toml", &GOOD.replace("cc = 5", "cc = 11"), "cc");
    expect_err("attr_zero.toml", &GOOD.replace("toughness = 4", "toughness = 0"), "toughness");
    expect_err("zero_wounds.toml", &GOOD.replace("wounds = 3", "wounds = 0"), "wounds");
    expect_err("wrong_type.toml", &GOOD.replace("wounds = 3", "wounds = \"three\""), "wounds");
    expect_err(
        "range_order.toml",
        &GOOD.replace("range = \"12/18\"", "range = \"18/12\""),
        "weapon[0].range",
    );
    expect_err("damage.toml", &GOOD.replace("damage = \"3/4\"", "damage = \"3\""), "weapon[0].damage");
    expect_err("los.toml", &GOOD.replace("los_template = \"C\"", "los_template = \"F\""), "los_template");
    expect_err("role.toml", &GOOD.replace("role = \"leader\"", "role = \"captain\""), "role");
    expect_err("missing.toml", &GOOD.replace("points = 20\n", ""), "points");
    expect_err("syntax.toml", &GOOD.replace("cc = 5", "cc = = 5"), "(toml)");
}

#[test]
fn model_without_close_combat_weapon_is_reported() {
    let text = GOOD.replace("[[profile.weapon]]\nname = \"Fists\"\ndamage = \"1/1\"\n", "");
    let e = expect_err("no_cc.toml", &text, "weapon");
    assert!(e.reason.contains("close-combat"), "{e}");
    let none = GOOD.split("[[profile.weapon]]").next().unwrap().to_string();
    expect_err("unarmed.toml", &none, "weapon");
}

#[test]
fn duplicate_ids_are_reported_within_and_across_files() {
    let twice = format!("{GOOD}\n{}", GOOD.replace("illustrative = true", ""));
    expect_err("dup_in_file.toml", &twice, "id");

    let dir = temp_dir("dup");
    std::fs::write(dir.join("a.toml"), GOOD).unwrap();
    std::fs::write(dir.join("b.toml"), GOOD).unwrap();
    let e = load_catalog(&dir).expect_err("duplicate id across files");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.file.ends_with("b.toml"), "{e}");
    assert!(e.field.contains("tester") && e.field.ends_with("id"), "{e}");
    assert!(e.reason.contains("a.toml"), "{e}");
}

#[test]
fn empty_or_missing_folder_is_an_error_not_a_panic() {
    let dir = temp_dir("empty");
    assert!(load_catalog(&dir).is_err());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(load_catalog(&dir).is_err());
}

fn crew_err(text: &str, field_part: &str) -> DataError {
    let cat = catalog();
    let dir = temp_dir("crew");
    let path = dir.join("crew.toml");
    std::fs::write(&path, text).unwrap();
    let e = load_crew(&path, &cat).expect_err("bad crew must be rejected");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.file.ends_with("crew.toml"), "{e}");
    assert!(e.field.contains(field_part), "field `{}` should mention `{field_part}`: {e}", e.field);
    e
}

const CREW: &str = r#"
name = "Test crew"
faction = "Artifacters"
points = 100
models = ["artifacter_captain", "nix", "artifacter_delver"]
"#;

#[test]
fn crew_errors_are_reported() {
    let cat = catalog();
    assert!(parse_crew(CREW, "inline", &cat).is_ok());
    let e = crew_err(&CREW.replace("\"nix\"", "\"nobody\""), "models[1]");
    assert!(e.reason.contains("nobody"), "{e}");
    let e = crew_err(&CREW.replace("\"nix\"", "\"nix\", \"kaneda\""), "models[2]");
    assert!(e.reason.contains("The Firm"), "{e}");
    let two = CREW
        .replace("faction = \"Artifacters\"", "faction = \"The Firm\"")
        .replace("[\"artifacter_captain\", \"nix\", \"artifacter_delver\"]", "[\"kaneda\", \"boss_griss\"]");
    let e = crew_err(&two, "models");
    assert!(e.reason.contains("2 Leaders"), "{e}");
    crew_err(&CREW.replace("\"artifacter_captain\", ", ""), "models");
    crew_err(&CREW.replace("points = 100", "points = 40"), "points");
    crew_err(&CREW.replace("points = 100", "points = 100\nsize = 3"), "size");
    crew_err(&CREW.replace("Artifacters", "Artefacters"), "faction");
    crew_err(
        &CREW.replace("models = [\"artifacter_captain\", \"nix\", \"artifacter_delver\"]", "models = []"),
        "models",
    );
}

#[test]
fn profiles_from_elsewhere_are_checked_by_the_loaders_own_rules() {
    use engine::profile::check_profiles;
    // Every shipped profile, the AI dinosaurs' included, reads back as itself.
    let shipped = catalog();
    check_profiles(shipped.profiles().iter().map(|p| &**p), "shipped").unwrap();
    let uc = engine::uc::load_uc(&workspace_configs().join("uc")).expect("the shipped UC data");
    check_profiles(uc.catalog.profiles().iter().map(|p| &**p), "uc").unwrap();

    let nix = (**shipped.get("nix").expect("nix")).clone();
    let refused = |edit: &dyn Fn(&mut engine::profile::Profile), field: &str, reason: &str| {
        let mut p = nix.clone();
        edit(&mut p);
        let e = check_profiles([&p], "saved.json").expect_err("a broken profile");
        assert_eq!(e.file, "saved.json");
        assert!(e.field.starts_with("profile \"nix\"") && e.field.contains(field), "{e}");
        assert!(e.reason.contains(reason), "{e}");
    };
    // What the engine's limits allow but a profile file may not say.
    refused(&|p| p.weapons[0].damage = (12, 12), "damage", "0..=10");
    refused(&|p| p.skills = vec!["Flying".into()], "skills[0]", "unknown skill");
    refused(&|p| p.speed = (0, 6), "speed", "1..=20");
    refused(&|p| p.weapons.retain(|w| w.is_ranged()), "weapon", "close-combat weapon");
    refused(&|p| p.faction = " ".into(), "faction", "missing");
    // What a file would read differently: the loader spells skills its own way.
    refused(&|p| p.skills = vec!["stealth".into()], "skills", "a profile file would give");
    // Two profiles with one id.
    let e = check_profiles([&nix, &nix], "saved.json").expect_err("a duplicate id");
    assert!(e.reason.contains("duplicate id \"nix\""), "{e}");
}
