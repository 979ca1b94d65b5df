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

/// The shipped generation 0 was written with the first feature set: it loads with its stored
/// rows where they were and zero rows for the features added since, so it evaluates as before.
#[test]
fn a_first_set_checkpoint_loads_with_zero_rows_for_the_features_added_since() {
    use fastnet::features::{FIRST_SET_FEATURES, POSITION_FEATURES};
    use fastnet::network::{H1, PARAMS};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/fast/gen-000.fnet");
    let bytes = std::fs::read(&path).unwrap();
    let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let stored: Vec<f32> =
        bytes[12 + len..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let meta: serde_json::Value = serde_json::from_slice(&bytes[12..12 + len]).unwrap();
    assert_eq!(
        meta["shape"]["position_features"], FIRST_SET_FEATURES,
        "the shipped file is of the first set"
    );
    const { assert!(POSITION_FEATURES > FIRST_SET_FEATURES) };
    let loaded = Checkpoint::load(&path).unwrap();
    assert_eq!(loaded.meta.shape, Shape::current());
    let data = &loaded.params.data;
    assert_eq!(data.len(), PARAMS);
    let first = FIRST_SET_FEATURES * H1;
    let added = (POSITION_FEATURES - FIRST_SET_FEATURES) * H1;
    assert_eq!(&data[..first], &stored[..first], "the stored rows keep their places");
    assert!(data[first..first + added].iter().all(|&w| w == 0.0), "the added rows are zero");
    assert_eq!(&data[first + added..], &stored[first..], "the rest follows unchanged");
    // A shape that differs otherwise is refused.
    let mut other = loaded.clone();
    other.meta.shape.position_features = FIRST_SET_FEATURES;
    other.meta.shape.h2 += 1;
    let e = Checkpoint::from_bytes(&other.to_bytes()).unwrap_err();
    assert!(e.contains("field `shape`"), "{e}");
    // Another count of features is another layout, not the first set: refused.
    let mut shifted = loaded.clone();
    shifted.meta.shape.position_features = FIRST_SET_FEATURES - 1;
    shifted.meta.shape.params = PARAMS - (POSITION_FEATURES - FIRST_SET_FEATURES + 1) * H1;
    let e = Checkpoint::from_bytes(&shifted.to_bytes()).unwrap_err();
    assert!(e.contains("field `shape`"), "{e}");
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

#[test]
fn sibling_groups_round_trip_append_renumbered_and_version_2_files_have_none() {
    let mut d = Dataset::default();
    d.push(&[3], &[], 0.5, 0.0);
    let g = d.new_group();
    d.push_in_group(&[1, 2], &[], 0.25, 0.0, g);
    d.push_in_group(&[1, 5], &[], -0.25, 0.0, g);
    let h = d.new_group();
    d.push_in_group(&[6], &[], 0.0, 0.0, h);
    assert_eq!((d.siblings_of(0), d.siblings_of(2), d.siblings_of(3)), (0..1, 1..3, 3..4));
    let path = temp("groups.fdata");
    d.save(&path).unwrap();
    let back = Dataset::load(&path).unwrap();
    assert_eq!((back.groups, &back), (2, &d));
    // Appended groups are numbered after the ones already there.
    let mut both = d.clone();
    both.append(&d);
    let groups: Vec<u32> = both.positions.iter().map(|p| p.group).collect();
    assert_eq!((groups, both.groups), (vec![0, 1, 1, 2, 0, 3, 3, 4], 4));
    // The same positions in format version 2 (20 bytes a position, no group): no groups.
    let bytes = std::fs::read(&path).unwrap();
    let mut v2 = bytes[..36].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    for p in 0..d.positions.len() {
        v2.extend_from_slice(&bytes[36 + 24 * p..36 + 24 * p + 20]);
    }
    v2.extend_from_slice(&bytes[36 + 24 * d.positions.len()..]);
    std::fs::write(&path, &v2).unwrap();
    let old = Dataset::load(&path).unwrap();
    assert_eq!(old.groups, 0);
    assert!(old.positions.iter().all(|p| p.group == 0));
    assert_eq!(old.features, d.features);
}
