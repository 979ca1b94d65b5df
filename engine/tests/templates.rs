//! Template weapons (pp.51-53): placement, hits under the template, never opposed, dodging out,
//! Deviate and scatter, the teardrop, smoke and noxious smoke, stealthed models.

mod common;

use common::open_board;

use common::{custom, force_test, force_wounds, game_with, Position};
use engine::dice::TestLevel;
use engine::profile::{Profile, TemplateKind, Weapon, WeaponProperty};
use engine::state::Step;
use engine::{Action, GameState, Player};
use std::sync::Arc;

/// Kaneda with a single template weapon (8/14, 2/3) with the given properties.
fn bomber(props: Vec<WeaponProperty>) -> Arc<Profile> {
    custom("kaneda", |p| {
        p.weapons = vec![
            Weapon { name: "Test Bomb".into(), range: Some((8, 14)), damage: (2, 3), properties: props },
            Weapon { name: "Fists".into(), range: None, damage: (1, 1), properties: vec![] },
        ];
    })
}

fn small(extra: &[WeaponProperty]) -> Vec<WeaponProperty> {
    let mut v = vec![WeaponProperty::Template(TemplateKind::Small)];
    v.extend_from_slice(extra);
    v
}

/// The bomber at (5,1); Hosk at (5,8) with Venk beside him at (6,8); a friend of the bomber
/// (Slethssk) at (9,8).
fn field(props: Vec<WeaponProperty>) -> GameState {
    Position::on(open_board(12, 16))
        .with(0, bomber(props), (5, 1))
        .model(1, "hosk", (5, 8))
        .model(1, "venk", (6, 8))
        .model(0, "slethssk", (9, 8))
        .active(0)
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

#[test]
fn a_small_template_hits_every_model_under_it_and_is_never_opposed() {
    let mut s = field(small(&[]));
    let at = s.board().idx(5, 8);
    let fire = Action::Template { weapon: 0, at };
    assert!(s.legal_actions().contains(&fire), "{:?}", s.legal_actions());
    assert!(
        !s.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })),
        "a template is placed, not aimed"
    );
    s.apply_action(fire).unwrap();
    // Hosk may react with a dodge; it is not opposed with the template roll.
    let dodge = Action::React { model: 1, kind: engine::state::CombatKind::Dodge, point: 0 };
    assert!(s.legal_actions().contains(&dodge));
    s.apply_action(dodge).unwrap();
    common::decline_declarations(&mut s);
    assert!(s.dynamic().sequence.as_ref().unwrap().rolls.iter().all(|r| !r.opposed));
    force_test(&mut s, TestLevel::NailedIt); // the template lands
    force_test(&mut s, TestLevel::Fail); // Hosk's dodge fails
                                         // Hosk and Venk are both under the 3" template: two armour rolls.
    let mut hit = Vec::new();
    while let Some(Step::Armour { model, damage, .. }) = top(&s) {
        hit.push((model, damage));
        force_wounds(&mut s, 0);
    }
    hit.sort();
    assert_eq!(hit, vec![(1, 3), (2, 3)], "Nailed It at pass range: superior damage to both");
}

#[test]
fn a_dodge_that_leaves_the_template_avoids_it() {
    let mut s = field(small(&[]));
    s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
    s.apply_action(Action::React { model: 1, kind: engine::state::CombatKind::Dodge, point: 0 }).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::NailedIt);
    force_test(&mut s, TestLevel::NailedIt); // Hosk dodges 2"
    assert!(matches!(top(&s), Some(Step::ChooseDodgeMove { model: 1, .. })));
    // Out from under the template: 2" straight back.
    s.apply_action(Action::DodgeMove(s.board().idx(5, 10))).unwrap();
    let mut hit = Vec::new();
    while let Some(Step::Armour { model, .. }) = top(&s) {
        hit.push(model);
        force_wounds(&mut s, 0);
    }
    assert_eq!(hit, vec![2], "only Venk is still under it");
}

#[test]
fn a_damaging_template_may_not_cover_a_friend() {
    let s = field(small(&[]));
    let near_friend = Action::Template { weapon: 0, at: s.board().idx(9, 8) };
    assert!(!s.legal_actions().contains(&near_friend));
}

