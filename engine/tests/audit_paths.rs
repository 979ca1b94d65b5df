//! Audit of the rules that trigger on entering or leaving something along a path (issue 38,
//! item 2 (a); docs/rulings.md, "Rules fidelity round 3"): water, smoke and the charge bonus,
//! base contact, falls, scatter, the AI models' reaction ranges and the ambush markers, each
//! checked at every point the mover passed, not only where it ends.

mod common;

use common::uc::{arranged, flat_game, place_next, run_until, to_side_a_activation};
use common::{custom, force_test, force_wounds, game_with, Position};
use engine::dice::TestLevel;
use engine::profile::{TemplateKind, Weapon, WeaponProperty};
use engine::state::{CombatKind, EnemyStep, ModelState, Purpose, Stance, Step};
use engine::{Action, GameState};

fn board_of(rows: &[String]) -> engine::board::Board {
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    common::board(&refs)
}

/// An open board `w` by `d` with the cells listed replaced (x, y, two-character cell).
fn board_with(w: usize, d: usize, cells: &[(usize, usize, &str)]) -> engine::board::Board {
    let mut rows: Vec<Vec<String>> = (0..d).map(|_| vec!["0.".to_string(); w]).collect();
    for &(x, y, c) in cells {
        rows[y][x] = c.to_string();
    }
    board_of(&rows.into_iter().map(|r| r.concat()).collect::<Vec<_>>())
}

/// A board 8" wide and 12" deep with a 1" strip of water across row 5.
fn strip_board() -> engine::board::Board {
    board_with(8, 12, &(0..8).map(|x| (x, 5, "0~")).collect::<Vec<_>>())
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

/// Decline the mover's nested action and command orders, up to the reactions.
fn until_reactions(s: &mut GameState) {
    loop {
        let decline = match top(s) {
            Some(Step::ChooseNested) => Action::NoNested,
            Some(Step::ChooseCommand) => Action::NoCommand,
            Some(Step::ChooseReaction | Step::ChooseReactionBy(_)) => return,
            other => panic!("expected the reactions, got {other:?}"),
        };
        s.apply_action(decline).unwrap();
    }
}

fn chebyshev(s: &GameState, a: u16, b: u16) -> i32 {
    let ((ax, ay), (bx, by)) = (s.board().xy(a), s.board().xy(b));
    (ax as i32 - bx as i32).abs().max((ay as i32 - by as i32).abs())
}

/// Play the sequence under way to its end: `model`'s tests come out at `level`, the others
/// fail, armour rolls save everything, dodge moves stay put, cards are declined.
fn finish(s: &mut GameState, model: u8, level: TestLevel) {
    for _ in 0..100 {
        if s.dynamic().sequence.is_none() {
            return;
        }
        match top(s) {
            Some(Step::Test { model: m, .. }) => {
                force_test(s, if m == model { level } else { TestLevel::Fail })
            }
            Some(Step::Armour { .. }) => force_wounds(s, 0),
            Some(Step::ChooseDodgeMove { model, .. }) => {
                s.apply_action(Action::DodgeMove(s.models()[model as usize].cell)).unwrap()
            }
            Some(Step::ChooseCard { .. }) => s.apply_action(Action::NoCard).unwrap(),
            _ => common::decline_declarations(s),
        }
    }
    panic!("the sequence never ended: {}", s.describe_node());
}

#[test]
fn nested_shots_and_firefights_are_refused_where_the_mover_touches_an_enemy() {
    // p.40: "Models which are in Base to Base Contact with an enemy Model may only perform a CC
    // or Dodge Action"; p.28: the nested action happens "at any point during the Active
    // Model's Movement Path"; p.38: a firefight answers the reaction where it happens. Kaneda
    // runs from (5,2) to (5,6) past Hosk at (6,4): he touches Hosk at path points 1 to 3.
    let mut s = Position::on(board_with(12, 16, &[]))
        .model(0, "kaneda", (5, 2))
        .model(1, "hosk", (6, 4))
        .model(1, "nix", (5, 12))
        .active(0);
    let hosk_cell = s.models()[1].cell;
    s.apply_action(Action::Move { dest: s.board().idx(5, 6), prone: false }).unwrap();
    let touching = |s: &GameState, point: u8| chebyshev(s, s.mover_pose(point).unwrap().cell, hosk_cell) <= 1;
    assert!((1..=3).all(|k| touching(&s, k)) && !touching(&s, 0) && !touching(&s, 4));
    let mut shots = 0;
    for a in s.legal_actions() {
        if let Action::Nested {
            kind: CombatKind::Shoot { .. } | CombatKind::Template { .. }, point, ..
        } = a
        {
            assert!(!touching(&s, point), "a nested shot at point {point}, in base contact with Hosk");
            shots += 1;
        }
    }
    assert!(shots > 0, "nested shots are offered where Kaneda is clear of Hosk");
    s.apply_action(Action::NoNested).unwrap();
    until_reactions(&mut s);
    // Hosk fights Kaneda as he passes: Kaneda may answer by fighting or dodging, not shooting.
    let mut fought = s.clone();
    let blow = fought
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: CombatKind::CloseCombat { .. }, .. }))
        .expect("Hosk may fight where Kaneda passes him");
    fought.apply_action(blow).unwrap();
    fought.apply_action(Action::EndReactions).unwrap();
    let answers = fought.legal_actions();
    assert!(answers.contains(&Action::Firefight { kind: CombatKind::Dodge, reactor: 1 }));
    assert!(answers
        .iter()
        .any(|a| matches!(a, Action::Firefight { kind: CombatKind::CloseCombat { .. }, .. })));
    assert!(
        !answers.iter().any(|a| matches!(
            a,
            Action::Firefight { kind: CombatKind::Shoot { .. } | CombatKind::Template { .. }, .. }
        )),
        "no firefight shot in base contact: {answers:?}"
    );
    // Nix shoots Kaneda at his start, clear of Hosk: there he may shoot back.
    let mut shot = s.clone();
    let nix_shot = Action::React { model: 2, kind: CombatKind::Shoot { weapon: 0 }, point: 0 };
    shot.apply_reaction_anywhere(nix_shot).unwrap();
    shot.apply_action(Action::EndReactions).unwrap();
    assert!(shot
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Firefight { kind: CombatKind::Shoot { .. }, reactor: 2 })));
}

