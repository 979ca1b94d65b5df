//! Checkpoints and datasets: they round-trip, and a bad file gets an error naming the file
//! and what is wrong.

use fastnet::checkpoint::{Checkpoint, Meta, Shape, FORMAT};
use fastnet::data::{ActionSample, Dataset};
use fastnet::network::Params;

fn checkpoint() -> Checkpoint {
    let prior = agents::learned::Generation::scripted().to_json();
    Checkpoint {
        meta: Meta {
            format: FORMAT,
            shape: Shape::current(),
            generation: 0,
            parent: None,
            prior: serde_json::from_str(&prior).unwrap(),
            steps: 3,
            training: serde_json::Value::Null,
        },
        params: Params::init(1),
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fastnet-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_checkpoint_round_trips_and_bad_ones_are_named() {
    let c = checkpoint();
    let path = temp("net.fnet");
    c.save(&path).unwrap();
    assert_eq!(Checkpoint::load(&path).unwrap(), c);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    let e = Checkpoint::load(&path).unwrap_err();
    assert!(e.contains("net.fnet") && e.contains("bytes of parameters"), "{e}");
    std::fs::write(&path, b"hello").unwrap();
    let e = Checkpoint::load(&path).unwrap_err();
    assert!(e.contains("not a fast-network checkpoint"), "{e}");
    let mut wrong = c.clone();
    wrong.meta.shape.h1 = 7;
    std::fs::write(&path, wrong.to_bytes()).unwrap();
    let e = Checkpoint::load(&path).unwrap_err();
    assert!(e.contains("field `shape`"), "{e}");
    let mut nan = c.clone();
    nan.params.data[10] = f32::NAN;
    std::fs::write(&path, nan.to_bytes()).unwrap();
    let e = Checkpoint::load(&path).unwrap_err();
    assert!(e.contains("parameter 10"), "{e}");
    let e = Checkpoint::load(&temp("missing.fnet")).unwrap_err();
    assert!(e.contains("missing.fnet"), "{e}");
}

#[test]
fn a_dataset_round_trips_and_bad_ones_are_named() {
    let mut d = Dataset::default();
    let mut ids = [0u16; fastnet::action_features::MAX_ACTION_FEATURES];
    ids[..2].copy_from_slice(&[4, 9]);
    let f = fastnet::action_features::ActionFeatures { len: 2, ids };
    d.push(&[1, 2, 2, 300], &[ActionSample { features: f, prior: -1.5, target: 0.25 }], 1.0, -0.5);
    d.push(&[7], &[], -1.0, 0.0);
    let path = temp("d.fdata");
    d.save(&path).unwrap();
    assert_eq!(Dataset::load(&path).unwrap(), d);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = Dataset::load(&path).unwrap_err();
    assert!(e.contains("d.fdata") && e.contains("ends inside"), "{e}");
    let mut bad = bytes.clone();
    bad[8] = 9;
    std::fs::write(&path, &bad).unwrap();
    let e = Dataset::load(&path).unwrap_err();
    assert!(e.contains("version 9"), "{e}");
}
