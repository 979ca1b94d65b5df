//! Expert games: a search player's visit distributions become the targets, shards are
//! written once and read back whole, and a finished generation plays nothing again.

use training::network_training::config::{ChildOrder, Config, DataConfig};
use training::network_training::expert::{generate, load, play_game, samples_of};

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
    let samples = samples_of(&game, &DataConfig::default()).unwrap();
    assert_eq!(samples.len(), game.targets.len(), "every target becomes a sample");
}

#[test]
fn data_every_keeps_every_kth_sample_of_a_game() {
    let c = config(&["scripted"], 3);
    for g in 0..3 {
        let game = play_game(&c, g).unwrap();
        let all = samples_of(&game, &c.data).unwrap();
        let kept = samples_of(&game, &DataConfig { every: 4, ..c.data.clone() }).unwrap();
        let expected: Vec<_> = all.iter().skip(g % 4).step_by(4).collect();
        assert_eq!(kept.len(), expected.len(), "game {g}");
        for (k, e) in kept.iter().zip(expected) {
            assert_eq!((k.player, &k.target, &k.recipes), (e.player, &e.target, &e.recipes), "game {g}");
        }
    }
    let mut bad = config(&["scripted"], 1);
    bad.data.every = 0;
    assert_eq!(bad.check("c.toml").unwrap_err().field, "data.every");
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
    let first = std::fs::read_to_string(training::network_training::expert::shard_path(&run, 1)).unwrap();
    std::fs::remove_file(training::network_training::expert::shard_path(&run, 1)).unwrap();
    assert_eq!(generate(&run, &c, false).unwrap(), 1);
    assert_eq!(
        std::fs::read_to_string(training::network_training::expert::shard_path(&run, 1)).unwrap(),
        first
    );
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
        let samples = samples_of(&game, &c.data).unwrap();
        assert!(!samples.is_empty());
        assert!(
            samples.iter().all(|s| s.player == expert),
            "game {g}: only the expert's decisions are targets"
        );
    }
    assert!(sides[0] > 0 && sides[1] > 0, "the expert plays both sides: {sides:?}");
}

/// Targets and how many of them differ from the move played, over games `0..games`.
fn targets_overruled(c: &Config, games: usize) -> (usize, usize) {
    use engine::setup::{new_game, GameConfig};
    let (mut targets, mut overruled) = (0, 0);
    for g in 0..games {
        let game = play_game(c, g).unwrap();
        let scenario = training::network_training::expert::play_setup(c, g).unwrap().0;
        let setup = GameConfig {
            board: game.board.clone(),
            crews: game.crews.clone(),
            scenario,
            ..GameConfig::default()
        };
        let mut state = new_game(&setup).unwrap();
        let mut next = game.targets.iter().peekable();
        for (ply, &action) in game.actions.iter().enumerate() {
            if let Some(t) = next.next_if(|t| t.ply as usize == ply) {
                assert_eq!(t.probs.len(), 1, "the scripted expert's choice is one-hot");
                let legal = state.legal_actions();
                targets += 1;
                overruled += usize::from(legal[t.probs[0].0 as usize] != action);
            }
            state.apply_action(action).unwrap();
        }
        assert!(state.is_terminal(), "the record replays to the end");
    }
    (targets, overruled)
}

#[test]
fn a_driver_plays_its_share_of_the_experts_moves_while_the_expert_stays_the_target() {
    let mut c = config(&["scripted"], 2);
    c.data.driver = Some("random".into());
    c.data.driver_share = 1.0;
    let (targets, overruled) = targets_overruled(&c, 2);
    assert!(targets > 20);
    // A random driver rarely agrees with the expert, yet the expert's choices are the targets.
    assert!(overruled * 2 > targets, "{overruled} of {targets} targets differ from the move played");
    c.data.driver_share = 0.0;
    let (targets, overruled) = targets_overruled(&c, 2);
    assert!(targets > 20);
    assert_eq!(overruled, 0, "with share 0 the expert plays every move");
}

#[test]
fn a_driver_share_without_a_driver_is_refused() {
    let mut c = config(&["scripted"], 2);
    c.data.driver_share = 0.5;
    let e = c.check("c.toml").unwrap_err();
    assert_eq!(e.field, "data.driver_share");
}

