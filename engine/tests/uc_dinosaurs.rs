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

mod common;
use common::uc::{flat_game, idle, place_next, put, roll, run_until, to_side_a_activation};

fn game(scenario: Scenario, dinos: u8) -> GameState {
    new_game(&GameConfig { scenario, dinos, ..GameConfig::default() }).expect("a game with dinosaurs")
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
        assert!(!matches!(s.node(), Some(Step::Enemy(_))));
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
    while !matches!(s.node(), Some(Step::ChooseActivation)) {
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
    assert_eq!(s.node(), Some(&Step::Enemy(EnemyStep::RollPlacement { chooser: 0 })));
    s.apply_action(Action::Chance(0)).unwrap();
    let m = (s.models().len() - 1) as u8;
    assert_eq!(s.node(), Some(&Step::Enemy(EnemyStep::Place { model: m, chooser: 0 })));
}

fn is_draw(s: &GameState) -> bool {
    matches!(s.node(), Some(Step::Enemy(EnemyStep::Draw { .. })))
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
    run_until(&mut s, |s| matches!(s.node(), Some(Step::Test { model, .. }) if *model as usize == raptor));
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

/// A skirmish with one dinosaur (spawn outcome `kind`: 0 raptor, 1 dilophosaur) standing
/// `ahead` inches in front of side A's first model, at side A's first activation.
fn facing(kind: u8, ahead: u8) -> (GameState, usize, usize) {
    let mut s = flat_game(1, 0);
    let dino = place_next(&mut s, kind);
    let a0 = (0..s.models().len()).find(|&i| s.models()[i].side == 0).unwrap();
    let (ax, ay) = s.board().xy(s.models()[a0].cell);
    let s = put(&s, dino, ax, ay + ahead);
    (to_side_a_activation(s), dino, a0)
}

/// Side A's model that can shoot the dinosaur (`first` if it can: the nearest, so that no
/// other model screens the answer), activated, and the shot.
fn shoot_at(s: &mut GameState, dino: usize, first: usize) -> usize {
    for m in std::iter::once(first).chain(0..s.models().len()) {
        if s.models()[m].side != 0 || !s.legal_actions().contains(&Action::Activate(m as u8)) {
            continue;
        }
        let mut t = s.clone();
        t.apply_action(Action::Activate(m as u8)).unwrap();
        let shot = t
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Shoot { target, .. } if *target as usize == dino));
        if let Some(shot) = shot {
            t.apply_action(shot).unwrap();
            *s = t;
            return m;
        }
    }
    panic!("no side A model can shoot the dinosaur");
}

/// The dinosaur's answer to the shot, once the players have declared their reactions.
fn answer(s: &mut GameState, dino: usize) -> engine::state::CombatRoll {
    run_until(s, |s| matches!(s.node(), Some(Step::Test { .. })));
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(seq.rolls[0].opposed, "the shot at an AI model is opposed");
    *seq.rolls.iter().find(|r| r.model as usize == dino).expect("the dinosaur answers")
}

#[test]
fn a_dinosaur_with_a_ranged_weapon_shoots_back_and_one_without_dodges() {
    let (mut s, dilo, a0) = facing(1, 8);
    let shooter = shoot_at(&mut s, dilo, a0);
    let roll = answer(&mut s, dilo);
    assert!(matches!(roll.kind, engine::state::CombatKind::Shoot { .. }), "{roll:?}");
    assert_eq!(roll.target, Some(shooter as u8));
    let (mut s, raptor, a0) = facing(0, 8);
    shoot_at(&mut s, raptor, a0);
    let roll = answer(&mut s, raptor);
    assert_eq!(roll.kind, engine::state::CombatKind::Dodge);
}

#[test]
fn a_player_model_moving_into_a_raptors_reaction_range_is_charged_and_no_one_reacts_to_that() {
    let (s, raptor, _) = facing(0, 11);
    // A side A model that can end a move within 8" of the raptor without touching it.
    let mut found = None;
    'search: for m in 0..s.models().len() {
        if s.models()[m].side != 0 || !s.legal_actions().contains(&Action::Activate(m as u8)) {
            continue;
        }
        let mut t = s.clone();
        t.apply_action(Action::Activate(m as u8)).unwrap();
        for a in t.legal_actions() {
            let Action::Move { dest, prone: false } = a else { continue };
            let d = t.board().ground_distance(dest, t.models()[raptor].cell);
            let path = t.declared_path(a).unwrap();
            if (2.0..=7.5).contains(&d) && path.first_dynamic.is_none() {
                t.apply_action(a).unwrap();
                found = Some((t, m));
                break 'search;
            }
        }
    }
    let (mut t, mover) = found.expect("a move into the raptor's range");
    run_until(&mut t, |s| s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == raptor));
    let seq = t.dynamic().sequence.as_ref().unwrap();
    match seq.declared {
        Action::Charge { target, .. } => assert_eq!(target as usize, mover),
        Action::Move { .. } => {} // out of charge reach: it closes in
        other => panic!("the raptor charges or closes in, not {other}"),
    }
    assert!(
        !t.dynamic().steps.iter().any(|st| matches!(st, Step::ChooseReactionBy(_) | Step::ChooseReaction)),
        "no one reacts to a reaction"
    );
    run_until(&mut t, |s| s.dynamic().sequence.is_none());
    assert!(engine::invariants::violations(&t).is_empty());
}

