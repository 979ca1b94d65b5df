//! Expert iteration's games: searched decisions carry the search's improved policy and a
//! value mixed from the search and the result, the share of searches follows the plan,
//! opponents play their side, and a seed gives the same games; with MCTS as the search, its
//! move is the target and every iteration of its budget counts; with a race, each candidate's
//! advantage over its siblings is.

use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::agent::FastNet;
use fastnet::data::Dataset;
use fastnet::expert::{expert_games, ExpertPlan, ExpertSearch, Opponent};
use std::path::Path;
use std::sync::Arc;

fn net() -> Arc<FastNet> {
    Arc::new(
        FastNet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/fast/gen-000.fnet"))
            .unwrap(),
    )
}

fn lineups() -> Lineups {
    let c = GameConfig::default();
    Lineups::new(
        c.clone(),
        Pool::drawn_or(&["all".to_string()], c.board.clone()),
        Pool::crews(&["all".to_string()]).unwrap(),
    )
    .unwrap()
}

fn plan(games: u64, full_share: f64, value_mix: f64, opponent_share: f64) -> ExpertPlan {
    ExpertPlan {
        games,
        seed: 40,
        net: net(),
        search: ExpertSearch::parse("sims=8,considered=4,rescale=0,noise=1").unwrap(),
        full_share,
        temperature: 0.5,
        value_mix,
        opponent_share,
        opponents: vec![Opponent::Scripted],
        other_nodes: 0.1,
    }
}

fn values(d: &Dataset) -> Vec<f32> {
    d.positions.iter().map(|p| p.value).collect()
}

#[test]
fn searched_decisions_are_targets_and_the_value_mixes_search_and_result() {
    let (d, stats) = expert_games(&plan(4, 0.3, 0.5, 0.0), &lineups(), &|| {}).unwrap();
    assert_eq!(stats.games, 4);
    assert!(stats.searches > 20, "{stats:?}");
    assert_eq!(d.policy_positions() as u64, stats.searches, "one policy target per search");
    // About 30% of the decisions with a choice searched in full.
    let share = stats.searches as f64 / (stats.searches + stats.fast_moves) as f64;
    assert!((0.2..0.4).contains(&share), "searched share {share:.2}: {stats:?}");
    assert!(stats.simulations >= 8 * stats.searches / 2, "{stats:?}");
    for p in &d.positions {
        assert!((-1.0..=1.0).contains(&p.value), "value {}", p.value);
        let actions = d.actions_of(p);
        if actions.is_empty() {
            continue;
        }
        let total: f32 = actions.iter().map(|a| a.target).sum();
        assert!((total - 1.0).abs() < 1e-3, "policy target sums to {total}");
    }
    // Results alone are -1, 0 or 1; a mix with the search's value mostly is not.
    let mixed = values(&d).iter().filter(|v| ![-1.0, 0.0, 1.0].contains(*v)).count();
    assert!(mixed as u64 >= stats.searches, "{mixed} mixed values for {} searches", stats.searches);
    let (results_only, _) = expert_games(&plan(4, 0.3, 0.0, 0.0), &lineups(), &|| {}).unwrap();
    assert!(values(&results_only).iter().all(|v| [-1.0, 0.0, 1.0].contains(v)));
}

#[test]
fn every_decision_is_searched_at_a_full_share_of_one_and_a_seed_repeats_its_games() {
    let (d, stats) = expert_games(&plan(2, 1.0, 0.5, 0.0), &lineups(), &|| {}).unwrap();
    assert_eq!(stats.fast_moves, 0);
    let (again, again_stats) = expert_games(&plan(2, 1.0, 0.5, 0.0), &lineups(), &|| {}).unwrap();
    assert_eq!(d, again);
    assert_eq!(stats, again_stats);
}

#[test]
fn opponents_play_their_side_and_the_learner_is_scored_against_them() {
    let (d, stats) = expert_games(&plan(6, 0.3, 0.5, 1.0), &lineups(), &|| {}).unwrap();
    assert_eq!(stats.opponent_games, 6);
    assert!((0.0..=6.0).contains(&stats.opponent_points));
    let (selfplay, self_stats) = expert_games(&plan(6, 0.3, 0.5, 0.0), &lineups(), &|| {}).unwrap();
    assert_eq!(self_stats.opponent_games, 0);
    // Against an opponent the learner plays one side: fewer of its decisions than in
    // self-play, where it plays both.
    assert!(
        stats.searches + stats.fast_moves < self_stats.searches + self_stats.fast_moves,
        "{stats:?} / {self_stats:?}"
    );
    assert!(d.policy_positions() < selfplay.policy_positions());
}

