//! Scenario 5, Scavenger Hunt (rulebook pp.84–85): marker placement, corner deployment in two
//! groups, infiltrators, the numbers sought, looking at markers, dropping and picking them up,
//! the hidden numbers (observations, information states, determinization), the end of the
//! game and its scoring.
//!
//! The rules are restated here from the rulebook's numbers (5" from the edges, more than 5"
//! between markers, more than 6" for infiltrators, 8" corner squares) rather than taken from
//! the engine, so that the tests fail when the engine is wrong.

mod common;

use engine::board::{Board, CellIdx, Terrain};
use engine::profile::Role;
use engine::scenario::{Placement, Scenario, ScenarioStep, ZoneKind};
use engine::state::{Health, InteractKind, ModelId, Side, Step};
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// "at least 5" from the table edges" (p.84).
const MARKER_EDGE: u8 = 5;
/// "and more than 5" from any other Marker".
const MARKER_GAP: f32 = 5.0;
/// Infiltrators "more than 6" away from any enemy Models or objective markers".
const INFILTRATOR_GAP: f32 = 6.0;
/// The corner Deployment Zones are 8" squares.
const CORNER: i32 = 8;

// ---------------------------------------------------------------------------------------------
// Geometry, restated from the rulebook.

/// Models deploy at ground level (p.76): open ground no higher than 1".
fn ground(board: &Board, c: CellIdx) -> bool {
    let cell = board.cell(c);
    cell.terrain == Terrain::Open && cell.height <= 1
}

/// Distance base edge to base edge between two 1" bases standing on the cells.
fn inches(board: &Board, a: CellIdx, b: CellIdx) -> f32 {
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    let dx = ax as f32 - bx as f32;
    let dy = ay as f32 - by as f32;
    let dz = board.cell(a).height as f32 - board.cell(b).height as f32;
    ((dx * dx + dy * dy + dz * dz).sqrt() - 1.0).max(0.0)
}

/// Whole inches between the cell's base and the nearest table edge.
fn edge_gap(board: &Board, c: CellIdx) -> u8 {
    let (x, y) = board.xy(c);
    x.min(y).min(board.width() - 1 - x).min(board.depth() - 1 - y)
}

/// The corner cell of corner `c` (0 = (0,0), 1 = (w-1,0), 2 = (0,d-1), 3 = (w-1,d-1)).
fn corner_xy(board: &Board, c: u8) -> (i32, i32) {
    let (w, d) = (board.width() as i32 - 1, board.depth() as i32 - 1);
    match c {
        0 => (0, 0),
        1 => (w, 0),
        2 => (0, d),
        _ => (w, d),
    }
}

fn in_corner(board: &Board, cell: CellIdx, corner: u8) -> bool {
    let (x, y) = board.xy(cell);
    let (cx, cy) = corner_xy(board, corner);
    (x as i32 - cx).abs() < CORNER && (y as i32 - cy).abs() < CORNER
}

/// Corners diagonally opposite each other: they share no edge.
fn diagonal(board: &Board, a: u8, b: u8) -> bool {
    let (ax, ay) = corner_xy(board, a);
    let (bx, by) = corner_xy(board, b);
    ax != bx && ay != by
}

/// Corners joined by a board edge.
fn adjacent(board: &Board, a: u8, b: u8) -> bool {
    let (ax, ay) = corner_xy(board, a);
    let (bx, by) = corner_xy(board, b);
    (ax == bx) != (ay == by)
}

fn chebyshev(board: &Board, a: CellIdx, b: CellIdx) -> i32 {
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    (ax as i32 - bx as i32).abs().max((ay as i32 - by as i32).abs())
}

// ---------------------------------------------------------------------------------------------
// Game helpers.

fn player_a(s: &GameState) -> Side {
    s.dynamic().scenario.player_a
}

fn is_scout(s: &GameState, m: ModelId) -> bool {
    s.profile(m).role == Role::Scout
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

fn deploy_cells(s: &GameState) -> BTreeSet<CellIdx> {
    s.legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Deploy(c) => c,
            other => panic!("unexpected placement action {other}"),
        })
        .collect()
}

/// A Scavenger Hunt game with the starter crews (one infiltrator each) on a flat, open 36"
/// table, set up with seeded random choices: at the first activation of turn 1.
fn flat_hunt(seed: u64) -> GameState {
    let mut s = flat_hunt_setup();
    common::finish_setup(&mut s, seed, |_| {});
    s
}

/// A Scavenger Hunt game with the starter crews on a flat, open 36" table, at the start of
/// its set-up.
fn flat_hunt_setup() -> GameState {
    let s = common::scenario_game(Scenario::ScavengerHunt, "sunken_plaza", ["militia_100", "the_firm_100"]);
    common::with_static(&s, |stat| {
        stat.board = Arc::new(common::flat(36, 36));
        stat.uc = None;
    })
}

/// Where marker `k` lies on [`table`]: two rows of three, 10" apart.
fn marker_xy(k: usize) -> (u8, u8) {
    (8 + 10 * (k % 3) as u8, 12 + 12 * (k / 3) as u8)
}

/// A set-up flat game with everything in known places: side 0's models along row 4, side 1's
/// along row 31 (3" apart, no AP), the six markers face down and unlooked-at on
/// [`marker_xy`], side 0 seeking 2 and side 1 seeking 3, at side 0's activation choice.
fn table() -> GameState {
    let s = flat_hunt(3);
    common::edited(&s, |d| {
        let mut next = [0u8; 2];
        for m in d.models.iter_mut() {
            let side = m.side as usize;
            m.cell = 4 + 3 * next[side] as CellIdx + 36 * if side == 0 { 4 } else { 31 };
            next[side] += 1;
            m.z = 0;
            m.health = Health::Conscious;
            m.ap = 0;
        }
        for (k, mk) in d.scenario.markers.iter_mut().enumerate() {
            let (x, y) = marker_xy(k);
            mk.cell = x as CellIdx + 36 * y as CellIdx;
            mk.placed = true;
            mk.holder = None;
            mk.number = None;
            mk.known = 0;
            mk.not = 0;
        }
        d.scenario.sought = [Some(2), Some(3), None];
        d.scenario.vp = [0; 3];
        d.turn = 2;
        d.active = 0;
        d.activating = None;
        d.steps = vec![Step::ChooseActivation].into();
    })
}

