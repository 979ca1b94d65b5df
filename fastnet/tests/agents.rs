//! The fast network's search agents: `mcts-fast-root` searches only the network's most
//! probable actions at the root, and plays the same game again from the same seed.

use agents::{Agent, Game, Turn};
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use fastnet::agent::{register, FastNet, FastPolicyAgent};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../checkpoints/fast/gen-000.fnet");

fn registry() -> agents::Registry<GameState> {
    let mut r = agents::registry();
    register(&mut r);
    r
}

/// Actions with a weight: a search's root visits, or the policy's probabilities.
type Weighted = Vec<(engine::Action, f64)>;

/// The decisions `spec` (side A) takes against `scripted` over the first `decisions` of a
/// game, each with the agent's root statistics and the network's policy there.
fn decisions(spec: &str, seed: u64, decisions: usize) -> Vec<(Weighted, Weighted)> {
    let registry = registry();
    let mut searcher = registry.make(spec, seed).unwrap();
    let mut scripted = registry.make("scripted", seed + 1).unwrap();
    let mut policy = FastPolicyAgent::new(Arc::new(FastNet::load(Path::new(NET)).unwrap()), 0.0, seed);
    let mut state = new_game(&GameConfig::default()).unwrap();
    let mut dice = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = Vec::new();
    while seen.len() < decisions {
        let action = match Game::turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => Game::sample_chance(&state, &mut dice).unwrap(),
            Turn::Player(0) if Game::legal_actions(&state).len() > 4 => {
                policy.select_action(&state);
                let a = searcher.select_action(&state);
                seen.push((searcher.last_search().unwrap(), policy.last_search().unwrap()));
                a
            }
            Turn::Player(0) => searcher.select_action(&state),
            Turn::Player(_) => scripted.select_action(&state),
        };
        Game::apply(&mut state, action).unwrap();
    }
    seen
}

#[test]
fn mcts_fast_root_searches_only_the_networks_most_probable_actions_and_repeats_its_games() {
    let spec = format!("mcts-fast-root:iters=12,rollout=scripted,width=3,net={NET}");
    let seen = decisions(&spec, 7, 12);
    assert_eq!(seen.len(), 12);
    for (root, policy) in &seen {
        assert!(!root.is_empty() && root.len() <= 3, "{} root candidates", root.len());
        let mut probabilities: Vec<f64> = policy.iter().map(|(_, p)| *p).collect();
        probabilities.sort_by(|a, b| b.total_cmp(a));
        let third = probabilities[2];
        for (action, _) in root {
            let p = policy.iter().find(|(a, _)| a == action).map(|(_, p)| *p).unwrap();
            assert!(
                p >= third - 1e-6,
                "{action:?} searched at the root with probability {p} below the third's {third}"
            );
        }
    }
    assert_eq!(decisions(&spec, 7, 12), seen, "the same seed, the same search");
}

#[test]
fn mcts_fast_root_needs_its_network_and_takes_the_mcts_parameters() {
    let registry = registry();
    let err = registry.make("mcts-fast-root:iters=4,rollout=scripted", 1).err().unwrap();
    assert!(err.contains("net"), "{err}");
    let err = registry.make(&format!("mcts-fast-root:iters=4,blend=2,net={NET}"), 1).err().unwrap();
    assert!(err.contains("blend"), "{err}");
}
