//! The Ulaya Chronicles data: the shipped illustrative files load and cross-check, and every
//! kind of bad value is refused with its file and field.

use engine::uc::data::{
    parse_decks, parse_enemies, parse_spawn, BoxAct, EliteEffect, TargetSymbol, WhenShot,
};
use engine::uc::{default_uc, load_uc};

#[test]
fn the_shipped_data_loads_with_elite_versions_decks_and_tables() {
    let uc = default_uc().unwrap();
    assert!(uc.enemies.len() >= 4);
    assert!(uc.enemies.iter().any(|e| e.elite) && uc.enemies.iter().any(|e| !e.elite));
    for e in &uc.enemies {
        assert!(uc.deck(&e.deck).is_some(), "{}", e.id);
        assert_eq!(uc.catalog.get(&e.id).map(|p| p.name.clone()), Some(e.profile.name.clone()));
    }
    let spitter = uc.enemy("dilophosaur").unwrap();
    assert_eq!(spitter.when_shot, WhenShot::ShootBack);
    let hunter = uc.deck("hunter").unwrap();
    assert_eq!(hunter.cards[0].boxes[0].target, TargetSymbol::CloseCombat);
    assert_eq!(hunter.cards[0].boxes[0].act, BoxAct::CloseCombat);
    assert_eq!(hunter.cards[0].elite, Some(EliteEffect::Damage(1)));
    for t in &uc.spawn_tables {
        assert!(t.faces.iter().all(|f| uc.enemy(f).is_some()));
    }
    assert!(uc.markers.iter().all(|m| uc.spawn_table(&m.spawn_table).is_some()));
}

const CARD: &str = r#"
faction = "Ulaya enemies"
[[profile]]
id = "raptor"
name = "Raptor"
type = "beast"
points = 0
ap = "1(1)"
speed = "6/9"
wounds = 3
cc = 6
agility = 7
marksmanship = 1
intelligence = 2
toughness = 4
los_template = "C"
base_mm = 40
[[profile.weapon]]
name = "Claws"
damage = "2/3"
"#;

const ENEMY: &str = r#"
[[enemy]]
id = "raptor"
deck = "hunter"
reaction_range = 8
movement_reaction = "charge"
when_shot = "dodge"
noise_reaction = "investigate"
ambush_reaction = "charge"
"#;

#[test]
fn bad_enemies_are_refused_by_field() {
    let good = format!("{CARD}{ENEMY}");
    parse_enemies(&good, "e.toml").unwrap();
    for (from, to, field) in [
        ("reaction_range = 8", "reaction_range = 99", "enemy[0].reaction_range"),
        ("movement_reaction = \"charge\"", "movement_reaction = \"dance\"", "enemy[0].movement_reaction"),
        ("when_shot = \"dodge\"", "when_shot = \"shoot_back\"", "enemy[0].when_shot"),
        ("id = \"raptor\"\ndeck", "id = \"rex\"\ndeck", "enemy[0].id"),
        ("deck = \"hunter\"", "deck = \"Hunter!\"", "enemy[0].deck"),
        ("deck = \"hunter\"", "deck = \"hunter\"\nspeed = 3", "enemy[0].speed"),
        ("wounds = 3", "wounds = 0", "profile \"raptor\".wounds"),
    ] {
        assert!(good.contains(from), "{from}");
        let e = parse_enemies(&good.replacen(from, to, 1), "e.toml").unwrap_err();
        assert_eq!((e.file.as_str(), e.field.as_str()), ("e.toml", field), "{e}");
    }
    let e = parse_enemies(CARD, "e.toml").unwrap_err();
    assert!(e.reason.contains("[[enemy]]"), "{e}");
}

#[test]
fn bad_decks_and_tables_are_refused_by_field() {
    let deck = "[[deck]]\nid = \"d\"\n[[deck.card]]\nname = \"C\"\nelite = \"heal 1\"\n[[deck.card.box]]\nmove = 6\ntarget = \"cover\"\nact = \"nothing\"\n";
    parse_decks(deck, "d.toml").unwrap();
    for (from, to, field) in [
        ("move = 6", "move = -1", "deck[0].card[0].box[0].move"),
        ("target = \"cover\"", "target = \"nest\"", "deck[0].card[0].box[0].target"),
        ("act = \"nothing\"", "act = \"sing\"", "deck[0].card[0].box[0].act"),
        ("elite = \"heal 1\"", "elite = \"fly 3\"", "deck[0].card[0].elite"),
        ("name = \"C\"", "name = \" \"", "deck[0].card[0].name"),
    ] {
        let e = parse_decks(&deck.replacen(from, to, 1), "d.toml").unwrap_err();
        assert_eq!(e.field, field, "{e}");
    }
    let spawn = "[[table]]\nid = \"t\"\nfaces = [\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\"]\n[[marker]]\nid = \"m\"\nrange = 6\nflips_on = [\"noise\"]\nsprings_on = [\"movement\"]\nspawn_table = \"t\"\n";
    parse_spawn(spawn, "s.toml").unwrap();
    let e = parse_spawn(&spawn.replacen("\"a\",", "", 1), "s.toml").unwrap_err();
    assert_eq!(e.field, "table[0].faces", "{e}");
    let e = parse_spawn(&spawn.replacen("[\"noise\"]", "[\"smell\"]", 1), "s.toml").unwrap_err();
    assert_eq!(e.field, "marker[0].flips_on[0]", "{e}");
}

#[test]
fn cross_references_are_checked_across_files() {
    let dir = std::env::temp_dir().join(format!("tde-uc-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = engine::data::builtin_configs_dir().join("uc");
    for f in ["enemies.toml", "decks.toml", "spawn.toml"] {
        std::fs::copy(shipped.join(f), dir.join(f)).unwrap();
    }
    load_uc(&dir).unwrap();
    let spawn = std::fs::read_to_string(dir.join("spawn.toml")).unwrap();
    std::fs::write(dir.join("spawn.toml"), spawn.replacen("\"raptor\"", "\"tyrannosaur\"", 1)).unwrap();
    let e = load_uc(&dir).unwrap_err();
    assert!(e.file.ends_with("spawn.toml") && e.field == "table[0].faces[0]", "{e}");
    std::fs::write(dir.join("spawn.toml"), &spawn).unwrap();
    let decks = std::fs::read_to_string(dir.join("decks.toml")).unwrap();
    std::fs::write(dir.join("decks.toml"), decks.replace("id = \"hunter\"", "id = \"stalker\"")).unwrap();
    let e = load_uc(&dir).unwrap_err();
    assert!(e.file.ends_with("enemies.toml") && e.field.ends_with(".deck"), "{e}");
    std::fs::remove_file(dir.join("decks.toml")).unwrap();
    assert_eq!(load_uc(&dir).unwrap_err().field, "(file)");
    let _ = std::fs::remove_dir_all(&dir);
}
