//! The solo mode (issue 13): side A's crew alone against the card AI's dinosaurs, with no second
//! crew and no second player. The absent side's choices (its zones and markers, who places
//! the dinosaurs, the AI's choices left to "the opposing player") are chance nodes with every
//! option alike; its crew's nominations are passed over; the game is scored by VP + dinosaurs
//! taken out − models lost (docs/rulings.md).

use engine::record::SavedGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::{Side, SoloScore, Step, ABSENT_SIDE};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn solo_config(scenario: Scenario, dinos: u8) -> GameConfig {
    GameConfig { scenario, dinos, solo: true, ..GameConfig::default() }
}

/// Play a seeded random game to its end, checking at every node that side B never decides
/// and that the invariants hold; the final state and the chance nodes that were side B's.
fn random_solo_game(config: &GameConfig, seed: u64) -> (GameState, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = new_game(config).expect("a solo game");
    let mut absent_choices = 0;
    for _ in 0..100_000 {
        assert!(engine::invariants::violations(&s).is_empty(), "{:?}", engine::invariants::violations(&s));
        let action = match s.current_player() {
            Player::Terminal => return (s, absent_choices),
            Player::Side(side) => {
                assert_eq!(side, 0, "only side A decides: {}", s.describe_node());
                let legal = s.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
            Player::Chance => {
                let outcomes = s.chance_outcomes();
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!((total - 1.0).abs() < 1e-9, "odds sum to 1 at {}", s.describe_node());
                if is_side_b_choice(&s) {
                    absent_choices += 1;
                    let p = outcomes[0].1;
                    assert!(outcomes.iter().all(|o| (o.1 - p).abs() < 1e-12), "side B's options alike");
                }
                s.sample_chance(&mut rng).unwrap()
            }
        };
        let mut copy = s.clone();
        s.apply_action(action).unwrap();
        copy.apply_action(action).unwrap();
        assert_eq!(copy, s, "clone then apply");
    }
    panic!("the game did not end");
}

/// Whether the step on top is one whose chooser is side B in a two-player game.
fn is_side_b_choice(s: &GameState) -> bool {
    use engine::scenario::ScenarioStep as S;
    match s.node() {
        Some(Step::Scenario(S::ChooseZone { side, .. } | S::PlaceMarker { side, .. })) => {
            *side == ABSENT_SIDE
        }
        Some(Step::Scenario(S::ChooseRoles)) => s.dynamic().initiative == ABSENT_SIDE,
        Some(Step::ChooseInitiative(side)) => *side == ABSENT_SIDE,
        Some(Step::Enemy(e)) => e.chooser() == Some(ABSENT_SIDE),
        _ => false,
    }
}

#[test]
fn random_solo_games_in_every_scenario_never_ask_side_b_and_keep_the_invariants() {
    let mut absent = 0;
    for (i, scenario) in [Scenario::Skirmish].into_iter().chain(Scenario::ALL).enumerate() {
        for seed in 0..6u64 {
            let config =
                GameConfig { ambush: (seed % 3) as u8, ..solo_config(scenario, 1 + (seed % 3) as u8) };
            let (end, n) = random_solo_game(&config, seed * 10 + i as u64);
            absent += n;
            assert!(end.is_terminal());
            assert!(end.models().iter().all(|m| m.side != 1), "side B has no models");
            let score = end.solo_score().expect("a solo score");
            assert_eq!(end.returns()[0], score.to_return());
            assert_eq!(end.dynamic().pass_tokens, [0; engine::state::MAX_SIDES]);
        }
    }
    assert!(absent > 0, "side B's choices were made at random");
}

#[test]
fn the_solo_score_is_vp_plus_dinosaurs_taken_out_less_models_lost() {
    let s = SoloScore { vp: 4, dinosaurs_taken_out: 2, models_lost: 3 };
    assert_eq!(s.total(), 3);
    assert!((s.to_return() - 0.3).abs() < 1e-12);
    assert_eq!(SoloScore { vp: 30, dinosaurs_taken_out: 0, models_lost: 0 }.to_return(), 1.0);
    assert_eq!(SoloScore { vp: 0, dinosaurs_taken_out: 0, models_lost: 12 }.to_return(), -1.0);
    // The game's own figures: a fresh solo skirmish has lost nothing and scored nothing.
    let s = new_game(&solo_config(Scenario::Skirmish, 2)).unwrap();
    assert!(s.is_solo());
    assert_eq!(s.playing_sides(), 0..1);
    assert_eq!(s.solo_score(), Some(SoloScore { vp: 0, dinosaurs_taken_out: 0, models_lost: 0 }));
    // Two-player games have no solo score.
    assert_eq!(new_game(&GameConfig { dinos: 2, ..GameConfig::default() }).unwrap().solo_score(), None);
}

#[test]
fn the_dinosaurs_are_placed_at_random_and_the_skirmish_goes_on_without_side_b() {
    let mut s = new_game(&solo_config(Scenario::Skirmish, 2)).unwrap();
    // Who places each dinosaur is a chance node over the cells when it would be side B.
    let mut placed_by_chance = 0;
    while !matches!(s.node(), Some(Step::ChooseActivation | Step::ChooseAction(_))) {
        if is_side_b_choice(&s) {
            placed_by_chance += 1;
            assert_eq!(s.current_player(), Player::Chance);
            assert!(s.chance_outcomes().len() > 1);
        }
        let a = match s.current_player() {
            Player::Chance => s.chance_outcomes()[0].0,
            _ => s.legal_actions()[0],
        };
        s.apply_action(a).unwrap();
    }
    assert_eq!(placed_by_chance, 1, "side A places the first dinosaur, chance the second");
    assert!(!s.is_terminal(), "no crew B does not end the skirmish");
    assert_eq!(s.current_player(), Player::Side(0));
}

#[test]
fn a_solo_grudge_is_against_a_dinosaur() {
    let mut s = new_game(&solo_config(Scenario::GrudgeMatch, 2)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    loop {
        if let Some(Step::Scenario(engine::scenario::ScenarioStep::ChooseGrudge(side))) = s.node() {
            assert_eq!(*side, 0, "side B has no grudge to choose");
            let legal = s.legal_actions();
            assert!(!legal.is_empty());
            for a in legal {
                let Action::Grudge { holder, target } = a else { panic!("{a:?}") };
                assert_eq!(s.models()[holder as usize].side, 0);
                assert_eq!(s.models()[target as usize].side, engine::uc::AI_SIDE);
            }
            return;
        }
        let a = match s.current_player() {
            Player::Chance => s.sample_chance(&mut rng).unwrap(),
            Player::Side(_) => s.legal_actions()[0],
            Player::Terminal => panic!("no grudge was chosen"),
        };
        s.apply_action(a).unwrap();
    }
}

#[test]
fn solo_needs_dinosaurs_and_survives_a_save() {
    let err = new_game(&GameConfig { solo: true, ..GameConfig::default() }).unwrap_err().to_string();
    assert!(err.contains("solo") && err.contains("dinos"), "{err}");
    let s = new_game(&solo_config(Scenario::Couriers, 1)).unwrap();
    let saved = serde_json::to_string(&SavedGame::capture(&s)).unwrap();
    let back: SavedGame = serde_json::from_str(&saved).unwrap();
    let restored = back.restore("saved").unwrap();
    assert!(restored.is_solo());
    assert_eq!(restored, s);
    let side_b: Side = 1;
    assert!(s.models().iter().all(|m| m.side != side_b));
}
