//! Expert games: a search player's visit distributions become the targets, shards are
//! written once and read back whole, and a finished generation plays nothing again.

use training::config::Config;
use training::expert::{generate, load, play_game, samples_of};

fn config(agents: &[&str], games: usize) -> Config {
    let mut c = Config { seed: 4, ..Config::default() };
    c.data.games = games;
    c.data.games_per_shard = 1;
    c.data.scenarios = vec!["assassinate".into()];
    c.data.agents = agents.iter().map(|s| s.to_string()).collect();
    c.data.validation = 0.5;
    c
}

#[test]
fn a_search_players_visit_distribution_is_its_target_and_a_scripted_players_choice_is_its() {
    let game = play_game(&config(&["mcts:iters=24,depth=2,width=4"], 1), 0).unwrap();
    assert!(!game.targets.is_empty());
    assert!(
        game.targets.iter().any(|t| t.probs.len() > 1),
        "visit distributions spread over several actions"
    );
    for t in &game.targets {
        let sum: f32 = t.probs.iter().map(|&(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-4, "targets sum to 1: {t:?}");
    }
    let scripted = play_game(&config(&["scripted"], 1), 0).unwrap();
    assert!(scripted.targets.iter().all(|t| t.probs == vec![(t.probs[0].0, 1.0)]), "one-hot choices");
    let samples = samples_of(&game).unwrap();
    assert_eq!(samples.len(), game.targets.len(), "every target becomes a sample");
}

#[test]
fn shards_are_written_once_and_read_back_whole() {
    let run = std::env::temp_dir().join(format!("tde-expert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    let c = config(&["scripted"], 3);
    assert_eq!(generate(&run, &c, false).unwrap(), 3);
    assert_eq!(generate(&run, &c, false).unwrap(), 0, "a finished generation plays nothing again");
    let (train, valid) = load(&run, &c).unwrap();
    let expected: usize = (0..3).map(|g| play_game(&c, g).unwrap().targets.len()).sum();
    assert_eq!(train.len() + valid.len(), expected, "no position lost or read twice");
    // A missing shard is played again, the same game.
    let first = std::fs::read_to_string(training::expert::shard_path(&run, 1)).unwrap();
    std::fs::remove_file(training::expert::shard_path(&run, 1)).unwrap();
    assert_eq!(generate(&run, &c, false).unwrap(), 1);
    assert_eq!(std::fs::read_to_string(training::expert::shard_path(&run, 1)).unwrap(), first);
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn against_opponents_only_the_experts_decisions_are_targets() {
    let mut c = config(&["scripted"], 6);
    c.data.opponents = vec!["random".into()];
    let mut sides = [0, 0];
    for g in 0..6 {
        let game = play_game(&c, g).unwrap();
        let expert = game.agents.iter().position(|a| a == "scripted").expect("one side is the expert");
        assert_eq!(game.agents[1 - expert], "random");
        sides[expert] += 1;
        let samples = samples_of(&game).unwrap();
        assert!(!samples.is_empty());
        assert!(
            samples.iter().all(|s| s.player == expert),
            "game {g}: only the expert's decisions are targets"
        );
    }
    assert!(sides[0] > 0 && sides[1] > 0, "the expert plays both sides: {sides:?}");
}
