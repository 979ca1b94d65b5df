//! Rollout values: the mean return, for one player, of games played on from a position by a
//! given agent on both sides. MCTS with that agent's rollouts estimates this value one game at
//! a time; averaged over many games it is a value target with most of the dice's noise gone
//! (`data.value_rollouts`), and a yardstick for a value head (`tde value-check --rollouts`).

use agents::{Agent, Game};
use engine::GameState;

/// A pair of players by `agent` (a spec `make_agent` takes), seeded from `seed`.
pub fn players(agent: &str, seed: u64) -> Result<Vec<Box<dyn Agent<GameState>>>, String> {
    Ok(vec![
        crate::play::make_agent(agent, seed.wrapping_mul(2))?,
        crate::play::make_agent(agent, seed.wrapping_mul(2).wrapping_add(1))?,
    ])
}

/// The mean return for `player` of `count` games played on from `state` by `agent` on both
/// sides, each with its own agents' and dice seeds drawn from `seed` (0 when `count` is 0).
pub fn rollout_mean(
    state: &GameState,
    player: usize,
    agent: &str,
    count: u32,
    seed: u64,
) -> Result<f64, String> {
    Ok(rollout_estimate(state, player, agent, count, seed)?.mean)
}

/// A rollout estimate: the games' mean return and that mean's own sampling variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean return of the games.
    pub mean: f64,
    /// Estimated variance of `mean` around the value it estimates (the returns' sample
    /// variance over the number of games; 0 with fewer than two games).
    pub variance: f64,
}

/// [`rollout_mean`] with the sampling variance of the mean.
pub fn rollout_estimate(
    state: &GameState,
    player: usize,
    agent: &str,
    count: u32,
    seed: u64,
) -> Result<Estimate, String> {
    let (mut sum, mut squares) = (0.0, 0.0);
    for r in 0..count as u64 {
        let seed = seed.wrapping_mul(0x9e37_79b9).wrapping_add(r);
        let end = agents::play_game(state.clone(), &mut players(agent, seed)?, seed, |_, _| {});
        let ret = Game::returns(&end)[player];
        sum += ret;
        squares += ret * ret;
    }
    let n = count as f64;
    let mean = sum / n.max(1.0);
    let variance = if count > 1 { (squares - n * mean * mean).max(0.0) / (n - 1.0) / n } else { 0.0 };
    Ok(Estimate { mean, variance })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::Turn;
    use engine::setup::{new_game, GameConfig};

    #[test]
    fn a_finished_game_rolls_out_to_its_own_result() {
        let state = new_game(&GameConfig::default()).unwrap();
        let end = agents::play_game(state, &mut players("random", 3).unwrap(), 3, |_, _| {});
        assert_eq!(Game::turn(&end), Turn::Terminal);
        for player in 0..2 {
            let mean = rollout_mean(&end, player, "random", 5, 9).unwrap();
            assert_eq!(mean, Game::returns(&end)[player]);
        }
    }

    #[test]
    fn rollouts_are_seeded_and_symmetric_between_the_players() {
        let state = new_game(&GameConfig::default()).unwrap();
        let a = rollout_mean(&state, 0, "scripted", 6, 1).unwrap();
        assert_eq!(a, rollout_mean(&state, 0, "scripted", 6, 1).unwrap());
        assert_eq!(-a, rollout_mean(&state, 1, "scripted", 6, 1).unwrap());
        assert!((-1.0..=1.0).contains(&a));
        assert_eq!(rollout_mean(&state, 0, "scripted", 0, 1).unwrap(), 0.0);
    }

    #[test]
    fn an_estimates_variance_is_the_returns_variance_over_the_games() {
        let state = new_game(&GameConfig::default()).unwrap();
        let (count, seed) = (12, 4);
        let e = rollout_estimate(&state, 0, "random", count, seed).unwrap();
        let returns: Vec<f64> = (0..count as u64)
            .map(|r| {
                let seed = seed.wrapping_mul(0x9e37_79b9).wrapping_add(r);
                let end =
                    agents::play_game(state.clone(), &mut players("random", seed).unwrap(), seed, |_, _| {});
                Game::returns(&end)[0]
            })
            .collect();
        let mean = returns.iter().sum::<f64>() / 12.0;
        let variance = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / 11.0 / 12.0;
        assert!((e.mean - mean).abs() < 1e-12 && (e.variance - variance).abs() < 1e-12, "{e:?}");
        assert_eq!(rollout_estimate(&state, 0, "random", 1, seed).unwrap().variance, 0.0);
    }
}