#[test]
fn with_value_from_opponents_the_opponents_decisions_teach_only_the_value() {
    let mut c = config(&["scripted"], 4);
    c.data.opponents = vec!["random".into()];
    c.data.value_from_opponents = true;
    c.check("c.toml").unwrap();
    for g in 0..4 {
        let game = play_game(&c, g).unwrap();
        let expert = game.agents.iter().position(|a| a == "scripted").unwrap();
        let imitated =
            samples_of(&game, &DataConfig { value_from_opponents: false, ..c.data.clone() }).unwrap();
        let samples = samples_of(&game, &c.data).unwrap();
        let (taught, value_only): (Vec<_>, Vec<_>) = samples.iter().partition(|s| s.teaches_policy);
        assert_eq!(taught.len(), imitated.len(), "game {g}: the expert's targets are unchanged");
        assert!(taught.iter().all(|s| s.player == expert));
        assert!(!value_only.is_empty(), "game {g}: the opponent's decisions are samples too");
        for s in &value_only {
            assert_eq!(s.player, 1 - expert, "game {g}: value-only samples are the opponent's");
            assert!(s.target.iter().all(|&p| p == 0.0), "a value-only sample has no policy target");
            assert!(s.state.legal_actions().len() >= 2, "only real choices");
            assert_eq!(s.value, game.returns[s.player] as f32, "the mover's own result");
        }
        // Each side's value weights sum to half the game's samples.
        let weight =
            |side: usize| samples.iter().filter(|s| s.player == side).map(|s| s.value_weight).sum::<f32>();
        let half = samples.len() as f32 / 2.0;
        assert!(
            (weight(0) - half).abs() < 1e-3 && (weight(1) - half).abs() < 1e-3,
            "game {g}: balanced sides"
        );
    }
}

#[test]
fn value_from_opponents_without_opponents_is_refused() {
    let mut c = config(&["scripted"], 2);
    c.data.value_from_opponents = true;
    let e = c.check("c.toml").unwrap_err();
    assert_eq!(e.field, "data.value_from_opponents");
    assert!(e.to_string().contains("c.toml"), "{e}");
}

/// Two games of `scripted` against `random`, both sides' decisions kept every `every`-th,
/// each with `rollouts` random rollouts and `children` children.
fn rollout_config(every: usize, rollouts: u32, children: usize) -> Config {
    let mut c = config(&["scripted"], 2);
    c.data.opponents = vec!["random".into()];
    c.data.value_from_opponents = true;
    c.data.every = every;
    c.data.value_rollouts = rollouts;
    c.data.rollout_agent = "random".into();
    c.data.value_children = children;
    c
}

#[test]
fn with_value_rollouts_each_kept_decision_learns_its_rollouts_mean_return() {
    let c = rollout_config(5, 3, 0);
    c.check("c.toml").unwrap();
    for g in 0..2 {
        let game = play_game(&c, g).unwrap();
        let samples = samples_of(&game, &c.data).unwrap();
        assert_eq!(game.rollout_values.len(), samples.len(), "game {g}: one rollout value per kept decision");
        assert_eq!(game, play_game(&c, g).unwrap(), "game {g}: rollouts are seeded");
        for (s, &(ply, mean)) in samples.iter().zip(&game.rollout_values) {
            assert_eq!(s.value, mean, "game {g}: ply {ply}");
            // Three games' returns in {-1, 0, 1}: a multiple of a third.
            assert!(((mean * 3.0).round() - mean * 3.0).abs() < 1e-4, "game {g}: {mean}");
        }
        let results = samples_of(&game, &DataConfig { value_rollouts: 0, ..c.data.clone() }).unwrap();
        assert!(results.iter().all(|s| s.value == game.returns[s.player] as f32));
        assert!(
            samples.iter().zip(&results).any(|(r, s)| r.value != s.value),
            "game {g}: rollouts from the early positions do not all repeat the game's result"
        );
    }
    // A shard played without rollouts cannot feed a run that asks for them.
    let plain_config = Config { data: DataConfig { value_rollouts: 0, ..c.data.clone() }, ..c.clone() };
    let plain = play_game(&plain_config, 0).unwrap();
    let e = samples_of(&plain, &c.data).unwrap_err();
    assert!(e.contains("no rollout value") && e.contains("data.value_rollouts"), "{e}");
    let mut bad = c.clone();
    bad.data.value_rollouts = 1001;
    assert_eq!(bad.check("c.toml").unwrap_err().field, "data.value_rollouts");
    bad.data.value_rollouts = 2;
    bad.data.rollout_agent = " ".into();
    assert_eq!(bad.check("c.toml").unwrap_err().field, "data.rollout_agent");
}