/// Kaneda (side 0) runs from (3,3) across the water strip to (3,7); a side 1 model at (3,0)
/// shoots him with a Fire(2) gun as a reaction at path point `point`, and nails it.
fn burnt_at(point: u8) -> ModelState {
    let firebug = custom("nix", |p| {
        p.id = "firebug".into();
        p.skills.clear();
        p.weapons = vec![
            Weapon {
                name: "Fire Gun".into(),
                range: Some((3, 18)),
                damage: (1, 1),
                properties: vec![WeaponProperty::Fire(2)],
            },
            Weapon { name: "Fists".into(), range: None, damage: (1, 1), properties: vec![] },
        ];
    });
    let mut s = Position::on(strip_board()).model(0, "kaneda", (3, 3)).with(1, firebug, (3, 0)).active(0);
    let dest = s.board().idx(3, 7);
    s.apply_action(Action::Move { dest, prone: false }).unwrap();
    until_reactions(&mut s);
    let wet = s.board().idx(3, 5);
    assert_eq!(s.mover_pose(2).unwrap().cell, wet, "point 2 is in the water");
    s.apply_reaction_anywhere(Action::React { model: 1, kind: CombatKind::Shoot { weapon: 0 }, point })
        .unwrap();
    finish(&mut s, 1, TestLevel::NailedIt);
    let mover = s.models()[0];
    assert_eq!((mover.cell, mover.stance), (dest, Stance::Standing), "out of the water again");
    mover
}

#[test]
fn a_fire_hit_is_put_out_if_the_mover_enters_water_later_on_its_path_but_not_if_it_came_after() {
    // p.40: "When Models enter water they will automatically lose any and all Fire Tokens.
    // Swimming Models cannot be assigned Fire Tokens"; Fire(X), p.53: "If this Model enters
    // Water all Fire Tokens are immediately removed". The hit lands at the reaction's point
    // (p.36 Reaction Timing); its tokens go with the rest of the sequence's effects (p.39).
    for point in [0, 1, 2] {
        assert_eq!(burnt_at(point).tokens.fire, 0, "hit at point {point}, before or in the water");
    }
    for point in [3, 4] {
        assert_eq!(burnt_at(point).tokens.fire, 2, "hit at point {point}, after the water");
    }
}

