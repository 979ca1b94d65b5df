//! Weapon properties and tokens (Weapon Properties table, p.53): each test fails if the
//! property is ignored.

mod common;

use common::open_board;

use common::{custom, force_test, force_wounds, Position};
use engine::dice::TestLevel;
use engine::profile::{Profile, Weapon, WeaponProperty};
use engine::state::{Stance, Step};
use engine::{Action, GameState, Player};
use std::sync::Arc;

const SHOOTER: u8 = 0;
const TARGET: u8 = 1;

/// Kaneda armed with a test gun (12/18, 2/3) and a test blade (2/3) with the given properties.
fn armed(gun: &[WeaponProperty], blade: &[WeaponProperty]) -> Arc<Profile> {
    custom("kaneda", |p| {
        p.weapons = vec![
            Weapon {
                name: "Test Gun".into(),
                range: Some((12, 18)),
                damage: (2, 3),
                properties: gun.to_vec(),
            },
            Weapon { name: "Test Blade".into(), range: None, damage: (2, 3), properties: blade.to_vec() },
        ];
    })
}

/// The armed Kaneda facing Hosk `gap` inches away (edge to edge) on an open table.
fn duel(shooter: Arc<Profile>, target: Arc<Profile>, gap: u8) -> GameState {
    Position::on(open_board(8, 24)).with(0, shooter, (3, 1)).with(1, target, (3, 2 + gap)).active(SHOOTER)
}

fn hosk() -> Arc<Profile> {
    common::profile("hosk")
}

