//! Audit of the cards' conditions of use (issue 38, item 2 (b); docs/rulings.md, "Rules
//! fidelity round 3"): whose card, which model must be conscious, when in the turn, once per
//! game (effect cards, p.74; leader ability cards are standing rules, never played: see
//! `leader_rules.rs`), and the conditions on the Ulaya
//! Chronicles AI's action cards (seed 003: who draws, the elite symbol).

mod common;

use common::uc::{dino_field, idle, roll, run_until};
use engine::cards::{load_cards, Card, CardKind, Timing};
use engine::dice::TestLevel;
use engine::profile::Role;
use engine::setup::{new_game, GameConfig};
use engine::state::{EnemyStep, Health, ModelState, Step};
use engine::uc::AI_SIDE;
use engine::{Action, GameState, Player};
use std::sync::Arc;

fn militia_game() -> GameState {
    let config = GameConfig { crews: ["militia_100".into(), "the_firm_100".into()], ..GameConfig::default() };
    new_game(&config).unwrap()
}

/// The state with side `side`'s cards changed by `edit`.
fn with_cards(s: &GameState, side: usize, edit: impl Fn(&mut Card)) -> GameState {
    common::with_static(s, |stat| {
        for c in stat.cards[side].iter_mut() {
            let mut card = (**c).clone();
            edit(&mut card);
            *c = Arc::new(card);
        }
    })
}

/// The index of side `side`'s card with id `id`.
fn card_index(s: &GameState, side: usize, id: &str) -> u8 {
    s.static_data().cards[side].iter().position(|c| c.id == id).expect("the card") as u8
}

/// Play on idly (first chance outcomes, every card declined) to side `side`'s start-of-turn
/// card choice in turn `turn`, or, when it has no card it may play then (the choice is not
/// asked), to that turn's first activation.
fn to_start_of_turn_cards(s: &mut GameState, side: u8, turn: u8) {
    for _ in 0..20_000 {
        match s.node() {
            Some(Step::ChooseCard { side: sd, timing: Timing::StartOfTurn, .. })
                if *sd == side && s.turn() == turn =>
            {
                return
            }
            Some(Step::ChooseActivation) if s.turn() == turn => return,
            _ => {}
        }
        let action = match s.current_player() {
            Player::Chance => s.chance_outcomes()[0].0,
            Player::Side(_) => idle(s),
            Player::Terminal => panic!("the game ended first"),
        };
        s.apply_action(action).unwrap();
    }
    panic!("never got to turn {turn}'s cards");
}

