//! The conformance test every game passes (issue 41, item 5), run on TDE with and without the
//! AI dinosaurs; tic-tac-toe, the Encounter and the tiny test games run it in their own tests.

use agents::conformance::{check, Options};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};

fn tde(dinos: u8) -> impl Fn(u64) -> engine::GameState {
    move |_seed| {
        new_game(&GameConfig { scenario: Scenario::Skirmish, dinos, ..GameConfig::default() })
            .expect("a default TDE game")
    }
}

#[test]
fn tde_passes_the_conformance_test() {
    let options =
        Options { games: 8, max_steps: 20_000, actions_per_node: 2, determinizations: 1, sorted: false };
    let report = check("tde", tde(0), &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 8);
    assert!(report.chance_nodes > 0 && report.illegal_checked > 0, "{report:?}");
}

#[test]
fn tde_with_dinosaurs_passes_the_conformance_test() {
    let options =
        Options { games: 8, max_steps: 20_000, actions_per_node: 2, determinizations: 1, sorted: false };
    let report = check("tde --dinos 2", tde(2), &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 8);
}
