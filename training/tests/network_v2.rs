//! The second network architecture (issue 43): global pooling in the trunk sees far cells and
//! ignores padding, the value head of its own and the margin head load, save and learn, the
//! first architecture's checkpoints read as before, and the new targets (TD(λ) returns,
//! squashed margins) are what they claim.

use agents::{Game, TensorShape, Turn};
use burn::tensor::{Device, Tensor, TensorData};
use tictactoe::TicTacToe;
use training::network::checkpoint;
use training::network::net::PolicyValueNet;
use training::network_training::config::{Config, NetConfig, Schedule};
use training::network_training::learner::{score, train, TrainRun};
use training::network_training::sample::{lambda_returns, margin_target};
use training::Sample;

/// A fresh folder under the system's temporary one.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-network-v2-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A made-up 12×12 game shape: 3 planes (plane 0 the real-cell mask), 2 globals.
fn shape() -> TensorShape {
    TensorShape {
        planes: 3,
        depth: 12,
        width: 12,
        globals: 2,
        policy_planes: 2,
        policy_globals: 3,
        policy_size: 0,
    }
}

/// One position's planes: the left half real (mask 1), a fixed pattern on plane 1, and
/// `extra` added to plane 2 at (row, column).
fn planes(extra: Option<(usize, usize, f32)>) -> Tensor<4> {
    let s = shape();
    let mut v = vec![0.0f32; s.planes * s.depth * s.width];
    for y in 0..s.depth {
        for x in 0..s.width {
            let cell = y * s.width + x;
            v[cell] = (x < 6) as u8 as f32;
            v[s.depth * s.width + cell] = ((x * 7 + y * 3) % 5) as f32 / 4.0;
        }
    }
    if let Some((y, x, add)) = extra {
        v[2 * s.depth * s.width + y * s.width + x] += add;
    }
    Tensor::from_data(TensorData::new(v, [1, s.planes, s.depth, s.width]), &Device::flex())
}

/// The policy-plane output at (row, column) of plane 0 and the value, for `planes`.
fn judge(net: &PolicyValueNet, planes: Tensor<4>, at: (usize, usize)) -> (f32, f32) {
    let globals = Tensor::from_data(TensorData::new(vec![0.5f32, -0.5], [1, 2]), &Device::flex());
    let out = net.forward(planes, globals);
    let p: Vec<f32> = out.planes.into_data().try_to_vec::<f32>().unwrap();
    let v: Vec<f32> = out.value.into_data().try_to_vec::<f32>().unwrap();
    (p[at.0 * shape().width + at.1], v[0])
}

/// A small network's settings: 8 channels, one block, with or without pooling and a value
/// head of its own (and then a margin head and the board plane as mask).
fn small(pooling: bool, value_hidden: usize) -> NetConfig {
    NetConfig {
        channels: 8,
        blocks: 1,
        hidden: 16,
        pooling,
        value_hidden,
        margin: value_hidden > 0,
        mask_plane: (pooling || value_hidden > 0).then_some(0),
    }
}

fn net(pooling: bool, value_hidden: usize) -> PolicyValueNet {
    PolicyValueNet::seeded(&small(pooling, value_hidden), &shape(), &Device::flex(), 5)
}

#[test]
fn pooling_lets_a_far_cell_change_a_cells_policy_and_the_mask_keeps_padding_out_of_the_value() {
    // A block and the stem see 3 cells around a cell: (0, 0) is out of (11, 5)'s reach.
    let far = Some((0, 0, 1.0));
    let (plain, pooled) = (net(false, 0), net(true, 0));
    let (before, _) = judge(&plain, planes(None), (11, 5));
    let (after, _) = judge(&plain, planes(far), (11, 5));
    assert_eq!(before, after, "without pooling a far cell cannot reach");
    let (before, _) = judge(&pooled, planes(None), (11, 5));
    let (after, _) = judge(&pooled, planes(far), (11, 5));
    assert!((before - after).abs() > 1e-6, "with pooling it does: {before} vs {after}");

    // A change on padding (column 11, six cells from the real half) leaves the second
    // architecture's value alone, but moves the first's, which averages every cell.
    let padding = Some((6, 11, 3.0));
    let own = net(true, 16);
    assert_eq!(judge(&own, planes(None), (0, 0)).1, judge(&own, planes(padding), (0, 0)).1);
    assert_ne!(judge(&plain, planes(None), (0, 0)).1, judge(&plain, planes(padding), (0, 0)).1);
    // A change on a real cell moves it.
    let real = Some((3, 2, 3.0));
    assert_ne!(judge(&own, planes(None), (0, 0)).1, judge(&own, planes(real), (0, 0)).1);
}