#[test]
fn deviate_scatters_on_a_pass_and_lands_on_nailed_it() {
    let mut pass = field(small(&[WeaponProperty::Deviate(3)]));
    pass.apply_action(Action::Template { weapon: 0, at: pass.board().idx(5, 8) }).unwrap();
    common::decline_declarations(&mut pass);
    let mut nailed = pass.clone();
    force_test(&mut pass, TestLevel::Pass);
    assert!(matches!(top(&pass), Some(Step::Scatter { distance: Some(3), .. })));
    let outcomes = pass.chance_outcomes();
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12 && outcomes.len() > 1);
    force_test(&mut nailed, TestLevel::NailedIt);
    assert!(!matches!(top(&nailed), Some(Step::Scatter { .. })));
    // Without Deviate a Fail misses altogether.
    let mut miss = field(small(&[]));
    miss.apply_action(Action::Template { weapon: 0, at: miss.board().idx(5, 8) }).unwrap();
    common::decline_declarations(&mut miss);
    force_test(&mut miss, TestLevel::Fail);
    assert!(matches!(top(&miss), Some(Step::ChooseAction(0))), "{:?}", top(&miss));
}

#[test]
fn a_teardrop_needs_no_hit_roll() {
    let places =
        [(0, bomber(vec![WeaponProperty::Template(TemplateKind::Teardrop)])), (1, common::profile("hosk"))];
    let mut s = Position::on(open_board(12, 16))
        .with(0, places[0].1.clone(), (5, 1))
        .with(1, places[1].1.clone(), (5, 5))
        .active(0);
    let at = s.board().idx(5, 5);
    s.apply_action(Action::Template { weapon: 0, at }).unwrap();
    common::decline_declarations(&mut s);
    assert!(matches!(top(&s), Some(Step::Armour { model: 1, damage: 2, .. })), "{:?}", top(&s));
}

#[test]
fn smoke_costs_two_marksmanship_to_shots_through_it_until_the_cleanup() {
    let mut s = field(small(&[WeaponProperty::Smoke]));
    s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::NailedIt);
    assert_eq!(s.dynamic().clouds.len(), 1);
    assert!(engine::state::template::smoke_between(&s, s.board().idx(5, 1), s.board().idx(5, 8)));
    assert!(!engine::state::template::smoke_between(&s, s.board().idx(0, 1), s.board().idx(0, 14)));
}

#[test]
fn spending_an_ap_under_noxious_smoke_costs_a_wound() {
    let mut s = field(small(&[WeaponProperty::Smoke, WeaponProperty::Choke]));
    s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::NailedIt);
    assert!(s.dynamic().clouds[0].noxious);
    while let Some(Step::Armour { .. }) = top(&s) {
        force_wounds(&mut s, 0);
    }
    // Hosk, under the cloud, acts: one wound.
    s.apply_action(Action::EndActivation).unwrap();
    let wounds = s.models()[1].wounds;
    s.apply_action(Action::Activate(1)).unwrap();
    common::declare(&mut s, Action::Dodge);
    force_test(&mut s, TestLevel::Fail);
    assert_eq!(s.models()[1].wounds, wounds - 1);
    assert_ne!(s.current_player(), Player::Terminal);
}

#[test]
fn a_stealthed_model_under_a_template_is_hurt_only_on_the_firers_intelligence_roll() {
    let mut s = field(small(&[]));
    let mut d = s.dynamic().clone();
    d.models[2].tokens.stealth = true; // Venk
    s = GameState::from_parts(s.static_data().clone(), d);
    s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Pass);
    // Hosk's armour roll first (he is not stealthed), then the Intelligence roll for Venk.
    let mut saw_stealth_roll = false;
    for _ in 0..6 {
        match top(&s) {
            Some(Step::Armour { .. }) => force_wounds(&mut s, 0),
            Some(Step::TemplateStealth { model: 2, .. }) => {
                saw_stealth_roll = true;
                let i = s.profile(0).intelligence as f64 / 10.0;
                assert_eq!(s.chance_outcomes()[0].1, i);
                s.apply_action(Action::Chance(0)).unwrap();
            }
            _ => break,
        }
    }
    assert!(saw_stealth_roll);
    assert!(!s.models()[2].tokens.stealth, "damaged, so revealed");
}

