//! `tde encounter play --web` over HTTP: whole games played by choosing option indices as the
//! page does, against the DM's levels and agents; every kind of bad request refused with a 4xx
//! that names the field and leaves the game unchanged; quit, save and resume; one server per
//! record.

mod common;

use common::{temp_dir, Server};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `tde encounter play --web ARGS --record DIR/record.json` on a free port.
fn start(name: &str, args: &[&str]) -> Server {
    let record = temp_dir(&format!("encounter-{name}")).join("record.json");
    let mut all = vec!["encounter", "play", "--web", "--record", record.to_str().unwrap()];
    all.extend_from_slice(args);
    let mut server = Server::start(&all);
    server.record = record;
    server
}

/// Take `moves` seeded random choices (fewer if the game ends); returns the last view.
fn play(server: &Server, seed: u64, moves: usize) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut view = server.get("/api/state").ok();
    for _ in 0..moves {
        if !view["over"].is_null() {
            assert!(view["decision"].is_null(), "no decision once the game is over");
            return view;
        }
        let decision = &view["decision"];
        let prompt = decision["prompt"].as_str().expect("a decision has a prompt");
        assert!(!prompt.is_empty());
        let options = decision["options"].as_array().expect("the party's decision has options");
        assert!(!options.is_empty(), "a decision without options: {prompt}");
        for (i, o) in options.iter().enumerate() {
            assert_eq!(o["i"], json!(i), "options are numbered in order");
            assert!(o["text"].as_str().is_some_and(|t| !t.is_empty()), "every option is described");
            // The odds are the engine's, shown in its own option line.
            if let Some(odds) = o["odds"].as_str() {
                assert!(o["label"].as_str().unwrap().ends_with(&format!("[{odds}]")), "{o}");
            }
        }
        let index = rng.gen_range(0..options.len());
        let version = view["version"].as_u64().unwrap();
        let log = view["log"].as_array().unwrap().len();
        let next = server.post("/api/action", json!({"version": version, "index": index})).ok();
        assert!(next["version"].as_u64().unwrap() > version, "an accepted choice moves the game on");
        assert!(next["log"].as_array().unwrap().len() >= log, "the log only grows");
        view = next;
    }
    view
}

/// `tde encounter replay FILE`: its output, after checking it succeeded.
fn replay(record: &Path) -> String {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tde")).args(["encounter", "replay"]).arg(record).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "the record does not replay: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Replayed to the recorded final state"), "{text}");
    text
}

fn whole_game(name: &str, args: &[&str], seed: u64) {
    let server = start(name, args);
    let first = server.get("/api/state").ok();
    assert_eq!(first["board"]["rows"].as_array().unwrap().len(), 8, "the board's rows");
    assert!(
        first["models"].as_array().unwrap().iter().any(|m| m["side"] == "dm"),
        "the adversaries are drawn"
    );
    let last = play(&server, seed, 20_000);
    let over = &last["over"];
    assert!(over["result"].as_str().is_some_and(|r| r.contains("after")), "the end says the result: {over}");
    let log: Vec<&str> = last["log"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(log.iter().any(|l| l.contains("damage roll")), "the rolls are logged");
    assert!(log.iter().any(|l| l.contains("declarations revealed")), "the DM's declarations are logged");
    // Once over, nothing is taken.
    let refused = server.post("/api/action", json!({"version": last["version"], "index": 0}));
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.json()["error"].as_str().unwrap().contains("over"), "{}", refused.body);
    let replayed = replay(&server.record);
    assert!(replayed.contains("Result: "), "the record holds the whole game: {replayed}");
}

#[test]
fn whole_games_are_played_through_the_api_to_their_end() {
    whole_game("scripted", &["--seed", "3"], 3);
    whole_game("random", &["--seed", "4", "--dm", "random"], 4);
}

#[test]
fn the_level_names_the_dungeon_master() {
    let server = start("level", &["--seed", "5", "--level", "normal"]);
    let view = play(&server, 5, 15);
    assert_eq!(view["dm"], json!("search:rollouts=16,width=4,rounds=1"));
}

