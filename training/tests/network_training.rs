//! The network and the training loop learn a tiny game, save and load to identical outputs,
//! and resume a stopped run where it stopped.

use agents::{Game, TensorGame, Turn};
use tictactoe::{Minimax, TicTacToe};
use training::network::checkpoint;
use training::network::inference::InputBuffers;
use training::network_training::config::{Config, NetConfig, Schedule};
use training::network_training::learner::{train, TrainRun};
use training::Sample;

/// Samples: the best moves by minimax as the target, the minimax value as the value.
fn samples() -> Vec<Sample<TicTacToe>> {
    let mut m = Minimax::default();
    TicTacToe::reachable_decisions()
        .into_iter()
        .map(|s| {
            let Turn::Player(p) = s.turn() else { unreachable!() };
            let best = m.best_moves(&s);
            let legal = s.legal_actions();
            let target: Vec<f32> =
                legal.iter().map(|a| if best.contains(a) { 1.0 / best.len() as f32 } else { 0.0 }).collect();
            Sample::new(s, p, target, m.value(&s) as f32).unwrap()
        })
        .collect()
}

fn config(steps: u64) -> Config {
    let mut c = Config {
        seed: 3,
        net: NetConfig { channels: 32, blocks: 1, hidden: 32, ..NetConfig::default() },
        ..Config::default()
    };
    c.train.batch = 64;
    c.train.steps = steps;
    c.train.lr = 0.003;
    c.train.schedule = Schedule::Cosine;
    c.train.warmup = 20;
    c.train.log_every = 100;
    c.train.checkpoint_every = 100;
    c
}

fn run_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-learning-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_trained_policy_plays_an_optimal_move_in_nearly_every_tic_tac_toe_position() {
    let data = samples();
    assert_eq!(data.len(), 4520, "reachable positions with a move to make");
    let run = run_dir("ttt");
    let config = config(1500);
    let outcome = train(TrainRun {
        run: &run,
        config: &config,
        train: &data,
        valid: &data,
        resume: false,
        progress: false,
        evaluate: None,
        stop_after: None,
    })
    .unwrap();
    assert_eq!(outcome.step, 1500);
    let network = training::network::loaded::Network::load(&run).unwrap();
    let mut minimax = Minimax::default();
    let mut optimal = 0;
    for sample in &data {
        let e = network.evaluate(&[(&sample.state, sample.player)]).unwrap().remove(0);
        let best = e.priors.iter().enumerate().fold(0, |b, (i, &p)| if p > e.priors[b] { i } else { b });
        optimal += minimax.best_moves(&sample.state).contains(&e.legal[best]) as usize;
    }
    let share = optimal as f64 / data.len() as f64;
    assert!(share >= 0.95, "optimal in {:.1}% of the positions", 100.0 * share);
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn a_checkpoint_loads_to_identical_outputs_and_a_stopped_run_resumes_where_it_stopped() {
    let data = samples();
    let run = run_dir("resume");
    let mut config = config(60);
    config.train.checkpoint_every = 10;
    config.train.log_every = 10;
    let job = |resume: bool, stop: Option<u64>| TrainRun {
        run: &run,
        config: &config,
        train: &data,
        valid: &data,
        resume,
        progress: false,
        evaluate: None,
        stop_after: stop,
    };
    // Stopped after 30 of 60 steps, as a kill would leave it at its last checkpoint.
    assert_eq!(train(job(false, Some(30))).unwrap().step, 30);
    assert!(train(job(false, None)).unwrap_err().contains("resume"), "a second start is refused");
    assert_eq!(train(job(true, None)).unwrap().step, 60, "the step count continues");
    let lines = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let steps: Vec<u64> = lines
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["step"].as_u64())
        .collect();
    assert_eq!(steps, vec![10, 20, 30, 40, 50, 60], "metrics continue without repeats");

    // Save → load gives identical outputs.
    let device = burn::tensor::Device::flex();
    let (a, meta, dir) = checkpoint::load_network(&run, &device).unwrap();
    assert_eq!(meta.step, 60);
    let (b, ..) = checkpoint::load_network(&dir, &device).unwrap();
    let state = data[100].state;
    let shape = state.tensor_shape();
    let mut buffers = InputBuffers::default();
    let (planes, globals) = buffers.encode(&[(&state, data[100].player)], &shape, &device);
    let (x, y) = (a.forward(planes.clone(), globals.clone()), b.forward(planes, globals));
    assert_eq!(x.planes.into_data(), y.planes.into_data());
    assert_eq!(x.value.into_data(), y.value.into_data());

    // A checkpoint of other tensor sizes (this game's, for TDE) is refused with its sizes
    // named, before any game is played with it, whether as an agent or for evaluation.
    for spec in ["policy:checkpoint=", "az:sims=4,net=", "mcts:iters=10,net="] {
        let err = training::play::make_agent(&format!("{spec}{}", dir.display()), 1).err().expect(spec);
        assert!(err.contains("planes") && err.contains("step-00000060"), "{spec}: {err}");
    }
    let network = training::network::loaded::Network::load(&dir).unwrap();
    let tde = engine::setup::new_game(&engine::setup::GameConfig::default()).unwrap();
    let err = network.evaluate(&[(&tde, 0)]).expect_err("a TDE position for a tic-tac-toe network");
    assert!(err.contains("planes"), "{err}");

    // A corrupted checkpoint is refused with its file named.
    std::fs::write(dir.join("model.bpk"), b"not a checkpoint").unwrap();
    let err = checkpoint::load_network(&dir, &device).unwrap_err().to_string();
    assert!(err.contains("model.bpk"), "{err}");
    std::fs::write(dir.join("meta.json"), "{").unwrap();
    assert!(checkpoint::load_network(&dir, &device).unwrap_err().to_string().contains("meta.json"));
    let _ = std::fs::remove_dir_all(&run);
}
