//! Scenario 3, Attack and Defend (rulebook p.81): set-up order, objective and model
//! deployment zones, the infiltration table, taking control of objectives by Interact,
//! scoring on turns 2, 4 and 6, and the end of the game.
//!
//! The zones and distances are recomputed here from the rulebook's numbers (4" deployment
//! strip, objective zone 4"–8" from the own edge, markers 8" apart, models 6" from objectives
//! and enemies), not taken from the engine.

mod common;

use common::geometry::{
    chebyshev, edge_of, free, ground, in_strip, no_cards, opposite, own_half, player_a, to_edge, top,
};

use common::{decline_declarations, edited, finish_setup, force_test, in_setup, scenario_game};
use engine::board::{Board, CellIdx, Terrain};
use engine::dice::TestLevel;
use engine::scenario::{MarkerKind, Placement, Scenario, ScenarioStep};
use engine::state::{Health, InteractKind, ModelId, Purpose, Side, Step};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

const SCENARIO: Scenario = Scenario::AttackAndDefend;
/// Two 100-point crews with one Scout (infiltrator) each: m8 (militia ranger, side 0) and m9
/// (firm lookout, side 1); m0 is the militia captain, m4 Kaneda.
const CREWS: [&str; 2] = ["militia_100", "the_firm_100"];
const FIRM_SCOUT: ModelId = 9;
/// A board with open ground in both objective zones (the infiltration tests need some).
const INFILTRATION_BOARD: &str = "mangrove_ruins";

// ---------------------------------------------------------------------------------------
// Geometry from the rulebook: 1" cells, edges 0 = row 0, 1 = last row, 2 = column 0,
// 3 = last column.

/// Base edge to base edge between two 1" bases standing on the two cells (p.9).
fn gap(b: &Board, a: CellIdx, c: CellIdx) -> f32 {
    let (ax, ay) = b.xy(a);
    let (cx, cy) = b.xy(c);
    let dx = ax as f32 - cx as f32;
    let dy = ay as f32 - cy as f32;
    let dz = b.cell(a).height as f32 - b.cell(c).height as f32;
    ((dx * dx + dy * dy + dz * dz).sqrt() - 1.0).max(0.0)
}

/// The objective marker deployment zone: 4" to 8" from the edge (a 1" marker wholly inside).
fn in_objective_band(b: &Board, c: CellIdx, edge: u8) -> bool {
    (4..=7).contains(&to_edge(b, c, edge))
}

fn offered_cells(s: &GameState) -> BTreeSet<CellIdx> {
    s.legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Deploy(c) => c,
            other => panic!("only cells are offered here, got {other:?} at {}", s.describe_node()),
        })
        .collect()
}

/// "All Models must deploy at least 6" away from an objective or an enemy Model."
fn six_inches_clear(s: &GameState, side: Side, c: CellIdx) -> bool {
    let b = s.board();
    let sc = &s.dynamic().scenario;
    sc.markers.iter().filter(|m| m.placed && m.holder.is_none()).all(|m| gap(b, c, m.cell) >= 6.0)
        && s.models().iter().filter(|m| m.side != side && m.is_on_table()).all(|m| gap(b, c, m.cell) >= 6.0)
}

/// The deployment zone the infiltration table (or the crew rule) gives, by the test level.
fn zone_for(s: &GameState, side: Side, placement: Placement, c: CellIdx) -> bool {
    let b = s.board();
    let own = edge_of(s, side);
    match placement {
        Placement::Crew | Placement::Infiltrator(Some(TestLevel::Fail)) => in_strip(b, c, own),
        Placement::Infiltrator(Some(TestLevel::Pass)) => own_half(b, c, own) && !in_objective_band(b, c, own),
        Placement::Infiltrator(Some(TestLevel::NailedIt | TestLevel::Feat)) => {
            own_half(b, c, own) || in_objective_band(b, c, own) || in_objective_band(b, c, opposite(own))
        }
        // The blundered infiltrator arrives on its own board edge.
        Placement::Arrival { .. } => to_edge(b, c, own) == 0,
        other => panic!("Attack and Defend has no {other:?} placement"),
    }
}

