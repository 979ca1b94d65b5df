//! What the `tde play` table tells a player besides the options: the sight, cover and threat
//! overlay of any cell, the enemy's answers counted exactly or sampled with the bot's own agent
//! (and labelled which), every test's modifiers itemised with their reasons in the options and
//! the log, and attacks on downed models saying that a success takes them out.

mod common;

use common::Server;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The attribute a list of modifiers gives from `base`, kept within the dice's range.
fn modified(base: &Value, modifiers: &Value) -> u64 {
    let sum: i64 = base.as_i64().unwrap()
        + modifiers.as_array().unwrap().iter().map(|m| m["by"].as_i64().unwrap()).sum::<i64>();
    sum.clamp(1, 9) as u64
}

/// Play on over the API from the current decision with seeded choices that favour moving,
/// shooting and charging, until `stop(view)` holds; the view it held at.
fn play_until(server: &Server, seed: u64, mut stop: impl FnMut(&Value) -> bool) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut view = server.get("/api/state").ok();
    for _ in 0..5000 {
        if stop(&view) {
            return view;
        }
        assert!(view["over"].is_null(), "the game ended first");
        let pick = common::favoured_option(&view, &mut rng);
        let version = view["version"].as_u64().unwrap();
        view = server.post("/api/action", json!({"version": version, "index": pick})).ok();
    }
    panic!("no such view within 5000 decisions");
}

