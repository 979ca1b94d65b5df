//! Shared helpers for the engine's integration tests: small boards drawn as ASCII, games
//! built on them, and a seeded random-play driver.
#![allow(dead_code)]

pub mod geometry;
pub mod uc;

use engine::board::{Board, Cell, Cover, Terrain};
use engine::profile::{load_catalog, Profile};
use engine::rules::RuleVariant;
use engine::state::{DynState, GameState, StaticData, Step, MAX_SIDES};
use engine::{Action, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Build a board from rows of two-character cells in the board file format.
pub fn board(rows: &[&str]) -> Board {
    let width = rows[0].len() / 2;
    let mut text = format!("name: test\nsize: {}x{}\n", width, rows.len());
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    Board::parse(&text, "test").expect("test board parses")
}

/// A flat open board of the given size.
pub fn flat(width: u8, depth: u8) -> Board {
    let cells =
        vec![Cell { height: 0, terrain: Terrain::Open, cover: Cover::None }; width as usize * depth as usize];
    Board::from_cells("flat", width, depth, cells)
}

/// An open board `width` cells wide and `depth` deep, drawn as the board file format draws
/// it (every cell `0.`: open ground at height 0, no cover).
pub fn open_board(width: usize, depth: usize) -> Board {
    let rows: Vec<String> = (0..depth).map(|_| "0.".repeat(width)).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    board(&refs)
}

/// A test position built model by model, for [`game_with`]:
/// `Position::on(open_board(12, 12)).model(0, "kaneda", (2, 2)).model(1, "nix", (2, 9)).active(0)`.
pub struct Position {
    board: Board,
    places: Vec<(u8, Arc<Profile>, (u8, u8))>,
}

impl Position {
    /// An empty position on `board`.
    pub fn on(board: Board) -> Position {
        Position { board, places: Vec::new() }
    }

    /// A model of side `side` with the shipped profile `profile`, at (x, y).
    pub fn model(self, side: u8, profile_id: &str, at: (u8, u8)) -> Position {
        self.with(side, profile(profile_id), at)
    }

    /// A model of side `side` with the profile `p` (a [`custom`] one), at (x, y).
    pub fn with(mut self, side: u8, p: Arc<Profile>, at: (u8, u8)) -> Position {
        self.places.push((side, p, at));
        self
    }

    /// The game at `ChooseAction` for model `m`.
    pub fn active(self, m: u8) -> GameState {
        game_with(self.board, &self.places, Some(m))
    }

    /// The game at side 0's choice of the model to activate.
    pub fn choosing(self) -> GameState {
        game_with(self.board, &self.places, None)
    }
}

/// A profile from the shipped catalog.
pub fn profile(id: &str) -> Arc<Profile> {
    let catalog = load_catalog(&engine::data::factions_dir()).expect("catalog loads");
    catalog.get(id).unwrap_or_else(|| panic!("no profile {id}")).clone()
}

/// A model placement for [`game`]: side, profile, (x, y).
pub struct Place<'a> {
    pub side: u8,
    pub profile: &'a str,
    pub at: (u8, u8),
}

/// A game on `board` with the given models, at `ChooseAction` for model `active` (or at the
/// activation choice of side 0 when `None`). Models get their profile's AP.
pub fn game(board: Board, places: &[Place], active: Option<u8>) -> GameState {
    let custom: Vec<(u8, Arc<Profile>, (u8, u8))> =
        places.iter().map(|p| (p.side, profile(p.profile), p.at)).collect();
    game_with(board, &custom, active)
}

/// A profile from the catalog, changed by `edit` (tests give models the weapons they need).
pub fn custom(id: &str, edit: impl FnOnce(&mut Profile)) -> Arc<Profile> {
    let mut p = (*profile(id)).clone();
    p.id = format!("{id}_test");
    edit(&mut p);
    Arc::new(p)
}

/// Like [`game`], with explicit profiles: (side, profile, (x, y)).
pub fn game_with(board: Board, places: &[(u8, Arc<Profile>, (u8, u8))], active: Option<u8>) -> GameState {
    let mut profiles: Vec<Arc<Profile>> = Vec::new();
    let mut models = Vec::new();
    for &(side, ref prof, at) in places {
        let p = Place { side, profile: "", at };
        let prof = prof.clone();
        // A cavalry model's rider and mount join the profiles, for when they separate.
        let mut mount_wounds = 0;
        if let Some((rider, mount)) = &prof.cavalry {
            for id in [rider, mount] {
                let part = profile(id);
                if id == mount {
                    mount_wounds = part.wounds;
                }
                if !profiles.iter().any(|q| q.id == part.id) {
                    profiles.push(part);
                }
            }
        }
        let idx = match profiles.iter().position(|q| q.id == prof.id) {
            Some(i) => i,
            None => {
                profiles.push(prof.clone());
                profiles.len() - 1
            }
        };
        let cell = board.idx(p.at.0, p.at.1);
        let mut m = engine::state::ModelState::fresh(&prof, idx as u8, p.side, cell, &board);
        m.ap = prof.ap_gain;
        m.mount_wounds = mount_wounds;
        m.tokens = Default::default(); // tests give stealth explicitly
        models.push(m);
    }
    let side = active.map_or(0, |m| models[m as usize].side);
    let mut steps = vec![Step::ChooseActivation];
    if let Some(m) = active {
        steps.push(Step::ChooseAction(m));
    }
    let stat = StaticData {
        board: Arc::new(board),
        profiles,
        variant: RuleVariant::default(),
        max_turns: 6,
        sides: 2,
        cards: Vec::new(),
        scenario: engine::scenario::Scenario::Skirmish,
        uc: None,
    };
    let dyn_ = DynState {
        models: models.into(),
        turn: 1,
        initiative: side,
        active: side,
        pass_tokens: [0; MAX_SIDES],
        activating: active,
        sequence: None,
        steps: steps.into(),
        clouds: Default::default(),
        cards_used: [0; MAX_SIDES],
        scenario: Default::default(),
        decisions: 0,
        chance_events: 0,
        uc: Default::default(),
    };
    GameState::from_parts(Arc::new(stat), dyn_)
}

