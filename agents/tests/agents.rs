//! The built-in agents always choose legal actions, and the greedy baseline beats random play.

use agents::{make_agent, play};
use engine::setup::{new_game, GameConfig};

fn game(seed: u64, a: &str, b: &str) -> engine::GameState {
    let mut agents = vec![make_agent(a, seed * 2).unwrap(), make_agent(b, seed * 2 + 1).unwrap()];
    // `play` panics if an agent picks an illegal action.
    play(new_game(&GameConfig::default()).unwrap(), &mut agents, seed, None, |_, _| {}).state
}

#[test]
fn agents_play_whole_games_with_legal_actions_only() {
    for seed in 0..4 {
        for (a, b) in [("random", "random"), ("greedy", "greedy"), ("greedy", "random")] {
            assert!(game(seed, a, b).is_terminal());
        }
    }
}

#[test]
fn greedy_beats_random_more_often_than_not() {
    let mut wins = 0;
    let games = 20;
    for seed in 0..games {
        // Sides alternate so neither agent keeps the same deployment.
        let (a, b, greedy_side) =
            if seed % 2 == 0 { ("greedy", "random", 0) } else { ("random", "greedy", 1) };
        if game(seed, a, b).outcome().winner == Some(greedy_side) {
            wins += 1;
        }
    }
    println!("greedy won {wins} of {games} games against random");
    assert!(wins * 2 > games, "greedy won only {wins} of {games}");
}

#[test]
fn unknown_agents_are_rejected_with_the_list_of_known_ones() {
    let err = make_agent("alphago", 1).err().expect("rejected");
    assert!(err.contains("random") && err.contains("greedy"));
}

#[test]
fn mcts_specs_take_a_rollout_player_and_reject_unknown_ones() {
    let a = make_agent("mcts:iters=10,rollout=scripted", 1).unwrap();
    assert!(a.name().contains("rollout=scripted"), "{}", a.name());
    let err = make_agent("mcts:rollout=alphago", 1).err().expect("rejected");
    assert!(err.contains("alphago"));
}