#[test]
fn a_dodge_move_through_water_puts_the_fire_out() {
    // p.40: "When Models enter water they will automatically lose any and all Fire Tokens";
    // p.32 Nailed It: "up to 2" of Normal or Restricted Movement in the direction of your
    // choice". A burning Kaneda at (3,4) dodges across the water strip to (3,6).
    let s = Position::on(strip_board()).model(0, "kaneda", (3, 4)).model(1, "hosk", (7, 11)).active(0);
    let mut s = common::edited(&s, |d| d.models[0].tokens.fire = 2);
    common::declare(&mut s, Action::Dodge);
    force_test(&mut s, TestLevel::NailedIt);
    let across = Action::DodgeMove(s.board().idx(3, 6));
    assert!(s.legal_actions().contains(&across), "a 2\" dodge move across the strip");
    s.apply_action(across).unwrap();
    assert!(s.dynamic().sequence.is_none());
    assert_eq!(s.models()[0].stance, Stance::Standing);
    assert_eq!(s.models()[0].tokens.fire, 0, "the water on the way put the fire out");
}

#[test]
fn a_dodge_move_ends_out_of_base_contact_with_every_enemy() {
    // p.32 Dodge, Nailed It: "up to 2" of Normal or Restricted Movement ... (You may not use
    // this movement to Charge an enemy Model)"; p.34 Disengaging: "In order for a Model to move
    // out of Base to Base Contact with a Conscious enemy Model it must declare a Dodge Action
    // and use its resulting Dodge Move to disengage" (ruling 143). Kaneda at (4,4) touches
    // Hosk at (5,4); Nix stands at (4,7).
    let mut s = Position::on(board_with(9, 9, &[]))
        .model(0, "kaneda", (4, 4))
        .model(1, "hosk", (5, 4))
        .model(1, "nix", (4, 7))
        .active(0);
    common::declare(&mut s, Action::Dodge);
    force_test(&mut s, TestLevel::NailedIt);
    let here = s.models()[0].cell;
    let enemies = [s.models()[1].cell, s.models()[2].cell];
    let moves: Vec<u16> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::DodgeMove(c) if c != here => Some(c),
            _ => None,
        })
        .collect();
    assert!(!moves.is_empty(), "Kaneda may disengage");
    for c in moves {
        assert!(enemies.iter().all(|&e| chebyshev(&s, c, e) > 1), "{:?} touches an enemy", s.board().xy(c));
    }
    assert!(s.legal_actions().contains(&Action::DodgeMove(here)), "staying put is allowed");
}

/// Kaneda with a plain blade (CC 6) charges Hosk at (5,6) from (5,2), to (5,5): the Close
/// Combat attribute of his blow, on `board`, with small smoke clouds centred on `clouds`.
fn charge_attr(board: engine::board::Board, clouds: &[(u8, u8)], check: impl Fn(&GameState, &[u16])) -> u8 {
    let charger = custom("kaneda", |p| {
        p.id = "charger".into();
        p.weapons =
            vec![Weapon { name: "Plain Blade".into(), range: None, damage: (2, 3), properties: vec![] }];
    });
    let s = Position::on(board).with(0, charger, (5, 2)).model(1, "hosk", (5, 6)).active(0);
    let centres: Vec<u16> = clouds.iter().map(|&(x, y)| s.board().idx(x, y)).collect();
    let mut s = common::edited(&s, |d| {
        for &centre in &centres {
            d.clouds.push(engine::state::template::Cloud { centre, large: false, noxious: false });
        }
    });
    let charge = Action::Charge { target: 1, weapon: 0, dest: s.board().idx(5, 5) };
    let path: Vec<u16> =
        s.declared_path(charge).expect("the charge is legal").points.iter().map(|p| p.cell).collect();
    check(&s, &path);
    common::declare(&mut s, charge);
    loop {
        match top(&s) {
            Some(Step::Test { model: 0, purpose: Purpose::Movement, .. }) => {
                force_test(&mut s, TestLevel::NailedIt)
            }
            Some(Step::Test { model: 0, purpose: Purpose::Combat(_), attr, .. }) => return attr,
            other => panic!("expected the charger's blow, got {other:?}"),
        }
    }
}

