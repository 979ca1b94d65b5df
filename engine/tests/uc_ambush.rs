//! Ambush markers (seed 003, "Ambush markers", "Recognise", "Noise reactions"; Conversion,
//! "Ambush markers and spawn tables", "Scenarios"): placed by the players in turn after the AI
//! models, never stood on, flipped and sprung by their triggers, heard by noise in the enemy
//! phase before the noise's spawn, and recognised with an Intelligence test.
//!
//! The illustrative kinds (configs/uc/spawn.toml), by index: 0 `ripples` (range 4", flips on
//! noise, springs on movement and noise, swamp table), 1 `rustling_fronds` (range 6", flips on
//! noise and movement, springs on movement and shooting, jungle table).

use engine::dice::TestLevel;
use engine::record::SavedGame;
use engine::state::{EnemyStep, Health, Purpose, Step};
use engine::uc::AI_SIDE;
use engine::{Action, GameState, Player};

mod common;
use common::uc::{flat_game, open_cell_near, place_next, put, roll, run_until, to_side_a_activation};

const RIPPLES: u8 = 0;
const FRONDS: u8 = 1;

/// Side A's first model.
fn first_of_a(s: &GameState) -> usize {
    (0..s.models().len()).find(|&i| s.models()[i].side == 0).unwrap()
}

/// Place the next ambush marker (of `kind`) on the first legal cell, then move it to the open
/// cell nearest `(x, y)` and set its side, by editing a saved copy.
fn place_marker(s: &mut GameState, kind: u8, at: (u8, u8), active: bool) -> u8 {
    s.apply_action(Action::Chance(kind)).unwrap();
    let first = s.legal_actions()[0];
    s.apply_action(first).unwrap();
    let index = s.dynamic().uc.markers_on_table().map(|(i, _)| i).max().unwrap();
    let cell = open_cell_near(s, at.0, at.1);
    let mut saved = SavedGame::capture(s);
    saved.state.uc.markers[index as usize].cell = cell;
    saved.state.uc.markers[index as usize].active = active;
    *s = saved.restore("a marker moved").unwrap();
    index
}

/// Cells (x, y) of a cell.
fn xy(s: &GameState, c: u16) -> (u8, u8) {
    s.board().xy(c)
}

fn distance(s: &GameState, a: u16, b: u16) -> f32 {
    s.board().ground_distance(a, b)
}

/// A flat skirmish at side A's first activation, with one marker of `kind` `ahead` inches in
/// front of side A's first model (and `side` inches to its side): the state, the model and
/// the marker's index.
fn marker_ahead(kind: u8, ahead: u8, side: u8, active: bool) -> (GameState, usize, u8) {
    let mut s = flat_game(0, 1);
    let a0 = first_of_a(&s);
    let (x, y) = xy(&s, s.models()[a0].cell);
    let i = place_marker(&mut s, kind, (x + side, y + ahead), active);
    (to_side_a_activation(s), a0, i)
}

/// Activate `m` and move it to the legal destination `pick` chooses, then let the players
/// idle until the move's sequence is over (or an ambush roll waits).
fn move_model(s: &mut GameState, m: usize, pick: impl Fn(&GameState, u16) -> bool) {
    if s.legal_actions().contains(&Action::Activate(m as u8)) {
        s.apply_action(Action::Activate(m as u8)).unwrap();
    }
    let dest = s
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Move { dest, prone: false } if pick(s, *dest)))
        .expect("such a move");
    s.apply_action(dest).unwrap();
    run_until(s, |s| s.dynamic().sequence.is_none() || ambush_waits(s));
}

fn ambush_waits(s: &GameState) -> bool {
    matches!(s.node(), Some(Step::Enemy(EnemyStep::Ambush { .. })))
}

#[test]
fn markers_are_placed_after_the_dinosaurs_the_players_taking_turns() {
    let mut s = flat_game(1, 2);
    let dino = place_next(&mut s, 0);
    // The marker's kind is a roll: every kind alike.
    assert_eq!(s.current_player(), Player::Chance);
    let outcomes = s.chance_outcomes();
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|&(_, p)| (p - 0.5).abs() < 1e-12));
    s.apply_action(Action::Chance(FRONDS)).unwrap();
    // Side A placed the dinosaur, so side B places the first marker.
    assert_eq!(s.current_player(), Player::Side(1));
    let legal = s.legal_actions();
    assert!(legal.iter().all(|a| matches!(a, Action::Deploy(_))));
    assert!(!legal.contains(&Action::Deploy(s.models()[dino].cell)), "not on the dinosaur");
    let Action::Deploy(first) = legal[0] else { unreachable!() };
    s.apply_action(legal[0]).unwrap();
    let (i, mk) = s.dynamic().uc.markers_on_table().next().unwrap();
    assert_eq!((i, mk.cell, mk.kind, mk.active), (0, first, FRONDS, false), "placed passive side up");
    s.apply_action(Action::Chance(RIPPLES)).unwrap();
    assert_eq!(s.current_player(), Player::Side(0));
    assert!(!s.legal_actions().contains(&Action::Deploy(first)), "not on another marker");
    s.apply_action(s.legal_actions()[0]).unwrap();
    assert_eq!(s.dynamic().uc.marker_mask, 0b11);
    assert_eq!(engine::render::render_map(&s).matches('?').count(), 2);
    assert!(engine::invariants::violations(&s).is_empty());
}

