//! Tensor encodings: observation planes and globals sized and finite in every scenario, the
//! same in every determinization of what the observer cannot see, and a policy space in which
//! the legal actions of every decision have distinct indices that decode back to them.

mod common;

use engine::encoding::actions::PolicySpace;
use engine::encoding::{encode_observation, Geometry, GLOBALS, PLANES, POLICY_GLOBALS, POLICY_PLANES};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{GameState, Player};
use ndarray::{Array1, Array3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Check the encodings at `state`; returns the number of legal actions checked.
fn check_node(state: &GameState, planes: &mut Array3<f32>, globals: &mut Array1<f32>) -> usize {
    let geo = Geometry::of(state.board());
    for side in 0..2 {
        encode_observation(state, side, planes.view_mut(), globals.view_mut());
        assert!(planes.iter().chain(globals.iter()).all(|v| v.is_finite() && (-1.0..=10.0).contains(v)));
    }
    let Player::Side(_) = state.current_player() else { return 0 };
    let space = PolicySpace::of(state);
    let legal = state.legal_actions();
    let mut seen = HashSet::new();
    for &a in &legal {
        let (index, recipe) =
            space.encode(state, a).unwrap_or_else(|e| panic!("{e} at {}", state.describe_node()));
        assert!(index < space.size());
        assert!(seen.insert(index), "{a} shares index {index} at {}", state.describe_node());
        // Decoding scans the legal actions: check it at one decision in seven.
        if state.dynamic().decisions.is_multiple_of(7) {
            assert_eq!(space.decode(state, index), Some(a), "index {index} decodes back");
        }
        for (plane, cell) in recipe.spatial.iter().flatten() {
            assert!((*plane as usize) < POLICY_PLANES && (*cell as usize) < geo.cells(), "{a}: {recipe:?}");
        }
        assert!(recipe.global.iter().flatten().all(|&g| (g as usize) < POLICY_GLOBALS));
        assert!(recipe.spatial.iter().any(Option::is_some) || recipe.global.iter().any(Option::is_some));
    }
    legal.len()
}

#[test]
fn random_games_with_dinosaurs_and_ambush_markers_encode_their_legal_actions_to_distinct_indices() {
    let scenarios: Vec<Scenario> = std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).collect();
    let mut checked = 0;
    for (si, &scenario) in scenarios.iter().enumerate() {
        for seed in 0..3u64 {
            let config = GameConfig { scenario, dinos: 2, ambush: 1 + seed as u8, ..GameConfig::default() };
            let state = new_game(&config).unwrap();
            let geo = Geometry::of(state.board());
            let mut planes = Array3::zeros((PLANES, geo.depth, geo.width));
            let mut globals = Array1::zeros(GLOBALS);
            let end = common::random_playout(state, 900 + si as u64 * 10 + seed, 20_000, |_, after, _| {
                checked += check_node(after, &mut planes, &mut globals);
            });
            assert!(end.is_terminal());
        }
    }
    assert!(checked > 5_000, "{checked} actions");
}

#[test]
fn every_decision_of_random_games_encodes_its_legal_actions_to_distinct_indices() {
    let configs = engine::data::configs_dir();
    let boards = engine::data::file_names(&configs.join("boards"), "board").unwrap();
    let crews = engine::data::file_names(&configs.join("crews"), "toml").unwrap();
    let scenarios: Vec<Scenario> = std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).collect();
    let mut checked = 0;
    let mut games = 0;
    for (si, &scenario) in scenarios.iter().enumerate() {
        for (ai, a) in crews.iter().enumerate() {
            let k = ai + si;
            let config = GameConfig {
                board: boards[k % boards.len()].clone(),
                crews: [a.clone(), crews[(k * 7 + 1) % crews.len()].clone()],
                scenario,
                ..GameConfig::default()
            };
            let state = new_game(&config).unwrap();
            let geo = Geometry::of(state.board());
            let mut planes = Array3::zeros((PLANES, geo.depth, geo.width));
            let mut globals = Array1::zeros(GLOBALS);
            let end = common::random_playout(state, k as u64, 20_000, |_, after, _| {
                checked += check_node(after, &mut planes, &mut globals);
            });
            assert!(end.is_terminal());
            games += 1;
        }
    }
    assert!(games >= 100 && checked > 100_000, "{games} games, {checked} actions");
}

