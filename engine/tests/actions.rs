//! One test per rule of the actions in the engine foundation, using the rulebook's worked
//! examples where it has them. Boards are drawn as rows of two-character cells (height, kind).

mod common;

use common::{force_test, force_wounds, Position};
use engine::dice::TestLevel;
use engine::movement::StepKind;
use engine::state::{Health, Stance, Step};
use engine::{Action, GameState, Player};

fn row(cells: &[&str], width: usize) -> String {
    let mut r: String = cells.concat();
    while r.len() < width * 2 {
        r.push_str("0.");
    }
    r
}

fn flat_rows(width: usize, depth: usize) -> Vec<String> {
    (0..depth).map(|_| row(&[], width)).collect()
}

fn board_of(rows: &[String]) -> engine::board::Board {
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    common::board(&refs)
}

fn top(state: &GameState) -> Step {
    state.node().cloned().expect("not terminal")
}

fn cell(state: &GameState, x: u8, y: u8) -> u16 {
    state.board().idx(x, y)
}

/// The Sneaky(X) bonus of model `m`'s weapon `weapon` (added to an unopposed close combat).
fn sneaky(state: &GameState, m: u8, weapon: u8) -> u8 {
    state.profile(m).weapons[weapon as usize]
        .properties
        .iter()
        .map(|p| if let engine::profile::WeaponProperty::Sneaky(x) = p { *x } else { 0 })
        .sum()
}

/// Nix (M 7, Recurve 12/18 3/4) shoots Kaneda: the four shooting examples of p.31.
fn shooting_example(distance: u8, level: TestLevel) -> Option<u8> {
    // Edge-to-edge distance is centre distance less one base.
    let mut s = Position::on(common::open_board(4, 24))
        .model(0, "nix", (1, 0))
        .model(1, "kaneda", (1, distance + 1))
        .active(0);
    let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
    match top(&s) {
        Step::Test { attr, .. } => assert_eq!(attr, 7, "Nix's TN is 7 in the open"),
        other => panic!("expected the Marksmanship test, got {other:?}"),
    }
    force_test(&mut s, level);
    match top(&s) {
        Step::Armour { model: 1, damage, .. } => Some(damage),
        _ => None,
    }
}

#[test]
fn shooting_example_1_nailed_it_at_pass_range_inflicts_superior_damage() {
    assert_eq!(shooting_example(10, TestLevel::NailedIt), Some(4));
}

#[test]
fn shooting_example_2_nailed_it_at_nailed_range_inflicts_standard_damage() {
    assert_eq!(shooting_example(13, TestLevel::NailedIt), Some(3));
}

#[test]
fn shooting_example_3_pass_at_pass_range_hits_with_standard_damage() {
    assert_eq!(shooting_example(10, TestLevel::Pass), Some(3));
}

#[test]
fn shooting_example_4_pass_at_nailed_range_misses() {
    assert_eq!(shooting_example(13, TestLevel::Pass), None);
}

#[test]
fn out_of_range_targets_cannot_be_shot() {
    let s =
        Position::on(common::open_board(4, 24)).model(0, "nix", (1, 0)).model(1, "kaneda", (1, 20)).active(0);
    // 19" edge to edge is beyond the Recurve's 18".
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })));
}

#[test]
fn a_shooting_blunder_jams_the_weapon() {
    let mut s =
        Position::on(common::open_board(4, 12)).model(0, "nix", (1, 0)).model(1, "kaneda", (1, 8)).active(0);
    let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
    force_test(&mut s, TestLevel::Blunder);
    assert!(s.models()[0].is_jammed(recurve));
    assert!(!s
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Shoot { weapon, .. } if *weapon == recurve)));
}

#[test]
fn hard_cover_costs_one_marksmanship_and_adds_one_armour() {
    // Kaneda stands behind a 1" crate row, Nix at ground level: parts of his template are
    // hidden by hard cover.
    let mut rows = flat_rows(4, 12);
    rows[7] = row(&["0h", "0h", "0h", "0h"], 4);
    let board = board_of(&rows);
    let mut s = Position::on(board).model(0, "nix", (1, 0)).model(1, "kaneda", (1, 8)).active(0);
    let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
    let Step::Test { attr, .. } = top(&s) else { panic!() };
    assert_eq!(attr, 6, "M 7 − 1 for hard cover");
    force_test(&mut s, TestLevel::NailedIt);
    let Step::Armour { target, .. } = top(&s) else { panic!() };
    let t = s.profile(1).toughness + s.profile(1).total_armour();
    assert_eq!(target, t + 1, "hard cover adds 1 to the armour roll");
}

