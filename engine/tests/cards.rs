//! Leader ability and effect cards (p.74): loading, crew checks, and the effect cards' two
//! timing hooks — a start-of-turn AP and a re-roll right after a test. The leader ability
//! cards' standing rules are in `leader_rules.rs`.

mod common;

use engine::cards::{load_cards, CardKind, Effect, LeaderRule, Timing};
use engine::crew::{check_crew_cards, CrewList};
use engine::dice::TestLevel;
use engine::setup::{new_game, GameConfig};
use engine::state::Step;
use engine::{Action, GameState, Player};

fn catalog() -> engine::cards::CardCatalog {
    load_cards(&engine::data::configs_dir().join("cards")).expect("shipped cards load")
}

#[test]
fn the_shipped_cards_load_and_cover_both_timings() {
    let c = catalog();
    assert!(c
        .cards()
        .iter()
        .any(|k| k.timing == Some(Timing::StartOfTurn) && k.effect == Some(Effect::GainAp)));
    assert!(c
        .cards()
        .iter()
        .any(|k| k.timing == Some(Timing::AfterTest) && k.effect == Some(Effect::Reroll)));
    assert!(c.cards().iter().any(|k| k.kind == CardKind::LeaderAbility && k.rule.is_some()));
    for rule in [LeaderRule::CloseCombat, LeaderRule::Marksmanship, LeaderRule::Camouflage] {
        assert!(c.cards().iter().any(|k| k.rule == Some(rule)), "a shipped leader card with {rule:?}");
    }
}

fn crew(cards: &[&str]) -> CrewList {
    CrewList {
        name: "test".into(),
        faction: "Militia".into(),
        points: 100,
        models: vec![],
        cards: cards.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn crew_cards_follow_the_force_organisation_rules() {
    let c = catalog();
    assert!(check_crew_cards("crew.toml", &crew(&["militia_leaders_resolve", "militia_steady_hands"]), &c)
        .is_ok());
    let err = |cards: &[&str]| check_crew_cards("crew.toml", &crew(cards), &c).unwrap_err().to_string();
    assert!(err(&["nope"]).contains("no card"));
    assert!(err(&["militia_steady_hands", "militia_steady_hands"]).contains("twice"));
    assert!(err(&["artifacters_leaders_resolve"]).contains("faction"));
    assert!(err(&["militia_steady_hands", "militia_second_wind", "artifacters_steady_hands"])
        .contains("at most 10"));
}

fn militia_game() -> GameState {
    let config = GameConfig { crews: ["militia_100".into(), "the_firm_100".into()], ..GameConfig::default() };
    new_game(&config).unwrap()
}

/// The militia game with side A holding the Second Wind card (start of turn, 1 AP) alone.
fn second_wind_game() -> GameState {
    let s = militia_game();
    let card = catalog().get("militia_second_wind").expect("shipped").clone();
    common::with_static(&s, |stat| stat.cards[0] = vec![card])
}

#[test]
fn a_start_of_turn_card_gives_a_model_ap_once_per_game() {
    let mut s = second_wind_game();
    s.apply_action(Action::Chance(0)).unwrap(); // side A rolled lowest
    s.apply_action(Action::TakeInitiative).unwrap();
    // Side B (without the initiative) is asked first, then side A.
    let mut played = false;
    while let Some(Step::ChooseCard { side, .. }) = s.node().cloned() {
        let play = s.legal_actions().into_iter().find(|a| matches!(a, Action::PlayCard { .. }));
        match (side, play) {
            (0, Some(Action::PlayCard { card, target })) => {
                let before = s.models()[target as usize].ap;
                s.apply_action(Action::PlayCard { card, target }).unwrap();
                let max = s.profile(target).ap_max;
                assert_eq!(s.models()[target as usize].ap, (before + 1).min(max));
                played = true;
            }
            _ => s.apply_action(Action::NoCard).unwrap(),
        }
    }
    assert!(played);
    assert_eq!(s.dynamic().cards_used[0], 1, "the card is spent");
}

#[test]
fn a_reroll_card_repeats_a_failed_test_but_never_a_reroll() {
    let mut s = militia_game();
    // Play to the first test of a side-A model, declining every card on the way.
    for _ in 0..10_000 {
        match s.node().cloned() {
            Some(Step::ChooseCard { side: 0, test: Some(_), .. }) => break,
            Some(Step::ChooseCard { .. }) => s.apply_action(Action::NoCard).unwrap(),
            Some(Step::Test { model, .. }) if s.models()[model as usize].side == 0 => {
                common::force_test(&mut s, TestLevel::Fail);
            }
            _ => {
                let a = match s.current_player() {
                    Player::Chance => Action::Chance(0),
                    _ => {
                        let legal = s.legal_actions();
                        *legal.iter().find(|a| matches!(a, Action::Dodge)).unwrap_or(&legal[0])
                    }
                };
                s.apply_action(a).unwrap();
            }
        }
    }
    let Some(Step::ChooseCard { test: Some((model, ..)), .. }) = s.node().cloned() else {
        panic!("no re-roll offered: {:?}", s.node())
    };
    let reroll = *s.legal_actions().iter().find(|a| matches!(a, Action::PlayCard { .. })).unwrap();
    s.apply_action(reroll).unwrap();
    match s.node() {
        Some(Step::Test { model: m, rerolled: true, .. }) => assert_eq!(*m, model),
        other => panic!("expected the re-roll: {other:?}"),
    }
    common::force_test(&mut s, TestLevel::Fail);
    assert!(
        !matches!(s.node(), Some(Step::ChooseCard { test: Some(_), .. })),
        "a re-roll is never re-rolled"
    );
}