fn cell(x: u8, y: u8) -> CellIdx {
    x as CellIdx + 36 * y as CellIdx
}

/// The first model of `side` (k = 0) or its k-th.
fn model_of(s: &GameState, side: Side, k: usize) -> ModelId {
    s.models().iter().enumerate().filter(|(_, m)| m.side == side).nth(k).unwrap().0 as ModelId
}

/// `m` standing at `at` with 2 AP, choosing its action.
fn activate(s: &GameState, m: ModelId, at: (u8, u8)) -> GameState {
    common::edited(s, |d| {
        let model = &mut d.models[m as usize];
        model.cell = cell(at.0, at.1);
        model.ap = 2;
        model.activated = false;
        d.active = model.side;
        d.activating = Some(m);
        d.steps = vec![Step::ChooseActivation, Step::ChooseAction(m)].into();
    })
}

fn look_action(m: ModelId, marker: u8) -> Action {
    Action::Interact { kind: InteractKind::Marker { marker }, target: m }
}

/// At a chance node, apply the outcome after which `pick` holds.
fn force_where(s: &mut GameState, pick: impl Fn(&GameState) -> bool) {
    assert_eq!(s.current_player(), Player::Chance, "at {}", s.describe_node());
    let n = s.chance_outcomes().len();
    let i = (0..n)
        .find(|&i| {
            let mut c = s.clone();
            c.apply_action(Action::Chance(i as u8)).unwrap();
            pick(&c)
        })
        .expect("an outcome that fits");
    s.apply_action(Action::Chance(i as u8)).unwrap();
}

/// The value each outcome of the chance node on top leads to, with its probability.
fn outcome_values(s: &GameState, value: impl Fn(&GameState) -> u8) -> Vec<(u8, f64)> {
    s.chance_outcomes()
        .into_iter()
        .map(|(a, p)| {
            let mut c = s.clone();
            c.apply_action(a).unwrap();
            (value(&c), p)
        })
        .collect()
}

fn assert_uniform_over(values: &[(u8, f64)], expected: &[u8]) {
    let got: BTreeSet<u8> = values.iter().map(|v| v.0).collect();
    assert_eq!(values.len(), expected.len(), "one outcome per number: {values:?}");
    assert_eq!(got, expected.iter().copied().collect(), "{values:?}");
    for &(_, p) in values {
        assert!((p - 1.0 / expected.len() as f64).abs() < 1e-12, "uniform odds: {values:?}");
    }
}

/// Give markers to models: `numbers[side]` are the numbers of the markers each side carries
/// (all on the side's first model), the others lie face down where they are.
fn holding(s: &GameState, numbers: [&[u8]; 2]) -> GameState {
    let carriers = [model_of(s, 0, 0), model_of(s, 1, 0)];
    common::edited(s, |d| {
        let mut k = 0;
        for side in 0..2 {
            for &n in numbers[side] {
                let mk = &mut d.scenario.markers[k];
                mk.holder = Some(carriers[side]);
                mk.placed = false;
                mk.number = Some(n);
                mk.known = 0b11;
                mk.shown = true;
                k += 1;
            }
        }
    })
}

/// The state as the end-of-turn check of `turn` sees it.
fn end_of_turn(s: &GameState, turn: u8) -> GameState {
    common::edited(s, |d| {
        d.turn = turn;
        d.activating = None;
        d.steps = vec![Step::EndTurn].into();
    })
}

// ---------------------------------------------------------------------------------------------
// Set-up and deployment.

/// What the set-up checks saw.
#[derive(Default)]
struct SetupLog {
    marker_sides: Vec<Side>,
    group_choices: [usize; 2],
    infiltrator_sides: Vec<Side>,
    placement_fallbacks: usize,
    deploy_fallbacks: usize,
}

