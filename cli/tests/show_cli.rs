//! `tde show` (the whole state a player may see, masked for one side on request) and the
//! chance outcomes of `tde legal --json` (each with its exact odds and the kind of roll or
//! draw it is), run as a user would on saved games made here with the engine.

use engine::record::SavedGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::{EnemyStep, Step};
use engine::{GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
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
    let dir = std::env::temp_dir().join(format!("tde-show-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn setup(name: &str) -> String {
    format!("{}/../configs/setups/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Play agent `agent` on both sides and random rolls from a new game of `config` until `stop`
/// holds; the state then, or `None` if the game ended first.
fn try_play_until(
    config: &GameConfig,
    seed: u64,
    agent: &str,
    stop: impl Fn(&GameState) -> bool,
) -> Option<GameState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut agent = training::play::make_agent(agent, seed).expect("an agent");
    let mut s = new_game(config).expect("a game");
    while !stop(&s) {
        let action = match s.current_player() {
            Player::Terminal => return None,
            Player::Chance => s.sample_chance(&mut rng).unwrap(),
            Player::Side(_) => agent.select_action(&s),
        };
        s.apply_action(action).unwrap();
    }
    Some(s)
}

/// [`try_play_until`] with random players, for a node every game reaches.
fn play_until(config: &GameConfig, seed: u64, stop: impl Fn(&GameState) -> bool) -> GameState {
    try_play_until(config, seed, "random", stop).expect("the game ended first")
}

/// Save `state` as `name` in the test's folder; its path.
fn save(state: &GameState, name: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, serde_json::to_string(&SavedGame::capture(state)).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn show_gives_every_model_marker_card_and_the_node_of_a_shipped_setup() {
    let file = setup("reaction_timing.toml");
    let v = json(&tde(&["show", &file, "--json"]));
    assert_eq!(v["side"], Value::Null, "the whole state without --side");
    assert!(v["view"].as_str().unwrap().contains("whole state"), "{}", v["view"]);
    assert_eq!(v["turn"], 1);
    assert_eq!(v["to_act"], 1, "side B chooses its reactions");
    assert!(v["node"].as_str().unwrap().contains("react"), "{}", v["node"]);
    assert_eq!(v["vp"], serde_json::json!([0, 0]));
    let models = v["models"].as_array().unwrap();
    assert_eq!(models.len(), 3);
    let kaneda = &models[0];
    assert_eq!(kaneda["profile_id"], "kaneda");
    assert_eq!(kaneda["side"], 0);
    assert_eq!(kaneda["at"], serde_json::json!([1, 3]));
    for key in [
        "name",
        "z",
        "stance",
        "health",
        "wounds",
        "wounds_max",
        "ap",
        "ap_max",
        "activated",
        "jammed",
        "broken",
        "fire",
        "blind",
        "slow",
        "stealth",
        "confusion",
        "pending",
        "carries",
    ] {
        assert!(kaneda.get(key).is_some(), "model field {key}: {kaneda}");
    }
    assert_eq!(v["sequence"]["actor"], 0, "Kaneda's declared move is under way");
    assert!(v["scenario"]["markers"].as_array().unwrap().is_empty());
    assert_eq!(v["cards"].as_array().unwrap().len(), 2);
    assert_eq!(v["ai"], Value::Null, "no dinosaurs here");

    let out = tde(&["show", &file]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the whole state") && text.contains("VP: A 0 · B 0"), "{text}");
    assert!(text.contains("side B decides") && text.contains("Kaneda"), "{text}");
}

#[test]
fn show_with_a_side_leaves_out_the_marker_numbers_and_grudge_it_may_not_know() {
    // Scavenger Hunt: a marker whose number one side has looked at and the other has not.
    let config = GameConfig { scenario: Scenario::ScavengerHunt, ..GameConfig::default() };
    let known_to_one = |s: &GameState| {
        s.dynamic().scenario.markers.iter().position(|m| m.number.is_some() && m.known.count_ones() == 1)
    };
    let state = (0..20)
        .find_map(|seed| try_play_until(&config, seed, "scripted", |s| known_to_one(s).is_some()))
        .expect("some game has a marker looked at by one side only");
    let k = known_to_one(&state).unwrap();
    let marker = state.dynamic().scenario.markers[k];
    let knower = marker.known.trailing_zeros() as usize;
    let number = marker.number.unwrap();
    let file = save(&state, "scavenger.json");
    let letter = |side: usize| ["a", "b"][side];
    let number_seen = |side: Option<usize>| {
        let mut args = vec!["show", file.as_str(), "--json"];
        if let Some(s) = side {
            args.extend(["--side", letter(s)]);
        }
        let v = json(&tde(&args));
        assert_eq!(v["scenario"]["markers"][k]["known_by"], serde_json::json!([knower]));
        v["scenario"]["markers"][k]["number"].clone()
    };
    assert_eq!(number_seen(None), number, "the whole state shows it");
    assert_eq!(number_seen(Some(knower)), number, "the side that looked knows it");
    assert_eq!(number_seen(Some(1 - knower)), Value::Null, "the other side does not");
    let out = tde(&["show", &file, "--side", letter(1 - knower)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("number hidden from you"), "{text}");
    assert!(!text.contains(&format!("number {number},")), "{text}");

    // Grudge Match: both grudges sworn, neither announced.
    let config = GameConfig { scenario: Scenario::GrudgeMatch, ..GameConfig::default() };
    let state = play_until(&config, 1, |s| s.dynamic().scenario.grudges[..2].iter().all(|g| g.is_some()));
    let file = save(&state, "grudges.json");
    let whole = json(&tde(&["show", &file, "--json"]));
    assert!(whole["scenario"]["grudges"][0].is_object() && whole["scenario"]["grudges"][1].is_object());
    let a = json(&tde(&["show", &file, "--json", "--side", "A"]));
    assert_eq!(a["side"], 0);
    assert!(a["scenario"]["grudges"][0].is_object(), "its own grudge");
    assert_eq!(a["scenario"]["grudges"][1], Value::Null, "not the enemy's secret one");
    let text = String::from_utf8_lossy(&tde(&["show", &file, "--side", "a"]).stdout).to_string();
    assert!(text.contains("side B's grudge: not known to you"), "{text}");
}

/// The outcomes `tde legal --json` lists at the chance node saved in `file`: their kind, and
/// the probabilities, which sum to 1 and match their fractions.
fn chance_outcomes(file: &str) -> (String, Vec<Value>) {
    let v = json(&tde(&["legal", file, "--json"]));
    assert_eq!(v["player"], "chance");
    let kind = v["chance"]["kind"].as_str().expect("the node's kind").to_string();
    let list = v["actions"].as_array().unwrap().clone();
    assert_eq!(v["chance"]["outcomes"], list.len());
    let total: f64 = list.iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "the odds sum to {total}");
    for o in &list {
        assert_eq!(o["kind"], kind.as_str(), "{o}");
        let (n, d) = o["fraction"].as_str().unwrap().split_once('/').unwrap();
        let fraction = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        assert!((fraction - o["probability"].as_f64().unwrap()).abs() < 1e-12, "{o}");
        assert!(o["text"].as_str().unwrap().ends_with(o["outcome"].as_str().unwrap()), "{o}");
    }
    (kind, list)
}

#[test]
fn legal_gives_each_chance_outcome_its_odds_and_the_kind_of_roll_or_draw() {
    // The spawn roll of the first dinosaur, before deployment.
    let config = GameConfig { scenario: Scenario::Assassinate, dinos: 2, ..GameConfig::default() };
    let spawn = new_game(&config).unwrap();
    let (kind, list) = chance_outcomes(&save(&spawn, "spawn.json"));
    assert_eq!(kind, "spawn_roll");
    assert!(list.iter().all(|o| o["label"] == "spawn roll" && o["roll"].as_str().unwrap().contains("spawn")));
    assert!(list.iter().all(|o| !o["text"].as_str().unwrap().contains("roll-off")), "{list:?}");

    // An AI dinosaur's card draw in the enemy phase: every card left alike.
    let draw = play_until(&config, 3, |s| matches!(s.node(), Some(Step::Enemy(EnemyStep::Draw { .. }))));
    let (kind, list) = chance_outcomes(&save(&draw, "draw.json"));
    assert_eq!(kind, "ai_card_draw");
    assert!(list.iter().all(|o| o["outcome"].as_str().unwrap().starts_with("card \"")), "{list:?}");
    assert!(list.iter().all(|o| o["probability"] == list[0]["probability"]));
    let text = String::from_utf8_lossy(&tde(&["legal", &save(&draw, "draw.json")]).stdout).to_string();
    assert!(text.contains("outcomes of this AI card draw") && !text.contains("rolls lowest"), "{text}");

    // The initiative roll-off of turn 2 is still a roll-off.
    let roll_off = play_until(&config, 5, |s| s.turn() == 2 && s.node() == Some(&Step::RollOff));
    let (kind, list) = chance_outcomes(&save(&roll_off, "roll_off.json"));
    assert_eq!(kind, "roll_off");
    assert_eq!(list[0]["outcome"], "side A rolls lowest");
    assert_eq!(list[1]["fraction"], "1/2");

    // An AI model's test rolls the enemy die.
    let enemy_test = play_until(&config, 7, |s| {
        matches!(s.node(), Some(Step::Test { model, .. })
            if s.models()[*model as usize].side == engine::uc::AI_SIDE)
    });
    let (kind, list) = chance_outcomes(&save(&enemy_test, "enemy_test.json"));
    assert_eq!(kind, "enemy_die");
    assert!(list.iter().any(|o| o["outcome"] == "Frenzy"), "{list:?}");
}
