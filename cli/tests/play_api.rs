//! `tde play` and `tde watch` over HTTP: whole games against every built-in agent, played by
//! choosing option indices as the page does; hidden information never reaching the person's
//! page; and every kind of bad request refused with a 4xx that leaves the game unchanged.

mod common;

use common::{Reply, Server};
use engine::record::GameRecord;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::path::Path;

/// Play the game on `server` to its end with seeded random choices; returns the views seen.
fn play_to_end(server: &Server, seed: u64) -> Vec<Value> {
    play_to_end_with(server, seed, |options, _, rng| rng.gen_range(0..options.len()))
}

/// As [`play_to_end`], with `pick(options, view, rng)` choosing the option's index.
fn play_to_end_with(
    server: &Server,
    seed: u64,
    mut pick: impl FnMut(&[Value], &Value, &mut ChaCha8Rng) -> usize,
) -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut views = Vec::new();
    let mut view = server.get("/api/state").ok();
    for _ in 0..20_000 {
        views.push(view.clone());
        if !view["over"].is_null() {
            return views;
        }
        let options = view["decision"]["options"].as_array().expect("the person's decision has options");
        assert!(!options.is_empty(), "a decision without options: {}", view["node"]);
        for (i, o) in options.iter().enumerate() {
            assert_eq!(o["i"], json!(i), "options are numbered in order");
            assert!(o["text"].as_str().is_some_and(|t| !t.is_empty()), "every option is described");
        }
        let index = pick(options, &view, &mut rng);
        let version = view["version"].as_u64().unwrap();
        let next = server.post("/api/action", json!({"version": version, "index": index})).ok();
        assert!(next["version"].as_u64().unwrap() > version, "an accepted action moves the game on");
        view = next;
    }
    panic!("the game did not end within 20000 decisions");
}

/// The record the server wrote replays to the same final hash with `tde replay`.
fn assert_replays(record: &Path) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(["replay", "--json"])
        .arg(record)
        .output()
        .expect("tde runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tde replay refused the record: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(text.trim()).expect("JSON");
    assert_eq!(v["matches"], json!(true));
    assert_eq!(v["terminal"], json!(true), "the record holds the whole game");
}

fn whole_game(bot: &str, scenario: &str, side: &str, seed: u64) {
    let server =
        Server::play(&["--bot", bot, "--scenario", scenario, "--side", side, "--seed", &seed.to_string()]);
    let views = play_to_end(&server, seed);
    let last = views.last().unwrap();
    let over = &last["over"];
    assert!(over["reason"].as_str().is_some_and(|r| !r.is_empty()), "the end says why: {over}");
    assert_eq!(over["vp"], last["vp"]);
    let log = last["log"].as_array().unwrap();
    assert!(log.iter().any(|e| e["kind"] == "roll"), "die rolls are logged");
    assert!(
        log.last().unwrap()["text"].as_str().unwrap().starts_with("Game over"),
        "the log ends with the result"
    );
    // Once over, no action is taken: it is nobody's decision.
    let refused = server.post("/api/action", json!({"version": last["version"], "index": 0}));
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_replays(&server.record);
}

#[test]
fn whole_games_against_the_fast_agents() {
    whole_game("random", "assassinate", "A", 3);
    whole_game("greedy", "couriers", "B", 4);
    whole_game("scripted", "attack_and_defend", "A", 5);
}

#[test]
fn whole_games_against_search_agents() {
    whole_game("mcts:iters=10,depth=4", "skirmish", "B", 6);
}

#[test]
fn whole_games_against_the_network_agents() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../checkpoints/bootstrap");
    whole_game(&format!("policy:checkpoint={net}"), "scavenger_hunt", "A", 7);
    // Few network passes a decision: the server plays these agents the same at any count.
    whole_game(&format!("az:net={net},sims=2"), "skirmish", "B", 8);
    whole_game(&format!("mcts:iters=3,net={net}"), "skirmish", "A", 9);
}

#[test]
fn the_page_never_receives_the_bots_secret_grudge() {
    let server =
        Server::play(&["--bot", "random", "--scenario", "grudge_match", "--side", "A", "--seed", "11"]);
    let views = play_to_end(&server, 11);
    let record = GameRecord::load(&server.record).unwrap();
    let mut saw_secret_entry = false;
    for view in &views {
        let grudge = &view["scenario"]["grudges"][1];
        assert!(grudge.is_null() || grudge["revealed"] == json!(true), "side B's grudge leaked: {grudge}");
        for entry in view["log"].as_array().unwrap() {
            let text = entry["text"].as_str().unwrap();
            assert!(
                !text.contains("swears a grudge") || entry["side"] == json!(0),
                "a grudge leaked: {text}"
            );
            saw_secret_entry |= text.contains("kept secret from you");
        }
    }
    assert!(saw_secret_entry, "the log says that side B chose in secret");
    // The bot did choose a grudge: the record (kept by the server, not sent) has it.
    assert!(record.actions.iter().any(|a| matches!(a, engine::Action::Grudge { .. })));
}

