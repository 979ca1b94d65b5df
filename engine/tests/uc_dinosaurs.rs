//! AI-controlled dinosaurs in TDE games (seed 003, "The Drowned Earth Conversion"): the players
//! take turns to place them, rolled on the spawn table, after the scenery and before
//! deployment; they are enemies of both players, hold no AP and are never activated by a
//! player; games with them save and restore.

use engine::record::SavedGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig, DEPLOYMENT_DEPTH};
use engine::state::{EnemyStep, Health, Step};
use engine::uc::AI_SIDE;
use engine::{Action, GameState, Player};

fn game(scenario: Scenario, dinos: u8) -> GameState {
    new_game(&GameConfig { scenario, dinos, ..GameConfig::default() }).expect("a game with dinosaurs")
}

/// Place the next dinosaur: roll `outcome` on the spawn table, then let the chooser take the
/// first legal cell.
fn place_next(state: &mut GameState, outcome: u8) -> usize {
    state.apply_action(Action::Chance(outcome)).unwrap();
    let cell = state.legal_actions()[0];
    state.apply_action(cell).unwrap();
    state.models().len() - 1
}

#[test]
fn the_spawn_table_roll_has_the_tables_odds_and_the_players_take_turns_to_place() {
    for scenario in [Scenario::Skirmish, Scenario::Couriers] {
        let mut s = game(scenario, 3);
        let crew_models = s.models().len();
        let uc = s.static_data().uc.clone().expect("the AI side");
        // The jungle table: one AI model per face of a D10.
        let faces = &uc.data.spawn_table("jungle").unwrap().faces;
        for placed in 0..3u8 {
            assert_eq!(s.current_player(), Player::Chance, "{scenario:?}: a roll on the spawn table first");
            let outcomes = s.chance_outcomes();
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-9);
            // Outcome k is the k-th distinct model of the table, with its share of the faces.
            let mut distinct: Vec<&String> = Vec::new();
            for f in faces {
                if !distinct.contains(&f) {
                    distinct.push(f);
                }
            }
            assert_eq!(outcomes.len(), distinct.len());
            for (k, id) in distinct.iter().enumerate() {
                let share = faces.iter().filter(|f| f == id).count() as f64 / 10.0;
                assert!((outcomes[k].1 - share).abs() < 1e-9, "{id}: {} vs {share}", outcomes[k].1);
            }
            let k = (placed as usize) % distinct.len();
            s.apply_action(Action::Chance(k as u8)).unwrap();
            // Side A places the first, side B the second, side A the third.
            assert_eq!(s.current_player(), Player::Side(placed % 2));
            let m = s.models().len() - 1;
            assert_eq!(s.models()[m].side, AI_SIDE);
            assert_eq!(&s.profile(m as u8).id, *distinct.get(k).unwrap());
            assert_eq!(s.models()[m].health, Health::Reserve, "off the table until placed");
            let cell = s.legal_actions()[0];
            s.apply_action(cell).unwrap();
            assert_eq!(s.models()[m].health, Health::Conscious);
        }
        assert_eq!(s.models().len(), crew_models + 3);
        // Then the game goes on as without them: the scenario's set-up or the first turn.
        assert!(!matches!(s.dynamic().steps.last(), Some(Step::Enemy(_))));
    }
}

#[test]
fn dinosaurs_are_placed_on_free_ground_outside_every_deployment_zone() {
    let mut s = game(Scenario::Skirmish, 2);
    s.apply_action(Action::Chance(0)).unwrap();
    let legal = s.legal_actions();
    assert!(!legal.is_empty());
    let board = s.board();
    let margin = DEPLOYMENT_DEPTH;
    for a in &legal {
        let Action::Deploy(c) = *a else { panic!("placement offers cells only, got {a}") };
        let (x, y) = board.xy(c);
        assert!(x >= margin && y >= margin && x < board.width() - margin && y < board.depth() - margin);
        assert!(!s.models().iter().any(|m| m.is_on_table() && m.cell == c), "an empty cell");
        assert_eq!(board.cell(c).terrain, engine::board::Terrain::Open);
    }
    // A cell off the list is refused and leaves the state as it was.
    let before = s.clone();
    let taken = s.models().iter().find(|m| m.is_on_table()).unwrap().cell;
    assert!(s.apply_action(Action::Deploy(taken)).is_err());
    assert_eq!(s, before);
    // The second dinosaur keeps off the first.
    let first = match legal[0] {
        Action::Deploy(c) => c,
        _ => unreachable!(),
    };
    s.apply_action(legal[0]).unwrap();
    s.apply_action(Action::Chance(0)).unwrap();
    assert!(!s.legal_actions().contains(&Action::Deploy(first)));
}