#[test]
fn a_dinosaur_in_base_contact_does_not_react_to_movement() {
    let (s, raptor, a0) = facing(0, 1);
    assert!(s.in_contact(raptor as u8, a0 as u8), "the raptor touches side A's model");
    // Any other side A model moving nearby triggers nothing.
    for m in 0..s.models().len() {
        if m == a0 || s.models()[m].side != 0 || !s.legal_actions().contains(&Action::Activate(m as u8)) {
            continue;
        }
        let mut t = s.clone();
        t.apply_action(Action::Activate(m as u8)).unwrap();
        let Some(mv) = t.legal_actions().into_iter().find(|a| matches!(a, Action::Move { .. })) else {
            continue;
        };
        t.apply_action(mv).unwrap();
        run_until(&mut t, |s| s.dynamic().sequence.is_none());
        assert!(!t
            .dynamic()
            .steps
            .iter()
            .any(|st| matches!(st, Step::Enemy(EnemyStep::MoveReaction { .. }))));
        return;
    }
    panic!("no other model moved");
}

/// A side A model shoots the raptor, which dodges; the shooter's test and the raptor's come
/// out as given. Whether the shot hit (an armour roll for the raptor), and the state after.
fn shot_at_dodging_raptor(
    shooter: impl Fn(&engine::dice::TestOutcome) -> bool,
    raptor_die: impl Fn(&engine::dice::TestOutcome) -> bool,
) -> (bool, GameState) {
    let (mut s, raptor, a0) = facing(0, 8);
    let shooter_model = shoot_at(&mut s, raptor, a0) as u8;
    run_until(&mut s, |s| matches!(s.node(), Some(Step::Test { .. })));
    // Opposed tests are rolled one after the other; answer each by whose it is.
    let mut armour_on_raptor = false;
    while s.dynamic().sequence.is_some() {
        match s.node() {
            Some(Step::Test { model, .. }) if *model == shooter_model => roll(&mut s, &shooter),
            Some(Step::Test { model, .. }) if *model as usize == raptor => roll(&mut s, &raptor_die),
            Some(Step::Armour { model, .. }) => {
                armour_on_raptor |= *model as usize == raptor;
                s.apply_action(Action::Chance(0)).unwrap();
            }
            _ => {
                let a = match s.current_player() {
                    Player::Chance => s.chance_outcomes()[0].0,
                    _ => idle(&s),
                };
                s.apply_action(a).unwrap();
            }
        }
    }
    (armour_on_raptor, s)
}

#[test]
fn the_ai_model_wins_ties_and_its_frenzy_beats_a_feat() {
    use engine::dice::TestLevel;
    // Equal passes (both 4): the raptor's dodge wins, the shot misses.
    let (hit, _) = shot_at_dodging_raptor(
        |t| t.level == TestLevel::Pass && t.high_die == 4,
        |t| t.level == TestLevel::Pass && t.high_die == 4,
    );
    assert!(!hit, "a tie goes to the AI model");
    // A higher pass wins for the player.
    let (hit, _) = shot_at_dodging_raptor(
        |t| t.level == TestLevel::Pass && t.high_die == 4,
        |t| t.level == TestLevel::Pass && t.high_die == 3,
    );
    assert!(hit, "the better pass hits");
    // A feat against a frenzy (the engine carries the frenzy as the AI model's Feat): the
    // frenzy wins.
    let (hit, _) = shot_at_dodging_raptor(|t| t.level == TestLevel::Feat, |t| t.level == TestLevel::Feat);
    assert!(!hit, "frenzy beats even a feat");
    // A feat against a plain pass hits.
    let (hit, _) = shot_at_dodging_raptor(
        |t| t.level == TestLevel::Feat,
        |t| t.level == TestLevel::Pass && t.high_die == 5,
    );
    assert!(hit);
}

