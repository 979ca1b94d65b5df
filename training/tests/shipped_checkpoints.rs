//! Every network shipped in `checkpoints/` loads for this engine's encodings, judges a
//! position with finite outputs, and comes with the configuration that trained it.

use engine::setup::{new_game, GameConfig};
use std::path::PathBuf;
use training::network::loaded::Network;
use training::network_training::config::Config;

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
    let (state, mover) = first_decision(new_game(&GameConfig::default()).unwrap());
    // The Encounter's network (`encounter/`) reads that game's tensors; the others TDE's.
    let dungeon = first_decision(encounter::Encounter::start());
    for (folder, name) in folders.iter().zip(&names) {
        assert!(readme.contains(&format!("## {name}/")), "checkpoints/README.md describes {name}/");
        Config::load(&folder.join("config.toml")).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "encounter" {
            let network = Network::load(folder).unwrap_or_else(|e| panic!("{name}: {e}"));
            network.check_shape(&agents::TensorGame::tensor_shape(&dungeon.0)).unwrap();
            judges(&network, &dungeon.0, dungeon.1, name);
        } else {
            let network = Network::load_for_tde(folder).unwrap_or_else(|e| panic!("{name}: {e}"));
            judges(&network, &state, mover, name);
        }
    }
}

/// The first decision of a game with two or more choices, its first choices and chance taken
/// in order; and the player to move there.
fn first_decision<G: agents::Game>(mut state: G) -> (G, usize) {
    let mut dice = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    loop {
        match state.turn() {
            agents::Turn::Player(p) if state.legal_actions().len() >= 2 => return (state, p),
            agents::Turn::Chance => {
                let outcome = state.sample_chance(&mut dice).unwrap();
                state.apply(outcome).unwrap();
            }
            _ => {
                let first = state.legal_actions()[0];
                state.apply(first).unwrap();
            }
        }
    }
}

/// `network` judges `state` (a decision of `mover`) with priors over its legal actions that
/// sum to 1 and a value in [-1, 1].
fn judges<G: agents::TensorGame>(network: &Network, state: &G, mover: usize, name: &str) {
    let out = network.evaluate(&[(state, mover)]).unwrap().pop().unwrap();
    assert_eq!(out.priors.len(), state.legal_actions().len(), "{name}");
    let total: f32 = out.priors.iter().sum();
    assert!((total - 1.0).abs() < 1e-3 && out.priors.iter().all(|p| p.is_finite()), "{name}: {total}");
    assert!(out.value.is_finite() && (-1.0..=1.0).contains(&out.value), "{name}: {}", out.value);
}

/// The first-architecture checkpoints judge and play exactly as before the second
/// architecture existed: the value probe's mean value and the policy probe's mean probability
/// of the expert's action per scenario (one game each, seed 0, the default board and crews)
/// equal, to rounding, what the code before issue 43 computed (`tde probe value --games 1
/// --every 5` and `tde probe policy --games 1`, measured with the build of main before it).
/// The figures were measured again when issue 54's rules (leader cards as standing rules, a
/// charge declaring its blow) changed the games judged; the networks' code was unchanged, and
/// the figures of the build just before those rules still matched the old ones.
#[test]
fn first_architecture_checkpoints_judge_exactly_as_before() {
    use engine::setup::GameConfig;
    use training::probes::policy::PolicyPlan;
    use training::probes::value::ValuePlan;
    let before: [(&str, [f64; 5], [f64; 5]); 2] = [
        (
            "bootstrap",
            [
                0.3831352476544421,
                -0.08171952819382702,
                0.10924340805716136,
                0.12462581759102123,
                0.20276966659751322,
            ],
            [
                0.48679385184630997,
                0.5591348701829675,
                0.5504829189177447,
                0.5802289349670293,
                0.48545072955176843,
            ],
        ),
        (
            "bootstrap_value",
            [
                0.10903371356684587,
                -0.010652450775658642,
                0.15164589052173225,
                0.2673340866905312,
                0.3078224318102002,
            ],
            [
                0.5121533092813658,
                0.5839666811321067,
                0.5993585733148696,
                0.6042501623745314,
                0.4894488047981678,
            ],
        ),
    ];
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints");
    for (name, values, policies) in before {
        let network = Network::load_for_tde(&root.join(name)).unwrap();
        let plan = ValuePlan { agent: "scripted".into(), games: 1, every: 5, rollouts: 0, seed: 0 };
        let report = training::probes::run(&plan, &network, name, &GameConfig::default()).unwrap();
        let got: Vec<f64> = report.scenarios.iter().map(|r| r.mean_value).collect();
        for (g, want) in got.iter().zip(values) {
            assert!((g - want).abs() < 1e-6, "{name}: mean values {got:?}, before {values:?}");
        }
        let plan = PolicyPlan { expert: "scripted".into(), opponent: "random".into(), games: 1, seed: 0 };
        let report = training::probes::run(&plan, &network, name, &GameConfig::default()).unwrap();
        let got: Vec<f64> = report.scenarios.iter().map(|r| r.all.expert_probability).collect();
        for (g, want) in got.iter().zip(policies) {
            assert!((g - want).abs() < 1e-6, "{name}: expert probabilities {got:?}, before {policies:?}");
        }
    }
}
