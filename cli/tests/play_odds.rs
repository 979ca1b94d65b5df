//! Every probability the `tde play` page shows for an option, at many random positions,
//! against the outcomes of the option enumerated here, state by state, with the engine's
//! chance nodes (`GameState::chance_outcomes`) and its documented default decisions: a move's
//! chance of reaching the cell it goes to (and the least result of its movement test that gets
//! it there), a combat roll's chance of the result it needs, and the wounds dealt and taken and
//! the mover's chance of going down. The positions are those of seeded random games on the
//! server; each state is the record's, replayed. Figures the server leaves for later (an
//! option with many outcomes) are asked for as the page does (`/api/odds`).

mod common;

use common::Server;
use engine::analysis::default_decision;
use engine::dice::TestLevel;
use engine::record::GameRecord;
use engine::state::{Purpose, Step};
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// What [`each_end`] calls at every end: the end, its probability, the way to it.
type Visit<'a> = dyn FnMut(&GameState, f64, &[(GameState, Action)]) + 'a;

/// Call `visit(end, p, way)` for every end of the action sequence under way at `s`, with its
/// probability and the states on the way with the action taken at each (the first is `s`).
fn each_end(s: &GameState, p: f64, way: &mut Vec<(GameState, Action)>, visit: &mut Visit) {
    if s.dynamic().sequence.is_none() || s.is_terminal() {
        visit(s, p, way);
        return;
    }
    match s.current_player() {
        Player::Chance => {
            for (a, q) in s.chance_outcomes() {
                let mut next = s.clone();
                next.apply_action(a).unwrap();
                way.push((s.clone(), a));
                each_end(&next, p * q, way, visit);
                way.pop();
            }
        }
        Player::Side(_) => {
            let a = default_decision(s);
            let mut next = s.clone();
            next.apply_action(a).unwrap();
            way.push((s.clone(), a));
            each_end(&next, p, way, visit);
            way.pop();
        }
        Player::Terminal => visit(s, p, way),
    }
}

/// The result of the last test on the way whose purpose `wanted` picks.
fn rolled(way: &[(GameState, Action)], wanted: impl Fn(Purpose) -> bool) -> Option<TestLevel> {
    way.iter().rev().find_map(|(s, a)| match (s.node(), a) {
        (Some(Step::Test { purpose, .. }), Action::Chance(i)) if wanted(*purpose) => {
            Some(s.pending_test().expect("a test node lists its results")[*i as usize].0.level)
        }
        _ => None,
    })
}

/// What the page should show for option `action` at `state` (chosen by `side`): the test's
/// chance of success and the least result needed (for a move: of reaching its cell), the
/// wounds dealt and taken, the mover's chance of ending down.
#[derive(Debug, Default)]
struct Expected {
    success: f64,
    needed: Option<TestLevel>,
    dealt: f64,
    taken: f64,
    down: f64,
}

fn expected(
    state: &GameState,
    action: Action,
    side: u8,
    combat_roll: Option<(usize, TestLevel)>,
) -> Expected {
    let mut after = state.clone();
    after.apply_action(action).unwrap();
    let seq = after.dynamic().sequence.clone();
    let mover = seq.as_ref().map(|s| s.actor).or(state.dynamic().activating);
    let dest = match action {
        Action::Move { dest, .. }
        | Action::Charge { dest, .. }
        | Action::Dismount { dest, .. }
        | Action::Remount { dest } => Some(dest),
        _ => None,
    };
    let mut e = Expected::default();
    let mut reaching: Vec<TestLevel> = Vec::new();
    each_end(&after, 1.0, &mut Vec::new(), &mut |end, p, way| {
        for (a, b) in state.models().iter().zip(end.models()) {
            let lost = a.wounds.saturating_sub(b.wounds) as f64;
            if a.side == side {
                e.taken += p * lost;
            } else {
                e.dealt += p * lost;
            }
        }
        if mover.is_some_and(|m| !end.models()[m as usize].is_conscious()) {
            e.down += p;
        }
        match combat_roll {
            Some((r, needed)) => {
                if rolled(way, |purpose| purpose == Purpose::Combat(r as u8)).is_some_and(|l| l >= needed) {
                    e.success += p;
                }
            }
            None => {
                let Some(q) = seq.as_ref() else { return };
                let level = rolled(way, |purpose| purpose == Purpose::Movement);
                let mover = q.actor;
                if dest == Some(end.models()[mover as usize].cell) && level != Some(TestLevel::Blunder) {
                    e.success += p;
                    reaching.extend(level);
                }
            }
        }
    });
    e.needed = match combat_roll {
        Some((_, needed)) => Some(needed),
        None => reaching.into_iter().min(),
    };
    e
}