#[test]
fn no_model_may_stand_on_a_marker_but_any_may_move_past_it() {
    let (mut s, a0, i) = marker_ahead(RIPPLES, 2, 0, false);
    let cell = s.dynamic().uc.markers[i as usize].cell;
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let dests: Vec<u16> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { dest, .. } => Some(dest),
            _ => None,
        })
        .collect();
    assert!(!dests.contains(&cell), "no move ends on the marker");
    let (mx, my) = xy(&s, cell);
    let beyond = s.board().idx(mx, my + 1);
    assert!(dests.contains(&beyond), "the cell past it is reached");
}

#[test]
fn a_move_within_range_flips_a_passive_marker_and_the_next_springs_it_into_an_ambush() {
    let (mut s, a0, i) = marker_ahead(FRONDS, 10, 0, false);
    let cell = s.dynamic().uc.markers[i as usize].cell;
    let before = s.models().len();
    // Within 6" of the fronds: they flip, nothing more.
    move_model(&mut s, a0, |s, d| distance(s, d, cell) <= 5.0);
    assert!(!ambush_waits(&s));
    let mk = s.dynamic().uc.markers[i as usize];
    assert!(mk.active && s.dynamic().uc.marker_mask == 1, "{mk:?}");
    assert_eq!(s.models().len(), before);
    // Moving again within range springs them: a roll on the jungle table, the model in the
    // marker's place, and its ambush reaction (a raptor charges) against the mover.
    assert_eq!(s.node(), Some(&Step::ChooseAction(a0 as u8)), "a second action");
    move_model(&mut s, a0, |s, d| distance(s, d, cell) <= 4.0 && distance(s, d, cell) >= 2.0);
    assert!(ambush_waits(&s), "{:?}", s.node());
    assert_eq!(s.dynamic().uc.marker_mask, 0, "the marker is replaced");
    let outcomes = s.chance_outcomes();
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);
    assert!((outcomes[0].1 - 0.4).abs() < 1e-9, "4 raptor faces of 10 on the jungle table");
    s.apply_action(outcomes[0].0).unwrap();
    let raptor = before;
    assert_eq!(s.models().len(), before + 1);
    assert_eq!((s.models()[raptor].side, s.models()[raptor].health), (AI_SIDE, Health::Conscious));
    assert_eq!(s.profile(raptor as u8).id, "raptor");
    assert_eq!(s.dynamic().uc.confusion(raptor as u8), 0);
    let seq = s.dynamic().sequence.as_ref().expect("the ambush reaction is under way");
    assert_eq!(seq.actor as usize, raptor);
    assert!(
        matches!(seq.declared, Action::Charge { target, .. } if target as usize == a0),
        "{:?}",
        seq.declared
    );
    // No one may react to an ambush reaction.
    run_until(&mut s, |s| s.dynamic().sequence.is_none());
    assert!(engine::invariants::violations(&s).is_empty());
}

#[test]
fn a_move_that_stays_out_of_range_or_a_stealthed_mover_triggers_nothing() {
    let (mut s, a0, i) = marker_ahead(FRONDS, 10, 0, true);
    let cell = s.dynamic().uc.markers[i as usize].cell;
    let start = distance(&s, s.models()[a0].cell, cell);
    move_model(&mut s, a0, |s, d| distance(s, d, cell) > start);
    assert!(!ambush_waits(&s));
    assert_eq!(s.dynamic().uc.marker_mask, 1);
    let (s, a0, i) = marker_ahead(FRONDS, 10, 0, true);
    let mut saved = SavedGame::capture(&s);
    saved.state.models[a0].tokens.stealth = true;
    let mut s = saved.restore("a stealthed mover").unwrap();
    let cell = s.dynamic().uc.markers[i as usize].cell;
    move_model(&mut s, a0, |s, d| distance(s, d, cell) <= 4.0);
    assert!(!ambush_waits(&s), "a model in stealth slips past");
    assert_eq!(s.dynamic().uc.marker_mask, 1);
}