#[test]
fn slethssk_passing_a_climb_at_the_end_of_his_move_only_gets_his_pass_distance() {
    // p.25: Slethssk (4/7) moves 5" and climbs 2". With a Pass he only moves 4".
    let rows: Vec<String> =
        (0..3).map(|_| row(&["0.", "0.", "0.", "0.", "0.", "2.", "2.", "2."], 8)).collect();
    let board = board_of(&rows);
    let mut s = Position::on(board).model(0, "slethssk", (0, 1)).model(1, "kaneda", (7, 2)).active(0);
    let dest = cell(&s, 5, 1);
    assert!(
        s.legal_actions().contains(&Action::Move { dest, prone: false }),
        "7\" of movement reaches the wall top"
    );
    let before = s.clone();
    common::declare(&mut s, Action::Move { dest, prone: false });
    let seq = s.dynamic().sequence.clone().unwrap();
    assert_eq!(seq.path.cost(), 70, "4\" run, then 1\" across and 2\" up the wall");
    assert!(matches!(top(&s), Step::Test { .. }), "the climb needs an Agility test");
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(s.models()[0].cell, cell(&s, 4, 1), "a Pass moves him 4\", to the foot of the wall");
    assert_eq!(s.models()[0].stance, Stance::Standing);
    let mut n = before.clone();
    common::declare(&mut n, Action::Move { dest, prone: false });
    force_test(&mut n, TestLevel::NailedIt);
    assert_eq!((n.models()[0].cell, n.models()[0].z), (dest, 2), "Nailed It reaches the top");
    let mut f = before;
    common::declare(&mut f, Action::Move { dest, prone: false });
    force_test(&mut f, TestLevel::Feat);
    assert_eq!(f.models()[0].ap, f.profile(0).ap_gain, "a Feat returns the AP spent (1 AP back at the end)");
}

#[test]
fn kanedas_multi_obstacle_move_takes_one_test_and_a_fail_stops_at_the_first_obstacle() {
    // p.26: 2" of rubble to leap, then a wall to climb — one test only. (A 1" strip of
    // rubble is a gap of 1" or less, crossed with normal movement, p.28.)
    let rows: Vec<String> =
        (0..3).map(|_| row(&["0.", "0,", "0,", "0.", "2.", "2.", "2.", "2.", "2."], 9)).collect();
    let board = board_of(&rows);
    let mut s = Position::on(board).model(0, "kaneda", (0, 1)).model(1, "nix", (8, 2)).active(0);
    let dest = cell(&s, 4, 1);
    let before = s.clone();
    common::declare(&mut s, Action::Move { dest, prone: false });
    let kinds: Vec<StepKind> =
        s.dynamic().sequence.as_ref().unwrap().path.points.iter().map(|p| p.kind).collect();
    assert!(kinds.contains(&StepKind::Leap) && kinds.contains(&StepKind::Climb), "{kinds:?}");
    force_test(&mut s, TestLevel::Fail);
    assert_eq!(s.models()[0].cell, cell(&s, 0, 1), "stops at the edge of the rubble");
    assert_ne!(s.current_player(), Player::Chance, "no second movement test");
    let mut n = before;
    common::declare(&mut n, Action::Move { dest, prone: false });
    force_test(&mut n, TestLevel::NailedIt);
    assert_eq!(n.models()[0].cell, dest);
    assert_eq!(n.models()[0].z, 2);
}

fn leap_board() -> engine::board::Board {
    // Two 4" roofs with a 4" wide gap of open ground between them.
    let rows: Vec<String> = (0..3)
        .map(|_| row(&["4.", "4.", "4.", "0.", "0.", "0.", "0.", "4.", "4.", "4.", "4."], 11))
        .collect();
    board_of(&rows)
}

