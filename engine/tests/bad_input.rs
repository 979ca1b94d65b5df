//! Bad input never crashes the engine: every shipped faction, crew, card, board, rule, setup,
//! saved game and game record is mutated many times (truncated, lines deleted or swapped,
//! numbers made huge, negative or zero, values turned into other types, JSON fields removed or
//! swapped), and every load must return `Ok` or a clear `Err` — never panic. A state that
//! loads must pass the invariants and play on at random without a panic.
//!
//! The mutations are drawn by proptest from a fixed seed, so CI tries the same inputs each
//! run (the count is printed).

mod common;

use engine::board::Board;
use engine::record::{GameRecord, SavedGame};
use engine::scenario::Scenario;
use engine::setup::{new_game, parse_setup, GameConfig};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Cases per file kind.
const CASES: u32 = 160;

static TRIED: AtomicUsize = AtomicUsize::new(0);

fn runner() -> TestRunner {
    let config = Config { cases: CASES, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

fn configs() -> PathBuf {
    engine::data::configs_dir()
}

fn files(dir: &Path, ext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}

/// Replacement values for a number or any token.
const NUMBERS: [&str; 9] = ["0", "-1", "255", "256", "65536", "99999999999", "1e308", "\"x\"", "[]"];

/// One text mutation, chosen by `pick` (a few random numbers).
fn mutate_text(text: &str, pick: (u8, usize, usize, usize)) -> String {
    let (kind, a, b, c) = pick;
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let (i, j) = (a % lines.len(), b % lines.len());
    match kind % 6 {
        0 => text[..text.char_indices().map(|(k, _)| k).nth(a % text.len().max(1)).unwrap_or(0)].to_string(),
        1 => {
            lines.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, l)| *l).collect::<Vec<_>>().join("\n")
        }
        2 => {
            let mut v = lines.clone();
            v.swap(i, j);
            v.join("\n")
        }
        3 | 4 => {
            // Replace the n-th number of a line by another value.
            let line = lines[i];
            let spans: Vec<(usize, usize)> = line
                .char_indices()
                .filter(|&(k, ch)| {
                    ch.is_ascii_digit() && (k == 0 || !line.as_bytes()[k - 1].is_ascii_digit())
                })
                .map(|(k, _)| (k, k + line[k..].chars().take_while(|ch| ch.is_ascii_digit()).count()))
                .collect();
            let Some(&(s, e)) = spans.get(c % spans.len().max(1)) else { return text.to_string() };
            let new = format!("{}{}{}", &line[..s], NUMBERS[b % NUMBERS.len()], &line[e..]);
            let mut v = lines.clone();
            v[i] = &new;
            v.join("\n")
        }
        _ => {
            // Turn a value into a string, or drop a line's value.
            let line = lines[i];
            let new = match line.split_once('=') {
                Some((k, v)) if c % 2 == 0 => format!("{k}= \"{}\"", v.trim().replace('"', "")),
                Some((k, _)) => format!("{k}="),
                None => format!("{line}]"),
            };
            let mut v = lines.clone();
            v[i] = &new;
            v.join("\n")
        }
    }
}

/// One JSON mutation: change, remove or retype a leaf, swap array entries, or truncate one.
fn mutate_json(value: &mut serde_json::Value, rng: &mut rand_chacha::ChaCha8Rng) {
    use serde_json::Value;
    match value {
        Value::Object(map) if !map.is_empty() && rng.gen_bool(0.75) => {
            let k = map.keys().nth(rng.gen_range(0..map.len())).unwrap().clone();
            if rng.gen_bool(0.15) {
                map.remove(&k);
            } else {
                mutate_json(map.get_mut(&k).unwrap(), rng);
            }
        }
        Value::Array(v) if !v.is_empty() && rng.gen_bool(0.75) => {
            let n = v.len();
            if rng.gen_bool(0.1) {
                v.swap(rng.gen_range(0..n), rng.gen_range(0..n));
            } else if rng.gen_bool(0.05) {
                v.truncate(rng.gen_range(0..n));
            } else {
                mutate_json(&mut v[rng.gen_range(0..n)], rng);
            }
        }
        leaf => {
            *leaf = match rng.gen_range(0..7) {
                0 => Value::from(-1),
                1 => Value::from(255),
                2 => Value::from(u64::MAX),
                3 => Value::from(1.5),
                4 => Value::from("x"),
                5 => Value::Null,
                _ => Value::from(rng.gen_range(0..70)),
            }
        }
    }
}

/// Run `load` on every mutation of every text; no panic allowed.
fn no_panic_on_mutated_text(texts: &[(String, String)], load: impl Fn(&str, &str)) {
    let mut runner = runner();
    let strategy = (0..texts.len(), any::<(u8, usize, usize, usize)>());
    runner
        .run(&strategy, |(k, pick)| {
            let (name, text) = &texts[k];
            let mutated = mutate_text(text, pick);
            TRIED.fetch_add(1, Ordering::Relaxed);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| load(&mutated, name)));
            prop_assert!(outcome.is_ok(), "{name} mutated by {pick:?} crashed the loader:\n{mutated}");
            Ok(())
        })
        .unwrap();
}

/// A loaded state passes the invariants and plays on without a panic.
fn plays_on(state: engine::GameState, seed: u64) {
    let v = engine::invariants::violations(&state);
    assert!(v.is_empty(), "a loaded state breaks the invariants: {v:?}");
    common::random_playout(state, seed, 300, |_, _, _| {});
}

