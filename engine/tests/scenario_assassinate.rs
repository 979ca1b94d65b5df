//! Assassinate (scenario 1, rulebook p.78): corner deployment of leaders and crews, the
//! infiltration table and the 12" leader clearance, scoring of leaders taken out or down and
//! of the central treasure, the end of the game, and the ban on mounted leaders.

mod common;

use common::{edited, finish_setup, force_chance, scenario_game};
use engine::board::{Board, CellIdx, Terrain};
use engine::dice::TestLevel;
use engine::profile::Role;
use engine::scenario::{Placement, Scenario, ScenarioStep, ZoneKind};
use engine::setup::{new_game, GameConfig};
use engine::state::{Health, ModelId, Purpose, Side, Stance, Step};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Size of the corner deployment squares on the scenario map (p.78), in inches.
const CORNER: u8 = 8;
/// Depth of the infiltration strips.
const STRIP: u8 = 8;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A fresh folder under the system temp dir for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde_assassinate_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A flat open board file of the given size (every cell deployable ground), by path.
fn flat_board_file(name: &str, width: u8, depth: u8) -> String {
    let dir = temp_dir(name);
    let mut text = format!("name: flat\nsize: {width}x{depth}\n");
    for _ in 0..depth {
        text.push_str(&"0.".repeat(width as usize));
        text.push('\n');
    }
    let path = dir.join("flat.board");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn game(board: &str, crews: [&str; 2]) -> GameState {
    scenario_game(Scenario::Assassinate, board, crews)
}

/// The side's leader.
fn leader(s: &GameState, side: Side) -> ModelId {
    (0..s.models().len() as ModelId)
        .find(|&m| s.models()[m as usize].side == side && s.profile(m).role == Role::Leader)
        .expect("a leader")
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

/// Whether (x, y) lies in the 8"x8" square of `corner` (0 = (0,0), 1 = (w-1,0), 2 = (0,d-1),
/// 3 = (w-1,d-1)).
fn in_corner(b: &Board, x: u8, y: u8, corner: u8) -> bool {
    let xs = if corner.is_multiple_of(2) { x < CORNER } else { x >= b.width() - CORNER };
    let ys = if corner < 2 { y < CORNER } else { y >= b.depth() - CORNER };
    xs && ys
}

/// Whether (x, y) lies in the 8" strip along the board edge joining the two (adjacent)
/// corners, outside every corner square.
fn in_strip(b: &Board, x: u8, y: u8, c1: u8, c2: u8) -> bool {
    assert!(c1 != c2 && c1 != 3 - c2, "corners {c1} and {c2} are not adjacent");
    let strip = if (c1 < 2) == (c2 < 2) {
        // They share a row edge.
        if c1 < 2 {
            y < STRIP
        } else {
            y >= b.depth() - STRIP
        }
    } else if c1.is_multiple_of(2) {
        x < STRIP
    } else {
        x >= b.width() - STRIP
    };
    strip && !(0..4).any(|c| in_corner(b, x, y, c))
}

/// The corners a side's pieces went to, as the test recorded the choices.
#[derive(Clone, Copy, Debug, Default)]
struct Corners {
    /// [side] = crew corner.
    crew: [u8; 2],
    /// [side] = leader corner.
    leader: [u8; 2],
}

/// The zone the rulebook gives a model of `side` for `placement`.
fn zone_of(b: &Board, c: &Corners, side: Side, placement: Placement, x: u8, y: u8) -> bool {
    let s = side as usize;
    match placement {
        Placement::Leader => in_corner(b, x, y, c.leader[s]),
        Placement::Crew => in_corner(b, x, y, c.crew[s]),
        Placement::Infiltrator(Some(TestLevel::Pass)) => in_strip(b, x, y, c.crew[s], c.leader[s]),
        Placement::Infiltrator(Some(TestLevel::NailedIt | TestLevel::Feat)) => {
            in_strip(b, x, y, c.crew[s], c.leader[1 - s])
        }
        Placement::Infiltrator(Some(TestLevel::Fail | TestLevel::Blunder)) => in_corner(b, x, y, c.crew[s]),
        other => panic!("unexpected placement {other:?} in Assassinate"),
    }
}

/// Free ground-level open cells for a model of `side`: empty, not touching a conscious enemy.
fn free_ground(s: &GameState, side: Side, cell: CellIdx) -> bool {
    let b = s.board();
    let c = b.cell(cell);
    c.terrain == Terrain::Open
        && c.height <= 1
        && !s.models().iter().any(|m| m.is_on_table() && m.cell == cell)
        && !s.touches_enemy(side, cell, c.height, None)
}

/// Whether a cell is more than 12" (base edge to base edge) from every leader on the table.
fn clear_of_leaders(s: &GameState, cell: CellIdx) -> bool {
    let b = s.board();
    (0..s.models().len() as ModelId).filter(|&m| s.profile(m).role == Role::Leader).all(|m| {
        let l = &s.models()[m as usize];
        !l.is_on_table() || b.edge_distance(cell, b.cell(cell).height, l.cell, l.z) > 12.0
    })
}

/// The cells a Deploy decision should offer, by the rulebook: (strict set, zone-only set).
fn expected_cells(
    s: &GameState,
    c: &Corners,
    side: Side,
    placement: Placement,
) -> (BTreeSet<CellIdx>, BTreeSet<CellIdx>) {
    let b = s.board();
    let mut strict = BTreeSet::new();
    let mut zone_only = BTreeSet::new();
    for cell in 0..b.len() as CellIdx {
        let (x, y) = b.xy(cell);
        if !free_ground(s, side, cell) || !zone_of(b, c, side, placement, x, y) {
            continue;
        }
        zone_only.insert(cell);
        let infiltrator = matches!(placement, Placement::Infiltrator(_));
        if !infiltrator || clear_of_leaders(s, cell) {
            strict.insert(cell);
        }
    }
    (strict, zone_only)
}

fn offered_cells(s: &GameState) -> BTreeSet<CellIdx> {
    s.legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Deploy(c) => c,
            other => panic!("non-deploy action {other:?} at a deployment"),
        })
        .collect()
}

