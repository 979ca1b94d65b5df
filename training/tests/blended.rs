//! The shipped network blended with the scripted order: as a policy it plays whole games with
//! legal actions only; as MCTS's root ranker it chooses the root's candidates (one network
//! evaluation a move) while rollouts value them; bad parameters are refused by name.

use agents::mcts::Ranker;
use agents::{Agent, Game, Turn};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
use training::network::loaded::Network;
use training::play::blend::{blended_order, BlendedPolicy};
use training::play::make_agent;

fn shipped() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/bootstrap_value").display().to_string()
}

/// The first decision with at least `choices` legal actions of a scenario's game, playing the
/// first legal action before it and sampling the dice from `seed`.
fn decision_with(scenario: Scenario, choices: usize, seed: u64) -> GameState {
    let config = GameConfig { scenario, ..GameConfig::default() };
    let mut state = new_game(&config).unwrap();
    let mut dice = ChaCha8Rng::seed_from_u64(seed);
    loop {
        match Game::turn(&state) {
            Turn::Player(_) if Game::legal_actions(&state).len() >= choices => return state,
            Turn::Chance => {
                let outcome = state.sample_chance(&mut dice).unwrap();
                state.apply_action(outcome).unwrap();
            }
            Turn::Terminal => panic!("no decision with {choices} choices"),
            Turn::Player(_) => {
                let first = Game::legal_actions(&state)[0];
                state.apply_action(first).unwrap();
            }
        }
    }
}

#[test]
fn the_blended_policy_plays_a_whole_game_with_legal_actions_only() {
    let blended = make_agent(&format!("policy:checkpoint={},blend=1", shipped()), 3).unwrap();
    assert!(blended.name().ends_with(",blend=1"), "{}", blended.name());
    let mut agents: Vec<Box<dyn Agent<GameState>>> = vec![blended, make_agent("scripted", 4).unwrap()];
    let config = GameConfig { scenario: Scenario::Couriers, ..GameConfig::default() };
    let end = agents::play_game(new_game(&config).unwrap(), &mut agents, 5, |_, _| {});
    assert_eq!(Game::turn(&end), Turn::Terminal);
}

#[test]
fn the_blend_ranks_every_legal_action_between_the_network_and_the_scripted_order() {
    let network = Arc::new(Network::load_for_tde(std::path::Path::new(&shipped())).unwrap());
    let state = decision_with(Scenario::Assassinate, 6, 1);
    let Turn::Player(p) = Game::turn(&state) else { unreachable!() };
    let out = network.evaluate(&[(&state, p)]).unwrap().remove(0);
    let mut scripted = out.legal.clone();
    agents::ScriptedAgent::new(0).rank(&state, &mut scripted);
    for (weight, expected) in [
        (0.0, blended_order(&out.legal, &out.priors, &scripted, 0.0)),
        (1.0, blended_order(&out.legal, &out.priors, &scripted, 1.0)),
        (100.0, scripted.clone()),
    ] {
        let mut ranked = Game::legal_actions(&state);
        BlendedPolicy::new(network.clone(), weight, 9).rank(&state, &mut ranked);
        assert_eq!(ranked, expected, "weight {weight}");
        let mut agent = BlendedPolicy::new(network.clone(), weight, 9);
        assert_eq!(agent.select_action(&state), expected[0], "weight {weight}");
    }
    // Weight 0 is the network's own order: most probable first.
    let best = out.priors.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
    assert_eq!(blended_order(&out.legal, &out.priors, &scripted, 0.0)[0], out.legal[best]);
}

#[test]
fn mcts_with_rollouts_searches_only_the_blends_best_candidates_at_the_root() {
    let network = Arc::new(Network::load_for_tde(std::path::Path::new(&shipped())).unwrap());
    let spec = format!("mcts:iters=24,rollout=scripted,depth=4,width=3,net={}", shipped());
    let mut agent = make_agent(&spec, 7).unwrap();
    assert!(agent.name().contains(",root=net:") && agent.name().contains(",blend=1"), "{}", agent.name());
    for (scenario, seed) in [(Scenario::GrudgeMatch, 2), (Scenario::ScavengerHunt, 3)] {
        let state = decision_with(scenario, 5, seed);
        let mut expected = Game::legal_actions(&state);
        BlendedPolicy::new(network.clone(), 1.0, 0).rank(&state, &mut expected);
        expected.truncate(3);
        let chosen = agent.select_action(&state);
        let searched: Vec<_> = agent.last_search().unwrap().into_iter().map(|(a, _)| a).collect();
        assert!(
            !searched.is_empty() && searched.iter().all(|a| expected.contains(a)),
            "{scenario:?}: {searched:?}"
        );
        assert!(expected.contains(&chosen), "{scenario:?}");
    }
}

#[test]
fn bad_blend_parameters_are_refused_by_name() {
    let net = shipped();
    for (spec, needle) in [
        (format!("policy:checkpoint={net},blend=-1"), "`blend`: `-1`"),
        (format!("policy:checkpoint={net},blend=x"), "`blend`: `x`"),
        (format!("policy:checkpoint={net},blend=1,temp=1"), "policy-blend: unknown parameter `temp`"),
        (format!("mcts:iters=8,net={net},blend=1"), "mcts-net: unknown parameter `blend`"),
        (format!("mcts:iters=8,rollout=scripted,net={net},blend=nan"), "`blend`: `nan`"),
        (format!("mcts:iters=8,rollout=sideways,net={net}"), "sideways"),
    ] {
        let err = make_agent(&spec, 1).err().unwrap_or_else(|| panic!("{spec} was accepted"));
        assert!(err.contains(needle), "{spec}: {err}");
    }
}