/// The cells a model deploying with `level`'s zone may use: zone and distances, or (only
/// when no such cell exists) the zone alone, or anywhere free.
fn expected_cells(s: &GameState, model: ModelId, placement: Placement) -> (BTreeSet<CellIdx>, bool) {
    let side = s.models()[model as usize].side;
    let all: Vec<CellIdx> = (0..s.board().len() as CellIdx).filter(|&c| free(s, side, c)).collect();
    let full: BTreeSet<CellIdx> = all
        .iter()
        .copied()
        .filter(|&c| zone_for(s, side, placement, c) && six_inches_clear(s, side, c))
        .collect();
    if !full.is_empty() {
        return (full, true);
    }
    let zone: BTreeSet<CellIdx> = all.iter().copied().filter(|&c| zone_for(s, side, placement, c)).collect();
    if !zone.is_empty() {
        return (zone, false);
    }
    (all.into_iter().collect(), false)
}

/// The cells where `side` may place its objective: its band, 8" from every marker placed.
fn expected_marker_cells(s: &GameState, side: Side) -> BTreeSet<CellIdx> {
    let b = s.board();
    let own = edge_of(s, side);
    let placed: Vec<CellIdx> =
        s.dynamic().scenario.markers.iter().filter(|m| m.placed).map(|m| m.cell).collect();
    (0..b.len() as CellIdx)
        .filter(|&c| {
            ground(b, c) && in_objective_band(b, c, own) && placed.iter().all(|&p| gap(b, c, p) >= 8.0)
        })
        .collect()
}

fn is_scout(s: &GameState, m: ModelId) -> bool {
    s.profile(m).role == engine::profile::Role::Scout
}

// ---------------------------------------------------------------------------------------
// Driving the set-up.

