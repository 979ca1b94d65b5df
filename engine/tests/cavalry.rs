//! Cavalry models (pp.58-61): rider and mount wounded separately, damage allocation, the two
//! separating at 0 wounds, and the cavalry restrictions.

mod common;

use common::{open_board, Position};

use common::{force_test, force_wounds};
use engine::dice::TestLevel;
use engine::state::{Health, Step};
use engine::{Action, GameState};

const KANEDA: u8 = 0;
const CAVALRY: u8 = 1;

/// Kaneda shoots at Cavalry Nix 6" away.
fn target_practice() -> GameState {
    Position::on(open_board(10, 16)).model(0, "kaneda", (4, 1)).model(1, "cavalry_nix", (4, 8)).active(KANEDA)
}

fn shoot(s: &mut GameState, level: TestLevel) {
    let gun = s.profile(KANEDA).weapons.iter().position(|w| w.is_ranged()).unwrap() as u8;
    common::declare(s, Action::Shoot { weapon: gun, target: CAVALRY });
    force_test(s, level);
}

#[test]
fn a_cavalry_model_tracks_rider_and_mount_wounds() {
    let s = target_practice();
    let m = s.models()[CAVALRY as usize];
    assert_eq!(
        (m.wounds, m.mount_wounds),
        (common::profile("nix").wounds, common::profile("yuttaraptor").wounds)
    );
}

#[test]
fn a_pass_hurts_the_mount_and_nailed_it_lets_the_shooter_choose() {
    let mut s = target_practice();
    shoot(&mut s, TestLevel::Pass);
    assert!(matches!(s.node(), Some(Step::Armour { model: CAVALRY, mount: true, .. })));
    let mut n = target_practice();
    shoot(&mut n, TestLevel::NailedIt);
    assert!(matches!(n.node(), Some(Step::ChooseAllocation { model: CAVALRY, chooser: 0, .. })));
    assert_eq!(n.legal_actions(), vec![Action::AllocateRider, Action::AllocateMount]);
    n.apply_action(Action::AllocateRider).unwrap();
    assert!(matches!(n.node(), Some(Step::Armour { model: CAVALRY, mount: false, .. })));
    let rider = n.models()[CAVALRY as usize].wounds;
    force_wounds(&mut n, 1);
    assert_eq!(n.models()[CAVALRY as usize].wounds, rider - 1);
}

#[test]
fn a_rider_brought_down_separates_from_the_mount() {
    // p.61: the rider, down, is placed in base contact; the mount replaces the cavalry model.
    let mut s = target_practice();
    let mut d = s.dynamic().clone();
    d.models[CAVALRY as usize].wounds = 1;
    s = GameState::from_parts(s.static_data().clone(), d);
    shoot(&mut s, TestLevel::NailedIt);
    s.apply_action(Action::AllocateRider).unwrap();
    force_wounds(&mut s, 1);
    assert_eq!(s.models().len(), 3, "the rider joins the table");
    let mount = s.models()[CAVALRY as usize];
    assert_eq!(s.profile(CAVALRY).id, "yuttaraptor");
    assert_eq!(mount.health, Health::Conscious);
    let rider = s.models()[2];
    assert_eq!(s.profile(2).id, "nix");
    assert_eq!(rider.health, Health::Down);
    assert!(s.in_contact(CAVALRY, 2), "placed in base contact");
}

#[test]
fn a_mount_taken_out_leaves_the_rider_in_its_place() {
    let mut s = target_practice();
    let mut d = s.dynamic().clone();
    d.models[CAVALRY as usize].mount_wounds = 1;
    s = GameState::from_parts(s.static_data().clone(), d);
    shoot(&mut s, TestLevel::Pass);
    force_wounds(&mut s, 2); // double the mount's wounds: taken out
    assert_eq!(s.models().len(), 2);
    assert_eq!(s.profile(CAVALRY).id, "nix");
    assert_eq!(s.models()[CAVALRY as usize].health, Health::Conscious);
}

#[test]
fn cavalry_never_crawl_nor_interact() {
    let s =
        Position::on(open_board(10, 16)).model(1, "cavalry_nix", (4, 8)).model(0, "kaneda", (4, 1)).active(0);
    assert!(!s
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Move { prone: true, .. } | Action::Interact { .. })));
}