#[test]
fn a_leap_across_a_gap_is_dynamic_and_a_pass_that_falls_short_offers_rest_or_fall() {
    // p.27 "Leap 3": Kaneda (4/6) must Nail It to cross; a Pass would leave him in mid-air.
    let s0 = Position::on(leap_board()).model(0, "kaneda", (1, 1)).model(1, "nix", (10, 2)).active(0);
    let dest = cell(&s0, 7, 1);
    let mut s = s0.clone();
    common::declare(&mut s, Action::Move { dest, prone: false });
    let path = s.dynamic().sequence.as_ref().unwrap().path.clone();
    assert_eq!(path.cost(), 60, "1\" to the edge, then a 5\" leap");
    assert!(path.points.iter().any(|p| !p.rest), "mid-air points cannot be rested on");
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(top(&s), Step::ChooseMidAir);
    assert_eq!(s.legal_actions(), vec![Action::RestBack, Action::Fall]);
    let mut back = s.clone();
    back.apply_action(Action::RestBack).unwrap();
    assert_eq!(
        (back.models()[0].cell, back.models()[0].z),
        (cell(&s, 2, 1), 4),
        "back to the edge of the leap"
    );
    let mut fall = s;
    fall.apply_action(Action::Fall).unwrap();
    assert_eq!(fall.models()[0].z, 0);
    match top(&fall) {
        Step::Armour { model: 0, damage, .. } => assert_eq!(damage, 3, "4\" fall: 4 − 1 damage"),
        other => panic!("expected falling damage, got {other:?}"),
    }
    let mut nailed = s0;
    common::declare(&mut nailed, Action::Move { dest, prone: false });
    force_test(&mut nailed, TestLevel::NailedIt);
    assert_eq!(nailed.models()[0].cell, dest);
}

#[test]
fn leaps_may_not_span_more_than_three_inches_of_height() {
    // p.27 "Leap 5": Lissz may not leap down onto a point more than 3" lower.
    let rows: Vec<String> = (0..3).map(|_| row(&["5.", "5.", "0.", "0.", "0.", "1.", "1."], 7)).collect();
    let board = board_of(&rows);
    let s = Position::on(board).model(0, "kaneda", (1, 1)).model(1, "nix", (6, 2)).active(0);
    let occ_path = {
        let mut t = s.clone();
        let dest = cell(&s, 5, 1);
        if t.apply_action(Action::Move { dest, prone: false }).is_ok() {
            Some(t.dynamic().sequence.as_ref().unwrap().path.clone())
        } else {
            None
        }
    };
    if let Some(path) = occ_path {
        let mut prev_z = 5;
        for p in &path.points {
            if p.kind == StepKind::Leap {
                assert!((p.z as i32 - prev_z as i32).abs() <= 3 || !p.rest, "leap from {prev_z} to {}", p.z);
            }
            if p.rest {
                prev_z = p.z;
            }
        }
        assert!(path.points.iter().any(|p| p.kind == StepKind::Climb), "she climbs down instead");
    }
}

#[test]
fn falling_into_water_does_no_damage() {
    // p.42: models falling into water take no falling damage.
    let rows: Vec<String> = (0..3)
        .map(|_| row(&["4.", "4.", "4.", "0~", "0~", "0~", "0~", "4.", "4.", "4.", "4."], 11))
        .collect();
    let board = board_of(&rows);
    let mut s = Position::on(board).model(0, "kaneda", (1, 1)).model(1, "nix", (10, 2)).active(0);
    let dest = cell(&s, 7, 1);
    common::declare(&mut s, Action::Move { dest, prone: false });
    force_test(&mut s, TestLevel::Pass);
    s.apply_action(Action::Fall).unwrap();
    assert_eq!(s.models()[0].stance, Stance::Swimming);
    assert!(!matches!(top(&s), Step::Armour { .. }), "no armour roll");
    assert_eq!(s.models()[0].wounds, s.profile(0).wounds);
}

