//! End-to-end tests of `tde encounter demo --record` and `tde encounter replay`, run as a user
//! would: a recorded game replays to the same final state, and a tampered record is refused.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde")).args(args).output().expect("tde runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-encounter-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn text(out: &Output) -> String {
    assert!(out.status.success(), "tde failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_recorded_encounter_replays_to_the_same_final_state() {
    let path = temp("demo.json");
    let p = path.to_str().unwrap();
    let demo = text(&tde(&["encounter", "demo", "--seed", "7", "--record", p]));
    let result = demo.lines().find(|l| l.starts_with("Result:")).expect("a result line").to_string();
    let replayed = text(&tde(&["encounter", "replay", p]));
    assert!(replayed.contains("Replayed to the recorded final state"), "{replayed}");
    assert!(replayed.contains(&result), "the same result: {result}\n{replayed}");
    // The replay shows the game's log as the demo did (every roll included).
    assert!(replayed.contains("damage roll against") || replayed.contains("attacks"), "{replayed}");
    // A record whose final hash was changed is refused with the reason.
    let json = std::fs::read_to_string(&path).unwrap();
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    let hash = record["final_hash"].as_str().unwrap().to_string();
    let bad = temp("tampered.json");
    std::fs::write(&bad, json.replace(&hash, "0000000000000000")).unwrap();
    let out = tde(&["encounter", "replay", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("hashes to") && err.contains("tampered.json"), "{err}");
    // A missing file is named.
    let out = tde(&["encounter", "replay", "/nonexistent/record.json"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/record.json"));
}