#[test]
fn dinosaurs_hold_no_ap_are_never_activated_and_are_enemies_of_both_players() {
    let mut s = game(Scenario::Skirmish, 2);
    let a = place_next(&mut s, 0);
    let b = place_next(&mut s, 0);
    // Play to the first activation.
    while !matches!(s.dynamic().steps.last(), Some(Step::ChooseActivation)) {
        let action = match s.current_player() {
            Player::Chance => s.chance_outcomes()[0].0,
            _ => s.legal_actions()[0],
        };
        s.apply_action(action).unwrap();
    }
    for m in [a, b] {
        assert_eq!(s.models()[m].ap, 0, "AI models hold no AP");
        assert!(!s.legal_actions().contains(&Action::Activate(m as u8)));
    }
    // Put a dinosaur beside a model of each side in turn: it may fight it like any enemy.
    for side in 0..2u8 {
        let fighter = (0..s.models().len())
            .find(|&i| s.models()[i].side == side && s.models()[i].is_conscious())
            .expect("a model of the side");
        let mut attacks = None;
        let (fx, fy) = s.board().xy(s.models()[fighter].cell);
        for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
            let (x, y) = (fx as i32 + dx, fy as i32 + dy);
            if x < 0 || y < 0 || x >= s.board().width() as i32 || y >= s.board().depth() as i32 {
                continue;
            }
            let mut saved = SavedGame::capture(&s);
            let cell = s.board().idx(x as u8, y as u8);
            saved.state.models[a].cell = cell;
            saved.state.models[a].z = s.board().cell(cell).height;
            saved.state.active = side;
            let Ok(mut near) = saved.restore("edited") else { continue };
            if !engine::invariants::violations(&near).is_empty() {
                continue;
            }
            near.apply_action(Action::Activate(fighter as u8)).unwrap();
            attacks = Some(
                near.legal_actions()
                    .iter()
                    .any(|x| matches!(x, Action::CloseCombat { target, .. } if *target as usize == a)),
            );
            break;
        }
        assert_eq!(attacks, Some(true), "side {side} may fight the dinosaur beside it");
    }
}

#[test]
fn a_game_with_dinosaurs_saves_and_restores_without_the_uc_files() {
    let mut s = game(Scenario::Assassinate, 2);
    place_next(&mut s, 1);
    let saved = SavedGame::capture(&s);
    let text = serde_json::to_string(&saved).unwrap();
    let back: SavedGame = serde_json::from_str(&text).unwrap();
    let restored = back.restore("saved.json").unwrap();
    assert_eq!(restored, s);
    assert_eq!(restored.legal_actions(), s.legal_actions());
    assert!(restored.static_data().uc.is_some());
}

#[test]
fn bad_dinosaur_settings_are_refused_by_name() {
    let e = new_game(&GameConfig { dinos: 40, ..GameConfig::default() }).unwrap_err();
    assert_eq!(e.field, "dinos", "{e}");
    let e =
        new_game(&GameConfig { dinos: 2, spawn_table: "moon".into(), ..GameConfig::default() }).unwrap_err();
    assert!(e.to_string().contains("moon"), "{e}");
    // Without dinosaurs there is no AI side.
    assert!(game(Scenario::Skirmish, 0).static_data().uc.is_none());
}

#[test]
fn the_placement_step_names_its_chooser_and_model() {
    let mut s = game(Scenario::Skirmish, 1);
    assert_eq!(s.dynamic().steps.last(), Some(&Step::Enemy(EnemyStep::RollPlacement { chooser: 0 })));
    s.apply_action(Action::Chance(0)).unwrap();
    let m = (s.models().len() - 1) as u8;
    assert_eq!(s.dynamic().steps.last(), Some(&Step::Enemy(EnemyStep::Place { model: m, chooser: 0 })));
}