/// Kaneda (plain, model 0) runs past the bomber (model 1, a small template), who reacts with
/// the template at one point of the run: the state after the reaction is declared.
fn bomber_reacts_to_a_run() -> GameState {
    template_reaction(bomber(small(&[])), (5, 12), (2, 8))
}

/// Kaneda (plain, model 0, at (2, 2)) moves to `dest`; model 1 (`profile`, at `at`) reacts with
/// its template at the first point it may: the state after the reaction is declared.
fn template_reaction(profile: Arc<Profile>, at: (u8, u8), dest: (u8, u8)) -> GameState {
    let mut s = Position::on(open_board(12, 16)).model(0, "kaneda", (2, 2)).with(1, profile, at).active(0);
    s.apply_action(Action::Move { dest: s.board().idx(dest.0, dest.1), prone: false }).unwrap();
    common::decline_nested(&mut s);
    let react = *s
        .legal_actions()
        .iter()
        .find(|a| {
            matches!(a, Action::React { model: 1, kind: engine::state::CombatKind::Template { .. }, .. })
        })
        .expect("a template reaction");
    s.apply_action(react).unwrap();
    s
}

#[test]
fn a_template_reaction_is_placed_over_the_active_model_where_it_reacts() {
    // Kaneda (plain) runs past the bomber, who reacts with a small template at one point of
    // the run; the template is never opposed and hits Kaneda where he was.
    let mut s = bomber_reacts_to_a_run();
    common::decline_declarations(&mut s);
    assert!(s.dynamic().sequence.as_ref().unwrap().rolls.iter().all(|r| !r.opposed));
    force_test(&mut s, TestLevel::NailedIt);
    assert!(matches!(top(&s), Some(Step::Armour { model: 0, .. })), "{:?}", top(&s));
}

/// Resolve every armour roll on top of the stack with no wounds, returning who rolled.
fn no_wounds(s: &mut GameState) -> Vec<u8> {
    let mut hit = Vec::new();
    while let Some(Step::Armour { model, .. }) = top(s) {
        hit.push(model);
        force_wounds(s, 0);
    }
    hit
}

/// p.51: "In order to use a Template, declare a Shoot Action"; p.30, Shoot: "Feat: The Model
/// will gain 1AP at the end of the Action Sequence".
#[test]
fn a_feat_on_a_template_shot_gains_an_ap_like_any_shot() {
    for (level, refund) in [(TestLevel::Feat, 1), (TestLevel::NailedIt, 0)] {
        let mut s = field(small(&[]));
        let ap = s.models()[0].ap;
        s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
        common::decline_declarations(&mut s);
        force_test(&mut s, level);
        assert_eq!(no_wounds(&mut s).len(), 2);
        assert_eq!(s.models()[0].ap, ap - 1 + refund, "{level:?}");
    }
}

/// p.53: "Scarce(X) This item is hard to come by. Your Model may only use it X times per game."
/// Template uses count, teardrops (which roll nothing) included.
#[test]
fn a_scarce_template_weapon_is_used_up_like_any_other() {
    for kind in [TemplateKind::Small, TemplateKind::Teardrop] {
        let props = vec![WeaponProperty::Template(kind), WeaponProperty::Scarce(1)];
        let places = [(0, bomber(props), (5, 1)), (1, common::profile("hosk"), (5, 6))];
        let mut s = game_with(open_board(12, 16), &places, Some(0));
        assert!(s.models()[0].ap >= 2, "the bomber could fire twice");
        let fire =
            *s.legal_actions().iter().find(|a| matches!(a, Action::Template { .. })).expect("fire once");
        s.apply_action(fire).unwrap();
        common::decline_declarations(&mut s);
        while s.dynamic().sequence.is_some() {
            match top(&s) {
                Some(Step::Test { .. }) => force_test(&mut s, TestLevel::Fail),
                _ => {
                    no_wounds(&mut s);
                }
            }
        }
        assert_eq!(top(&s), Some(Step::ChooseAction(0)), "{kind:?}: the bomber acts again");
        assert!(
            !s.legal_actions().iter().any(|a| matches!(a, Action::Template { .. })),
            "{kind:?}: a Scarce(1) template fires once a game"
        );
    }
}

