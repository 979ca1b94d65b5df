//! The registry of games (issue 58, item 2): every registered game passes the conformance
//! test and its fact sheet's claims, every registered agent plays every game, and the
//! framework's arena plays a game other than TDE with its report and ratings.

use eval::games::{all, find, AgentSources, RegisteredGame};
use eval::ArenaOptions;

fn games() -> Vec<Box<dyn RegisteredGame>> {
    all(&AgentSources::default()).unwrap()
}

#[test]
fn the_registry_holds_tde_the_encounter_and_tictactoe_each_with_a_fact_sheet() {
    let names: Vec<&str> = games().iter().map(|g| g.game_type().short_name).collect();
    assert_eq!(names, ["tde", "encounter", "tictactoe"]);
    for game in games() {
        let facts = game.facts().unwrap();
        assert!(!facts.scenarios.is_empty() && !facts.agents.is_empty(), "{facts:?}");
        assert!(facts.tensor.policy_size > 0 && facts.tensor.planes > 0, "{facts:?}");
        assert!(facts.agents.contains(&"random"), "{facts:?}");
        let text = facts.text();
        assert!(text.starts_with(facts.game_type.short_name) && text.contains("policy"), "{text}");
    }
    let ttt = find(&AgentSources::default(), "TicTacToe").unwrap().facts().unwrap();
    assert_eq!((ttt.tensor.planes, ttt.tensor.depth, ttt.tensor.width, ttt.tensor.policy_size), (3, 3, 3, 9));
    let err = find(&AgentSources::default(), "chess").err().unwrap();
    assert!(err.contains("unknown game `chess`") && err.contains("encounter"), "{err}");
}

#[test]
fn every_registered_game_passes_the_conformance_test_and_its_fact_sheet() {
    for game in games() {
        let report = game.conformance(None).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            report.games > 0 && report.illegal_checked > 0,
            "{}: {report:?}",
            game.game_type().short_name
        );
    }
}

#[test]
fn a_fact_sheet_that_claims_too_much_is_refused() {
    let mut claims = eval::games::tictactoe::GAME_TYPE;
    claims.chance = agents::ChanceMode::ExplicitStochastic;
    let report = agents::conformance::Report { games: 1, nodes: 9, ..Default::default() };
    let err =
        agents::conformance::check_game_type(&claims, &tictactoe::TicTacToe::new(), &report).unwrap_err();
    assert!(err.contains("ExplicitStochastic") && err.contains("0 chance nodes"), "{err}");
}

#[test]
fn every_registered_agent_plays_every_game_reproducibly() {
    for game in games() {
        let name = game.game_type().short_name;
        for spec in game.test_specs() {
            for (seed, specs) in [(1, [spec.as_str(), "random"]), (2, ["random", spec.as_str()])] {
                let played = game.test_game(specs, seed).unwrap_or_else(|e| panic!("{name}, {specs:?}: {e}"));
                assert!(played.decisions > 0, "{name}, {specs:?}: {played:?}");
                let again = game.test_game(specs, seed).unwrap();
                assert_eq!(again, played, "{name}, {specs:?}, seed {seed}: not reproducible");
            }
        }
    }
}

#[test]
fn the_encounter_plays_through_the_frameworks_arena_with_its_report_and_ratings() {
    let game = find(&AgentSources::default(), "encounter").unwrap();
    let agents: Vec<String> = ["random", "scripted"].map(String::from).to_vec();
    let options = ArenaOptions { threads: 2, out: None, records: false, progress: false };
    let results = game.arena(&agents, &["all".to_string()], 6, 3, &options).unwrap();
    assert_eq!(results.games, 6);
    assert_eq!(results.settings.scenarios, ["encounter"]);
    assert_eq!(results.ratings.len(), 2);
    let again = game.arena(
        &agents,
        &["encounter".to_string()],
        6,
        3,
        &ArenaOptions { threads: 1, ..options.clone() },
    );
    assert_eq!(reproducible(&again.unwrap()), reproducible(&results), "the same seed, other threads");
    let summary = eval::report::summary(&results);
    assert!(summary.contains("scripted") && summary.contains("random"), "{summary}");
    let err = game.arena(&agents, &["couriers".to_string()], 2, 1, &options).unwrap_err();
    assert!(err.contains("--scenarios") && err.contains("encounter"), "{err}");
}

/// The results without their timing (which varies between runs).
fn reproducible(r: &eval::Results) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    v.as_object_mut().unwrap().remove("timing");
    v
}
