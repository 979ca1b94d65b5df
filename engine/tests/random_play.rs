//! Random play of every scenario with every shipped crew, on every shipped board and a
//! synthetic one, checking the invariants after
//! every step: no panic, AP and wounds in range, no two models in one place, chance
//! probabilities summing to 1, a legal action at every decision node, and clone-then-apply
//! equal to apply on the original.

mod common;

use engine::event_counts::EventCounts;
use engine::invariants::violations;
use engine::record::SavedGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Play `state` out at random checking every step; the number of steps and the final state.
fn check_game(state: engine::GameState, seed: u64) -> (usize, engine::GameState) {
    let mut steps = 0;
    let v = violations(&state);
    assert!(v.is_empty(), "initial state: {v:?}");
    let end = common::random_playout(state, seed, 20_000, |before, after, action| {
        steps += 1;
        let v = violations(after);
        assert!(v.is_empty(), "seed {seed} after {action} at step {steps}: {v:?}");
        let mut copy = before.clone();
        copy.apply_action(action).unwrap();
        assert_eq!(&copy, after, "clone-then-apply differs at step {steps}");
        assert_eq!(copy.state_hash(), after.state_hash());
        // Every so often: a saved game round-trips, and a world determinized for a side has
        // the same information state and (when that side is to act) the same legal actions.
        if steps % 97 == 0 {
            let saved = SavedGame::capture(after);
            let text = serde_json::to_string(&saved).unwrap();
            let back: SavedGame = serde_json::from_str(&text).unwrap();
            assert_eq!(&back.restore("round trip").unwrap(), after, "save round trip at step {steps}");
            for side in 0..2 {
                let mut rng = ChaCha8Rng::seed_from_u64(steps as u64);
                let world = after.determinize(side, &mut rng);
                assert_eq!(world.information_state_key(side), after.information_state_key(side));
                if after.current_player() == engine::Player::Side(side) {
                    assert_eq!(
                        world.legal_actions(),
                        after.legal_actions(),
                        "{side} can tell the worlds apart"
                    );
                }
            }
        }
    });
    assert!(end.is_terminal(), "game {seed} did not end in 20000 steps");
    let r = end.returns();
    assert!(r.iter().all(|x| (-1.0..=1.0).contains(x)) && r[0] + r[1] == 0.0, "returns {r:?}");
    let o = end.outcome();
    assert_eq!(o.margin(0), -o.margin(1));
    assert_eq!(r[0] > 0.0, o.margin(0) > 0, "the winner has the higher VP");
    (steps, end)
}