/// Play random actions until terminal (or `max_steps`), calling `check` after every step.
pub fn random_playout(
    mut state: GameState,
    seed: u64,
    max_steps: usize,
    mut check: impl FnMut(&GameState, &GameState, Action),
) -> GameState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..max_steps {
        let action = match state.current_player() {
            Player::Terminal => break,
            Player::Chance => state.sample_chance(&mut rng).unwrap(),
            Player::Side(_) => {
                let legal = state.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        let before = state.clone();
        state.apply_action(action).expect("legal action applies");
        check(&before, &state, action);
    }
    state
}

/// Apply a chance outcome chosen by a predicate on the index/probability list (tests rig the
/// dice by picking the outcome they need).
pub fn force_chance(state: &mut GameState, pick: impl Fn(usize) -> bool) {
    assert_eq!(state.current_player(), Player::Chance, "expected a chance node at {}", state.describe_node());
    let n = state.chance_outcomes().len();
    let i = (0..n).find(|&i| pick(i)).expect("a matching outcome");
    state.apply_action(Action::Chance(i as u8)).unwrap();
}

/// At a test chance node, apply the first outcome of the given level.
pub fn force_test(state: &mut GameState, level: engine::dice::TestLevel) {
    let table =
        state.pending_test().unwrap_or_else(|| panic!("expected a test at {}", state.describe_node()));
    let i = table.iter().position(|(o, _)| o.level == level).expect("level possible");
    state.apply_action(Action::Chance(i as u8)).unwrap();
}

/// At an armour roll, apply the outcome with exactly `wounds` wounds.
pub fn force_wounds(state: &mut GameState, wounds: u8) {
    assert!(state.pending_test().is_none(), "expected an armour roll at {}", state.describe_node());
    state.apply_action(Action::Chance(wounds)).unwrap();
}

/// Decline every optional declaration on top of the stack (nested action, reactions,
/// firefight), so that a test can go straight to the rolls.
pub fn decline_declarations(state: &mut GameState) {
    loop {
        let decline = match state.node() {
            Some(Step::ChooseNested) => Action::NoNested,
            Some(Step::ChooseReaction) => Action::EndReactions,
            Some(Step::ChooseFirefight) => Action::NoFirefight,
            Some(Step::ChooseCommand) => Action::NoCommand,
            _ => return,
        };
        state.apply_action(decline).unwrap();
    }
}

/// Declare an action for the active model and decline every optional declaration after it.
pub fn declare(state: &mut GameState, action: Action) {
    state.apply_action(action).unwrap_or_else(|e| panic!("{e}"));
    decline_declarations(state);
}

/// Decline the nested action if one is offered.
pub fn decline_nested(state: &mut GameState) {
    if state.node() == Some(&Step::ChooseNested) {
        state.apply_action(Action::NoNested).unwrap();
    }
}

/// A scenario game from the shipped configs, at its first set-up node.
pub fn scenario_game(scenario: engine::scenario::Scenario, board: &str, crews: [&str; 2]) -> GameState {
    let config = engine::setup::GameConfig {
        board: board.to_string(),
        crews: crews.map(String::from),
        scenario,
        ..Default::default()
    };
    engine::setup::new_game(&config).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether the scenario's set-up is still under way (a scenario step is pending, or the
/// first turn has not reached its first activation).
pub fn in_setup(state: &GameState) -> bool {
    state.dynamic().steps.iter().any(|s| matches!(s, Step::Scenario(_) | Step::RollOff))
}

/// Play the rest of the set-up with seeded random choices and dice, calling `check` before
/// every action; stops at the first activation of turn 1.
pub fn finish_setup(state: &mut GameState, seed: u64, mut check: impl FnMut(&GameState)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while in_setup(state) {
        check(state);
        let action = match state.current_player() {
            Player::Chance => state.sample_chance(&mut rng).unwrap(),
            Player::Side(_) => {
                let legal = state.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
            Player::Terminal => panic!("terminal during set-up"),
        };
        state.apply_action(action).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The state with its static part (board, profiles, cards, ...) changed by `edit`.
pub fn with_static(state: &GameState, edit: impl FnOnce(&mut StaticData)) -> GameState {
    let mut stat = StaticData::clone(state.static_data());
    edit(&mut stat);
    GameState::from_parts(Arc::new(stat), state.dynamic().clone())
}

/// The state with the profile of model `m` changed by `edit` (tests give a model the weapon
/// properties they need).
pub fn with_profile(state: &GameState, m: usize, edit: impl FnOnce(&mut Profile)) -> GameState {
    with_static(state, |stat| {
        let i = state.models()[m].profile as usize;
        let mut p = (*stat.profiles[i]).clone();
        edit(&mut p);
        stat.profiles[i] = Arc::new(p);
    })
}

/// The state with its dynamic part changed by `edit` (automatic steps then run).
pub fn edited(state: &GameState, edit: impl FnOnce(&mut DynState)) -> GameState {
    let mut d = state.dynamic().clone();
    edit(&mut d);
    GameState::from_parts(state.static_data().clone(), d)
}