fn shoot_and_hit(s: &mut GameState, level: TestLevel) {
    common::declare(s, Action::Shoot { weapon: 0, target: TARGET });
    force_test(s, level);
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

fn attr_of_test(s: &GameState) -> u8 {
    match top(s) {
        Some(Step::Test { attr, .. }) => attr,
        other => panic!("expected a test, got {other:?}"),
    }
}

/// Armour-roll target of the roll on top of the stack.
fn armour_target_on_top(s: &GameState) -> u8 {
    match top(s) {
        Some(Step::Armour { target, .. }) => target,
        other => panic!("expected an armour roll, got {other:?}"),
    }
}

#[test]
fn knockdown_leaves_the_target_prone() {
    for (props, prone) in [(vec![WeaponProperty::Knockdown], true), (vec![], false)] {
        let mut s = duel(armed(&props, &[]), hosk(), 6);
        shoot_and_hit(&mut s, TestLevel::Pass);
        force_wounds(&mut s, 0);
        assert_eq!(s.models()[TARGET as usize].stance == Stance::Prone, prone, "{props:?}");
    }
}

#[test]
fn blind_costs_two_marksmanship_until_the_cleanup() {
    let mut s = duel(armed(&[WeaponProperty::Blind], &[]), common::custom("hosk", |_| {}), 6);
    shoot_and_hit(&mut s, TestLevel::Pass);
    force_wounds(&mut s, 0);
    assert!(s.models()[TARGET as usize].tokens.blind);
    s.apply_action(Action::EndActivation).unwrap();
    // Hosk, blinded, shoots back at M 5 − 2.
    s.apply_action(Action::Activate(TARGET)).unwrap();
    let gun = s.profile(TARGET).weapons.iter().position(|w| w.is_ranged()).unwrap() as u8;
    s.apply_action(Action::Shoot { weapon: gun, target: SHOOTER }).unwrap();
    common::decline_declarations(&mut s);
    let spray = s.profile(TARGET).weapons[gun as usize].has(WeaponProperty::Spray) as u8;
    assert_eq!(attr_of_test(&s), s.profile(TARGET).marksmanship - 2 + spray);
    force_test(&mut s, TestLevel::Fail);
    // The blind token goes at the start of the cleanup.
    while s.turn() == 1 && s.models()[TARGET as usize].tokens.blind {
        let legal = s.legal_actions();
        let a = if legal.contains(&Action::EndActivation) { Action::EndActivation } else { legal[0] };
        s.apply_action(a).unwrap();
    }
    assert!(!s.models()[TARGET as usize].tokens.blind);
    assert!(matches!(top(&s), Some(Step::RollOff)), "removed in turn 1's cleanup: {:?}", top(&s));
}

#[test]
fn stun_removes_ap_after_the_hit() {
    for (stun, expected_loss) in [(2, 2), (0, 0)] {
        let props = if stun > 0 { vec![WeaponProperty::Stun(stun)] } else { vec![] };
        let mut s = duel(armed(&props, &[]), hosk(), 6);
        let ap = s.models()[TARGET as usize].ap;
        shoot_and_hit(&mut s, TestLevel::Pass);
        force_wounds(&mut s, 0);
        assert_eq!(s.models()[TARGET as usize].ap, ap.saturating_sub(expected_loss));
    }
}

#[test]
fn slow_shortens_the_next_move_and_wears_off_after_the_activation() {
    let mut s = duel(armed(&[WeaponProperty::Slow(1, 1)], &[]), hosk(), 6);
    shoot_and_hit(&mut s, TestLevel::Pass);
    force_wounds(&mut s, 0);
    assert_eq!(s.models()[TARGET as usize].tokens.slow, (1, 1));
    s.apply_action(Action::EndActivation).unwrap();
    s.apply_action(Action::Activate(TARGET)).unwrap();
    let (_, nailed) = s.profile(TARGET).speed;
    let here = s.models()[TARGET as usize].cell;
    let (x, y) = s.board().xy(here);
    let reach = |s: &GameState, d: u8| {
        s.legal_actions().contains(&Action::Move { dest: s.board().idx(x, y + d), prone: false })
    };
    assert!(reach(&s, nailed - 1) && !reach(&s, nailed), "slowed by 1\"");
    s.apply_action(Action::EndActivation).unwrap();
    assert_eq!(s.models()[TARGET as usize].tokens.slow, (0, 0), "gone after its next activation");
}

/// Play on until the cleanup's fire roll for `m`.
fn to_fire_roll(s: &mut GameState, m: u8) {
    for _ in 0..20 {
        if top(s) == Some(Step::FireRoll { model: m }) {
            return;
        }
        let legal = s.legal_actions();
        let a = if legal.contains(&Action::EndActivation) { Action::EndActivation } else { legal[0] };
        s.apply_action(a).unwrap();
    }
    panic!("no fire roll: {:?}", top(s));
}

#[test]
fn fire_tokens_burn_in_the_cleanup() {
    let mut s = duel(armed(&[WeaponProperty::Fire(2)], &[]), hosk(), 6);
    shoot_and_hit(&mut s, TestLevel::Pass);
    force_wounds(&mut s, 0);
    assert_eq!(s.models()[TARGET as usize].tokens.fire, 2);
    to_fire_roll(&mut s, TARGET);
    let p = s.profile(TARGET);
    let save = engine::odds::armour_target(p.toughness, p.total_armour(), 0, 0, false) as f64 / 10.0;
    assert_eq!(s.chance_outcomes(), vec![(Action::Chance(0), save), (Action::Chance(1), 1.0 - save)]);
    let wounds = s.models()[TARGET as usize].wounds;
    let mut burnt = s.clone();
    burnt.apply_action(Action::Chance(1)).unwrap();
    assert_eq!(burnt.models()[TARGET as usize].wounds, wounds - 1, "a failed roll costs a wound");
    assert_eq!(burnt.models()[TARGET as usize].tokens.fire, 2);
    s.apply_action(Action::Chance(0)).unwrap();
    assert_eq!(s.models()[TARGET as usize].tokens.fire, 1, "a save puts one token out");
}

#[test]
fn swimming_models_take_no_fire_and_water_puts_fire_out() {
    let rows: Vec<String> = (0..12).map(|y| if y >= 8 { "0~".repeat(8) } else { "0.".repeat(8) }).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s = Position::on(common::board(&refs))
        .with(0, armed(&[WeaponProperty::Fire(1)], &[]), (3, 1))
        .with(1, hosk(), (3, 9))
        .active(SHOOTER);
    shoot_and_hit(&mut s, TestLevel::Pass);
    force_wounds(&mut s, 0);
    assert_eq!(s.models()[TARGET as usize].tokens.fire, 0, "a swimmer cannot be set on fire");
    // A burning model that enters the water loses its fire tokens.
    let mut s = Position::on(common::board(&refs))
        .with(0, armed(&[], &[]), (3, 6))
        .with(1, hosk(), (6, 1))
        .active(SHOOTER);
    let mut d = s.dynamic().clone();
    d.models[SHOOTER as usize].tokens.fire = 2;
    s = GameState::from_parts(s.static_data().clone(), d);
    let water = s.board().idx(3, 8);
    common::declare(&mut s, Action::Move { dest: water, prone: false });
    assert_eq!(s.models()[SHOOTER as usize].stance, Stance::Swimming);
    assert_eq!(s.models()[SHOOTER as usize].tokens.fire, 0);
}

#[test]
fn a_finite_weapon_is_lost_on_a_blunder_instead_of_jamming() {
    for (finite, broken) in [(true, true), (false, false)] {
        let props = if finite { vec![WeaponProperty::Finite] } else { vec![] };
        let mut s = duel(armed(&props, &[]), hosk(), 6);
        shoot_and_hit(&mut s, TestLevel::Blunder);
        let m = s.models()[SHOOTER as usize];
        assert_eq!((m.is_broken(0), m.is_jammed(0)), (broken, !broken));
        assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })));
    }
}

