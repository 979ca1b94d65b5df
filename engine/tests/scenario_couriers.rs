//! Scenario 4, Couriers (rulebook p.82): courier nomination, deployment order and zones, the
//! infiltration table (with "Nailed It" arrivals on any board edge in a later turn), leaving
//! by the enemy deployment edge, passing, taking, dropping and picking up prizes, scoring and
//! the end of the game.
//!
//! Zones are recomputed here from the rulebook's numbers (4" deployment strip, board halves,
//! board edges), not taken from the engine.

mod common;

use common::geometry::{
    chebyshev, edge_of, free, ground, in_strip, no_cards, own_half, player_a, to_edge, top,
};

use common::{decline_declarations, edited, finish_setup, force_test, force_wounds, in_setup, scenario_game};
use engine::board::{Board, CellIdx, Terrain};
use engine::dice::TestLevel;
use engine::profile::{ModelType, Role};
use engine::scenario::{MarkerKind, Placement, Scenario, ScenarioStep};
use engine::state::{DynState, Health, InteractKind, ModelId, Purpose, Side, Stance, Step};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

const SCENARIO: Scenario = Scenario::Couriers;
/// Side 0: m0 militia captain, m1 bulwark, m2 surgeon, m3 rifleman (a troop), m8 ranger
/// (Scout). Side 1: m4 Kaneda, m5 Hosk, m6 sawbones, m7 enforcer (a troop), m9 lookout
/// (Scout).
const CREWS: [&str; 2] = ["militia_100", "the_firm_100"];
const BOARD: &str = "sunken_plaza";
const CAPTAIN: ModelId = 0;
const BULWARK: ModelId = 1;
const RIFLEMAN: ModelId = 3;
const KANEDA: ModelId = 4;
const HOSK: ModelId = 5;
const RANGER: ModelId = 8;

// ---------------------------------------------------------------------------------------
// Geometry from the rulebook: 1" cells, edges 0 = row 0, 1 = last row, 2 = column 0,
// 3 = last column.

fn on_any_edge(b: &Board, c: CellIdx) -> bool {
    (0..4).any(|e| to_edge(b, c, e) == 0)
}

fn is_scout(s: &GameState, m: ModelId) -> bool {
    s.profile(m).role == Role::Scout
}

fn courier(s: &GameState, side: Side) -> Option<ModelId> {
    s.dynamic().scenario.couriers[side as usize]
}

/// The cells offered at a deployment decision, and whether waiting is offered too.
fn offer(s: &GameState) -> (BTreeSet<CellIdx>, bool) {
    let mut cells = BTreeSet::new();
    let mut wait = false;
    for a in s.legal_actions() {
        match a {
            Action::Deploy(c) => {
                cells.insert(c);
            }
            Action::Reserve => wait = true,
            other => panic!("unexpected {other:?} at {}", s.describe_node()),
        }
    }
    (cells, wait)
}

/// The zone a placement allows in Couriers (there is no distance rule).
fn zone_for(s: &GameState, side: Side, placement: Placement, c: CellIdx) -> bool {
    let b = s.board();
    let own = edge_of(s, side);
    match placement {
        // The crew, the courier, and failed or blundered infiltrators: the regular zone.
        Placement::Crew
        | Placement::Courier
        | Placement::Infiltrator(Some(TestLevel::Fail | TestLevel::Blunder)) => in_strip(b, c, own),
        // Pass, "Nailed It" and Feat: anywhere in the own half.
        Placement::Infiltrator(Some(_)) => own_half(b, c, own),
        // A waiting "Nailed It" infiltrator: along any board edge.
        Placement::Arrival { .. } => on_any_edge(b, c),
        other => panic!("Couriers has no {other:?} placement"),
    }
}

/// The cells for `placement`: the zone, or anywhere free when the zone is full.
fn expected_cells(s: &GameState, side: Side, placement: Placement) -> BTreeSet<CellIdx> {
    let all: Vec<CellIdx> = (0..s.board().len() as CellIdx).filter(|&c| free(s, side, c)).collect();
    let zone: BTreeSet<CellIdx> = all.iter().copied().filter(|&c| zone_for(s, side, placement, c)).collect();
    if zone.is_empty() {
        all.into_iter().collect()
    } else {
        zone
    }
}

// ---------------------------------------------------------------------------------------
// Driving the game.

