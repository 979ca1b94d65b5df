//! Game records: a played game's record replays to the same final state; a tampered record
//! (an illegal action, a wrong hash, another version, truncated or hostile JSON) is refused
//! with a message that says why; records are written atomically and never overwrite a file.

use agents::{Game, Turn};
use encounter::record::{format_hash, state_hash, FORMAT_VERSION};
use encounter::state::Action;
use encounter::{replay, Encounter, GameRecord, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random game from `seed`: decisions uniformly among the legal actions, chance outcomes by
/// their odds. Returns the final state and every action taken.
fn play(seed: u64) -> (Encounter, Vec<Action>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = Encounter::new();
    let mut actions = Vec::new();
    loop {
        let action = match state.turn() {
            Turn::Terminal => return (state, actions),
            Turn::Chance => {
                let odds = state.chance_outcomes();
                let mut u: f64 = rng.gen();
                let mut pick = odds[odds.len() - 1].0;
                for (a, p) in odds {
                    if u < p {
                        pick = a;
                        break;
                    }
                    u -= p;
                }
                pick
            }
            Turn::Player(_) => {
                let legal = state.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        state.apply(action).unwrap();
        actions.push(action);
    }
}

fn setup(seed: u64) -> Setup {
    Setup { seed, party: "random".into(), dm: "random".into() }
}

fn recorded(seed: u64) -> GameRecord {
    let (state, actions) = play(seed);
    GameRecord::new(setup(seed), actions, &state)
}

#[test]
fn a_played_game_replays_to_the_same_final_state_through_json() {
    let mut forced = 0;
    for seed in 0..30 {
        let (state, actions) = play(seed);
        forced += actions.iter().any(|a| matches!(a, Action::ForceDoor(_))) as usize;
        assert!(actions.len() > 20, "seed {seed}: a game of {} actions", actions.len());
        let record = GameRecord::new(setup(seed), actions, &state);
        let parsed = GameRecord::from_json(&record.to_json()).unwrap();
        assert_eq!(parsed, record);
        let replayed = replay(&parsed).unwrap();
        assert_eq!(state_hash(&replayed), state_hash(&state));
        assert_eq!(replayed.render(), state.render());
        assert_eq!(replayed.returns(), state.returns());
        assert_eq!(replayed.turn(), Turn::Terminal);
    }
    assert!(forced > 0, "some game forces the stuck door, its Extended rolls replayed too");
}

#[test]
fn the_state_hash_tells_states_apart() {
    let (state, actions) = play(3);
    let mut before = Encounter::new();
    for &a in &actions[..actions.len() - 1] {
        before.apply(a).unwrap();
    }
    assert_ne!(state_hash(&before), state_hash(&state));
    assert_ne!(state_hash(&Encounter::new()), state_hash(&state));
    assert_eq!(state_hash(&Encounter::with_log()), state_hash(&Encounter::new()), "the log is not state");
}

#[test]
fn an_illegal_action_is_refused_naming_its_step_and_action() {
    let mut record = recorded(5);
    record.actions[0] = Action::Face(6);
    let err = replay(&record).unwrap_err();
    assert!(err.contains("step 0") && err.contains("Face(6)"), "{err}");

    let mut record = recorded(5);
    let k = record.actions.iter().position(|a| matches!(a, Action::Roll(_))).unwrap();
    record.actions[k] = Action::BuyPool(9);
    let err = replay(&record).unwrap_err();
    assert!(err.contains(&format!("step {k}:")) && err.contains("BuyPool(9)"), "{err}");

    let mut record = recorded(5);
    record.actions.push(Action::EndActivation);
    let err = replay(&record).unwrap_err();
    assert!(err.contains(&format!("step {}:", record.actions.len() - 1)), "{err}");
}

#[test]
fn a_wrong_or_early_final_hash_is_refused() {
    let mut record = recorded(7);
    let good = record.final_hash.clone();
    record.final_hash = format_hash(state_hash(&Encounter::new()));
    let err = replay(&record).unwrap_err();
    assert!(err.contains("hashes to") && err.contains(&good), "{err}");

    let mut record = recorded(7);
    record.actions.pop();
    let err = replay(&record).unwrap_err();
    assert!(err.contains("hashes to"), "{err}");
}

#[test]
fn another_format_or_version_is_refused() {
    let record = recorded(1);
    let json = record.to_json();
    let next = FORMAT_VERSION + 1;
    let v2 = json.replacen(&format!("\"version\": {FORMAT_VERSION}"), &format!("\"version\": {next}"), 1);
    assert_ne!(v2, json);
    let err = GameRecord::from_json(&v2).unwrap_err();
    assert!(err.contains(&format!("version {next}")), "{err}");
    // Version 1 records (before Injury cards and Soak) do not replay under these rules.
    let v1 = json.replacen(&format!("\"version\": {FORMAT_VERSION}"), "\"version\": 1", 1);
    assert!(GameRecord::from_json(&v1).unwrap_err().contains("version 1"));
    let other = json.replacen("\"encounter-record\"", "\"tde-record\"", 1);
    let err = GameRecord::from_json(&other).unwrap_err();
    assert!(err.contains("tde-record"), "{err}");
    let mut bumped = record.clone();
    bumped.version = next;
    assert!(replay(&bumped).unwrap_err().contains(&format!("version {next}")));
}

#[test]
fn truncated_and_hostile_json_is_refused_without_panicking() {
    let json = recorded(2).to_json();
    for cut in [0, 1, json.len() / 3, json.len() / 2, json.len() - 3] {
        let err = GameRecord::from_json(&json[..cut]).unwrap_err();
        assert!(err.starts_with("not an Encounter record"), "{cut}: {err}");
    }
    let hostile = [
        "null",
        "[]",
        "{\"format\": 1}",
        &"[".repeat(100_000),
        "{\"format\":\"encounter-record\",\"version\":2,\"setup\":{\"seed\":-1,\"party\":\"x\",\"dm\":\"y\"},\"actions\":[],\"final_hash\":\"0\"}",
        "{\"format\":\"encounter-record\",\"version\":2,\"setup\":{\"seed\":1,\"party\":\"x\",\"dm\":\"y\"},\"actions\":[],\"final_hash\":\"0\",\"extra\":1}",
        "{\"format\":\"encounter-record\",\"version\":2,\"setup\":{\"seed\":1,\"party\":\"x\",\"dm\":\"y\"},\"actions\":[{\"Teleport\":3}],\"final_hash\":\"0\"}",
    ];
    for text in hostile {
        assert!(GameRecord::from_json(text).is_err(), "{}", &text[..text.len().min(80)]);
    }
    // Well-formed but absurd actions: refused by replay at their step.
    let absurd = [
        Action::Advance(encounter::board::Cell { x: 255, y: 255 }),
        Action::Face(255),
        Action::Strike { target: 200, boost: true, extra: true },
        Action::ChangePlace { ally: 99, momentum: true },
    ];
    for a in absurd {
        let record = GameRecord { actions: vec![Action::BuyPool(0), Action::Face(3), a], ..recorded(2) };
        let err = replay(&record).unwrap_err();
        assert!(err.contains("step 2"), "{err}");
    }
    let many = GameRecord { actions: vec![Action::EndActivation; 100_000], ..recorded(2) };
    assert!(replay(&many).unwrap_err().contains("step 0"));
}

#[test]
fn a_record_is_saved_atomically_and_never_overwrites_a_file() {
    let dir = std::env::temp_dir().join(format!("encounter-record-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    let _ = std::fs::remove_file(&path);
    let record = recorded(4);
    record.save(&path).unwrap();
    assert_eq!(GameRecord::load(&path).unwrap(), record);
    let other = recorded(6);
    let err = other.save(&path).unwrap_err();
    assert!(err.contains("exists"), "{err}");
    assert_eq!(GameRecord::load(&path).unwrap(), record, "the first record is kept");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
    let err = GameRecord::load(&dir.join("missing.json")).unwrap_err();
    assert!(err.contains("missing.json"), "{err}");
    std::fs::write(dir.join("bad.json"), "{\"format\": ").unwrap();
    assert!(GameRecord::load(&dir.join("bad.json")).unwrap_err().contains("bad.json"));
    std::fs::remove_dir_all(&dir).unwrap();
}