#[test]
fn a_second_architecture_checkpoint_saves_and_loads_to_identical_outputs_and_onnx_graphs() {
    let dir = temp_dir("save");
    let config = Config { net: small(true, 16), ..Config::default() };
    config.check("test").unwrap();
    let net = PolicyValueNet::seeded(&config.net, &shape(), &Device::flex(), 9);
    let s = shape();
    let meta = checkpoint::Meta {
        format: checkpoint::FORMAT,
        step: 1,
        config: config.clone(),
        planes: s.planes,
        globals: s.globals,
        policy_planes: s.policy_planes,
        policy_globals: s.policy_globals,
        parameters: net.parameters(),
    };
    let saved = checkpoint::save(&dir, &net, None, &meta).unwrap();
    let (loaded, read, _) = checkpoint::load_network(&saved, &Device::flex()).unwrap();
    assert_eq!(read, meta);
    let text = std::fs::read_to_string(saved.join("meta.json")).unwrap();
    assert!(text.contains("\"pooling\": true") && text.contains("\"value_hidden\": 16"), "{text}");
    for extra in [None, Some((1, 1, 1.0))] {
        assert_eq!(judge(&net, planes(extra), (2, 2)), judge(&loaded, planes(extra), (2, 2)));
    }
    let onnx = training::network::onnx::export::to_onnx;
    assert_eq!(onnx(&net).unwrap(), onnx(&loaded).unwrap(), "the same ONNX graph and weights");
}

#[test]
fn first_architecture_checkpoints_keep_their_configuration_and_size() {
    for name in ["bootstrap", "bootstrap_value"] {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints").join(name);
        let meta = checkpoint::read_meta(&dir).unwrap();
        assert!(!meta.config.net.is_v2(), "{name}");
        // Written back, the network sizes are the three fields they always were.
        let json = serde_json::to_value(&meta.config.net).unwrap();
        assert_eq!(json, serde_json::json!({"channels": 32, "blocks": 2, "hidden": 64}), "{name}");
        let (net, _, _) = checkpoint::load_network(&dir, &Device::flex()).unwrap();
        assert_eq!(net.parameters(), meta.parameters, "{name}");
    }
}

#[test]
fn second_architecture_settings_are_checked_with_the_field_named() {
    let e =
        Config::parse("[net]\nchannels = 8\nblocks = 1\nhidden = 8\nmargin = true\n", "c.toml").unwrap_err();
    assert_eq!((e.file.as_str(), e.field.as_str()), ("c.toml", "net.margin"), "{e}");
    let e =
        Config::parse("[net]\nchannels = 8\nblocks = 1\nhidden = 8\nmask_plane = 0\n", "c.toml").unwrap_err();
    assert_eq!(e.field, "net.mask_plane", "{e}");
    let mut c = Config::default();
    c.train.margin_weight = 0.5;
    assert_eq!(c.check("c.toml").unwrap_err().field, "train.margin_weight");
    c.net.value_hidden = 8;
    c.net.margin = true;
    c.check("c.toml").unwrap();
    c.data.value_lambda = 0.5;
    let e = c.check("c.toml").unwrap_err();
    assert_eq!(e.field, "data.value_lambda", "{e}");
    assert!(e.reason.contains("value_rollouts"), "{e}");
}

/// Value-only samples whose margin target is the mover's corners less the opponent's, in
/// points: something only the board shows.
fn corner_samples() -> Vec<Sample<TicTacToe>> {
    TicTacToe::reachable_decisions()
        .into_iter()
        .step_by(7)
        .map(|s| {
            let Turn::Player(p) = s.turn() else { unreachable!() };
            let margin: f64 = [0, 2, 6, 8]
                .iter()
                .map(|&c| match s.cell(c) {
                    Some(owner) if owner as usize == p => 2.0,
                    Some(_) => -2.0,
                    None => 0.0,
                })
                .sum();
            Sample { margin: Some(margin_target(margin)), ..Sample::value_only(s, p, 0.0).unwrap() }
        })
        .collect()
}