/// Resolve the set-up with seeded random choices until `stop` holds. With `fixed`, side 0 is
/// player A and takes edge 0 (row 0), and each side nominates its leader as courier.
fn play_until(s: &mut GameState, seed: u64, fixed: bool, stop: impl Fn(&GameState) -> bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !stop(s) {
        assert!(in_setup(s), "set-up ended before the expected node");
        let action = match (s.current_player(), top(s)) {
            (Player::Chance, _) => s.sample_chance(&mut rng).unwrap(),
            (_, Step::Scenario(ScenarioStep::ChooseRoles)) if fixed => Action::PlayerA(0),
            (_, Step::Scenario(ScenarioStep::ChooseZone { .. })) if fixed => Action::Zone(0),
            (_, Step::Scenario(ScenarioStep::ChooseCourier(side))) if fixed => {
                let leader = (0..s.models().len() as ModelId)
                    .find(|&m| s.models()[m as usize].side == side && s.profile(m).role == Role::Leader)
                    .expect("a leader");
                Action::Nominate(leader)
            }
            (Player::Side(_), _) => {
                let mut legal = s.legal_actions();
                if fixed && legal.len() > 1 {
                    // Everybody deploys now (tests that want a late arrival choose it).
                    legal.retain(|&a| a != Action::Reserve);
                }
                legal[rng.gen_range(0..legal.len())]
            }
            (Player::Terminal, _) => panic!("terminal in set-up"),
        };
        s.apply_action(action).unwrap();
    }
}

/// A game after a seeded set-up with fixed roles: side 0 (player A) on row 0 with the captain
/// as courier, side 1 on the last row with Kaneda.
fn deployed_with(crews: [&str; 2], seed: u64) -> GameState {
    let mut s = scenario_game(SCENARIO, BOARD, crews);
    play_until(&mut s, seed, true, |s| !in_setup(s));
    assert_eq!((player_a(&s), edge_of(&s, 0), edge_of(&s, 1)), (0, 0, 1));
    s
}

fn deployed(seed: u64) -> GameState {
    let s = deployed_with(CREWS, seed);
    assert_eq!((courier(&s, 0), courier(&s, 1)), (Some(CAPTAIN), Some(KANEDA)));
    s
}

/// Put `m` on `cell` (conscious, at ground level).
fn put(d: &mut DynState, board: &Board, m: ModelId, cell: CellIdx) {
    let model = &mut d.models[m as usize];
    model.cell = cell;
    model.z = board.cell(cell).height;
    model.stance =
        if board.cell(cell).terrain == Terrain::Water { Stance::Swimming } else { Stance::Standing };
    model.health = Health::Conscious;
}

/// A ground cell passing `pred` that no model on the table touches.
fn lonely(s: &GameState, pred: impl Fn(CellIdx) -> bool) -> CellIdx {
    let b = s.board();
    (0..b.len() as CellIdx)
        .find(|&c| {
            ground(b, c)
                && b.cell(c).height == 0
                && pred(c)
                && !s.models().iter().any(|m| m.is_on_table() && chebyshev(b, m.cell, c) <= 2)
        })
        .expect("a lonely cell")
}

/// A ground cell next to `at` (height 0, like it), passing `pred`.
fn next_to(s: &GameState, at: CellIdx, pred: impl Fn(CellIdx) -> bool) -> CellIdx {
    let b = s.board();
    let (x, y) = b.xy(at);
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
        .into_iter()
        .filter_map(|(dx, dy)| b.checked_idx(x as i32 + dx, y as i32 + dy))
        .find(|&c| ground(b, c) && b.cell(c).height == 0 && pred(c))
        .expect("a cell next to it")
}

/// `m`'s activation with `ap` action points, after `edit`.
fn activation(s: &GameState, m: ModelId, ap: u8, edit: impl FnOnce(&mut DynState)) -> GameState {
    edited(s, |d| {
        edit(d);
        d.models[m as usize].ap = ap;
        d.active = d.models[m as usize].side;
        d.activating = Some(m);
        d.sequence = None;
        d.steps = vec![Step::ChooseActivation, Step::ChooseAction(m)].into();
    })
}

