//! Grudge Match (scenario 2, rulebook p.80): secret grudges of a holder (own character)
//! against a target (enemy character), edge deployment with infiltrators anywhere in their
//! half, scoring 6/5 (holder) or 3/2 (another model) plus 2 for a conscious holder, the
//! announcement of scored grudges, hidden information, and the end conditions.

mod common;

use common::{decline_declarations, edited, finish_setup, force_test, force_wounds, scenario_game};
use engine::board::{Board, CellIdx, Terrain};
use engine::dice::TestLevel;
use engine::profile::{ModelType, Role};
use engine::scenario::{Grudge, Placement, Scenario, ScenarioStep, ZoneKind};
use engine::state::{DynState, Health, ModelId, Purpose, Side, Stance, Step};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde_grudge_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A flat open board file of the given size, by path.
fn flat_board_file(name: &str, width: u8, depth: u8) -> String {
    let mut text = format!("name: flat\nsize: {width}x{depth}\n");
    for _ in 0..depth {
        text.push_str(&"0.".repeat(width as usize));
        text.push('\n');
    }
    let path = temp_dir(name).join("flat.board");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn game(board: &str, crews: [&str; 2]) -> GameState {
    scenario_game(Scenario::GrudgeMatch, board, crews)
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

/// The side's characters (Model Type "Character": no troops, cavalry or beasts; p.58, p.61).
fn characters(s: &GameState, side: Side) -> Vec<ModelId> {
    (0..s.models().len() as ModelId)
        .filter(|&m| s.models()[m as usize].side == side && s.profile(m).model_type == ModelType::Character)
        .collect()
}

fn leader(s: &GameState, side: Side) -> ModelId {
    (0..s.models().len() as ModelId)
        .find(|&m| s.models()[m as usize].side == side && s.profile(m).role == Role::Leader)
        .unwrap()
}

fn by_id(s: &GameState, side: Side, id: &str) -> ModelId {
    (0..s.models().len() as ModelId)
        .find(|&m| s.models()[m as usize].side == side && s.profile(m).id == id)
        .unwrap_or_else(|| panic!("no {id} on side {side}"))
}

fn grudge(holder: ModelId, target: ModelId) -> Grudge {
    Grudge { holder, target, complete: false, revealed: false }
}

/// Distance in whole inches from a cell to a board edge (0 row 0, 1 last row, 2 column 0,
/// 3 last column).
fn to_edge(b: &Board, cell: CellIdx, edge: u8) -> u8 {
    let (x, y) = b.xy(cell);
    match edge {
        0 => y,
        1 => b.depth() - 1 - y,
        2 => x,
        _ => b.width() - 1 - x,
    }
}

/// Whether a cell is in the half of the board on `edge`'s side.
fn in_half(b: &Board, cell: CellIdx, edge: u8) -> bool {
    let extent = if edge < 2 { b.depth() } else { b.width() };
    (to_edge(b, cell, edge) as u16) * 2 < extent as u16
}

fn free_ground(s: &GameState, side: Side, cell: CellIdx) -> bool {
    let c = s.board().cell(cell);
    c.terrain == Terrain::Open
        && c.height <= 1
        && !s.models().iter().any(|m| m.is_on_table() && m.cell == cell)
        && !s.touches_enemy(side, cell, c.height, None)
}

// ---------------------------------------------------------------------------------------
// Grudge choices and deployment
// ---------------------------------------------------------------------------------------

#[test]
fn grudges_are_chosen_before_the_roll_off_among_own_and_enemy_characters() {
    // Troops, beasts and cavalry are not characters.
    let mut s = game("sunken_plaza", ["bondsmen_100_melee", "artifacters_150_raptor_riders"]);
    let ids = |s: &GameState, side| {
        characters(s, side).iter().map(|&m| s.profile(m).id.clone()).collect::<BTreeSet<_>>()
    };
    assert_eq!(ids(&s, 0), ["bondmaster", "bondsman_rigger", "lissz"].map(String::from).into());
    assert_eq!(
        ids(&s, 1),
        ["artifacter_captain", "artifacter_duellist", "artifacter_medic", "wayfarer_sellsword"]
            .map(String::from)
            .into()
    );
    for side in [0, 1] {
        assert_eq!(top(&s), Some(Step::Scenario(ScenarioStep::ChooseGrudge(side))));
        assert_eq!(s.current_player(), Player::Side(side));
        let expected: BTreeSet<Action> = characters(&s, side)
            .into_iter()
            .flat_map(|h| {
                characters(&s, 1 - side).into_iter().map(move |t| Action::Grudge { holder: h, target: t })
            })
            .collect();
        let legal: BTreeSet<Action> = s.legal_actions().into_iter().collect();
        assert_eq!(legal.len(), 12);
        assert_eq!(legal, expected, "side {side}");
        // Not a troop, a beast, cavalry, an enemy holder or an own target.
        let troop = (0..s.models().len() as ModelId)
            .find(|&m| s.models()[m as usize].side == side && s.profile(m).model_type != ModelType::Character)
            .unwrap();
        let own = characters(&s, side);
        let enemy = characters(&s, 1 - side);
        for bad in [
            Action::Grudge { holder: troop, target: enemy[0] },
            Action::Grudge { holder: own[0], target: own[1] },
            Action::Grudge { holder: enemy[0], target: own[0] },
        ] {
            let before = s.clone();
            assert!(s.apply_action(bad).is_err(), "{bad:?}");
            assert_eq!(s, before);
        }
        s.apply_action(Action::Grudge { holder: own[1], target: enemy[0] }).unwrap();
        assert_eq!(s.dynamic().scenario.grudges[side as usize], Some(grudge(own[1], enemy[0])));
    }
    assert_eq!(top(&s), Some(Step::RollOff), "then roll for initiative");
}

#[test]
fn every_deployment_decision_offers_the_edge_strip_or_for_infiltrators_the_own_half() {
    let flat = flat_board_file("legality", 36, 36);
    let flat_long = flat_board_file("legality_long", 48, 36);
    let cases: Vec<(String, [&str; 2])> = vec![
        (flat.clone(), ["the_firm_150_racket", "artifacters_100"]),
        (flat_long, ["militia_150_levy", "the_firm_150_racket"]),
        ("sunken_plaza".into(), ["artifacters_100", "the_firm_100"]),
        ("mangrove_ruins".into(), ["bondsmen_150", "militia_100_shooters"]),
        ("drowned_boulevard".into(), ["the_firm_150_racket", "bondsmen_150_slavers"]),
    ];
    let mut strict = 0;
    for (board, crews) in &cases {
        for seed in 0..4u64 {
            let ctx = format!("{board} {crews:?} seed {seed}");
            let mut s = game(board, *crews);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut edges = [0u8; 2];
            let mut order: Vec<(Side, bool)> = Vec::new();
            let mut player_a = 0;
            while common::in_setup(&s) {
                let action = match top(&s).unwrap() {
                    Step::Test { purpose: Purpose::Infiltrate, .. } => {
                        panic!("{ctx}: no infiltration test in a grudge match")
                    }
                    Step::Scenario(ScenarioStep::ChooseZone { side, zone: ZoneKind::Edge }) => {
                        player_a = s.dynamic().scenario.player_a;
                        assert_eq!(side, player_a, "{ctx}: player A chooses the edge");
                        let b = s.board();
                        let expected: Vec<Action> = if b.width() == b.depth() {
                            (0..4).map(Action::Zone).collect()
                        } else {
                            vec![Action::Zone(0), Action::Zone(1)] // the long edges
                        };
                        assert_eq!(s.legal_actions(), expected, "{ctx}");
                        let a = expected[rng.gen_range(0..expected.len())];
                        let Action::Zone(e) = a else { unreachable!() };
                        edges[side as usize] = e;
                        edges[1 - side as usize] = e ^ 1; // the opposite edge
                        a
                    }
                    Step::Scenario(ScenarioStep::Deploy { model, placement }) => {
                        let side = s.models()[model as usize].side;
                        assert_eq!(s.current_player(), Player::Side(side));
                        let scout = s.profile(model).role == Role::Scout;
                        match placement {
                            Placement::Crew => assert!(!scout, "{ctx}"),
                            Placement::Infiltrator(None) => assert!(scout, "{ctx}"),
                            other => panic!("{ctx}: {other:?}"),
                        }
                        order.push((side, scout));
                        let b = s.board();
                        let edge = edges[side as usize];
                        let expected: BTreeSet<CellIdx> = (0..b.len() as CellIdx)
                            .filter(|&c| free_ground(&s, side, c))
                            .filter(|&c| if scout { in_half(b, c, edge) } else { to_edge(b, c, edge) < 4 })
                            .collect();
                        let offered: BTreeSet<CellIdx> = s
                            .legal_actions()
                            .into_iter()
                            .map(|a| match a {
                                Action::Deploy(c) => c,
                                other => panic!("{ctx}: {other:?}"),
                            })
                            .collect();
                        if !expected.is_empty() {
                            strict += 1;
                            assert_eq!(offered, expected, "{ctx}: m{model} {placement:?}");
                        }
                        let v: Vec<CellIdx> = offered.into_iter().collect();
                        Action::Deploy(v[rng.gen_range(0..v.len())])
                    }
                    _ => match s.current_player() {
                        Player::Chance => s.sample_chance(&mut rng).unwrap(),
                        _ => {
                            let legal = s.legal_actions();
                            legal[rng.gen_range(0..legal.len())]
                        }
                    },
                };
                s.apply_action(action).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            }
            assert_eq!(s.dynamic().scenario.zones[0][0], edges[0], "{ctx}");
            assert_eq!(s.dynamic().scenario.zones[1][0], edges[1], "{ctx}");
            // A's crew, B's crew, then every infiltrator alternating from A.
            let b_side = 1 - player_a;
            let count = |side: Side, scout: bool| {
                (0..s.models().len() as ModelId)
                    .filter(|&m| {
                        s.models()[m as usize].side == side && (s.profile(m).role == Role::Scout) == scout
                    })
                    .count()
            };
            let mut expected = vec![(player_a, false); count(player_a, false)];
            expected.extend(vec![(b_side, false); count(b_side, false)]);
            let (mut ia, mut ib) = (count(player_a, true), count(b_side, true));
            let mut turn = player_a;
            while ia + ib > 0 {
                let left = if turn == player_a { &mut ia } else { &mut ib };
                if *left > 0 {
                    *left -= 1;
                    expected.push((turn, true));
                }
                turn = 1 - turn;
            }
            assert_eq!(order, expected, "{ctx}: deployment order");
            assert!(s.models().iter().all(|m| m.is_conscious()), "{ctx}: everybody deployed");
            assert_eq!((s.dynamic().initiative, s.dynamic().active), (b_side, b_side), "{ctx}: B first");
        }
    }
    assert!(strict > 100, "only {strict} strict checks");
}

// ---------------------------------------------------------------------------------------
// Hidden information
// ---------------------------------------------------------------------------------------

#[test]
fn the_enemys_unannounced_grudge_is_hidden_from_a_player() {
    let mut s = game("sunken_plaza", ["artifacters_100", "the_firm_100"]);
    let (c0, c1) = (characters(&s, 0), characters(&s, 1));
    // Side 1, choosing its own grudge, cannot tell which grudge side 0 chose.
    let mut x = s.clone();
    x.apply_action(Action::Grudge { holder: c0[0], target: c1[0] }).unwrap();
    let mut y = s.clone();
    y.apply_action(Action::Grudge { holder: c0[1], target: c1[2] }).unwrap();
    assert_ne!(x, y);
    assert_eq!(x.observation(1), y.observation(1));
    assert_eq!(x.information_state_key(1), y.information_state_key(1));
    assert_eq!(x.masked(1), y.masked(1));
    assert_eq!(x.legal_actions(), y.legal_actions());
    assert_ne!(x.observation(0), y.observation(0), "side 0 knows its own grudge");
    assert_ne!(x.information_state_key(0), y.information_state_key(0));
    assert_eq!(x.observation(0).scenario.grudges[0], Some(grudge(c0[0], c1[0])));
    assert_eq!(x.observation(1).scenario.grudges[0], None);

    // After the set-up: two games differing only in side 0's grudge.
    s.apply_action(Action::Grudge { holder: c0[0], target: c1[0] }).unwrap();
    s.apply_action(Action::Grudge { holder: c1[1], target: c0[1] }).unwrap();
    finish_setup(&mut s, 11, |_| {});
    let t = edited(&s, |d| d.scenario.grudges[0] = Some(grudge(c0[2], c1[3])));
    assert_eq!(s.observation(1), t.observation(1));
    assert_eq!(s.information_state_key(1), t.information_state_key(1));
    assert_ne!(s.information_state_key(0), t.information_state_key(0));
    assert_eq!(s.observation(1).scenario.grudges[1], Some(grudge(c1[1], c0[1])), "its own grudge");
    // Side 0 likewise cannot see side 1's.
    let u = edited(&s, |d| d.scenario.grudges[1] = Some(grudge(c1[0], c0[0])));
    assert_eq!(s.observation(0), u.observation(0));
    assert_eq!(s.information_state_key(0), u.information_state_key(0));
    assert_ne!(s.observation(1), u.observation(1));
    // An announced grudge is seen.
    let r = edited(&s, |d| d.scenario.grudges[0].as_mut().unwrap().revealed = true);
    assert_eq!(r.observation(1).scenario.grudges[0], r.dynamic().scenario.grudges[0]);
    assert_ne!(r.information_state_key(1), s.information_state_key(1));
}

#[test]
fn determinize_samples_any_enemy_grudge_the_player_cannot_rule_out() {
    let mut s = game("sunken_plaza", ["artifacters_100", "the_firm_100"]);
    let (c0, c1) = (characters(&s, 0), characters(&s, 1));
    s.apply_action(Action::Grudge { holder: c0[0], target: c1[0] }).unwrap();
    s.apply_action(Action::Grudge { holder: c1[1], target: c0[1] }).unwrap();
    finish_setup(&mut s, 12, |_| {});
    // One of side 1's characters (not side 0's true target) has been taken out.
    let gone = c1[2];
    let s = edited(&s, |d| d.models[gone as usize].health = Health::TakenOut);
    let key = s.information_state_key(1);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut holders = BTreeSet::new();
    let mut targets = BTreeSet::new();
    for _ in 0..400 {
        let w = s.determinize(1, &mut rng);
        let g = w.dynamic().scenario.grudges[0].expect("a grudge for side 0");
        assert!(c0.contains(&g.holder), "holder m{} is a side-0 character", g.holder);
        assert!(c1.contains(&g.target), "target m{} is a side-1 character", g.target);
        assert_ne!(g.target, gone, "a taken-out target would have been announced");
        assert!(!g.complete && !g.revealed);
        holders.insert(g.holder);
        targets.insert(g.target);
        // Everything side 1 knows is as it was.
        assert_eq!(w.information_state_key(1), key);
        assert_eq!(w.dynamic().scenario.grudges[1], s.dynamic().scenario.grudges[1]);
        assert_eq!(w.models(), s.models());
    }
    // Nothing about the true grudge leaks: every possibility comes up.
    assert_eq!(holders, c0.iter().copied().collect());
    assert_eq!(targets, c1.iter().copied().filter(|&m| m != gone).collect());

    // Side 0's view samples side 1's grudge the same way.
    let mut targets0 = BTreeSet::new();
    for _ in 0..200 {
        let w = s.determinize(0, &mut rng);
        assert_eq!(w.dynamic().scenario.grudges[0], s.dynamic().scenario.grudges[0]);
        let g = w.dynamic().scenario.grudges[1].unwrap();
        assert!(c1.contains(&g.holder) && c0.contains(&g.target));
        targets0.insert(g.target);
    }
    assert_eq!(targets0, c0.iter().copied().collect());

    // An announced grudge is known: it is kept.
    let r = edited(&s, |d| d.scenario.grudges[0].as_mut().unwrap().revealed = true);
    for _ in 0..50 {
        assert_eq!(r.determinize(1, &mut rng).dynamic().scenario.grudges, r.dynamic().scenario.grudges);
    }
}

// ---------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------

/// A deployed game on a flat board (side 0 the Artifacters, side 1 the Firm) with the given
/// grudges, at the first activation of turn 1.
fn grudge_game(name: &str, seed: u64, grudges: impl Fn(&GameState) -> [Grudge; 2]) -> GameState {
    let board = flat_board_file(name, 36, 36);
    let mut s = game(&board, ["artifacters_100", "the_firm_100"]);
    let [g0, g1] = grudges(&s);
    s.apply_action(Action::Grudge { holder: g0.holder, target: g0.target }).unwrap();
    s.apply_action(Action::Grudge { holder: g1.holder, target: g1.target }).unwrap();
    finish_setup(&mut s, seed, |_| {});
    s
}

/// The standard grudges: Nix against Hosk, and the Firm's lookout against Slethssk.
fn standard(s: &GameState) -> [Grudge; 2] {
    [
        grudge(by_id(s, 0, "nix"), by_id(s, 1, "hosk")),
        grudge(by_id(s, 1, "firm_lookout"), by_id(s, 0, "slethssk")),
    ]
}

fn down(d: &mut DynState, m: ModelId) {
    let model = &mut d.models[m as usize];
    model.health = Health::Down;
    model.wounds = 0;
    model.ap = 0;
    model.stance = Stance::Prone;
}

/// In turn 2, `attacker` stands against `target`, which is down, and strikes it in close
/// combat with a Pass: the target is taken out. `edit` prepares the rest.
fn strike(s: &GameState, attacker: ModelId, target: ModelId, edit: impl FnOnce(&mut DynState)) -> GameState {
    let b = s.board();
    let side = s.models()[attacker as usize].side;
    let mut e = edited(s, |d| {
        d.turn = 2;
        // Everybody else well away, on the far rows.
        let mut k = [0u8; 2];
        for (i, m) in d.models.iter_mut().enumerate() {
            if i as ModelId != attacker && i as ModelId != target {
                let row = if m.side == 0 { 0 } else { 35 };
                m.cell = b.idx(2 + 3 * k[m.side as usize], row);
                k[m.side as usize] += 1;
            }
        }
        d.models[attacker as usize].cell = b.idx(10, 18);
        d.models[attacker as usize].ap = 2;
        d.models[target as usize].cell = b.idx(11, 18);
        down(d, target);
        d.initiative = side;
        d.active = side;
        d.activating = Some(attacker);
        d.steps = vec![Step::ChooseActivation, Step::ChooseAction(attacker)].into();
        edit(d);
    });
    let weapon = e.profile(attacker).weapons.iter().position(|w| !w.is_ranged()).unwrap() as u8;
    common::declare(&mut e, Action::CloseCombat { weapon, target });
    force_test(&mut e, TestLevel::Pass);
    loop {
        match top(&e) {
            Some(Step::ChooseCard { .. }) => e.apply_action(Action::NoCard).unwrap(),
            Some(Step::Armour { .. }) => force_wounds(&mut e, 1),
            Some(Step::ChooseNested | Step::ChooseReaction | Step::ChooseFirefight | Step::ChooseCommand) => {
                decline_declarations(&mut e)
            }
            _ => break,
        }
    }
    assert_eq!(e.models()[target as usize].health, Health::TakenOut, "m{target} taken out");
    e
}

#[test]
fn the_holder_taking_out_its_target_first_scores_6_and_announces_the_grudge() {
    let s = grudge_game("holder_first", 1, standard);
    let [g0, _] = standard(&s);
    let e = strike(&s, g0.holder, g0.target, |_| {});
    assert_eq!(e.dynamic().scenario.vp[..2], [6, 0]);
    let g = e.dynamic().scenario.grudges[0].unwrap();
    assert!(g.complete && g.revealed);
    assert!(e.dynamic().scenario.first_scored);
    // Announced: side 1 now sees it.
    assert_eq!(e.observation(1).scenario.grudges[0], Some(g));
    assert_eq!(e.dynamic().scenario.grudges[1].map(|g| g.revealed), Some(false));
    assert!(!e.is_terminal());
}

#[test]
fn another_model_taking_out_the_target_first_scores_3() {
    let s = grudge_game("other_first", 2, standard);
    let [g0, _] = standard(&s);
    let other = by_id(&s, 0, "artifacter_medic");
    let e = strike(&s, other, g0.target, |_| {});
    assert_eq!(e.dynamic().scenario.vp[..2], [3, 0]);
    let g = e.dynamic().scenario.grudges[0].unwrap();
    assert!(g.complete && g.revealed);
    assert_eq!(e.observation(1).scenario.grudges[0], Some(g));
}

#[test]
fn the_second_grudge_completed_scores_5_by_the_holder_and_2_by_another_model() {
    let s = grudge_game("second", 3, standard);
    let [g0, g1] = standard(&s);
    // Side 1 has already completed its grudge (first, by its holder).
    let done = |d: &mut DynState| {
        d.models[g1.target as usize].health = Health::TakenOut;
        d.scenario.grudges[1] = Some(Grudge { complete: true, revealed: true, ..g1 });
        d.scenario.first_scored = true;
        d.scenario.vp[1] = 6;
    };
    let e = strike(&s, g0.holder, g0.target, done);
    assert_eq!(e.dynamic().scenario.vp[..2], [5, 6]);
    assert!(e.dynamic().scenario.grudges[0].unwrap().revealed);
    let other = by_id(&s, 0, "artifacter_captain");
    let e = strike(&s, other, g0.target, done);
    assert_eq!(e.dynamic().scenario.vp[..2], [2, 6]);
    assert!(e.dynamic().scenario.grudges[0].unwrap().complete);
}

#[test]
fn taking_out_someone_else_completes_nothing_and_keeps_the_grudge_secret() {
    let s = grudge_game("not_target", 4, standard);
    let [g0, _] = standard(&s);
    let bystander = by_id(&s, 1, "firm_sawbones");
    let e = strike(&s, g0.holder, bystander, |_| {});
    assert_eq!(e.dynamic().scenario.vp[..2], [0, 0]);
    assert!(!e.dynamic().scenario.first_scored);
    let g = e.dynamic().scenario.grudges[0].unwrap();
    assert!(!g.complete && !g.revealed);
    assert_eq!(e.observation(1).scenario.grudges[0], None);
    // Side 1's holder taking out side 0's own grudge holder does not complete side 0's grudge.
    let [_, g1] = standard(&s);
    let e = strike(&s, g1.holder, g0.holder, |_| {});
    assert_eq!(e.dynamic().scenario.vp[..2], [0, 0]);
}

#[test]
fn a_holder_still_conscious_at_the_end_scores_2_and_every_grudge_is_revealed() {
    let s = grudge_game("holder_end", 5, standard);
    let [g0, g1] = standard(&s);
    let end = |edit: &dyn Fn(&mut DynState)| {
        let t = edited(&s, |d| {
            d.turn = 6;
            edit(d);
            d.steps = vec![Step::EndTurn].into();
        });
        assert!(t.is_terminal());
        t
    };
    let t = end(&|_| {});
    assert_eq!(t.outcome().vp[..2], [2, 2], "both holders conscious");
    assert!(t.dynamic().scenario.grudges.iter().flatten().all(|g| g.revealed));
    assert_eq!(t.observation(1).scenario.grudges[0], t.dynamic().scenario.grudges[0]);
    let t = end(&|d| down(d, g1.holder));
    assert_eq!(t.outcome().vp[..2], [2, 0], "a down holder is not conscious");
    assert_eq!(t.returns()[..2], [1.0, -1.0]);
    let t = end(&|d| d.models[g0.holder as usize].health = Health::TakenOut);
    assert_eq!(t.outcome().vp[..2], [0, 2]);
    // Completed by the holder (6) and the holder still standing (2).
    let e = strike(&s, g0.holder, g0.target, |_| {});
    let t = edited(&e, |d| {
        d.turn = 6;
        d.steps = vec![Step::EndTurn].into();
    });
    assert!(t.is_terminal());
    assert_eq!(t.outcome().vp[..2], [8, 2]);
    assert_eq!(t.outcome().winner, Some(0));
}

// ---------------------------------------------------------------------------------------
// Game end
// ---------------------------------------------------------------------------------------

#[test]
fn the_game_ends_from_turn_4_when_a_victory_condition_is_met() {
    let s = grudge_game("end", 6, standard);
    let [g0, g1] = standard(&s);
    let (l0, l1) = (leader(&s, 0), leader(&s, 1));
    let end_of = |turn: u8, edit: &dyn Fn(&mut DynState)| {
        edited(&s, |d| {
            d.turn = turn;
            edit(d);
            d.steps = vec![Step::EndTurn].into();
        })
    };
    let complete = |d: &mut DynState, side: usize| {
        let g = d.scenario.grudges[side].as_mut().unwrap();
        g.complete = true;
        g.revealed = true;
        let target = g.target;
        d.models[target as usize].health = Health::TakenOut;
    };
    let ends = |turn: u8, edit: &dyn Fn(&mut DynState)| end_of(turn, edit).is_terminal();

    // Nothing met: the game goes on until turn 6.
    for turn in 1..=5 {
        let t = end_of(turn, &|_| {});
        assert!(!t.is_terminal(), "turn {turn}");
        assert_eq!(t.turn(), turn + 1);
    }
    assert!(ends(6, &|_| {}));

    // Both grudges complete.
    let both = |d: &mut DynState| {
        complete(d, 0);
        complete(d, 1);
    };
    assert!(ends(4, &both));
    assert!(ends(5, &both));
    assert!(!ends(3, &both), "checked from turn 4 only");
    // One grudge complete against a model that is not the enemy leader: not enough.
    assert!(!ends(4, &|d| complete(d, 0)));
    assert!(!ends(4, &|d| complete(d, 1)));

    // One grudge complete against the enemy leader.
    let against_leader = |side: usize, leader: ModelId| {
        move |d: &mut DynState| {
            d.scenario.grudges[side].as_mut().unwrap().target = leader;
            complete(d, side);
        }
    };
    assert!(ends(4, &against_leader(0, l1)));
    assert!(ends(4, &against_leader(1, l0)));
    assert!(!ends(3, &against_leader(0, l1)));
    // The enemy leader down, not taken out, is not a completed grudge.
    assert!(!ends(4, &|d| {
        d.scenario.grudges[0].as_mut().unwrap().target = l1;
        down(d, l1);
    }));

    // A side has lost both its grudge holder and the enemy's grudge target (both its own
    // models): side 0's holder is Nix and side 1's target is Slethssk.
    let lost = |a: ModelId, b: ModelId| {
        move |d: &mut DynState| {
            down(d, a);
            down(d, b);
        }
    };
    assert!(ends(4, &lost(g0.holder, g1.target)));
    assert!(ends(4, &lost(g1.holder, g0.target)));
    assert!(ends(4, &|d| {
        down(d, g0.holder);
        d.models[g1.target as usize].health = Health::TakenOut;
    }));
    assert!(!ends(3, &lost(g0.holder, g1.target)));
    // Only one of the two, or one from each side: the game goes on.
    assert!(!ends(4, &|d| down(d, g0.holder)));
    assert!(!ends(4, &|d| down(d, g1.target)));
    assert!(!ends(4, &lost(g0.holder, g1.holder)), "each side lost its own holder");
    assert!(!ends(4, &lost(g0.holder, g0.target)), "a holder and the target it hunts");
}