#[test]
fn a_scarce_weapon_is_used_at_most_x_times() {
    let mut s = duel(armed(&[WeaponProperty::Scarce(1)], &[]), hosk(), 6);
    shoot_and_hit(&mut s, TestLevel::Fail);
    assert!(matches!(top(&s), Some(Step::ChooseAction(SHOOTER))));
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })), "used up");
    let mut s = duel(armed(&[], &[]), hosk(), 6);
    shoot_and_hit(&mut s, TestLevel::Fail);
    assert!(s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })));
}

#[test]
fn armour_on_a_carried_item_adds_to_the_armour_roll() {
    let shielded = custom("hosk", |p| {
        p.weapons.push(Weapon {
            name: "Shield".into(),
            range: None,
            damage: (1, 1),
            properties: vec![WeaponProperty::Armour(1)],
        })
    });
    let mut a = duel(armed(&[], &[]), hosk(), 6);
    let mut b = duel(armed(&[], &[]), shielded, 6);
    shoot_and_hit(&mut a, TestLevel::Pass);
    shoot_and_hit(&mut b, TestLevel::Pass);
    assert_eq!(armour_target_on_top(&b), (armour_target_on_top(&a) + 1).min(9));
}

#[test]
fn pierce_and_sunder_lower_the_armour_roll() {
    let armoured = custom("hosk", |p| p.armour = 2);
    let target_with = |props: &[WeaponProperty]| {
        let mut s = duel(armed(props, &[]), armoured.clone(), 6);
        shoot_and_hit(&mut s, TestLevel::Pass);
        armour_target_on_top(&s)
    };
    let plain = target_with(&[]);
    assert_eq!(target_with(&[WeaponProperty::Pierce(2)]), plain - 2);
    assert_eq!(target_with(&[WeaponProperty::Sunder(1)]), plain - 1);
    assert_eq!(target_with(&[WeaponProperty::Sunder(3)]), plain - 2, "sunder removes armour only");
}

#[test]
fn spray_adds_one_marksmanship_at_pass_range_only() {
    for (gap, props, bonus) in
        [(6, vec![WeaponProperty::Spray], 1), (14, vec![WeaponProperty::Spray], 0), (6, vec![], 0)]
    {
        let mut s = duel(armed(&props, &[]), hosk(), gap);
        common::declare(&mut s, Action::Shoot { weapon: 0, target: TARGET });
        assert_eq!(attr_of_test(&s), s.profile(SHOOTER).marksmanship + bonus, "gap {gap} {props:?}");
    }
}

#[test]
fn sneaky_adds_to_unopposed_close_combat_only() {
    let fight = |react: bool| {
        let mut s = Position::on(open_board(6, 6))
            .with(0, armed(&[], &[WeaponProperty::Sneaky(2)]), (2, 2))
            .with(1, hosk(), (2, 3))
            .active(SHOOTER);
        s.apply_action(Action::CloseCombat { weapon: 1, target: TARGET }).unwrap();
        if react {
            let back =
                *s.legal_actions().iter().find(|a| matches!(a, Action::React { model: TARGET, .. })).unwrap();
            s.apply_action(back).unwrap();
        }
        common::decline_declarations(&mut s);
        attr_of_test(&s)
    };
    let cc = common::profile("kaneda").cc;
    assert_eq!(fight(false), cc + 2);
    assert_eq!(fight(true), cc, "opposed: no Sneaky bonus");
}