#[test]
fn a_plan_out_of_range_is_refused_by_field() {
    for (p, field) in [
        (plan(1, 0.0, 0.5, 0.0), "full_share"),
        (plan(1, 0.5, 1.5, 0.0), "value_mix"),
        (ExpertPlan { opponents: vec![], ..plan(1, 0.5, 0.5, 0.5) }, "opponents"),
    ] {
        let err = expert_games(&p, &lineups(), &|| {}).unwrap_err();
        assert!(err.starts_with(field), "{err}");
    }
}

#[test]
fn an_mcts_search_teaches_its_move_and_its_value_with_the_whole_budget_spent() {
    for search in ["mcts-fast:iters=24,width=2", "mcts:iters=24,rollout=scripted,width=3"] {
        an_mcts_search_teaches(ExpertSearch::parse(search).unwrap());
    }
}

fn an_mcts_search_teaches(search: ExpertSearch) {
    let mcts_plan = ExpertPlan { search, ..plan(3, 0.3, 1.0, 0.0) };
    let (d, stats) = expert_games(&mcts_plan, &lineups(), &|| {}).unwrap();
    assert!(stats.searches > 10, "{stats:?}");
    assert_eq!(d.policy_positions() as u64, stats.searches);
    // Every iteration passes through one root action.
    assert_eq!(stats.simulations, 24 * stats.searches, "{stats:?}");
    for p in &d.positions {
        let actions = d.actions_of(p);
        if actions.is_empty() {
            continue;
        }
        let ones = actions.iter().filter(|a| a.target == 1.0).count();
        let zeros = actions.iter().filter(|a| a.target == 0.0).count();
        assert_eq!((ones, zeros), (1, actions.len() - 1), "a one-hot target on the search's move");
    }
    // With the value mixed wholly from the search, searched positions carry the search's
    // value, not a result.
    let searched_values = values(&d).iter().filter(|v| ![-1.0, 0.0, 1.0].contains(*v)).count();
    assert!(searched_values as u64 >= stats.searches, "{searched_values} for {} searches", stats.searches);
    let (again, again_stats) = expert_games(&mcts_plan, &lineups(), &|| {}).unwrap();
    assert_eq!((d, stats), (again, again_stats), "a seed repeats its games");
}

#[test]
fn an_mcts_search_on_a_clock_or_with_unknown_keys_or_players_is_refused() {
    for (text, why) in [
        ("mcts-fast:ms=20,width=2", "iters"),
        ("mcts-fast:iters=10,depht=2", "depht"),
        ("mcts:ms=20,rollout=scripted", "iters"),
        ("mcts:iters=8,rollout=dice", "dice"),
    ] {
        let err = ExpertSearch::parse(text).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
    }
    assert!(matches!(ExpertSearch::parse("sims=8,considered=4").unwrap(), ExpertSearch::Az(_)));
    assert!(matches!(
        ExpertSearch::parse("mcts:iters=8,rollout=scripted").unwrap(),
        ExpertSearch::RolloutMcts(_)
    ));
}