#[test]
fn the_margin_head_learns_a_margin_only_when_its_loss_counts() {
    let samples = corner_samples();
    assert!(samples.len() > 500, "{}", samples.len());
    let run = |margin_weight: f64| {
        let dir = temp_dir(&format!("margin-{margin_weight}"));
        let mut c = Config {
            seed: 2,
            net: NetConfig {
                channels: 16,
                blocks: 1,
                hidden: 16,
                pooling: true,
                value_hidden: 32,
                margin: true,
                mask_plane: None,
            },
            ..Config::default()
        };
        c.train.batch = 64;
        c.train.steps = 300;
        c.train.lr = 0.005;
        c.train.schedule = Schedule::Constant;
        c.train.warmup = 10;
        c.train.log_every = 300;
        c.train.checkpoint_every = 300;
        c.train.margin_weight = margin_weight;
        let out = train(TrainRun {
            run: &dir,
            config: &c,
            train: &samples,
            valid: &samples,
            resume: false,
            progress: false,
            evaluate: None,
            stop_after: None,
        })
        .unwrap();
        let (net, _, _) = checkpoint::load_network(&out.checkpoint, &Device::flex()).unwrap();
        score(&net, &samples, samples.len(), &Device::flex()).margin_loss
    };
    let variance = {
        let m: Vec<f64> = samples.iter().map(|s| s.margin.unwrap() as f64).collect();
        let mean = m.iter().sum::<f64>() / m.len() as f64;
        m.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / m.len() as f64
    };
    let (learned, ignored) = (run(1.0), run(0.0));
    assert!(learned < 0.25 * variance, "learned {learned} vs the targets' variance {variance}");
    assert!(ignored > 0.5 * variance, "untrained head {ignored} vs variance {variance}");
}

#[test]
fn margin_targets_are_squashed_and_signed() {
    assert_eq!(margin_target(0.0), 0.0);
    assert!((margin_target(4.0) - 1f32.tanh()).abs() < 1e-6);
    assert!((margin_target(-4.0) + 1f32.tanh()).abs() < 1e-6);
    assert!(margin_target(12.0) < 1.0 && margin_target(12.0) > 0.99);
}

#[test]
fn lambda_returns_bootstrap_from_later_estimates_in_each_movers_view() {
    // Player 0, 1, 0 move; estimates in each mover's view; player 0 wins.
    let steps = [(0, 0.2), (1, -0.4), (0, 0.6)];
    let finals = [1.0, -1.0];
    // λ = 1: the final result for everyone.
    assert_eq!(lambda_returns(&steps, &finals, 1.0), vec![1.0, -1.0, 1.0]);
    // λ = 0: the next decision's estimate, turned to the mover's view; the last gets the result.
    assert_eq!(lambda_returns(&steps, &finals, 0.0), vec![0.4, -0.6, 1.0]);
    // λ = ½: G2 = 1, G1 = ½·0.6 + ½·1 = 0.8 (player 0's view), G0 = ½·0.4 + ½·0.8 = 0.6.
    let half = lambda_returns(&steps, &finals, 0.5);
    for (got, want) in half.iter().zip([0.6, -0.8, 1.0]) {
        assert!((got - want).abs() < 1e-6, "{half:?}");
    }
    // A draw and a one-player game.
    assert_eq!(lambda_returns(&[(1, 0.5)], &[0.0, 0.0], 0.0), vec![0.0]);
    assert_eq!(lambda_returns(&[(0, 0.1), (0, 0.3)], &[0.5], 0.0), vec![0.3, 0.5]);
}

#[test]
fn a_first_architecture_network_grows_into_the_second_with_its_policy_unchanged() {
    let old = net(false, 0);
    let config = small(true, 16);
    let grown = PolicyValueNet::adopt(old.clone(), &config, &shape(), &Device::flex(), 1);
    let globals = || Tensor::from_data(TensorData::new(vec![0.5f32, -0.5], [1, 2]), &Device::flex());
    let (a, b) = (old.forward(planes(None), globals()), grown.forward(planes(None), globals()));
    let rows = |t: Tensor<2>| t.into_data().try_to_vec::<f32>().unwrap();
    assert_eq!(rows(a.planes), rows(b.planes));
    assert_eq!(rows(a.globals), rows(b.globals));
    assert!(b.margin.is_some() && a.margin.is_none());
    assert!(grown.parameters() > old.parameters());
}
