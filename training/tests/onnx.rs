//! The network's ONNX export, of both architectures: the graph holds every weight and is well
//! formed (any build), and ONNX Runtime computes what burn computes (build feature `onnx`, with
//! `ORT_DYLIB_PATH` naming the ONNX Runtime library).

use agents::TensorGame;
use engine::setup::{new_game, GameConfig};
use prost::Message;
use std::collections::HashSet;
use std::path::PathBuf;
use training::network::checkpoint;
use training::network::net::PolicyValueNet;
use training::network::onnx::export::{names, to_onnx};
use training::network::onnx::proto::{ModelProto, FLOAT};
use training::network_training::config::NetConfig;

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/bootstrap_value")
}

/// A small randomly initialised network of the second architecture for TDE's tensors: global
/// pooling in the trunk, a value head of its own and a margin head, pooling over the board
/// plane's cells.
fn second_architecture() -> PolicyValueNet {
    let config = NetConfig {
        channels: 8,
        blocks: 2,
        hidden: 16,
        pooling: true,
        value_hidden: 12,
        margin: true,
        mask_plane: Some(engine::encoding::observe::P_BOARD),
    };
    let shape = new_game(&GameConfig::default()).unwrap().tensor_shape();
    PolicyValueNet::seeded(&config, &shape, &training::network::compute::device(), 43)
}

/// The network's graph holds every weight once as an initialiser, every node reads only values
/// defined before it, and the graph's outputs are `outputs`, each written by a node.
fn check_graph(net: &PolicyValueNet, outputs: &[&str]) {
    let model = ModelProto::decode(to_onnx(net).unwrap().as_slice()).unwrap();
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
        for output in &node.output {
            assert!(defined.insert(output.clone()), "node {} writes {output} a second time", node.name);
        }
    }
    let written: Vec<&str> = graph.output.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(written, outputs);
    assert!(written.iter().all(|o| defined.contains(*o)));
}

#[test]
fn the_exported_graph_holds_every_weight_and_reads_only_values_defined_before() {
    let (net, _, _) = checkpoint::load_network(&shipped(), &training::network::compute::device()).unwrap();
    check_graph(&net, &[names::POLICY_PLANES, names::POLICY_GLOBALS, names::VALUE]);
}

#[test]
fn the_second_architectures_graph_holds_every_weight_and_has_a_margin_output() {
    let net = second_architecture();
    check_graph(&net, &[names::POLICY_PLANES, names::POLICY_GLOBALS, names::VALUE, names::MARGIN]);
    let model = ModelProto::decode(to_onnx(&net).unwrap().as_slice()).unwrap();
    let ops: HashSet<String> = model.graph.unwrap().node.into_iter().map(|n| n.op_type).collect();
    for op in ["Slice", "Mul", "ReduceSum", "Div", "ReduceMax", "Max"] {
        assert!(ops.contains(op), "pooling over the real cells uses {op}: {ops:?}");
    }
}

#[cfg(feature = "onnx")]
mod runtime {
    use super::{second_architecture, shipped};
    use agents::{Game, TensorGame, TensorShape, Turn};
    use burn::tensor::{Tensor, TensorData};
    use engine::encoding::observe::P_BOARD;
    use engine::scenario::Scenario;
    use engine::setup::{new_game, GameConfig};
    use engine::GameState;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use training::network::checkpoint;
    use training::network::compute::{select, DeviceChoice};
    use training::network::inference::{evaluate, InputBuffers};
    use training::network::loaded::Network;
    use training::network::net::PolicyValueNet;
    use training::network::onnx::runtime::OnnxNetwork;

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