/// A scavenger: look at a marker when it can, else mostly move towards the nearest loose one.
fn seek_markers(options: &[Value], view: &Value, rng: &mut ChaCha8Rng) -> usize {
    if let Some(o) = options.iter().find(|o| o["kind"] == "interact") {
        return o["i"].as_u64().unwrap() as usize;
    }
    let cell = |v: &Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
    let loose: Vec<(i64, i64)> = view["scenario"]["markers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["loose"] == json!(true))
        .map(|m| cell(&m["at"]))
        .collect();
    let distance = |o: &Value| {
        let (x, y) = cell(&o["cell"]);
        loose.iter().map(|(a, b)| (x - a).abs() + (y - b).abs()).min().unwrap()
    };
    let closest = options.iter().filter(|o| o["kind"] == "move").min_by_key(|o| distance(o));
    match closest {
        Some(o) if !loose.is_empty() && rng.gen_bool(0.9) => o["i"].as_u64().unwrap() as usize,
        _ => rng.gen_range(0..options.len()),
    }
}

#[test]
fn the_page_never_receives_marker_numbers_it_has_not_seen() {
    let server =
        Server::play(&["--bot", "scripted", "--scenario", "scavenger_hunt", "--side", "B", "--seed", "12"]);
    let views = play_to_end_with(&server, 12, seek_markers);
    let record = GameRecord::load(&server.record).unwrap();
    let mut state = record.initial.restore("record").unwrap();
    let mut version = 0;
    let mut numbers_shown = 0;
    let mut numbers_withheld = 0;
    for view in &views {
        let at = view["version"].as_u64().unwrap() as usize;
        while version < at {
            state.apply_action(record.actions[version]).unwrap();
            version += 1;
        }
        for (i, m) in view["scenario"]["markers"].as_array().unwrap().iter().enumerate() {
            if !m["number"].is_null() {
                numbers_shown += 1;
                let truth = &state.dynamic().scenario.markers[i];
                assert!(truth.known_to(1), "marker {i}'s number was sent to side B, which has not seen it");
                assert_eq!(m["number"], json!(truth.number));
            } else if state.dynamic().scenario.markers[i].number.is_some() {
                numbers_withheld += 1;
            }
        }
    }
    assert!(numbers_shown > 0, "side B looked at markers and was told their numbers");
    assert!(numbers_withheld > 0, "numbers side B had not seen were withheld");
}

#[test]
fn bad_requests_are_refused_and_leave_the_game_unchanged() {
    let server = Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", "13"]);
    let before = server.get("/api/state").ok();
    let version = before["version"].as_u64().unwrap();
    let count = before["decision"]["options"].as_array().unwrap().len();
    let cases: Vec<(&str, Reply, u16)> = vec![
        ("index out of range", server.post("/api/action", json!({"version": version, "index": count})), 422),
        ("stale version", server.post("/api/action", json!({"version": version + 1, "index": 0})), 409),
        (
            "older version",
            server.post("/api/action", json!({"version": version.wrapping_sub(1), "index": 0})),
            409,
        ),
        ("negative index", server.post("/api/action", json!({"version": version, "index": -1})), 422),
        ("missing field", server.post("/api/action", json!({"version": version})), 422),
        (
            "unknown field",
            server.post("/api/action", json!({"version": version, "index": 0, "side": 1})),
            422,
        ),
        ("malformed JSON", server.raw_post("/api/action", "application/json", "{\"version\": 3,", true), 400),
        ("not JSON", server.raw_post("/api/action", "text/plain", "{\"version\":0,\"index\":0}", true), 415),
        (
            "no token",
            server.raw_post("/api/action", "application/json", "{\"version\":0,\"index\":0}", false),
            401,
        ),
        (
            "wrong token",
            server.post_with_token("/api/action", json!({"version": version, "index": 0}), "0123"),
            403,
        ),
        ("huge body", server.raw_post("/api/action", "application/json", &" ".repeat(10_000), true), 413),
        ("advance while playing", server.post("/api/advance", json!({})), 400),
        ("stale advice", server.post("/api/advice", json!({"version": version + 5})), 409),
        ("wrong host", server.wrong_host("/api/state"), 403),
    ];
    for (what, reply, status) in cases {
        assert_eq!(reply.status, status, "{what}: {}", reply.body);
        if status != 413 {
            let error = reply.json()["error"].as_str().map(String::from);
            assert!(error.is_some_and(|e| !e.is_empty()), "{what}: the refusal says why: {}", reply.body);
        }
        assert_eq!(server.get("/api/state").ok(), before, "{what} changed the game");
    }
    // A good request at the same version still works after all those.
    let after = server.post("/api/action", json!({"version": version, "index": 0})).ok();
    assert!(after["version"].as_u64().unwrap() > version);
    // The first one played; replaying it (now stale) is refused.
    assert_eq!(server.post("/api/action", json!({"version": version, "index": 0})).status, 409);
}

#[test]
fn advice_names_the_bots_candidates() {
    let server = Server::play(&["--bot", "mcts:iters=30,depth=4", "--scenario", "skirmish", "--seed", "14"]);
    let view = server.get("/api/state").ok();
    let advice = server.post("/api/advice", json!({"version": view["version"]})).ok();
    assert_eq!(advice["kind"], "search", "{advice}");
    let candidates = advice["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty());
    let options = view["decision"]["options"].as_array().unwrap();
    for c in candidates {
        let i = c["i"].as_u64().expect("a candidate is one of the person's options") as usize;
        assert_eq!(c["text"], options[i]["text"]);
    }
    assert_eq!(server.get("/api/state").ok(), view, "asking for advice changes nothing");
}

#[test]
fn advice_is_worked_out_one_question_at_a_time() {
    let server = Server::play(&["--bot", "mcts:ms=700,depth=4", "--scenario", "skirmish", "--seed", "15"]);
    let view = server.get("/api/state").ok();
    let version = view["version"].clone();
    // Repeated clicks: one answer, the others refused at once rather than queued.
    let replies: Vec<(Reply, f64)> = std::thread::scope(|scope| {
        let asks: Vec<_> = (0..6)
            .map(|k| {
                let server = &server;
                let version = version.clone();
                scope.spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(100 * k));
                    let asked = std::time::Instant::now();
                    let reply = server.post("/api/advice", json!({"version": version}));
                    (reply, asked.elapsed().as_secs_f64())
                })
            })
            .collect();
        asks.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let answered = replies.iter().filter(|(r, _)| r.status == 200).count();
    let refused: Vec<&(Reply, f64)> = replies.iter().filter(|(r, _)| r.status == 429).collect();
    assert_eq!(answered, 1, "{replies:?}");
    assert_eq!(refused.len(), 5, "{replies:?}");
    assert!(refused.iter().all(|(r, _)| r.body.contains("one question at a time")), "{replies:?}");
    assert!(refused.iter().all(|(_, s)| *s < 0.5), "refused at once, not queued: {replies:?}");
    // The game is free at once for the person's move.
    server.post("/api/action", json!({"version": version, "index": 0})).ok();
}

#[test]
fn watching_two_agents_steps_to_the_end_and_back() {
    let server =
        Server::start(&["watch", "--agents", "scripted,greedy", "--scenario", "assassinate", "--seed", "3"]);
    let start = server.get("/api/state").ok();
    assert_eq!(start["mode"], "watch");
    assert!(start["decision"].is_null(), "a spectator decides nothing");
    let refused = server.post("/api/action", json!({"version": 0, "index": 0}));
    assert_eq!(refused.status, 400, "{}", refused.body);
    let mut view = start.clone();
    let mut steps = 0;
    while view["over"].is_null() {
        view = server.post("/api/advance", json!({})).ok();
        steps += 1;
        assert!(steps < 50_000, "the watched game ends");
    }
    assert_eq!(view["version"].as_u64().unwrap(), steps);
    // Stepping back shows the earlier state, with the action about to be taken.
    let early = server.get("/api/state?at=5").ok();
    assert_eq!(early["at"], 5);
    assert!(early["next"].as_str().is_some_and(|t| !t.is_empty()));
    assert_eq!(server.get("/api/state?at=0").ok()["models"], start["models"]);
    assert_eq!(server.get("/api/state?at=x").status, 400);
}

#[test]
fn viewing_a_record_steps_through_it() {
    let dir = common::temp_dir("view");
    let record = dir.join("demo.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(["demo", "--json", "--seed", "2", "--scenario", "couriers", "--record"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success());
    let server = Server::start(&["view", record.to_str().unwrap()]);
    let end = server.get("/api/state").ok();
    assert_eq!(end["mode"], "view");
    assert!(!end["over"].is_null(), "a whole game was recorded");
    let n = end["version"].as_u64().unwrap();
    let middle = server.get(&format!("/api/state?at={}", n / 2)).ok();
    assert_eq!(middle["at"].as_u64().unwrap(), n / 2);
    assert!(middle["over"].is_null());
    assert_eq!(server.post("/api/advance", json!({})).status, 400);
    // A record that does not replay is refused with its file name.
    std::fs::write(dir.join("bad.json"), "{\"format\": 1}").unwrap();
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(["view", "--port", "0"])
        .arg(dir.join("bad.json"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad.json"));
}

#[test]
fn a_game_with_dinosaurs_and_ambush_markers_shows_the_markers_and_plays_to_the_end() {
    let server = Server::play(&[
        "--bot",
        "scripted",
        "--scenario",
        "skirmish",
        "--side",
        "A",
        "--seed",
        "6",
        "--dinos",
        "1",
        "--ambush",
        "2",
    ]);
    let views = play_to_end(&server, 6);
    // Both markers are shown once placed, with their side up, until they spring.
    let most = views.iter().map(|v| v["ambush"].as_array().map_or(0, Vec::len)).max().unwrap();
    assert_eq!(most, 2, "both ambush markers reach the page");
    let marker = views.iter().find_map(|v| v["ambush"].as_array().and_then(|a| a.first().cloned())).unwrap();
    assert!(
        marker["at"].as_array().is_some_and(|at| at.len() == 2) && marker["active"].is_boolean(),
        "{marker}"
    );
    assert_replays(&server.record);
}