#[test]
fn a_dinosaur_put_out_of_action_by_a_shot_counts_for_the_shooters_side() {
    use engine::dice::TestLevel;
    let (s, raptor, a0) = facing(0, 8);
    // A raptor with one wound left: any wound downs it.
    let mut saved = SavedGame::capture(&s);
    saved.state.models[raptor].wounds = 1;
    let mut s = saved.restore("a wounded raptor").unwrap();
    let uc = s.dynamic().uc;
    assert_eq!((uc.out_of_action_by(0, AI_SIDE), uc.out_of_action_by(AI_SIDE, 0)), (0, 0));
    let shooter = shoot_at(&mut s, raptor, a0) as u8;
    while s.dynamic().sequence.is_some() {
        let action = match s.node() {
            Some(Step::Test { model, .. }) => {
                let table = s.pending_test().expect("a test");
                let want = if *model == shooter { TestLevel::Feat } else { TestLevel::Fail };
                Action::Chance(table.iter().position(|(t, _)| t.level == want).expect("such a level") as u8)
            }
            // The armour roll with the most wounds.
            Some(Step::Armour { .. }) => *s.chance_outcomes().last().map(|(a, _)| a).unwrap(),
            _ => match s.current_player() {
                Player::Chance => s.chance_outcomes()[0].0,
                _ => idle(&s),
            },
        };
        s.apply_action(action).unwrap();
    }
    assert!(s.models()[raptor].is_unconscious(), "{:?}", s.models()[raptor].health);
    let uc = s.dynamic().uc;
    assert_eq!(uc.out_of_action_by(0, AI_SIDE), 1, "side A took the raptor out");
    assert_eq!(uc.out_of_action_by(1, AI_SIDE) + uc.out_of_action_by(AI_SIDE, 0), 0);
    assert_eq!(uc.hit_by, [0; 3], "the hits are forgotten when the sequence ends");
    // The count survives a save and restore.
    let back = SavedGame::capture(&s).restore("after the shot").unwrap();
    assert_eq!(back.dynamic().uc.out_of_action_by(0, AI_SIDE), 1);
}

/// Side A's model shoots the raptor standing `ahead` inches from it with its revolver (a
/// noisy weapon; every roll its first outcome, so the shot misses, and the raptor's dodge
/// fails, so the shot leaves it where it stood): where the raptor has moved to when side A
/// decides again, if it moved, the state then, the raptor and the shooter.
fn raptor_after_a_shot(ahead: u8, confusion: u8) -> (Option<u16>, GameState, usize, usize) {
    let (s, raptor, a0) = facing(0, ahead);
    let mut saved = SavedGame::capture(&s);
    saved.state.uc.confuse(raptor as u8, confusion);
    let mut s = saved.restore("a confused raptor").unwrap();
    let start = s.models()[raptor].cell;
    let shooter = shoot_at(&mut s, raptor, a0);
    for _ in 0..500 {
        if s.dynamic().sequence.is_none()
            && matches!(s.node(), Some(Step::ChooseAction(_) | Step::ChooseActivation))
        {
            let now = s.models()[raptor].cell;
            return ((now != start).then_some(now), s, raptor, shooter);
        }
        if matches!(s.node(), Some(Step::Test { model, .. }) if *model as usize == raptor) {
            roll(&mut s, |t| t.level == engine::dice::TestLevel::Fail);
            continue;
        }
        let action = match s.current_player() {
            Player::Chance => s.chance_outcomes()[0].0,
            _ => idle(&s),
        };
        s.apply_action(action).unwrap();
    }
    panic!("the shot never ended");
}

#[test]
fn a_gunshot_within_12_inches_makes_a_raptor_investigate_towards_the_shooter() {
    let (s0, raptor, a0) = facing(0, 10);
    let board = s0.board();
    let d = |c, s: &GameState| board.ground_distance(c, s.models()[a0].cell);
    let before = d(s0.models()[raptor].cell, &s0);
    let (moved, s, _, shooter) = raptor_after_a_shot(10, 0);
    assert_eq!(shooter, a0);
    let now = moved.expect("the raptor investigates the noise");
    // Its nailed-it speed towards the noise, the shooter's cell.
    assert!(d(now, &s) < before - 3.0, "it closes in on the noise: {before} -> {}", d(now, &s));
    // Out of earshot (14", still in the revolver's range), nothing.
    let (moved, s, _, shooter) = raptor_after_a_shot(14, 0);
    assert_eq!((moved, shooter), (None, a0), "a noise beyond 12\" is not heard");
    assert!(s.dynamic().uc.noise.is_some());
}