#[test]
fn the_sight_overlay_names_who_sees_a_cell_from_cover_and_who_could_shoot_or_charge_it() {
    let server = Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", "41"]);
    // Until the two crews are close: some enemy model within 12" of one of the person's.
    let view = play_until(&server, 41, |v| {
        let models = v["models"].as_array().unwrap();
        let you = &v["you"];
        v["decision"]["step"] == "action"
            && models.iter().any(|a| {
                a["side"] == *you
                    && a["on_table"] == true
                    && models.iter().any(|b| {
                        b["side"] != *you && b["on_table"] == true && b["health"] == "conscious" && {
                            let d = |k: usize| a["at"][k].as_i64().unwrap() - b["at"][k].as_i64().unwrap();
                            d(0).abs().max(d(1).abs()) <= 12
                        }
                    })
            })
    });
    let version = view["version"].as_u64().unwrap();
    let models = view["models"].as_array().unwrap().clone();
    let you = view["you"].as_u64().unwrap();
    let fixed = server.get("/api/fixed").ok();
    let (width, depth) =
        (fixed["board"]["width"].as_u64().unwrap(), fixed["board"]["depth"].as_u64().unwrap());
    let (mut seen, mut covered, mut shot, mut charged) = (0, 0, 0, 0);
    for y in (0..depth).step_by(2) {
        for x in (0..width).step_by(2) {
            let o = server.post("/api/sight", json!({"version": version, "x": x, "y": y})).ok();
            assert_eq!(o["cell"], json!([x, y]));
            assert!(o["summary"].as_str().is_some_and(|s| s.contains("could shoot it")), "{o}");
            let figure = &models[o["figure"]["id"].as_u64().unwrap() as usize];
            assert_eq!(figure["side"], json!(you), "the figure imagined there is the person's");
            for e in o["enemies"].as_array().unwrap() {
                let m = &models[e["id"].as_u64().unwrap() as usize];
                assert_ne!(m["side"], json!(you), "only enemy models are listed");
                assert_eq!(m["health"], "conscious");
                let name = e["name"].as_str().unwrap();
                assert!(name.contains(m["name"].as_str().unwrap()), "named as on its card: {name}");
                if e["sees"] == true {
                    seen += 1;
                    let cover = e["cover"].as_str().unwrap();
                    assert!(["no cover", "soft cover", "hard cover", "hard and soft cover"].contains(&cover));
                    covered += usize::from(cover != "no cover");
                }
                for s in e["shots"].as_array().unwrap() {
                    shot += 1;
                    assert_eq!(e["sees"], true, "a shot needs sight: {e}");
                    assert_eq!(modified(&s["base"], &s["modifiers"]), s["attr"].as_u64().unwrap(), "{s}");
                    assert_eq!(s["needed"], if s["band"] == "short" { "Pass" } else { "Nailed It" });
                    let p = s["success"].as_f64().unwrap();
                    assert!((0.0..=1.0).contains(&p));
                    if e["cover"] != "no cover" {
                        assert!(
                            s["modifiers"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|m| m["why"].as_str().unwrap().contains("cover")),
                            "cover is a modifier of the shot: {e}"
                        );
                    }
                }
                charged += usize::from(e["charge"] == true);
            }
        }
    }
    assert!(
        seen > 0 && covered > 0 && shot > 0 && charged > 0,
        "seen {seen}, covered {covered}, shot {shot}, charged {charged}"
    );
    // A cell next to a standing enemy model with a close-combat weapon: it could charge there
    // (from at least one such model and one free cell beside it: a model already in combat,
    // or a cell it cannot reach, gives none).
    let profiles = fixed["profiles"].as_array().unwrap();
    let fighters: Vec<&Value> = models
        .iter()
        .filter(|m| {
            m["side"] != json!(you)
                && m["on_table"] == true
                && m["health"] == "conscious"
                && profiles[m["profile"].as_u64().unwrap() as usize]["weapons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|w| w["range"].is_null())
        })
        .collect();
    assert!(!fighters.is_empty(), "an enemy with a close-combat weapon");
    let mut asked = Vec::new();
    let charge_beside = fighters.iter().any(|enemy| {
        let (ex, ey) = (enemy["at"][0].as_i64().unwrap(), enemy["at"][1].as_i64().unwrap());
        [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
            .iter()
            .map(|(dx, dy)| (ex + dx, ey + dy))
            .filter(|&(x, y)| x >= 0 && y >= 0 && (x as u64) < width && (y as u64) < depth)
            .any(|(x, y)| {
                let o = server.post("/api/sight", json!({"version": version, "x": x, "y": y})).ok();
                let it = o["enemies"].as_array().unwrap().iter().find(|e| e["id"] == enemy["id"]).cloned();
                asked.push((enemy["name"].clone(), x, y, it.clone()));
                it.is_some_and(|e| e["charge"] == true)
            })
    });
    assert!(charge_beside, "no charge reported beside any enemy with a close-combat weapon: {asked:?}");

    // Bad requests: refused with the field named, the game unchanged.
    for (body, status, words) in [
        (json!({"version": version, "x": width, "y": 0}), 422, "field `x`"),
        (json!({"version": version, "x": 0, "y": depth + 5}), 422, "field `y`"),
        (json!({"version": version, "x": 0, "y": 0, "model": 999}), 422, "field `model`"),
        (json!({"version": version + 1, "x": 0, "y": 0}), 409, "field `version`"),
        (json!({"version": version, "x": -1, "y": 0}), 422, "x"),
        (json!({"version": version, "x": 0, "y": 0, "extra": 1}), 422, "extra"),
    ] {
        let reply = server.post("/api/sight", body.clone());
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert!(reply.json()["error"].as_str().is_some_and(|e| e.contains(words)), "{body}: {}", reply.body);
    }
    assert_eq!(server.get("/api/state").ok()["version"], json!(version), "nothing changed");
}

#[test]
fn tests_name_each_modifier_with_its_reason_in_the_options_and_the_log() {
    let (mut options_with_mods, mut downed, mut log_mods) = (0, 0, 0);
    // Games until each kind has been seen (an attack on a downed model is rare).
    for seed in 5u64..40 {
        if options_with_mods > 0 && log_mods > 0 && downed > 0 && seed > 7 {
            break;
        }
        let server =
            Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", &seed.to_string()]);
        let last = play_until(&server, seed, |v| {
            if !v["over"].is_null() {
                return true;
            }
            let models = v["models"].as_array().unwrap();
            for o in v["decision"]["options"].as_array().unwrap() {
                let t = &o["test"];
                if t.is_object() {
                    assert_eq!(modified(&t["base"], &t["modifiers"]), t["attr"].as_u64().unwrap(), "{o}");
                    for m in t["modifiers"].as_array().unwrap() {
                        assert_ne!(m["why"], "other modifiers", "every modifier has its reason: {o}");
                    }
                    options_with_mods += usize::from(!t["modifiers"].as_array().unwrap().is_empty());
                }
                let target = o["target"].as_u64().map(|t| &models[t as usize]);
                let attack = ["shoot", "charge", "close_combat"].contains(&o["kind"].as_str().unwrap_or(""));
                if attack && target.is_some_and(|t| t["health"] == "down") {
                    downed += 1;
                    let note = o["downed"].as_str().unwrap_or_default();
                    assert!(note.contains("success takes it out"), "{o}");
                } else if attack {
                    assert!(o["downed"].is_null(), "{o}");
                }
            }
            false
        });
        let log: Vec<String> =
            last["log"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap().to_string()).collect();
        for line in &log {
            assert!(!line.contains("other modifiers"), "every modifier in the log has its reason: {line}");
        }
        log_mods += log
            .iter()
            .filter(|l| {
                ["cover −1", "charging +1", "blinded −2", "smoke in the way −2", "swimming or climbing −1"]
                    .iter()
                    .any(|m| l.contains(m))
            })
            .count();
    }
    assert!(options_with_mods > 0, "some option's test is modified");
    assert!(log_mods > 0, "some logged test names its modifiers");
    assert!(downed > 0, "some attack on a downed model was offered");
}

#[test]
fn the_enemys_answers_are_counted_exactly_or_sampled_with_the_bots_own_agent() {
    let server = Server::play(&["--bot", "mcts:iters=200,depth=4", "--scenario", "skirmish", "--seed", "41"]);
    let (mut exact, mut sampled, mut answered) = (0, 0, 0);
    play_until(&server, 41, |v| {
        if v["decision"]["step"] != "action" {
            return false;
        }
        let version = v["version"].as_u64().unwrap();
        for o in v["decision"]["options"].as_array().unwrap() {
            if !["shoot", "charge", "move"].contains(&o["kind"].as_str().unwrap_or("")) {
                continue;
            }
            if o["kind"] == "move" && o["i"].as_u64().unwrap() % 9 != 0 {
                continue;
            }
            let r = server.post("/api/risk", json!({"version": version, "index": o["i"]})).ok();
            let how = r["how"].as_str().unwrap();
            assert!(how.contains("the bot's own agent (mcts:iters=200,…"), "{how}");
            assert!(how.contains("60 iterations an answer instead of its 200"), "{how}");
            match r["method"].as_str().unwrap() {
                "exact" => {
                    exact += 1;
                    assert!(how.starts_with("exact: all "), "{how}");
                    assert!(r["samples"].is_null());
                }
                "sampled" => {
                    sampled += 1;
                    assert!(how.starts_with("sampled: "), "{how}");
                    assert!(r["samples"].as_u64().is_some_and(|n| n > 0));
                }
                other => panic!("method {other}"),
            }
            for x in r["reactors"].as_array().unwrap() {
                let p = x["answered"].as_f64().unwrap();
                assert!(p > 0.0 && p <= 1.0 + 1e-9, "{x}");
                answered += 1;
            }
            for k in ["taken", "dealt", "mover_down"] {
                assert!(r[k].as_f64().is_some_and(|x| x >= 0.0), "{k}: {r}");
            }
        }
        exact > 0 && answered > 0
    });
    eprintln!("{exact} exact, {sampled} sampled, {answered} answers");
}
