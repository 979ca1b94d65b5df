//! Where self-play games come from and how a stored one is rebuilt: a [`GameSource`] deals a
//! new game (its set-up named by a short label) from a seed and rebuilds the start of a game
//! from its label. [`TdeSource`] deals TDE games over the configured scenarios, boards and
//! crews.

use crate::network_training::expert::{names, scenario_named};
use crate::selfplay::config::ActorConfig;
use agents::TensorGame;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Deals and rebuilds games for self-play.
pub trait GameSource<G: TensorGame>: Send + Sync {
    /// A new game drawn from `seed`: its set-up label and its first state.
    fn deal(&self, seed: u64) -> Result<(String, G), String>;
    /// The first state of the game a label names.
    fn rebuild(&self, label: &str) -> Result<G, String>;
}

/// TDE games over lists of scenarios, boards and crews: labels `scenario/board/crew/crew`.
pub struct TdeSource {
    scenarios: Vec<Scenario>,
    boards: Vec<String>,
    crews: Vec<String>,
}

impl TdeSource {
    /// The source of the actors' configuration; unknown scenario names are refused.
    pub fn new(config: &ActorConfig) -> Result<TdeSource, String> {
        let scenarios = if config.scenarios.len() == 1 && config.scenarios[0] == "all" {
            Scenario::ALL.to_vec()
        } else {
            config
                .scenarios
                .iter()
                .map(|n| scenario_named(n).ok_or_else(|| format!("actors.scenarios: unknown scenario `{n}`")))
                .collect::<Result<_, _>>()?
        };
        let source = TdeSource {
            scenarios,
            boards: names(&config.boards, "boards", "board")?,
            crews: names(&config.crews, "crews", "toml")?,
        };
        if source.boards.is_empty() || source.crews.is_empty() {
            return Err("actors: no boards or no crews to play on".into());
        }
        // Every listed board and crew must load before any game is played.
        for board in &source.boards {
            source.rebuild(&format!(
                "{}/{board}/{}/{}",
                source.scenarios[0].name(),
                source.crews[0],
                source.crews[0]
            ))?;
        }
        for crew in &source.crews {
            source.rebuild(&format!("{}/{}/{crew}/{crew}", source.scenarios[0].name(), source.boards[0]))?;
        }
        Ok(source)
    }
}

impl GameSource<GameState> for TdeSource {
    fn deal(&self, seed: u64) -> Result<(String, GameState), String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let scenario = self.scenarios[rng.gen_range(0..self.scenarios.len())];
        let board = &self.boards[rng.gen_range(0..self.boards.len())];
        let a = &self.crews[rng.gen_range(0..self.crews.len())];
        let b = &self.crews[rng.gen_range(0..self.crews.len())];
        let label = format!("{}/{board}/{a}/{b}", scenario.name());
        let state = self.rebuild(&label)?;
        Ok((label, state))
    }

    fn rebuild(&self, label: &str) -> Result<GameState, String> {
        let parts: Vec<&str> = label.split('/').collect();
        let [scenario, board, a, b] = parts[..] else {
            return Err(format!("set-up `{label}` is not scenario/board/crew/crew"));
        };
        let scenario =
            scenario_named(scenario).ok_or_else(|| format!("set-up `{label}`: unknown scenario"))?;
        let setup = GameConfig {
            board: board.to_string(),
            crews: [a.to_string(), b.to_string()],
            scenario,
            ..GameConfig::default()
        };
        new_game(&setup).map_err(|e| format!("set-up `{label}`: {e}"))
    }
}