fn under_smoke(s: &GameState, cell: u16) -> bool {
    s.dynamic()
        .clouds
        .iter()
        .any(|c| engine::state::template::covers(s, TemplateKind::Small, c.centre, c.centre, cell))
}

#[test]
fn a_charge_through_smoke_or_begun_in_water_has_no_charge_bonus_but_water_on_the_way_does_not_matter() {
    // p.33 Close Combat Modifiers: "Charged* +1 CC ... *Only Applicable if the Charging Model
    // did not begin their move in water"; Smoke (p.53): "no Model may gain a Charge Bonus if
    // part of their Charge Move was through Smoke".
    let plain = charge_attr(board_with(12, 10, &[]), &[], |_, _| {});
    assert_eq!(plain, 7, "CC 6 + 1 for the charge");
    let smoked = charge_attr(board_with(12, 10, &[]), &[(5, 4)], |s, path| {
        assert!(path.iter().any(|&c| under_smoke(s, c)), "the path runs through the cloud");
    });
    assert_eq!(smoked, 6, "part of the charge move was through smoke");
    let from_water = charge_attr(board_with(12, 10, &[(5, 2, "0~")]), &[], |_, _| {});
    assert_eq!(from_water, 6, "the charger began its move in water");
    let across_water = charge_attr(board_with(12, 10, &[(5, 4, "0~")]), &[], |s, path| {
        assert!(path.contains(&s.board().idx(5, 4)), "the path crosses the water");
    });
    assert_eq!(across_water, 7, "water on the way does not cost the bonus");
}

#[test]
fn a_charge_begun_under_smoke_has_no_charge_bonus() {
    // Smoke (p.53): "no Model may gain a Charge Bonus if part of their Charge Move was through
    // Smoke". A charger whose base starts under the cloud moves through it as it sets off
    // (ruling 137). The cloud centred at (5,1) covers the start (5,2), not (5,3) on.
    let attr = charge_attr(board_with(12, 10, &[]), &[(5, 1)], |s, path| {
        assert!(under_smoke(s, s.board().idx(5, 2)), "the charger starts under the smoke");
        assert!(!path.iter().any(|&c| under_smoke(s, c)), "and leaves it with its first step");
    });
    assert_eq!(attr, 6, "part of the charge move was through smoke");
}

/// Two 4" roofs with a 4" wide gap of open ground between them (as in tests/actions.rs).
fn leap_board() -> engine::board::Board {
    let row = ["4.", "4.", "4.", "0.", "0.", "0.", "0.", "4.", "4.", "4.", "4."].concat();
    board_of(&[row.clone(), row.clone(), row])
}

#[test]
fn a_fall_never_lands_in_base_contact_with_an_enemy() {
    // p.40: "During a Move Action it is not possible to fall, Fall or Blunder into Base to Base
    // Contact with an enemy Model. Instead place the Model 1" away from the enemy Model, while
    // staying as close to the original target Resting Point as possible"; p.42 likewise.
    let places = [(0, common::profile("kaneda"), (1, 1)), (1, common::profile("nix"), (4, 2))];
    let mut s = game_with(leap_board(), &places, Some(0));
    let dest = s.board().idx(7, 1);
    common::declare(&mut s, Action::Move { dest, prone: false });
    force_test(&mut s, TestLevel::Blunder);
    let nix = s.models()[1].cell;
    let seq = s.dynamic().sequence.clone().unwrap();
    let over = s.board().idx(4, 1);
    assert_eq!(chebyshev(&s, over, nix), 1, "(4,1) touches Nix");
    let i =
        seq.path.points.iter().position(|p| !p.rest && p.cell == over).expect("a mid-air point over (4,1)")
            as u8;
    s.apply_action(Action::FallPoint(i)).unwrap();
    let fallen = s.models()[0];
    assert!(!s.in_contact(0, 1), "not in base contact with Nix");
    assert!(chebyshev(&s, fallen.cell, over) <= 1, "as close to the fall point as it may be");
    assert_eq!(fallen.z, 0, "on the ground below");
}

