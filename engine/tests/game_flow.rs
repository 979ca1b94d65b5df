//! Turn structure (p.21), game records, saved games, setup files and the agent API.

mod common;

use common::{game, Place};
use engine::record::{GameRecord, SavedGame};
use engine::setup::parse_setup;
use engine::state::Step;
use engine::{Action, GameState, Player};

fn flat_board(w: usize, d: usize) -> engine::board::Board {
    let rows: Vec<String> = (0..d).map(|_| "0.".repeat(w)).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    common::board(&refs)
}

/// A game at the start of a turn (before the initiative phase).
fn at_turn_start(places: &[Place]) -> GameState {
    let s = game(flat_board(12, 12), places, None);
    let mut d = s.dynamic().clone();
    for m in d.models.iter_mut() {
        m.ap = 0;
    }
    d.steps = vec![Step::StartTurn].into();
    d.activating = None;
    GameState::from_parts(s.static_data().clone(), d)
}

fn three_vs_two() -> Vec<Place<'static>> {
    vec![
        Place { side: 0, profile: "nix", at: (1, 1) },
        Place { side: 0, profile: "slethssk", at: (3, 1) },
        Place { side: 0, profile: "artifacter_captain", at: (5, 1) },
        Place { side: 1, profile: "kaneda", at: (1, 10) },
        Place { side: 1, profile: "hosk", at: (3, 10) },
    ]
}

#[test]
fn the_side_with_fewer_conscious_models_gets_the_difference_in_pass_tokens() {
    let s = at_turn_start(&three_vs_two());
    assert_eq!(s.dynamic().pass_tokens[..2], [0, 1]);
}

#[test]
fn the_initiative_roll_off_is_even_and_its_loser_chooses() {
    let mut s = at_turn_start(&three_vs_two());
    assert_eq!(s.current_player(), Player::Chance);
    let outcomes = s.chance_outcomes();
    assert_eq!(outcomes, vec![(Action::Chance(0), 0.5), (Action::Chance(1), 0.5)]);
    s.apply_action(Action::Chance(1)).unwrap();
    assert_eq!(s.current_player(), Player::Side(1), "side B rolled lowest and chooses");
    assert_eq!(s.legal_actions(), vec![Action::TakeInitiative, Action::GiveInitiative]);
    s.apply_action(Action::GiveInitiative).unwrap();
    assert_eq!(s.dynamic().initiative, 0);
    assert_eq!(s.current_player(), Player::Side(0), "the side with the initiative activates first");
    for (i, m) in s.models().iter().enumerate() {
        let p = s.profile(i as u8);
        assert_eq!(m.ap, p.ap_gain.min(p.ap_max), "AP granted up to the maximum");
    }
}

#[test]
fn activations_alternate_and_pass_tokens_hand_the_turn_over() {
    let mut s = at_turn_start(&three_vs_two());
    s.apply_action(Action::Chance(0)).unwrap();
    s.apply_action(Action::TakeInitiative).unwrap();
    // Side A activates Nix and ends at once; side B is active next.
    s.apply_action(Action::Activate(0)).unwrap();
    s.apply_action(Action::EndActivation).unwrap();
    assert!(s.models()[0].activated);
    assert_eq!(s.current_player(), Player::Side(1));
    assert!(s.legal_actions().contains(&Action::PassToken));
    s.apply_action(Action::PassToken).unwrap();
    assert_eq!(s.dynamic().pass_tokens[1], 0);
    assert_eq!(s.current_player(), Player::Side(0), "the pass token hands activation back");
    assert!(!s.legal_actions().contains(&Action::Activate(0)), "one activation per model per turn");
}

#[test]
fn when_one_side_runs_out_the_other_activates_its_remaining_models() {
    let mut s = at_turn_start(&three_vs_two());
    s.apply_action(Action::Chance(0)).unwrap();
    s.apply_action(Action::TakeInitiative).unwrap();
    let mut order = Vec::new();
    while s.turn() == 1 {
        let Player::Side(side) = s.current_player() else { panic!("no chance in plain activations") };
        let pick = s
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Activate(_)))
            .expect("a model to activate");
        order.push(side);
        s.apply_action(pick).unwrap();
        s.apply_action(Action::EndActivation).unwrap();
        if s.current_player() == Player::Chance {
            break; // the next turn's roll-off
        }
    }
    assert_eq!(order, vec![0, 1, 0, 1, 0]);
    assert_eq!(s.turn(), 2, "cleanup moved to turn 2");
    assert!(s.models().iter().all(|m| !m.activated));
}

#[test]
fn cleanup_loses_unspent_ap_and_the_game_ends_after_the_last_turn() {
    let mut s = at_turn_start(&three_vs_two());
    let mut guard = 0;
    while !s.is_terminal() {
        let a = match s.current_player() {
            Player::Chance => Action::Chance(0),
            _ => {
                let legal = s.legal_actions();
                if legal.contains(&Action::EndActivation) {
                    Action::EndActivation
                } else {
                    legal[0]
                }
            }
        };
        s.apply_action(a).unwrap();
        if matches!(s.node(), Some(Step::RollOff)) {
            assert!(s.models().iter().all(|m| m.ap == 0), "unspent AP are lost in cleanup");
        }
        guard += 1;
        assert!(guard < 10_000);
    }
    assert_eq!(s.turn(), 6);
    assert_eq!(s.returns()[..2], [0.0, 0.0], "nobody hurt: a draw");
    assert!(s.legal_actions().is_empty());
    assert_eq!(s.current_player(), Player::Terminal);
}