#[test]
fn mutated_profile_crew_card_rule_and_board_files_never_crash_their_loaders() {
    let dir = configs();
    no_panic_on_mutated_text(&files(&dir.join("factions"), "toml"), |text, name| {
        let _ = engine::profile::parse_profiles(text, name);
    });
    let catalog = engine::profile::load_catalog(&dir.join("factions")).unwrap();
    no_panic_on_mutated_text(&files(&dir.join("crews"), "toml"), |text, name| {
        let _ = engine::crew::parse_crew(text, name, &catalog);
    });
    no_panic_on_mutated_text(&files(&dir.join("rules"), "toml"), |text, name| {
        let _ = engine::rules::parse(text, Path::new(name));
    });
    let scratch = std::env::temp_dir().join(format!("tde-bad-cards-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    no_panic_on_mutated_text(&files(&dir.join("cards"), "toml"), |text, _| {
        let sub = scratch.join(format!("{}", TRIED.load(Ordering::Relaxed)));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("cards.toml"), text).unwrap();
        let _ = engine::cards::load_cards(&sub);
        let _ = std::fs::remove_dir_all(&sub);
    });
    // A mutated board is played on (when it loads and fits) in the skirmish.
    no_panic_on_mutated_text(&files(&dir.join("boards"), "board"), |text, name| {
        if let Ok(board) = Board::parse(text, name) {
            let path = scratch.join(format!("b{}.board", TRIED.load(Ordering::Relaxed)));
            std::fs::write(&path, board.to_text()).unwrap();
            let config = GameConfig { board: path.display().to_string(), ..GameConfig::default() };
            if let Ok(state) = new_game(&config) {
                plays_on(state, 1);
            }
            let _ = std::fs::remove_file(&path);
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!("mutated config inputs tried: {}", TRIED.load(Ordering::Relaxed));
}

#[test]
fn mutated_setups_never_crash_and_what_loads_plays_on() {
    let dir = configs();
    no_panic_on_mutated_text(&files(&dir.join("setups"), "toml"), |text, name| {
        if let Ok(state) = parse_setup(text, name, &dir) {
            plays_on(state, 2);
        }
    });
}

#[test]
fn mutated_saved_games_and_records_never_crash_and_what_loads_plays_on() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/playthroughs");
    let records: Vec<GameRecord> = files(&dir, "json")
        .iter()
        .map(|(name, text)| serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    // Saved games: a record's start and states along each record.
    let mut saves: Vec<serde_json::Value> = Vec::new();
    for r in &records {
        let mut state = r.initial.restore("start").unwrap();
        for (i, &a) in r.actions.iter().enumerate() {
            if i % 60 == 0 {
                saves.push(serde_json::to_value(SavedGame::capture(&state)).unwrap());
            }
            state.apply_action(a).unwrap();
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut tried, mut loaded) = (0, AtomicUsize::new(0));
    for round in 0..(CASES as usize * 2) {
        let mut value = saves[round % saves.len()].clone();
        for _ in 0..rng.gen_range(1..4) {
            mutate_json(&mut value, &mut rng);
        }
        let text = value.to_string();
        let cut = if round % 7 == 0 { rng.gen_range(0..text.len()) } else { text.len() };
        tried += 1;
        let outcome = std::panic::catch_unwind(|| {
            if let Ok(saved) = serde_json::from_str::<SavedGame>(&text[..cut]) {
                if let Ok(state) = saved.restore("mutated.json") {
                    loaded.fetch_add(1, Ordering::Relaxed);
                    plays_on(state, round as u64);
                }
            }
        });
        assert!(outcome.is_ok(), "mutated saved game {round} crashed: {}", &text[..cut.min(400)]);
    }
    for round in 0..(CASES as usize) {
        let mut value = serde_json::to_value(&records[round % records.len()]).unwrap();
        // Mutate the record's actions or its start.
        let part = if round % 2 == 0 { "actions" } else { "initial" };
        mutate_json(value.get_mut(part).unwrap(), &mut rng);
        tried += 1;
        let outcome = std::panic::catch_unwind(|| {
            if let Ok(record) = serde_json::from_value::<GameRecord>(value.clone()) {
                if let Ok(state) = record.replay("mutated.json") {
                    loaded.fetch_add(1, Ordering::Relaxed);
                    plays_on(state, round as u64);
                }
            }
        });
        assert!(outcome.is_ok(), "mutated record {round} crashed");
    }
    let loaded = *loaded.get_mut();
    eprintln!("mutated saved games and records tried: {tried}, loaded and played on: {loaded}");
    assert!(loaded >= 10, "the mutations should leave some inputs loadable");
}

#[test]
fn a_board_too_small_for_a_scenario_is_refused_with_what_it_needs() {
    let board = common::flat(36, 2);
    let path = std::env::temp_dir().join(format!("tde-small-{}.board", std::process::id()));
    std::fs::write(&path, board.to_text()).unwrap();
    for scenario in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL) {
        let config = GameConfig { board: path.display().to_string(), scenario, ..GameConfig::default() };
        let err = new_game(&config).err().unwrap_or_else(|| panic!("{scenario:?} accepted a 36x2 board"));
        assert_eq!(err.field, "size", "{err}");
        assert!(err.reason.starts_with("board 36x2: the ") && err.reason.contains("rows"), "{err}");
    }
    let _ = std::fs::remove_file(&path);
}