#[test]
fn bad_requests_are_refused_naming_the_field_and_leave_the_game_unchanged() {
    let server = start("bad", &["--seed", "6"]);
    let before = play(&server, 6, 12);
    let version = before["version"].as_u64().unwrap();
    let count = before["decision"]["options"].as_array().unwrap().len();
    let huge = format!("{{\"version\": {version}, \"index\": 0, \"pad\": \"{}\"}}", "x".repeat(5000));
    let cases = vec![
        (
            "a stale version",
            server.post("/api/action", json!({"version": version - 1, "index": 0})),
            409,
            "`version`",
        ),
        (
            "a later version",
            server.post("/api/action", json!({"version": version + 1, "index": 0})),
            409,
            "`version`",
        ),
        (
            "no such option",
            server.post("/api/action", json!({"version": version, "index": count})),
            422,
            "`index`",
        ),
        ("a missing field", server.post("/api/action", json!({"version": version})), 422, "`index`"),
        (
            "a negative index",
            server.post("/api/action", json!({"version": version, "index": -1})),
            422,
            "index",
        ),
        ("a text index", server.post("/api/action", json!({"version": version, "index": "1"})), 422, "index"),
        (
            "an unknown field",
            server.post("/api/action", json!({"version": version, "index": 0, "x": 1})),
            422,
            "`x`",
        ),
        (
            "not JSON",
            server.raw_post("/api/action", "application/json", "{version", true),
            400,
            "request body",
        ),
        ("no token", server.raw_post("/api/action", "application/json", "{}", false), 401, "x-tde-token"),
        (
            "a wrong token",
            server.post_with_token("/api/action", json!({"version": version, "index": 0}), "00"),
            403,
            "x-tde-token",
        ),
        ("another host", server.wrong_host("/api/state"), 403, "`Host`"),
        ("a body too large", server.raw_post("/api/action", "application/json", &huge, true), 413, ""),
        ("quit with a field", server.post("/api/quit", json!({"now": true})), 422, "`now`"),
    ];
    for (what, reply, status, field) in cases {
        assert_eq!(reply.status, status, "{what}: {}", reply.body);
        if status != 413 {
            let error = reply.json()["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{what}: {}", reply.body))
                .to_string();
            assert!(error.contains(field), "{what}: the error names {field}: {error}");
        }
        assert_eq!(server.get("/api/state").ok(), before, "{what}: the game is unchanged");
    }
    // The right request is still taken.
    let next = server.post("/api/action", json!({"version": version, "index": count - 1})).ok();
    assert!(next["version"].as_u64().unwrap() > version);
}

/// `tde encounter play --web ARGS` run to its exit: whether it succeeded, and what it said.
fn run_to_exit(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tde")).args(args).arg("--port").arg("0").output().unwrap();
    (
        out.status.success(),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}

#[test]
fn a_game_quit_on_the_page_is_saved_and_resumed_where_it_stopped() {
    let server = start("quit", &["--seed", "7"]);
    let record = server.record.clone();
    let path = record.to_str().unwrap();
    let view = play(&server, 7, 25);
    // One writer per record: a second server on the same game is refused and writes nothing.
    let saved = std::fs::read(&record).unwrap();
    let (ok, said) = run_to_exit(&["encounter", "play", "--web", "--resume", path]);
    assert!(!ok && said.contains("already being played"), "{said}");
    assert_eq!(std::fs::read(&record).unwrap(), saved, "the record is left as it was");
    // Every step is saved: the record replays to the version shown.
    let replayed = replay(&record);
    assert!(replayed.contains(&format!("{} actions", view["version"])), "{replayed}");

    let quit = server.post("/api/quit", json!({})).ok();
    assert_eq!(quit["quit"], json!(true));
    assert_eq!(quit["version"], view["version"], "quitting takes no action");
    assert_eq!(quit["resume"], json!(format!("tde encounter play --web --resume {path}")));
    drop(server);

    let resumed = Server::start(&["encounter", "play", "--web", "--resume", path]);
    let again = resumed.get("/api/state").ok();
    for field in ["version", "round", "models", "decision", "log", "seed", "dm", "record"] {
        assert_eq!(again[field], view[field], "{field} is as it was when quit");
    }
    let last = play(&resumed, 8, 20_000);
    assert!(!last["over"].is_null(), "the resumed game plays to its end");
    assert!(replay(&record).contains("Result: "));
}

#[test]
fn a_record_that_exists_is_never_overwritten_by_a_new_game() {
    let dir: PathBuf = temp_dir("encounter-exists");
    let record = dir.join("taken.json");
    std::fs::write(&record, "mine").unwrap();
    let (ok, said) = run_to_exit(&["encounter", "play", "--web", "--record", record.to_str().unwrap()]);
    assert!(!ok && said.contains("exists"), "{said}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "mine");
    let out =
        Command::new(env!("CARGO_BIN_EXE_tde")).args(["encounter", "play", "--port", "9"]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && said.contains("--web"), "--port needs --web: {said}");
}
