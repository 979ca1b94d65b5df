//! How a game stands, from side A's side: the victory-point margin, the points and models
//! still standing, and how far the game has gone — what the learned leaf value
//! ([`super::leaf`]) and the standing model ([`super::standing`]) both read.

use engine::scenario::Scenario;
use engine::state::Health;
use engine::GameState;

/// How a game stands, from side A's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Balance {
    /// The victory-point margin so far, A less B, in units of 4 (40 in a skirmish, whose
    /// margin counts every casualty's points).
    pub margin: f64,
    /// The share of A's points still conscious (or in reserve) less B's.
    pub points: f64,
    /// The same for the number of models.
    pub models: f64,
    /// The share of the game's turns begun (0 at the first, 1 at the last).
    pub late: f64,
}

/// How `state` stands, from side A's side.
pub fn balance(state: &GameState) -> Balance {
    let mut standing = [0.0f64; 2];
    let mut total = [0.0f64; 2];
    let mut models = [0.0f64; 2];
    let mut all = [0.0f64; 2];
    for (i, m) in state.models().iter().enumerate() {
        if m.side > 1 || m.health == Health::Remounted {
            continue;
        }
        let s = m.side as usize;
        let points = state.profile(i as u8).points as f64;
        total[s] += points;
        all[s] += 1.0;
        if m.is_conscious() || m.health == Health::Reserve {
            standing[s] += points;
            models[s] += 1.0;
        }
    }
    let share = |a: &[f64; 2], b: &[f64; 2], s: usize| if b[s] > 0.0 { a[s] / b[s] } else { 0.0 };
    let skirmish = state.static_data().scenario == Scenario::Skirmish;
    let turns = state.static_data().max_turns.max(2) as f64;
    Balance {
        margin: state.outcome().margin(0) as f64 / if skirmish { 40.0 } else { 4.0 },
        points: share(&standing, &total, 0) - share(&standing, &total, 1),
        models: share(&models, &all, 0) - share(&models, &all, 1),
        late: ((state.turn().max(1) as f64 - 1.0) / (turns - 1.0)).clamp(0.0, 1.0),
    }
}