#[test]
fn a_natural_weapon_blunder_costs_a_wound_not_damage() {
    for (natural, armour_roll) in [(true, false), (false, true)] {
        let props = if natural { vec![WeaponProperty::Natural] } else { vec![] };
        let mut s = Position::on(open_board(6, 6))
            .with(0, armed(&[], &props), (2, 2))
            .with(1, hosk(), (2, 3))
            .active(SHOOTER);
        common::declare(&mut s, Action::CloseCombat { weapon: 1, target: TARGET });
        let wounds = s.models()[SHOOTER as usize].wounds;
        force_test(&mut s, TestLevel::Blunder);
        assert_eq!(matches!(top(&s), Some(Step::Armour { model: SHOOTER, .. })), armour_roll);
        if natural {
            assert_eq!(s.models()[SHOOTER as usize].wounds, wounds - 1);
        }
        assert_ne!(s.current_player(), Player::Terminal);
    }
}

fn is_close_combat_reaction(a: &Action) -> bool {
    matches!(a, Action::React { kind: engine::state::CombatKind::CloseCombat { .. }, .. })
}

fn cc_rolls(s: &GameState) -> Vec<engine::state::CombatRoll> {
    let seq = s.dynamic().sequence.as_ref().expect("sequence");
    seq.rolls
        .iter()
        .filter(|r| matches!(r.kind, engine::state::CombatKind::CloseCombat { .. }))
        .copied()
        .collect()
}

/// p.53 Reach(X): "Target an Enemy Model in LoS up to X\" away [...] The Enemy Model may react
/// as normal, but if they react with a CC Action they will be unable to cause Damage unless
/// they too have Reach or a similar ability."
#[test]
fn a_reach_blow_strikes_from_afar_and_its_target_may_fight_back_harmlessly() {
    for (reach, offered) in [(Some(2), true), (None, false)] {
        let props: Vec<WeaponProperty> = reach.map(WeaponProperty::Reach).into_iter().collect();
        let s = duel(armed(&[], &props), hosk(), 2);
        let cc = Action::CloseCombat { weapon: 1, target: TARGET };
        assert_eq!(s.legal_actions().contains(&cc), offered, "reach {reach:?}");
    }
    // Hosk wins the opposed test from beyond his reach: Kaneda's blow is stopped, and Hosk
    // deals no damage; Kaneda winning hurts Hosk as usual.
    for (kaneda, hosk_level, hosk_hurt) in
        [(TestLevel::Pass, TestLevel::NailedIt, false), (TestLevel::NailedIt, TestLevel::Pass, true)]
    {
        let mut s = duel(armed(&[], &[WeaponProperty::Reach(2)]), hosk(), 2);
        s.apply_action(Action::CloseCombat { weapon: 1, target: TARGET }).unwrap();
        let options = s.legal_actions();
        assert!(options
            .iter()
            .any(|a| matches!(a, Action::React { kind: engine::state::CombatKind::Dodge, .. })));
        let fight_back =
            *options.iter().find(|a| is_close_combat_reaction(a)).expect("the target may fight back");
        s.apply_action(fight_back).unwrap();
        common::decline_declarations(&mut s);
        assert!(cc_rolls(&s).iter().all(|r| r.opposed), "opposed as usual");
        force_test(&mut s, kaneda);
        force_test(&mut s, hosk_level);
        assert!(
            !matches!(top(&s), Some(Step::Armour { model: SHOOTER, .. })),
            "without Reach of his own Hosk cannot cause damage"
        );
        assert_eq!(matches!(top(&s), Some(Step::Armour { model: TARGET, .. })), hosk_hurt);
    }
}

#[test]
fn a_target_with_reach_of_its_own_fights_back_with_damage() {
    let long_hosk = custom("hosk", |p| {
        for w in p.weapons.iter_mut().filter(|w| !w.is_ranged()) {
            w.properties.push(WeaponProperty::Reach(2));
        }
    });
    let mut s = duel(armed(&[], &[WeaponProperty::Reach(2)]), long_hosk, 2);
    s.apply_action(Action::CloseCombat { weapon: 1, target: TARGET }).unwrap();
    let fight_back = *s.legal_actions().iter().find(|a| is_close_combat_reaction(a)).unwrap();
    s.apply_action(fight_back).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Pass);
    force_test(&mut s, TestLevel::NailedIt);
    assert!(matches!(top(&s), Some(Step::Armour { model: SHOOTER, .. })), "Hosk's reach hurts Kaneda");
}

