//! Every network shipped in `checkpoints/` loads for this engine's encodings, judges a
//! position with finite outputs, and comes with the configuration that trained it.

use engine::setup::{new_game, GameConfig};
use std::path::PathBuf;
use training::learning::config::Config;
use training::network::loaded::Network;

#[test]
fn every_shipped_checkpoint_loads_judges_a_position_and_has_its_config() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("model.bpk").is_file())
        .collect();
    folders.sort();
    let names: Vec<String> =
        folders.iter().map(|p| p.file_name().unwrap().to_string_lossy().into()).collect();
    assert!(
        names.contains(&"bootstrap".to_string()) && names.contains(&"bootstrap_value".to_string()),
        "{names:?}"
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut state = new_game(&GameConfig::default()).unwrap();
    let mut dice = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    let mover = loop {
        match agents::Game::turn(&state) {
            agents::Turn::Player(p) if agents::Game::legal_actions(&state).len() >= 2 => break p,
            agents::Turn::Chance => {
                let outcome = state.sample_chance(&mut dice).unwrap();
                state.apply_action(outcome).unwrap();
            }
            _ => {
                let first = agents::Game::legal_actions(&state)[0];
                state.apply_action(first).unwrap();
            }
        }
    };
    for (folder, name) in folders.iter().zip(&names) {
        assert!(readme.contains(&format!("## {name}/")), "checkpoints/README.md describes {name}/");
        Config::load(&folder.join("config.toml")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let network = Network::load_for_tde(folder).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = network.evaluate(&[(&state, mover)]).unwrap().pop().unwrap();
        assert_eq!(out.priors.len(), agents::Game::legal_actions(&state).len(), "{name}");
        let total: f32 = out.priors.iter().sum();
        assert!((total - 1.0).abs() < 1e-3 && out.priors.iter().all(|p| p.is_finite()), "{name}: {total}");
        assert!(out.value.is_finite() && (-1.0..=1.0).contains(&out.value), "{name}: {}", out.value);
    }
}
