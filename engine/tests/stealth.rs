//! Stealth (pp.48-49): stealthed models cannot be seen, shot or charged, are moved through,
//! are revealed by a Reveal, by fire, or by declaring anything but a move; reactions against a
//! stealthed model that initiated combat are at −2.

mod common;

use common::{open_board, Position};

use common::force_test;
use engine::dice::TestLevel;
use engine::state::{CombatKind, Step};
use engine::{Action, GameState};

const KANEDA: u8 = 0;
const VENK: u8 = 1;

/// Kaneda active; Venk (Stealth skill) 6" away.
fn ambush() -> GameState {
    let s =
        Position::on(open_board(10, 14)).model(0, "kaneda", (4, 1)).model(1, "venk", (4, 8)).active(KANEDA);
    let mut d = s.dynamic().clone();
    d.models[VENK as usize].tokens.stealth = true;
    GameState::from_parts(s.static_data().clone(), d)
}

#[test]
fn a_stealthed_model_cannot_be_seen_shot_or_charged_but_can_be_revealed() {
    let s = ambush();
    assert!(s.model_sight(KANEDA, VENK).is_none());
    let legal = s.legal_actions();
    assert!(!legal.iter().any(|a| matches!(a, Action::Shoot { .. } | Action::Charge { .. })), "{legal:?}");
    assert!(legal.contains(&Action::Reveal { target: VENK }));
}

#[test]
fn a_reveal_tests_intelligence_and_removes_the_token_on_a_success() {
    let mut s = ambush();
    common::declare(&mut s, Action::Reveal { target: VENK });
    match s.node() {
        Some(Step::Test { attr, .. }) => assert_eq!(*attr, s.profile(KANEDA).intelligence),
        other => panic!("expected the Intelligence test: {other:?}"),
    }
    let mut failed = s.clone();
    force_test(&mut s, TestLevel::Pass);
    assert!(!s.models()[VENK as usize].tokens.stealth, "6\" is within the Reveal's 8\" pass range");
    force_test(&mut failed, TestLevel::Fail);
    assert!(failed.models()[VENK as usize].tokens.stealth);
    assert!(!s.legal_actions().is_empty());
}

#[test]
fn models_move_through_a_stealthed_enemy() {
    // Venk stands in a 1"-wide corridor between impassable walls; Kaneda runs through him.
    let rows: Vec<String> =
        (0..10).map(|y| if y == 4 { "0X0X0X0X0.0X0X0X0X0X".into() } else { "0.".repeat(10) }).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let s =
        Position::on(common::board(&refs)).model(0, "kaneda", (4, 2)).model(1, "venk", (4, 4)).active(KANEDA);
    let beyond = s.board().idx(4, 7);
    assert!(
        !s.legal_actions().contains(&Action::Move { dest: beyond, prone: false }),
        "blocked while visible"
    );
    let mut d = s.dynamic().clone();
    d.models[VENK as usize].tokens.stealth = true;
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(
        s.legal_actions().contains(&Action::Move { dest: beyond, prone: false }),
        "moved through while stealthed"
    );
}

#[test]
fn a_stealthed_model_is_revealed_by_any_action_but_a_move() {
    let s = Position::on(open_board(10, 14)).model(0, "venk", (4, 1)).model(1, "kaneda", (4, 8)).active(0);
    let mut d = s.dynamic().clone();
    d.models[0].tokens.stealth = true;
    let s = GameState::from_parts(s.static_data().clone(), d);
    let mut moved = s.clone();
    common::declare(&mut moved, Action::Move { dest: s.board().idx(2, 1), prone: false });
    assert!(moved.models()[0].tokens.stealth, "moving keeps stealth");
    let mut shot = s.clone();
    let bow = s.profile(0).weapons.iter().position(|w| w.is_ranged()).unwrap() as u8;
    common::declare(&mut shot, Action::Shoot { weapon: bow, target: 1 });
    force_test(&mut shot, TestLevel::Fail);
    assert!(!shot.models()[0].tokens.stealth, "shooting reveals at the end of the sequence");
}

#[test]
fn reactions_against_a_stealthed_attacker_are_at_minus_two_when_opposed() {
    let s = Position::on(open_board(10, 14)).model(0, "venk", (4, 1)).model(1, "kaneda", (4, 8)).active(0);
    let mut d = s.dynamic().clone();
    d.models[0].tokens.stealth = true;
    let mut s = GameState::from_parts(s.static_data().clone(), d);
    let bow = s.profile(0).weapons.iter().position(|w| w.is_ranged()).unwrap() as u8;
    s.apply_action(Action::Shoot { weapon: bow, target: 1 }).unwrap();
    // Kaneda may react although Venk is stealthed: Venk initiated combat.
    let back = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: CombatKind::Shoot { .. }, .. }))
        .expect("Kaneda may shoot back");
    s.apply_action(back).unwrap();
    common::decline_declarations(&mut s);
    let rolls = &s.dynamic().sequence.as_ref().unwrap().rolls;
    let kaneda = rolls.iter().find(|r| r.model == 1).unwrap();
    assert!(kaneda.opposed);
    let m = s.profile(1).marksmanship;
    let camouflage = s.profile(0).skills.iter().any(|k| k == "Camouflage") as u8; // −1 to shoot Venk (p.14)
    assert_eq!(kaneda.attr, m - camouflage - 2, "−2 to the opposed reaction");
}

#[test]
fn fire_reveals_a_stealthed_model() {
    let s = Position::on(open_board(10, 14)).model(0, "venk", (4, 1)).model(1, "kaneda", (4, 8)).active(0);
    let mut d = s.dynamic().clone();
    d.models[0].tokens.stealth = true;
    d.models[0].pending.fire = 1;
    d.sequence = None;
    d.steps = vec![Step::ChooseActivation, Step::EndSequence].into();
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(!s.models()[0].tokens.stealth);
    assert_eq!(s.models()[0].tokens.fire, 1);
}