#[test]
fn a_scatter_stops_before_hard_cover_on_its_way() {
    // Scatter (p.52): "If a scattering object meets a piece of solid terrain such as a wall,
    // tree or other solid object which would count as Hard Cover it will immediately stop at
    // that point". A row of crates runs across row 10, 2" beyond the target point (5,8).
    let board = board_with(12, 16, &(0..12).map(|x| (x, 10, "0h")).collect::<Vec<_>>());
    let bomber = custom("kaneda", |p| {
        p.id = "bomber".into();
        p.weapons = vec![
            Weapon {
                name: "Bomb".into(),
                range: Some((8, 14)),
                damage: (2, 3),
                properties: vec![WeaponProperty::Template(TemplateKind::Small), WeaponProperty::Deviate(5)],
            },
            Weapon { name: "Fists".into(), range: None, damage: (1, 1), properties: vec![] },
        ];
    });
    let s = Position::on(board).with(0, bomber, (5, 1)).model(1, "hosk", (5, 8)).active(0);
    let at = s.board().idx(5, 8);
    let landings: Vec<(u8, u8)> =
        (1..=10).map(|face| s.board().xy(engine::state::template::scatter(&s, at, face, 5))).collect();
    assert!(landings.iter().all(|&(_, y)| y < 10), "never on or beyond the crates: {landings:?}");
    assert!(landings.iter().any(|&(_, y)| y == 9), "stopped against them: {landings:?}");
    assert!(landings.iter().any(|&(_, y)| y < 8), "the other way it flies its 5\": {landings:?}");
}

// ---- The AI side (seed 003): reaction ranges, ambush markers, noise ----

/// Ambush marker kinds of configs/uc/spawn.toml: rustling fronds (range 6", flip on noise and
/// movement, spring on movement and shooting).
const FRONDS: u8 = 1;

/// A skirmish on the flat 24" table at side A's first activation with `dinos` raptors and one
/// marker of each kind in `markers`, arranged: side A's first character at `a_at`, the raptors
/// at `dino_at`, the markers at their cells with their sides up, one side B model kept at
/// (0, 0) and every other crew model out of the game. `edit` changes side A's model. Returns the
/// state, side A's model and the raptors.
fn arrange(
    dino_at: &[(u8, u8)],
    markers: &[(u8, (u8, u8), bool)],
    a_at: (u8, u8),
    edit: impl Fn(&mut ModelState),
) -> (GameState, usize, Vec<usize>) {
    arrange_game(flat_game(dino_at.len() as u8, markers.len() as u8), dino_at, markers, a_at, edit)
}

/// A skirmish on the 24" table `rows` describes with `ambush` markers still to place (as
/// `common::uc::flat_game` makes on a flat table).
fn game_on(rows: &[String], ambush: u8) -> GameState {
    let path = std::env::temp_dir().join(format!("tde-audit-{}-{}.board", std::process::id(), rows.len()));
    let text = format!("name: Audit\nsize: {}x{}\n{}\n", rows[0].len() / 2, rows.len(), rows.join("\n"));
    std::fs::write(&path, text).unwrap();
    let config = engine::setup::GameConfig {
        board: path.display().to_string(),
        scenario: engine::scenario::Scenario::Skirmish,
        ambush,
        ..Default::default()
    };
    let s = engine::setup::new_game(&config).expect("a game on the audit table");
    let _ = std::fs::remove_file(&path);
    s
}

/// [`arrange`] on a game made already, with the dinosaurs and markers still to place.
fn arrange_game(
    mut s: GameState,
    dino_at: &[(u8, u8)],
    markers: &[(u8, (u8, u8), bool)],
    a_at: (u8, u8),
    edit: impl Fn(&mut ModelState),
) -> (GameState, usize, Vec<usize>) {
    let dinos: Vec<usize> = dino_at.iter().map(|_| place_next(&mut s, 0)).collect();
    for &(kind, ..) in markers {
        s.apply_action(Action::Chance(kind)).unwrap();
        let first = s.legal_actions()[0];
        s.apply_action(first).unwrap();
    }
    let s = to_side_a_activation(s);
    let placed: Vec<(usize, (u8, u8))> = dinos.iter().copied().zip(dino_at.iter().copied()).collect();
    let (mut saved, a0) = arranged(&s, a_at, &placed);
    let board = s.static_data().board.clone();
    edit(&mut saved.state.models[a0]);
    for (i, &(_, (x, y), active)) in markers.iter().enumerate() {
        saved.state.uc.markers[i].cell = board.idx(x, y);
        saved.state.uc.markers[i].active = active;
    }
    (saved.restore("arranged").expect("a valid position"), a0, dinos)
}

