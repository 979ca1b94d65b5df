//! Role abilities through the Interact action (pp.46-47): First Aid and Repair.

mod common;

use common::{open_board, Position};

use common::force_test;
use engine::dice::TestLevel;
use engine::state::{Health, InteractKind, Step};
use engine::{Action, GameState};

const MEDIC: u8 = 0;
const PATIENT: u8 = 1;

/// The Artifacter medic next to a wounded Slethssk, far from Kaneda.
fn clinic(wounds: u8, down: bool) -> GameState {
    let s = Position::on(open_board(12, 12))
        .model(0, "artifacter_medic", (2, 2))
        .model(0, "slethssk", (3, 2))
        .model(1, "kaneda", (10, 11))
        .active(MEDIC);
    let mut d = s.dynamic().clone();
    d.models[PATIENT as usize].wounds = wounds;
    if down {
        d.models[PATIENT as usize].health = Health::Down;
        d.models[PATIENT as usize].ap = 0;
        d.models[PATIENT as usize].stance = engine::state::Stance::Prone;
    }
    GameState::from_parts(s.static_data().clone(), d)
}

fn first_aid(s: &mut GameState, level: TestLevel) {
    common::declare(s, Action::Interact { kind: InteractKind::FirstAid, target: PATIENT });
    force_test(s, level);
}

#[test]
fn first_aid_heals_one_on_a_pass_and_two_on_nailed_it_never_above_starting_wounds() {
    let max = common::profile("slethssk").wounds;
    for (level, start, expected) in [
        (TestLevel::Pass, 2, 3),
        (TestLevel::NailedIt, 2, 4),
        (TestLevel::NailedIt, max - 1, max),
        (TestLevel::Fail, 2, 2),
        (TestLevel::Blunder, 2, 1),
    ] {
        let mut s = clinic(start, false);
        first_aid(&mut s, level);
        assert_eq!(s.models()[PATIENT as usize].wounds, expected, "{level:?} from {start}");
    }
}

#[test]
fn a_down_model_healed_comes_back() {
    let mut s = clinic(0, true);
    assert!(s.legal_actions().contains(&Action::Interact { kind: InteractKind::FirstAid, target: PATIENT }));
    first_aid(&mut s, TestLevel::Pass);
    let p = s.models()[PATIENT as usize];
    assert_eq!((p.health, p.wounds), (Health::Conscious, 1));
}

#[test]
fn first_aid_needs_a_medic_in_base_contact_and_a_wounded_friend() {
    let s = clinic(s_max(), false);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Interact { .. })), "nobody is wounded");
    // Out of base contact.
    let mut s = Position::on(open_board(12, 12))
        .model(0, "artifacter_medic", (2, 2))
        .model(0, "slethssk", (6, 2))
        .model(1, "kaneda", (10, 11))
        .active(MEDIC);
    let mut d = s.dynamic().clone();
    d.models[PATIENT as usize].wounds = 1;
    s = GameState::from_parts(s.static_data().clone(), d);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Interact { .. })));
}

fn s_max() -> u8 {
    common::profile("slethssk").wounds
}

#[test]
fn a_primitive_weapon_can_be_repaired_by_its_owner_and_a_blunder_breaks_it() {
    // p.47 and Primitive (p.53): Nix, no Mech, clears the jam of her Recurve herself.
    let s = Position::on(open_board(12, 12)).model(0, "nix", (2, 2)).model(1, "kaneda", (10, 11)).active(0);
    let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    let mut d = s.dynamic().clone();
    d.models[0].jammed = 1 << recurve;
    let s = GameState::from_parts(s.static_data().clone(), d);
    let repair = Action::Interact { kind: InteractKind::Repair { weapon: recurve }, target: 0 };
    assert!(s.legal_actions().contains(&repair));
    let mut ok = s.clone();
    common::declare(&mut ok, repair);
    force_test(&mut ok, TestLevel::Pass);
    assert!(!ok.models()[0].is_jammed(recurve));
    let mut broken = s;
    common::declare(&mut broken, repair);
    force_test(&mut broken, TestLevel::Blunder);
    assert!(broken.models()[0].is_broken(recurve) && !broken.models()[0].is_jammed(recurve));
    assert!(!broken
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Shoot { weapon, .. } if *weapon == recurve)));
}

