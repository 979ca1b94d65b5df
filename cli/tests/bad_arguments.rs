//! Every argument is checked: out-of-range numbers, conflicting agent parameters, a record
//! that does not replay to its hash, an impossible arena log line and a game-data folder
//! without data get a clear error (never a crash: exit code 1 or 2, not 101).

use std::path::PathBuf;
use std::process::{Command, Output};

fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde")).args(args).output().expect("tde runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-bad-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The command fails cleanly, saying something about `about`.
fn refused(args: &[&str], about: &str) {
    let out = tde(args);
    let code = out.status.code();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(matches!(code, Some(1) | Some(2)), "{args:?} exited with {code:?}: {text}");
    assert!(text.contains(about), "{args:?} should mention `{about}`: {text}");
}

#[test]
fn numbers_out_of_range_are_refused_with_the_option_named() {
    refused(&["arena", "--agents", "random,greedy", "--games", "4294967295"], "--games");
    refused(&["arena", "--agents", "random,greedy", "--games", "0"], "--games");
    refused(&["arena", "--agents", "random,greedy", "--threads", "0"], "--threads");
    refused(&["arena", "--agents", "random,greedy", "--threads", "-3"], "-3");
    refused(&["bench", "--games", "0"], "--games");
    refused(&["bench", "--batches", "100000000"], "--batches");
    refused(&["bench", "--net-batch", "8"], "--net-batch");
    refused(&["bench", "--network-only", "--net", "none"], "--network-only");
    refused(&["value-check", "--games", "0"], "--games");
    refused(&["value-check", "--every", "0"], "--every");
    refused(&["value-check", "--rollouts", "1001"], "--rollouts");
    refused(&["sibling-check", "--actions", "1"], "--actions");
    refused(&["sibling-check", "--rollouts", "1"], "--rollouts");
    refused(&["sibling-check", "--continuation", "1001"], "--continuation");
    refused(&["sibling-check", "--agent", "nobody", "--games", "1"], "--agent");
    refused(&["value-check", "--agent", "nobody", "--games", "1"], "--agent");
    refused(&["policy-check", "--games", "0"], "--games");
    refused(&["policy-check", "--expert", "nobody", "--games", "1"], "--expert");
    refused(&["policy-check", "--opponent", "nobody", "--games", "1"], "--opponent");
    refused(&["fuzz", "--games", "18446744073709551615"], "--games");
    refused(&["demo", "--seed", "x"], "--seed");
    let run = temp("learn-run");
    let r = run.to_str().unwrap();
    refused(&["learn", "--run", r, "--proposer", "games", "--tune-standing", "17"], "--tune-standing");
    refused(&["learn", "--run", r, "--proposer", "games", "--tune-introduce", "guard"], "not name=weight");
    refused(
        &["learn", "--run", r, "--proposer", "games", "--tune-introduce", "guard=x"],
        "`x` is not a number",
    );
    refused(&["learn", "--run", r, "--proposer", "games", "--tune-introduce", "luck=1"], "no term `luck`");
    refused(&["learn", "--run", r, "--proposer", "games", "--tune-introduce", "guard=1,guard=2"], "twice");
    refused(&["learn", "--run", r, "--proposer", "average", "--average", "a.json"], "at least two");
    refused(&["learn", "--run", r, "--average", "a.json,b.json"], "--proposer average");
}

#[test]
fn a_new_learn_run_says_when_its_ladder_holds_no_generation() {
    let run = temp("learn-fresh-ladder-run");
    let ladder = temp("learn-fresh-ladder");
    let _ = std::fs::remove_dir_all(&ladder);
    let (r, l) = (run.to_str().unwrap(), ladder.to_str().unwrap());
    // The averaged files do not exist, so the run stops right after choosing its incumbent.
    let out =
        tde(&["learn", "--run", r, "--ladder", l, "--proposer", "average", "--average", "a.json,b.json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no generation"), "{stderr}");
    assert!(ladder.join("gen-000.json").is_file(), "generation 0 is written to the new ladder");
    // A ladder that holds a generation starts from it without the note.
    let run2 = temp("learn-fresh-ladder-run2");
    let out = tde(&[
        "learn",
        "--run",
        run2.to_str().unwrap(),
        "--ladder",
        l,
        "--proposer",
        "average",
        "--average",
        "a.json,b.json",
    ]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("holds no generation"));
}

#[test]
fn duplicated_and_conflicting_agent_parameters_are_refused() {
    refused(&["demo", "--agents", "mcts:iters=10,iters=20,random"], "twice");
    refused(&["demo", "--agents", "mcts:iters=5,ms=5,random"], "not both");
    refused(&["demo", "--agents", "mcts:depth=0,random"], "depth");
    refused(&["demo", "--agents", "mcts:rollout=random,rollout=greedy,random"], "twice");
}

