//! Self-play as separate processes sharing one run folder, as on a cluster: a learner
//! (`tde train --run DIR --learner`) and two actors (`tde selfplay --run DIR --actor ID`).
//! Processes are killed at arbitrary moments and restarted: no shard is lost, none is read
//! twice, and every counter continues.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"
seed = 3
[net]
channels = 8
blocks = 1
hidden = 16
[search]
spec = "sims=2,root=gumbel,considered=2,noise=1"
[actors]
parallel_games = 1
scenarios = ["assassinate"]
boards = ["sunken_plaza"]
crews = ["artifacters_100", "the_firm_100"]
cache = 1000
[learner]
batch = 8
steps = 1000000
lr = 0.0005
warmup = 1
weight_decay = 0.0
value_weight = 1.0
window = 5000
min_positions = 10
max_sample_ratio = 0.04
checkpoint_every = 1
log_every = 1
[eval]
every_versions = 0
games = 1
opponents = []
"#;

fn tde(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(args)
        .env("CI", "true")
        .env("RAYON_NUM_THREADS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tde starts")
}

fn shards(run: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(run.join("shards"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".jsonl"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn state(run: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(run.join("learner.json")).ok()?).ok()
}

fn consumed(run: &Path) -> Vec<String> {
    state(run)
        .and_then(|s| s["consumed"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// Wait until `done` holds, up to a minute and a half.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(90), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn two_actors_and_a_learner_share_a_run_folder_and_survive_kills() {
    let run: PathBuf = std::env::temp_dir().join(format!("tde-selfplay-processes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    std::fs::create_dir_all(&run).unwrap();
    let config = run.join("selfplay.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let r = run.to_str().unwrap();

    // The learner publishes version 0 and waits for shards.
    let mut learner =
        tde(&["train", "--config", config.to_str().unwrap(), "--run", r, "--learner", "--quiet"]);
    wait_for("version 0", || state(&run).is_some());
    // A second learner on the same run is refused.
    let second = Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(["train", "--run", r, "--learner", "--quiet"])
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("already running"), "{second:?}");
    // Actor a is killed mid-game and restarted; actor b plays two shards meanwhile.
    let mut a = tde(&["selfplay", "--run", r, "--actor", "a", "--shards", "2", "--quiet"]);
    let mut b = tde(&["selfplay", "--run", r, "--actor", "b", "--shards", "2", "--quiet"]);
    std::thread::sleep(Duration::from_millis(1500));
    a.kill().unwrap();
    a.wait().unwrap();
    let mut a = tde(&["selfplay", "--run", r, "--actor", "a", "--shards", "2", "--quiet"]);
    // The learner is killed once it has read something, and restarted.
    wait_for("a first version trained on shards", || !consumed(&run).is_empty());
    learner.kill().unwrap();
    learner.wait().unwrap();
    let before = state(&run).unwrap();
    let mut learner = tde(&["train", "--run", r, "--learner", "--quiet"]);
    assert!(a.wait().unwrap().success() && b.wait().unwrap().success(), "the actors finish their shards");

    let all = shards(&run);
    let of = |id: &str| all.iter().filter(|n| n.starts_with(&format!("{id}-"))).cloned().collect::<Vec<_>>();
    assert!(of("b") == ["b-000000.jsonl", "b-000001.jsonl"], "{all:?}");
    let a_shards = of("a");
    assert!(a_shards.len() >= 2, "the restarted actor plays its shards: {all:?}");
    for (i, name) in a_shards.iter().enumerate() {
        assert_eq!(name, &format!("a-{i:06}.jsonl"), "actor a's numbering continues without gaps");
    }
    // Every shard is read, each once, and the counters only grew.
    wait_for("every shard read", || consumed(&run).len() == all.len());
    learner.kill().unwrap();
    learner.wait().unwrap();
    let after = state(&run).unwrap();
    let mut read = consumed(&run);
    read.sort();
    assert_eq!(read, all, "each shard read exactly once");
    assert!(after["step"].as_u64() >= before["step"].as_u64());
    assert!(after["positions"].as_u64() > before["positions"].as_u64());
    let targets: usize = all
        .iter()
        .map(|n| {
            std::fs::read_to_string(run.join("shards").join(n))
                .unwrap()
                .lines()
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).unwrap()["targets"].as_array().unwrap().len()
                })
                .sum::<usize>()
        })
        .sum();
    assert_eq!(after["positions"].as_u64(), Some(targets as u64), "positions counted once each");
    assert!(
        !std::fs::read_dir(run.join("shards")).unwrap().any(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.ends_with(".jsonl") && !all.contains(&n)
        }),
        "no half-written shard"
    );
    let _ = std::fs::remove_dir_all(&run);
}