/// Cavalry Nix active on an open table, Kaneda watching from across it.
fn riding() -> GameState {
    Position::on(open_board(10, 16)).model(0, "cavalry_nix", (4, 2)).model(1, "kaneda", (4, 12)).active(0)
}

#[test]
fn dismounting_moves_at_minus_two_and_the_rider_continues_the_activation() {
    let s = riding();
    let (_, nailed) = s.profile(0).speed;
    let board = s.static_data().board.clone();
    let dest = |d: u8| board.idx(4, 2 + d);
    assert!(s.legal_actions().contains(&Action::Dismount { dest: dest(nailed - 2), at_end: true }));
    assert!(!s.legal_actions().contains(&Action::Dismount { dest: dest(nailed - 1), at_end: true }), "−2/−2");
    let mut s = s;
    let ap = s.models()[0].ap;
    common::declare(&mut s, Action::Dismount { dest: dest(3), at_end: true });
    assert_eq!(s.node(), Some(&Step::ChooseContinuer { rider: 2, mount: 0 }));
    assert_eq!(s.legal_actions(), vec![Action::Activate(0), Action::Activate(2)]);
    let mut mount_goes_on = s.clone();
    s.apply_action(Action::Activate(2)).unwrap();
    assert_eq!(s.models().len(), 3);
    assert_eq!(s.profile(0).id, "yuttaraptor");
    assert_eq!(s.models()[0].cell, dest(3), "the mount reaches the destination");
    assert!(s.models()[0].activated);
    assert_eq!(s.profile(2).id, "nix");
    assert!(s.in_contact(0, 2), "the rider is placed beside the separation point");
    assert_eq!(s.dynamic().activating, Some(2));
    assert_eq!(s.models()[2].ap, ap - 1);
    assert!(matches!(s.node(), Some(Step::ChooseAction(2))));
    // Or the mount carries on, and the rider counts as activated.
    mount_goes_on.apply_action(Action::Activate(0)).unwrap();
    assert_eq!(mount_goes_on.dynamic().activating, Some(0));
    assert!(mount_goes_on.models()[2].activated && !mount_goes_on.models()[0].activated);
    assert!(matches!(mount_goes_on.node(), Some(Step::ChooseAction(0))));
}

#[test]
fn after_the_separation_point_only_the_mount_is_hurt() {
    // p.61 example: Kaneda reacts after the separation point; even Nailed It hurts the mount.
    let mut s = riding();
    s.apply_action(Action::Dismount { dest: s.board().idx(7, 2), at_end: false }).unwrap();
    let late = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: engine::state::CombatKind::Shoot { .. }, point } if *point >= 1))
        .expect("Kaneda shoots along the path");
    s.apply_action(late).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::NailedIt);
    assert!(matches!(s.node(), Some(Step::Armour { model: 0, mount: true, .. })), "{:?}", s.node());
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Firefight { .. })));
}

#[test]
fn a_dismounted_rider_remounts_its_mount_and_the_cavalry_model_carries_on() {
    let mut s = riding();
    let board = s.static_data().board.clone();
    // Cavalry Nix (3 AP after the grant) dismounts in place, then remounts.
    let mut d = s.dynamic().clone();
    d.models[0].ap = 3;
    s = GameState::from_parts(s.static_data().clone(), d);
    common::declare(&mut s, Action::Dismount { dest: board.idx(4, 2), at_end: true });
    s.apply_action(Action::Activate(2)).unwrap();
    assert_eq!(s.dynamic().activating, Some(2), "the rider continues");
    let mut d = s.dynamic().clone();
    d.models[0].wounds -= 1; // the mount was hurt while they were apart
    s = GameState::from_parts(s.static_data().clone(), d);
    let remount =
        *s.legal_actions().iter().find(|a| matches!(a, Action::Remount { .. })).expect("remount offered");
    common::declare(&mut s, remount);
    assert_eq!(s.profile(0).id, "cavalry_nix");
    let cav = s.models()[0];
    assert_eq!(
        (cav.wounds, cav.mount_wounds),
        (common::profile("nix").wounds, common::profile("yuttaraptor").wounds - 1)
    );
    assert_eq!(cav.ap, 1, "the rider's AP carry over: 3 − dismount − remount");
    assert_eq!(s.models()[2].health, Health::Remounted);
    assert!(!s.models()[2].is_on_table());
    assert_eq!(s.outcome().vp, [0, 0, 0], "a remounted rider is no casualty");
    assert!(matches!(s.node(), Some(Step::ChooseAction(0))));
}