#[test]
fn a_policy_gradient_game_keeps_the_drawn_move_weighted_by_its_advantage() {
    let search = ExpertSearch::parse("pg:lambda=1").unwrap();
    assert_eq!(search, ExpertSearch::PolicyGradient { lambda: 1.0 });
    let pg = ExpertPlan { search, temperature: 1.0, other_nodes: 0.0, ..plan(3, 0.5, 0.5, 0.0) };
    let (d, stats) = expert_games(&pg, &lineups(), &|| {}).unwrap();
    assert_eq!(stats.simulations, 0, "no search");
    assert_eq!(d.policy_positions() as u64, stats.searches);
    let share = stats.searches as f64 / (stats.searches + stats.fast_moves) as f64;
    assert!((0.4..0.6).contains(&share), "kept share {share:.2}: {stats:?}");
    let params = net().params().clone();
    let (mut offsets, mut advantages) = (Vec::new(), Vec::new());
    for p in &d.positions {
        let actions = d.actions_of(p);
        if actions.is_empty() {
            continue;
        }
        // One move carries a target: with λ = 1, the result (the value target) less the
        // network's value when it chose (found again here from the position's features),
        // less the mean of the plan's advantages.
        let moved: Vec<f32> = actions.iter().map(|a| a.target).filter(|&t| t != 0.0).collect();
        assert!(moved.len() <= 1, "{moved:?}");
        let advantage = moved.first().copied().unwrap_or(0.0);
        let value = fastnet::network::value(&params, &fastnet::network::trunk(&params, d.features_of(p)));
        assert!([-1.0, 0.0, 1.0].contains(&p.value), "the result is the value target");
        offsets.push(p.value - value - advantage);
        advantages.push(advantage);
    }
    let n = advantages.len() as f32;
    assert!(n > 50.0, "{n} moves");
    assert!((advantages.iter().sum::<f32>() / n).abs() < 1e-3, "advantages centred");
    assert!(
        advantages.iter().filter(|&&a| a > 0.0).count() > 5
            && advantages.iter().filter(|&&a| a < 0.0).count() > 5
    );
    let mean_offset = offsets.iter().sum::<f32>() / n;
    for o in &offsets {
        assert!((o - mean_offset).abs() < 0.05, "offset {o} against the mean {mean_offset}");
    }
    let (again, again_stats) = expert_games(&pg, &lineups(), &|| {}).unwrap();
    assert_eq!((d, stats), (again, again_stats), "a seed repeats its games");
}

#[test]
fn a_policy_gradient_plan_without_a_temperature_or_with_a_bad_lambda_is_refused() {
    let pg =
        ExpertPlan { search: ExpertSearch::parse("pg").unwrap(), temperature: 0.0, ..plan(1, 0.5, 0.5, 0.0) };
    assert!(expert_games(&pg, &lineups(), &|| {}).unwrap_err().starts_with("temperature"));
    for (text, why) in [("pg:lambda=1.5", "1.5"), ("pg:lamda=0.5", "lamda"), ("pg:lambda=x", "x")] {
        let err = ExpertSearch::parse(text).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
    }
    assert_eq!(ExpertSearch::parse("pg").unwrap(), ExpertSearch::PolicyGradient { lambda: 1.0 });
}

#[test]
fn a_race_teaches_each_candidates_advantage_over_its_siblings() {
    let search = ExpertSearch::parse("race:rounds=4,width=3").unwrap();
    let ExpertSearch::Race(config) = &search else { panic!("{search:?}") };
    assert_eq!((config.rounds, config.width, config.min_rounds), (4, 3, u32::MAX), "no candidate is dropped");
    let race_plan = ExpertPlan { search, ..plan(3, 0.3, 0.0, 0.0) };
    let (d, stats) = expert_games(&race_plan, &lineups(), &|| {}).unwrap();
    assert!(stats.searches > 10, "{stats:?}");
    assert_eq!(d.policy_positions() as u64, stats.searches);
    // Every candidate runs all four rounds; two or three candidates a decision.
    assert_eq!(stats.simulations % 4, 0, "{stats:?}");
    assert!((8 * stats.searches..=12 * stats.searches).contains(&stats.simulations), "{stats:?}");
    let mut told_apart = 0;
    for p in &d.positions {
        let actions = d.actions_of(p);
        if actions.is_empty() {
            continue;
        }
        let raced = actions.iter().filter(|a| a.target != 0.0).count();
        assert!(raced <= 3, "only the raced candidates carry a target: {raced}");
        let sum: f32 = actions.iter().map(|a| a.target).sum();
        assert!(sum.abs() < 1e-5, "advantages over the candidates' mean sum to zero: {sum}");
        told_apart += (raced > 0) as usize;
    }
    assert!(
        told_apart * 2 > stats.searches as usize,
        "the rollouts told most candidates apart: {told_apart}"
    );
    // With the value taken from the results alone, every value target is a result.
    assert!(values(&d).iter().all(|v| [-1.0, 0.0, 1.0].contains(v)));
    let (again, again_stats) = expert_games(&race_plan, &lineups(), &|| {}).unwrap();
    assert_eq!((d, stats), (again, again_stats), "a seed repeats its games");
    let err = ExpertSearch::parse("race:ms=20,width=3").unwrap_err();
    assert!(err.contains("give rounds"), "{err}");
    assert!(ExpertSearch::parse("race:rounds=4,wide=3").unwrap_err().contains("wide"));
}
