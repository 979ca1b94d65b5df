//! How well a network's value head foresees results, per scenario: games played by a given
//! agent on both sides, the network's value for the mover at sampled decisions compared with
//! the mover's final return (`tde value-check`). Search steers by these values, so a value
//! head that cannot tell winning from losing positions makes search no better than its policy.

use crate::play::Network;
use agents::{Game, PolicyValue, Turn};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use rayon::prelude::*;

/// The value head's record on one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ValueRecord {
    /// The scenario's name.
    pub scenario: String,
    /// Games played.
    pub games: u32,
    /// Error and sign over all judged decisions (a value of 0 everywhere scores the share of
    /// decisive games as its error).
    #[serde(flatten)]
    pub all: PhaseRecord,
    /// Mean value given (0 for an unbiased head over both sides' decisions).
    pub mean_value: f64,
    /// Mean return of the movers at the judged decisions: beside `mean_value`, whether the
    /// head is optimistic (above it) or pessimistic for the player to move.
    pub mean_result: f64,
    /// The same error and sign figures for the first, middle and last third of each game's
    /// judged decisions: early on the dice have yet to decide much, near the end the result
    /// is mostly settled, so a good head's error falls through a game.
    pub by_third: Vec<PhaseRecord>,
}

/// The value head's record on a set of judged decisions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PhaseRecord {
    /// Decisions judged.
    pub positions: usize,
    /// Mean squared error of the value against the mover's return (win 1, draw 0, loss -1).
    pub mse: f64,
    /// Judged decisions of decisive games.
    pub decisive: usize,
    /// Of those, the ones whose value has the sign of the result.
    pub sign_right: usize,
}

/// A judged decision: the value given, the mover's return and which third of its game's
/// judged decisions it falls in (0, 1 or 2).
type Judged = (f32, f64, usize);

/// Judge every `every`-th decision with a choice in `games` games per scenario, both sides
/// played by `agent` (a spec `make_agent` takes), seeded by `seed`, on `config`'s board and
/// crews.
pub fn value_records(
    network: &Network,
    agent: &str,
    config: &GameConfig,
    games: u32,
    every: usize,
    seed: u64,
) -> Result<Vec<ValueRecord>, String> {
    Scenario::ALL
        .into_iter()
        .map(|scenario| {
            let config = GameConfig { scenario, ..config.clone() };
            let judged: Vec<Vec<Judged>> = (0..games as u64)
                .into_par_iter()
                .map(|g| judge_game(network, agent, &config, every, seed.wrapping_add(g)))
                .collect::<Result<_, _>>()?;
            Ok(record(scenario.name().to_string(), games, judged.concat()))
        })
        .collect()
}

/// One game's judged decisions.
fn judge_game(
    network: &Network,
    agent: &str,
    config: &GameConfig,
    every: usize,
    seed: u64,
) -> Result<Vec<Judged>, String> {
    let state = new_game(config).map_err(|e| e.to_string())?;
    let mut players = vec![
        crate::play::make_agent(agent, seed.wrapping_mul(2))?,
        crate::play::make_agent(agent, seed.wrapping_mul(2).wrapping_add(1))?,
    ];
    let mut judged: Vec<(usize, f32)> = Vec::new();
    let mut error = None;
    let mut choices = 0usize;
    let end = agents::play_game(state, &mut players, seed, |s, _| {
        let Turn::Player(mover) = Game::turn(s) else { return };
        if Game::legal_actions(s).len() < 2 {
            return;
        }
        choices += 1;
        if choices.is_multiple_of(every) {
            match PolicyValue::evaluate(network, &[(s, mover)]) {
                Ok(out) => judged.push((mover, out[0].value)),
                Err(e) => error = Some(e),
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    let returns = Game::returns(&end);
    let n = judged.len();
    Ok(judged.into_iter().enumerate().map(|(i, (mover, v))| (v, returns[mover], 3 * i / n)).collect())
}

fn record(scenario: String, games: u32, judged: Vec<Judged>) -> ValueRecord {
    ValueRecord {
        scenario,
        games,
        all: phase(judged.iter()),
        mean_value: judged.iter().map(|&(v, ..)| v as f64).sum::<f64>() / judged.len().max(1) as f64,
        mean_result: judged.iter().map(|&(_, r, _)| r).sum::<f64>() / judged.len().max(1) as f64,
        by_third: (0..3).map(|third| phase(judged.iter().filter(|j| j.2 == third))).collect(),
    }
}

fn phase<'a>(judged: impl Iterator<Item = &'a Judged> + Clone) -> PhaseRecord {
    let positions = judged.clone().count();
    let decisive = judged.clone().filter(|(_, r, _)| *r != 0.0);
    PhaseRecord {
        positions,
        mse: judged.clone().map(|&(v, r, _)| (v as f64 - r).powi(2)).sum::<f64>() / positions.max(1) as f64,
        decisive: decisive.clone().count(),
        sign_right: decisive.filter(|(v, r, _)| (*v > 0.0) == (*r > 0.0)).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_the_hand_computed_figures() {
        // Values 0.5 (won), -0.5 (won), 0 (drawn), -1 (lost), the first two early, the last
        // two late.
        let r = record("x".into(), 2, vec![(0.5, 1.0, 0), (-0.5, 1.0, 0), (0.0, 0.0, 2), (-1.0, -1.0, 2)]);
        assert_eq!(r.all.positions, 4);
        assert!((r.all.mse - (0.25 + 2.25 + 0.0 + 0.0) / 4.0).abs() < 1e-12);
        assert_eq!((r.all.decisive, r.all.sign_right), (3, 2));
        assert!((r.mean_value - (-0.25)).abs() < 1e-12);
        assert!((r.mean_result - 0.25).abs() < 1e-12);
        let [early, middle, late] = [&r.by_third[0], &r.by_third[1], &r.by_third[2]];
        assert_eq!((early.positions, early.decisive, early.sign_right), (2, 2, 1));
        assert!((early.mse - 1.25).abs() < 1e-12);
        assert_eq!((middle.positions, middle.mse), (0, 0.0));
        assert_eq!((late.positions, late.decisive, late.sign_right), (2, 1, 1));
        assert!(late.mse.abs() < 1e-12);
    }
}