fn level_named(name: &str) -> TestLevel {
    TestLevel::ALL.into_iter().find(|l| l.words() == name).unwrap_or_else(|| panic!("no result `{name}`"))
}

fn close(shown: &Value, expected: f64, what: &str) {
    let shown = shown.as_f64().unwrap_or_else(|| panic!("{what}: no figure shown"));
    assert!((shown - expected).abs() < 1e-9, "{what}: the page shows {shown}, the outcomes give {expected}");
}

/// What was compared, over all positions.
#[derive(Default, Debug)]
struct Counts {
    positions: usize,
    tests: usize,
    moves: usize,
    moves_needing_nailed_it: usize,
    combat: usize,
    odds: usize,
    /// Figures that one roll's result table alone (the page's old sum) would have got wrong.
    unlike_one_roll: usize,
    /// Options whose figures over the sequence were asked for later.
    later: usize,
}

/// The option's figures over the rest of the sequence: in the view, or asked for later as the
/// page does.
fn sequence_figures(server: &Server, view: &Value, o: &Value, counts: &mut Counts) -> Value {
    if o["odds_later"] != json!(true) {
        return o["odds"].clone();
    }
    counts.later += 1;
    let asked = server.post("/api/odds", json!({"version": view["version"], "index": o["i"]})).ok();
    assert_eq!(asked["index"], o["i"]);
    asked["odds"].clone()
}

/// Check every option of the decision in `view` against the state the record replays to.
fn check_decision(server: &Server, view: &Value, state: &GameState, counts: &mut Counts) {
    let side = view["you"].as_u64().unwrap() as u8;
    let legal = state.legal_actions();
    let options = view["decision"]["options"].as_array().unwrap();
    assert_eq!(options.len(), legal.len(), "one option per legal action");
    counts.positions += 1;
    let before = state.dynamic().sequence.as_ref().map_or(0, |s| s.rolls.len());
    for (o, &action) in options.iter().zip(&legal) {
        let what = format!("step {} option {} ({})", view["version"], o["i"], o["text"]);
        let test = &o["test"];
        let odds = &sequence_figures(server, view, o, counts);
        if test.is_null() && odds.is_null() {
            continue;
        }
        let combat = (!test.is_null() && test["movement"] == json!(false))
            .then(|| (before, level_named(test["needed"].as_str().unwrap())));
        let e = expected(state, action, side, combat);
        if !test.is_null() {
            counts.tests += 1;
            close(&test["success"], e.success, &format!("{what}: the test's chance"));
            let needed = test["needed"].as_str().unwrap();
            match e.needed {
                Some(level) => assert_eq!(needed, level.words(), "{what}: the result needed"),
                None => assert_eq!(needed, "no result", "{what}: no result reaches the cell"),
            }
            let one_roll = engine::odds::level_distribution(
                test["attr"].as_u64().unwrap() as i32,
                state.static_data().variant.narrative_feats,
            );
            let old =
                if needed == "Nailed It" { one_roll[3] + one_roll[4] } else { one_roll[2..].iter().sum() };
            if test["movement"] == json!(true) {
                counts.moves += 1;
                if needed == "Nailed It" {
                    counts.moves_needing_nailed_it += 1;
                }
                let pass_only: f64 = one_roll[2..].iter().sum();
                if (pass_only - e.success).abs() > 1e-6 {
                    counts.unlike_one_roll += 1;
                }
            } else {
                counts.combat += 1;
                if (old - e.success).abs() > 1e-6 {
                    counts.unlike_one_roll += 1;
                }
            }
        }
        if !odds.is_null() {
            counts.odds += 1;
            close(&odds["dealt"], e.dealt, &format!("{what}: wounds dealt"));
            close(&odds["taken"], e.taken, &format!("{what}: wounds taken"));
            close(&odds["active_down"], e.down, &format!("{what}: the mover goes down"));
        }
    }
}