#[test]
fn a_primitive_bow_makes_no_noise() {
    // At 16" only side A's archer can shoot the raptor: a Recurve, Primitive.
    let (_, s, _, shooter) = raptor_after_a_shot(16, 0);
    let weapons: Vec<&str> = s.profile(shooter as u8).weapons.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(weapons[0], "Recurve");
    assert_eq!(s.dynamic().uc.noise, None);
}

#[test]
fn a_confused_dinosaur_discards_a_token_instead_of_reacting_or_drawing_a_card() {
    // Two tokens: one goes instead of answering the shot (no dodge roll), one instead of the
    // noise reaction.
    let (moved, mut s, raptor, _) = raptor_after_a_shot(10, 2);
    assert_eq!(moved, None, "confused: no noise reaction");
    assert_eq!(s.dynamic().uc.confusion(raptor as u8), 0, "both tokens discarded");
    // With one token left at the enemy phase, it draws no card and discards it.
    let mut saved = SavedGame::capture(&s);
    saved.state.uc.confuse(raptor as u8, 1);
    s = saved.restore("confused again").unwrap();
    run_until(&mut s, |s| s.dynamic().turn == 2);
    assert_eq!(s.dynamic().uc.confusion(raptor as u8), 0);
    assert_eq!(s.dynamic().uc.drawn, [0; 8], "no card was drawn");
}

#[test]
fn stun_on_a_dinosaur_is_confusion() {
    let (mut s, raptor, a0) = facing(0, 8);
    shoot_at(&mut s, raptor, a0);
    // A Stun(2) hit waiting in the sequence for the raptor.
    let mut saved = SavedGame::capture(&s);
    saved.state.models[raptor].pending.stun = 2;
    let mut s = saved.restore("a stunned raptor").unwrap();
    run_until(&mut s, |s| s.dynamic().sequence.is_none());
    // Two tokens at the end of the shot (the raptor answered before they landed); the
    // revolver's noise then costs one instead of the raptor's noise reaction.
    assert_eq!(s.dynamic().uc.confusion(raptor as u8), 1);
    assert_eq!(s.models()[raptor].ap, 0);
}

#[test]
fn a_noise_brings_an_ai_model_to_the_spawn_point_nearest_it_in_the_enemy_phase() {
    // The raptor is out of earshot, but the noise is remembered for the enemy phase.
    let (moved, mut s, raptor, shooter) = raptor_after_a_shot(14, 0);
    assert_eq!(moved, None);
    let noise = s.dynamic().uc.noise.expect("the revolver's noise is remembered");
    assert_eq!(noise, s.models()[shooter].cell, "a shot's noise is at the shooter");
    let before = s.models().len();
    run_until(&mut s, |s| matches!(s.node(), Some(Step::Enemy(EnemyStep::Spawn { .. }))));
    assert_eq!(s.current_player(), Player::Chance);
    let outcomes = s.chance_outcomes();
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);
    s.apply_action(outcomes[0].0).unwrap();
    assert_eq!(s.models().len(), before + 1);
    let new = before;
    assert_eq!(s.models()[new].side, AI_SIDE);
    assert_eq!(s.models()[new].health, Health::Conscious);
    assert_eq!(s.dynamic().uc.noise, None, "the noise is spent");
    // On the flat 24" table: by the middle of the table edge nearest the noise (on the free
    // cell nearest it: side B's models may stand there).
    let (nx, ny) = s.board().xy(noise);
    let sq = |(ax, ay): (i32, i32), (bx, by): (i32, i32)| (ax - bx).pow(2) + (ay - by).pow(2);
    let points = [(12, 0), (23, 12), (12, 23), (0, 12)];
    let point = *points.iter().min_by_key(|&&p| sq(p, (nx as i32, ny as i32))).unwrap();
    let (x, y) = s.board().xy(s.models()[new].cell);
    let at = (x as i32, y as i32);
    assert!(sq(at, point) <= 16, "{at:?} within 4\" of the spawn point {point:?}");
    assert!(points.iter().all(|&p| sq(at, point) <= sq(at, p)), "{at:?} nearest {point:?}");
    // It draws no card in this phase; the raptor does.
    let draws = |m: usize| {
        s.dynamic()
            .steps
            .iter()
            .any(|st| matches!(st, Step::Enemy(EnemyStep::Draw { model }) if *model as usize == m))
    };
    assert!(draws(raptor) && !draws(new));
    assert!(engine::invariants::violations(&s).is_empty());
}
