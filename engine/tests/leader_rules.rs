//! Leader Ability Cards as standing special rules (p.74, "Leader Abilities and Leader Ability
//! Cards"; docs/rulings.md 148): the rule covers the crew's other members of the leader's
//! faction, exactly while the leader is conscious, and is never played; the shipped
//! illustrative rules (close combat, marksmanship, camouflage) change the tests they cover.

mod common;

use common::open_board;

use common::{force_test, Position};
use engine::cards::{load_cards, Card, CardKind, LeaderRule};
use engine::dice::TestLevel;
use engine::state::{CombatRoll, Health, InteractKind, RollRole, Stance, Step};
use engine::{Action, GameState};
use std::sync::Arc;

const LEADER: u8 = 0;
const TROOPER: u8 = 1;
const NEUTRAL: u8 = 2;
const MEDIC: u8 = 3;
const ENEMY: u8 = 4;

fn shipped(id: &str) -> Arc<Card> {
    let catalog = load_cards(&engine::data::configs_dir().join("cards")).expect("shipped cards load");
    catalog.get(id).unwrap_or_else(|| panic!("no card {id}")).clone()
}

/// `s` with side 0 holding `card`.
fn with_card(s: &GameState, card: Arc<Card>) -> GameState {
    common::with_static(s, |stat| stat.cards = vec![vec![card], vec![]])
}

/// A Militia crew (its captain, a rifleman, a Neutral sellsword, its surgeon) holding `card`
/// against one enemy, the model `active` choosing its action.
fn crew(card: &str, enemy: &str, active: u8) -> GameState {
    with_card(
        &Position::on(open_board(16, 16))
            .model(0, "militia_captain", (2, 2))
            .model(0, "militia_rifleman", (6, 2))
            .model(0, "wayfarer_sellsword", (8, 2))
            .model(0, "militia_surgeon", (3, 2))
            .model(1, enemy, (6, 10))
            .active(active),
        shipped(card),
    )
}

fn covered(s: &GameState) -> Vec<u8> {
    (0..s.models().len() as u8).filter(|&m| s.leader_rule_covering(m).is_some()).collect()
}

fn leader_down(s: &GameState) -> GameState {
    common::edited(s, |d| {
        let l = &mut d.models[LEADER as usize];
        (l.health, l.wounds, l.ap, l.stance) = (Health::Down, 0, 0, Stance::Prone);
    })
}

/// The roll `action` (a shot or a blow of the active model) declares.
fn main_roll(s: &GameState, action: Action) -> CombatRoll {
    let mut s = s.clone();
    s.apply_action(action).unwrap_or_else(|e| panic!("{e}"));
    let seq = s.dynamic().sequence.as_ref().expect("a sequence");
    *seq.rolls.iter().find(|r| r.role == RollRole::Main).expect("its roll")
}

#[test]
fn a_leader_card_covers_the_other_members_of_its_faction_exactly_while_the_leader_is_conscious() {
    // p.74: "Most of these rules apply to all other members of the Crew which are of the same
    // Faction. In every case, this Special Rule only applies while the leader Model is
    // Conscious."
    let s = crew("militia_leaders_resolve", "hosk", TROOPER);
    assert_eq!(
        covered(&s),
        [TROOPER, MEDIC],
        "the other Militia members; not the leader, the Neutral, the enemy"
    );
    assert_eq!(s.profile(NEUTRAL).faction, "Neutral");
    assert!(covered(&leader_down(&s)).is_empty(), "off while the leader is down");
    let taken_out = common::edited(&s, |d| d.models[LEADER as usize].health = Health::TakenOut);
    assert!(covered(&taken_out).is_empty(), "off once the leader is taken out");
    let trooper_down = common::edited(&s, |d| d.models[TROOPER as usize].health = Health::Down);
    assert_eq!(covered(&trooper_down), [MEDIC], "a down model's rules are off (p.42)");
    let mut all = (*shipped("militia_leaders_resolve")).clone();
    all.covers = engine::cards::Covers::AllMembers;
    assert_eq!(
        covered(&with_card(&s, Arc::new(all))),
        [LEADER, TROOPER, MEDIC],
        "a card may cover its leader too"
    );
}

#[test]
fn the_rule_is_on_again_when_first_aid_brings_the_leader_back() {
    // p.74 as above; p.46: First Aid brings a Down model back to Conscious.
    let mut s = leader_down(&crew("militia_leaders_resolve", "hosk", MEDIC));
    assert!(covered(&s).is_empty());
    common::declare(&mut s, Action::Interact { kind: InteractKind::FirstAid, target: LEADER });
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(s.models()[LEADER as usize].health, Health::Conscious, "the leader is back");
    assert_eq!(covered(&s), [TROOPER, MEDIC], "and so is its rule");
}

