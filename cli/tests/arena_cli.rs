//! End-to-end tests of `tde arena`, run as a user would.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde")).args(args).env("CI", "true").output().expect("tde runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-arena-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn arena_writes_results_and_a_report_and_resumes_from_its_folder() {
    let dir = temp_dir("run");
    let out = dir.to_str().unwrap();
    let args = [
        "arena",
        "--agents",
        "random,greedy",
        "--scenarios",
        "couriers,2",
        "--games",
        "2",
        "--seed",
        "3",
        "--threads",
        "2",
        "--out",
        out,
        "--records",
        "--json",
    ];
    let first = tde(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let results: Value = serde_json::from_slice(&first.stdout).expect("one JSON object");
    let pair = &results["pairs"][0];
    assert_eq!((pair["a"].as_str(), pair["b"].as_str()), (Some("random"), Some("greedy")));
    let counts: Vec<u64> = ["wins_a", "wins_b", "draws"].iter().map(|k| pair[k].as_u64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u64>(), 4);
    assert_eq!(results["ratings"].as_array().unwrap().len(), 2);
    for r in results["ratings"].as_array().unwrap() {
        let (x, ci) = (r["rating"].as_f64().unwrap(), &r["ci95"]);
        assert!(r["agent"].is_string());
        assert!(ci[0].as_f64().unwrap() <= x && x <= ci[1].as_f64().unwrap(), "{r}");
    }
    assert_eq!(results["settings"]["scenarios"], serde_json::json!(["couriers", "grudge_match"]));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(saved["ratings"], results["ratings"]);
    assert!(std::fs::read_to_string(dir.join("report.md")).unwrap().contains("| `random` | `greedy` |"));

    // Every record replays.
    let records: Vec<PathBuf> =
        std::fs::read_dir(dir.join("records")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(records.len(), 4);
    let replay = tde(&["replay", records[0].to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));

    // Run again on the same folder: nothing to play, the same results.
    let again = tde(&args);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["pairs"], results["pairs"]);
    assert_eq!(again["timing"]["run"]["played"], 0);
    assert_eq!(again["timing"]["run"]["resumed"], 4);

    // The summary for a person.
    let text = tde(&[
        "arena",
        "--agents",
        "random,random#2",
        "--scenarios",
        "couriers",
        "--games",
        "2",
        "--seed",
        "3",
    ]);
    assert!(text.status.success(), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("rating") && text.contains("random#2"), "{text}");

    // Another seed on the same folder is refused.
    let mut other = args;
    other[8] = "4";
    let refused = tde(&other);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--seed"), "{}", stderr(&refused));
    // So is a run with AI dinosaurs.
    let mut dinos: Vec<&str> = args.to_vec();
    dinos.extend(["--dinos", "2"]);
    let refused = tde(&dinos);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("dinos"), "{}", stderr(&refused));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_plays_games_with_ai_dinosaurs_and_their_records_replay() {
    let dir = temp_dir("dinos");
    let out = dir.to_str().unwrap();
    let args = [
        "arena",
        "--agents",
        "random,scripted",
        "--scenarios",
        "assassinate",
        "--games",
        "2",
        "--dinos",
        "3",
        "--out",
        out,
        "--records",
        "--json",
    ];
    let run = tde(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    let results: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(results["games"], 2);
    // Every agent gets the dinosaurs' figures: means per game, never negative.
    for agent in results["agents"].as_array().unwrap() {
        for figure in ["models lost to dinosaurs", "dinosaurs taken out"] {
            let mean = agent["figures"][figure].as_f64().unwrap_or_else(|| panic!("{figure} in {agent}"));
            assert!((0.0..=12.0).contains(&mean), "{figure}: {mean}");
        }
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("| agent | dinosaurs taken out | models lost to dinosaurs |"), "{report}");
    for record in std::fs::read_dir(dir.join("records")).unwrap() {
        let path = record.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"uc\""), "the record carries the AI side");
        let replay = tde(&["replay", path.to_str().unwrap()]);
        assert!(replay.status.success(), "{}", stderr(&replay));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_names_the_option_at_fault() {
    let cases: [(&[&str], &str); 12] = [
        (&["--agents", "random,nobody"], "--agents: unknown agent `nobody`"),
        (&["--agents", "random,greedy", "--scenarios", "atlantis"], "--scenarios"),
        (&["--agents", "random,greedy", "--games", "0"], "--games"),
        (&["--agents", "random,greedy", "--threads", "0"], "--threads"),
        (&["--agents", "random,greedy", "--crews", "artifacters_100"], "--crews"),
        (&["--agents", "random,greedy", "--boards", "nonsense"], "--boards: `nonsense`"),
        (&["--agents", "random,greedy", "--boards", "all,nonsense"], "--boards: `nonsense`"),
        (&["--agents", "random,greedy", "--boards", ""], "--boards: an empty name"),
        (&["--agents", "random,greedy", "--board", "lagoon_docks", "--boards", "all"], "--boards"),
        (&["--agents", "random,greedy", "--crews", "all,nobody"], "--crews: `nobody`"),
        (&["--agents", "random,greedy", "--crews", "all,no/such/crew.toml"], "--crews: `no/such/crew.toml`"),
        (&["--solo", "--agents", "random", "--dinos", "1", "--boards", "nonsense"], "--boards: `nonsense`"),
    ];
    for (args, message) in cases {
        let out = tde(&[&["arena"], args].concat());
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn arena_draws_a_board_and_crews_per_round_and_reports_them() {
    let dir = temp_dir("lineups");
    let out = dir.to_str().unwrap();
    let args = [
        "arena",
        "--agents",
        "random,greedy",
        "--boards",
        "all",
        "--crews",
        "all",
        "--games",
        "4",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        out,
        "--records",
        "--json",
    ];
    let run = tde(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    let results: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(results["games"], 20, "4 games on each of the five scenarios");
    let options = &results["settings"]["options"];
    assert_eq!(options["boards"], "drowned_boulevard,lagoon_docks,mangrove_ruins,sunken_plaza");
    assert!(options["crews"].as_str().unwrap().starts_with("drawn from artifacters_100,"), "{options}");
    assert!(options.get("board").is_none(), "{options}");

    // Every game names its board and crews; both games of a round share them.
    let games: Vec<Value> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 20);
    let mut rounds = std::collections::BTreeMap::new();
    for g in &games {
        let lineup = &g["lineup"];
        assert!(lineup["board"].is_string() && lineup["crews"].as_str().unwrap().contains(" vs "), "{g}");
        let round = (g["scenario"].as_str().unwrap().to_string(), g["index"].as_u64().unwrap() / 2);
        assert_eq!(rounds.entry(round).or_insert_with(|| lineup.clone()), lineup, "{g}");
    }
    let boards: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g["lineup"]["board"].as_str().unwrap()).collect();
    assert!(boards.len() > 1, "{boards:?}");

    // The results and the report break the games down by board and by crew pair.
    let rows = results["lineups"].as_array().unwrap();
    let board_games: u64 =
        rows.iter().filter(|r| r["key"] == "board").map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(board_games, 20);
    assert!(rows.iter().any(|r| r["key"] == "crews"));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("## Lineups") && report.contains("| board | games |"), "{report}");
    for board in &boards {
        assert!(report.contains(&format!("| {board} |")), "{board}: {report}");
    }
    let record = std::fs::read_dir(dir.join("records")).unwrap().next().unwrap().unwrap().path();
    let replay = tde(&["replay", record.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));

    // The summary for a person (resumed: nothing left to play) names them too.
    let text = tde(&args[..args.len() - 1]);
    assert!(text.status.success(), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("boards drowned_boulevard,") && text.contains("side A"), "{text}");
    assert!(boards.iter().all(|b| text.contains(b)), "{text}");

    // Other pools on the same folder are refused by name.
    let mut other = args;
    other[4] = "sunken_plaza,lagoon_docks";
    let refused = tde(&other);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--boards"), "{}", stderr(&refused));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_solo_draws_one_board_and_crew_per_game_for_every_agent() {
    let args = [
        "arena",
        "--solo",
        "--agents",
        "random,greedy",
        "--boards",
        "all",
        "--crews",
        "all",
        "--dinos",
        "1",
        "--scenarios",
        "couriers",
        "--games",
        "4",
        "--json",
    ];
    let out = tde(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 8);
    for g in games {
        let other = games.iter().find(|x| x["index"] == g["index"] && x["agent"] != g["agent"]).unwrap();
        assert_eq!(g["lineup"], other["lineup"], "both agents play game {} alike", g["index"]);
        assert!(g["lineup"]["board"].is_string() && g["lineup"]["crew"].is_string(), "{g}");
    }
    for row in r["rows"].as_array().unwrap() {
        let boards: u64 = row["per_lineup"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x[0] == "board")
            .map(|x| x[2]["games"].as_u64().unwrap())
            .sum();
        assert_eq!(boards, 4, "{row}");
    }
    let text = tde(&args[..args.len() - 1]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("mean score (games) by board"), "{text}");
}

#[test]
fn arena_solo_rates_each_agent_alone_against_the_dinosaurs() {
    let dir = temp_dir("solo");
    let args = [
        "arena",
        "--solo",
        "--agents",
        "random,scripted",
        "--crews",
        "artifacters_100",
        "--dinos",
        "2",
        "--scenarios",
        "couriers,skirmish",
        "--games",
        "3",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ];
    let out = tde(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let all = &row["all"];
        assert_eq!(all["games"], 6, "3 games per scenario");
        let score = all["score"].as_f64().unwrap();
        let [lo, hi] = [all["score_ci95"][0].as_f64().unwrap(), all["score_ci95"][1].as_f64().unwrap()];
        assert!(lo <= score && score <= hi);
        // The score is VP + dinosaurs taken out − models lost, in the means too.
        let parts = all["vp"].as_f64().unwrap() + all["dinosaurs_taken_out"].as_f64().unwrap()
            - all["models_lost"].as_f64().unwrap();
        assert!((parts - score).abs() < 1e-9);
        assert_eq!(row["per_scenario"].as_array().unwrap().len(), 2);
    }
    assert_eq!(r["games"].as_array().unwrap().len(), 12);
    // A run killed after five games (the sixth half written) resumes: it plays the seven
    // missing games and gives the same results as the run that was not stopped.
    let log = dir.join("games.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 12);
    std::fs::write(&log, format!("{}\n{}", lines[..5].join("\n"), &lines[5][..20])).unwrap();
    let again = tde(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["games"], r["games"]);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 12);
    // Other settings on the same folder are refused by name.
    let mut other = args;
    other[11] = "4";
    let refused = tde(&other);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--games 3"), "{}", stderr(&refused));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("| agent | games | score | 95% CI | VP | dinosaurs taken out | models lost |"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Solo without dinosaurs is refused by name.
    let refused = tde(&["arena", "--solo", "--agents", "random", "--crews", "artifacters_100"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--dinos"), "{}", stderr(&refused));
}

#[test]
fn arena_plays_the_encounter_through_the_frameworks_arena_and_its_records_replay() {
    let dir = temp_dir("encounter");
    let out = dir.to_str().unwrap();
    let args = ["arena", "--game", "encounter", "--agents", "random,scripted", "--games", "4", "--seed", "2"];
    let run = tde(&[&args[..], &["--threads", "2", "--out", out, "--records", "--json"]].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let results: Value = serde_json::from_slice(&run.stdout).expect("one JSON object");
    assert_eq!(results["settings"]["scenarios"], serde_json::json!(["encounter"]));
    assert_eq!(results["games"], 4);
    assert_eq!(results["ratings"].as_array().unwrap().len(), 2);
    assert!(std::fs::read_to_string(dir.join("report.md")).unwrap().contains("| `random` | `scripted` |"));
    let records: Vec<PathBuf> =
        std::fs::read_dir(dir.join("records")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(records.len(), 4);
    for record in &records {
        let replay = tde(&["encounter", "replay", record.to_str().unwrap()]);
        assert!(replay.status.success(), "{}: {}", record.display(), stderr(&replay));
        assert!(String::from_utf8_lossy(&replay.stdout).contains("Replayed to the recorded final state"));
    }
    // The same seed on one thread: the same results.
    let again = tde(&[&args[..], &["--threads", "1", "--json"]].concat());
    let again: Value = serde_json::from_slice(&again.stdout).expect("one JSON object");
    assert_eq!(again["ratings"], results["ratings"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_refuses_tde_options_for_another_game_and_an_unknown_game() {
    let out =
        tde(&["arena", "--game", "encounter", "--agents", "random,scripted", "--board", "lagoon_docks"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--board is an option of TDE games"), "{}", stderr(&out));
    let out = tde(&["arena", "--game", "chess", "--agents", "random,scripted"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--game: unknown game `chess`"), "{}", stderr(&out));
    let out = tde(&["arena", "--game", "tictactoe", "--agents", "random,minimax", "--scenarios", "couriers"]);
    assert!(stderr(&out).contains("--scenarios: unknown scenario `couriers`"), "{}", stderr(&out));
}

#[test]
fn games_prints_every_registered_games_fact_sheet() {
    let out = tde(&["games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for name in ["tde (The Drowned Earth)", "encounter (", "tictactoe (Tic-tac-toe)"] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    assert!(
        text.contains("chance         Deterministic") && text.contains("information    Imperfect"),
        "{text}"
    );
    assert!(text.contains("3 planes of 3x3"), "{text}");
}
