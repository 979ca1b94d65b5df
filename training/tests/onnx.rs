//! The network's ONNX export: the graph holds every weight and is well formed (any build), and
//! ONNX Runtime computes what burn computes (build feature `onnx`, with `ORT_DYLIB_PATH` naming
//! the ONNX Runtime library).

use prost::Message;
use std::collections::HashSet;
use std::path::PathBuf;
use training::network::checkpoint;
use training::network::onnx::export::{names, to_onnx};
use training::network::onnx::proto::{ModelProto, FLOAT};

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/bootstrap_value")
}

#[test]
fn the_exported_graph_holds_every_weight_and_reads_only_values_defined_before() {
    let (net, _, _) = checkpoint::load_network(&shipped(), &training::network::compute::device()).unwrap();
    let model = ModelProto::decode(to_onnx(&net).unwrap().as_slice()).unwrap();
    let graph = model.graph.unwrap();
    let weights: usize = graph
        .initializer
        .iter()
        .filter(|t| t.data_type == FLOAT)
        .map(|t| {
            let n = t.dims.iter().product::<i64>() as usize;
            assert_eq!(t.raw_data.len(), 4 * n, "{}: raw data of its shape", t.name);
            n
        })
        .sum();
    assert_eq!(weights, net.parameters(), "every trained weight is in the graph once");
    let mut defined: HashSet<String> = graph.input.iter().map(|i| i.name.clone()).collect();
    defined.extend(graph.initializer.iter().map(|t| t.name.clone()));
    for node in &graph.node {
        for input in &node.input {
            assert!(defined.contains(input), "node {} reads {input} before it is written", node.name);
        }
        defined.extend(node.output.iter().cloned());
    }
    let outputs: Vec<&str> = graph.output.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(outputs, [names::POLICY_PLANES, names::POLICY_GLOBALS, names::VALUE]);
    assert!(outputs.iter().all(|o| defined.contains(*o)));
}

#[cfg(feature = "onnx")]
mod runtime {
    use super::shipped;
    use agents::{Game, TensorGame, Turn};
    use engine::scenario::Scenario;
    use engine::setup::{new_game, GameConfig};
    use engine::GameState;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use training::network::checkpoint;

    /// Decision positions with a choice from random games of every scenario on two boards of
    /// different sizes.
    fn positions() -> Vec<(GameState, usize)> {
        let mut found = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for board in ["sunken_plaza", "drowned_boulevard"] {
            for scenario in Scenario::ALL {
                let config = GameConfig { board: board.into(), scenario, ..GameConfig::default() };
                let mut state = new_game(&config).unwrap();
                let mut kept = 0;
                while kept < 4 {
                    match Game::turn(&state) {
                        Turn::Chance => {
                            let outcome = state.sample_chance(&mut rng).unwrap();
                            state.apply_action(outcome).unwrap();
                            continue;
                        }
                        Turn::Player(p) => {
                            let legal = Game::legal_actions(&state);
                            if legal.len() >= 2 && rng.gen_bool(0.05) {
                                found.push((state.clone(), p));
                                kept += 1;
                            }
                            let a = legal[rng.gen_range(0..legal.len())];
                            state.apply_action(a).unwrap();
                        }
                        Turn::Terminal => break,
                    }
                }
            }
        }
        found
    }

    #[test]
    fn onnx_runtime_gives_burns_priors_and_values_one_at_a_time_and_in_batches() {
        use training::network::compute::{select, DeviceChoice};
        use training::network::inference::{evaluate, InputBuffers};
        use training::network::loaded::Network;
        select(DeviceChoice::Onnx(1)).unwrap();
        let device = training::network::compute::device();
        let (net, _, _) = checkpoint::load_network(&shipped(), &device).unwrap();
        let onnx = Network::from_net(net.clone(), "onnx".into()).unwrap();
        let positions = positions();
        assert!(positions.len() >= 30, "{} positions", positions.len());
        let mut buffers = InputBuffers::default();
        let mut checked = 0;
        let mut shapes: Vec<agents::TensorShape> = positions.iter().map(|(s, _)| s.tensor_shape()).collect();
        shapes.dedup();
        assert!(shapes.len() >= 2, "two board size classes");
        for shape in shapes {
            let group: Vec<(&GameState, usize)> =
                positions.iter().filter(|(s, _)| s.tensor_shape() == shape).map(|(s, p)| (s, *p)).collect();
            let want = evaluate(&net, &device, &mut buffers, &group).unwrap();
            let together = onnx.evaluate(&group).unwrap();
            for (i, (w, t)) in want.iter().zip(&together).enumerate() {
                let alone = onnx.evaluate(&group[i..=i]).unwrap().remove(0);
                for got in [t, &alone] {
                    assert_eq!(got.legal, w.legal);
                    assert!((got.value - w.value).abs() < 1e-4, "value {} vs burn {}", got.value, w.value);
                    for (a, b) in got.priors.iter().zip(&w.priors) {
                        assert!((a - b).abs() < 1e-4, "prior {a} vs burn {b}");
                    }
                }
                let (s, p) = group[i];
                let v = onnx.values(s)[p];
                assert!((v - w.value as f64).abs() < 1e-4, "values() {v} vs burn {}", w.value);
                checked += 1;
            }
        }
        assert_eq!(checked, positions.len(), "every position's board size class was checked");
    }
}
