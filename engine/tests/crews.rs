//! Force Organisation (p.74): `check_crew` reports every rule a crew breaks.

use engine::cards::load_cards;
use engine::crew::{board_size, check_crew, parse_crew_unchecked};
use engine::data::configs_dir;
use engine::profile::load_catalog;

fn report(text: &str) -> engine::crew::CrewReport {
    let crew = parse_crew_unchecked(text, "crew.toml").unwrap();
    let catalog = load_catalog(&configs_dir().join("factions")).unwrap();
    let cards = load_cards(&configs_dir().join("cards")).unwrap();
    check_crew(&crew, &catalog, Some(&cards))
}

#[test]
fn the_shipped_crews_are_legal() {
    for name in engine::data::file_names(&configs_dir().join("crews"), "toml").unwrap() {
        let text = std::fs::read_to_string(configs_dir().join("crews").join(format!("{name}.toml"))).unwrap();
        let r = report(&text);
        assert!(r.violations.is_empty(), "{name}: {:?}", r.violations);
        assert!(r.points <= u32::from(r.limit));
    }
}

#[test]
fn every_broken_rule_is_reported_with_its_field() {
    let r = report(
        r#"name = "Rule breakers"
faction = "Artifacters"
points = 100
models = ["artifacter_captain", "militia_captain", "nix", "cavalry_nix", "juchita", "wayfarer_sellsword", "nobody"]
cards = ["artifacters_steady_hands", "artifacters_steady_hands"]
"#,
    );
    let fields: Vec<&str> = r.violations.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(
        fields,
        vec!["models[1]", "models[3]", "models[6]", "models", "models", "cards[1]", "points"],
        "{:?}",
        r.violations
    );
    assert!(r.violations.iter().any(|v| v.rule.contains("wayfarers")));
    assert!(r.violations.iter().any(|v| v.rule.contains("2 Leaders")));
}

#[test]
fn frequency_limits_apply_and_the_game_size_picks_the_board() {
    let r = report(
        r#"name = "Twins"
faction = "Artifacters"
points = 150
models = ["artifacter_captain", "nix", "nix"]
"#,
    );
    assert!(r.violations.iter().any(|v| v.rule.contains("frequency")), "{:?}", r.violations);
    assert_eq!(board_size(150), (36, 36));
    assert_eq!(board_size(151), (48, 36));
}
