//! No game of `tde play` is ever lost: a restarted server resumes the same record where it
//! stopped; an existing file is never overwritten (a clear refusal, or the next free default
//! name); a busy port stops `tde play` before anything is written; records go to
//! `saved-games/` by default.

mod common;

use common::{temp_dir, Server};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// Make `n` choices on `server` (the first option each time); returns the last view.
fn choose_first(server: &Server, n: usize) -> Value {
    let mut view = server.get("/api/state").ok();
    for _ in 0..n {
        if !view["over"].is_null() {
            break;
        }
        let version = view["version"].as_u64().unwrap();
        view = server.post("/api/action", json!({"version": version, "index": 0})).ok();
    }
    view
}

/// `tde ARGS` run to its end in `dir`: (success, stdout and stderr).
fn tde_in(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tde")).current_dir(dir).args(args).output().expect("tde runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn a_restarted_server_resumes_the_same_record() {
    let dir = temp_dir("resume");
    let record = dir.join("game.json");
    let path = record.to_str().unwrap();
    let args = ["play", "--record", path, "--bot", "greedy", "--scenario", "couriers", "--seed", "31"];
    let (server, _) = Server::start_in(Some(&dir), &args);
    let before = choose_first(&server, 12);
    assert!(before["over"].is_null(), "the game is still on");
    drop(server);
    let saved = std::fs::read_to_string(&record).unwrap();

    // Started again with the record alone: its own bot, side, seed and scenario apply.
    let (server, said) = Server::start_in(Some(&dir), &["play", "--record", path]);
    assert!(said.contains("Resuming"), "the server says it resumes: {said}");
    let after = server.get("/api/state").ok();
    assert_eq!(after["version"], before["version"], "the same step");
    assert_eq!(after["decision"], before["decision"], "the same decision, the same options");
    assert_eq!(after["models"], before["models"]);
    assert_eq!(after["log"], before["log"], "the log is rebuilt as it was");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), saved, "resuming rewrites nothing");
    // And the game goes on in the same file, from the same actions.
    let later = choose_first(&server, 3);
    assert!(later["version"].as_u64() > before["version"].as_u64());
    let old: Value = serde_json::from_str(&saved).unwrap();
    let new: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let (old, new) = (old["actions"].as_array().unwrap(), new["actions"].as_array().unwrap());
    assert!(new.len() > old.len() && new[..old.len()] == old[..], "the record grows from where it was");
}