/// Resolve the set-up with seeded random choices (player A is side 0 and player B puts its
/// edge on row 0 when `fixed_roles`) until `stop` holds.
fn play_until(s: &mut GameState, seed: u64, fixed_roles: bool, stop: impl Fn(&GameState) -> bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !stop(s) {
        assert!(in_setup(s), "set-up ended before the expected node");
        let action = match (s.current_player(), top(s)) {
            (Player::Chance, _) => s.sample_chance(&mut rng).unwrap(),
            (_, Step::Scenario(ScenarioStep::ChooseRoles)) if fixed_roles => Action::PlayerA(0),
            (_, Step::Scenario(ScenarioStep::ChooseZone { .. })) if fixed_roles => Action::Zone(0),
            (Player::Side(_), _) => {
                let legal = s.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
            (Player::Terminal, _) => panic!("terminal in set-up"),
        };
        s.apply_action(action).unwrap();
    }
}

fn at_infiltration_test(model: ModelId) -> impl Fn(&GameState) -> bool {
    move |s| matches!(top(s), Step::Test { model: m, purpose: Purpose::Infiltrate, .. } if m == model)
}

/// A game after a seeded set-up with fixed roles: side 0 is player A on the last row, side 1
/// player B on row 0.
fn deployed(seed: u64) -> GameState {
    let mut s = scenario_game(SCENARIO, "sunken_plaza", CREWS);
    play_until(&mut s, seed, true, |s| !in_setup(s));
    assert_eq!(player_a(&s), 0);
    assert_eq!((edge_of(&s, 1), edge_of(&s, 0)), (0, 1));
    s
}

/// A cell a model can stand on next to a marker: open ground or water at ground level.
fn standable(b: &Board, c: CellIdx) -> bool {
    let cell = b.cell(c);
    matches!(cell.terrain, Terrain::Open | Terrain::Water) && cell.height <= 1
}

/// Two cells touching the marker cell `at`, `apart` cells from each other (Chebyshev), that
/// no model on the table touches.
fn spots_by(s: &GameState, at: CellIdx, apart: i32) -> (CellIdx, CellIdx) {
    let b = s.board();
    let (x, y) = b.xy(at);
    let around: Vec<CellIdx> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .filter_map(|(dx, dy)| b.checked_idx(x as i32 + dx, y as i32 + dy))
        .filter(|&c| standable(b, c))
        .filter(|&c| !s.models().iter().any(|m| m.is_on_table() && chebyshev(b, m.cell, c) <= 1))
        .collect();
    for &p in &around {
        for &q in &around {
            if chebyshev(b, p, q) == apart {
                return (p, q);
            }
        }
    }
    panic!("no two free cells {apart} apart next to {:?}", b.xy(at));
}

/// Put `m` on `cell` (standing, at ground level) in the edited state.
fn put(d: &mut engine::state::DynState, board: &Board, m: ModelId, cell: CellIdx) {
    let model = &mut d.models[m as usize];
    model.cell = cell;
    model.z = board.cell(cell).height;
    model.stance = if board.cell(cell).terrain == Terrain::Water {
        engine::state::Stance::Swimming
    } else {
        engine::state::Stance::Standing
    };
    model.health = Health::Conscious;
}

/// `m`'s activation with `ap` action points on turn `turn`.
fn activation(
    s: &GameState,
    m: ModelId,
    ap: u8,
    edit: impl FnOnce(&mut engine::state::DynState),
) -> GameState {
    edited(s, |d| {
        edit(d);
        d.models[m as usize].ap = ap;
        let side = d.models[m as usize].side;
        d.active = side;
        d.activating = Some(m);
        d.sequence = None;
        d.steps = vec![Step::ChooseActivation, Step::ChooseAction(m)].into();
    })
}

/// The end of turn `turn` (its cleanup done), with the dynamic state changed by `edit`.
fn end_of_turn(s: &GameState, turn: u8, edit: impl FnOnce(&mut engine::state::DynState)) -> GameState {
    edited(s, |d| {
        edit(d);
        // The cleanup has taken the unspent AP.
        for m in d.models.iter_mut() {
            m.ap = 0;
        }
        d.turn = turn;
        d.activating = None;
        d.sequence = None;
        d.steps = vec![Step::EndTurn].into();
    })
}

// ---------------------------------------------------------------------------------------
// Set-up and deployment.

#[derive(Default)]
struct Seen {
    decisions: usize,
    fallbacks: usize,
    infiltration_sides: Vec<Side>,
    marker_order: Vec<Side>,
}

/// Check one set-up node against the rulebook.
fn check_node(s: &GameState, seen: &mut Seen) {
    let b = s.board();
    let a = player_a(s);
    let bside = 1 - a;
    let step = top(s);
    match step {
        Step::Test { model, purpose: Purpose::Infiltrate, rerolled: false, .. } => {
            seen.infiltration_sides.push(s.models()[model as usize].side);
            // Every non-infiltrator of both crews is on the table before any infiltrator.
            for (i, m) in s.models().iter().enumerate() {
                if !is_scout(s, i as ModelId) {
                    assert!(m.is_on_table(), "m{i} deployed before the infiltrators");
                }
            }
        }
        Step::Scenario(ScenarioStep::ChooseZone { side, .. }) => {
            // "Player B chooses a board edge": before the objectives are placed.
            assert_eq!(side, bside, "player B chooses the edge");
            let mut long: Vec<Action> = (0..4u8)
                .filter(|&e| if e < 2 { b.width() >= b.depth() } else { b.depth() >= b.width() })
                .map(Action::Zone)
                .collect();
            long.sort();
            assert_eq!(s.legal_actions(), long, "only long edges are deployment edges (p.76)");
        }
        Step::Scenario(ScenarioStep::PlaceMarker { side, marker }) => {
            seen.decisions += 1;
            seen.marker_order.push(side);
            assert_eq!(s.current_player(), Player::Side(side));
            assert_eq!(
                s.dynamic().scenario.markers[marker as usize].kind,
                MarkerKind::Objective(side),
                "each player places its own objective"
            );
            // The central objective is already in the centre of the board, or on the ground
            // cell nearest to it when the centre is a statue or water (docs/rulings.md).
            let centre = s.dynamic().scenario.markers[0];
            assert_eq!(centre.kind, MarkerKind::Central);
            assert!(centre.placed);
            let (mx, my) = (b.width() as f32 / 2.0, b.depth() as f32 / 2.0);
            let ground = |c: CellIdx| b.cell(c).terrain == Terrain::Open && b.cell(c).height <= 1;
            let off = |c: CellIdx| {
                let (x, y) = b.xy(c);
                ((x as f32 - mx.floor()).powi(2) + (y as f32 - my.floor()).powi(2)).sqrt()
            };
            assert!(ground(centre.cell), "the central objective lies on ground");
            let nearest =
                (0..b.len() as CellIdx).filter(|&c| ground(c)).map(off).fold(f32::INFINITY, f32::min);
            assert_eq!(off(centre.cell), nearest, "no ground cell is nearer the centre");
            let expected = expected_marker_cells(s, side);
            assert!(!expected.is_empty(), "room for the objective");
            assert_eq!(offered_cells(s), expected, "objective cells for side {side}");
        }
        Step::Scenario(ScenarioStep::Deploy { model, placement }) => {
            seen.decisions += 1;
            let side = s.models()[model as usize].side;
            assert_eq!(s.current_player(), Player::Side(side));
            assert_eq!(s.models()[model as usize].health, Health::Reserve);
            // Both objectives are placed before any model deploys.
            assert!(s.dynamic().scenario.markers.iter().all(|m| m.placed));
            match placement {
                Placement::Crew => {
                    assert!(!is_scout(s, model), "infiltrators are set aside");
                    if side == a {
                        // Player A sets up after player B's whole (non-infiltrating) crew.
                        for (i, m) in s.models().iter().enumerate() {
                            if m.side == bside && !is_scout(s, i as ModelId) {
                                assert!(m.is_on_table(), "player B's m{i} deploys before player A");
                            }
                        }
                    } else {
                        assert!(
                            s.models().iter().all(|m| m.side != a || !m.is_on_table()),
                            "player B deploys first"
                        );
                    }
                }
                Placement::Infiltrator(Some(level)) => {
                    assert!(is_scout(s, model));
                    assert_ne!(level, TestLevel::Blunder, "a blundered infiltrator does not deploy now");
                }
                other => panic!("unexpected placement {other:?} in the set-up"),
            }
            let (expected, full) = expected_cells(s, model, placement);
            if !full {
                seen.fallbacks += 1;
            }
            assert_eq!(offered_cells(s), expected, "cells for m{model} ({placement:?})");
        }
        _ => {}
    }
}

#[test]
fn every_offered_objective_and_deployment_cell_keeps_the_zones_and_distances() {
    let cases: [(&str, [&str; 2]); 3] = [
        ("sunken_plaza", CREWS),
        ("drowned_boulevard", ["militia_150_levy", "bondsmen_150_slavers"]),
        ("mangrove_ruins", ["artifacters_150_raptor_riders", "the_firm_150"]),
    ];
    let mut seen = Seen::default();
    for (board, crews) in cases {
        for seed in 0..6 {
            let mut s = scenario_game(SCENARIO, board, crews);
            let before = seen.infiltration_sides.len();
            let markers_before = seen.marker_order.len();
            finish_setup(&mut s, seed, |st| check_node(st, &mut seen));
            let a = player_a(&s);
            // Objectives: A's first, then B's.
            assert_eq!(seen.marker_order[markers_before..], [a, 1 - a], "{board} seed {seed}");
            // Infiltrators alternate, beginning with player B.
            let sides = &seen.infiltration_sides[before..];
            let counts = |side: Side| {
                (0..s.models().len() as ModelId)
                    .filter(|&m| s.models()[m as usize].side == side && is_scout(&s, m))
                    .count()
            };
            let rounds = counts(0).min(counts(1));
            for (k, &side) in sides.iter().take(2 * rounds).enumerate() {
                let expected = if k % 2 == 0 { 1 - a } else { a };
                assert_eq!(side, expected, "{board} seed {seed}: infiltration order {sides:?}");
            }
            assert_eq!(sides.len(), counts(0) + counts(1), "one test per infiltrator");
            // "Then begin the game, with Player B taking the first Activation."
            assert_eq!(s.turn(), 1);
            assert_eq!(s.dynamic().initiative, 1 - a, "{board} seed {seed}");
            assert_eq!(s.dynamic().active, 1 - a, "{board} seed {seed}");
            // Every model is deployed, except blundered infiltrators waiting for turn 2.
            for (i, m) in s.models().iter().enumerate() {
                let waiting = s.dynamic().scenario.arrivals & (1 << i) != 0;
                assert_eq!(m.health == Health::Reserve, waiting, "{board} seed {seed} m{i}");
                if waiting {
                    assert!(is_scout(&s, i as ModelId));
                }
            }
        }
    }
    assert!(seen.decisions > 200, "{} placement decisions checked", seen.decisions);
    assert!(
        seen.fallbacks * 10 < seen.decisions,
        "the distance rules could be kept nearly always ({} fallbacks)",
        seen.fallbacks
    );
}

/// A flat open board file of the given size (small enough for the 8" marker rule to bite).
fn small_board_file(width: u8, depth: u8) -> String {
    let mut text = format!("name: small flat\nsize: {width}x{depth}\n");
    for _ in 0..depth {
        text.push_str(&"0.".repeat(width as usize));
        text.push('\n');
    }
    let path = std::env::temp_dir()
        .join(format!("tde_attack_and_defend_{}_{width}x{depth}.board", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn on_a_small_board_objectives_keep_eight_inches_from_the_other_markers() {
    // 24"x24": the central objective (12,12) is 4" from the objective zones, so the 8" rule
    // decides where the objectives may go.
    let board = small_board_file(24, 24);
    let mut seen = Seen::default();
    for seed in 0..4 {
        let mut s = scenario_game(SCENARIO, &board, CREWS);
        finish_setup(&mut s, seed, |st| check_node(st, &mut seen));
        let b = s.board();
        let markers = &s.dynamic().scenario.markers;
        for (i, m) in markers.iter().enumerate() {
            for n in &markers[i + 1..] {
                assert!(
                    gap(b, m.cell, n.cell) >= 8.0,
                    "seed {seed}: markers {:?} and {:?}",
                    b.xy(m.cell),
                    b.xy(n.cell)
                );
            }
        }
        // The rule did exclude part of the zone: some cell of the band is within 8" of the
        // centre.
        let own = edge_of(&s, player_a(&s));
        assert!(
            (0..b.len() as CellIdx).any(|c| in_objective_band(b, c, own) && gap(b, c, markers[0].cell) < 8.0)
        );
    }
    assert_eq!(seen.marker_order.len(), 8);
    let _ = std::fs::remove_file(&board);
}

// ---------------------------------------------------------------------------------------
// The infiltration table.

/// Player B (side 1) makes the first infiltration test: its lookout, m9.
fn at_first_infiltration(seed: u64) -> GameState {
    let mut s = scenario_game(SCENARIO, INFILTRATION_BOARD, CREWS);
    play_until(&mut s, seed, true, at_infiltration_test(FIRM_SCOUT));
    s
}

fn infiltration_offer(seed: u64, level: TestLevel) -> (GameState, BTreeSet<CellIdx>) {
    let mut s = at_first_infiltration(seed);
    force_test(&mut s, level);
    no_cards(&mut s);
    assert_eq!(
        top(&s),
        Step::Scenario(ScenarioStep::Deploy {
            model: FIRM_SCOUT,
            placement: Placement::Infiltrator(Some(level))
        })
    );
    let offered = offered_cells(&s);
    (s, offered)
}

#[test]
fn infiltration_pass_deploys_in_the_own_half_outside_the_objective_zone() {
    for seed in 0..3 {
        let (s, offered) = infiltration_offer(seed, TestLevel::Pass);
        let b = s.board();
        let own = edge_of(&s, 1);
        let (expected, full) = expected_cells(&s, FIRM_SCOUT, Placement::Infiltrator(Some(TestLevel::Pass)));
        assert!(full);
        assert_eq!(offered, expected);
        assert!(offered.iter().all(|&c| own_half(b, c, own) && !in_objective_band(b, c, own)));
        assert!(offered.iter().any(|&c| to_edge(b, c, own) >= 8), "beyond the deployment strip and the band");
        assert!(
            offered.iter().any(|&c| to_edge(b, c, own) < 4),
            "the deployment strip is in the own half too"
        );
    }
}

#[test]
fn infiltration_nailed_it_and_feat_reach_either_objective_zone_and_a_feat_adds_an_ap() {
    for seed in 0..3 {
        for level in [TestLevel::NailedIt, TestLevel::Feat] {
            let (mut s, offered) = infiltration_offer(seed, level);
            let b = s.board();
            let own = edge_of(&s, 1);
            let (expected, full) = expected_cells(&s, FIRM_SCOUT, Placement::Infiltrator(Some(level)));
            assert!(full);
            assert_eq!(offered, expected);
            assert!(offered.iter().any(|&c| in_objective_band(b, c, own)), "its own objective zone");
            assert!(
                offered.iter().any(|&c| in_objective_band(b, c, opposite(own))),
                "the enemy objective zone, in the enemy half"
            );
            assert!(offered
                .iter()
                .all(|&c| { own_half(b, c, own) || in_objective_band(b, c, opposite(own)) }));
            // Deploy in the enemy's objective zone.
            let cell = *offered.iter().find(|&&c| in_objective_band(b, c, opposite(own))).unwrap();
            s.apply_action(Action::Deploy(cell)).unwrap();
            assert_eq!(s.models()[FIRM_SCOUT as usize].cell, cell);
            assert_eq!(s.models()[FIRM_SCOUT as usize].health, Health::Conscious);
            play_until(&mut s, seed, true, |s| !in_setup(s));
            // In turn 1 the lookout (2 AP a turn, 3 at most) gets one more AP on a Feat.
            let p = s.profile(FIRM_SCOUT);
            let extra = u8::from(level == TestLevel::Feat);
            assert_eq!(s.models()[FIRM_SCOUT as usize].ap, (p.ap_gain + extra).min(p.ap_max), "{level:?}");
            assert_eq!(s.models()[FIRM_SCOUT as usize].ap_adjust, 0, "the extra AP is for turn 1 only");
        }
    }
}

#[test]
fn infiltration_fail_deploys_in_the_regular_deployment_zone() {
    for seed in 0..3 {
        let (s, offered) = infiltration_offer(seed, TestLevel::Fail);
        let b = s.board();
        let own = edge_of(&s, 1);
        let (expected, full) = expected_cells(&s, FIRM_SCOUT, Placement::Infiltrator(Some(TestLevel::Fail)));
        assert!(full);
        assert_eq!(offered, expected);
        assert!(offered.iter().all(|&c| to_edge(b, c, own) < 4));
    }
}

#[test]
fn infiltration_blunder_arrives_on_the_own_board_edge_at_the_start_of_turn_two() {
    let mut s = at_first_infiltration(7);
    force_test(&mut s, TestLevel::Blunder);
    no_cards(&mut s);
    // No deployment now: the next decision is not the lookout's.
    assert!(
        !matches!(top(&s), Step::Scenario(ScenarioStep::Deploy { model: FIRM_SCOUT, .. })),
        "a blundered infiltrator does not deploy this turn"
    );
    play_until(&mut s, 7, true, |s| !in_setup(s));
    let scout = s.models()[FIRM_SCOUT as usize];
    assert_eq!(scout.health, Health::Reserve, "not on the table in turn 1");
    assert_eq!(scout.ap, 0, "no AP in turn 1");
    assert!(!s.legal_actions().contains(&Action::Activate(FIRM_SCOUT)));

    // The end of turn 1: at the beginning of turn 2's initiative phase side 1 must place it.
    let mut t = end_of_turn(&s, 1, |_| {});
    assert_eq!(t.turn(), 2);
    assert!(!t.is_terminal());
    assert_eq!(
        top(&t),
        Step::Scenario(ScenarioStep::Deploy {
            model: FIRM_SCOUT,
            placement: Placement::Arrival { optional: false }
        })
    );
    assert_eq!(t.current_player(), Player::Side(1));
    assert!(!t.legal_actions().contains(&Action::Reserve), "it must arrive now");
    let own = edge_of(&t, 1);
    let offered = offered_cells(&t);
    let (expected, full) = expected_cells(&t, FIRM_SCOUT, Placement::Arrival { optional: false });
    assert!(full);
    assert_eq!(offered, expected);
    assert!(offered.iter().all(|&c| to_edge(t.board(), c, own) == 0), "on its own board edge");
    assert!(offered.len() > 5);
    let cell = *offered.iter().next().unwrap();
    t.apply_action(Action::Deploy(cell)).unwrap();
    assert_eq!(t.models()[FIRM_SCOUT as usize].health, Health::Conscious);
    assert_eq!(t.models()[FIRM_SCOUT as usize].cell, cell);
    // Then the roll-off, and it gets its AP with the others.
    assert!(matches!(top(&t), Step::RollOff));
    t.apply_action(Action::Chance(0)).unwrap();
    t.apply_action(Action::TakeInitiative).unwrap();
    assert_eq!(t.models()[FIRM_SCOUT as usize].ap, t.profile(FIRM_SCOUT).ap_gain);

    // Nothing waits at the start of turn 3.
    let u = end_of_turn(&t, 2, |_| {});
    assert_eq!(u.turn(), 3);
    assert!(matches!(top(&u), Step::RollOff));
}

// ---------------------------------------------------------------------------------------
// Taking control of objectives.

fn marker_cell(s: &GameState, marker: u8) -> CellIdx {
    s.dynamic().scenario.markers[marker as usize].cell
}

fn interact(marker: u8, actor: ModelId) -> Action {
    Action::Interact { kind: InteractKind::Marker { marker }, target: actor }
}

#[test]
fn interact_takes_control_without_a_test_and_the_enemy_takes_it_back() {
    for marker in [0u8, 1, 2] {
        let s = deployed(3);
        let b = s.board();
        let captain: ModelId = 0; // side 0
        let kaneda: ModelId = 4; // side 1
        let (p, q) = spots_by(&s, marker_cell(&s, marker), 2);

        let mut t = activation(&s, captain, 3, |d| {
            put(d, b, captain, p);
            put(d, b, kaneda, q);
        });
        let take = interact(marker, captain);
        let legal = t.legal_actions();
        assert!(legal.contains(&take), "touching objective {marker}: {legal:?}");
        for other in (0..3).filter(|&o| o != marker) {
            assert!(!legal.contains(&interact(other, captain)), "not touching objective {other}");
        }
        t.apply_action(take).unwrap();
        decline_declarations(&mut t);
        // No test: the interaction resolved without any chance node.
        assert_eq!(t.current_player(), Player::Side(0));
        assert_eq!(top(&t), Step::ChooseAction(captain));
        assert_eq!(t.dynamic().scenario.markers[marker as usize].controller, Some(0));
        assert_eq!(t.models()[captain as usize].ap, 2, "one AP spent");
        assert!(!t.legal_actions().contains(&take), "already under side 0's control");

        // An enemy model touching it takes control with its own Interact action.
        let mut u = activation(&t, kaneda, 3, |_| {});
        u.apply_action(interact(marker, kaneda)).unwrap();
        decline_declarations(&mut u);
        assert_eq!(u.current_player(), Player::Side(1));
        assert_eq!(u.dynamic().scenario.markers[marker as usize].controller, Some(1));
        assert_eq!(u.models()[kaneda as usize].ap, 2);
        // And side 0 may take it back again.
        let back = activation(&u, captain, 1, |_| {});
        assert!(back.legal_actions().contains(&take));

        // It stays with side 1 after its model walks away, and scores at the end of turn 2:
        // 1 VP for the central or side 1's own objective, 3 for side 0's.
        let far = s.models()[kaneda as usize].cell;
        let v = end_of_turn(&u, 2, |d| put(d, b, kaneda, far));
        assert_eq!(v.dynamic().scenario.markers[marker as usize].controller, Some(1));
        let vp = if marker == 1 { 3 } else { 1 };
        assert_eq!(v.dynamic().scenario.vp[..2], [0, vp], "objective {marker}");
    }
}

#[test]
fn a_model_in_base_contact_with_an_enemy_cannot_take_an_objective() {
    let s = deployed(4);
    let b = s.board();
    let captain: ModelId = 0;
    let kaneda: ModelId = 4;
    let (p, q) = spots_by(&s, marker_cell(&s, 2), 1);
    let t = activation(&s, captain, 3, |d| {
        put(d, b, captain, p);
        put(d, b, kaneda, q);
    });
    let take = interact(2, captain);
    assert!(!t.legal_actions().contains(&take), "only fight or dodge in base contact (p.40)");
    assert!(t.clone().apply_action(take).is_err());
    // With the enemy down, the captain may interact again.
    let u = activation(&s, captain, 3, |d| {
        put(d, b, captain, p);
        put(d, b, kaneda, q);
        d.models[kaneda as usize].health = Health::Down;
    });
    assert!(u.legal_actions().contains(&take));
}

// ---------------------------------------------------------------------------------------
// Scoring and the end of the game.

fn control(d: &mut engine::state::DynState, controllers: [Option<Side>; 3]) {
    for (m, c) in d.scenario.markers.iter_mut().zip(controllers) {
        m.controller = c;
    }
}

#[test]
fn objectives_score_at_the_end_of_turns_two_four_and_six_only() {
    let s = deployed(5);
    // Side 0 (player A) holds the central objective (1) and side 1's objective (3); side 1
    // holds side 0's objective (3).
    let ctrl = [Some(0), Some(1), Some(0)];
    for turn in 1..=5u8 {
        let t = end_of_turn(&s, turn, |d| control(d, ctrl));
        let expected = if turn % 2 == 0 { [4, 3] } else { [0, 0] };
        assert_eq!(t.dynamic().scenario.vp[..2], expected, "turn {turn}");
        assert!(!t.is_terminal(), "the game goes on after turn {turn}");
        assert_eq!(t.turn(), turn + 1);
    }
    // Two scoring turns in a row accumulate.
    let t2 = end_of_turn(&s, 2, |d| control(d, ctrl));
    let t4 = end_of_turn(&t2, 4, |_| {});
    assert_eq!(t4.dynamic().scenario.vp[..2], [8, 6]);
}

#[test]
fn a_hand_scored_game_ends_after_turn_six() {
    let s = deployed(6);
    // Earlier scoring: turn 2 side 0 held the central (1); turn 4 side 0 held the central and
    // side 1's objective (1 + 3), side 1 its own (1): 5 to 1 so far.
    // At the end of turn 6: side 1 holds the central (1); side 0 holds its own objective (1)
    // and side 1's (3). Final: side 0 5 + 4 = 9, side 1 1 + 1 = 2.
    let t = end_of_turn(&s, 6, |d| {
        d.scenario.vp = [5, 1, 0];
        control(d, [Some(1), Some(0), Some(0)]);
    });
    assert!(t.is_terminal(), "the game ends at the end of turn 6");
    let o = t.outcome();
    assert_eq!(o.vp[..2], [9, 2]);
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.margin(0), 7);
    assert_eq!(o.margin(1), -7);
    assert_eq!(t.returns()[..2], [1.0, -1.0]);

    // The same game with nobody holding anything at the end of turn 6 ends 5 to 1.
    let u = end_of_turn(&s, 6, |d| d.scenario.vp = [5, 1, 0]);
    assert!(u.is_terminal());
    assert_eq!(u.outcome().vp[..2], [5, 1]);

    // Side 1 holding its own and the central objective (1 + 1) and side 0's (3): 5 + 0 vs
    // 1 + 5 = 6, side 1 wins.
    let w = end_of_turn(&s, 6, |d| {
        d.scenario.vp = [5, 1, 0];
        control(d, [Some(1), Some(1), Some(1)]);
    });
    assert_eq!(w.outcome().vp[..2], [5, 6]);
    assert_eq!(w.outcome().winner, Some(1));
}

fn knock_out(d: &mut engine::state::DynState, side: Side, keep: Option<ModelId>) {
    for (i, m) in d.models.iter_mut().enumerate() {
        if m.side == side && Some(i as ModelId) != keep {
            m.health = if i % 2 == 0 { Health::Down } else { Health::TakenOut };
            m.ap = 0;
        }
    }
}

#[test]
fn the_game_ends_when_a_whole_crew_is_unconscious_and_not_before() {
    let s = deployed(8);
    let ctrl = [Some(0), None, Some(0)];
    // Every model of side 1 down or taken out at the end of turn 3: the game ends, with no
    // scoring on turn 3.
    let t = end_of_turn(&s, 3, |d| {
        knock_out(d, 1, None);
        control(d, ctrl);
    });
    assert!(t.is_terminal());
    assert_eq!(t.outcome().vp[..2], [0, 0]);
    // The same for side 0.
    let t0 = end_of_turn(&s, 3, |d| knock_out(d, 0, None));
    assert!(t0.is_terminal());

    // One conscious model left: the game goes on to turn 4.
    let u = end_of_turn(&s, 3, |d| {
        knock_out(d, 1, Some(6));
        control(d, ctrl);
    });
    assert!(!u.is_terminal());
    assert_eq!(u.turn(), 4);

    // A crew wiped out on a scoring turn scores first: end of turn 2, side 0 holds the
    // central (1) and side 1's objective (3).
    let v = end_of_turn(&s, 2, |d| {
        knock_out(d, 1, None);
        control(d, ctrl);
    });
    assert!(v.is_terminal());
    assert_eq!(v.outcome().vp[..2], [4, 0]);
    assert_eq!(v.outcome().winner, Some(0));

    // Nobody out and turn 5 over: the game goes on; turn 6 over: it ends.
    assert!(!end_of_turn(&s, 5, |_| {}).is_terminal());
    assert!(end_of_turn(&s, 6, |_| {}).is_terminal());
}

#[test]
fn a_blundered_infiltrator_yet_to_arrive_is_not_unconscious() {
    // Side 1's lookout blundered its infiltration and waits for turn 2; the rest of side 1
    // is down at the end of turn 1: not "all members" are unconscious.
    let mut s = at_first_infiltration(9);
    force_test(&mut s, TestLevel::Blunder);
    no_cards(&mut s);
    play_until(&mut s, 9, true, |s| !in_setup(s));
    assert_eq!(s.models()[FIRM_SCOUT as usize].health, Health::Reserve);
    let t = end_of_turn(&s, 1, |d| knock_out(d, 1, Some(FIRM_SCOUT)));
    assert!(!t.is_terminal(), "the lookout still arrives on turn 2");
    assert_eq!(t.turn(), 2);
    assert!(matches!(
        top(&t),
        Step::Scenario(ScenarioStep::Deploy { model: FIRM_SCOUT, placement: Placement::Arrival { .. } })
    ));
}

#[test]
fn a_late_arrival_is_placed_before_the_pass_tokens_are_counted() {
    // p.81: "At the beginning of the Initiative Phase of Turn 2 the owning player must place
    // this Model"; the Initiative Phase then counts the Conscious Models of both sides and
    // gives the side with fewer the difference in Pass Tokens (p.21). With the lookout
    // placed, both crews have five conscious models: no pass tokens.
    let mut s = at_first_infiltration(7);
    force_test(&mut s, TestLevel::Blunder);
    no_cards(&mut s);
    play_until(&mut s, 7, true, |s| !in_setup(s));
    let mut t = end_of_turn(&s, 1, |_| {});
    let cell = *offered_cells(&t).iter().next().unwrap();
    t.apply_action(Action::Deploy(cell)).unwrap();
    t.apply_action(Action::Chance(0)).unwrap();
    t.apply_action(Action::TakeInitiative).unwrap();
    assert_eq!((t.conscious_count(0), t.conscious_count(1)), (5, 5));
    assert_eq!(t.dynamic().pass_tokens[..2], [0, 0]);
}