/// p.53 Reach(X): "[...] or in the case of a Charge, from this Model's Destination Point."
#[test]
fn a_reach_charge_strikes_from_its_destination_point() {
    let mut s = duel(armed(&[], &[WeaponProperty::Reach(2)]), hosk(), 8);
    let hosk_cell = s.models()[TARGET as usize].cell;
    let (hx, hy) = s.board().xy(hosk_cell);
    // A destination 2" short of Hosk's base: within Reach, not in base contact.
    let dest = s.board().idx(hx, hy - 3);
    let charge = Action::Charge { target: TARGET, weapon: 1, dest };
    assert!(s.legal_actions().contains(&charge), "a charge ending within Reach is offered");
    s.apply_action(charge).unwrap();
    // Hosk may fight back where the charge ends, though he cannot reach the charger.
    let last = s
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::React { model: TARGET, kind: engine::state::CombatKind::CloseCombat { .. }, point } => {
                Some(*point)
            }
            _ => None,
        })
        .max()
        .expect("Hosk may fight back against the Reach charge");
    s.apply_action(Action::React {
        model: TARGET,
        kind: engine::state::CombatKind::CloseCombat { weapon: 1 },
        point: last,
    })
    .unwrap();
    common::decline_declarations(&mut s);
    // The blow is declared with the charge (ruling 149); the charger moves before the rolls.
    while s.models()[SHOOTER as usize].cell != dest {
        match top(&s) {
            Some(Step::Test { .. }) => force_test(&mut s, TestLevel::Pass),
            other => panic!("the charge never arrived: {other:?}"),
        }
    }
    assert!(!s.models()[SHOOTER as usize].cell.eq(&hosk_cell));
    let rolls = cc_rolls(&s);
    assert!(
        rolls.iter().any(|r| r.model == SHOOTER && r.role == engine::state::RollRole::Main && !r.cancelled),
        "the charger strikes"
    );
    assert!(rolls.iter().any(|r| r.model == TARGET && !r.cancelled), "the fight-back stays");
}

#[test]
fn camouflage_costs_the_shooter_one_marksmanship() {
    let camo = custom("hosk", |p| p.skills.push("Camouflage".into()));
    let mut plain = duel(armed(&[], &[]), hosk(), 6);
    let mut hidden = duel(armed(&[], &[]), camo, 6);
    common::declare(&mut plain, Action::Shoot { weapon: 0, target: TARGET });
    common::declare(&mut hidden, Action::Shoot { weapon: 0, target: TARGET });
    assert_eq!(attr_of_test(&hidden), attr_of_test(&plain) - 1);
}

#[test]
fn a_burning_model_that_swims_across_water_comes_out_without_fire() {
    // p.40: "When Models enter water they will automatically lose any and all Fire Tokens";
    // Fire(X), p.53: "If this Model enters Water all Fire Tokens are immediately removed".
    // The move ends on dry ground beyond a one-inch strip of water.
    let rows: Vec<String> = (0..12).map(|y| if y == 5 { "0~".repeat(8) } else { "0.".repeat(8) }).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s = Position::on(common::board(&refs))
        .with(0, armed(&[], &[]), (3, 3))
        .with(1, hosk(), (7, 11))
        .active(SHOOTER);
    let mut d = s.dynamic().clone();
    d.models[SHOOTER as usize].tokens.fire = 2;
    s = GameState::from_parts(s.static_data().clone(), d);
    let beyond = s.board().idx(3, 7);
    let path = s.declared_path(Action::Move { dest: beyond, prone: false }).expect("a path");
    assert!(path.points.iter().any(|p| p.cell == s.board().idx(3, 5)), "the path crosses the water");
    common::declare(&mut s, Action::Move { dest: beyond, prone: false });
    while let Some(Step::Test { .. }) = top(&s) {
        force_test(&mut s, TestLevel::Pass);
    }
    let mover = s.models()[SHOOTER as usize];
    assert_eq!(mover.cell, beyond);
    assert_eq!(mover.stance, Stance::Standing, "out of the water again");
    assert_eq!(mover.tokens.fire, 0, "the water put the fire out on the way");
}