#[test]
fn random_close_quarters_games_exercise_every_feature_and_keep_the_invariants() {
    // Two mixed crews a few inches apart around cover, water and a raised block: nearly every
    // action is in sight of models with AP left, and between them the crews carry a leader,
    // medic and mech each, and weapons with Blind, Finite, Fire, Slow, Stun, Knockdown, Reach,
    // Scarce, Primitive, Spray, Sneaky, Pierce, Sunder and Armour.
    let rows: Vec<String> = (0..16)
        .map(|y| {
            (0..16)
                .map(|x| match (x, y) {
                    (6..=8, 7..=8) => "3.",
                    (12..=13, 4..=11) => "0~",
                    (3, 6..=9) => "0h",
                    (10, 3..=5) => "0s",
                    (5, 12) => "0,",
                    _ => "0.",
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut counts = EventCounts::default();
    let games = 400;
    for seed in 0..games {
        let board = common::board(&refs);
        let places = [
            common::Place { side: 0, profile: "artifacter_captain", at: (11, 2) },
            common::Place { side: 0, profile: "artifacter_medic", at: (4, 3) },
            common::Place { side: 0, profile: "artifacter_tinker", at: (8, 3) },
            common::Place { side: 0, profile: "nix", at: (2, 3) },
            common::Place { side: 0, profile: "slethssk", at: (7, 4) },
            common::Place { side: 0, profile: "cavalry_nix", at: (14, 2) },
            common::Place { side: 1, profile: "bondmaster", at: (2, 12) },
            common::Place { side: 1, profile: "bondsman_catcher", at: (7, 11) },
            common::Place { side: 1, profile: "bondsman_rigger", at: (11, 13) },
            common::Place { side: 1, profile: "militia_engineer", at: (9, 12) },
            common::Place { side: 1, profile: "militia_bulwark", at: (4, 12) },
            common::Place { side: 1, profile: "venk", at: (13, 14) },
        ];
        let state = common::game(board, &places, None);
        let mut d = state.dynamic().clone();
        d.models[11].tokens.stealth = true; // Venk starts stealthed
        let state = engine::GameState::from_parts(state.static_data().clone(), d);
        let mut steps = 0;
        let end = common::random_playout(state, seed, 50_000, |before, after, action| {
            steps += 1;
            counts.count(action, before, after);
            let v = violations(after);
            assert!(v.is_empty(), "seed {seed} after {action} at step {steps}: {v:?}");
            let mut copy = before.clone();
            copy.apply_action(action).unwrap();
            assert_eq!(&copy, after, "clone-then-apply differs at step {steps}");
        });
        assert!(end.is_terminal());
    }
    println!("{games} close-quarters random games: {counts:#?}");
    let g = games;
    assert!(counts.reactions > g * 5 && counts.firefights > g / 4 && counts.nested > g, "{counts:?}");
    assert!(counts.opposed_tests > g && counts.command_orders > g, "{counts:?}");
    for (name, n) in [
        ("first aid", counts.first_aid),
        ("repairs", counts.repairs),
        ("fire", counts.fire_tokens),
        ("blind", counts.blinded),
        ("slow", counts.slowed),
        ("knockdown", counts.knocked_down),
        ("stun", counts.stunned),
        ("jams", counts.jams),
        ("healed", counts.healed),
        ("revealed", counts.revealed),
        ("cavalry separations", counts.separations),
    ] {
        assert!(n > 0, "{name} never happened: {counts:?}");
    }
}

#[test]
fn random_games_of_every_scenario_with_every_shipped_crew_keep_the_invariants() {
    let configs = engine::data::configs_dir();
    let boards = engine::data::file_names(&configs.join("boards"), "board").expect("configs/boards exists");
    assert!(boards.len() >= 3, "at least three boards ship");
    let crews = engine::data::file_names(&configs.join("crews"), "toml").expect("configs/crews exists");
    // Every scenario (and the skirmish) with every shipped crew as side A, each against a
    // rotating opponent on a rotating board, several seeds each: about a thousand games, split
    // over two threads. Every crew also plays side B, and every board is used.
    let scenarios: Vec<Scenario> = std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).collect();
    let mut jobs = Vec::new();
    for (si, &scenario) in scenarios.iter().enumerate() {
        for (ai, a) in crews.iter().enumerate() {
            for seed in 0..GAMES_PER_CREW {
                let k = ai + si + seed as usize;
                let b = crews[(k * 7 + 1) % crews.len()].clone();
                let board = boards[k % boards.len()].clone();
                jobs.push((scenario, board, a.clone(), b, seed));
            }
        }
    }
    let half = jobs.len() / 2;
    let (first, second) = jobs.split_at(half);
    let run = |jobs: &[(Scenario, String, String, String, u64)]| {
        let mut steps = 0;
        let mut vp_games = 0;
        for (i, (scenario, board, a, b, seed)) in jobs.iter().enumerate() {
            let config = GameConfig {
                board: board.clone(),
                crews: [a.clone(), b.clone()],
                scenario: *scenario,
                ..GameConfig::default()
            };
            let state = new_game(&config).unwrap_or_else(|e| panic!("{board} {a} {b}: {e}"));
            let (n, end) = check_game(state, seed * 1000 + i as u64);
            steps += n;
            vp_games += usize::from(end.outcome().vp[..2].iter().any(|&v| v != 0));
        }
        (steps, vp_games)
    };
    let ((s1, v1), (s2, v2)) = std::thread::scope(|s| {
        let h = s.spawn(|| run(first));
        (run(second), h.join().expect("worker"))
    });
    assert!(jobs.len() >= 1000, "{} games", jobs.len());
    assert!(s1 + s2 > jobs.len() * 50, "games are played out ({} steps)", s1 + s2);
    assert!(v1 + v2 > jobs.len() / 10, "victory points are scored ({} games)", v1 + v2);
}

/// Seeds per (scenario, crew) combination.
const GAMES_PER_CREW: u64 = 10;

#[test]
fn random_games_with_ai_dinosaurs_and_ambush_markers_in_every_scenario_keep_the_invariants() {
    let configs = engine::data::configs_dir();
    let boards = engine::data::file_names(&configs.join("boards"), "board").expect("configs/boards exists");
    let crews = engine::data::file_names(&configs.join("crews"), "toml").expect("configs/crews exists");
    let scenarios: Vec<Scenario> = std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).collect();
    let mut hurt = 0;
    let mut spawned = 0;
    let mut markers_gone = 0;
    for (si, &scenario) in scenarios.iter().enumerate() {
        for seed in 0..8u64 {
            let k = si * 8 + seed as usize;
            let config = GameConfig {
                board: boards[k % boards.len()].clone(),
                crews: [crews[k % crews.len()].clone(), crews[(k * 7 + 3) % crews.len()].clone()],
                scenario,
                dinos: 1 + (seed % 4) as u8,
                ambush: (seed % 3) as u8,
                ..GameConfig::default()
            };
            let state = new_game(&config).unwrap_or_else(|e| panic!("{config:?}: {e}"));
            let (_, end) = check_game(state, 50_000 + k as u64);
            markers_gone += config.ambush as u32 - end.dynamic().uc.marker_mask.count_ones();
            let dinos: Vec<usize> =
                (0..end.models().len()).filter(|&i| end.models()[i].side == engine::uc::AI_SIDE).collect();
            // Every dinosaur was placed; noises and ambush markers brought more, up to the
            // collection's size.
            assert!(
                (config.dinos as usize..=engine::setup::MAX_DINOS as usize).contains(&dinos.len()),
                "{} AI models for {} placed",
                dinos.len(),
                config.dinos
            );
            spawned += dinos.len() - config.dinos as usize;
            hurt += dinos
                .iter()
                .filter(|&&i| {
                    let m = &end.models()[i];
                    m.health != engine::state::Health::Conscious || m.wounds < end.profile(i as u8).wounds
                })
                .count();
        }
    }
    assert!(hurt > 0, "random players hurt dinosaurs: they are targets like any enemy");
    assert!(spawned > 0, "gunfire brought dinosaurs in the enemy phase");
    assert!(markers_gone > 0, "ambush markers sprang or were recognised");
}

/// `apply_legal_action` (the unchecked path of search and random play) plays the same game
/// as `apply_action` for actions drawn from `legal_actions` and `chance_outcomes`.
#[test]
fn applying_legal_actions_unchecked_plays_the_same_games() {
    for (i, scenario) in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).enumerate() {
        let start =
            new_game(&GameConfig { scenario, dinos: (i % 2) as u8 * 2, ..Default::default() }).unwrap();
        let (mut checked, mut unchecked) = (start.clone(), start);
        let mut rng = ChaCha8Rng::seed_from_u64(900 + i as u64);
        let mut buf = Vec::new();
        while !checked.is_terminal() {
            let action = match checked.current_player() {
                engine::Player::Chance => checked.sample_chance(&mut rng).unwrap(),
                _ => {
                    checked.legal_actions_into(&mut buf);
                    buf[rand::Rng::gen_range(&mut rng, 0..buf.len())]
                }
            };
            checked.apply_action(action).unwrap();
            unchecked.apply_legal_action(action);
            assert_eq!(checked.state_hash(), unchecked.state_hash(), "{}", scenario.name());
        }
        assert!(unchecked.is_terminal());
    }
}