/// A flat skirmish at side A's first activation with a raptor `ahead` inches in front of side
/// A's first model and the given markers (kind, ahead, side, active) around that model; side
/// A's model shoots the raptor and every roll goes its first outcome until the shot is over.
fn shot_near_markers(ahead: u8, markers: &[(u8, u8, u8, bool)]) -> (GameState, usize) {
    let mut s = flat_game(1, markers.len() as u8);
    let raptor = place_next(&mut s, 0);
    let a0 = first_of_a(&s);
    let (x, y) = xy(&s, s.models()[a0].cell);
    for &(kind, up, side, active) in markers {
        place_marker(&mut s, kind, (x + side, y + up), active);
    }
    let s = put(&s, raptor, x, y + ahead);
    let mut s = to_side_a_activation(s);
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let shot = s
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Shoot { target, .. } if *target as usize == raptor))
        .expect("the first model can shoot the raptor");
    s.apply_action(shot).unwrap();
    run_until(&mut s, |s| s.dynamic().sequence.is_none() || ambush_waits(s));
    (s, a0)
}

#[test]
fn a_shot_from_within_range_springs_active_fronds_but_not_ripples() {
    // Fronds 3" to the side of the shooter, active: the shot springs them.
    let (s, a0) = shot_near_markers(14, &[(FRONDS, 0, 3, true)]);
    assert!(ambush_waits(&s));
    let Some(Step::Enemy(EnemyStep::Ambush { trigger, confusion, .. })) = s.node() else { unreachable!() };
    assert_eq!((*trigger as usize, *confusion), (a0, 0));
    // Ripples do not spring on shooting; they hear the shot (a noise) instead.
    let (s, a0) = shot_near_markers(14, &[(RIPPLES, 0, 3, true)]);
    assert!(!ambush_waits(&s));
    let mk = s.dynamic().uc.markers[0];
    assert_eq!((s.dynamic().uc.marker_mask, mk.heard_by), (1, Some(a0 as u8)));
}

#[test]
fn a_noise_flips_markers_within_12_inches_in_the_enemy_phase_then_the_spawn_comes() {
    // Passive fronds 9" ahead (beyond their 6" range, within earshot), passive fronds 14"
    // away (out of earshot), active ripples 10" away (they spring on noise).
    let (mut s, a0) =
        shot_near_markers(14, &[(FRONDS, 9, 0, false), (FRONDS, 0, 14, false), (RIPPLES, 4, 9, true)]);
    let uc = &s.dynamic().uc;
    assert_eq!(uc.marker_mask, 0b111);
    assert!(!uc.markers[0].active, "a noise flips nothing before the enemy phase");
    assert_eq!(uc.markers[0].heard_by, Some(a0 as u8));
    assert_eq!(uc.markers[1].heard_by, None, "14\" is out of earshot");
    assert_eq!(uc.markers[2].heard_by, Some(a0 as u8));
    assert!(uc.noise.is_some());
    run_until(&mut s, |s| {
        s.dynamic().steps.iter().any(|st| matches!(st, Step::Enemy(EnemyStep::Spawn { .. })))
    });
    let uc = &s.dynamic().uc;
    assert!(uc.markers[0].active && uc.markers[0].heard_by.is_none(), "flipped in the enemy phase");
    assert!(!uc.markers[1].active);
    assert_eq!(uc.marker_mask, 0b011, "the active ripples sprang");
    // The ripples' ambush comes before the noise's spawn.
    let steps = &s.dynamic().steps;
    let at = |f: fn(&Step) -> bool| steps.iter().rposition(f).unwrap();
    let ambush = at(|st| matches!(st, Step::Enemy(EnemyStep::Ambush { .. })));
    let spawn = at(|st| matches!(st, Step::Enemy(EnemyStep::Spawn { .. })));
    assert!(ambush > spawn, "the top of the stack runs first");
    assert!(
        matches!(steps[ambush], Step::Enemy(EnemyStep::Ambush { trigger, confusion: 0, .. }) if trigger as usize == a0)
    );
}

/// Side A's first model recognises the marker `ahead` inches in front of it; its Intelligence
/// test comes out at `level`. The state once the action is over (or an ambush roll waits).
fn recognise(ahead: u8, active: bool, level: TestLevel) -> (GameState, usize) {
    let (mut s, a0, i) = marker_ahead(FRONDS, ahead, 0, active);
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    let action =
        Action::Interact { kind: engine::state::InteractKind::Recognise { marker: i }, target: a0 as u8 };
    assert!(s.legal_actions().contains(&action), "recognise within 12\" and sight");
    s.apply_action(action).unwrap();
    run_until(
        &mut s,
        |s| matches!(s.node(), Some(Step::Test { model, purpose: Purpose::Interact, .. }) if *model as usize == a0),
    );
    roll(&mut s, |t| t.level == level);
    run_until(&mut s, |s| s.dynamic().sequence.is_none() || ambush_waits(s));
    (s, a0)
}