/// The observation holds only what its side may see: determinizing the hidden facts (the
/// enemy's grudge, marker numbers) for that side never changes it.
#[test]
fn an_observation_is_the_same_in_every_determinization_of_hidden_facts() {
    let mut compared = 0;
    for scenario in [Scenario::GrudgeMatch, Scenario::ScavengerHunt] {
        for seed in 0..6u64 {
            let state = common::scenario_game(scenario, "sunken_plaza", ["the_firm_100", "militia_100"]);
            let geo = Geometry::of(state.board());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut a = (Array3::zeros((PLANES, geo.depth, geo.width)), Array1::zeros(GLOBALS));
            let mut b = a.clone();
            common::random_playout(state, seed, 20_000, |_, after, _| {
                if rng.gen_range(0..40) != 0 {
                    return;
                }
                for side in 0..2 {
                    encode_observation(after, side, a.0.view_mut(), a.1.view_mut());
                    for _ in 0..3 {
                        let world = after.determinize(side, &mut rng);
                        encode_observation(&world, side, b.0.view_mut(), b.1.view_mut());
                        assert_eq!(a, b, "side {side} sees a hidden fact");
                        compared += 1;
                    }
                }
            });
        }
    }
    assert!(compared > 100, "{compared} comparisons");
}

/// The observation shows what its side knows and the enemy does not: a side's own grudge.
#[test]
fn a_side_sees_its_own_grudge_but_not_the_enemys() {
    use engine::encoding::observe::{P_GRUDGE_MINE, P_GRUDGE_THEIRS};
    let mut state =
        common::scenario_game(Scenario::GrudgeMatch, "sunken_plaza", ["the_firm_100", "militia_100"]);
    common::finish_setup(&mut state, 3, |_| {});
    let geo = Geometry::of(state.board());
    let mut planes = Array3::zeros((PLANES, geo.depth, geo.width));
    let mut globals = Array1::zeros(GLOBALS);
    let grudges = state.dynamic().scenario.grudges;
    assert!(grudges.iter().take(2).all(|g| g.is_some_and(|g| !g.revealed)));
    encode_observation(&state, 0, planes.view_mut(), globals.view_mut());
    let sum = |p: usize, planes: &Array3<f32>| planes.index_axis(ndarray::Axis(0), p).sum();
    assert!(sum(P_GRUDGE_MINE, &planes) > 0.0, "its own grudge is marked");
    assert_eq!(sum(P_GRUDGE_THEIRS, &planes), 0.0, "the enemy's is not");
}

#[test]
fn shapes_follow_the_board_size_class() {
    assert_eq!(Geometry::of(&common::flat(12, 12)), Geometry { width: 36, depth: 36 });
    assert_eq!(Geometry::of(&common::flat(48, 36)), Geometry { width: 48, depth: 36 });
    assert_eq!(Geometry::of(&common::flat(40, 40)), Geometry { width: 48, depth: 48 });
    assert_eq!(Geometry::of(&common::flat(60, 30)), Geometry { width: 60, depth: 36 });
}

/// The observation planes `side` sees of `state`.
fn planes_seen_by(state: &GameState, side: u8) -> Array3<f32> {
    let geo = Geometry::of(state.board());
    let (mut planes, mut globals) = (Array3::zeros((PLANES, geo.depth, geo.width)), Array1::zeros(GLOBALS));
    encode_observation(state, side, planes.view_mut(), globals.view_mut());
    planes
}

