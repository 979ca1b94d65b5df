//! Random play checking the engine (`tde fuzz`): seeded random games on every board with
//! every crew pairing, the invariants ([`crate::invariants::violations`]) and clone-then-apply
//! checked after every step, and how often each rule came up ([`EventCounts`]).

use crate::event_counts::EventCounts;
use crate::invariants::violations;
use crate::scenario::Scenario;
use crate::setup::{new_game, GameConfig};
use crate::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Steps after which a game that has not ended is a violation.
pub const MAX_STEPS: u64 = 100_000;

/// Failures kept to show (all are counted).
pub const SHOWN_FAILURES: usize = 20;

/// Which games to play.
pub struct FuzzSettings<'a> {
    /// Games played; game `g` has seed `seed + g`.
    pub games: u32,
    /// Seed of the first game.
    pub seed: u64,
    /// The scenario of the game of a seed; `None` draws one of the scenarios or the skirmish
    /// per game.
    pub scenario: Option<&'a dyn Fn(u64) -> Result<Scenario, String>>,
    /// AI dinosaurs in every game; `Some(0)` draws 1 to 4 per game.
    pub dinos: Option<u8>,
    /// Ambush markers in every game; `Some(0)` draws 1 to 3 per game.
    pub ambush: Option<u8>,
    /// Solo games: one crew against the dinosaurs (1 to 4 per game unless `dinos` says).
    pub solo: bool,
}

/// What the games showed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuzzReport {
    /// Games played.
    pub games: u32,
    /// Steps taken in all.
    pub steps: u64,
    /// Violations found in all.
    pub violations: u64,
    /// The first [`SHOWN_FAILURES`] violations, each naming its game, seed, board and scenario.
    pub failures: Vec<String>,
    /// How often each rule came up.
    pub counts: EventCounts,
}

/// Play the games of `settings` on the boards and crews of the game data folder, calling
/// `on_game` as each starts (a progress bar). Fails when the data cannot be read or a game
/// cannot be set up.
pub fn fuzz(settings: &FuzzSettings, mut on_game: impl FnMut()) -> Result<FuzzReport, String> {
    let configs = crate::data::configs_dir();
    let boards = crate::data::file_names(&configs.join("boards"), "board").map_err(|e| e.to_string())?;
    let crews = crate::data::file_names(&configs.join("crews"), "toml").map_err(|e| e.to_string())?;
    let mut report = FuzzReport { games: settings.games, ..FuzzReport::default() };
    for g in 0..settings.games as u64 {
        on_game();
        let seed = settings.seed.wrapping_add(g);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let board = boards[rng.gen_range(0..boards.len())].clone();
        let a = crews[rng.gen_range(0..crews.len())].clone();
        let b = crews[rng.gen_range(0..crews.len())].clone();
        let scenario = match settings.scenario {
            Some(pick) => pick(seed)?,
            None => Scenario::EVERY[rng.gen_range(0..Scenario::EVERY.len())],
        };
        let dinos = match settings.dinos {
            Some(0) => 1 + (seed % 4) as u8,
            Some(n) => n,
            None if settings.solo => 1 + (seed % 4) as u8,
            None => 0,
        };
        let ambush = match settings.ambush {
            Some(0) => 1 + (seed / 4 % 3) as u8,
            Some(n) => n,
            None => 0,
        };
        let config = GameConfig {
            board: board.clone(),
            crews: [a, b],
            scenario,
            dinos,
            ambush,
            solo: settings.solo,
            ..GameConfig::default()
        };
        let state = new_game(&config).map_err(|e| e.to_string())?;
        let (steps, found) = check_game(state, &mut rng, &mut report.counts)?;
        report.steps += steps;
        for v in found {
            report.violations += 1;
            if report.failures.len() < SHOWN_FAILURES {
                report
                    .failures
                    .push(format!("game {g} (seed {seed}, board {board}, {}): {v}", scenario.name()));
            }
        }
    }
    Ok(report)
}

/// Play `state` to its end at random with `rng`, checking after every step; the steps taken
/// and the violations found (the game stops at the first step that shows any).
fn check_game(
    mut state: GameState,
    rng: &mut ChaCha8Rng,
    counts: &mut EventCounts,
) -> Result<(u64, Vec<String>), String> {
    let mut found = violations(&state);
    let mut n = 0;
    while found.is_empty() && !state.is_terminal() && n < MAX_STEPS {
        let action = match state.current_player() {
            Player::Chance => state.sample_chance(rng).expect("outcomes"),
            _ => {
                let legal = state.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        let mut copy = state.clone();
        if let Err(e) = state.apply_action(action) {
            found.push(e.to_string());
            break;
        }
        counts.count(action, &copy, &state);
        copy.apply_action(action).map_err(|e| e.to_string())?;
        if copy != state {
            found.push(format!("clone-then-apply differs after {action}"));
        }
        found.extend(violations(&state));
        n += 1;
    }
    if !state.is_terminal() && found.is_empty() {
        found.push(format!("game did not end within {MAX_STEPS} steps"));
    }
    Ok((n, found))
}

/// The state after playing `steps` random steps from `state` (the benchmark's positions).
pub fn random_steps(mut state: GameState, steps: usize, rng: &mut ChaCha8Rng) -> GameState {
    for _ in 0..steps {
        let action = match state.current_player() {
            Player::Terminal => break,
            Player::Chance => state.sample_chance(rng).expect("outcomes"),
            Player::Side(_) => {
                let legal = state.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        state.apply_action(action).expect("legal");
    }
    state
}
