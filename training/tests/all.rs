//! The training crate's integration tests as one test binary, linked once rather than once a
//! file: each file of `tests/` is a module here, under its own name (`tests/NAME.rs` is `NAME`),
//! but `onnx.rs`, a binary of its own that CI builds again with the `onnx` feature. One file's
//! tests: `cargo test --release -p tde-training --test all -- NAME::`. A file added to `tests/` must be
//! listed here (the first test below says so).

#[path = "blended.rs"]
mod blended;
#[path = "encounter_network.rs"]
mod encounter_network;
#[path = "expert.rs"]
mod expert;
#[path = "fast_loop.rs"]
mod fast_loop;
#[path = "gates_and_targets.rs"]
mod gates_and_targets;
#[path = "learned_player.rs"]
mod learned_player;
#[path = "network_training.rs"]
mod network_training;
#[path = "network_v2.rs"]
mod network_v2;
#[path = "selfplay.rs"]
mod selfplay;
#[path = "shipped_checkpoints.rs"]
mod shipped_checkpoints;
#[path = "specs.rs"]
mod specs;

#[test]
fn every_file_of_tests_is_a_module_of_this_binary() {
    let listed = include_str!("all.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".rs").filter(|_| name != "all.rs" && name != "onnx.rs") {
            let module = format!("#[path = \"{name}\"]\nmod {stem};");
            assert!(
                listed.contains(&module),
                "tests/{name} is not a module of tests/all.rs: its tests would not run"
            );
        }
    }
}