/// p.51, restriction 3: "The Template must not cover or partially cover Friendly Models." The
/// firer is a friendly model: a large template centred 2" away would cover it.
#[test]
fn a_damaging_template_never_covers_its_own_firer() {
    let large = vec![WeaponProperty::Template(TemplateKind::Large)];
    let near = [(0, bomber(large.clone()), (5, 1)), (1, common::profile("hosk"), (5, 3))];
    let s = game_with(open_board(12, 16), &near, Some(0));
    assert!(!s.legal_actions().contains(&Action::Template { weapon: 0, at: s.board().idx(5, 3) }));
    let s =
        Position::on(open_board(12, 16)).with(0, bomber(large), (5, 1)).model(1, "hosk", (5, 6)).active(0);
    assert!(s.legal_actions().contains(&Action::Template { weapon: 0, at: s.board().idx(5, 6) }));
}

/// p.30, Shoot: "Pass: [...] If the target Model is within the Weapon's \"Pass\" range it Hits
/// using the Weapon's Damage. Otherwise it misses." and "\"Nailed It\": [...] within the
/// Weapon's \"Nailed It\" range you hit using the Weapon's Normal Damage." A template without
/// Deviate follows the shot's table.
#[test]
fn a_template_pass_beyond_pass_range_misses_and_nailed_it_deals_normal_damage() {
    for (level, hit) in [(TestLevel::Pass, None), (TestLevel::NailedIt, Some(2))] {
        let mut s = Position::on(open_board(12, 16))
            .with(0, bomber(small(&[])), (5, 1))
            .model(1, "hosk", (5, 12))
            .active(0);
        s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 12) }).unwrap();
        common::decline_declarations(&mut s);
        force_test(&mut s, level);
        let damage = match top(&s) {
            Some(Step::Armour { model: 1, damage, .. }) => Some(damage),
            _ => None,
        };
        assert_eq!(damage, hit, "{level:?} at 10\" with a 8/14 template");
    }
}

/// p.30, Ranged Combat Modifiers: "Shooting Model Swimming or Climbing -1 Marksmanship" — a
/// modifier of the shooter, not of cover, so small and large templates keep it (p.52).
#[test]
fn a_swimming_firer_throws_a_template_at_minus_one() {
    let mut rows: Vec<String> = (0..16).map(|_| "0.".repeat(12)).collect();
    rows[1] = "0~0~0~0~0~0~0~0~0~0~0~0~".to_string();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let attr = |board: engine::board::Board| {
        let mut s =
            Position::on(board).with(0, bomber(small(&[])), (5, 1)).model(1, "hosk", (5, 8)).active(0);
        s.apply_action(Action::Template { weapon: 0, at: s.board().idx(5, 8) }).unwrap();
        common::decline_declarations(&mut s);
        match top(&s) {
            Some(Step::Test { attr, .. }) => attr,
            other => panic!("a hit roll: {other:?}"),
        }
    };
    assert_eq!(attr(common::board(&refs)), attr(open_board(12, 16)) - 1);
}

/// p.52: "A Weapon which uses the Teardrop Template does not require a roll to hit." — as a
/// reaction too.
#[test]
fn a_teardrop_reaction_needs_no_hit_roll() {
    let teardrop = bomber(vec![WeaponProperty::Template(TemplateKind::Teardrop)]);
    let mut s = template_reaction(teardrop, (4, 7), (2, 6));
    common::decline_declarations(&mut s);
    while let Some(Step::Test { model, .. }) = top(&s) {
        assert_ne!(model, 1, "the teardrop rolls nothing");
        force_test(&mut s, TestLevel::Pass);
    }
    assert!(matches!(top(&s), Some(Step::Armour { model: 0, .. })), "it hits: {:?}", top(&s));
}