#[test]
fn the_loader_refuses_an_effect_card_played_more_than_once() {
    // p.74: "Effect Cards are one use only events". A card file has no way to say otherwise:
    // `limit` is no field of a card.
    let dir = std::env::temp_dir().join(format!("tde-audit-cards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let card = |limit: &str| {
        format!(
            "[[card]]\nid = \"x\"\nname = \"X\"\nkind = \"effect\"\nfaction = \"Militia\"\npoints = 3\n\
             timing = \"start_of_turn\"\neffect = \"gain_ap\"\namount = 1\n{limit}"
        )
    };
    std::fs::write(dir.join("a.toml"), card("")).unwrap();
    assert!(load_cards(&dir).is_ok(), "an effect card");
    std::fs::write(dir.join("a.toml"), card("limit = \"once_per_turn\"\n")).unwrap();
    let e = load_cards(&dir).expect_err("an effect card once per turn");
    assert!(e.to_string().contains("limit"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_start_of_turn_card_is_played_only_on_a_conscious_model_of_its_own_side_on_the_board() {
    // p.74: "Effect Cards are one use only events which you can play on any Model on the board
    // at the appropriate time"; p.42: "A Downed Model will not gain an Activation or APs, either
    // during the Initiative phase or through any game effect"; the illustrative card says "one
    // of your models" (ruling 133).
    let s = with_cards(&militia_game(), 0, |c| {
        // Side A's re-roll card becomes a start-of-turn AP card for the test.
        if c.kind == CardKind::Effect {
            (c.timing, c.effect, c.amount) =
                (Some(Timing::StartOfTurn), Some(engine::cards::Effect::GainAp), 1);
        }
    });
    let leader = (0..s.models().len())
        .find(|&m| s.models()[m].side == 0 && s.profile(m as u8).role == Role::Leader)
        .unwrap();
    let others: Vec<usize> =
        (0..s.models().len()).filter(|&m| s.models()[m].side == 0 && m != leader).collect();
    let (down, reserve) = (others[0], others[1]);
    let mut s = common::edited(&s, |d| {
        d.models[down].health = Health::Down;
        d.models[reserve].health = Health::Reserve;
    });
    to_start_of_turn_cards(&mut s, 0, 1);
    let card = card_index(&s, 0, "militia_steady_hands");
    let mut targets: Vec<usize> = s
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::PlayCard { card: c, target } if *c == card => Some(*target as usize),
            _ => None,
        })
        .collect();
    targets.sort();
    let expected: Vec<usize> =
        (0..s.models().len()).filter(|&m| s.models()[m].side == 0 && s.models()[m].is_conscious()).collect();
    assert_eq!(targets, expected);
    assert!(!targets.contains(&down) && !targets.contains(&reserve));
}

/// Every card offered meets the conditions of p.74 (rulings 131, 148): its side's own effect
/// card (a leader ability card is never played), at its timing, not spent, played on the
/// model that just tested (a re-roll) or on a conscious model of the side (an AP).
fn check_card_offers(s: &GameState, offers: &mut [usize; 2]) {
    let Some(Step::ChooseCard { side, timing, test }) = s.node().cloned() else { return };
    if let Some((model, ..)) = test {
        assert_eq!(s.models()[model as usize].side, side, "a re-roll goes to the tester's side");
        assert_ne!(side, AI_SIDE, "no card for an AI model's test");
    }
    for a in s.legal_actions() {
        let Action::PlayCard { card, target } = a else { continue };
        offers[side as usize] += 1;
        let c = &s.static_data().cards[side as usize][card as usize];
        assert_eq!(c.kind, CardKind::Effect, "{}: a leader ability card is never played", c.id);
        assert_eq!(c.timing, Some(timing), "{}: played at its own timing", c.id);
        assert_eq!(s.dynamic().cards_used[side as usize] & (1 << card), 0, "{}: not spent", c.id);
        let t: ModelState = s.models()[target as usize];
        match test {
            Some((model, ..)) => assert_eq!(target, model, "a re-roll of the test just made"),
            None => assert!(t.side == side && t.is_conscious(), "{}: a conscious model of the side", c.id),
        }
    }
}

#[test]
fn every_card_offered_in_random_games_meets_its_conditions_of_use() {
    let mut offers = [0usize; 2];
    for seed in 0..6 {
        // Side B's racket holds the Second Wind (start of turn), side A the Steady Hands.
        let config = GameConfig {
            crews: ["militia_100".into(), "the_firm_150_racket".into()],
            ..GameConfig::default()
        };
        let s = new_game(&config).unwrap();
        common::random_playout(s, seed, 3000, |before, _, _| check_card_offers(before, &mut offers));
    }
    assert!(offers[0] > 0 && offers[1] > 0, "both sides were offered cards: {offers:?}");
}

// ---- The Ulaya Chronicles AI's action cards (seed 003, "Enemy phase") ----

/// Play on to AI model `dino`'s draw in the enemy phase and draw card `card` of its deck.
fn draw(s: &mut GameState, dino: usize, card: u8) {
    run_until(
        s,
        |s| matches!(s.node(), Some(Step::Enemy(EnemyStep::Draw { model })) if *model as usize == dino),
    );
    s.apply_action(Action::Chance(card)).unwrap();
}

/// The inches of the first box move AI model `kind` makes with the hunter deck's Flank
/// (`move +2` for elite models; its first box moves 6").
fn flank_inches(kind: u8) -> u8 {
    let (mut s, _, dino) = dino_field(kind, (12, 2), (12, 14), |_| {});
    assert_eq!(s.profile(dino as u8).id, if kind == 0 { "raptor" } else { "raptor_elite" });
    draw(&mut s, dino, 2);
    run_until(&mut s, |s| s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == dino));
    s.dynamic().uc.move_inches
}

#[test]
fn only_an_elite_dinosaur_resolves_a_cards_elite_move() {
    // Seed 003, "Enemy phase": "If the action card has the elite symbol, also resolve that
    // additional effect if the model you are drawing the card for has the elite symbol on its
    // profile card."
    assert_eq!(flank_inches(0), 6, "a raptor moves the box's 6\"");
    assert_eq!(flank_inches(3), 8, "the raptor alpha adds the card's elite 2\"");
}

#[test]
fn an_elite_dinosaur_adds_its_cards_elite_damage() {
    // Seed 003, "Enemy phase" (as above); the hunter deck's Pounce: elite "damage +1"
    // (configs/uc/decks.toml; configs/uc/README.md: "an optional card elite effect (damage +N,
    // heal N, move +N) applies to elite models only"). The raptor alpha's sickle claw deals 2
    // on a Pass, so 3 with the card's +1 (ruling 134).
    let (mut s, a0, alpha) = dino_field(3, (12, 6), (12, 10), |_| {});
    draw(&mut s, alpha, 0);
    run_until(&mut s, |s| matches!(s.node(), Some(Step::Test { model, .. }) if *model as usize == alpha));
    roll(&mut s, |t| t.level == TestLevel::Pass);
    match s.node() {
        Some(Step::Armour { model, damage, .. }) if *model as usize == a0 => {
            assert_eq!(*damage, 3, "the sickle claw's 2 and the card's elite +1")
        }
        other => panic!("expected the victim's armour roll, got {other:?}"),
    }
}

#[test]
fn an_elite_dinosaur_heals_by_its_cards_elite_effect() {
    // Seed 003, "Enemy phase" (as above); the spitter deck's "Retreat and spit": elite "heal 1"
    // (ruling 134: N wounds back, never above its starting wounds, as the card is resolved).
    let (mut s, _, frilled) = dino_field(4, (12, 2), (12, 14), |m| m.wounds = 2);
    assert_eq!(s.profile(frilled as u8).id, "dilophosaur_elite");
    draw(&mut s, frilled, 3);
    run_until(&mut s, |s| {
        s.dynamic().sequence.is_none()
            && !s.dynamic().steps.iter().any(|st| {
                matches!(st, Step::Enemy(EnemyStep::Box { model, .. } | EnemyStep::Act { model, .. }) if *model as usize == frilled)
            })
    });
    assert_eq!(s.models()[frilled].wounds, 3, "healed 1 by the card");
}