#[test]
fn only_a_mech_repairs_other_weapons() {
    let s = Position::on(open_board(12, 12))
        .model(0, "artifacter_tinker", (2, 2))
        .model(0, "artifacter_captain", (3, 2))
        .model(1, "kaneda", (10, 11))
        .active(0);
    let gun = s.profile(1).weapons.iter().position(|w| w.is_ranged()).unwrap() as u8;
    assert!(!s.profile(1).weapons[gun as usize].has(engine::profile::WeaponProperty::Primitive));
    let mut d = s.dynamic().clone();
    d.models[1].jammed = 1 << gun;
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(s
        .legal_actions()
        .contains(&Action::Interact { kind: InteractKind::Repair { weapon: gun }, target: 1 }));
    // The captain (no Mech) cannot repair his own non-Primitive gun.
    let mut d = s.dynamic().clone();
    d.activating = Some(1);
    d.steps = vec![Step::ChooseActivation, Step::ChooseAction(1)].into();
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Interact { .. })));
}

#[test]
fn a_reaction_to_an_interact_action_can_be_answered_with_a_firefight() {
    let s = Position::on(open_board(12, 12))
        .model(0, "artifacter_medic", (2, 2))
        .model(0, "slethssk", (3, 2))
        .model(1, "kaneda", (2, 8))
        .active(MEDIC);
    let mut d = s.dynamic().clone();
    d.models[PATIENT as usize].wounds = 2;
    let mut s = GameState::from_parts(s.static_data().clone(), d);
    s.apply_action(Action::Interact { kind: InteractKind::FirstAid, target: PATIENT }).unwrap();
    let shot = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 2, kind: engine::state::CombatKind::Shoot { .. }, .. }))
        .expect("Kaneda may shoot the medic");
    s.apply_action(shot).unwrap();
    if s.node() == Some(&Step::ChooseReaction) {
        s.apply_action(Action::EndReactions).unwrap();
    }
    assert_eq!(s.node(), Some(&Step::ChooseFirefight));
}

/// Kaneda (The Firm's leader) with Hosk and the Sawbones beside him; a Bondsman far away.
fn command_post() -> GameState {
    Position::on(open_board(12, 12))
        .model(0, "kaneda", (2, 2))
        .model(0, "hosk", (4, 2))
        .model(0, "firm_sawbones", (2, 4))
        .model(1, "venk", (10, 11))
        .active(0)
}

const HOSK: u8 = 1;
const SAWBONES: u8 = 2;

/// Kaneda dodges (any action will do) and declares an order from Hosk to the Sawbones.
fn order(s: &mut GameState) {
    s.apply_action(Action::Dodge).unwrap();
    assert_eq!(s.node(), Some(&Step::ChooseCommand), "the leader is offered command orders");
    s.apply_action(Action::Command { donor: HOSK, recipient: SAWBONES }).unwrap();
    common::decline_declarations(s);
    force_test(s, TestLevel::Fail); // the dodge
}

#[test]
fn a_command_order_moves_ap_and_a_success_allows_another() {
    let mut s = command_post();
    let (hosk, saw) = (s.models()[HOSK as usize].ap, s.models()[SAWBONES as usize].ap);
    order(&mut s);
    assert!(matches!(s.node(), Some(Step::Test { .. })), "the Intelligence test comes at the end");
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(s.models()[HOSK as usize].ap, hosk - 1);
    assert_eq!(s.models()[SAWBONES as usize].ap, (saw + 1).min(s.profile(SAWBONES).ap_max));
    // The chain goes on after a success: Sawbones gives back, and a failure ends the orders.
    assert_eq!(s.node(), Some(&Step::ChooseCommand));
    s.apply_action(Action::Command { donor: SAWBONES, recipient: HOSK }).unwrap();
    force_test(&mut s, TestLevel::Fail);
    assert!(s.models()[0].commanded, "no more orders this turn after a failure");
    assert_ne!(s.node(), Some(&Step::ChooseCommand));
    // Kaneda's next action offers no order.
    s.apply_action(Action::Dodge).unwrap();
    assert_ne!(s.node(), Some(&Step::ChooseCommand));
}

