//! The arena on real TDE games between random agents: reproducible from its seed, resumable
//! from its output folder, and strict about its settings.

use eval::{run, ArenaOptions, ArenaSettings};
use eval::{Results, TdeMatch};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn maker() -> TdeMatch {
    TdeMatch::new("sunken_plaza", ["artifacters_100", "the_firm_100"], "standard").unwrap()
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Random agents (one entered twice) and greedy on two scenarios, 4 games each: 24 games.
fn settings(m: &TdeMatch, seed: u64) -> ArenaSettings {
    let agents = strings(&["random", "random#2", "greedy"]);
    ArenaSettings::new(m, &agents, &strings(&["couriers", "1"]), 4, seed).unwrap()
}

fn options(out: Option<PathBuf>, threads: usize) -> ArenaOptions {
    ArenaOptions { threads, out, records: false, progress: false }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-arena-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The reproducible part of the results.
fn reproducible(r: &Results) -> Value {
    let mut v = serde_json::to_value(r).unwrap();
    v.as_object_mut().unwrap().remove("timing");
    v
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn the_same_seed_gives_the_same_results_on_any_number_of_threads() {
    let m = maker();
    let s = settings(&m, 7);
    assert_eq!(s.scenarios, ["couriers", "assassinate"]);
    assert_eq!(s.total_games(), 24);
    let one = run(&m, &s, &options(None, 1)).unwrap();
    let two = run(&m, &s, &options(None, 2)).unwrap();
    assert_eq!(one.games, 24);
    assert_eq!(reproducible(&one), reproducible(&two));
    assert_eq!(one.pairs.len(), 3);
    for p in &one.pairs {
        assert_eq!(p.wins_a + p.wins_b + p.draws, 8);
    }
    assert_eq!(one.ratings.len(), 3);
    assert_eq!(one.timing.run.played, 24);
    let other = run(&m, &settings(&m, 8), &options(None, 2)).unwrap();
    assert_ne!(reproducible(&one)["agents"], reproducible(&other)["agents"]);
}

#[test]
fn an_interrupted_arena_resumes_without_replaying_finished_games() {
    let m = maker();
    let s = settings(&m, 3);
    let dir = temp_dir("resume");
    let full = run(&m, &s, &options(Some(dir.clone()), 2)).unwrap();
    let log = dir.join("games.jsonl");
    assert_eq!(lines(&log), 24);
    for file in ["arena.json", "results.json", "report.md"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(saved["pairs"], reproducible(&full)["pairs"]);
    assert!(std::fs::read_to_string(dir.join("report.md")).unwrap().contains("## Ratings"));

    // Interrupt it: no results, 10 finished games and half of the 11th.
    std::fs::remove_file(dir.join("results.json")).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let keep: usize = text.split_inclusive('\n').take(10).map(str::len).sum();
    let next = text[keep..].find('\n').unwrap();
    std::fs::write(&log, &text[..keep + next / 2]).unwrap();

    let resumed = run(&m, &s, &options(Some(dir.clone()), 2)).unwrap();
    assert_eq!((resumed.timing.run.resumed, resumed.timing.run.played), (10, 14));
    assert_eq!(reproducible(&resumed), reproducible(&full));
    assert_eq!(lines(&log), 24);

    // Nothing is left to play.
    let again = run(&m, &s, &options(Some(dir.clone()), 1)).unwrap();
    assert_eq!((again.timing.run.resumed, again.timing.run.played), (24, 0));

    // Other settings are refused, naming the option.
    let err = run(&m, &settings(&m, 4), &options(Some(dir.clone()), 2)).unwrap_err();
    assert!(err.contains("--seed 3") && err.contains("--seed 4"), "{err}");
    let fewer =
        ArenaSettings::new(&m, &strings(&["random", "greedy"]), &strings(&["couriers"]), 4, 3).unwrap();
    let err = run(&m, &fewer, &options(Some(dir.clone()), 2)).unwrap_err();
    assert!(err.contains("--agents"), "{err}");
    let err = run(&m, &ArenaSettings { games: 2, ..s.clone() }, &options(Some(dir.clone()), 2)).unwrap_err();
    assert!(err.contains("--games 4") && err.contains("--games 2"), "fewer games are refused: {err}");

    // More games extend the run: only the new indices are played, and the result is that of
    // a run played with the larger number from the start.
    let more = ArenaSettings { games: 6, ..s.clone() };
    let extended = run(&m, &more, &options(Some(dir.clone()), 2)).unwrap();
    assert_eq!((extended.timing.run.resumed, extended.timing.run.played), (24, 12));
    let fresh = run(&m, &more, &options(None, 2)).unwrap();
    assert_eq!(reproducible(&extended), reproducible(&fresh));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("arena.json")).unwrap()).unwrap();
    assert_eq!(saved["games"], 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_replay_to_their_final_hash() {
    let m = maker();
    let s =
        ArenaSettings::new(&m, &strings(&["random", "greedy"]), &strings(&["grudge_match"]), 1, 5).unwrap();
    assert_eq!(s.games, 2, "rounded up to even");
    let dir = temp_dir("records");
    let opts = ArenaOptions { records: true, ..options(Some(dir.clone()), 2) };
    run(&m, &s, &opts).unwrap();
    let mut files: Vec<_> =
        std::fs::read_dir(dir.join("records")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 2);
    assert!(files[0].ends_with("random--greedy--grudge_match--0000.json"), "{files:?}");
    for f in files {
        let record = engine::record::GameRecord::load(&f).unwrap();
        let end = record.replay("record").unwrap();
        assert!(end.is_terminal());
        assert_eq!(engine::record::format_hash(end.state_hash()), record.final_hash);
    }
    assert!(run(&m, &s, &ArenaOptions { records: true, ..options(None, 1) }).unwrap_err().contains("--out"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_settings_are_refused_naming_the_option() {
    let m = maker();
    let all = strings(&["all"]);
    let err = |agents: &[&str], scenarios: &[String], games: u32| {
        ArenaSettings::new(&m, &strings(agents), scenarios, games, 1).unwrap_err()
    };
    assert!(err(&["random", "nobody"], &all, 2).contains("--agents: unknown agent `nobody`"));
    assert!(err(&["random"], &all, 2).contains("--agents needs at least two"));
    assert!(err(&["random", "random"], &all, 2).contains("random#2"));
    assert!(err(&["random", "greedy"], &strings(&["atlantis"]), 2).contains("--scenarios: unknown scenario"));
    assert!(err(&["random", "greedy"], &all, 0).contains("--games"));
    let s = ArenaSettings::new(&m, &strings(&["random", "greedy"]), &all, 2, 1).unwrap();
    assert_eq!(s.scenarios.len(), 5);
    assert!(run(&m, &s, &options(None, 0)).unwrap_err().contains("--threads"));
}