/// The end of turn `turn` (its cleanup done), after `edit`.
fn end_of_turn(s: &GameState, turn: u8, edit: impl FnOnce(&mut DynState)) -> GameState {
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

fn vp(s: &GameState) -> [i16; 2] {
    let v = s.dynamic().scenario.vp;
    [v[0], v[1]]
}

// ---------------------------------------------------------------------------------------
// Set-up and deployment.

#[derive(Default)]
struct Seen {
    decisions: usize,
    courier_order: Vec<Side>,
    infiltration_sides: Vec<Side>,
    courier_deploy_order: Vec<Side>,
}

fn check_node(s: &GameState, seen: &mut Seen) {
    let b = s.board();
    let a = player_a(s);
    let bside = 1 - a;
    match top(s) {
        Step::Scenario(ScenarioStep::ChooseZone { side, .. }) => {
            assert_eq!(side, a, "player A chooses the edge");
            let long: Vec<Action> = (0..4u8)
                .filter(|&e| if e < 2 { b.width() >= b.depth() } else { b.depth() >= b.width() })
                .map(Action::Zone)
                .collect();
            assert_eq!(s.legal_actions(), long, "only long edges are deployment edges (p.76)");
        }
        Step::Scenario(ScenarioStep::ChooseCourier(side)) => {
            seen.courier_order.push(side);
            assert_eq!(s.current_player(), Player::Side(side));
            // "nominate one of their Characters": never a troop, beast or cavalry model.
            let characters: Vec<Action> = (0..s.models().len() as ModelId)
                .filter(|&m| {
                    s.models()[m as usize].side == side && s.profile(m).model_type == ModelType::Character
                })
                .map(Action::Nominate)
                .collect();
            assert!(!characters.is_empty());
            assert_eq!(s.legal_actions(), characters, "courier candidates of side {side}");
        }
        Step::Test { model, purpose: Purpose::Infiltrate, rerolled: false, .. } => {
            seen.infiltration_sides.push(s.models()[model as usize].side);
            assert_ne!(
                Some(model),
                courier(s, s.models()[model as usize].side),
                "the courier is not an infiltrator"
            );
            // Every model but the couriers and the infiltrators is on the table.
            for (i, m) in s.models().iter().enumerate() {
                let i = i as ModelId;
                if !is_scout(s, i) && courier(s, m.side) != Some(i) {
                    assert!(m.is_on_table(), "m{i} deploys before the infiltrators");
                }
            }
            assert!(courier(s, 0).is_some_and(|c| !s.models()[c as usize].is_on_table()));
            assert!(courier(s, 1).is_some_and(|c| !s.models()[c as usize].is_on_table()));
        }
        Step::Scenario(ScenarioStep::Deploy { model, placement }) => {
            seen.decisions += 1;
            let side = s.models()[model as usize].side;
            assert_eq!(s.current_player(), Player::Side(side));
            assert_eq!(s.models()[model as usize].health, Health::Reserve);
            // Both couriers are nominated before any model deploys, and hold their prizes.
            for sd in 0..2u8 {
                let c = courier(s, sd).expect("courier nominated");
                let prize = s.dynamic().scenario.markers[sd as usize];
                assert_eq!(prize.kind, MarkerKind::Prize(sd));
                assert_eq!(prize.holder, Some(c), "the courier holds its prize");
                assert!(!prize.placed, "the prize is on the profile card, not the table");
            }
            let (cells, wait) = offer(s);
            match placement {
                Placement::Crew => {
                    assert!(!is_scout(s, model), "infiltrators are set aside");
                    assert_ne!(Some(model), courier(s, side), "the courier is set aside");
                    assert!(!wait);
                    if side == bside {
                        for (i, m) in s.models().iter().enumerate() {
                            let i = i as ModelId;
                            if m.side == a && !is_scout(s, i) && courier(s, a) != Some(i) {
                                assert!(m.is_on_table(), "player A's m{i} deploys first");
                            }
                        }
                    } else {
                        assert!(s.models().iter().all(|m| m.side != bside || !m.is_on_table()));
                    }
                }
                Placement::Infiltrator(Some(level)) => {
                    assert!(is_scout(s, model));
                    assert_eq!(wait, level >= TestLevel::NailedIt, "waiting is a \"Nailed It\" option");
                }
                Placement::Courier => {
                    seen.courier_deploy_order.push(side);
                    assert_eq!(Some(model), courier(s, side));
                    assert!(!wait);
                    // "Lastly": every other model is deployed or waits to arrive later.
                    for (i, m) in s.models().iter().enumerate() {
                        let i = i as ModelId;
                        if courier(s, 0) != Some(i) && courier(s, 1) != Some(i) {
                            let waits = s.dynamic().scenario.arrivals & (1 << i) != 0;
                            assert!(m.is_on_table() || waits, "m{i} before the couriers");
                        }
                    }
                }
                other => panic!("unexpected placement {other:?} in the set-up"),
            }
            assert_eq!(cells, expected_cells(s, side, placement), "cells for m{model} ({placement:?})");
        }
        _ => {}
    }
}

#[test]
fn every_offered_deployment_cell_is_in_the_right_zone_and_the_order_follows_the_rulebook() {
    let cases: [(&str, [&str; 2]); 3] = [
        ("sunken_plaza", CREWS),
        ("drowned_boulevard", ["artifacters_150_raptor_riders", "militia_150_levy"]),
        ("lagoon_docks", ["bondsmen_150_slavers", "the_firm_150_racket"]),
    ];
    let mut seen = Seen::default();
    for (board, crews) in cases {
        for seed in 0..6 {
            let mut s = scenario_game(SCENARIO, board, crews);
            let (c0, i0, d0) =
                (seen.courier_order.len(), seen.infiltration_sides.len(), seen.courier_deploy_order.len());
            finish_setup(&mut s, seed, |st| check_node(st, &mut seen));
            let a = player_a(&s);
            assert_eq!(seen.courier_order[c0..], [a, 1 - a], "couriers nominated from player A");
            assert_eq!(seen.courier_deploy_order[d0..], [1 - a, a], "couriers deployed from player B");
            // Infiltrators alternate, beginning with player A.
            let infiltrators = |side: Side| {
                (0..s.models().len() as ModelId)
                    .filter(|&m| {
                        s.models()[m as usize].side == side && is_scout(&s, m) && courier(&s, side) != Some(m)
                    })
                    .count()
            };
            let sides = &seen.infiltration_sides[i0..];
            assert_eq!(sides.len(), infiltrators(0) + infiltrators(1));
            let rounds = infiltrators(0).min(infiltrators(1));
            for (k, &side) in sides.iter().take(2 * rounds).enumerate() {
                assert_eq!(side, if k % 2 == 0 { a } else { 1 - a }, "{board} seed {seed}: {sides:?}");
            }
            // Player B takes the first activation; each courier is on the table with its prize.
            assert_eq!((s.turn(), s.dynamic().initiative, s.dynamic().active), (1, 1 - a, 1 - a));
            for side in 0..2u8 {
                let c = courier(&s, side).unwrap();
                assert!(s.models()[c as usize].is_conscious());
                assert!(in_strip(s.board(), s.models()[c as usize].cell, edge_of(&s, side)));
                assert_eq!(s.dynamic().scenario.markers[side as usize].holder, Some(c));
            }
            for (i, m) in s.models().iter().enumerate() {
                let waits = s.dynamic().scenario.arrivals & (1 << i) != 0;
                assert_eq!(m.health == Health::Reserve, waits, "{board} seed {seed} m{i}");
            }
        }
    }
    assert!(seen.decisions > 250, "{} deployment decisions checked", seen.decisions);
}

// ---------------------------------------------------------------------------------------
// The infiltration table.

/// Player A (side 0) makes the first infiltration test: its ranger.
fn infiltration(seed: u64, level: TestLevel) -> GameState {
    let mut s = scenario_game(SCENARIO, BOARD, CREWS);
    play_until(&mut s, seed, true, |s| {
        matches!(top(s), Step::Test { model: RANGER, purpose: Purpose::Infiltrate, .. })
    });
    force_test(&mut s, level);
    no_cards(&mut s);
    assert_eq!(
        top(&s),
        Step::Scenario(ScenarioStep::Deploy {
            model: RANGER,
            placement: Placement::Infiltrator(Some(level))
        })
    );
    s
}

/// The ranger's AP in turn 1 after deploying on `cell` and finishing the set-up.
fn turn_one_ap(mut s: GameState, cell: CellIdx, seed: u64) -> (u8, GameState) {
    s.apply_action(Action::Deploy(cell)).unwrap();
    play_until(&mut s, seed, true, |s| !in_setup(s));
    (s.models()[RANGER as usize].ap, s)
}

#[test]
fn infiltration_results_give_the_rulebook_zones() {
    for seed in 0..3 {
        for level in TestLevel::ALL {
            let s = infiltration(seed, level);
            let b = s.board();
            let (cells, wait) = offer(&s);
            let own = edge_of(&s, 0);
            assert_eq!(cells, expected_cells(&s, 0, Placement::Infiltrator(Some(level))), "{level:?}");
            if level.is_success() {
                assert!(cells.iter().all(|&c| own_half(b, c, own)), "{level:?}: own half");
                assert!(cells.iter().any(|&c| to_edge(b, c, own) >= 4), "{level:?}: past the strip");
            } else {
                assert!(cells.iter().all(|&c| to_edge(b, c, own) < 4), "{level:?}: regular zone");
            }
            assert_eq!(wait, level >= TestLevel::NailedIt, "{level:?}: may arrive later");
        }
    }
}

#[test]
fn a_feat_adds_an_ap_and_a_blunder_removes_one_in_turn_one() {
    for (level, delta) in [(TestLevel::Pass, 0i8), (TestLevel::Feat, 1), (TestLevel::Blunder, -1)] {
        let s = infiltration(2, level);
        let cell = *offer(&s).0.iter().next().unwrap();
        let (ap, t) = turn_one_ap(s, cell, 2);
        let p = t.profile(RANGER);
        assert_eq!(ap as i8, (p.ap_gain as i8 + delta).min(p.ap_max as i8), "{level:?}");
        // Turn 2: back to the normal grant.
        let mut u = end_of_turn(&t, 1, |_| {});
        assert!(matches!(top(&u), Step::RollOff), "nobody waits to arrive");
        u.apply_action(Action::Chance(0)).unwrap();
        u.apply_action(Action::TakeInitiative).unwrap();
        assert_eq!(u.models()[RANGER as usize].ap, p.ap_gain, "{level:?} in turn 2");
    }
}

#[test]
fn nailed_it_may_wait_and_arrive_on_any_board_edge_in_a_later_turn() {
    let mut s = infiltration(4, TestLevel::NailedIt);
    s.apply_action(Action::Reserve).unwrap();
    play_until(&mut s, 4, true, |s| !in_setup(s));
    assert_eq!(s.models()[RANGER as usize].health, Health::Reserve, "not on the table in turn 1");
    assert_eq!(s.models()[RANGER as usize].ap, 0);

    // Start of turn 2: it may arrive on any board edge, or wait again.
    let mut t = end_of_turn(&s, 1, |_| {});
    assert_eq!(t.turn(), 2);
    assert_eq!(
        top(&t),
        Step::Scenario(ScenarioStep::Deploy {
            model: RANGER,
            placement: Placement::Arrival { optional: true }
        })
    );
    let (cells, wait) = offer(&t);
    assert!(wait, "it may wait for a later turn");
    assert_eq!(cells, expected_cells(&t, 0, Placement::Arrival { optional: true }));
    let b = t.board();
    for edge in 0..4 {
        assert!(cells.iter().any(|&c| to_edge(b, c, edge) == 0), "edge {edge} is offered");
    }
    assert!(cells.iter().all(|&c| on_any_edge(b, c)));
    t.apply_action(Action::Reserve).unwrap();
    assert_eq!(t.models()[RANGER as usize].health, Health::Reserve);
    assert!(matches!(top(&t), Step::RollOff));

    // Start of turn 3: offered again; it arrives on column 0, a short edge.
    let mut u = end_of_turn(&t, 2, |_| {});
    assert_eq!(u.turn(), 3);
    let (cells, wait) = offer(&u);
    assert!(wait);
    let ub = u.board();
    let side_edge = *cells
        .iter()
        .find(|&&c| to_edge(ub, c, 2) == 0 && to_edge(ub, c, 0) > 0 && to_edge(ub, c, 1) > 0)
        .expect("a cell on column 0 only");
    u.apply_action(Action::Deploy(side_edge)).unwrap();
    let r = u.models()[RANGER as usize];
    assert_eq!((r.health, r.cell), (Health::Conscious, side_edge));
    u.apply_action(Action::Chance(0)).unwrap();
    u.apply_action(Action::TakeInitiative).unwrap();
    assert_eq!(u.models()[RANGER as usize].ap, u.profile(RANGER).ap_gain, "it acts in the turn it arrives");

    // Nothing is asked at the start of turn 4 once it has arrived.
    let v = end_of_turn(&u, 3, |_| {});
    assert!(matches!(top(&v), Step::RollOff));
}

// ---------------------------------------------------------------------------------------
// Leaving the battlefield.

/// A lonely cell on `side`'s enemy deployment edge.
fn on_enemy_edge(s: &GameState, side: Side) -> CellIdx {
    let enemy_edge = edge_of(s, 1 - side);
    lonely(s, |c| {
        to_edge(s.board(), c, enemy_edge) == 0 && to_edge(s.board(), c, 2) > 2 && to_edge(s.board(), c, 3) > 2
    })
}

/// `m` standing on its enemy edge, activated with 2 AP, leaves the table.
fn leave(s: &GameState, m: ModelId, edit: impl FnOnce(&mut DynState)) -> GameState {
    let side = s.models()[m as usize].side;
    let cell = on_enemy_edge(s, side);
    let board = s.board();
    let mut t = activation(s, m, 2, |d| {
        edit(d);
        put(d, board, m, cell);
    });
    assert!(t.legal_actions().contains(&Action::LeaveTable), "m{m} on the enemy edge");
    t.apply_action(Action::LeaveTable).unwrap();
    assert_eq!(t.models()[m as usize].health, Health::LeftTable);
    assert!(!t.models()[m as usize].is_on_table());
    t
}

#[test]
fn the_courier_carrying_its_prize_off_the_enemy_edge_scores_four_and_the_game_ends_after_turn_four() {
    let s = deployed(1);
    let t = leave(&s, CAPTAIN, |_| {});
    assert_eq!(vp(&t), [4, 0]);
    assert!(t.dynamic().scenario.markers[0].off_table, "the prize left with it");
    assert_eq!(t.dynamic().scenario.markers[0].kind, MarkerKind::Prize(0));

    // The end of turn 3: the game goes on; of turn 4: it ends.
    let u = end_of_turn(&t, 3, |_| {});
    assert!(!u.is_terminal());
    assert_eq!(u.turn(), 4);
    let v = end_of_turn(&t, 4, |_| {});
    assert!(v.is_terminal());
    assert_eq!(v.outcome().vp[..2], [4, 0]);
    assert_eq!(v.outcome().winner, Some(0));

    // A prize carried off in turn 5 ends the game after turn 5.
    let w = end_of_turn(&t, 5, |_| {});
    assert!(w.is_terminal());

    // With no prize off the table the game lasts six turns.
    for turn in 3..=5 {
        assert!(!end_of_turn(&s, turn, |_| {}).is_terminal(), "turn {turn}");
    }
    let x = end_of_turn(&s, 6, |_| {});
    assert!(x.is_terminal());
    assert_eq!(x.outcome().vp[..2], [0, 0], "nobody holds an enemy prize");
    assert_eq!(x.outcome().winner, None);
}

#[test]
fn leaving_needs_the_enemy_deployment_edge() {
    let s = deployed(2);
    let b = s.board();
    let own_edge = lonely(&s, |c| to_edge(b, c, 0) == 0 && to_edge(b, c, 2) > 2);
    // Column 0 away from both deployment edges (water there: the captain swims).
    let short_edge = (0..b.len() as CellIdx)
        .find(|&c| {
            to_edge(b, c, 2) == 0
                && (8..28).contains(&to_edge(b, c, 0))
                && b.cell(c).height == 0
                && matches!(b.cell(c).terrain, Terrain::Open | Terrain::Water)
        })
        .expect("a cell on the short edge");
    let one_short = lonely(&s, |c| to_edge(b, c, 1) == 1 && to_edge(b, c, 2) > 2 && to_edge(b, c, 3) > 2);
    for cell in [own_edge, short_edge, one_short] {
        let t = activation(&s, CAPTAIN, 2, |d| put(d, b, CAPTAIN, cell));
        assert!(!t.legal_actions().contains(&Action::LeaveTable), "at {:?}", b.xy(cell));
        assert!(t.clone().apply_action(Action::LeaveTable).is_err());
    }
    // On the enemy edge but in base contact with an enemy: fight or dodge only.
    let edge = on_enemy_edge(&s, 0);
    let beside = next_to(&s, edge, |c| to_edge(b, c, 1) == 0);
    let t = activation(&s, CAPTAIN, 2, |d| {
        put(d, b, CAPTAIN, edge);
        put(d, b, HOSK, beside);
    });
    assert!(!t.legal_actions().contains(&Action::LeaveTable));
    // Side 1 leaves by side 0's edge (row 0), not by its own.
    let t = activation(&s, HOSK, 2, |d| put(d, b, HOSK, edge));
    assert!(!t.legal_actions().contains(&Action::LeaveTable), "side 1's own edge");
}

#[test]
fn another_character_leaving_scores_one_and_a_troop_nothing() {
    let s = deployed(3);
    let t = leave(&s, BULWARK, |_| {});
    assert_eq!(vp(&t), [1, 0], "a character without a prize");
    assert!(!t.dynamic().scenario.markers.iter().any(|m| m.off_table));
    let u = leave(&t, RIFLEMAN, |_| {});
    assert_eq!(s.profile(RIFLEMAN).model_type, ModelType::Troop);
    assert_eq!(vp(&u), [1, 0], "a troop scores nothing");
    // No prize has left: the end of turn 4 does not end the game.
    assert!(!end_of_turn(&u, 4, |_| {}).is_terminal());
    // Side 1's Hosk leaving by row 0 scores for side 1.
    let v = leave(&u, HOSK, |_| {});
    assert_eq!(vp(&v), [1, 1]);
}

#[test]
fn carrying_the_enemy_prize_off_the_enemy_edge_scores_four() {
    let s = deployed(4);
    // Hosk (side 1) has side 0's prize.
    let t = leave(&s, HOSK, |d| d.scenario.markers[0].holder = Some(HOSK));
    assert_eq!(vp(&t), [0, 4]);
    assert!(t.dynamic().scenario.markers[0].off_table);
    let u = end_of_turn(&t, 4, |_| {});
    assert!(u.is_terminal(), "a prize left the table");
    assert_eq!(u.outcome().vp[..2], [0, 4], "no 2 VP for a prize that is gone");
    // A courier that passed its prize on scores as a mere character.
    let v = leave(&s, CAPTAIN, |d| d.scenario.markers[0].holder = Some(BULWARK));
    assert_eq!(vp(&v), [1, 0]);
    assert!(!v.dynamic().scenario.markers[0].off_table);
}

// ---------------------------------------------------------------------------------------
// Passing, taking, dropping and picking up prizes.

fn give(marker: u8, to: ModelId) -> Action {
    Action::Interact { kind: InteractKind::Give { marker }, target: to }
}

fn take(marker: u8, from: ModelId) -> Action {
    Action::Interact { kind: InteractKind::Take { marker }, target: from }
}

fn pick_up(marker: u8, actor: ModelId) -> Action {
    Action::Interact { kind: InteractKind::Marker { marker }, target: actor }
}

#[test]
fn a_prize_is_passed_to_and_taken_from_a_friend_in_base_contact_for_an_ap() {
    let s = deployed(5);
    let b = s.board();
    let spot = lonely(&s, |c| (14..22).contains(&to_edge(b, c, 0)) || to_edge(b, c, 0) == 2);
    let beside = next_to(&s, spot, |_| true);
    let mut t = activation(&s, CAPTAIN, 3, |d| {
        put(d, b, CAPTAIN, spot);
        put(d, b, BULWARK, beside);
    });
    let legal = t.legal_actions();
    assert!(legal.contains(&give(0, BULWARK)), "{legal:?}");
    assert!(!legal.contains(&give(0, KANEDA)), "not to an enemy");
    assert!(!legal.contains(&give(0, 2)), "not to a friend out of contact");
    t.apply_action(give(0, BULWARK)).unwrap();
    decline_declarations(&mut t);
    assert_eq!(t.current_player(), Player::Side(0), "no test");
    assert_eq!(t.dynamic().scenario.markers[0].holder, Some(BULWARK));
    assert_eq!(t.models()[CAPTAIN as usize].ap, 2, "one AP");
    // The captain takes it back.
    assert!(t.legal_actions().contains(&take(0, BULWARK)));
    assert!(!t.legal_actions().contains(&give(0, BULWARK)), "it holds nothing to give");
    t.apply_action(take(0, BULWARK)).unwrap();
    decline_declarations(&mut t);
    assert_eq!(t.dynamic().scenario.markers[0].holder, Some(CAPTAIN));
    assert_eq!(t.models()[CAPTAIN as usize].ap, 1);
    // The bulwark, in its own activation, takes it from the captain.
    let mut u = activation(&t, BULWARK, 2, |_| {});
    assert!(u.legal_actions().contains(&take(0, CAPTAIN)));
    u.apply_action(take(0, CAPTAIN)).unwrap();
    decline_declarations(&mut u);
    assert_eq!(u.dynamic().scenario.markers[0].holder, Some(BULWARK));

    // A model carries one prize at most: the bulwark holding side 1's prize cannot receive
    // the captain's, and the captain cannot take side 1's prize from it.
    let v = activation(&t, CAPTAIN, 2, |d| d.scenario.markers[1].holder = Some(BULWARK));
    let legal = v.legal_actions();
    assert!(!legal.contains(&give(0, BULWARK)));
    assert!(!legal.contains(&take(1, BULWARK)));
    // The bulwark can pass side 1's prize to a friend carrying nothing.
    let w = activation(&v, BULWARK, 2, |d| d.scenario.markers[0].holder = None);
    assert!(w.legal_actions().contains(&give(1, CAPTAIN)));
}

#[test]
fn beasts_never_carry_a_prize() {
    // The militia sappers field a yuttaraptor (a beast), m4.
    let s = deployed_with(["militia_sappers_100", "the_firm_100"], 6);
    let raptor = (0..s.models().len() as ModelId)
        .find(|&m| s.models()[m as usize].side == 0 && s.profile(m).model_type == ModelType::Beast)
        .expect("a beast");
    let c = courier(&s, 0).unwrap();
    let b = s.board();
    let spot = lonely(&s, |c| to_edge(b, c, 0) == 2);
    let beside = next_to(&s, spot, |_| true);
    let t = activation(&s, c, 3, |d| {
        put(d, b, c, spot);
        put(d, b, raptor, beside);
    });
    assert!(!t.legal_actions().contains(&give(0, raptor)), "a beast never carries");
    let u = activation(&t, raptor, 2, |_| {});
    assert!(!u.legal_actions().contains(&take(0, c)), "nor takes");
}

/// Resolve an attack declared by the active model: its tests hit, the defender's fail, the
/// armour roll lets `wounds` through; stop at the next decision of the game (not a
/// declaration).
fn resolve_attack(s: &mut GameState, attacker: ModelId, wounds: u8) {
    loop {
        decline_declarations(s);
        no_cards(s);
        match s.node() {
            Some(Step::Test { model, .. }) => {
                let level = if *model == attacker { TestLevel::NailedIt } else { TestLevel::Fail };
                force_test(s, level);
            }
            Some(Step::Armour { .. }) => force_wounds(s, wounds),
            _ if s.current_player() == Player::Chance => {
                panic!("unexpected chance node {}", s.describe_node())
            }
            _ => return,
        }
    }
}

#[test]
fn a_downed_courier_drops_its_prize_where_the_enemy_chooses_and_an_enemy_picks_it_up() {
    let s = deployed(7);
    let b = s.board();
    let spot = lonely(&s, |c| to_edge(b, c, 0) == 2 && to_edge(b, c, 2) > 3);
    let beside = next_to(&s, spot, |c| to_edge(b, c, 0) == 2);
    let mut t = activation(&s, HOSK, 3, |d| {
        put(d, b, CAPTAIN, spot);
        d.models[CAPTAIN as usize].wounds = 1;
        put(d, b, HOSK, beside);
    });
    let attack = t
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::CloseCombat { target: CAPTAIN, .. }))
        .expect("Hosk can fight the captain");
    t.apply_action(attack).unwrap();
    resolve_attack(&mut t, HOSK, 1);
    assert_eq!(t.models()[CAPTAIN as usize].health, Health::Down);

    // The captain drops the prize; side 1 places it in base contact with the captain.
    assert_eq!(top(&t), Step::Scenario(ScenarioStep::DropMarker { marker: 0, chooser: 1, carrier: CAPTAIN }));
    assert_eq!(t.current_player(), Player::Side(1));
    let (x, y) = b.xy(spot);
    let around: BTreeSet<CellIdx> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .filter_map(|(dx, dy)| b.checked_idx(x as i32 + dx, y as i32 + dy))
        .filter(|&c| b.cell(c).terrain != Terrain::Impassable)
        .filter(|&c| b.cell(c).height.abs_diff(t.models()[CAPTAIN as usize].z) <= 1)
        .collect();
    let (cells, wait) = offer(&t);
    assert!(!wait);
    assert_eq!(cells, around, "anywhere in base contact with the carrier (within 1\" of height)");
    let prize = t.dynamic().scenario.markers[0];
    assert_eq!(prize.holder, None, "the captain no longer holds it");
    // Drop it beside Hosk, away from the captain's friends.
    let drop = *cells.iter().find(|&&c| c != beside && chebyshev(b, c, beside) == 1).unwrap();
    t.apply_action(Action::Deploy(drop)).unwrap();
    let prize = t.dynamic().scenario.markers[0];
    assert!(prize.placed && prize.holder.is_none() && !prize.off_table);
    assert_eq!(prize.cell, drop);

    // Hosk goes on with its activation and picks it up for an AP.
    assert_eq!(top(&t), Step::ChooseAction(HOSK));
    let ap = t.models()[HOSK as usize].ap;
    assert!(t.legal_actions().contains(&pick_up(0, HOSK)));
    t.apply_action(pick_up(0, HOSK)).unwrap();
    decline_declarations(&mut t);
    assert_eq!(t.dynamic().scenario.markers[0].holder, Some(HOSK));
    assert_eq!(t.models()[HOSK as usize].ap, ap - 1);

    // Kaneda, carrying side 1's prize, could not have picked it up.
    let k = activation(&t, KANEDA, 2, |d| {
        d.scenario.markers[0].holder = None;
        let next = next_to_cell(b, drop, spot, beside);
        put(d, b, KANEDA, next);
    });
    assert!(!k.legal_actions().contains(&pick_up(0, KANEDA)), "one prize at most");

    // Holding the enemy prize counts only when the game ends: 2 VP.
    let u = end_of_turn(&t, 5, |_| {});
    assert!(!u.is_terminal());
    assert_eq!(vp(&u), [0, 0]);
    let v = end_of_turn(&t, 6, |_| {});
    assert!(v.is_terminal());
    assert_eq!(v.outcome().vp[..2], [0, 2]);
    assert_eq!(v.outcome().winner, Some(1));
}