/// Check one set-up node against the rulebook.
fn check_setup_node(s: &GameState, log: &mut SetupLog, ctx: &str) {
    let Some(Step::Scenario(step)) = top(s) else { return };
    let board = s.board();
    let d = s.dynamic();
    let sc = &d.scenario;
    let a = player_a(s);
    match step {
        ScenarioStep::PlaceMarker { side, marker } => {
            // "Starting with player A each player should take turns placing these markers".
            assert_eq!(side, if marker % 2 == 0 { a } else { 1 - a }, "{ctx}: marker {marker}");
            assert_eq!(s.current_player(), Player::Side(side));
            log.marker_sides.push(side);
            let placed: Vec<CellIdx> = sc.markers.iter().filter(|m| m.placed).map(|m| m.cell).collect();
            assert_eq!(placed.len(), marker as usize, "{ctx}: earlier markers are on the table");
            let offered = deploy_cells(s);
            let strict: BTreeSet<CellIdx> = (0..board.len() as CellIdx)
                .filter(|&c| ground(board, c) && edge_gap(board, c) >= MARKER_EDGE)
                .filter(|&c| placed.iter().all(|&p| inches(board, c, p) > MARKER_GAP))
                .collect();
            if strict.is_empty() {
                // No legal place is left on a crowded board: anywhere at ground level.
                log.placement_fallbacks += 1;
                let all: BTreeSet<CellIdx> =
                    (0..board.len() as CellIdx).filter(|&c| ground(board, c)).collect();
                assert_eq!(offered, all, "{ctx}: fallback for marker {marker}");
            } else {
                assert_eq!(offered, strict, "{ctx}: cells for marker {marker}");
            }
        }
        ScenarioStep::ChooseGroup(side) => {
            assert_eq!(s.current_player(), Player::Side(side));
            log.group_choices[side as usize] += 1;
            for action in s.legal_actions() {
                let Action::Nominate(m) = action else { panic!("{ctx}: {action}") };
                let model = &d.models[m as usize];
                assert_eq!(model.side, side, "{ctx}: own models only");
                assert!(!is_scout(s, m), "{ctx}: infiltrators are set aside, not grouped");
                assert_eq!(sc.group & (1 << m), 0, "{ctx}: not already in the group");
            }
        }
        ScenarioStep::ChooseZone { side, zone } => {
            assert_eq!(zone, ZoneKind::FirstCorner);
            let offered: BTreeSet<u8> = s
                .legal_actions()
                .into_iter()
                .map(|a| match a {
                    Action::Zone(z) => z,
                    other => panic!("{ctx}: {other}"),
                })
                .collect();
            if side == a {
                // Player A chooses first: any corner.
                assert_eq!(offered, (0..4).collect(), "{ctx}: player A may take any corner");
            } else {
                // "any corner Deployment Zone except the one diagonal to Player A's" (and not
                // A's own).
                let a_first = sc.zones[a as usize][0];
                let expected: BTreeSet<u8> = (0..4).filter(|&c| adjacent(board, c, a_first)).collect();
                assert_eq!(offered, expected, "{ctx}: player B's corners beside A's {a_first}");
                assert!(offered.iter().all(|&c| !diagonal(board, c, a_first) && c != a_first));
            }
        }
        ScenarioStep::Deploy { model, placement } => {
            let side = d.models[model as usize].side;
            assert_eq!(s.current_player(), Player::Side(side));
            let offered = deploy_cells(s);
            let enemy_near = |c: CellIdx| {
                d.models.iter().any(|m| m.side != side && m.is_on_table() && chebyshev(board, m.cell, c) <= 1)
            };
            let free = |c: CellIdx| {
                ground(board, c) && !d.models.iter().any(|m| m.is_on_table() && m.cell == c) && !enemy_near(c)
            };
            let in_group = sc.group & (1 << model) != 0;
            let rule: Box<dyn Fn(CellIdx) -> bool> = match placement {
                Placement::Crew => {
                    assert!(in_group, "{ctx}: the first corner takes the first group");
                    let corner = sc.zones[side as usize][0];
                    Box::new(move |c| in_corner(board, c, corner))
                }
                Placement::SecondGroup => {
                    assert!(!in_group && !is_scout(s, model), "{ctx}: second group");
                    let corner = sc.zones[side as usize][1];
                    Box::new(move |c| in_corner(board, c, corner))
                }
                Placement::Infiltrator(None) => {
                    assert!(is_scout(s, model), "{ctx}: only infiltrators deploy anywhere");
                    log.infiltrator_sides.push(side);
                    // Every corner group is on the table before the infiltrators come.
                    for (i, m) in d.models.iter().enumerate() {
                        if !is_scout(s, i as ModelId) {
                            assert!(m.is_on_table(), "{ctx}: m{i} deployed before infiltrators");
                        }
                    }
                    Box::new(move |c| {
                        d.models
                            .iter()
                            .filter(|m| m.side != side && m.is_on_table())
                            .all(|m| inches(board, c, m.cell) > INFILTRATOR_GAP)
                            && sc
                                .markers
                                .iter()
                                .filter(|mk| mk.placed && mk.holder.is_none())
                                .all(|mk| inches(board, c, mk.cell) > INFILTRATOR_GAP)
                    })
                }
                other => panic!("{ctx}: unexpected placement {other:?}"),
            };
            let strict: BTreeSet<CellIdx> =
                (0..board.len() as CellIdx).filter(|&c| free(c) && rule(c)).collect();
            if strict.is_empty() {
                log.deploy_fallbacks += 1;
                assert!(!offered.is_empty(), "{ctx}: a model is always placed somewhere");
            } else {
                assert_eq!(offered, strict, "{ctx}: cells for m{model} ({placement:?})");
            }
        }
        _ => {}
    }
}

#[test]
fn random_set_ups_offer_exactly_the_placements_the_rulebook_allows() {
    let boards = ["sunken_plaza", "lagoon_docks", "mangrove_ruins", "drowned_boulevard"];
    let crews = [
        ["militia_100", "the_firm_100"],
        ["artifacters_150", "bondsmen_150"],
        ["militia_150_levy", "the_firm_150_racket"],
        ["the_firm_100_melee", "militia_sappers_100"],
    ];
    let mut total = SetupLog::default();
    let mut corner_pairs = BTreeSet::new();
    let mut games = 0;
    for (bi, board) in boards.iter().enumerate() {
        for (ci, pair) in crews.iter().enumerate() {
            for seed in 0..3u64 {
                let ctx = format!("{board} {pair:?} seed {seed}");
                let mut s = common::scenario_game(Scenario::ScavengerHunt, board, *pair);
                let mut log = SetupLog::default();
                common::finish_setup(&mut s, seed * 100 + (bi * 4 + ci) as u64, |st| {
                    check_setup_node(st, &mut log, &ctx)
                });
                games += 1;
                let d = s.dynamic();
                let sc = &d.scenario;
                let a = player_a(&s);
                let b = 1 - a;
                let bd = s.board();

                // Markers: six, placed alternately from player A, all face down.
                assert_eq!(log.marker_sides, vec![a, b, a, b, a, b], "{ctx}");
                assert_eq!(sc.markers.len(), 6);
                for mk in &sc.markers {
                    assert!(mk.placed && mk.holder.is_none(), "{ctx}: {mk:?}");
                    assert_eq!((mk.number, mk.known, mk.not), (None, 0, 0), "{ctx}: nobody has looked");
                }

                // Corners: B beside A, each side's second corner diagonal to its first.
                let [a1, a2] = sc.zones[a as usize];
                let [b1, b2] = sc.zones[b as usize];
                assert!(adjacent(bd, a1, b1), "{ctx}: B's corner {b1} is not diagonal to A's {a1}");
                assert!(diagonal(bd, a1, a2) && diagonal(bd, b1, b2), "{ctx}: second corners");
                assert_eq!([a1, a2, b1, b2].into_iter().collect::<BTreeSet<u8>>().len(), 4, "{ctx}");
                corner_pairs.insert((a1, b1));

                // Groups "with as equal numbers as possible", infiltrators set aside.
                for side in [0u8, 1] {
                    let grouped: Vec<ModelId> = (0..d.models.len() as ModelId)
                        .filter(|&m| d.models[m as usize].side == side && !is_scout(&s, m))
                        .collect();
                    let first = grouped.iter().filter(|&&m| sc.group & (1 << m) != 0).count();
                    let second = grouped.len() - first;
                    assert!(first == second || first == second + 1, "{ctx}: groups {first} and {second}");
                    assert_eq!(log.group_choices[side as usize], first, "{ctx}");
                    for m in (0..d.models.len() as ModelId).filter(|&m| d.models[m as usize].side == side) {
                        let model = &d.models[m as usize];
                        assert_eq!(model.health, Health::Conscious, "{ctx}: m{m} deployed");
                        assert!(ground(bd, model.cell), "{ctx}: m{m} at ground level");
                        if log.deploy_fallbacks == 0 && !is_scout(&s, m) {
                            let corner = sc.zones[side as usize][usize::from(sc.group & (1 << m) == 0)];
                            assert!(in_corner(bd, model.cell, corner), "{ctx}: m{m} in corner {corner}");
                        }
                    }
                }
                let cells: BTreeSet<CellIdx> = d.models.iter().map(|m| m.cell).collect();
                assert_eq!(cells.len(), d.models.len(), "{ctx}: one model per cell");

                // Infiltrators take turns, beginning with player A.
                let mut left = [0usize; 2];
                for m in 0..d.models.len() as ModelId {
                    if is_scout(&s, m) {
                        left[d.models[m as usize].side as usize] += 1;
                    }
                }
                let mut expected = Vec::new();
                while left != [0, 0] {
                    for side in [a, b] {
                        if left[side as usize] > 0 {
                            left[side as usize] -= 1;
                            expected.push(side);
                        }
                    }
                }
                assert_eq!(log.infiltrator_sides, expected, "{ctx}: infiltrator order");

                // "Then begin the game, with Player B taking the first Activation."
                assert_eq!((d.initiative, d.active, d.turn), (b, b, 1), "{ctx}");
                // Both sides seek a number, and not the same one.
                let [sa, sb] = [sc.sought[0].expect("side 0 seeks"), sc.sought[1].expect("side 1 seeks")];
                assert_ne!(sa, sb, "{ctx}");
                assert!((1..=6).contains(&sa) && (1..=6).contains(&sb));

                total.placement_fallbacks += log.placement_fallbacks;
                total.deploy_fallbacks += log.deploy_fallbacks;
            }
        }
    }
    // The random choices explored the corners, and the fallbacks stay exceptional.
    assert!(corner_pairs.len() >= 6, "corner choices explored: {corner_pairs:?}");
    assert!(total.deploy_fallbacks == 0, "{} deployments found no legal cell", total.deploy_fallbacks);
    assert!(total.placement_fallbacks * 10 < games * 6, "{} marker fallbacks", total.placement_fallbacks);
}