#[test]
fn a_movement_blunder_lets_the_opponent_choose_the_fall_point_and_costs_a_wound() {
    let mut s = Position::on(leap_board()).model(0, "kaneda", (1, 1)).model(1, "nix", (10, 2)).active(0);
    let dest = cell(&s, 7, 1);
    common::declare(&mut s, Action::Move { dest, prone: false });
    force_test(&mut s, TestLevel::Blunder);
    assert_eq!(s.current_player(), Player::Side(1), "the opponent chooses");
    let choices = s.legal_actions();
    assert!(choices.iter().all(|a| matches!(a, Action::FallPoint(_))));
    // Pick a mid-air point over the gap: a 4" fall.
    let seq = s.dynamic().sequence.clone().unwrap();
    let i = seq.path.points.iter().position(|p| !p.rest).unwrap() as u8;
    s.apply_action(Action::FallPoint(i)).unwrap();
    assert_eq!(s.models()[0].stance, Stance::Prone, "laid prone at the bottom");
    force_wounds(&mut s, 0);
    let w = s.profile(0).wounds;
    assert_eq!(s.models()[0].wounds, w - 1, "the blunder's automatic wound");
}

#[test]
fn swimming_is_restricted_to_pass_speed() {
    let rows: Vec<String> = (0..3).map(|_| row(&["0~"; 12], 12)).collect();
    let board = board_of(&rows);
    let s = Position::on(board).model(0, "kaneda", (0, 1)).model(1, "nix", (11, 2)).active(0);
    let (pass, nailed) = s.profile(0).speed;
    let reach = |x: u8| s.legal_actions().contains(&Action::Move { dest: cell(&s, x, 1), prone: false });
    assert!(reach(pass));
    assert!(!reach(pass + 1), "pass {pass}, nailed {nailed}");
}

#[test]
fn going_prone_costs_an_inch_and_crawling_is_restricted() {
    // p.25: a model with a 4" pass move can go prone and crawl 3".
    let s =
        Position::on(common::open_board(12, 3)).model(0, "kaneda", (0, 1)).model(1, "nix", (11, 2)).active(0);
    let (pass, nailed) = s.profile(0).speed;
    let crawl = |x: u8| s.legal_actions().contains(&Action::Move { dest: cell(&s, x, 1), prone: true });
    let run = |x: u8| s.legal_actions().contains(&Action::Move { dest: cell(&s, x, 1), prone: false });
    assert!(crawl(pass - 1) && !crawl(pass));
    assert!(run(nailed) && !run(nailed + 1), "normal movement goes up to Nailed It speed with no test");
}

#[test]
fn enemies_block_movement_and_friends_do_not() {
    let mut rows = flat_rows(5, 5);
    rows[1] = row(&["0.", "0.", "X.", "0.", "0."], 5);
    rows[1] = rows[1].replace("X.", "0X");
    let board = board_of(&rows);
    let s = Position::on(board)
        .model(0, "kaneda", (0, 0))
        .model(0, "hosk", (1, 0))
        .model(1, "nix", (4, 4))
        .active(0);
    let dest_behind_friend = cell(&s, 3, 0);
    assert!(s.legal_actions().contains(&Action::Move { dest: dest_behind_friend, prone: false }));
    assert!(
        !s.legal_actions().contains(&Action::Move { dest: cell(&s, 1, 0), prone: false }),
        "cannot end on a friend"
    );
}

#[test]
fn models_in_base_contact_with_an_enemy_may_only_fight_or_dodge() {
    let s =
        Position::on(common::open_board(6, 6)).model(0, "kaneda", (2, 2)).model(1, "nix", (3, 3)).active(0);
    for a in s.legal_actions() {
        assert!(matches!(a, Action::CloseCombat { .. } | Action::Dodge | Action::EndActivation), "{a:?}");
    }
    assert!(s.legal_actions().iter().any(|a| matches!(a, Action::CloseCombat { target: 1, .. })));
}

#[test]
fn a_charge_gets_plus_one_close_combat_and_strikes_only_on_reaching_the_target() {
    let mut s =
        Position::on(common::open_board(8, 8)).model(0, "kaneda", (0, 0)).model(1, "nix", (4, 0)).active(0);
    let charge = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Charge { target: 1, .. }))
        .expect("charge offered");
    common::declare(&mut s, charge);
    match top(&s) {
        Step::Test { attr, .. } => {
            let Action::Charge { weapon, .. } = charge else { unreachable!() };
            assert_eq!(
                attr,
                s.profile(0).cc + 1 + sneaky(&s, 0, weapon),
                "charge bonus (and Sneaky, unopposed)"
            )
        }
        other => panic!("expected the close combat test, got {other:?}"),
    }
    force_test(&mut s, TestLevel::NailedIt);
    let Action::Charge { weapon, .. } = charge else { unreachable!() };
    let damage = s.profile(0).weapons[weapon as usize].damage.1;
    assert!(matches!(top(&s), Step::Armour { model: 1, damage: d, .. } if d == damage));
}