    /// Checks that ONNX Runtime gives `net`'s priors and values as burn computes them, within
    /// 1e-4, on the positions of [`positions`], one at a time, in batches of a board size class
    /// and through the value-only path MCTS uses; returns the largest difference seen.
    fn onnx_gives_burns_priors_and_values(net: PolicyValueNet) -> f32 {
        select(DeviceChoice::Onnx(1)).unwrap();
        let device = training::network::compute::device();
        let onnx = Network::from_net(net.clone(), "onnx".into()).unwrap();
        let positions = positions();
        assert!(positions.len() >= 30, "{} positions", positions.len());
        let mut buffers = InputBuffers::default();
        let mut checked = 0;
        let mut largest = 0.0f32;
        for shape in shapes(&positions) {
            let group: Vec<(&GameState, usize)> =
                positions.iter().filter(|(s, _)| s.tensor_shape() == shape).map(|(s, p)| (s, *p)).collect();
            let want = evaluate(&net, &device, &mut buffers, &group).unwrap();
            let together = onnx.evaluate(&group).unwrap();
            for (i, (w, t)) in want.iter().zip(&together).enumerate() {
                let alone = onnx.evaluate(&group[i..=i]).unwrap().remove(0);
                for got in [t, &alone] {
                    assert_eq!(got.legal, w.legal);
                    largest = largest.max((got.value - w.value).abs());
                    assert!((got.value - w.value).abs() < 1e-4, "value {} vs burn {}", got.value, w.value);
                    for (a, b) in got.priors.iter().zip(&w.priors) {
                        largest = largest.max((a - b).abs());
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
        largest
    }

    /// The board size classes among `positions`, two at least.
    fn shapes(positions: &[(GameState, usize)]) -> Vec<TensorShape> {
        let mut shapes: Vec<TensorShape> = positions.iter().map(|(s, _)| s.tensor_shape()).collect();
        shapes.dedup();
        assert!(shapes.len() >= 2, "two board size classes");
        shapes
    }

    #[test]
    fn onnx_runtime_gives_burns_priors_and_values_one_at_a_time_and_in_batches() {
        let device = training::network::compute::device();
        let (net, _, _) = checkpoint::load_network(&shipped(), &device).unwrap();
        let largest = onnx_gives_burns_priors_and_values(net);
        println!("first architecture: largest difference from burn {largest:e}");
    }

    #[test]
    fn onnx_runtime_gives_the_second_architectures_priors_and_values() {
        let largest = onnx_gives_burns_priors_and_values(second_architecture());
        println!("second architecture: largest difference from burn {largest:e}");
    }

    /// burn's outputs for a batch, flattened: policy planes, global logits, values, margins.
    fn burn_outputs(
        net: &PolicyValueNet,
        planes: &[f32],
        globals: &[f32],
        shape: &TensorShape,
    ) -> [Vec<f32>; 4] {
        let device = training::network::compute::device();
        let n = globals.len() / shape.globals;
        let planes = Tensor::from_data(
            TensorData::new(planes.to_vec(), [n, shape.planes, shape.depth, shape.width]),
            &device,
        );
        let globals = Tensor::from_data(TensorData::new(globals.to_vec(), [n, shape.globals]), &device);
        let out = net.forward(planes, globals);
        let read = |t: Tensor<2>| t.into_data().try_to_vec::<f32>().unwrap();
        [read(out.planes), read(out.globals), read(out.value), read(out.margin.expect("a margin head"))]
    }

    #[test]
    fn onnx_runtime_gives_the_second_architectures_outputs_and_margins_on_boards_smaller_than_their_class() {
        select(DeviceChoice::Onnx(1)).unwrap();
        let net = second_architecture();
        let onnx = OnnxNetwork::new(&net, 1).unwrap();
        let positions = positions();
        let mut buffers = InputBuffers::default();
        let mut largest = 0.0f32;
        for shape in shapes(&positions) {
            let group: Vec<(&GameState, usize)> =
                positions.iter().filter(|(s, _)| s.tensor_shape() == shape).map(|(s, p)| (s, *p)).collect();
            buffers.fill(&group, &shape);
            let (planes, globals) = buffers.contents();
            // A board smaller than its size class: the last 7 columns and 5 rows are padding,
            // every plane 0 there, the board plane's included, as the encoding pads.
            let (d, w, cells) = (shape.depth, shape.width, shape.cells());
            let mut padded = planes.to_vec();
            for (i, v) in padded.iter_mut().enumerate() {
                let (y, x) = ((i % cells) / w, i % w);
                if x >= w - 7 || y >= d - 5 {
                    *v = 0.0;
                }
            }
            // The mask matters: the same planes with padding counted as board judge otherwise.
            let mut unmasked = padded.clone();
            for b in 0..group.len() {
                let board = b * shape.plane_len() + P_BOARD * cells;
                unmasked[board..board + cells].fill(1.0);
            }
            let [_, _, masked_values, _] = burn_outputs(&net, &padded, globals, &shape);
            let [_, _, unmasked_values, _] = burn_outputs(&net, &unmasked, globals, &shape);
            assert!(masked_values.iter().zip(&unmasked_values).any(|(a, b)| (a - b).abs() > 1e-3));

            for input in [planes, &padded] {
                let want = burn_outputs(&net, input, globals, &shape);
                for batch in [group.len(), 1] {
                    let rows = |v: &[f32]| v[..v.len() / group.len() * batch].to_vec();
                    let got = onnx
                        .run(
                            &input[..batch * shape.plane_len()],
                            &globals[..batch * shape.globals],
                            batch,
                            [shape.planes, d, w],
                        )
                        .unwrap();
                    let got = [got.planes, got.globals, got.values, got.margins.expect("a margin output")];
                    for (name, (got, want)) in ["policy planes", "policy globals", "values", "margins"]
                        .into_iter()
                        .zip(got.iter().zip(want.iter().map(|v| rows(v))))
                    {
                        assert_eq!(got.len(), want.len(), "{name}");
                        for (a, b) in got.iter().zip(&want) {
                            largest = largest.max((a - b).abs());
                            assert!((a - b).abs() < 1e-4, "{name}: {a} vs burn {b}");
                        }
                    }
                }
            }
        }
        println!("second architecture, raw outputs and margins: largest difference from burn {largest:e}");
    }
}