#[test]
fn a_second_marker_may_not_lie_within_five_inches_of_the_first() {
    // On the flat table: the first marker at (10,10); the second not at (16,10) (5" away, base
    // edge to base edge) but at (17,10); nothing within 5" of the edges.
    let mut s = flat_hunt_setup();
    while !matches!(top(&s), Some(Step::Scenario(ScenarioStep::PlaceMarker { .. }))) {
        match s.current_player() {
            Player::Chance => s.apply_action(Action::Chance(0)).unwrap(),
            _ => {
                let a = s.legal_actions()[0];
                s.apply_action(a).unwrap()
            }
        }
    }
    let first = deploy_cells(&s);
    assert!(first.contains(&cell(5, 5)) && first.contains(&cell(30, 30)));
    assert!(!first.contains(&cell(4, 10)) && !first.contains(&cell(31, 10)) && !first.contains(&cell(10, 4)));
    assert_eq!(first.len(), 26 * 26, "every cell at least 5\" from every edge");
    s.apply_action(Action::Deploy(cell(10, 10))).unwrap();
    let second = deploy_cells(&s);
    assert!(!second.contains(&cell(16, 10)) && !second.contains(&cell(14, 14)));
    assert!(second.contains(&cell(17, 10)) && second.contains(&cell(15, 15)));
    assert_eq!(s.apply_action(Action::Deploy(cell(16, 10))).map_err(|_| ()), Err(()));
}

// ---------------------------------------------------------------------------------------------
// The numbers sought.

#[test]
fn on_turn_one_both_sides_roll_a_number_and_never_the_same() {
    for seed in 0..4u64 {
        let s =
            common::scenario_game(Scenario::ScavengerHunt, "mangrove_ruins", ["militia_100", "the_firm_100"]);
        let mut s = s;
        // Play the set-up up to player A's roll.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !matches!(top(&s), Some(Step::Scenario(ScenarioStep::RollSought(_)))) {
            let action = match s.current_player() {
                Player::Chance => s.sample_chance(&mut rng).unwrap(),
                _ => {
                    let legal = s.legal_actions();
                    legal[rand::Rng::gen_range(&mut rng, 0..legal.len())]
                }
            };
            s.apply_action(action).unwrap();
        }
        let a = player_a(&s);
        let b = 1 - a;
        assert_eq!(s.turn(), 1);
        assert_eq!(top(&s), Some(Step::Scenario(ScenarioStep::RollSought(a))), "player A rolls first");
        let rolled = outcome_values(&s, |c| c.dynamic().scenario.sought[a as usize].unwrap());
        assert_uniform_over(&rolled, &[1, 2, 3, 4, 5, 6]);
        for i in 0..6u8 {
            let mut c = s.clone();
            c.apply_action(Action::Chance(i)).unwrap();
            let na = c.dynamic().scenario.sought[a as usize].unwrap();
            assert_eq!(top(&c), Some(Step::Scenario(ScenarioStep::RollSought(b))));
            let others: Vec<u8> = (1..=6).filter(|&n| n != na).collect();
            let rolled = outcome_values(&c, |c| c.dynamic().scenario.sought[b as usize].unwrap());
            assert_uniform_over(&rolled, &others);
        }
    }
}

#[test]
fn a_side_that_found_its_number_rolls_one_it_does_not_hold() {
    // Side 0 has found 2 and 5 and seeks nothing; side 1 holds 3 and still seeks 4.
    let s = holding(&table(), [&[2, 5], &[3]]);
    let s = common::edited(&s, |d| {
        d.scenario.sought = [None, Some(4), None];
        d.turn = 3;
        d.steps = vec![Step::StartTurn].into();
    });
    assert_eq!(top(&s), Some(Step::Scenario(ScenarioStep::RollSought(0))), "only side 0 rolls");
    let rolled = outcome_values(&s, |c| c.dynamic().scenario.sought[0].unwrap());
    // Not a number it holds; the enemy's marker (3) and the enemy's number (4) may come up
    // after the first turn (special rule 4).
    assert_uniform_over(&rolled, &[1, 3, 4, 6]);
    for i in 0..4u8 {
        let mut c = s.clone();
        c.apply_action(Action::Chance(i)).unwrap();
        assert_eq!(c.dynamic().scenario.sought[1], Some(4), "side 1 keeps its number");
        assert!(!matches!(top(&c), Some(Step::Scenario(ScenarioStep::RollSought(_)))), "one roll only");
    }
}

