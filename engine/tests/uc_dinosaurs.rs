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

/// The first legal action that passes, ends or declines, else the first legal action: the
/// players let the turn run to the enemy phase.
fn idle(state: &GameState) -> Action {
    let legal = state.legal_actions();
    let quiet = [
        Action::EndActivation,
        Action::EndReactions,
        Action::NoNested,
        Action::NoFirefight,
        Action::NoCommand,
        Action::NoCard,
        Action::TakeInitiative,
    ];
    quiet.into_iter().find(|a| legal.contains(a)).unwrap_or(legal[0])
}

/// Play on (first chance outcomes, idle players) until `stop` holds.
fn run_until(state: &mut GameState, stop: impl Fn(&GameState) -> bool) {
    for _ in 0..5000 {
        if stop(state) {
            return;
        }
        let action = match state.current_player() {
            Player::Chance => state.chance_outcomes()[0].0,
            Player::Side(_) => idle(state),
            Player::Terminal => panic!("the game ended first"),
        };
        state.apply_action(action).unwrap();
    }
    panic!("never got there");
}

/// Move model `m` to the free open-ground cell nearest (x, y) by editing a saved copy.
fn put(state: &GameState, m: usize, x: u8, y: u8) -> GameState {
    let mut saved = SavedGame::capture(state);
    let board = state.board();
    let cell = (0..board.len() as u16)
        .filter(|&c| {
            board.cell(c).terrain == engine::board::Terrain::Open
                && !state.models().iter().any(|o| o.is_on_table() && o.cell == c)
        })
        .min_by_key(|&c| {
            let (cx, cy) = board.xy(c);
            (cx as i32 - x as i32).pow(2) + (cy as i32 - y as i32).pow(2)
        })
        .expect("open ground");
    saved.state.models[m].cell = cell;
    saved.state.models[m].z = state.board().cell(cell).height;
    saved.restore("edited").expect("a valid position")
}

fn is_draw(s: &GameState) -> bool {
    matches!(s.dynamic().steps.last(), Some(Step::Enemy(EnemyStep::Draw { .. })))
}

#[test]
fn after_the_activation_phase_each_dinosaur_draws_a_card_left_to_right() {
    let mut s = game(Scenario::Skirmish, 3);
    let raptors: Vec<usize> = (0..3).map(|_| place_next(&mut s, 0)).collect();
    // Put them in a row, the last placed leftmost.
    let y = s.board().depth() / 2;
    let mut s = put(&s, raptors[0], 14, y);
    s = put(&s, raptors[1], 10, y);
    s = put(&s, raptors[2], 6, y);
    run_until(&mut s, is_draw);
    // Every player model has activated (or had no AP); the cleanup is still to come.
    assert_eq!(s.turn(), 1);
    assert!(s.dynamic().steps.contains(&Step::Cleanup));
    let order: Vec<u8> = s
        .dynamic()
        .steps
        .iter()
        .rev()
        .filter_map(|st| match st {
            Step::Enemy(EnemyStep::Draw { model }) => Some(*model),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec![raptors[2] as u8, raptors[1] as u8, raptors[0] as u8], "left to right");
    // The raptors share the hunter deck: four cards, then three, then two.
    for left in [4usize, 3, 2] {
        run_until(&mut s, is_draw);
        let outcomes = s.chance_outcomes();
        assert_eq!(outcomes.len(), left, "cards left in the deck");
        assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / left as f64).abs() < 1e-12));
        s.apply_action(Action::Chance(0)).unwrap();
    }
    // The next turn's enemy phase starts from a shuffled deck.
    run_until(&mut s, |s| s.turn() == 2 && is_draw(s));
    assert_eq!(s.chance_outcomes().len(), 4);
}

#[test]
fn a_pounce_card_charges_the_nearest_player_model_and_the_players_may_react() {
    let mut s = game(Scenario::Skirmish, 1);
    let raptor = place_next(&mut s, 0);
    // Next to side A's deployment edge, a few inches from its models.
    let a0 = (0..s.models().len()).find(|&i| s.models()[i].side == 0).unwrap();
    let (ax, ay) = s.board().xy(s.models()[a0].cell);
    let s0 = put(&s, raptor, ax, ay + 6);
    let mut s = s0.clone();
    run_until(&mut s, is_draw);
    let nearest = (0..s.models().len())
        .filter(|&i| s.models()[i].side != AI_SIDE && s.models()[i].is_conscious())
        .min_by(|&a, &b| {
            s.distance(raptor as u8, a as u8).total_cmp(&s.distance(raptor as u8, b as u8)).then(a.cmp(&b))
        })
        .unwrap();
    // Card 0 of the hunter deck is Pounce: up to 9" towards close combat, then close combat.
    s.apply_action(Action::Chance(0)).unwrap();
    let seq = s.dynamic().sequence.as_ref().expect("the raptor acts");
    assert_eq!(seq.actor as usize, raptor);
    match seq.declared {
        Action::Charge { target, .. } => assert_eq!(target as usize, nearest, "the nearest player model"),
        other => panic!("a charge, not {other}"),
    }
    // Both players may react (the initiative side first), not the AI side.
    let reacting = s.dynamic().steps.iter().filter(|st| matches!(st, Step::ChooseReactionBy(_))).count();
    assert!(reacting <= 2);
    assert_ne!(s.current_player(), Player::Side(AI_SIDE));
    // The raptor's own tests roll the enemy die: frenzy one time in ten.
    run_until(
        &mut s,
        |s| matches!(s.dynamic().steps.last(), Some(Step::Test { model, .. }) if *model as usize == raptor),
    );
    let outcomes = s.chance_outcomes();
    let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(outcomes.iter().any(|&(_, p)| (p - 0.1).abs() < 1e-9), "the frenzy face");
    // After the charge the raptor holds no AP and the game goes on.
    run_until(&mut s, |s| s.dynamic().sequence.is_none());
    assert_eq!(s.models()[raptor].ap, 0);
    assert!(engine::invariants::violations(&s).is_empty());
}

#[test]
fn a_stalk_box_moves_into_cover_from_the_nearest_player_model() {
    // On the default board the raptor's Stalk card (card 1: 6" towards cover) ends where the
    // nearest player model sees it in cover, or not at all, whenever such a cell is reachable.
    let mut s = game(Scenario::Skirmish, 1);
    let raptor = place_next(&mut s, 0);
    run_until(&mut s, is_draw);
    let before = s.models()[raptor].cell;
    s.apply_action(Action::Chance(1)).unwrap();
    run_until(&mut s, |s| s.dynamic().sequence.is_none());
    let after = s.models()[raptor].cell;
    assert_ne!(before, after, "a model must move if it can");
    let nearest = (0..s.models().len() as u8)
        .filter(|&i| s.models()[i as usize].side != AI_SIDE && s.models()[i as usize].is_conscious())
        .min_by(|&a, &b| s.distance(raptor as u8, a).total_cmp(&s.distance(raptor as u8, b)).then(a.cmp(&b)))
        .unwrap();
    let sight = s.sight_between(nearest, s.pose(nearest), raptor as u8, s.pose(raptor as u8));
    assert!(
        sight.is_none_or(|v| !v.sight.visible || v.sight.hard_cover || v.sight.soft_cover),
        "in cover from the nearest player model: {sight:?}"
    );
}