fn distance(s: &GameState, a: u16, b: u16) -> f32 {
    s.board().ground_distance(a, b)
}

fn ambush_waits(s: &GameState) -> bool {
    matches!(s.node(), Some(Step::Enemy(EnemyStep::Ambush { .. })))
}

/// Play on until side A's model `a0`'s sequence is over (or an ambush roll waits).
fn after_sequence_of(s: &mut GameState, a0: usize) {
    run_until(s, |s| s.dynamic().sequence.as_ref().is_none_or(|q| q.actor as usize != a0) || ambush_waits(s));
}

#[test]
fn a_path_that_passes_through_a_reaction_range_or_a_markers_range_triggers_them() {
    // Seed 003, "Enemy reactions vs movement": "Player movement triggers a reaction if, during
    // any part of their movement, the character enters the movement range on the enemy profile
    // card"; "Ambush markers": "Passive markers flip to active when triggered by the reactions
    // listed on their profile card" (ruling 124: a point of the path within range). The path
    // (10,4) to (10,11) comes within range of the raptor (8") and the fronds (6") at (10,7)
    // only; it starts and ends out of both.
    let (mut s, a0, dinos) = arrange(&[(1, 7)], &[(FRONDS, (3, 7), false)], (10, 4), |_| {});
    let raptor = dinos[0];
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let dest = s.board().idx(10, 11);
    let mv = Action::Move { dest, prone: false };
    let path = s.declared_path(mv).unwrap();
    let (rc, mc) = (s.models()[raptor].cell, s.dynamic().uc.markers[0].cell);
    for (c, range) in [(rc, 8.0), (mc, 6.0)] {
        assert!(distance(&s, s.models()[a0].cell, c) > range && distance(&s, dest, c) > range);
        assert!(path.points.iter().any(|p| distance(&s, p.cell, c) <= range));
    }
    s.apply_action(mv).unwrap();
    after_sequence_of(&mut s, a0);
    assert!(s.dynamic().uc.markers[0].active, "the fronds flipped");
    assert!(
        s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == raptor),
        "the raptor reacts: {}",
        s.describe_node()
    );
}

/// Side A's model at (12,6) moves west to (8,6) and nests its revolver shot at the raptor at
/// (12,16) (9" away, beyond its 8" reaction range) at the start of its path; `markers` lie
/// around. The state once its sequence is over, and side A's model.
fn nested_shot_from_the_start(markers: &[(u8, (u8, u8), bool)]) -> (GameState, usize) {
    let (mut s, a0, dinos) = arrange(&[(12, 16)], markers, (12, 6), |_| {});
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let mv = Action::Move { dest: s.board().idx(8, 6), prone: false };
    let path = s.declared_path(mv).unwrap();
    for &(_, (x, y), _) in markers {
        let c = s.board().idx(x, y);
        assert!(distance(&s, s.models()[a0].cell, c) <= 6.0, "the start is within the fronds' 6\"");
        assert!(path.points.iter().all(|p| distance(&s, p.cell, c) > 6.0), "no point of the path is");
    }
    s.apply_action(mv).unwrap();
    let raptor = dinos[0] as u8;
    let nested = s
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Nested { kind: CombatKind::Shoot { .. }, target, point: 0 } if *target == raptor))
        .expect("a shot at the raptor nested at the start");
    s.apply_action(nested).unwrap();
    after_sequence_of(&mut s, a0);
    (s, a0)
}

#[test]
fn a_shot_nested_where_the_mover_was_within_a_markers_range_springs_it() {
    // Seed 003, "Ambush markers": "When active markers are triggered, roll on the spawn table"
    // (ruling 124: "by shooting if a players' model made a shot ... from a cell within that
    // range"); p.28: the nested shot "may occur at any point during the Active Model's
    // Movement Path". Active fronds 6" east of the start spring on shooting.
    let (s, _) = nested_shot_from_the_start(&[(FRONDS, (19, 6), true)]);
    assert!(ambush_waits(&s), "the shot fired within 6\" springs the fronds: {}", s.describe_node());
}