#[test]
fn an_existing_record_is_never_overwritten() {
    let dir = temp_dir("no-overwrite");
    // A record that is not a tde play game (tde demo's).
    let demo = dir.join("demo.json");
    let (ok, text) = tde_in(
        &dir,
        &["demo", "--seed", "4", "--agents", "greedy,greedy", "--json", "--record", "demo.json"],
    );
    assert!(ok, "{text}");
    let bytes = std::fs::read(&demo).unwrap();
    let (ok, text) = tde_in(&dir, &["play", "--record", "demo.json", "--port", "0"]);
    assert!(!ok && text.contains("not a tde play game") && text.contains("left as it is"), "{text}");
    assert_eq!(std::fs::read(&demo).unwrap(), bytes, "the demo record is untouched");

    // The same whole game as a finished tde play game: refused, untouched.
    let mut record: Value = serde_json::from_slice(&bytes).unwrap();
    record["description"] = json!(r#"tde play {"human":"A","bot":"greedy","seed":4}"#);
    let finished = dir.join("finished.json");
    std::fs::write(&finished, serde_json::to_vec(&record).unwrap()).unwrap();
    let bytes = std::fs::read(&finished).unwrap();
    let (ok, text) = tde_in(&dir, &["play", "--record", "finished.json", "--port", "0"]);
    assert!(!ok && text.contains("is over") && text.contains("tde view"), "{text}");
    assert_eq!(std::fs::read(&finished).unwrap(), bytes);

    // An unfinished game started with another side: refused, untouched.
    let (server, _) =
        Server::start_in(Some(&dir), &["play", "--record", "mine.json", "--bot", "greedy", "--seed", "5"]);
    choose_first(&server, 4);
    drop(server);
    let mine = dir.join("mine.json");
    let bytes = std::fs::read(&mine).unwrap();
    let (ok, text) = tde_in(&dir, &["play", "--record", "mine.json", "--side", "B", "--port", "0"]);
    assert!(!ok && text.contains("--side") && text.contains("side A"), "{text}");
    let (ok, text) = tde_in(&dir, &["play", "--record", "mine.json", "--bot", "random", "--port", "0"]);
    assert!(!ok && text.contains("greedy"), "{text}");
    assert_eq!(std::fs::read(&mine).unwrap(), bytes);

    // A file that is not JSON at all.
    std::fs::write(dir.join("notes.json"), "my notes").unwrap();
    let (ok, text) = tde_in(&dir, &["play", "--record", "notes.json", "--port", "0"]);
    assert!(!ok && text.contains("notes.json") && text.contains("left as it is"), "{text}");
    assert_eq!(std::fs::read_to_string(dir.join("notes.json")).unwrap(), "my notes");
}

#[test]
fn a_busy_port_stops_play_before_anything_is_written() {
    let dir = temp_dir("busy-port");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (ok, text) = tde_in(&dir, &["play", "--bot", "greedy", "--seed", "6", "--port", &port]);
    assert!(!ok && text.contains("--port") && text.contains("cannot listen"), "{text}");
    assert!(!dir.join("saved-games/tde_play_6.json").exists(), "no record was written");
    // A saved game is not touched either.
    let (server, _) = Server::start_in(Some(&dir), &["play", "--bot", "greedy", "--seed", "6"]);
    choose_first(&server, 2);
    drop(server);
    let saved = dir.join("saved-games/tde_play_6.json");
    let bytes = std::fs::read(&saved).unwrap();
    let (ok, _) = tde_in(&dir, &["play", "--bot", "greedy", "--seed", "6", "--port", &port]);
    assert!(!ok);
    assert_eq!(std::fs::read(&saved).unwrap(), bytes);
}

#[test]
fn default_records_go_to_their_own_folder_and_count_up() {
    let dir = temp_dir("default-folder");
    let args = ["play", "--bot", "greedy", "--seed", "7", "--scenario", "assassinate"];
    let (server, said) = Server::start_in(Some(&dir), &args);
    assert!(said.contains("saved-games"), "the server says where the game is kept: {said}");
    let first = dir.join("saved-games/tde_play_7.json");
    let view = choose_first(&server, 3);
    drop(server);
    let bytes = std::fs::read(&first).unwrap();
    // The same command again: the same game goes on.
    let (server, said) = Server::start_in(Some(&dir), &args);
    assert!(said.contains("Resuming"), "{said}");
    assert_eq!(server.get("/api/state").ok()["version"], view["version"]);
    drop(server);
    assert_eq!(std::fs::read(&first).unwrap(), bytes);
    // The same seed in another scenario is another game: a new name, the first left alone.
    let (server, said) = Server::start_in(
        Some(&dir),
        &["play", "--bot", "greedy", "--seed", "7", "--scenario", "grudge_match"],
    );
    assert!(said.contains("tde_play_7-2.json") && said.contains("left as it is"), "{said}");
    drop(server);
    assert!(dir.join("saved-games/tde_play_7-2.json").exists());
    assert_eq!(std::fs::read(&first).unwrap(), bytes);
}

#[test]
fn a_second_server_on_the_same_game_is_refused_and_the_record_stays_whole() {
    let dir = temp_dir("one-writer");
    let record = dir.join("game.json");
    let path = record.to_str().unwrap();
    let args = ["play", "--record", path, "--bot", "greedy", "--scenario", "couriers", "--seed", "32"];
    let (server, _) = Server::start_in(Some(&dir), &args);
    let view = choose_first(&server, 5);
    let saved = std::fs::read_to_string(&record).unwrap();
    // Every step is on disk at once.
    let actions = serde_json::from_str::<Value>(&saved).unwrap()["actions"].as_array().unwrap().len();
    assert_eq!(actions as u64, view["version"].as_u64().unwrap(), "the record holds every step");

    // Another server on the same game, on another port, with or without the same settings.
    for second in [&["play", "--record", path, "--port", "0"][..], &args[..]] {
        let (ok, said) = tde_in(&dir, second);
        assert!(!ok, "a second server on the same record is refused: {said}");
        assert!(said.contains("already being played"), "in plain words: {said}");
        assert!(said.contains(&server.base), "naming the server that has it: {said}");
        assert!(!said.contains("Open http"), "it never serves: {said}");
        assert_eq!(std::fs::read_to_string(&record).unwrap(), saved, "the record is untouched");
    }
    // The first goes on, every step written.
    let later = choose_first(&server, 3);
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(now["actions"].as_array().unwrap().len() as u64, later["version"].as_u64().unwrap());
    // Once it has stopped (however it stopped), the game can be taken up again.
    drop(server);
    let (server, said) = Server::start_in(Some(&dir), &["play", "--record", path]);
    assert!(said.contains("Resuming"), "{said}");
    assert_eq!(server.get("/api/state").ok()["version"], later["version"]);
}