#[test]
fn deployment_zones_are_planes_each_side_sees_from_its_own_seat() {
    use engine::encoding::observe::{P_ZONE_MINE, P_ZONE_THEIRS};
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for scenario in Scenario::ALL {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let mut state = new_game(&config).unwrap();
        // Play on at random until the first activation, when the zones are chosen.
        while state.dynamic().activating.is_none() && !state.is_terminal() {
            let legal = match state.current_player() {
                Player::Chance => {
                    let a = state.sample_chance(&mut rng).unwrap();
                    state.apply_action(a).unwrap();
                    continue;
                }
                _ => state.legal_actions(),
            };
            state.apply_action(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
        let view = |side: u8| planes_seen_by(&state, side);
        let (a, b) = (view(0), view(1));
        let count = |p: &Array3<f32>, plane: usize| p.index_axis(ndarray::Axis(0), plane).sum();
        assert!(count(&a, P_ZONE_MINE) > 0.0 && count(&a, P_ZONE_THEIRS) > 0.0, "{}", scenario.name());
        assert_eq!(
            a.index_axis(ndarray::Axis(0), P_ZONE_MINE),
            b.index_axis(ndarray::Axis(0), P_ZONE_THEIRS)
        );
        assert_eq!(
            a.index_axis(ndarray::Axis(0), P_ZONE_THEIRS),
            b.index_axis(ndarray::Axis(0), P_ZONE_MINE)
        );
        // In a Grudge Match the whole crew deploys in its zone: before anyone moves, every
        // model stands on its own zone plane.
        if scenario == Scenario::GrudgeMatch {
            for m in state.models().iter().filter(|m| m.is_on_table()) {
                let (x, y) = state.board().xy(m.cell);
                let seen = view(m.side)[[P_ZONE_MINE, y as usize, x as usize]];
                assert_eq!(seen, 1.0, "a model deployed outside its zone plane");
            }
        }
    }
}

#[test]
fn nearness_planes_give_the_chessboard_distance_to_their_source_cells() {
    use engine::encoding::observe::{
        P_ACTIVE, P_ENEMY, P_MARKER, P_NEAR_ACTIVE, P_NEAR_ENEMY, P_NEAR_MARKER, P_NEAR_ZONE_MINE,
        P_NEAR_ZONE_THEIRS, P_ZONE_MINE, P_ZONE_THEIRS,
    };
    for scenario in Scenario::ALL {
        let config = GameConfig { scenario, ..GameConfig::default() };
        // Some way into the game, so models, markers and zones are all on the board.
        let state = common::random_playout(new_game(&config).unwrap(), 5, 120, |_, _, _| {});
        let geo = Geometry::of(state.board());
        let (w, d) = (state.board().width() as usize, state.board().depth() as usize);
        let view = |side: u8| planes_seen_by(&state, side);
        let (a, b) = (view(0), view(1));
        for (near, source) in [
            (P_NEAR_ZONE_THEIRS, P_ZONE_THEIRS),
            (P_NEAR_ZONE_MINE, P_ZONE_MINE),
            (P_NEAR_MARKER, P_MARKER),
            (P_NEAR_ENEMY, P_ENEMY),
            (P_NEAR_ACTIVE, P_ACTIVE),
        ] {
            let sources: Vec<(usize, usize)> = (0..d)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .filter(|&(x, y)| a[[source, y, x]] != 0.0)
                .collect();
            for y in 0..geo.depth {
                for x in 0..geo.width {
                    let expected = if x >= w || y >= d || sources.is_empty() {
                        0.0
                    } else {
                        let dist =
                            sources.iter().map(|&(sx, sy)| sx.abs_diff(x).max(sy.abs_diff(y))).min().unwrap();
                        (1.0 - dist as f32 / 36.0).max(0.0)
                    };
                    assert!(
                        (a[[near, y, x]] - expected).abs() < 1e-6,
                        "{}: plane {near} at ({x},{y}) is {} not {expected}",
                        scenario.name(),
                        a[[near, y, x]]
                    );
                }
            }
        }
        // Zones seen from the other seat swap their nearness planes too.
        assert_eq!(
            a.index_axis(ndarray::Axis(0), P_NEAR_ZONE_THEIRS),
            b.index_axis(ndarray::Axis(0), P_NEAR_ZONE_MINE)
        );
        let zone = a.index_axis(ndarray::Axis(0), P_NEAR_ZONE_THEIRS);
        assert!(
            zone.iter().any(|&v| v == 1.0) && zone.iter().any(|&v| v > 0.0 && v < 1.0),
            "{}",
            scenario.name()
        );
    }
}
