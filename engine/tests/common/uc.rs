//! Helpers for the tests of the AI side (dinosaurs and ambush markers): placing, letting the
//! players idle until a step, moving a model by editing a saved copy, rolling a chosen test
//! result, and skirmishes on a flat open table.

use engine::record::SavedGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::Step;
use engine::{Action, GameState, Player};

/// Place the next dinosaur: roll `outcome` on the spawn table, then let the chooser take the
/// first legal cell.
pub fn place_next(state: &mut GameState, outcome: u8) -> usize {
    state.apply_action(Action::Chance(outcome)).unwrap();
    let cell = state.legal_actions()[0];
    state.apply_action(cell).unwrap();
    state.models().len() - 1
}

/// The first legal action that passes, ends or declines, else the first legal action: the
/// players let the turn run to the enemy phase.
pub fn idle(state: &GameState) -> Action {
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
pub fn run_until(state: &mut GameState, stop: impl Fn(&GameState) -> bool) {
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

/// The free open-ground cell nearest (x, y), without a model or an ambush marker.
pub fn open_cell_near(state: &GameState, x: u8, y: u8) -> u16 {
    let board = state.board();
    (0..board.len() as u16)
        .filter(|&c| {
            board.cell(c).terrain == engine::board::Terrain::Open
                && !state.models().iter().any(|o| o.is_on_table() && o.cell == c)
                && state.dynamic().uc.marker_at(c).is_none()
        })
        .min_by_key(|&c| {
            let (cx, cy) = board.xy(c);
            (cx as i32 - x as i32).pow(2) + (cy as i32 - y as i32).pow(2)
        })
        .expect("open ground")
}

/// Move model `m` to the free open-ground cell nearest (x, y) by editing a saved copy.
pub fn put(state: &GameState, m: usize, x: u8, y: u8) -> GameState {
    let mut saved = SavedGame::capture(state);
    let cell = open_cell_near(state, x, y);
    saved.state.models[m].cell = cell;
    saved.state.models[m].z = state.board().cell(cell).height;
    saved.restore("edited").expect("a valid position")
}

/// At a test node, roll the outcome `wanted` picks out of the node's grouped outcomes.
pub fn roll(s: &mut GameState, wanted: impl Fn(&engine::dice::TestOutcome) -> bool) {
    let table = s.pending_test().expect("a test");
    let i = table.iter().position(|(t, _)| wanted(t)).expect("such an outcome");
    s.apply_action(Action::Chance(i as u8)).unwrap();
}

/// A skirmish on a flat, open 24" table (nothing blocks sight or movement) with `dinos` AI
/// dinosaurs and `ambush` ambush markers still to place.
pub fn flat_game(dinos: u8, ambush: u8) -> GameState {
    // One file per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("tde-flat-{}-{call}.board", std::process::id()));
    let row = "0.".repeat(24);
    let text = format!("name: Flat\nsize: 24x24\n{}", format!("{row}\n").repeat(24));
    std::fs::write(&path, text).unwrap();
    let config = GameConfig {
        board: path.display().to_string(),
        scenario: Scenario::Skirmish,
        dinos,
        ambush,
        ..GameConfig::default()
    };
    let s = new_game(&config).expect("a game on the flat table");
    let _ = std::fs::remove_file(&path);
    s
}

/// Play on to side A's first activation decision (side A made the active side).
pub fn to_side_a_activation(mut s: GameState) -> GameState {
    run_until(&mut s, |s| matches!(s.node(), Some(Step::ChooseActivation)));
    if s.dynamic().active != 0 {
        let mut saved = SavedGame::capture(&s);
        saved.state.active = 0;
        s = saved.restore("side A to act").unwrap();
    }
    s
}

/// A copy of `s` arranged for a test, as a saved game to edit: side A's first character at
/// `a_at`, each AI model of `placed` at its cell, one side B model kept at (0, 0) and every
/// other crew model taken out of the game. Returns the copy and side A's character.
pub fn arranged(s: &GameState, a_at: (u8, u8), placed: &[(usize, (u8, u8))]) -> (SavedGame, usize) {
    use engine::profile::ModelType;
    use engine::state::Health;
    let a0 = (0..s.models().len())
        .find(|&i| s.models()[i].side == 0 && s.profile(i as u8).model_type == ModelType::Character)
        .expect("a side A character");
    let board = s.static_data().board.clone();
    let mut saved = SavedGame::capture(s);
    let mut kept_b = false;
    for (i, m) in saved.state.models.iter_mut().enumerate() {
        let at = if i == a0 {
            Some(a_at)
        } else if let Some(&(_, at)) = placed.iter().find(|(d, _)| *d == i) {
            Some(at)
        } else if m.side == 1 && !kept_b {
            kept_b = true;
            Some((0, 0))
        } else {
            None
        };
        match at {
            Some((x, y)) => {
                m.cell = board.idx(x, y);
                m.z = board.cell(m.cell).height;
            }
            None if m.side != engine::uc::AI_SIDE => {
                m.health = Health::TakenOut;
                m.ap = 0;
                m.wounds = 0;
                m.mount_wounds = 0;
            }
            None => {}
        }
    }
    (saved, a0)
}

/// A skirmish on the flat 24" table at side A's first activation with one AI model rolled as
/// outcome `kind` of the spawn table (0 raptor, 3 raptor alpha (elite), 4 frilled
/// dilophosaur (elite)), arranged as [`arranged`] does with the AI model at `ai_at` and
/// changed by `edit`. Returns the state, side A's character and the AI model.
pub fn dino_field(
    kind: u8,
    a_at: (u8, u8),
    ai_at: (u8, u8),
    edit: impl Fn(&mut engine::state::ModelState),
) -> (GameState, usize, usize) {
    let mut s = flat_game(1, 0);
    let dino = place_next(&mut s, kind);
    let s = to_side_a_activation(s);
    let (mut saved, a0) = arranged(&s, a_at, &[(dino, ai_at)]);
    edit(&mut saved.state.models[dino]);
    (saved.restore("arranged").expect("a valid position"), a0, dino)
}