#[test]
fn wounds_apply_at_the_end_of_the_sequence_and_double_wounds_take_a_model_out() {
    // p.42: a model receiving wounds equal to or more than double its current wounds in one
    // action sequence is taken out; at 0 wounds it is down.
    let board = board_of(&flat_rows(4, 12));
    let base = Position::on(board).model(0, "nix", (1, 0)).model(1, "kaneda", (1, 8)).active(0);
    let recurve = base.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    let shoot = |wounds_left: u8, wounds_dealt: u8| {
        let mut s = base.clone();
        let mut d = s.dynamic().clone();
        d.models[1].wounds = wounds_left;
        s = GameState::from_parts(s.static_data().clone(), d);
        common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
        force_test(&mut s, TestLevel::NailedIt);
        force_wounds(&mut s, wounds_dealt);
        s.models()[1]
    };
    let k = shoot(2, 1);
    assert_eq!((k.health, k.wounds), (Health::Conscious, 1));
    let k = shoot(2, 2);
    assert_eq!((k.health, k.stance, k.ap), (Health::Down, Stance::Prone, 0));
    let k = shoot(2, 4);
    assert_eq!(k.health, Health::TakenOut);
    let k = shoot(1, 2);
    assert_eq!(k.health, Health::TakenOut);
}

#[test]
fn any_damage_to_a_down_model_takes_it_out_without_an_armour_roll() {
    let mut s =
        Position::on(common::open_board(4, 12)).model(0, "nix", (1, 0)).model(1, "kaneda", (1, 8)).active(0);
    let mut d = s.dynamic().clone();
    d.models[1].wounds = 0;
    d.models[1].health = Health::Down;
    d.models[1].stance = Stance::Prone;
    d.models[1].ap = 0;
    s = GameState::from_parts(s.static_data().clone(), d);
    let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
    common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(s.models()[1].health, Health::TakenOut);
}

#[test]
fn a_dodge_pass_allows_one_inch_and_nailed_it_two() {
    let board = board_of(&flat_rows(9, 9));
    let base = Position::on(board).model(0, "kaneda", (4, 4)).model(1, "nix", (8, 8)).active(0);
    let count = |level| {
        let mut s = base.clone();
        common::declare(&mut s, Action::Dodge);
        force_test(&mut s, level);
        s.legal_actions().len()
    };
    assert_eq!(count(TestLevel::Pass), 5, "stay, or 1\" orthogonally");
    assert_eq!(count(TestLevel::NailedIt), 13, "stay, the 8 neighbours and 2\" orthogonally");
}

#[test]
fn illegal_actions_are_rejected_and_leave_the_state_unchanged() {
    let mut s =
        Position::on(common::open_board(6, 6)).model(0, "kaneda", (0, 0)).model(1, "nix", (5, 5)).active(0);
    let before = s.clone();
    let err = s.apply_action(Action::Move { dest: cell(&s, 5, 5), prone: false }).unwrap_err();
    assert!(err.to_string().contains("illegal"));
    assert_eq!(s, before);
    assert!(s.apply_action(Action::Chance(0)).is_err());
    assert!(s.apply_action(Action::Activate(1)).is_err());
    assert_eq!(s, before);
}

#[test]
fn a_friendly_model_in_the_way_blocks_the_shot() {
    // p.65: you may not shoot through your own models.
    let s = Position::on(common::open_board(3, 12))
        .model(0, "nix", (1, 0))
        .model(0, "slethssk", (1, 4))
        .model(1, "kaneda", (1, 9))
        .active(0);
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { target: 2, .. })));
}

