//! End-to-end tests of `tde study`, run as a user would: the table, `--json` with the same
//! exact values as `tde analyze`, pictures, clear errors for bad setups, and the survey of an
//! arena's records.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `tde` run from the repository root, as the study's commands are (the default judge's
/// network is found from there).
fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("CI", "true")
        .output()
        .expect("tde runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-study-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn setup() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/setups/reaction_timing.toml").display().to_string()
}

#[test]
fn the_json_has_analyzes_values_and_the_pictures_are_written() {
    let dir = temp_dir("one");
    let out = tde(&[
        "study",
        "reaction-timing",
        &setup(),
        "--samples",
        "4",
        "--seed",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let study: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let analyze = tde(&["analyze", &setup(), "--json"]);
    assert!(analyze.status.success());
    let analyze: Value = serde_json::from_slice(&analyze.stdout).unwrap();
    let options = analyze["options"].as_array().expect("analyze lists options");
    let rows = study["exact"]["rows"].as_array().unwrap();
    let mut compared = 0;
    for row in rows.iter().filter(|r| r["offered"] == true) {
        let option = options.iter().find(|o| o["action"] == row["action"]).expect("the option is analyzed");
        for key in ["p_active_hit", "p_active_down", "expected_wounds_dealt", "expected_wounds_taken"] {
            let (a, b) = (row["exact"][key].as_f64().unwrap(), option[key].as_f64().unwrap());
            assert!((a - b).abs() < 1e-9, "{key}: study {a} analyze {b}");
        }
        compared += 1;
    }
    assert!(compared > 0);
    assert_eq!(study["beyond"].as_array().unwrap().len(), rows.len());
    assert!(study["verdict"].as_str().unwrap().contains("point"));
    for name in ["board.png", "board.svg", "curves.png", "curves.svg", "study.json"] {
        let len = std::fs::metadata(dir.join(name)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 1000, "{name}: {len} bytes");
    }
}

#[test]
fn bad_setups_get_a_clear_error() {
    let dir = temp_dir("bad");
    let no_declared = dir.join("no_declared.toml");
    std::fs::write(
        &no_declared,
        "board = \"sunken_plaza\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"kaneda\"\nat = [1, 3]\n\n[[model]]\nside = 1\nprofile = \"nix\"\nat = [5, 5]\n",
    )
    .unwrap();
    let out = tde(&["study", "reaction-timing", no_declared.to_str().unwrap(), "--samples", "0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no declared action") && err.contains("no_declared.toml"), "{err}");
    let out = tde(&["study", "reaction-timing", dir.join("missing.toml").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.toml"));
}

#[test]
fn the_survey_reads_an_arenas_records() {
    let dir = temp_dir("arena");
    let out = tde(&[
        "arena",
        "--agents",
        "scripted,greedy",
        "--scenarios",
        "1",
        "--games",
        "2",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--records",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = tde(&["study", "agent-reactions", dir.join("records").to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let survey: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(survey["records"], 2);
    let agents = survey["agents"].as_object().unwrap();
    assert!(agents.keys().all(|k| k == "scripted" || k == "greedy"), "{agents:?}");
}

#[test]
fn the_judge_and_the_ap_rate_are_checked_and_named() {
    let bad = tde(&["study", "reaction-timing", &setup(), "--samples", "0", "--judge", "nonsense"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--judge `nonsense`") && err.contains("unknown agent"), "{err}");
    let bad = tde(&["study", "reaction-timing", &setup(), "--samples", "0", "--ap-value", "rollouts"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--ap-value rollouts"));
    let bad = tde(&["study", "reaction-timing", &setup(), "--ap-value=-1"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--ap-value"));
    let bad = tde(&["study", "reaction-timing", &setup(), "--measure", "vibes"]);
    assert!(!bad.status.success());
    let gen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/learned/gen-003.json");
    let judge = format!("learned:gen={}", gen.display());
    let out = tde(&[
        "study",
        "reaction-timing",
        &setup(),
        "--samples",
        "6",
        "--judge",
        &judge,
        "--ap-value",
        "rollouts",
        "--measure",
        "exact",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains(&format!("with judge {judge}")), "{table}");
    assert!(table.contains("AP exchange rate:") && table.contains("from rollouts"), "{table}");
    assert!(table.contains("[measure: AP-counted net"), "{table}");
}

#[test]
fn the_default_judge_is_the_fast_network_and_seeds_replicate_the_verdict() {
    let out = tde(&["study", "reaction-timing", &setup(), "--samples", "6", "--seeds", "0,777"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    let newest = format!("with judge fast:net={}", fastnet::NEWEST_GENERATION);
    assert!(table.contains(&newest), "the default judge is the newest generation: {table}");
    assert!(table.contains("Bonferroni over 1 planned look"), "{table}");
    let seed_lines: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("replication"))
        .filter(|l| l.trim_start().starts_with("0 ") || l.trim_start().starts_with("777 "))
        .collect();
    assert_eq!(seed_lines.len(), 2, "a line per seed: {table}");
    assert!(table.contains("replicated verdict:"), "{table}");
    let both = tde(&["study", "reaction-timing", &setup(), "--seed", "1", "--seeds", "0,777"]);
    assert!(!both.status.success(), "--seed and --seeds together are refused");
    let none = tde(&["study", "reaction-timing", &setup(), "--samples", "0", "--seeds", "0,777"]);
    assert!(String::from_utf8_lossy(&none.stderr).contains("--seeds"), "replication needs samples");
}

#[test]
fn a_sweep_replicates_at_seeds_with_each_seeds_intervals() {
    let dir = temp_dir("sweep_seeds");
    let config = dir.join("sweep.toml");
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/studies/reaction_lanes.board");
    std::fs::write(
        &config,
        format!(
            "actions = [\"move\"]\nmover_ap = [3]\nreactor_ap = [2]\nsamples = 4\njudge = \"scripted\"\n\n\
             [[template]]\nname = \"start\"\nboard = {:?}\nmover = \"kaneda\"\nfrom = [14, 8]\nto = [20, 8]\n\
             reactors = [\"nix\"]\ngrid = {{ x = [15, 19], y = [12, 12], step = 4 }}\n",
            board.display().to_string()
        ),
    )
    .unwrap();
    let (config, out_dir) = (config.display().to_string(), dir.join("out").display().to_string());
    let out = tde(&["study", "reaction-timing", "--sweep", &config, "--seeds", "3,4", "--out", &out_dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| seed 3 | seed 4 | replicated |") && text.contains("Totals:"), "{text}");
    assert!(text.contains("seeds 3, 4 (held only where every seed settles"), "{text}");
    let out_dir = Path::new(&out_dir);
    for f in [
        "replication.md",
        "replication.csv",
        "summary.md",
        "sweep.json.gz",
        "seed-3/sweep.csv",
        "seed-4/sweep.json.gz",
    ] {
        assert!(out_dir.join(f).is_file(), "{f} is written");
    }
    let csv = std::fs::read_to_string(out_dir.join("replication.csv")).unwrap();
    let seed = csv.lines().next().unwrap().split(',').position(|h| h == "seed").expect("a seed column");
    let seeds: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(seed).unwrap()).collect();
    assert_eq!(seeds, ["3", "4", "3", "4"], "a line per cell and seed: {csv}");
    // The same seed twice, or replication without samples, is refused with the reason.
    let twice = tde(&["study", "reaction-timing", "--sweep", &config, "--seeds", "3,3"]);
    let e = String::from_utf8_lossy(&twice.stderr);
    assert!(!twice.status.success() && e.contains("--seeds") && e.contains("given twice"), "{e}");
    let both = tde(&["study", "reaction-timing", "--sweep", &config, "--seed", "1", "--seeds", "3,4"]);
    assert!(!both.status.success(), "--seed and --seeds together are refused");
}
