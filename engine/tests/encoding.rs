//! Tensor encodings: observation planes and globals sized and finite in every scenario, the
//! same in every determinization of what the observer cannot see, and a policy space in which
//! the legal actions of every decision have distinct indices that decode back to them.

mod common;

use common::Position;

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
    // The observation (both seats) at every node while the decision count is a multiple of
    // eight: encoding and scanning it was four fifths of this test's time at every node, and
    // each kind of node still meets the check thousands of times.
    if state.dynamic().decisions.is_multiple_of(8) {
        for side in 0..2 {
            encode_observation(state, side, planes.view_mut(), globals.view_mut());
            assert!(planes.iter().chain(globals.iter()).all(|v| v.is_finite() && (-1.0..=10.0).contains(v)));
        }
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
    // Each scenario with each crew against another, on the boards in turn; the games shared
    // out among the cores.
    let games: Vec<(usize, Scenario, usize)> = scenarios
        .iter()
        .enumerate()
        .flat_map(|(si, &scenario)| (0..crews.len()).map(move |ai| (si, scenario, ai)))
        .collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let checked: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (games, boards, crews) = (&games, &boards, &crews);
                scope.spawn(move || {
                    let mut checked = 0;
                    for &(si, scenario, ai) in games.iter().skip(t).step_by(threads) {
                        let k = ai + si;
                        let config = GameConfig {
                            board: boards[k % boards.len()].clone(),
                            crews: [crews[ai].clone(), crews[(k * 7 + 1) % crews.len()].clone()],
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
                    }
                    checked
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
    });
    let games = games.len();
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
    // Its holder hunts by the nearness to its target, which falls with the distance.
    use engine::encoding::observe::P_NEAR_GRUDGE_TARGET;
    let grudge = grudges[0].unwrap();
    let cell = |m: u8| {
        let (x, y) = state.board().xy(state.models()[m as usize].cell);
        (x as usize, y as usize)
    };
    let (tx, ty) = cell(grudge.target);
    let (hx, hy) = cell(grudge.holder);
    assert_eq!(planes[[P_NEAR_GRUDGE_TARGET, ty, tx]], 1.0);
    let apart = tx.abs_diff(hx).max(ty.abs_diff(hy)) as f32;
    assert!((planes[[P_NEAR_GRUDGE_TARGET, hy, hx]] - (1.0 - apart / 36.0).max(0.0)).abs() < 1e-6);
}

#[test]
fn shapes_follow_the_board_size_class() {
    assert_eq!(Geometry::of(&common::flat(12, 12)), Geometry { width: 36, depth: 36 });
    assert_eq!(Geometry::of(&common::flat(48, 36)), Geometry { width: 48, depth: 36 });
    assert_eq!(Geometry::of(&common::flat(40, 40)), Geometry { width: 48, depth: 48 });
    assert_eq!(Geometry::of(&common::flat(60, 30)), Geometry { width: 60, depth: 36 });
}

/// Play one step at random: a chance outcome by its odds or a uniformly drawn legal action.
fn random_step(state: &mut GameState, rng: &mut ChaCha8Rng) {
    let action = match state.current_player() {
        Player::Chance => state.sample_chance(rng).unwrap(),
        _ => {
            let legal = state.legal_actions();
            legal[rng.gen_range(0..legal.len())]
        }
    };
    state.apply_action(action).unwrap();
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
            random_step(&mut state, &mut rng);
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

/// Who acts is part of the globals, so every cell's move logit can depend on it: through
/// random Couriers games, the acting-model features are those of the model activating (its
/// AP, whose it is, whether it is the courier carrying its side's prize) and all zero at a
/// node where no model acts.
#[test]
fn the_globals_describe_the_acting_model() {
    use engine::encoding::observe::{
        ACTING, ACTING_CARRIES_MY_PRIZE, ACTING_COURIER, ACTING_MINE, ACTING_PRESENT, P_OWN,
    };
    const AP_FEATURE: usize = 3;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut courier_seen = 0;
    let mut others_seen = 0;
    let mut idle_seen = 0;
    for _ in 0..6 {
        let config = GameConfig { scenario: Scenario::Couriers, ..GameConfig::default() };
        let mut state = new_game(&config).unwrap();
        let geo = Geometry::of(state.board());
        let mut planes = Array3::zeros((PLANES, geo.depth, geo.width));
        let mut globals = Array1::zeros(GLOBALS);
        while !state.is_terminal() {
            let d = state.dynamic();
            let acting = if d.sequence.is_none() { d.activating } else { None };
            let idle = d.sequence.is_none()
                && d.activating.is_none()
                && matches!(d.steps.last(), Some(engine::state::Step::ChooseActivation));
            for side in 0..2u8 {
                encode_observation(&state, side, planes.view_mut(), globals.view_mut());
                if let Some(m) = acting {
                    let model = &d.models[m as usize];
                    let courier = d.scenario.couriers.contains(&Some(m));
                    let carries_mine = d.scenario.markers[side as usize].holder == Some(m);
                    assert_eq!(globals[ACTING_PRESENT], 1.0);
                    assert_eq!(globals[ACTING_MINE], (model.side == side) as u8 as f32);
                    assert_eq!(globals[ACTING_COURIER], courier as u8 as f32);
                    assert_eq!(globals[ACTING_CARRIES_MY_PRIZE], carries_mine as u8 as f32);
                    let (x, y) = state.board().xy(model.cell);
                    let base = if model.side == side { P_OWN } else { P_OWN + 16 };
                    assert_eq!(
                        globals[ACTING + AP_FEATURE],
                        planes[[base + AP_FEATURE, y as usize, x as usize]]
                    );
                    if courier && carries_mine {
                        courier_seen += 1;
                    } else {
                        others_seen += 1;
                    }
                } else if idle {
                    assert!(
                        globals.iter().skip(ACTING).all(|&v| v == 0.0),
                        "acting features with no one acting"
                    );
                    idle_seen += 1;
                }
            }
            random_step(&mut state, &mut rng);
        }
    }
    assert!(courier_seen > 0 && others_seen > 0 && idle_seen > 0, "{courier_seen} {others_seen} {idle_seen}");
}

/// The fire and reach planes on a 12"×12" board: an enemy shooter (range 8") at (1,5) behind
/// which a 9" wall stands at x = 4, rows 3 to 7, and a second one at (1,9). A cell either sees
/// counts a quarter, both a half; the wall hides the cells behind it; cells out of range
/// count nothing; the charge plane reaches the shooters' "Nailed It" move plus base contact.
/// The observer's own model is unarmed: its fire plane stays empty.
#[test]
fn fire_and_reach_planes_count_the_enemies_that_see_and_reach_each_cell() {
    use engine::encoding::observe::{P_ENEMY_FIRE, P_ENEMY_REACH, P_OWN_FIRE};
    use engine::profile::Weapon;
    let rows: Vec<String> = (0..12)
        .map(|y| (0..12).map(|x| if x == 4 && (3..=7).contains(&y) { "9." } else { "0." }).collect())
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let shooter = common::custom("kaneda", |p| {
        p.speed = (4, 6);
        p.weapons =
            vec![Weapon { name: "Rifle".into(), range: Some((4, 8)), damage: (1, 2), properties: vec![] }];
    });
    let unarmed = common::custom("hosk", |p| {
        p.weapons = vec![Weapon { name: "Fists".into(), range: None, damage: (1, 1), properties: vec![] }];
    });
    let state = Position::on(common::board(&refs))
        .with(0, unarmed, (10, 10))
        .with(1, shooter.clone(), (1, 5))
        .with(1, shooter, (1, 9))
        .choosing();
    let planes = planes_seen_by(&state, 0);
    let at = |plane: usize, x: usize, y: usize| planes[[plane, y, x]];
    assert_eq!(at(P_ENEMY_FIRE, 3, 6), 0.5, "open ground both see");
    assert_eq!(at(P_ENEMY_FIRE, 3, 0), 0.25, "only the nearer one is in range");
    assert_eq!(at(P_ENEMY_FIRE, 7, 5), 0.0, "behind the wall from both");
    assert_eq!(at(P_ENEMY_FIRE, 11, 0), 0.0, "out of range");
    assert_eq!(at(P_ENEMY_FIRE, 20, 20), 0.0, "padding");
    assert_eq!(at(P_ENEMY_REACH, 1, 0), 0.25, "5\" from one, 9\" from the other");
    assert_eq!(at(P_ENEMY_REACH, 1, 7), 0.5);
    assert_eq!(at(P_ENEMY_REACH, 9, 0), 0.0);
    assert!(planes.index_axis(ndarray::Axis(0), P_OWN_FIRE).iter().all(|&v| v == 0.0));
    // The other side sees the same fire as its own.
    let theirs = planes_seen_by(&state, 1);
    assert_eq!(
        theirs.index_axis(ndarray::Axis(0), P_OWN_FIRE),
        planes.index_axis(ndarray::Axis(0), P_ENEMY_FIRE)
    );
}

/// In Couriers the cells a side's models may leave from (the whole enemy deployment edge, one
/// line of the enemy zone) are a plane of their own, and its nearness falls away from it even
/// inside the zone; in the other scenarios the plane is empty.
#[test]
fn the_exit_edge_is_a_plane_in_couriers_only() {
    use engine::encoding::observe::{P_EXIT, P_NEAR_EXIT, P_ZONE_THEIRS};
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for scenario in Scenario::ALL {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let mut state = new_game(&config).unwrap();
        while state.dynamic().activating.is_none() && !state.is_terminal() {
            random_step(&mut state, &mut rng);
        }
        let board = state.board();
        for side in 0..2u8 {
            let planes = planes_seen_by(&state, side);
            let exits: Vec<(usize, usize)> = (0..board.cells().len() as u16)
                .map(|c| board.xy(c))
                .map(|(x, y)| (x as usize, y as usize))
                .filter(|&(x, y)| planes[[P_EXIT, y, x]] == 1.0)
                .collect();
            if scenario != Scenario::Couriers {
                assert!(exits.is_empty(), "{}", scenario.name());
                continue;
            }
            // One whole edge of the board, inside the enemy zone.
            let along_x = exits.iter().all(|e| e.1 == exits[0].1);
            let along_y = exits.iter().all(|e| e.0 == exits[0].0);
            let edge_len = if along_x { board.width() } else { board.depth() } as usize;
            assert!(along_x || along_y, "exit cells on one line");
            assert_eq!(exits.len(), edge_len);
            assert!(exits.iter().all(|&(x, y)| planes[[P_ZONE_THEIRS, y, x]] == 1.0));
            // A step off the edge into the zone is less near to it.
            let (x, y) = exits[0];
            let inward = if along_y {
                (if x == 0 { 1 } else { x - 1 }, y)
            } else {
                (x, if y == 0 { 1 } else { y - 1 })
            };
            assert_eq!(planes[[P_ZONE_THEIRS, inward.1, inward.0]], 1.0);
            assert!(planes[[P_NEAR_EXIT, inward.1, inward.0]] < planes[[P_NEAR_EXIT, y, x]]);
        }
    }
}

/// In Scavenger Hunt the markers a side has not looked at are a plane of their own: all six at
/// the first activation; a marker drops off a side's plane once it has seen its number, and
/// stays on the other side's until that side looks too.
#[test]
fn markers_a_side_has_not_looked_at_are_a_plane() {
    use engine::encoding::observe::P_MARKER_UNSEEN;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let count = |state: &GameState, side: u8| {
        planes_seen_by(state, side).index_axis(ndarray::Axis(0), P_MARKER_UNSEEN).sum()
    };
    let mut differed = false;
    for _ in 0..4 {
        let config = GameConfig { scenario: Scenario::ScavengerHunt, ..GameConfig::default() };
        let mut state = new_game(&config).unwrap();
        let mut first_activation = true;
        while !state.is_terminal() {
            if state.dynamic().activating.is_some() && first_activation {
                first_activation = false;
                assert_eq!((count(&state, 0), count(&state, 1)), (6.0, 6.0));
            }
            let markers = &state.dynamic().scenario.markers;
            for side in 0..2u8 {
                let unseen: std::collections::HashSet<u16> = markers
                    .iter()
                    .filter(|m| m.placed && !m.off_table && m.holder.is_none() && m.known & (1 << side) == 0)
                    .map(|m| m.cell)
                    .collect();
                let seen_here = planes_seen_by(&state, side);
                for m in markers.iter().filter(|m| m.placed && !m.off_table && m.holder.is_none()) {
                    let (x, y) = state.board().xy(m.cell);
                    let expected = unseen.contains(&m.cell) as u8 as f32;
                    assert_eq!(seen_here[[P_MARKER_UNSEEN, y as usize, x as usize]], expected);
                }
            }
            differed |= count(&state, 0) != count(&state, 1);
            // Random play that looks at a marker whenever a model touches one, so that the
            // sides come to know different markers.
            let look = state.legal_actions().into_iter().find(|a| {
                matches!(a, engine::Action::Interact { kind: engine::state::InteractKind::Marker { .. }, .. })
            });
            match look {
                Some(action) if state.current_player() != Player::Chance => {
                    state.apply_action(action).unwrap()
                }
                _ => random_step(&mut state, &mut rng),
            }
        }
    }
    assert!(differed, "no side ever looked at a marker the other had not");
}

/// The scenario one-hot has one slot per scenario of the scenario list, the skirmish first,
/// each scenario's at its place; with the five scenarios and the skirmish the observation is
/// the size the shipped checkpoints were trained on (their `meta.json` records it), so they
/// still load.
#[test]
fn scenario_slots_follow_the_scenario_list_and_shipped_checkpoints_still_fit() {
    use engine::encoding::observe::{SCENARIO_FIRST, SCENARIO_SLOTS};
    assert_eq!(SCENARIO_SLOTS, Scenario::EVERY.len());
    assert_eq!(SCENARIO_SLOTS, 6, "five scenarios and the skirmish");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../checkpoints");
    for name in ["bootstrap", "bootstrap_value"] {
        let text = std::fs::read_to_string(shipped.join(name).join("meta.json")).unwrap();
        let meta: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(meta["planes"], PLANES, "{name}");
        assert_eq!(meta["globals"], GLOBALS, "{name}");
    }
    for (i, scenario) in Scenario::EVERY.into_iter().enumerate() {
        let state = common::scenario_game(scenario, "sunken_plaza", ["artifacters_100", "the_firm_100"]);
        let geo = Geometry::of(state.board());
        let mut planes = Array3::zeros((PLANES, geo.depth, geo.width));
        let mut globals = Array1::zeros(GLOBALS);
        encode_observation(&state, 0, planes.view_mut(), globals.view_mut());
        let slots: Vec<f32> = (0..SCENARIO_SLOTS).map(|k| globals[SCENARIO_FIRST + k]).collect();
        let expected: Vec<f32> = (0..SCENARIO_SLOTS).map(|k| (k == i) as u8 as f32).collect();
        assert_eq!(slots, expected, "{}", scenario.name());
    }
}