/// p.28: a Nested Action "must be a Shoot or Dodge Action", and a template shot is a Shoot
/// Action (p.51): the mover may throw its template from a point of its path.
#[test]
fn a_template_may_be_nested_in_a_move() {
    let mut s = field(small(&[]));
    s.apply_action(Action::Move { dest: s.board().idx(5, 3), prone: false }).unwrap();
    let nested = *s
        .legal_actions()
        .iter()
        .find(|a| {
            matches!(a, Action::Nested { kind: engine::state::CombatKind::Template { .. }, target: 1, .. })
        })
        .expect("a nested template over Hosk");
    s.apply_action(nested).unwrap();
    common::decline_declarations(&mut s);
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert_eq!(seq.templates.len(), 1);
    assert_eq!(seq.templates[0].at, s.models()[1].cell, "centred on its target");
    while let Some(Step::Test { .. }) = top(&s) {
        force_test(&mut s, TestLevel::NailedIt);
    }
    let mut hit = no_wounds(&mut s);
    hit.sort();
    assert_eq!(hit, vec![1, 2], "Hosk and Venk are under it");
}

/// p.36: the active model "may initiate a Firefight by spending an AP and declaring a Combat
/// Action in response" — a template shot too, placed over the reactor (p.51: the firer
/// nominates the target model under it); "Rolls involving Template Weapons may never be
/// Opposed Tests", so the reactor's shot stays unopposed.
#[test]
fn a_firefight_may_answer_a_reaction_with_a_template() {
    let mut s = Position::on(open_board(12, 16))
        .with(0, bomber(small(&[])), (5, 1))
        .model(1, "nix", (5, 9))
        .active(0);
    s.apply_action(Action::Move { dest: s.board().idx(5, 3), prone: false }).unwrap();
    common::decline_nested(&mut s);
    let shot = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: engine::state::CombatKind::Shoot { .. }, .. }))
        .expect("Nix shoots the bomber");
    s.apply_action(shot).unwrap();
    if top(&s) == Some(Step::ChooseReaction) {
        s.apply_action(Action::EndReactions).unwrap();
    }
    let answer = Action::Firefight { kind: engine::state::CombatKind::Template { weapon: 0 }, reactor: 1 };
    assert!(s.legal_actions().contains(&answer), "{:?}", s.legal_actions());
    s.apply_action(answer).unwrap();
    common::decline_declarations(&mut s);
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(seq.rolls.iter().all(|r| !r.opposed), "never opposed");
    assert_eq!(seq.templates[0].at, s.models()[1].cell);
}

/// A template reaction targets the active model (p.51), so the mover may answer it with a
/// firefight like any other reaction (p.36); the two rolls stay unopposed.
#[test]
fn a_template_reaction_can_be_answered_by_a_firefight() {
    let mut s = bomber_reacts_to_a_run();
    if top(&s) == Some(Step::ChooseReaction) {
        s.apply_action(Action::EndReactions).unwrap();
    }
    let dodge = Action::Firefight { kind: engine::state::CombatKind::Dodge, reactor: 1 };
    assert!(s.legal_actions().contains(&dodge), "{:?}", s.legal_actions());
    s.apply_action(dodge).unwrap();
    common::decline_declarations(&mut s);
    assert!(s.dynamic().sequence.as_ref().unwrap().rolls.iter().all(|r| !r.opposed));
}

#[test]
fn a_template_without_damage_still_delivers_its_properties_to_every_model_under_it() {
    // Template(X), p.53: "Any Model whose base is partially or completely under the Template
    // will be hit and subject to the Weapon's Damage and Weapon Properties" (also p.51).
    let harmless = custom("kaneda", |p| {
        p.weapons = vec![Weapon {
            name: "Test Flash".into(),
            range: Some((8, 14)),
            damage: (0, 0),
            properties: small(&[WeaponProperty::Knockdown, WeaponProperty::Blind]),
        }];
    });
    let mut s = Position::on(open_board(12, 16))
        .with(0, harmless, (5, 1))
        .model(1, "hosk", (5, 8))
        .model(1, "venk", (6, 8))
        .active(0);
    let at = s.board().idx(5, 8);
    s.apply_action(Action::Template { weapon: 0, at }).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::NailedIt);
    while s.dynamic().sequence.is_some() && !s.is_terminal() {
        assert!(
            !matches!(top(&s), Some(Step::Armour { .. })),
            "a weapon without damage makes no armour roll"
        );
        let a = s.legal_actions()[0];
        s.apply_action(a).unwrap();
    }
    for m in [1usize, 2] {
        assert_eq!(s.models()[m].stance, engine::state::Stance::Prone, "model {m} knocked down");
        assert!(s.models()[m].tokens.blind, "model {m} blinded");
    }
}
