//! Tic-tac-toe (crate `tictactoe`) in the arena: the empty board, X as player 0, agents from
//! [`tictactoe::registry`] (`random`, `mcts`, `minimax`). The smallest game of the registry,
//! a check that the framework's arena serves any game.

use crate::matchmaker::{Lineup, MatchMaker, RecordAbout};
use agents::{Agent, ChanceMode, Dynamics, Game, GameType, Information, Registry, Utility};
use serde_json::json;
use std::collections::BTreeMap;
use tictactoe::TicTacToe;

/// Tic-tac-toe's only scenario: the empty board.
pub const SCENARIO: &str = "tictactoe";

/// What kind of game tic-tac-toe is: two players, no dice, nothing hidden.
pub const GAME_TYPE: GameType = GameType {
    short_name: "tictactoe",
    long_name: "Tic-tac-toe",
    players: 2,
    dynamics: Dynamics::Sequential,
    chance: ChanceMode::Deterministic,
    information: Information::Perfect,
    utility: Utility::ZeroSum,
    terminal_rewards_only: true,
    rules: "the usual rules (games/tictactoe)",
};

/// Builds tic-tac-toe games and agents for the arena.
pub struct TicTacToeMatch {
    /// The agents specs name.
    agents: Registry<TicTacToe>,
}

impl TicTacToeMatch {
    /// Games whose agents come from `agents` (e.g. [`tictactoe::registry`]).
    pub fn new(agents: Registry<TicTacToe>) -> TicTacToeMatch {
        TicTacToeMatch { agents }
    }
}

impl MatchMaker<TicTacToe> for TicTacToeMatch {
    fn scenarios(&self) -> Vec<String> {
        vec![SCENARIO.to_string()]
    }

    fn scenario(&self, name: &str) -> Result<String, String> {
        match name.eq_ignore_ascii_case(SCENARIO) {
            true => Ok(SCENARIO.to_string()),
            false => Err(format!("unknown scenario `{name}`: tic-tac-toe has one, `{SCENARIO}`")),
        }
    }

    fn new_game(&self, scenario: &str, _draw: u64) -> Result<(TicTacToe, Lineup), String> {
        self.scenario(scenario)?;
        Ok((TicTacToe::new(), Lineup::new()))
    }

    fn make_agent(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<TicTacToe>>, String> {
        self.agents.make(spec, seed)
    }

    /// 1 for the winner, −1 for the loser, 0 each in a draw.
    fn margin(&self, state: &TicTacToe, player: usize) -> f64 {
        state.returns()[player]
    }

    /// Marks on the board.
    fn length(&self, state: &TicTacToe) -> u32 {
        (0..9).filter(|&i| state.cell(i).is_some()).count() as u32
    }

    /// The cells played in order (0-8, row-major), the players and the final board.
    fn record(&self, _initial: &TicTacToe, actions: &[u8], last: &TicTacToe, about: &RecordAbout) -> String {
        json!({
            "description": about.description,
            "players": about.players,
            "seed": about.seed,
            "moves": actions,
            "final": last.observation(0),
        })
        .to_string()
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::new()
    }
}
