//! The engine's integration tests as one test binary, linked once rather than once a file: each
//! file of `tests/` is a module here, under its own name (`tests/NAME.rs` is `NAME`). One file's
//! tests: `cargo test --release -p tde-engine --test all -- NAME::`. A file added to `tests/` must be
//! listed here (the first test below says so).
// Each file declares the shared helpers (`mod common;`) for itself, as it did on its own.
#![allow(clippy::duplicate_mod)]

#[path = "abilities.rs"]
mod abilities;
#[path = "actions.rs"]
mod actions;
#[path = "analysis.rs"]
mod analysis;
#[path = "audit_cards.rs"]
mod audit_cards;
#[path = "audit_paths.rs"]
mod audit_paths;
#[path = "audit_properties.rs"]
mod audit_properties;
#[path = "bad_input.rs"]
mod bad_input;
#[path = "board.rs"]
mod board;
#[path = "cards.rs"]
mod cards;
#[path = "cavalry.rs"]
mod cavalry;
#[path = "chance_outcomes.rs"]
mod chance_outcomes;
#[path = "clone_allocation.rs"]
mod clone_allocation;
#[path = "crews.rs"]
mod crews;
#[path = "dice.rs"]
mod dice;
#[path = "encoding.rs"]
mod encoding;
#[path = "game_flow.rs"]
mod game_flow;
#[path = "leader_rules.rs"]
mod leader_rules;
#[path = "module_circles.rs"]
mod module_circles;
#[path = "playthroughs.rs"]
mod playthroughs;
#[path = "profiles.rs"]
mod profiles;
#[path = "properties.rs"]
mod properties;
#[path = "random_play.rs"]
mod random_play;
#[path = "reaction_points.rs"]
mod reaction_points;
#[path = "reactions.rs"]
mod reactions;
#[path = "rulings_ledger.rs"]
mod rulings_ledger;
#[path = "scenario_assassinate.rs"]
mod scenario_assassinate;
#[path = "scenario_attack_and_defend.rs"]
mod scenario_attack_and_defend;
#[path = "scenario_couriers.rs"]
mod scenario_couriers;
#[path = "scenario_grudge_match.rs"]
mod scenario_grudge_match;
#[path = "scenario_scavenger_hunt.rs"]
mod scenario_scavenger_hunt;
#[path = "stealth.rs"]
mod stealth;
#[path = "templates.rs"]
mod templates;
#[path = "uc_ambush.rs"]
mod uc_ambush;
#[path = "uc_data.rs"]
mod uc_data;
#[path = "uc_dinosaurs.rs"]
mod uc_dinosaurs;
#[path = "uc_movement_colours.rs"]
mod uc_movement_colours;
#[path = "uc_solo.rs"]
mod uc_solo;

#[test]
fn every_file_of_tests_is_a_module_of_this_binary() {
    let listed = include_str!("all.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".rs").filter(|_| name != "all.rs") {
            let module = format!("#[path = \"{name}\"]\nmod {stem};");
            assert!(
                listed.contains(&module),
                "tests/{name} is not a module of tests/all.rs: its tests would not run"
            );
        }
    }
}