#[test]
fn an_enemy_in_the_way_forces_the_nearest_target() {
    // p.65: a target partly obscured by enemy models may not be chosen over the nearest.
    let s = Position::on(common::open_board(3, 12))
        .model(0, "nix", (1, 0))
        .model(1, "hosk", (1, 4))
        .model(1, "kaneda", (1, 9))
        .active(0);
    let targets: Vec<u8> = s
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::Shoot { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert!(targets.contains(&1) && !targets.contains(&2), "{targets:?}");
}

#[test]
fn a_nailed_dodge_may_make_one_inch_of_dynamic_movement() {
    // p.32: Nailed It allows 2" of normal movement or 1" of dynamic movement without a test.
    let mut rows = flat_rows(9, 9);
    rows[4] = row(&["0.", "0.", "0.", "0.", "0.", "0,"], 9);
    let board = board_of(&rows);
    let base = Position::on(board).model(0, "kaneda", (4, 4)).model(1, "nix", (8, 8)).active(0);
    let rough = cell(&base, 5, 4);
    let options = |level| {
        let mut s = base.clone();
        common::declare(&mut s, Action::Dodge);
        force_test(&mut s, level);
        s.legal_actions()
    };
    assert!(
        !options(TestLevel::Pass).contains(&Action::DodgeMove(rough)),
        "a Pass dodge move is normal movement only"
    );
    assert!(options(TestLevel::NailedIt).contains(&Action::DodgeMove(rough)));
}

#[test]
fn close_combat_ignores_cover_that_would_cover_a_shot() {
    // p.30: cover modifies shooting; a close combat attack is made in base contact and hard
    // cover's +1 applies to the armour roll against shots only (ruling 28). Nix stands on a
    // crate's cell, which covers her from Kaneda's corner; he strikes her across the diagonal.
    let mut s = Position::on(common::board(&["0.0.0.", "0.0h0.", "0.0.0."]))
        .model(0, "kaneda", (0, 0))
        .model(1, "nix", (1, 1))
        .active(0);
    let sight = s.model_sight(0, 1).expect("Kaneda sees Nix");
    assert!(sight.sight.hard_cover, "the crate in Nix's cell covers her from Kaneda's view");
    let strike = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::CloseCombat { target: 1, .. }))
        .expect("close combat offered in base contact");
    let Action::CloseCombat { weapon, .. } = strike else { unreachable!() };
    let sneaky = sneaky(&s, 0, weapon);
    common::declare(&mut s, strike);
    let Step::Test { attr, .. } = top(&s) else {
        panic!("expected the close combat test, got {:?}", top(&s))
    };
    assert_eq!(
        attr,
        s.profile(0).cc + sneaky,
        "no cover modifier on Close Combat (Sneaky: the roll is unopposed)"
    );
    force_test(&mut s, TestLevel::NailedIt);
    let Step::Armour { target, .. } = top(&s) else { panic!("expected the armour roll, got {:?}", top(&s)) };
    let t = s.profile(1).toughness + s.profile(1).total_armour();
    assert_eq!(target, t, "no +1 for hard cover on a close combat's armour roll");
}

#[test]
fn a_swimming_target_always_has_soft_cover() {
    // p.40, "Model Stance: Swimming": the water covers a swimming model (ruling 23). Nix shoots
    // Kaneda across open ground: in the open he has no cover, swimming he has soft cover, at
    // any distance and with nothing between them.
    for (kanedas_cell, soft) in [("0.", false), ("0~", true)] {
        let rows = [row(&["0.", "0.", "0.", "0.", "0.", "0.", kanedas_cell], 7)];
        let mut s =
            Position::on(board_of(&rows)).model(0, "nix", (0, 0)).model(1, "kaneda", (6, 0)).active(0);
        let sight = s.model_sight(0, 1).expect("Nix sees Kaneda").sight;
        assert_eq!((sight.soft_cover, sight.hard_cover), (soft, false), "Kaneda on {kanedas_cell}");
        let recurve = s.profile(0).weapons.iter().position(|w| w.name == "Recurve").unwrap() as u8;
        common::declare(&mut s, Action::Shoot { weapon: recurve, target: 1 });
        let Step::Test { attr, .. } = top(&s) else {
            panic!("expected the shooting test, got {:?}", top(&s))
        };
        let expected = s.profile(0).marksmanship - u8::from(soft);
        assert_eq!(
            attr, expected,
            "soft cover costs the shooter one Marksmanship (p.30), Kaneda on {kanedas_cell}"
        );
    }
}