#[test]
fn a_side_that_picked_up_the_number_it_seeks_has_found_it_and_rolls_again() {
    // Side 0 seeks 5 and picked up the dropped marker 5 (special rules 3 and 6): at the next
    // initiative phase it has found its objective and seeks a new number.
    let s = holding(&table(), [&[5], &[]]);
    let s = common::edited(&s, |d| {
        d.scenario.sought = [Some(5), Some(3), None];
        d.turn = 3;
        d.steps = vec![Step::StartTurn].into();
    });
    assert_eq!(top(&s), Some(Step::Scenario(ScenarioStep::RollSought(0))), "at {}", s.describe_node());
    let rolled = outcome_values(&s, |c| c.dynamic().scenario.sought[0].unwrap());
    assert_uniform_over(&rolled, &[1, 2, 3, 4, 6]);
}

// ---------------------------------------------------------------------------------------------
// Looking at markers.

#[test]
fn looking_at_a_marker_costs_an_ap_and_draws_uniformly_among_the_numbers_not_drawn() {
    let s = table();
    // Side 1 has already seen marker 1: it is a 4.
    let s = common::edited(&s, |d| {
        d.scenario.markers[1].number = Some(4);
        d.scenario.markers[1].known = 0b10;
    });
    let m = model_of(&s, 0, 0);
    let (mx, my) = marker_xy(0);
    let mut s = activate(&s, m, (mx, my - 1));
    let look = look_action(m, 0);
    assert!(s.legal_actions().contains(&look), "a model in base contact may look");
    s.apply_action(look).unwrap();
    common::decline_declarations(&mut s);
    assert_eq!(s.models()[m as usize].ap, 1, "an Interact action costs 1 AP");
    // No test: the next node is the number's draw.
    assert_eq!(top(&s), Some(Step::Scenario(ScenarioStep::DrawNumber { marker: 0 })));
    let drawn = outcome_values(&s, |c| c.dynamic().scenario.markers[0].number.unwrap());
    assert_uniform_over(&drawn, &[1, 2, 3, 5, 6]);
}

#[test]
fn a_model_not_touching_a_marker_cannot_look_at_it() {
    let s = table();
    let m = model_of(&s, 0, 0);
    let (mx, my) = marker_xy(0);
    let s = activate(&s, m, (mx, my - 2));
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Interact { kind: InteractKind::Marker { .. }, .. })),
        "1\" away is not base contact"
    );
}

/// Side 0's first model looks at marker 0 and finds `n` under it.
fn look_and_find(s: &GameState, n: u8) -> (GameState, ModelId) {
    let m = model_of(s, 0, 0);
    let (mx, my) = marker_xy(0);
    let mut s = activate(s, m, (mx, my - 1));
    s.apply_action(look_action(m, 0)).unwrap();
    common::decline_declarations(&mut s);
    force_where(&mut s, |c| c.dynamic().scenario.markers[0].number == Some(n));
    (s, m)
}

#[test]
fn finding_the_number_sought_carries_the_marker_off_and_shows_it_to_the_opponent() {
    let s = table(); // side 0 seeks 2
    let (s, m) = look_and_find(&s, 2);
    let mk = s.dynamic().scenario.markers[0];
    assert_eq!(mk.holder, Some(m), "the model carries it");
    assert!(!mk.is_loose(), "removed from the board");
    assert_eq!(mk.known, 0b11, "shown to the opponent");
    assert_eq!(s.observation(1).scenario.markers[0].number, Some(2), "side 1 sees the number");
    assert_eq!(s.dynamic().scenario.sought[0], None, "side 0 has found its number");
    assert_eq!(s.dynamic().scenario.sought[1], Some(3));
    // The carrier's side holds it: one marker at the end scores 1.
    let end = end_of_turn(&s, 6);
    assert!(end.is_terminal());
    assert_eq!(end.outcome().vp[..2], [1, 0]);
}

#[test]
fn a_wrong_number_is_put_back_and_only_its_finder_learns_it() {
    let s = table(); // side 0 seeks 2
    let (s, m) = look_and_find(&s, 5);
    let mk = s.dynamic().scenario.markers[0];
    assert_eq!(mk.holder, None, "put back");
    assert!(mk.is_loose());
    assert_eq!(mk.cell, table().dynamic().scenario.markers[0].cell, "where it was");
    assert_eq!(mk.known, 0b01, "only side 0 knows it");
    assert_eq!(mk.not, 1 << 2, "everyone knows it is not 2, the number side 0 seeks");
    assert_eq!(s.dynamic().scenario.sought[0], Some(2), "still seeking 2");
    assert_eq!(s.observation(0).scenario.markers[0].number, Some(5));
    assert_eq!(s.observation(1).scenario.markers[0].number, None, "not obliged to tell the opponent");
    assert_eq!(s.observation(1).scenario.markers[0].not, 1 << 2);

    // Looking again at a number it knows and does not seek is not offered...
    let again = activate(&s, m, marker_xy_above(0));
    assert!(!again.legal_actions().contains(&look_action(m, 0)), "no second look at a known 5");
    // ...but the enemy may look, and find 5 if it seeks 5, without a new draw.
    let enemy = model_of(&s, 1, 0);
    let s5 = common::edited(&s, |d| d.scenario.sought[1] = Some(5));
    let mut e = activate(&s5, enemy, marker_xy_below(0));
    assert!(e.legal_actions().contains(&look_action(enemy, 0)));
    e.apply_action(look_action(enemy, 0)).unwrap();
    common::decline_declarations(&mut e);
    assert_ne!(e.current_player(), Player::Chance, "the number is already drawn");
    assert_eq!(e.dynamic().scenario.markers[0].holder, Some(enemy));
    assert_eq!(e.dynamic().scenario.markers[0].number, Some(5), "the number does not change");

    // Once side 0 seeks 5 itself, it may go back for it and take it.
    let s5 = common::edited(&s, |d| d.scenario.sought[0] = Some(5));
    let mut back = activate(&s5, m, marker_xy_above(0));
    assert!(back.legal_actions().contains(&look_action(m, 0)));
    back.apply_action(look_action(m, 0)).unwrap();
    common::decline_declarations(&mut back);
    assert_eq!(back.dynamic().scenario.markers[0].holder, Some(m));
    assert_eq!(back.dynamic().scenario.sought[0], None);
}

