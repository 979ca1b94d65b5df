//! Every chance node says what kind of roll or draw it is and what each outcome is, with the
//! exact probabilities of `chance_outcomes` (issue 38): random games of every scenario, with
//! AI dinosaurs, ambush markers and solo play, visit every kind.

use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::ChanceKind;
use engine::Player;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Play a seeded random game to its end, checking every chance node's words; count the kinds
/// met.
fn check_game(config: &GameConfig, seed: u64, seen: &mut BTreeMap<String, usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = new_game(config).expect("a game");
    for _ in 0..100_000 {
        match s.current_player() {
            Player::Terminal => return,
            Player::Side(_) => {
                assert_eq!(s.chance_kind(), None, "a decision is no chance node: {}", s.describe_node());
                assert!(s.described_chance_outcomes().is_empty());
                let legal = s.legal_actions();
                s.apply_action(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            Player::Chance => {
                let kind = s.chance_kind().unwrap_or_else(|| panic!("no kind at {}", s.describe_node()));
                let described = s.described_chance_outcomes();
                let outcomes = s.chance_outcomes();
                assert_eq!(described.len(), outcomes.len(), "{}", s.describe_node());
                for (d, (action, p)) in described.iter().zip(&outcomes) {
                    assert_eq!((d.action, d.probability, d.kind), (*action, *p, kind));
                    assert!(!d.outcome.starts_with("outcome "), "{kind:?} outcome in words: {}", d.text());
                    let roll_off = d.text().contains("rolls lowest") || d.text().contains("roll-off");
                    assert_eq!(roll_off, kind == ChanceKind::RollOff, "{kind:?}: {}", d.text());
                    let described = engine::render::describe_action(&s, *action);
                    assert_eq!(described, d.text(), "the log says the same");
                }
                let total: f64 = described.iter().map(|d| d.probability).sum();
                assert!((total - 1.0).abs() < 1e-9, "{kind:?} sums to {total}");
                *seen.entry(kind.label().to_string()).or_default() += 1;
                s.apply_action(s.sample_chance(&mut rng).unwrap()).unwrap();
            }
        }
    }
    panic!("the game did not end");
}

#[test]
fn every_chance_node_names_its_kind_and_outcomes_with_odds_summing_to_one() {
    let mut seen = BTreeMap::new();
    let scenarios = [Scenario::Skirmish].into_iter().chain(Scenario::ALL);
    for (i, scenario) in scenarios.enumerate() {
        let crews = [["artifacters_150", "militia_sappers_100"], ["the_firm_150", "bondsmen_150"]];
        for (j, [a, b]) in crews.into_iter().enumerate() {
            let crews = [a.to_string(), b.to_string()];
            let plain = GameConfig { scenario, crews: crews.clone(), ..GameConfig::default() };
            check_game(&plain, (i * 10 + j) as u64, &mut seen);
            let dinos =
                GameConfig { scenario, crews: crews.clone(), dinos: 2, ambush: 2, ..GameConfig::default() };
            check_game(&dinos, (i * 10 + j + 100) as u64, &mut seen);
        }
        let solo = GameConfig { scenario, dinos: 2, ambush: 1, solo: true, ..GameConfig::default() };
        check_game(&solo, i as u64 + 200, &mut seen);
    }
    // A random game seldom reaches a Scavenger Hunt marker: more seeds until one does.
    let hunt = GameConfig {
        scenario: Scenario::ScavengerHunt,
        crews: ["artifacters_150".into(), "militia_sappers_100".into()],
        ..GameConfig::default()
    };
    for seed in 300..340 {
        if seen.contains_key(ChanceKind::MarkerNumber.label()) {
            break;
        }
        check_game(&hunt, seed, &mut seen);
    }
    for kind in [
        ChanceKind::AttributeTest,
        ChanceKind::EnemyDie,
        ChanceKind::ArmourRoll,
        ChanceKind::RollOff,
        ChanceKind::MarkerNumber,
        ChanceKind::SoughtNumber,
        ChanceKind::SpawnRoll,
        ChanceKind::AmbushMarkerKind,
        ChanceKind::AiCardDraw,
        ChanceKind::AbsentChoice,
    ] {
        assert!(seen.contains_key(kind.label()), "no {kind:?} node met: {seen:?}");
    }
}