/// Play the set-up: `hook` may choose the action at any node (given the rng for random
/// picks); otherwise a seeded random legal action or die roll.
fn drive(s: &mut GameState, seed: u64, mut hook: impl FnMut(&GameState, &mut ChaCha8Rng) -> Option<Action>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut guard = 0;
    while common::in_setup(s) {
        guard += 1;
        assert!(guard < 10_000, "set-up does not finish");
        let action = match hook(s, &mut rng) {
            Some(a) => a,
            None => match s.current_player() {
                Player::Chance => s.sample_chance(&mut rng).unwrap(),
                Player::Side(_) => {
                    let legal = s.legal_actions();
                    legal[rng.gen_range(0..legal.len())]
                }
                Player::Terminal => panic!("terminal during set-up"),
            },
        };
        s.apply_action(action).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// What the set-up driver saw of one game.
#[derive(Default)]
struct Seen {
    corners: Corners,
    player_a: Side,
    /// (side, placement) of every Deploy decision, in order.
    deploys: Vec<(Side, ModelId, Placement)>,
    /// The level each infiltrator's (last) Intelligence test came out at.
    levels: Vec<(ModelId, TestLevel)>,
    /// Deploy decisions checked against a non-empty strict set.
    strict_checks: usize,
    /// Infiltrator deploy decisions checked against a non-empty strict set.
    strict_infiltrators: usize,
}

/// Play a random set-up, checking every scenario decision against the rulebook.
fn checked_setup(board: &str, crews: [&str; 2], seed: u64) -> (GameState, Seen) {
    let mut s = game(board, crews);
    let mut seen = Seen::default();
    let ctx = format!("{board} {crews:?} seed {seed}");
    drive(&mut s, seed, |s, rng| {
        let b = s.board();
        let d = s.dynamic();
        match top(s)? {
            Step::Scenario(ScenarioStep::ChooseRoles) => {
                assert_eq!(
                    s.current_player(),
                    Player::Side(d.initiative),
                    "{ctx}: the initiative holder picks A"
                );
                None
            }
            Step::Scenario(ScenarioStep::ChooseZone { side, zone: ZoneKind::LeaderCorner }) => {
                seen.player_a = d.scenario.player_a;
                assert_eq!(side, seen.player_a, "{ctx}: player A chooses the leader corner");
                assert_eq!(s.current_player(), Player::Side(side));
                assert_eq!(s.legal_actions(), (0..4).map(Action::Zone).collect::<Vec<_>>(), "{ctx}");
                let a = s.legal_actions()[rng.gen_range(0..4)];
                let Action::Zone(z) = a else { unreachable!() };
                seen.corners.leader[side as usize] = z;
                seen.corners.leader[1 - side as usize] = 3 - z; // the opposite corner
                Some(a)
            }
            Step::Scenario(ScenarioStep::ChooseZone { side, zone: ZoneKind::CrewCorner }) => {
                let b_side = 1 - seen.player_a;
                assert_eq!(side, b_side, "{ctx}: player B chooses its crew corner");
                // B's leader must already be on the table, A's too.
                for sd in 0..2 {
                    assert!(s.models()[leader(s, sd) as usize].is_on_table(), "{ctx}: leaders first");
                }
                let c = seen.corners;
                let free: Vec<u8> = (0..4).filter(|&k| k != c.leader[0] && k != c.leader[1]).collect();
                let expected: Vec<Action> = if b.width() == b.depth() {
                    free.iter().map(|&k| Action::Zone(k)).collect()
                } else {
                    // 3'x4': a player's two corners are joined by a long (row) edge.
                    let bl = c.leader[b_side as usize];
                    free.iter().filter(|&&k| (k < 2) == (bl < 2)).map(|&k| Action::Zone(k)).collect()
                };
                assert_eq!(s.legal_actions(), expected, "{ctx}: crew corner options");
                let a = expected[rng.gen_range(0..expected.len())];
                let Action::Zone(z) = a else { unreachable!() };
                seen.corners.crew[b_side as usize] = z;
                seen.corners.crew[seen.player_a as usize] = *free.iter().find(|&&k| k != z).unwrap();
                Some(a)
            }
            Step::Test { model, purpose: Purpose::Infiltrate, .. } => {
                let a = s.sample_chance(rng).unwrap();
                let Action::Chance(i) = a else { unreachable!() };
                let level = s.pending_test().unwrap()[i as usize].0.level;
                seen.levels.retain(|&(m, _)| m != model);
                seen.levels.push((model, level));
                Some(a)
            }
            Step::Scenario(ScenarioStep::Deploy { model, placement }) => {
                let side = s.models()[model as usize].side;
                assert_eq!(s.current_player(), Player::Side(side), "{ctx}");
                let is_leader = s.profile(model).role == Role::Leader;
                let scout = s.profile(model).role == Role::Scout;
                match placement {
                    Placement::Leader => assert!(is_leader, "{ctx}: m{model} deploys as leader"),
                    Placement::Crew => assert!(!is_leader && !scout, "{ctx}: m{model} deploys with the crew"),
                    Placement::Infiltrator(level) => {
                        assert!(scout, "{ctx}: m{model} infiltrates");
                        let tested = seen.levels.iter().find(|&&(m, _)| m == model).map(|&(_, l)| l);
                        assert_eq!(level, tested, "{ctx}: the placement follows the test result");
                    }
                    other => panic!("{ctx}: unexpected placement {other:?}"),
                }
                seen.deploys.push((side, model, placement));
                let offered = offered_cells(s);
                let (strict, zone_only) = expected_cells(s, &seen.corners, side, placement);
                if !strict.is_empty() {
                    seen.strict_checks += 1;
                    if matches!(placement, Placement::Infiltrator(_)) {
                        seen.strict_infiltrators += 1;
                        for &c in &offered {
                            assert!(
                                clear_of_leaders(s, c),
                                "{ctx}: infiltrator offered c{c} within 12\" of a leader"
                            );
                        }
                    }
                    assert_eq!(offered, strict, "{ctx}: cells offered to m{model} for {placement:?}");
                } else if !zone_only.is_empty() {
                    assert_eq!(offered, zone_only, "{ctx}: zone-only fallback for m{model}");
                }
                None
            }
            _ => None,
        }
    });
    (s, seen)
}

// ---------------------------------------------------------------------------------------
// Deployment
// ---------------------------------------------------------------------------------------

#[test]
fn every_deployment_decision_offers_exactly_the_rulebook_zone_and_keeps_infiltrators_clear_of_leaders() {
    let flat = flat_board_file("legality", 36, 36);
    let flat_long = flat_board_file("legality_long", 48, 36);
    let cases: Vec<(String, [&str; 2])> = vec![
        (flat.clone(), ["artifacters_100", "the_firm_100"]),
        (flat.clone(), ["the_firm_150_racket", "militia_100_shooters"]),
        (flat_long, ["artifacters_150", "the_firm_150_racket"]),
        ("sunken_plaza".into(), ["artifacters_100", "the_firm_100"]),
        ("lagoon_docks".into(), ["bondsmen_100", "militia_100"]),
        ("mangrove_ruins".into(), ["the_firm_150_racket", "artifacters_100_shooters"]),
        ("drowned_boulevard".into(), ["militia_150", "bondsmen_150"]),
    ];
    let mut strict_infiltrators = 0;
    let mut strict_checks = 0;
    for (board, crews) in &cases {
        for seed in 0..4u64 {
            let (s, seen) = checked_setup(board, *crews, seed);
            let ctx = format!("{board} {crews:?} seed {seed}");
            let a = seen.player_a;
            let bs = 1 - a;
            strict_checks += seen.strict_checks;
            strict_infiltrators += seen.strict_infiltrators;

            // The corners recorded by the engine are the ones chosen.
            let zones = s.dynamic().scenario.zones;
            for (side, zone) in zones.iter().take(2).enumerate() {
                assert_eq!(*zone, [seen.corners.crew[side], seen.corners.leader[side]], "{ctx}");
            }
            let all: BTreeSet<u8> = [zones[0][0], zones[0][1], zones[1][0], zones[1][1]].into();
            assert_eq!(all.len(), 4, "{ctx}: four different corners");

            // Order of p.78: A's leader, B's leader, B's crew, A's crew, then infiltrators
            // alternating from B.
            let scouts = |side: Side| {
                s.models()
                    .iter()
                    .enumerate()
                    .filter(|(i, m)| m.side == side && s.profile(*i as ModelId).role == Role::Scout)
                    .count()
            };
            let size = |side: Side| s.models().iter().filter(|m| m.side == side).count();
            let mut expected: Vec<(Side, &str)> = vec![(a, "leader"), (bs, "leader")];
            expected.extend(std::iter::repeat_n((bs, "crew"), size(bs) - 1 - scouts(bs).min(2)));
            expected.extend(std::iter::repeat_n((a, "crew"), size(a) - 1 - scouts(a).min(2)));
            let (mut ia, mut ib) = (scouts(a).min(2), scouts(bs).min(2));
            let mut turn = bs;
            while ia + ib > 0 {
                let left = if turn == a { &mut ia } else { &mut ib };
                if *left > 0 {
                    *left -= 1;
                    expected.push((turn, "infiltrator"));
                }
                turn = 1 - turn;
            }
            let got: Vec<(Side, &str)> = seen
                .deploys
                .iter()
                .map(|&(side, _, p)| {
                    (
                        side,
                        match p {
                            Placement::Leader => "leader",
                            Placement::Crew => "crew",
                            _ => "infiltrator",
                        },
                    )
                })
                .collect();
            assert_eq!(got, expected, "{ctx}: deployment order");

            // Where everybody ended up, when the zones had room (flat boards always do).
            let b = s.board();
            let flat_board = b.cells().iter().all(|c| c.terrain == Terrain::Open && c.height == 0);
            for &(side, m, placement) in &seen.deploys {
                let model = &s.models()[m as usize];
                assert_eq!(model.health, Health::Conscious, "{ctx}: m{m} deployed");
                if flat_board {
                    let (x, y) = b.xy(model.cell);
                    assert!(
                        zone_of(b, &seen.corners, side, placement, x, y),
                        "{ctx}: m{m} at ({x},{y}) for {placement:?}"
                    );
                    if matches!(placement, Placement::Infiltrator(_)) {
                        assert!(clear_of_leaders(&s, model.cell), "{ctx}: m{m} within 12\" of a leader");
                    }
                }
            }
            assert!(s.models().iter().all(|m| m.is_on_table()), "{ctx}: everybody is deployed");

            // Player B takes the first activation.
            assert_eq!(s.dynamic().initiative, bs, "{ctx}");
            assert_eq!(s.dynamic().active, bs, "{ctx}");
            assert_eq!(s.turn(), 1);

            // Feat gives one AP more, Blunder one less, on the first grant.
            for (i, m) in s.models().iter().enumerate() {
                let p = s.profile(i as ModelId);
                let adj = match seen.levels.iter().find(|&&(k, _)| k == i as ModelId).map(|&(_, l)| l) {
                    Some(TestLevel::Feat) => 1,
                    Some(TestLevel::Blunder) => -1,
                    _ => 0,
                };
                let ap = (p.ap_gain as i32 + adj).clamp(0, p.ap_max as i32) as u8;
                assert_eq!(m.ap, ap, "{ctx}: m{i} first-turn AP");
            }
        }
    }
    assert!(strict_checks > 100, "only {strict_checks} strict checks");
    assert!(strict_infiltrators >= 20, "only {strict_infiltrators} strict infiltrator checks");
}

#[test]
fn up_to_two_scouts_per_side_are_set_aside_to_infiltrate() {
    // The Firm racket crew has two scouts (the lookout and Juchita): both infiltrate.
    let s = game("sunken_plaza", ["the_firm_150_racket", "artifacters_100"]);
    let aside = s.dynamic().scenario.set_aside;
    for (i, m) in s.models().iter().enumerate() {
        let scout = s.profile(i as ModelId).role == Role::Scout;
        assert_eq!(aside & (1 << i) != 0, scout, "m{i} (side {})", m.side);
        assert_eq!(m.health, Health::Reserve, "nobody is on the table before deployment");
    }
    assert_eq!(aside.count_ones(), 3);
}

/// The forced set-up of the infiltration tests: side 0 is player A with its leader in corner
/// 0 and B's crew corner 1 (so A's crew is in corner 2); side 1's scout tests first and gets
/// `level`, side 0's scout passes. Returns the state at side 1's scout's deployment decision.
fn infiltration_game(board: &str, level: TestLevel) -> GameState {
    let mut s = game(board, ["the_firm_100", "artifacters_100"]);
    let mut at_deploy = None;
    drive(&mut s, 7, |s, rng| {
        if at_deploy.is_some() {
            return None;
        }
        match top(s)? {
            Step::RollOff => Some(Action::Chance(0)),
            Step::ChooseInitiative(_) => Some(Action::TakeInitiative),
            Step::Scenario(ScenarioStep::ChooseRoles) => Some(Action::PlayerA(0)),
            Step::Scenario(ScenarioStep::ChooseZone { zone: ZoneKind::LeaderCorner, .. }) => {
                Some(Action::Zone(0))
            }
            Step::Scenario(ScenarioStep::ChooseZone { zone: ZoneKind::CrewCorner, .. }) => {
                Some(Action::Zone(1))
            }
            Step::Test { model, purpose: Purpose::Infiltrate, .. } => {
                let side = s.models()[model as usize].side;
                let want = if side == 1 { level } else { TestLevel::Pass };
                let i = s.pending_test().unwrap().iter().position(|(o, _)| o.level == want).unwrap();
                Some(Action::Chance(i as u8))
            }
            Step::ChooseCard { .. } => Some(Action::NoCard),
            Step::Scenario(ScenarioStep::Deploy { model, placement: Placement::Infiltrator(_) })
                if s.models()[model as usize].side == 1 =>
            {
                at_deploy = Some(s.clone());
                let legal = s.legal_actions();
                Some(legal[rng.gen_range(0..legal.len())])
            }
            _ => None,
        }
    });
    at_deploy.expect("side 1's scout deployed")
}

#[test]
fn the_infiltration_table_gives_each_result_its_zone_and_the_first_turn_ap() {
    let flat = flat_board_file("table", 36, 36);
    // Leaders: A (side 0) in corner 0 = (0,0), B (side 1) in corner 3 = (35,35); crews: B in
    // corner 1 = (35,0), A in corner 2 = (0,35). B's own edge is column 35 (corners 1 and 3);
    // its edge towards the enemy leader is row 0 (corners 1 and 0).
    let corners = Corners { crew: [2, 1], leader: [0, 3] };
    for level in [TestLevel::Pass, TestLevel::NailedIt, TestLevel::Feat, TestLevel::Fail, TestLevel::Blunder]
    {
        let s = infiltration_game(&flat, level);
        let Some(Step::Scenario(ScenarioStep::Deploy { model, placement })) = top(&s) else {
            panic!("{level:?}: not at a deployment: {}", s.describe_node())
        };
        assert_eq!(placement, Placement::Infiltrator(Some(level)));
        // The table's AP change waits for the first grant: +1 for a Feat, -1 for a Blunder.
        let adjust = match level {
            TestLevel::Feat => 1,
            TestLevel::Blunder => -1,
            _ => 0,
        };
        assert_eq!(s.models()[model as usize].ap_adjust, adjust, "{level:?}");
        assert_eq!(s.dynamic().scenario.zones, [[2, 0], [1, 3], [0, 0]]);
        let offered = offered_cells(&s);
        assert!(!offered.is_empty());
        let (strict, _) = expected_cells(&s, &corners, 1, placement);
        assert_eq!(offered, strict, "{level:?}");
        let b = s.board();
        for &c in &offered {
            let (x, y) = b.xy(c);
            match level {
                TestLevel::Pass => assert!(x >= 28 && (8..28).contains(&y), "{level:?}: ({x},{y})"),
                TestLevel::NailedIt | TestLevel::Feat => {
                    assert!(y < 8 && (8..28).contains(&x), "{level:?}: ({x},{y})")
                }
                _ => assert!(x >= 28 && y < 8, "{level:?}: ({x},{y})"),
            }
            assert!(clear_of_leaders(&s, c), "{level:?}: ({x},{y}) within 12\" of a leader");
        }
        // Cells the 12" rule removes from the Pass strip: those near B's own leader.
        if level == TestLevel::Pass {
            let l = &s.models()[leader(&s, 1) as usize];
            let near = (0..b.len() as CellIdx).find(|&c| {
                let (x, y) = b.xy(c);
                in_strip(b, x, y, 1, 3) && b.edge_distance(c, 0, l.cell, l.z) <= 12.0
            });
            let near = near.expect("the leader corner borders the strip");
            assert!(!offered.contains(&near), "c{near} is within 12\" of B's leader");
        }
        // A cell of each other zone is refused.
        let mut t = s.clone();
        let elsewhere = match level {
            TestLevel::Pass => b.idx(18, 2),
            TestLevel::NailedIt | TestLevel::Feat => b.idx(33, 18),
            _ => b.idx(18, 2),
        };
        assert!(t.apply_action(Action::Deploy(elsewhere)).is_err(), "{level:?}");
        assert_eq!(t, s, "an illegal deployment leaves the state unchanged");

        // Finish the set-up and look at the first turn's AP.
        let scout = model;
        let mut t = s.clone();
        finish_setup(&mut t, 1, |_| {});
        let p = t.profile(scout);
        assert_eq!((p.ap_gain, p.ap_max), (2, 3), "the scouts are 2(3)");
        let expected = match level {
            TestLevel::Feat => 3,
            TestLevel::Blunder => 1,
            _ => 2,
        };
        assert_eq!(t.models()[scout as usize].ap, expected, "{level:?}: first-turn AP");
        let (x, y) = t.board().xy(t.models()[scout as usize].cell);
        assert!(zone_of(t.board(), &corners, 1, placement, x, y));
        // Side 0's scout passed: no change to its AP.
        let other = (0..t.models().len() as ModelId)
            .find(|&m| t.models()[m as usize].side == 0 && t.profile(m).role == Role::Scout)
            .unwrap();
        assert_eq!(t.models()[other as usize].ap, 2);

        // The adjustment is for the first turn only: turn 2 grants the normal AP.
        let mut u = edited(&t, |d| {
            for m in d.models.iter_mut() {
                m.ap = 0;
            }
            d.steps = vec![Step::EndTurn].into();
        });
        assert_eq!(u.turn(), 2);
        force_chance(&mut u, |i| i == 0);
        u.apply_action(Action::TakeInitiative).unwrap();
        assert_eq!(u.models()[scout as usize].ap, 2, "{level:?}: second-turn AP");
        assert_eq!(u.models()[scout as usize].ap_adjust, 0);
    }
}

// ---------------------------------------------------------------------------------------
// Scoring and game end
// ---------------------------------------------------------------------------------------

/// A flat-board game after a random set-up, at the first activation of turn 1.
fn deployed(name: &str, seed: u64) -> GameState {
    let board = flat_board_file(name, 36, 36);
    let mut s = game(&board, ["artifacters_100", "the_firm_100"]);
    finish_setup(&mut s, seed, |_| {});
    // The set-up keeps everybody in the corners and edge strips, far from the centre.
    let b = s.board();
    let centre = s.dynamic().scenario.markers[0].cell;
    assert_eq!(b.xy(centre), (18, 18), "the treasure is in the centre of the board");
    for m in s.models() {
        let (x, y) = b.xy(m.cell);
        assert!(x.abs_diff(18) > 2 || y.abs_diff(18) > 2);
    }
    s
}

fn down(d: &mut engine::state::DynState, m: ModelId) {
    let model = &mut d.models[m as usize];
    model.health = Health::Down;
    model.wounds = 0;
    model.ap = 0;
    model.stance = Stance::Prone;
}

/// Some model of `side` other than its leader.
fn follower(s: &GameState, side: Side) -> ModelId {
    (0..s.models().len() as ModelId)
        .find(|&m| s.models()[m as usize].side == side && s.profile(m).role != Role::Leader)
        .unwrap()
}

#[test]
fn first_leader_taken_out_scores_6_down_leader_3_and_the_treasure_2() {
    let s = deployed("score_first", 3);
    let b = s.board();
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    let holder = follower(&s, 0);
    // Turn 4's cleanup: side 0's leader is down and burning; side 1's leader is down; a
    // model of side 0 stands diagonally against the treasure.
    let mut e = edited(&s, |d| {
        d.turn = 4;
        down(d, l0);
        d.models[l0 as usize].tokens.fire = 1;
        down(d, l1);
        d.models[holder as usize].cell = b.idx(19, 19);
        d.steps = vec![Step::EndTurn, Step::FireRoll { model: l0 }].into();
    });
    assert_eq!(e.dynamic().scenario.vp[..2], [0, 0]);
    // The fire wounds the down leader: it is taken out, and side 1 scores first.
    force_chance(&mut e, |i| i == 1);
    assert_eq!(e.models()[l0 as usize].health, Health::TakenOut);
    // By hand: side 1 took out the enemy leader first (6); side 0 has the enemy leader down
    // at the end (3) and holds the treasure (2): 5 against 6.
    assert!(e.is_terminal(), "a leader taken out ends the game at the end of turn 4");
    let o = e.outcome();
    assert_eq!(o.vp[..2], [5, 6]);
    assert_eq!(o.winner, Some(1));
    assert_eq!(o.margin(1), 1);
    assert_eq!(e.returns()[..2], [-1.0, 1.0]);
}

#[test]
fn the_second_side_to_take_out_the_enemy_leader_scores_5() {
    let s = deployed("score_second", 4);
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    let mut e = edited(&s, |d| {
        d.turn = 3;
        for l in [l0, l1] {
            down(d, l);
            d.models[l as usize].tokens.fire = 1;
        }
        // Side 1's leader burns first.
        d.steps = vec![Step::EndTurn, Step::FireRoll { model: l0 }, Step::FireRoll { model: l1 }].into();
    });
    force_chance(&mut e, |i| i == 1);
    assert_eq!(e.models()[l1 as usize].health, Health::TakenOut);
    assert_eq!(e.dynamic().scenario.vp[..2], [6, 0], "side 0 first");
    force_chance(&mut e, |i| i == 1);
    assert_eq!(e.models()[l0 as usize].health, Health::TakenOut);
    assert_eq!(e.dynamic().scenario.vp[..2], [6, 5], "side 1 second");
    // Turn 3: the game goes on to turn 4 although both leaders are out.
    assert!(!e.is_terminal());
    assert_eq!(e.turn(), 4);
    // A saved fire roll later scores nothing more.
    let burning = follower(&e, 0);
    let mut f = edited(&e, |d| {
        d.models[burning as usize].tokens.fire = 1;
        d.steps = vec![Step::EndTurn, Step::FireRoll { model: burning }].into();
    });
    force_chance(&mut f, |i| i == 0);
    assert!(f.is_terminal());
    assert_eq!(f.outcome().vp[..2], [6, 5], "taken-out leaders are not also down leaders");
    assert_eq!(f.outcome().winner, Some(0));
}

#[test]
fn leaders_taken_out_in_the_same_event_both_score_as_first() {
    // docs/rulings.md: both taken out at once both count as first.
    let s = deployed("score_same", 5);
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    let burning = follower(&s, 0);
    let mut e = edited(&s, |d| {
        d.turn = 2;
        for l in [l0, l1] {
            d.models[l as usize].health = Health::TakenOut;
        }
        d.models[burning as usize].tokens.fire = 1;
        d.steps = vec![Step::EndTurn, Step::FireRoll { model: burning }].into();
    });
    force_chance(&mut e, |i| i == 0);
    assert_eq!(e.dynamic().scenario.vp[..2], [6, 6]);
}

#[test]
fn the_treasure_is_held_by_conscious_models_in_base_contact_with_no_conscious_enemy_touching_it() {
    let s = deployed("treasure", 6);
    let b = s.board();
    let (a, e) = (follower(&s, 0), follower(&s, 1));
    let end = |edit: &dyn Fn(&mut engine::state::DynState)| {
        let t = edited(&s, |d| {
            d.turn = 6;
            edit(d);
            d.steps = vec![Step::EndTurn].into();
        });
        assert!(t.is_terminal(), "turn 6 is the last");
        [t.outcome().vp[0], t.outcome().vp[1]]
    };
    assert_eq!(end(&|_| {}), [0, 0], "nobody holds it");
    assert_eq!(end(&|d| d.models[a as usize].cell = b.idx(17, 18)), [2, 0], "base contact");
    assert_eq!(end(&|d| d.models[a as usize].cell = b.idx(17, 17)), [2, 0], "diagonal contact");
    assert_eq!(end(&|d| d.models[a as usize].cell = b.idx(16, 18)), [0, 0], "2\" away is not contact");
    assert_eq!(
        end(&|d| {
            d.models[a as usize].cell = b.idx(17, 18);
            d.models[e as usize].cell = b.idx(19, 19);
        }),
        [0, 0],
        "contested"
    );
    assert_eq!(end(&|d| d.models[e as usize].cell = b.idx(18, 19)), [0, 2], "either side");
    // Leaders down at the end of turn 6 (none taken out): 3 each to the other side.
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    assert_eq!(end(&|d| down(d, l1)), [3, 0]);
    assert_eq!(
        end(&|d| {
            down(d, l0);
            down(d, l1);
            d.models[e as usize].cell = b.idx(18, 19);
        }),
        [3, 5]
    );
}

#[test]
fn the_game_ends_at_the_end_of_turn_4_or_later_only_if_a_leader_is_taken_out() {
    let s = deployed("end", 8);
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    let end_of = |turn: u8, edit: &dyn Fn(&mut engine::state::DynState)| {
        edited(&s, |d| {
            d.turn = turn;
            edit(d);
            d.steps = vec![Step::EndTurn].into();
        })
    };
    let out =
        |m: ModelId| move |d: &mut engine::state::DynState| d.models[m as usize].health = Health::TakenOut;
    // Turn 4 with a leader taken out (either side's): the game ends.
    assert!(end_of(4, &out(l0)).is_terminal());
    assert!(end_of(4, &out(l1)).is_terminal());
    assert!(end_of(5, &out(l1)).is_terminal(), "or the end of any later turn");
    // Turn 3 with a leader taken out: turn 4 begins.
    let t = end_of(3, &out(l0));
    assert!(!t.is_terminal());
    assert_eq!(t.turn(), 4);
    assert_eq!(top(&t), Some(Step::RollOff), "turn 4 starts with the initiative roll-off");
    // Turn 4 and 5 with no leader taken out (one down): the game goes on.
    for turn in [4, 5] {
        let t = end_of(turn, &|d| down(d, l1));
        assert!(!t.is_terminal(), "turn {turn}");
        assert_eq!(t.turn(), turn + 1);
    }
    // Other models taken out do not end it.
    let (f0, f1) = (follower(&s, 0), follower(&s, 1));
    assert!(!end_of(4, &|d| {
        out(f0)(d);
        out(f1)(d);
    })
    .is_terminal());
    // Otherwise the game ends once turn 6 is complete.
    assert!(end_of(6, &|_| {}).is_terminal());
}

// ---------------------------------------------------------------------------------------
// Mounted leaders
// ---------------------------------------------------------------------------------------

/// Copy a folder tree.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_crew_led_by_a_mounted_leader_may_not_play_assassinate() {
    // The shipped catalog has no mounted leader (its only cavalry profile, Cavalry Nix, is a
    // scout), so a copy of the configs gets one: the Artifacter Captain on a Yuttaraptor.
    let configs = temp_dir("mounted").join("configs");
    copy_tree(&engine::data::configs_dir(), &configs);
    let faction = configs.join("factions").join("artifacters.toml");
    let mut text = std::fs::read_to_string(&faction).unwrap();
    text.push_str(
        r#"
[[profile]]
id = "cavalry_captain"
name = "Mounted Artifacter Captain"
type = "cavalry"
role = "leader"
frequency = 1
points = 38
ap = "3(4)"
speed = "5/8"
wounds = 4
cc = 6
agility = 6
marksmanship = 6
intelligence = 7
toughness = 4
armour = 0
skills = []
los_template = "E"
base_mm = 50
rider = "artifacter_captain"
mount = "yuttaraptor"
[[profile.weapon]]
name = "Revolver"
range = "8/14"
damage = "2/3"
[[profile.weapon]]
name = "Machete"
damage = "2/3"
"#,
    );
    std::fs::write(&faction, text).unwrap();
    let crew = configs.join("crews").join("mounted_leader.toml");
    std::fs::write(
        &crew,
        r#"name = "Mounted Captain"
faction = "Artifacters"
points = 100
models = ["cavalry_captain", "nix", "artifacter_medic", "artifacter_delver"]
cards = ["artifacters_leaders_resolve"]
"#,
    )
    .unwrap();
    let config = |scenario, crews: [&str; 2]| GameConfig {
        configs: configs.clone(),
        board: "sunken_plaza".into(),
        crews: crews.map(String::from),
        scenario,
        ..Default::default()
    };
    // The crew is legal: it plays a skirmish and the other scenarios.
    for scenario in [Scenario::Skirmish, Scenario::GrudgeMatch, Scenario::ScavengerHunt] {
        new_game(&config(scenario, ["mounted_leader", "the_firm_100"]))
            .unwrap_or_else(|e| panic!("{scenario:?}: {e}"));
    }
    for crews in [["mounted_leader", "the_firm_100"], ["the_firm_100", "mounted_leader"]] {
        let err = new_game(&config(Scenario::Assassinate, crews)).expect_err("mounted leader refused");
        let msg = err.to_string();
        assert!(msg.contains("p.78"), "{msg}");
        assert!(msg.contains("mounted_leader"), "the error names the crew file: {msg}");
    }
    // A mounted model that is not the leader is allowed.
    new_game(&config(Scenario::Assassinate, ["artifacters_150_raptor_riders", "the_firm_150"]))
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(configs.parent().unwrap());
}