fn marker_xy_above(k: usize) -> (u8, u8) {
    let (x, y) = marker_xy(k);
    (x, y - 1)
}

fn marker_xy_below(k: usize) -> (u8, u8) {
    let (x, y) = marker_xy(k);
    (x, y + 1)
}

#[test]
fn a_marker_both_sides_put_back_cannot_be_taken_by_a_side_not_seeking_it() {
    // Side 0 (seeking 2) looks at marker 0 and puts back a 5; side 1 (seeking 3) looks at it
    // and puts it back too. Neither may take it: only the number sought is taken (special
    // rule 2), and it was never dropped (rule 6).
    let (s, m) = look_and_find(&table(), 5);
    let enemy = model_of(&s, 1, 0);
    let mut e = activate(&s, enemy, marker_xy_below(0));
    e.apply_action(look_action(enemy, 0)).unwrap();
    common::decline_declarations(&mut e);
    let mk = e.dynamic().scenario.markers[0];
    assert_eq!((mk.holder, mk.known), (None, 0b11), "both sides now know the 5");
    for (model, at) in [(m, marker_xy_above(0)), (enemy, marker_xy_below(0))] {
        let a = activate(&e, model, at);
        assert!(
            !a.legal_actions().contains(&look_action(model, 0)),
            "m{model} may neither look again nor take a marker it does not seek"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Dropping and picking up.

/// `carrier` holds the markers `numbers` (0.., public) and is about to fail a fire roll with
/// one wound left.
fn burning_carrier(s: &GameState, carrier: ModelId, at: (u8, u8), numbers: &[u8]) -> GameState {
    common::edited(s, |d| {
        for (k, &n) in numbers.iter().enumerate() {
            let mk = &mut d.scenario.markers[k];
            mk.holder = Some(carrier);
            mk.placed = false;
            mk.number = Some(n);
            mk.known = 0b11;
            mk.shown = true;
        }
        let c = &mut d.models[carrier as usize];
        c.cell = cell(at.0, at.1);
        c.wounds = 1;
        c.tokens.fire = 1;
        d.steps.push(Step::FireRoll { model: carrier });
    })
}

/// Fail the fire roll: the carrier takes a wound and goes down.
fn fail_fire_roll(s: &mut GameState, carrier: ModelId) {
    force_where(s, |c| c.models()[carrier as usize].is_unconscious());
}

#[test]
fn a_carrier_put_down_drops_its_marker_where_the_enemy_chooses_and_the_enemy_scores_one() {
    let s = table();
    let carrier = model_of(&s, 0, 1);
    let mut s = burning_carrier(&s, carrier, (20, 20), &[4]);
    fail_fire_roll(&mut s, carrier);
    assert_eq!(s.models()[carrier as usize].health, Health::Down);
    assert_eq!(s.dynamic().scenario.vp[..2], [0, 1], "1 VP to the enemy for the carrier");
    assert_eq!(s.current_player(), Player::Side(1), "the enemy places the dropped marker");
    let offered = deploy_cells(&s);
    let around: BTreeSet<CellIdx> =
        (19..=21).flat_map(|x| (19..=21).map(move |y| cell(x, y))).filter(|&c| c != cell(20, 20)).collect();
    assert_eq!(offered, around, "anywhere in base contact with the carrier");
    s.apply_action(Action::Deploy(cell(21, 19))).unwrap();
    let mk = s.dynamic().scenario.markers[0];
    assert!(mk.is_loose() && mk.cell == cell(21, 19), "{mk:?}");
    assert_eq!((mk.number, mk.known), (Some(4), 0b11), "a dropped marker stays revealed");

    // Any model in base contact may pick it up by an Interact action: an enemy model...
    let picker = model_of(&s, 1, 2);
    let mut p = activate(&s, picker, (22, 18));
    let take = look_action(picker, 0);
    assert!(p.legal_actions().contains(&take));
    p.apply_action(take).unwrap();
    common::decline_declarations(&mut p);
    assert_ne!(p.current_player(), Player::Chance, "no draw for a revealed marker");
    assert_eq!(p.dynamic().scenario.markers[0].holder, Some(picker));
    assert_eq!(p.models()[picker as usize].ap, 1, "1 AP");
    assert_eq!(p.dynamic().scenario.sought, [Some(2), Some(3), None], "picking up is not finding");
    // ...or a friend of the carrier.
    let friend = model_of(&s, 0, 2);
    let mut f = activate(&s, friend, (22, 20));
    f.apply_action(look_action(friend, 0)).unwrap();
    common::decline_declarations(&mut f);
    assert_eq!(f.dynamic().scenario.markers[0].holder, Some(friend));
    // And a model not in base contact cannot.
    let far = activate(&s, picker, (23, 19));
    assert!(!far.legal_actions().contains(&look_action(picker, 0)));
}

#[test]
fn a_carrier_with_two_markers_drops_both_but_scores_the_enemy_one_vp() {
    let s = table();
    let carrier = model_of(&s, 1, 0);
    let mut s = burning_carrier(&s, carrier, (10, 20), &[1, 6]);
    fail_fire_roll(&mut s, carrier);
    assert_eq!(s.dynamic().scenario.vp[..2], [1, 0], "one carrier put down: 1 VP");
    let mut placed = Vec::new();
    for _ in 0..2 {
        match top(&s) {
            Some(Step::Scenario(ScenarioStep::DropMarker { marker, chooser, carrier: c })) => {
                assert_eq!((chooser, c), (0, carrier));
                let target = if placed.is_empty() { cell(9, 20) } else { cell(11, 21) };
                s.apply_action(Action::Deploy(target)).unwrap();
                placed.push((marker, target));
            }
            other => panic!("expected a dropped marker, got {other:?}"),
        }
    }
    placed.sort();
    assert_eq!(placed.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0, 1]);
    for (marker, at) in placed {
        let mk = s.dynamic().scenario.markers[marker as usize];
        assert!(mk.is_loose() && mk.cell == at);
    }
    assert_eq!(s.dynamic().scenario.vp[..2], [1, 0]);
}

// ---------------------------------------------------------------------------------------------
// Hidden information.

/// Marker 0 looked at by side 0 only, with number `n`.
fn seen_by_side_0(n: u8) -> GameState {
    common::edited(&table(), |d| {
        let mk = &mut d.scenario.markers[0];
        mk.number = Some(n);
        mk.known = 0b01;
        mk.not = 1 << 2;
    })
}

#[test]
fn a_number_only_side_0_has_seen_is_invisible_to_side_1() {
    let (x, y) = (seen_by_side_0(3), seen_by_side_0(5));
    assert_ne!(x, y);
    assert_ne!(x.state_hash(), y.state_hash());
    assert_eq!(x.observation(1), y.observation(1), "side 1 cannot tell them apart");
    assert_eq!(x.masked(1), y.masked(1));
    assert_eq!(x.information_state_key(1), y.information_state_key(1));
    assert_eq!(x.observation(1).scenario.markers[0].number, None);
    assert_eq!(x.observation(1).scenario.markers[0].not, 1 << 2, "what is public stays visible");
    assert_ne!(x.observation(0), y.observation(0), "side 0 can");
    assert_eq!(x.observation(0).scenario.markers[0].number, Some(3));
    assert_ne!(x.masked(0), y.masked(0));
    assert_ne!(x.information_state_key(0), y.information_state_key(0));
    // The two sides' keys differ even for the same state.
    assert_ne!(x.information_state_key(0), x.information_state_key(1));
}

#[test]
fn the_information_state_follows_what_was_really_seen_in_play() {
    // Side 0 looks at marker 0 in play and puts back whatever it finds (not 2).
    let mut keys = BTreeMap::new();
    for n in [1u8, 3, 4, 5, 6] {
        let (s, _) = look_and_find(&table(), n);
        keys.insert(n, (s.information_state_key(0), s.information_state_key(1), s.observation(1)));
    }
    let first = keys.values().next().unwrap().clone();
    for (n, (k0, k1, obs1)) in &keys {
        assert_eq!(*k1, first.1, "side 1's key does not depend on the {n} side 0 saw");
        assert_eq!(*obs1, first.2);
        if *n != 1 {
            assert_ne!(*k0, first.0, "side 0's key does");
        }
    }
}

/// A position with every kind of number: marker 0 seen by side 1 only (2), markers 1 and 2 by
/// side 0 only (4, publicly not 3 or 5; and 6), marker 3 carried by side 0 (1, public),
/// markers 4 and 5 not looked at.
fn mixed_knowledge() -> GameState {
    let carrier = model_of(&table(), 0, 0);
    common::edited(&table(), |d| {
        let m = &mut d.scenario.markers;
        (m[0].number, m[0].known) = (Some(2), 0b10);
        (m[1].number, m[1].known, m[1].not) = (Some(4), 0b01, (1 << 3) | (1 << 5));
        (m[2].number, m[2].known) = (Some(6), 0b01);
        (m[3].number, m[3].known, m[3].holder, m[3].placed) = (Some(1), 0b11, Some(carrier), false);
    })
}

#[test]
fn determinizing_keeps_what_the_player_knows_and_samples_the_rest_consistently() {
    let s = mixed_knowledge();
    let mut seen = [BTreeSet::new(), BTreeSet::new()];
    let mut pairs = BTreeSet::new();
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let w = s.determinize(1, &mut rng);
        assert_eq!(w.masked(1), s.masked(1), "seed {seed}: only facts hidden from side 1 change");
        assert_eq!(w.information_state_key(1), s.information_state_key(1));
        let mk = &w.dynamic().scenario.markers;
        assert_eq!(mk[0].number, Some(2), "side 1's own knowledge");
        assert_eq!(mk[3].number, Some(1), "public knowledge");
        assert_eq!((mk[4].number, mk[5].number), (None, None), "nobody has looked: nothing to sample");
        let (n1, n2) = (mk[1].number.unwrap(), mk[2].number.unwrap());
        assert_ne!(n1, n2, "seed {seed}: numbers are distinct");
        for (k, n) in [(1, n1), (2, n2)] {
            assert!((1..=6).contains(&n) && n != 1 && n != 2, "seed {seed}: {n} is known elsewhere");
            assert_eq!(mk[k].not & (1 << n), 0, "seed {seed}: marker {k} is publicly not {n}");
            assert_eq!(
                (mk[k].known, mk[k].not),
                (s.dynamic().scenario.markers[k].known, s.dynamic().scenario.markers[k].not)
            );
        }
        seen[0].insert(n1);
        seen[1].insert(n2);
        pairs.insert((n1, n2));
        // Sampled worlds are full states: play goes on from them.
        assert_eq!(w.legal_actions(), s.legal_actions());
    }
    assert_eq!(seen[0], [4, 6].into_iter().collect(), "marker 1 can only be 4 or 6 to side 1");
    assert_eq!(seen[1], [3, 4, 5, 6].into_iter().collect(), "marker 2 is anything side 1 cannot rule out");
    assert!(pairs.len() >= 5, "the sample varies: {pairs:?}");

    // From side 0's side only marker 0 is hidden: 2, 3 or 5 (side 0 knows 1, 4 and 6).
    let mut zero = BTreeSet::new();
    for seed in 0..100u64 {
        let w = s.determinize(0, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(w.masked(0), s.masked(0));
        let mk = &w.dynamic().scenario.markers;
        assert_eq!(
            [mk[1].number, mk[2].number, mk[3].number],
            [Some(4), Some(6), Some(1)],
            "side 0's knowledge stays"
        );
        zero.insert(mk[0].number.unwrap());
    }
    assert_eq!(zero, [2, 3, 5].into_iter().collect());
}

#[test]
fn determinizing_does_not_read_the_true_number() {
    // Two worlds side 1 cannot tell apart give the same samples for the same seed.
    let (x, y) = (seen_by_side_0(3), seen_by_side_0(5));
    let mut values = BTreeSet::new();
    for seed in 0..100u64 {
        let wx = x.determinize(1, &mut ChaCha8Rng::seed_from_u64(seed));
        let wy = y.determinize(1, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(wx, wy, "seed {seed}: the sample depends only on what side 1 knows");
        let n = wx.dynamic().scenario.markers[0].number.unwrap();
        assert_ne!(n, 2, "publicly not 2");
        values.insert(n);
    }
    assert_eq!(values, [1, 3, 4, 5, 6].into_iter().collect());
}

#[test]
fn a_state_with_nothing_hidden_determinizes_to_itself() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    // Nobody has looked at anything.
    let s = table();
    assert_eq!(s.determinize(0, &mut rng), s);
    assert_eq!(s.determinize(1, &mut rng), s);
    // Every number drawn is public (carried or dropped).
    let public = holding(&table(), [&[3, 6], &[1]]);
    assert_eq!(public.determinize(0, &mut rng), public);
    assert_eq!(public.determinize(1, &mut rng), public);
    // Numbers only side 0 has seen hide nothing from side 0.
    let own = seen_by_side_0(4);
    for seed in 0..20 {
        assert_eq!(own.determinize(0, &mut ChaCha8Rng::seed_from_u64(seed)), own);
    }
    // Straight after a random set-up.
    let fresh = flat_hunt(5);
    assert_eq!(fresh.determinize(1, &mut rng), fresh);
}

// ---------------------------------------------------------------------------------------------
// Game end and scoring.

#[test]
fn from_turn_four_the_game_ends_when_a_side_holds_an_odd_number_above_one_unlike_the_other() {
    let cases: [(u8, &[u8], &[u8], bool); 8] = [
        (4, &[1, 2, 3], &[4], true),
        (5, &[1, 2, 3], &[], true),
        (4, &[1], &[2, 3, 4], true),
        (4, &[1, 2], &[], false),           // even
        (4, &[1, 2, 3], &[4, 5, 6], false), // the same number each
        (4, &[1], &[], false),              // odd but not above 1
        (3, &[1, 2, 3], &[4], false),       // too early
        (2, &[1, 2, 3], &[], false),
    ];
    for (turn, a, b, ends) in cases {
        let s = end_of_turn(&holding(&table(), [a, b]), turn);
        assert_eq!(s.is_terminal(), ends, "turn {turn}, holding {} and {}", a.len(), b.len());
        if ends {
            assert_eq!(s.outcome().vp[..2], [a.len() as i32, b.len() as i32], "1 VP per marker held");
        } else {
            assert_eq!(s.turn(), turn + 1, "the next turn begins");
        }
    }
}

#[test]
fn otherwise_the_game_ends_after_turn_six() {
    let s = end_of_turn(&holding(&table(), [&[1, 2], &[3, 4]]), 6);
    assert!(s.is_terminal());
    assert_eq!(s.outcome().vp[..2], [2, 2]);
    assert_eq!(s.outcome().winner, None);
    let s = end_of_turn(&holding(&table(), [&[1, 2], &[3, 4]]), 5);
    assert!(!s.is_terminal());
}

#[test]
fn the_game_ends_in_the_initiative_phase_when_a_side_has_no_model_to_give_ap() {
    let setup = holding(&table(), [&[2], &[]]);
    let start = |down: usize| {
        common::edited(&setup, |d| {
            for (n, m) in d.models.iter_mut().filter(|m| m.side == 1).enumerate() {
                if n < down {
                    m.health = if n % 2 == 0 { Health::Down } else { Health::TakenOut };
                }
            }
            d.turn = 3;
            d.steps = vec![Step::StartTurn].into();
        })
    };
    let side1 = setup.models().iter().filter(|m| m.side == 1).count();
    // Play the initiative phase: the roll-off and the choice that follows.
    let play = |mut s: GameState| {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..10 {
            match (s.current_player(), top(&s)) {
                (Player::Terminal, _)
                | (_, Some(Step::ChooseActivation))
                | (_, Some(Step::ChooseCard { .. })) => break,
                (Player::Chance, _) => s.apply_action(s.sample_chance(&mut rng).unwrap()).unwrap(),
                _ => s.apply_action(s.legal_actions()[0]).unwrap(),
            }
        }
        s
    };
    let over = play(start(side1));
    assert!(over.is_terminal(), "side 1 has no conscious model: the game ends ({})", over.describe_node());
    assert_eq!(over.turn(), 3);
    assert_eq!(over.outcome().vp[..2], [1, 0], "the marker held still scores");
    assert_eq!(over.returns()[..2], [1.0, -1.0]);
    let on = play(start(side1 - 1));
    assert!(!on.is_terminal(), "one conscious model is enough to go on");
}

#[test]
fn a_finished_game_scores_markers_held_and_enemy_carriers_put_down() {
    // During the game side 1 put down one of side 0's carriers (1 VP) and side 0 put down two
    // of side 1's (2 VP). At the end of turn 4 side 0 holds three markers and side 1 one.
    let s = holding(&table(), [&[1, 4, 6], &[3]]);
    let s = common::edited(&s, |d| d.scenario.vp = [2, 1, 0]);
    let end = end_of_turn(&s, 4);
    assert!(end.is_terminal());
    let o = end.outcome();
    assert_eq!(o.vp[..2], [2 + 3, 1 + 1]);
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.margin(0), 3);
    assert_eq!(o.margin(1), -3);
    assert_eq!(end.returns()[..2], [1.0, -1.0]);
    // A marker on the table, or dropped and not picked up, scores nobody.
    let loose = holding(&table(), [&[1], &[]]);
    let loose = common::edited(&loose, |d| {
        let mk = &mut d.scenario.markers[1];
        (mk.number, mk.known) = (Some(2), 0b11);
    });
    let end = end_of_turn(&loose, 6);
    assert_eq!(end.outcome().vp[..2], [1, 0]);
}

#[test]
fn a_real_carrier_put_down_in_play_counts_at_the_end() {
    // Side 0 finds its number; its carrier is then put down by fire; side 1 picks the marker
    // up; at the end of turn 6 side 1 has 1 VP for the carrier and 1 for the marker.
    let (s, finder) = look_and_find(&table(), 2);
    let at = s.models()[finder as usize].cell;
    let (x, y) = s.board().xy(at);
    let mut s = common::edited(&s, |d| {
        d.steps = vec![Step::ChooseActivation].into();
        d.activating = None;
        let c = &mut d.models[finder as usize];
        c.wounds = 1;
        c.tokens.fire = 1;
        d.steps.push(Step::FireRoll { model: finder });
    });
    fail_fire_roll(&mut s, finder);
    s.apply_action(Action::Deploy(cell(x + 1, y))).unwrap();
    let picker = model_of(&s, 1, 0);
    let mut p = activate(&s, picker, (x + 2, y));
    p.apply_action(look_action(picker, 0)).unwrap();
    common::decline_declarations(&mut p);
    let end = end_of_turn(&p, 6);
    assert!(end.is_terminal());
    assert_eq!(end.outcome().vp[..2], [0, 2]);
}