#[test]
fn with_value_children_the_positions_after_several_actions_learn_their_rollout_values() {
    let c = rollout_config(9, 2, 3);
    c.check("c.toml").unwrap();
    for g in 0..2 {
        let game = play_game(&c, g).unwrap();
        assert_eq!(game, play_game(&c, g).unwrap(), "game {g}: children are seeded");
        let plain = samples_of(&game, &DataConfig { value_children: 0, ..c.data.clone() }).unwrap();
        let samples = samples_of(&game, &c.data).unwrap();
        assert_eq!(samples.len(), plain.len() + game.children.len(), "game {g}: one sample per child");
        let kept: Vec<u32> = game.rollout_values.iter().map(|&(ply, _)| ply).collect();
        let mut at = 0;
        for &ply in &kept {
            let children: Vec<_> = game.children.iter().filter(|ch| ch.ply == ply).collect();
            assert!(children.len() <= 3, "game {g}: ply {ply}");
            let distinct: std::collections::HashSet<u16> = children.iter().map(|ch| ch.action).collect();
            assert_eq!(distinct.len(), children.len(), "game {g}: ply {ply}: distinct actions");
            // The decision's own sample, then its children's, value-only, in order.
            let own = &samples[at];
            assert_eq!(own.value, game.rollout_values.iter().find(|v| v.0 == ply).unwrap().1);
            for (k, ch) in children.iter().enumerate() {
                let s = &samples[at + 1 + k];
                assert!(!s.teaches_policy && s.value == ch.value, "game {g}: ply {ply}");
                assert!(!s.state.legal_actions().is_empty(), "game {g}: ply {ply}: a child is a decision");
            }
            at += 1 + children.len();
        }
        assert_eq!(at, samples.len());
        // The first child of a kept decision is the action played there.
        let first = game.children.first().expect("some children");
        let state_samples = samples_of(&game, &DataConfig { value_children: 0, ..c.data.clone() }).unwrap();
        let decision = &state_samples[kept.iter().position(|&p| p == first.ply).unwrap()];
        let legal = decision.state.legal_actions();
        assert_eq!(legal[first.action as usize], game.actions[first.ply as usize], "game {g}");
    }
    let mut bad = c.clone();
    bad.data.value_rollouts = 0;
    assert_eq!(bad.check("c.toml").unwrap_err().field, "data.value_children");
    bad.data.value_rollouts = 2;
    bad.data.value_children = 65;
    assert_eq!(bad.check("c.toml").unwrap_err().field, "data.value_children");
}

#[test]
fn likely_children_are_the_experts_most_probable_actions_and_know_their_decision() {
    let generation = concat!(env!("CARGO_MANIFEST_DIR"), "/../checkpoints/learned/gen-000.json");
    let mut c = rollout_config(9, 2, 3);
    c.data.agents = vec![format!("learned:gen={generation},teach=0.3")];
    c.data.children = ChildOrder::Likely;
    c.check("c.toml").unwrap();
    let game = play_game(&c, 0).unwrap();
    let samples = samples_of(&game, &c.data).unwrap();
    let mut checked = 0;
    for target in game.targets.iter().filter(|t| game.rollout_values.iter().any(|v| v.0 == t.ply)) {
        let children: Vec<_> = game.children.iter().filter(|ch| ch.ply == target.ply).collect();
        let prob = |action: u16| target.probs.iter().find(|p| p.0 == action).map_or(0.0, |p| p.1);
        // After the action played, the others by falling probability, the first of them the
        // most probable of all the actions not played.
        let others: Vec<f32> = children.iter().skip(1).map(|ch| prob(ch.action)).collect();
        assert!(others.windows(2).all(|w| w[0] >= w[1]), "ply {}: {others:?}", target.ply);
        if let Some(&second) = others.first() {
            let played = children[0].action;
            let best_other = target.probs.iter().filter(|p| p.0 != played).map(|p| p.1).fold(0.0, f32::max);
            assert_eq!(second, best_other, "ply {}", target.ply);
            checked += 1;
        }
    }
    assert!(checked > 3, "{checked} expert decisions with children");
    // Each child knows its decision, and whether its player to move is the one who decided.
    let mut decider = None;
    for s in &samples {
        match s.sibling {
            None => decider = Some(s.player),
            Some(sibling) => {
                let same = Some(s.player) == decider;
                assert_eq!(sibling.sign, if same { 1.0 } else { -1.0 });
            }
        }
    }
    let decisions: std::collections::HashSet<u64> =
        samples.iter().filter_map(|s| s.sibling).map(|s| s.decision).collect();
    assert_eq!(decisions.len(), samples.iter().filter(|s| s.sibling.is_none()).count() - missing(&game));
}

/// Kept decisions none of whose children could be stored (every one ended the game).
fn missing(game: &training::network_training::expert::ShardGame) -> usize {
    game.rollout_values.iter().filter(|v| !game.children.iter().any(|ch| ch.ply == v.0)).count()
}

#[test]
fn a_sibling_loss_without_children_is_refused() {
    let mut c = rollout_config(9, 2, 0);
    c.train.sibling_weight = 1.0;
    assert_eq!(c.check("c.toml").unwrap_err().field, "train.sibling_weight");
    c.data.value_children = 2;
    c.check("c.toml").unwrap();
    c.train.sibling_weight = -1.0;
    assert_eq!(c.check("c.toml").unwrap_err().field, "train.sibling_weight");
}