#[test]
fn replay_json_reports_a_mismatch_with_both_hashes() {
    let record = temp("mismatch.json");
    let out = tde(&["demo", "--seed", "3", "--record", record.to_str().unwrap()]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let real = value["final_hash"].as_str().unwrap().to_string();
    value["final_hash"] = serde_json::Value::from("0000000000000000");
    std::fs::write(&record, value.to_string()).unwrap();
    let out = tde(&["replay", record.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON object");
    assert_eq!(report["matches"], false);
    assert_eq!(report["final_hash"], real.as_str());
    assert_eq!(report["recorded_hash"], "0000000000000000");
}

#[test]
fn an_arena_resume_refuses_an_impossible_game_line() {
    let out_dir = temp("arena-bad");
    let dir = out_dir.to_str().unwrap();
    let args =
        ["arena", "--agents", "random,random#2", "--scenarios", "skirmish", "--games", "2", "--out", dir];
    assert!(tde(&args).status.success());
    let log = out_dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let first = text.lines().next().unwrap();
    let mut game: serde_json::Value = serde_json::from_str(first).unwrap();
    game["score_a"] = serde_json::Value::from(7.5);
    let rest: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&log, format!("{game}\n{}\n", rest.join("\n"))).unwrap();
    refused(&args, "score 7.5");
}

#[test]
fn an_empty_game_data_folder_is_refused_and_named() {
    let empty = temp("empty-configs");
    std::fs::create_dir_all(&empty).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_tde")).args(["demo"]).env("TDE_CONFIGS", &empty).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("lacks") && err.contains("factions"), "{err}");
    // An empty ./configs in the working directory is passed over, and the tool says so.
    let cwd = temp("cwd");
    std::fs::create_dir_all(cwd.join("configs")).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_tde")).args(["demo", "--json"]).current_dir(&cwd).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignored"));
}

#[test]
fn help_shows_list_defaults_as_the_option_takes_them() {
    let out = tde(&["demo", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("[default: greedy,greedy]"), "{help}");
    assert!(help.contains("[default: artifacters_100,the_firm_100]"), "{help}");
}

#[test]
fn the_built_in_crews_are_the_help_defaults() {
    assert_eq!(engine::setup::DEFAULT_CREWS.join(","), "artifacters_100,the_firm_100");
}

#[test]
fn an_unknown_or_unbuilt_compute_device_is_refused() {
    refused(
        &["--device", "tpu", "scenarios"],
        "expected `cpu`, `vulkan[:N]`, `cuda[:N]` or `onnx[:THREADS]`",
    );
    refused(&["bench", "--device", "cuda:x", "--net", "none"], "must be a number");
    #[cfg(not(feature = "cuda"))]
    refused(&["bench", "--device", "cuda", "--net", "none"], "--features cuda");
    #[cfg(not(feature = "vulkan"))]
    refused(&["bench", "--device", "vulkan", "--net", "none"], "--features vulkan");
    #[cfg(not(feature = "onnx"))]
    refused(&["bench", "--device", "onnx:2", "--net", "none"], "--features onnx");
    refused(&["bench", "--device", "onnx:x", "--net", "none"], "thread count");
}

#[test]
fn a_saved_game_whose_profile_breaks_a_faction_rule_is_refused_naming_it() {
    let record = temp("profile-record.json");
    let out = tde(&["demo", "--seed", "5", "--record", record.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    // Within the engine's numeric limits (damage up to 20) but not a profile file's (up to 10).
    let profile = &mut value["initial"]["profiles"][0];
    let id = profile["id"].as_str().unwrap().to_string();
    profile["weapons"][0]["damage"] = serde_json::json!([15, 15]);
    std::fs::write(&record, value.to_string()).unwrap();
    let saved = temp("profile-saved.json");
    std::fs::write(&saved, value["initial"].to_string()).unwrap();
    let named = format!("profile \"{id}\".weapon[0].damage");
    for args in [
        vec!["legal", saved.to_str().unwrap()],
        vec!["show", saved.to_str().unwrap(), "--json"],
        vec!["replay", record.to_str().unwrap()],
    ] {
        refused(&args, &named);
        refused(&args, "damage must be 0..=10");
        refused(&args, if args[0] == "replay" { "profile-record.json" } else { "profile-saved.json" });
    }
    // A skill the loader does not know.
    value["initial"]["profiles"][0]["weapons"][0]["damage"] = serde_json::json!([1, 1]);
    value["initial"]["profiles"][0]["skills"] = serde_json::json!(["Flying"]);
    std::fs::write(&saved, value["initial"].to_string()).unwrap();
    refused(&["show", saved.to_str().unwrap()], "unknown skill \"Flying\"");
}

#[test]
fn show_refuses_a_missing_or_broken_file_and_a_bad_side() {
    refused(&["show", "no_such_state.json"], "no_such_state.json");
    refused(&["show", "no_such_setup.toml", "--json"], "no_such_setup.toml");
    let broken = temp("broken-state.json");
    std::fs::write(&broken, "{ \"format\": 1, ").unwrap();
    refused(&["show", broken.to_str().unwrap()], "broken-state.json");
    let setup = concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/setups/reaction_timing.toml");
    refused(&["show", setup, "--side", "c"], "--side");
    refused(&["show"], "STATE");
}