/// The model an ambush roll brings, with its confusion tokens, and whether it reacts.
fn recognised(mut s: GameState) -> (u8, bool) {
    assert!(ambush_waits(&s));
    let n = s.models().len();
    s.apply_action(Action::Chance(0)).unwrap();
    let reacts =
        s.dynamic().steps.iter().any(|st| matches!(st, Step::Enemy(EnemyStep::AmbushReaction { .. })))
            || s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == n);
    (s.dynamic().uc.confusion(n as u8), reacts)
}

#[test]
fn recognise_needs_a_marker_within_12_inches() {
    let (mut s, a0, _) = marker_ahead(FRONDS, 14, 0, false);
    s.apply_action(Action::Activate(a0 as u8)).unwrap();
    assert!(!s
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Interact { kind: engine::state::InteractKind::Recognise { .. }, .. })));
}

#[test]
fn recognising_a_passive_marker_brings_its_enemy_out_confused_only_on_nailed_it() {
    let (s, _) = recognise(8, false, TestLevel::NailedIt);
    assert_eq!(recognised(s), (1, false), "one confusion token, no ambush reaction");
    let (s, _) = recognise(8, false, TestLevel::Pass);
    assert!(!ambush_waits(&s));
    assert_eq!(s.dynamic().uc.marker_mask, 1, "a pass does nothing to a passive marker");
    assert!(!s.dynamic().uc.markers[0].active);
}

#[test]
fn recognising_an_active_marker_brings_its_enemy_out_with_one_or_two_confusion_tokens() {
    let (s, _) = recognise(8, true, TestLevel::NailedIt);
    assert_eq!(recognised(s), (2, false));
    let (s, _) = recognise(8, true, TestLevel::Pass);
    assert_eq!(recognised(s), (1, false));
    let (s, _) = recognise(8, true, TestLevel::Fail);
    assert!(!ambush_waits(&s));
    assert_eq!(s.dynamic().uc.marker_mask, 1, "a fail does nothing");
}

#[test]
fn recognise_results_follow_the_seed_table() {
    use engine::state::recognised_confusion as r;
    for level in [TestLevel::Blunder, TestLevel::Fail] {
        assert_eq!((r(level, false), r(level, true)), (None, None));
    }
    assert_eq!((r(TestLevel::Pass, false), r(TestLevel::Pass, true)), (None, Some(1)));
    for level in [TestLevel::NailedIt, TestLevel::Feat] {
        assert_eq!((r(level, false), r(level, true)), (Some(1), Some(2)));
    }
}

#[test]
fn markers_save_and_restore_and_bad_ones_are_refused_by_name() {
    let (s, _, _) = marker_ahead(FRONDS, 8, 0, true);
    let saved = SavedGame::capture(&s);
    let text = serde_json::to_string(&saved).unwrap();
    let back: SavedGame = serde_json::from_str(&text).unwrap();
    let restored = back.restore("markers").unwrap();
    assert_eq!(restored.state_hash(), s.state_hash());
    assert_eq!(restored.dynamic().uc.markers, s.dynamic().uc.markers);
    let mut bad = saved.clone();
    bad.state.uc.markers[0].kind = 9;
    let err = bad.restore("bad kind").unwrap_err().to_string();
    assert!(err.contains("ambush marker 0") && err.contains("kind 9"), "{err}");
    let mut bad = saved.clone();
    bad.state.uc.markers[0].cell = 60_000;
    let err = bad.restore("off the board").unwrap_err().to_string();
    assert!(err.contains("ambush marker 0"), "{err}");
    // Markers only lie on the table where their bit is set; a marker changes the hash.
    let mut gone = saved;
    gone.state.uc.remove_marker(0);
    assert_ne!(gone.restore("no marker").unwrap().state_hash(), s.state_hash());
}

#[test]
fn bad_ambush_settings_are_refused_by_name() {
    let config = engine::setup::GameConfig { ambush: 9, ..engine::setup::GameConfig::default() };
    let err = engine::setup::new_game(&config).unwrap_err().to_string();
    assert!(err.contains("ambush"), "{err}");
}

#[test]
fn an_idle_turn_with_markers_keeps_them_in_place() {
    let (mut s, _, _) = marker_ahead(FRONDS, 8, 0, false);
    let before = s.dynamic().uc.markers;
    run_until(&mut s, |s| s.dynamic().turn == 2);
    assert_eq!(s.dynamic().uc.markers, before);
}