/// p.46: "\"Nailed It\":- Move 1 or 2 AP from the Donor to the Recipient Model." and "Feat:-
/// Counts as a \"Nailed It\" result". The leader's side chooses after the roll; AP over the
/// recipient's maximum are discarded (p.12), so moving one keeps the other on the donor.
#[test]
fn nailed_it_lets_the_leader_move_one_or_two_ap_and_a_blunder_costs_the_donor_one() {
    for (level, n) in [(TestLevel::NailedIt, 1u8), (TestLevel::NailedIt, 2), (TestLevel::Feat, 1)] {
        let mut s = command_post();
        let (hosk, saw) = (s.models()[HOSK as usize].ap, s.models()[SAWBONES as usize].ap);
        assert!(hosk >= 2, "Hosk has two AP to give");
        order(&mut s);
        force_test(&mut s, level);
        assert_eq!(
            s.node(),
            Some(&Step::ChooseCommandAp { donor: HOSK, recipient: SAWBONES }),
            "{level:?}: the leader chooses how many AP move"
        );
        assert_eq!(s.current_player(), engine::Player::Side(0));
        assert_eq!(s.legal_actions(), vec![Action::CommandAp(1), Action::CommandAp(2)]);
        s.apply_action(Action::CommandAp(n)).unwrap();
        let max = s.profile(SAWBONES).ap_max;
        assert_eq!(s.models()[HOSK as usize].ap, hosk - n, "the donor keeps what is not moved");
        assert_eq!(s.models()[SAWBONES as usize].ap, (saw + n).min(max), "AP over the maximum are discarded");
        assert_eq!(s.node(), Some(&Step::ChooseCommand), "a success allows another order");
    }
    // With one AP to give there is nothing to choose.
    let mut one = command_post();
    let mut d = one.dynamic().clone();
    d.models[HOSK as usize].ap = 1;
    one = GameState::from_parts(one.static_data().clone(), d);
    order(&mut one);
    force_test(&mut one, TestLevel::NailedIt);
    assert_eq!(one.models()[HOSK as usize].ap, 0);
    assert_eq!(one.node(), Some(&Step::ChooseCommand));
    let mut b = command_post();
    let hosk = b.models()[HOSK as usize].ap;
    order(&mut b);
    force_test(&mut b, TestLevel::Blunder);
    assert_eq!(b.models()[HOSK as usize].ap, hosk - 1, "the donor discards an AP");
    assert!(b.models()[0].commanded);
}

#[test]
fn a_leader_whose_action_ends_without_orders_may_order_later_in_the_turn() {
    let mut s = command_post();
    s.apply_action(Action::Dodge).unwrap();
    s.apply_action(Action::NoCommand).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Fail);
    assert!(!s.models()[0].commanded);
    s.apply_action(Action::Dodge).unwrap();
    assert_eq!(s.node(), Some(&Step::ChooseCommand));
}

#[test]
fn beasts_never_go_prone_crawl_or_interact() {
    let s = Position::on(open_board(12, 12))
        .model(0, "yuttaraptor", (2, 2))
        .model(0, "artifacter_medic", (3, 2))
        .model(1, "kaneda", (10, 11))
        .active(0);
    let mut d = s.dynamic().clone();
    d.models[0].wounds -= 1;
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Move { prone: true, .. })), "no crawling");
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Interact { .. })));
    // The medic may not give it first aid either.
    let mut d = s.dynamic().clone();
    d.activating = Some(1);
    d.steps = vec![Step::ChooseActivation, Step::ChooseAction(1)].into();
    let s = GameState::from_parts(s.static_data().clone(), d);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Interact { target: 0, .. })));
}