#[test]
fn a_marksmanship_rule_adds_to_the_covered_models_shots_only_while_the_leader_is_conscious() {
    let s = crew("militia_leaders_resolve", "hosk", TROOPER);
    let shot =
        *s.legal_actions().iter().find(|a| matches!(a, Action::Shoot { target: ENEMY, .. })).expect("a shot");
    let with = main_roll(&s, shot);
    let without = main_roll(&leader_down(&s), shot);
    assert_eq!(with.attr, without.attr + 1, "+1 Marksmanship from the leader's rule");
    let mut t = s.clone();
    t.apply_action(shot).unwrap();
    let roll =
        *t.dynamic().sequence.as_ref().unwrap().rolls.iter().find(|r| r.role == RollRole::Main).unwrap();
    assert!(t.roll_modifiers(&roll).contains(&("the leader's rule", 1)), "the modifier is named");
}

#[test]
fn a_close_combat_rule_adds_to_the_covered_models_blows() {
    // The Bondsmen's illustrative card: +1 Close Combat to the other Bondsmen members.
    let s = with_card(
        &Position::on(open_board(16, 16))
            .model(0, "bondmaster", (2, 2))
            .model(0, "bondsman_brute", (6, 2))
            .model(1, "hosk", (7, 3))
            .active(1),
        shipped("bondsmen_leaders_resolve"),
    );
    assert_eq!(shipped("bondsmen_leaders_resolve").rule, Some(LeaderRule::CloseCombat));
    let blow = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::CloseCombat { target: 2, .. }))
        .expect("the brute is in base contact with Hosk");
    assert_eq!(main_roll(&s, blow).attr, main_roll(&leader_down(&s), blow).attr + 1);
}

#[test]
fn a_camouflage_rule_makes_the_covered_models_harder_to_shoot() {
    // The Artifacters' illustrative card: the other Artifacters members have Camouflage,
    // "-1 to shoot the model" (p.14).
    let s = with_card(
        &Position::on(open_board(16, 16))
            .model(0, "artifacter_captain", (2, 2))
            .model(0, "slethssk", (6, 2))
            .model(1, "militia_rifleman", (6, 10))
            .active(2),
        shipped("artifacters_leaders_resolve"),
    );
    let shot =
        *s.legal_actions().iter().find(|a| matches!(a, Action::Shoot { target: 1, .. })).expect("a shot");
    assert_eq!(main_roll(&s, shot).attr + 1, main_roll(&leader_down(&s), shot).attr);
}

#[test]
fn a_leader_card_is_never_played() {
    // Effect cards are "one use only events which you can play" (p.74); the leader's card is
    // a standing rule: the start of a turn offers no card to a side holding only it.
    let config = engine::setup::GameConfig {
        crews: ["militia_100_shooters".into(), "the_firm_100".into()],
        ..engine::setup::GameConfig::default()
    };
    let mut s = engine::setup::new_game(&config).unwrap();
    assert!(s.static_data().cards.iter().flatten().all(|c| c.kind == CardKind::LeaderAbility));
    s.apply_action(Action::Chance(0)).unwrap();
    s.apply_action(Action::TakeInitiative).unwrap();
    assert!(!matches!(s.node(), Some(Step::ChooseCard { .. })), "no card is offered: {:?}", s.node());
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::PlayCard { .. })));
}

#[test]
fn the_loader_refuses_a_leader_card_that_would_be_played_and_one_without_a_rule() {
    let dir = std::env::temp_dir().join(format!("tde-leader-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let load = |extra: &str| {
        std::fs::write(
            dir.join("a.toml"),
            format!(
                "[[card]]\nid = \"x\"\nname = \"X\"\nkind = \"leader_ability\"\nfaction = \"Militia\"\n\
                 points = 0\n{extra}"
            ),
        )
        .unwrap();
        load_cards(&dir)
    };
    assert!(load("rule = \"close_combat\"\namount = 1\n").is_ok());
    assert!(load("rule = \"camouflage\"\n").is_ok());
    let field = |extra: &str| load(extra).expect_err(extra).field;
    assert_eq!(field("rule = \"close_combat\"\n"), "card[0].amount", "a bonus needs its size");
    assert_eq!(field("amount = 1\n"), "card[0].rule");
    assert_eq!(field("rule = \"camouflage\"\ntiming = \"start_of_turn\"\n"), "card[0].timing");
    assert_eq!(field("rule = \"camouflage\"\neffect = \"gain_ap\"\n"), "card[0].effect");
    let e = load("rule = \"camouflage\"\nlimit = \"once_per_turn\"\n").expect_err("limit is gone");
    assert!(e.to_string().contains("limit"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
