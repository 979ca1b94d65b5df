//! End-to-end tests of `tde demo`, `replay`, `legal`, `fuzz` and `bench`, run as a user would.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde")).args(args).output().expect("tde runs")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "tde failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn demo_plays_a_whole_game_and_the_same_seed_gives_the_same_output() {
    let a = json(&tde(&["demo", "--seed", "4", "--json"]));
    let b = json(&tde(&["demo", "--seed", "4", "--json"]));
    assert_eq!(a, b);
    for key in ["winner", "turns", "decisions", "chance_events", "final_hash"] {
        assert!(a.get(key).is_some(), "missing {key}: {a}");
    }
    assert!(a["decisions"].as_u64().unwrap() > 10);
    let c = json(&tde(&["demo", "--seed", "5", "--json"]));
    assert_ne!(a["final_hash"], c["final_hash"]);
}

#[test]
fn demo_without_json_shows_the_board_and_the_result() {
    let out = tde(&["demo", "--seed", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap();
    assert!(first.contains(" on ") && first.contains("x36"), "the scenario and board come first: {first}");
    assert!(text.contains("side A: crew ") && text.contains("side B: crew "), "the crews are named");
    assert!(text.contains("Map legend:") && text.contains("~ water"), "the map has a legend");
    assert!(text.contains("== Turn 1: the crews are deployed ==") && text.contains("== Turn 2 =="));
    assert!(
        text.contains("side A takes the initiative")
            || text.contains("side B takes the initiative")
            || text.contains("gives the initiative")
    );
    assert!(text.contains("== Game over: "), "why the game ended");
    assert!(text.contains("Result:"));
    assert!(!text.contains("Side(") && !text.contains("Scenario("), "no internal names");
}

#[test]
fn a_recorded_game_replays_to_the_same_final_hash() {
    let path = temp("game.json");
    let demo = json(&tde(&["demo", "--seed", "9", "--json", "--record", path.to_str().unwrap()]));
    let replay = json(&tde(&["replay", path.to_str().unwrap(), "--json"]));
    assert_eq!(demo["final_hash"], replay["final_hash"]);
    assert_eq!(replay["matches"], true);
}

#[test]
fn a_broken_record_is_reported_with_its_file_name() {
    let path = temp("broken.json");
    std::fs::write(&path, "{ not json").unwrap();
    let out = tde(&["replay", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.json"));
}

#[test]
fn legal_lists_the_actions_of_a_setup_file_and_rejects_a_bad_one() {
    let setup = temp("setup.toml");
    std::fs::write(
        &setup,
        "board = \"sunken_plaza\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"nix\"\nat = [6, 0]\n\n[[model]]\nside = 1\nprofile = \"kaneda\"\nat = [6, 35]\n",
    )
    .unwrap();
    let v = json(&tde(&["legal", setup.to_str().unwrap(), "--json"]));
    let actions = v["actions"].as_array().unwrap();
    assert!(actions.iter().any(|a| a["action"] == "end_activation"));
    assert!(actions.iter().any(|a| a["action"].get("move").is_some()));

    std::fs::write(
        &setup,
        "board = \"sunken_plaza\"\n\n[[model]]\nside = 3\nprofile = \"nix\"\nat = [6, 0]\n",
    )
    .unwrap();
    let out = tde(&["legal", setup.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("setup.toml") && err.contains("model[0].side"), "{err}");
}

#[test]
fn a_missing_board_or_crew_is_a_clear_error() {
    let out = tde(&["demo", "--board", "atlantis"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("atlantis"));
    let out = tde(&["demo", "--crews", "artifacters_100,nobody"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nobody"));
}

#[test]
fn fuzz_reports_games_steps_and_no_violations() {
    let v = json(&tde(&["fuzz", "--games", "8", "--seed", "3", "--json"]));
    assert_eq!(v["games"], 8);
    assert!(v["steps"].as_u64().unwrap() > 100);
    assert_eq!(v["violations"], 0);
    // With AI dinosaurs (1 to 4 a game) and with a fixed number.
    for extra in [&["--dinos"][..], &["--dinos", "6"][..]] {
        let mut cmd = vec!["fuzz", "--games", "6", "--seed", "5", "--json"];
        cmd.extend_from_slice(extra);
        let v = json(&tde(&cmd));
        assert_eq!(v["games"], 6);
        assert_eq!(v["violations"], 0, "{extra:?}: {v}");
    }
    let out = tde(&["demo", "--dinos", "13"]);
    assert!(!out.status.success(), "more than 12 dinosaurs are refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dinos"));
}

#[test]
fn bench_prints_its_figures_as_json() {
    // The network is left out here (`--net none`): its figures are the same `network_speed`
    // measurement `--network-only` prints, checked in the next test.
    let args = ["--games", "2", "--batches", "1", "--mcts", "mcts:iters=20,depth=5", "--net", "none"];
    let v = json(&tde(&[&["bench", "--json"][..], &args[..]].concat()));
    for key in
        ["clone_ns", "legal_actions_us", "random_games_per_s", "learned_games_per_hour", "labels_per_hour"]
    {
        assert!(v[key].as_f64().is_some_and(|x| x > 0.0), "{key}: {v}");
    }
    let per = v["scenarios"].as_array().expect("per-scenario figures");
    assert_eq!(per.len(), 5);
    assert!(per.iter().all(|s| s["games_per_s"].as_f64().is_some_and(|x| x > 0.0)), "{v}");
    for key in ["mcts_iterations_per_s", "mcts_random_rollouts_iterations_per_s", "scripted_decisions_per_s"]
    {
        assert!(per.iter().all(|s| s[key].as_f64().is_some_and(|x| x > 0.0)), "{key}: {v}");
    }
    // Common dice narrow a race's comparisons somewhere: a ratio in [0, 1) in some scenario.
    let ratios: Vec<f64> = per.iter().filter_map(|s| s["race_paired_variance_ratio"].as_f64()).collect();
    assert!(ratios.iter().all(|r| (0.0..=1.5).contains(r)) && ratios.iter().any(|&r| r < 1.0), "{v}");
    let bytes = |key: &str| v[key].as_u64().filter(|&x| x > 0).unwrap_or_else(|| panic!("{key}: {v}"));
    assert!(bytes("state_bytes") > 1000, "the vectors' capacities in place: {v}");
    assert_eq!(v["state_heap_bytes"].as_u64(), Some(0), "a clone allocates nothing: {v}");
    assert!(bytes("mcts_tree_bytes") >= bytes("mcts_tree_nodes") * bytes("mcts_node_bytes"), "{v}");
    assert!(v["mcts_bytes_per_node"].as_f64().is_some_and(|x| x >= bytes("mcts_node_bytes") as f64), "{v}");
    assert!(v["network"].is_null(), "no network figures with --net none: {v}");
}

#[test]
fn bench_times_the_network_alone_with_its_first_passes() {
    let out = tde(&["bench", "--network-only", "--json", "--batches", "1", "--net-batch", "64"]);
    let v = json(&out);
    assert!(v.get("clone_ns").is_none() && v.get("scenarios").is_none(), "no engine figures: {v}");
    let net = &v["network"];
    assert_eq!(net["device"].as_str(), Some("cpu"), "{net}");
    assert_eq!(net["large_batch"].as_u64(), Some(64), "{net}");
    let positive = |x: &serde_json::Value| x.as_f64().is_some_and(|x| x > 0.0);
    for key in [
        "inference_batch1_per_s",
        "inference_batch64_per_s",
        "inference_large_batch_per_s",
        "training_per_s",
        "training_large_batch_per_s",
        "search_batch16_per_s",
        "search_large_batch_per_s",
        "search_large_batch_passes_per_s",
    ] {
        assert!(positive(&net[key]), "{key}: {net}");
    }
    let firsts = net["first_pass_s"].as_array().expect("first passes at three batch sizes");
    assert_eq!(firsts.len(), 3, "{net}");
    assert!(firsts.iter().all(positive), "{net}");
    assert!(net["first_training_step_s"].as_array().is_some_and(|a| a.len() == 2 && a.iter().all(positive)));
    // Each stage is reported as it ends, so a run cut short says how far it got.
    let stages = String::from_utf8_lossy(&out.stderr);
    for stage in ["first forward pass at batch 1:", "training at batch 32:", "searches, 64 at once:"] {
        assert!(stages.contains(stage), "stage `{stage}` in: {stages}");
    }
}

#[test]
fn value_check_judges_the_value_head_on_every_scenario() {
    let v = json(&tde(&["value-check", "--games", "1", "--every", "40", "--json"]));
    let records = v["scenarios"].as_array().expect("per-scenario records");
    assert_eq!(records.len(), 5, "{v}");
    for r in records {
        let count = |key: &str| r[key].as_u64().unwrap_or_else(|| panic!("{key}: {r}"));
        assert!(count("positions") > 0, "{r}");
        assert!(count("sign_right") <= count("decisive") && count("decisive") <= count("positions"), "{r}");
        // Values in [-1, 1] against results in {-1, 0, 1}: a squared error of at most 4.
        assert!(r["mse"].as_f64().is_some_and(|x| (0.0..=4.0).contains(&x)), "{r}");
        assert!(r["mean_value"].as_f64().is_some_and(|x| (-1.0..=1.0).contains(&x)), "{r}");
        assert!(r["mean_result"].as_f64().is_some_and(|x| (-1.0..=1.0).contains(&x)), "{r}");
        let thirds = r["by_third"].as_array().expect("three phases");
        assert_eq!(thirds.len(), 3, "{r}");
        let in_thirds: u64 = thirds.iter().map(|p| p["positions"].as_u64().unwrap()).sum();
        assert_eq!(in_thirds, count("positions"), "every judged decision falls in one third: {r}");
        assert!(r.get("rollouts").is_none(), "no rollouts asked for: {r}");
    }
}

/// With rollouts, each scenario's record says how the rollouts' mean return compares with the
/// results and with the head; the text names them.
#[test]
fn value_check_with_rollouts_compares_them_with_the_results_and_the_head() {
    let args = ["value-check", "--games", "1", "--every", "60", "--rollouts", "2"];
    let v = json(&tde(&[&args[..], &["--json"]].concat()));
    for r in v["scenarios"].as_array().expect("per-scenario records") {
        let rollouts = &r["rollouts"];
        assert_eq!(rollouts["per_position"].as_u64(), Some(2), "{r}");
        for key in ["mse_to_result", "head_mse_to_rollouts"] {
            assert!(rollouts[key].as_f64().is_some_and(|x| (0.0..=4.0).contains(&x)), "{key}: {r}");
        }
    }
    let text = String::from_utf8_lossy(&tde(&args).stdout).into_owned();
    assert!(
        text.contains("2 rollouts from each judged decision") && text.contains("head mse to rollouts"),
        "{text}"
    );
}

/// The sibling check compares the head with rollouts among each judged decision's children,
/// per scenario, within the ranges its figures must keep.
#[test]
fn sibling_check_compares_the_head_with_rollouts_among_siblings() {
    let args = ["sibling-check", "--games", "1", "--every", "40", "--actions", "3", "--rollouts", "2"];
    let v = json(&tde(&[&args[..], &["--json"]].concat()));
    assert_eq!((v["actions"].as_u64(), v["rollouts"].as_u64()), (Some(3), Some(2)), "{v}");
    let records = v["scenarios"].as_array().expect("per-scenario records");
    assert_eq!(records.len(), 5, "{v}");
    for r in records {
        let decisions = r["decisions"].as_u64().unwrap();
        assert!(decisions > 0, "{r}");
        // At most three children: at most three pairs a decision, at least one.
        let pairs = r["pairs"].as_u64().unwrap();
        assert!((decisions..=3 * decisions).contains(&pairs), "{r}");
        assert!(r["correlation"].as_f64().is_some_and(|c| (-1.0..=1.0).contains(&c)), "{r}");
        assert!(r["material_correlation"].as_f64().is_some_and(|c| (-1.0..=1.0).contains(&c)), "{r}");
        for key in ["agreement", "chance_agreement", "material_agreement"] {
            assert!(r[key].as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)), "{key}: {r}");
        }
        assert!(r["chance_agreement"].as_f64().unwrap() >= 1.0 / 3.0 - 1e-9, "{r}");
        for key in ["head_pick_value", "policy_pick_value"] {
            assert!(r[key].as_f64().is_some_and(|x| (-1.0..=1.0).contains(&x)), "{key}: {r}");
        }
    }
    let text = String::from_utf8_lossy(&tde(&args).stdout).into_owned();
    assert!(text.contains("among siblings") && text.contains("grudge_match"), "{text}");
    assert!(text.contains("material evaluator"), "{text}");
    // Judged after a continuation the same children get other head values; the rollouts,
    // which start from the children, stay.
    let later = json(&tde(&[&args[..], &["--json", "--continuation", "3"]].concat()));
    assert_eq!(later["continuation"].as_u64(), Some(3), "{later}");
    let (now, then) = (&v["scenarios"], &later["scenarios"]);
    for (a, b) in now.as_array().unwrap().iter().zip(then.as_array().unwrap()) {
        assert_eq!(
            (a["pairs"].as_u64(), a["rollout_sd"].as_f64()),
            (b["pairs"].as_u64(), b["rollout_sd"].as_f64())
        );
    }
    assert_ne!(now.to_string(), then.to_string());
}

/// The network judged against itself playing alone agrees with every choice it makes; the
/// figures of each scenario add up over the kinds of action.
#[test]
fn policy_check_measures_agreement_with_an_expert() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../checkpoints/bootstrap");
    let expert = format!("policy:checkpoint={net}");
    let v = json(&tde(&["policy-check", "--net", net, "--expert", &expert, "--games", "1", "--json"]));
    let records = v["scenarios"].as_array().expect("per-scenario records");
    assert_eq!(records.len(), 5, "{v}");
    for r in records {
        let decisions = r["decisions"].as_u64().unwrap();
        assert!(decisions > 0, "{r}");
        assert_eq!(r["agreed"].as_u64(), Some(decisions), "{r}");
        let p = r["expert_probability"].as_f64().unwrap();
        assert!(p > 0.0 && p <= 1.0, "{r}");
        let kinds = r["kinds"].as_object().expect("by kind");
        assert!(kinds.contains_key("move") && kinds.contains_key("activate"), "{r}");
        let by_kind: u64 = kinds.values().map(|k| k["decisions"].as_u64().unwrap()).sum();
        assert_eq!(by_kind, decisions, "{r}");
    }
    // Against the scripted player it does not agree everywhere.
    let v = json(&tde(&["policy-check", "--net", net, "--games", "1", "--json"]));
    let (agreed, decisions): (u64, u64) = v["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["agreed"].as_u64().unwrap(), r["decisions"].as_u64().unwrap()))
        .fold((0, 0), |(a, d), (x, y)| (a + x, d + y));
    assert!(agreed < decisions && agreed > decisions / 4, "{agreed} of {decisions}");
}

#[test]
fn analyze_values_every_reaction_of_the_shipped_reaction_timing_setup() {
    let setup = concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/setups/reaction_timing.toml");
    let v = json(&tde(&["analyze", setup, "--json"]));
    assert_eq!(v["side"], 1);
    let options = v["options"].as_array().unwrap();
    assert!(options.len() > 2);
    assert!(options.iter().any(|o| o["action"] == "end_reactions" && o["p_active_hit"] == 0.0));
    assert!(options.iter().any(|o| o["p_active_hit"].as_f64().unwrap() > 0.0));
    for o in options {
        let p = o["p_active_hit"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
    }
}

#[test]
fn crew_check_gives_the_verdict_and_fails_on_an_illegal_crew() {
    let legal = concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/crews/militia_100.toml");
    let v = json(&tde(&["crew", "check", legal, "--json"]));
    assert_eq!(v["legal"], true);
    let bad = temp("bad_crew.toml");
    std::fs::write(
        &bad,
        "name = \"x\"\nfaction = \"Militia\"\npoints = 100\nmodels = [\"militia_ranger\"]\n",
    )
    .unwrap();
    let out = tde(&["crew", "check", bad.to_str().unwrap(), "--json"]);
    assert!(!out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["legal"], false);
    assert!(v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["rule"].as_str().unwrap().contains("no Leader")));
}

#[test]
fn scenarios_lists_the_five_in_d5_order() {
    let list = json(&tde(&["scenarios", "--json"]));
    let names: Vec<&str> =
        list["scenarios"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["assassinate", "grudge_match", "attack_and_defend", "couriers", "scavenger_hunt"]);
    let text = String::from_utf8_lossy(&tde(&["scenarios"]).stdout).to_string();
    assert_eq!(text.lines().filter(|l| l.contains(" p.")).count(), 6, "{text}");
}

#[test]
fn demo_plays_every_scenario_by_name_or_number_and_replays_it() {
    for (arg, name) in [
        ("assassinate", "assassinate"),
        ("2", "grudge_match"),
        ("attack_and_defend", "attack_and_defend"),
        ("Couriers", "couriers"),
        ("scavenger hunt", "scavenger_hunt"),
    ] {
        let path = temp(&format!("{name}.json"));
        let out = json(&tde(&[
            "demo",
            "--scenario",
            arg,
            "--agents",
            "random,random",
            "--seed",
            "3",
            "--json",
            "--record",
            path.to_str().unwrap(),
        ]));
        assert_eq!(out["scenario"], name);
        assert!(out["vp"].as_array().unwrap().len() == 2);
        let replay = json(&tde(&["replay", path.to_str().unwrap(), "--json"]));
        assert_eq!(replay["final_hash"], out["final_hash"], "{name}");
    }
    let crews = ["--crews", "militia_150,bondsmen_150", "--scenario", "random", "--json", "--seed", "8"];
    let out = json(&tde(&[&["demo", "--agents", "random,random"][..], &crews[..]].concat()));
    assert!(out["scenario"].is_string());
}

#[test]
fn an_unknown_scenario_is_a_clear_error() {
    let out = tde(&["demo", "--scenario", "capture_the_flag"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--scenario") && err.contains("capture_the_flag") && err.contains("assassinate"),
        "{err}"
    );
}

#[test]
fn export_onnx_writes_the_shipped_network_and_refuses_a_missing_one_without_writing() {
    let out = temp("bootstrap_value.onnx");
    let done = tde(&["export-onnx", "--out", out.to_str().unwrap()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let bytes = std::fs::read(&out).unwrap();
    // ModelProto starts with field 1 (ir_version, a varint): 8, and every float weight is in it.
    assert_eq!(&bytes[..2], &[0x08, 8], "an ONNX model of IR version 8");
    assert!(bytes.len() > 4 * 93_506, "{} bytes for 93,506 weights", bytes.len());
    let missing = temp("missing.onnx");
    let refused =
        tde(&["export-onnx", "--net", "checkpoints/no_such_network", "--out", missing.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--net"), "the error names --net");
    assert!(!missing.exists(), "nothing is written");
}