/// A ground cell touching `at` other than `a` and `b`.
fn next_to_cell(board: &Board, at: CellIdx, a: CellIdx, b: CellIdx) -> CellIdx {
    let (x, y) = board.xy(at);
    (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter_map(|(dx, dy)| board.checked_idx(x as i32 + dx, y as i32 + dy))
        .find(|&c| c != at && c != a && c != b && ground(board, c))
        .expect("a free cell")
}

#[test]
fn a_hand_scored_game() {
    // Turn 4: the captain carries side 0's prize off row 35 (4); Hosk walks off row 0 (1 for
    // side 1); the bulwark holds side 1's prize, taken from Kaneda (2 at the end).
    // Final: side 0 4 + 2 = 6, side 1 1.
    let s = deployed(8);
    let t = leave(&s, CAPTAIN, |_| {});
    let u = leave(&t, HOSK, |_| {});
    assert_eq!(vp(&u), [4, 1]);
    let v = end_of_turn(&u, 4, |d| d.scenario.markers[1].holder = Some(BULWARK));
    assert!(v.is_terminal());
    let o = v.outcome();
    assert_eq!(o.vp[..2], [6, 1]);
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.margin(0), 5);
    assert_eq!(v.returns()[..2], [1.0, -1.0]);
    // Side 1 holding its own prize at the end scores nothing for it.
    let w = end_of_turn(&u, 4, |_| {});
    assert_eq!(w.outcome().vp[..2], [4, 1]);
}