#[test]
fn a_nested_shots_noise_is_made_where_it_was_fired() {
    // Seed 003, Conversion, "Noise": "All ranged weapons have the noise property"; "Noise
    // reactions": the AI models and markers within 12" of the noise hear it (rulings 118, 121).
    let (s, a0) = nested_shot_from_the_start(&[]);
    assert_ne!(s.models()[a0].cell, s.board().idx(12, 6), "the mover went on");
    assert_eq!(s.dynamic().uc.noise, Some(s.board().idx(12, 6)), "the noise comes from the start");
}

#[test]
fn a_stealthed_mover_triggers_nothing_though_its_nested_dodge_reveals_it() {
    // Seed 003, "Stealth": "Models with stealth tokens do not trigger reactions during the
    // player phase ... If the result is greater than the stealthed model's AGILITY, remove its
    // stealth token. This still does not cause reactions"; p.48 (ruling 66): a stealthed model
    // declaring anything but a move loses its token at the end of that sequence.
    let (mut s, a0, _) =
        arrange(&[(12, 16)], &[(FRONDS, (6, 9), false)], (12, 6), |m| m.tokens.stealth = true);
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    s.apply_action(Action::Move { dest: s.board().idx(12, 9), prone: false }).unwrap();
    let dodge = s
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Nested { kind: CombatKind::Dodge, .. }))
        .expect("a nested dodge");
    s.apply_action(dodge).unwrap();
    after_sequence_of(&mut s, a0);
    assert!(!s.models()[a0].tokens.stealth, "revealed by its nested dodge");
    assert!(!s.dynamic().uc.markers[0].active, "the fronds did not notice the stealthed mover");
    assert!(s.dynamic().sequence.is_none(), "the raptor did not react: {}", s.describe_node());
}

#[test]
fn a_reach_charge_at_a_dinosaur_draws_its_answer_but_no_movement_reaction() {
    // Seed 003, "Charge": "The target will react with CC. Any other enemies will react to the
    // charge as though it was a movement action"; p.36: "each Model may only declare a single
    // Reaction against it". Side A's model charges the raptor with a Reach(2) machete from
    // 2" away.
    let (s, a0, dinos) = arrange(&[(12, 12)], &[], (12, 6), |_| {});
    let raptor = dinos[0] as u8;
    let blade = s.profile(a0 as u8).weapons.iter().position(|w| !w.is_ranged()).unwrap();
    let mut s = common::with_profile(&s, a0, |p| p.weapons[blade].properties.push(WeaponProperty::Reach(2)));
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let dest = s.board().idx(12, 9);
    let charge = Action::Charge { target: raptor, weapon: blade as u8, dest };
    assert!(s.legal_actions().contains(&charge), "a Reach charge from 2\" away");
    s.apply_action(charge).unwrap();
    after_sequence_of(&mut s, a0);
    assert_eq!(s.models()[a0].cell, dest, "the charge ended 2\" from the raptor");
    assert!(s.dynamic().sequence.is_none(), "the raptor answered the charge once: {}", s.describe_node());
}

#[test]
fn a_fall_never_lands_on_an_ambush_marker() {
    // Seed 003, "Ambush markers": "you may not stand on one" (ruling 123); p.42: a falling
    // model lands below its fall point, or as near it as it may. Two 4" roofs with a 4" gap
    // (x 11 to 14) across rows 10 to 12; the fronds lie in the gap at (12,11), under the leap
    // from (9,11) to (15,11).
    let rows: Vec<String> = (0..24)
        .map(|y| {
            (0..24)
                .map(|x| if (10..=12).contains(&y) && !(11..=14).contains(&x) { "4." } else { "0." })
                .collect::<String>()
        })
        .collect();
    let (mut s, a0, _) = arrange_game(game_on(&rows, 1), &[], &[(FRONDS, (12, 11), false)], (9, 11), |_| {});
    let marker = s.dynamic().uc.markers[0].cell;
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let dest = s.board().idx(15, 11);
    common::declare(&mut s, Action::Move { dest, prone: false });
    force_test(&mut s, TestLevel::Blunder);
    let seq = s.dynamic().sequence.clone().unwrap();
    let i = seq
        .path
        .points
        .iter()
        .position(|p| !p.rest && p.cell == marker)
        .expect("a mid-air point over the fronds");
    s.apply_action(Action::FallPoint(i as u8)).unwrap();
    assert_eq!(s.models()[a0].z, 0, "fallen into the gap");
    assert_ne!(s.models()[a0].cell, marker, "not on the marker");
}