fn random_record(seed: u64) -> (GameRecord, GameState) {
    let places = three_vs_two();
    let s = game(flat_board(12, 12), &places, None);
    let mut record = GameRecord::new(&s, "test");
    let end = common::random_playout(s, seed, 50_000, |_, _, a| record.actions.push(a));
    record.final_hash = engine::record::format_hash(end.state_hash());
    (record, end)
}

#[test]
fn same_seed_same_game_and_a_record_replays_to_the_same_final_state() {
    let (r1, end1) = random_record(11);
    let (r2, end2) = random_record(11);
    assert_eq!(r1.actions, r2.actions);
    assert_eq!(end1, end2);
    let json = serde_json::to_string(&r1).unwrap();
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    let replayed = back.replay("memory").unwrap();
    assert_eq!(engine::record::format_hash(replayed.state_hash()), r1.final_hash);
    assert_eq!(replayed, end1);
    let (r3, _) = random_record(12);
    assert_ne!(r3.actions, r1.actions, "different seeds play differently");
}

#[test]
fn a_tampered_record_reports_the_illegal_action() {
    let (mut r, _) = random_record(5);
    r.actions.insert(3, Action::Activate(200));
    let err = r.replay("memory").unwrap_err().to_string();
    assert!(err.contains("action #3"), "{err}");
}

#[test]
fn a_saved_state_round_trips_through_json() {
    let (r, _) = random_record(3);
    let mut s = r.initial.restore("memory").unwrap();
    for &a in r.actions.iter().take(40) {
        s.apply_action(a).unwrap();
    }
    let saved = SavedGame::capture(&s);
    let json = serde_json::to_string(&saved).unwrap();
    let back: SavedGame = serde_json::from_str(&json).unwrap();
    let restored = back.restore("memory").unwrap();
    assert_eq!(restored, s);
    assert_eq!(restored.state_hash(), s.state_hash());
    assert_eq!(restored.legal_actions(), s.legal_actions());
}

#[test]
fn observations_show_the_same_public_state_to_both_sides() {
    let s = at_turn_start(&three_vs_two());
    let a = s.observation(0);
    let b = s.observation(1);
    assert_eq!(a.models.len(), b.models.len());
    for (x, y) in a.models.iter().zip(&b.models) {
        assert_eq!((x.at, x.wounds, x.ap), (y.at, y.wounds, y.ap));
        assert_ne!(x.own, y.own);
    }
    assert!(serde_json::to_string(&a).is_ok());
}

const SETUP: &str = r#"
board = "sunken_plaza"
active = 0
activating = 0

[[model]]
side = 0
profile = "nix"
at = [5, 5]

[[model]]
side = 1
profile = "kaneda"
at = [5, 15]
wounds = 2
"#;

fn configs() -> std::path::PathBuf {
    engine::data::configs_dir()
}

#[test]
fn a_setup_file_poses_a_situation_at_a_decision_node() {
    let s = parse_setup(SETUP, "setup.toml", &configs()).unwrap();
    assert_eq!(s.current_player(), Player::Side(0));
    assert_eq!(s.node(), Some(&Step::ChooseAction(0)));
    assert_eq!(s.models()[1].wounds, 2);
    assert!(s.legal_actions().contains(&Action::EndActivation));
}

#[test]
fn bad_setup_files_name_the_field_and_the_reason() {
    let cases = [
        (SETUP.replace("\"kaneda\"", "\"nobody\""), "model[1].profile"),
        (SETUP.replace("[5, 15]", "[5, 5]"), "model[1].at"),
        (SETUP.replace("[5, 15]", "[99, 5]"), "model[1].at"),
        (SETUP.replace("wounds = 2", "wounds = 9"), "model[1].wounds"),
        (SETUP.replace("activating = 0", "activating = 1"), "activating"),
        (SETUP.replace("active = 0", "active = 0\ncolour = 3"), "(toml)"),
        (SETUP.replace("active = 0", "active = 0\nmax_turns = 0"), "max_turns"),
        (SETUP.replace("active = 0", "active = 0\nturn = 7"), "turn"),
        (SETUP.replace("wounds = 2", "wounds = 2\nz = 3"), "model[1].z"),
        (SETUP.replace("activating = 0", "activating = 0\npass_tokens = [1, 2, 3]"), "pass_tokens"),
    ];
    for (text, field) in cases {
        let err = match parse_setup(&text, "setup.toml", &configs()) {
            Ok(_) => panic!("accepted a bad setup (expected an error on {field})"),
            Err(e) => e,
        };
        assert_eq!(err.file, "setup.toml");
        assert!(err.field.starts_with(field), "{err} (expected field {field})");
        if field == "(toml)" {
            assert!(err.reason.starts_with("line "), "a syntax error names its line: {err}");
        }
    }
}

#[test]
fn infiltrating_scouts_are_set_aside_and_deployed_after_the_others() {
    // p.20 step 5 and p.47: models with Infiltrate deploy last.
    let s = engine::setup::new_game(&engine::setup::GameConfig::default()).unwrap();
    let scouts: Vec<bool> = (0..s.models().len() as u8).map(|m| s.profile(m).infiltrates()).collect();
    let first_scout = scouts.iter().position(|&x| x).expect("the starter crews have scouts");
    assert!(scouts[first_scout..].iter().all(|&x| x), "{scouts:?}");
}