/// Play `server`'s game with seeded random choices (moves, charges and shots preferred, so
/// that fights happen), checking every decision, for up to `decisions` decisions.
fn play_and_check(server: &Server, seed: u64, decisions: usize, counts: &mut Counts) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut view = server.get("/api/state").ok();
    for _ in 0..decisions {
        if !view["over"].is_null() {
            return;
        }
        let record = GameRecord::load(&server.record).unwrap();
        assert_eq!(
            record.actions.len() as u64,
            view["version"].as_u64().unwrap(),
            "the record is up to date"
        );
        let state = record.replay("record").unwrap();
        check_decision(server, &view, &state, counts);
        let pick = common::favoured_option(&view, &mut rng);
        let version = view["version"].as_u64().unwrap();
        view = server.post("/api/action", json!({"version": version, "index": pick})).ok();
    }
}

#[test]
fn every_figure_the_page_shows_is_the_exact_chance_over_the_options_outcomes() {
    let mut counts = Counts::default();
    for (scenario, seed) in [("skirmish", 7), ("attack_and_defend", 8), ("grudge_match", 9)] {
        let server = Server::play(&["--bot", "greedy", "--scenario", scenario, "--seed", &seed.to_string()]);
        play_and_check(&server, seed, 90, &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.positions >= 150, "enough positions: {counts:?}");
    assert!(
        counts.moves >= 100 && counts.combat >= 10,
        "moves with a test and combat rolls were compared: {counts:?}"
    );
    assert!(
        counts.moves_needing_nailed_it > 0,
        "some moves reach their cell only on a Nailed It: {counts:?}"
    );
    assert!(counts.unlike_one_roll > 0, "the one-roll sum would have been wrong somewhere: {counts:?}");
}

#[test]
fn a_prompt_with_millions_of_outcomes_shows_each_tests_odds_and_leaves_the_rest_for_later() {
    let server = Server::heavy_reaction_prompt();
    let view = server.get("/api/state").ok();
    assert_eq!(view["decision"]["step"], json!("reaction"), "{}", view["node"]);
    let options = view["decision"]["options"].as_array().unwrap();
    let tests: Vec<&Value> = options.iter().filter(|o| !o["test"].is_null()).collect();
    assert!(tests.len() >= 3, "the reactions' tests are shown");
    for o in &tests {
        // Before, each of these enumerated more than 200,000 outcomes and showed no figure.
        let p = o["test"]["success"].as_f64().unwrap_or_else(|| panic!("a figure for {}", o["text"]));
        assert!(p > 0.0 && p < 1.0, "{}: {p}", o["text"]);
    }
    let later: Vec<&Value> = options.iter().filter(|o| o["odds_later"] == json!(true)).collect();
    assert!(!later.is_empty(), "options with millions of outcomes are worked out when asked");
    for o in options {
        assert!(o["odds"].is_object() != (o["odds_later"] == json!(true)), "figures now or later: {o}");
    }
    // The page asks for them one at a time; the answer is kept for the version.
    let last = later.last().unwrap();
    let ask = json!({"version": view["version"], "index": last["i"]});
    let asked = server.post("/api/odds", ask.clone()).ok();
    for figure in ["dealt", "taken", "active_hit", "active_down"] {
        assert!(asked["odds"][figure].as_f64().is_some(), "{figure}: {asked}");
    }
    assert_eq!(server.post("/api/odds", ask).ok(), asked, "asked again, the same answer");
    // Asked about another version, an option that is not there or with a field too many: refused.
    let version = view["version"].as_u64().unwrap();
    let stale = server.post("/api/odds", json!({"version": version - 1, "index": 0}));
    assert_eq!(stale.status, 409, "{}", stale.body);
    let missing = server.post("/api/odds", json!({"version": version, "index": options.len()}));
    assert_eq!(missing.status, 422, "{}", missing.body);
    let extra = server.post("/api/odds", json!({"version": version, "index": 0, "x": 1}));
    assert_eq!(extra.status, 422, "{}", extra.body);
    assert_eq!(server.get("/api/state").ok()["version"], view["version"], "nothing was played");
}
