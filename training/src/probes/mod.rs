//! Yardsticks of a network (`tde probe value|policy|sibling`): its value head against game
//! results and rollouts ([`value`]), its policy against an expert's choices ([`policy`]), and
//! its value head among the positions after a decision's actions ([`sibling`]).
//!
//! Every probe works the same way: games of every scenario played in parallel
//! ([`per_scenario`]), the decisions the [`DecisionSampler`] picks judged as the games go, and
//! a [`Report`]: the settings it ran with and one record per scenario, as one JSON object or
//! as text.

pub mod policy;
pub mod sibling;
pub mod value;

use agents::{Agent, Game, Turn};
use engine::scenario::Scenario;
use engine::setup::GameConfig;
use engine::{Action, GameState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

/// Play `games` games of every scenario on `config`'s board and crews, in parallel:
/// `judge_game` plays game `g` (0-based) of a scenario's configuration and gives what it
/// judged, and `summarize` turns a scenario's judged games, in game order, into its record.
pub fn per_scenario<T: Send, R>(
    config: &GameConfig,
    games: u32,
    judge_game: impl Fn(&GameConfig, u64) -> Result<T, String> + Sync,
    summarize: impl Fn(Scenario, Vec<T>) -> R,
) -> Result<Vec<R>, String> {
    Scenario::ALL
        .into_iter()
        .map(|scenario| {
            let config = GameConfig { scenario, ..config.clone() };
            let judged: Vec<T> = (0..games as u64)
                .into_par_iter()
                .map(|g| judge_game(&config, g))
                .collect::<Result<_, _>>()?;
            Ok(summarize(scenario, judged))
        })
        .collect()
}

/// Which decisions of a game a probe judges: decisions with two or more legal actions, of
/// one side or both, every `every`-th of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionSampler {
    /// Judge every this many decisions with a choice (1: all of them).
    pub every: usize,
    /// Count only this side's decisions (`None`: both sides').
    pub side: Option<usize>,
    /// Whether the opening position, before any action, counts. The value and sibling probes
    /// have always started counting after the first action, the policy probe at the opening.
    pub opening: bool,
}

/// A decision the [`DecisionSampler`] picked.
pub struct Sampled<'a> {
    /// The position, before the action.
    pub state: &'a GameState,
    /// The player deciding.
    pub mover: usize,
    /// The action the mover's agent chose.
    pub action: Action,
    /// Its number among the decisions counted so far (1-based).
    pub count: usize,
}

impl DecisionSampler {
    /// Play a game on from `state` with `players` (one per side), the dice drawn from
    /// `dice_seed` as [`agents::play_game`] draws them, calling `judge` at every sampled
    /// decision; gives the final state.
    pub fn play(
        &self,
        mut state: GameState,
        players: &mut [Box<dyn Agent<GameState>>],
        dice_seed: u64,
        mut judge: impl FnMut(Sampled<'_>) -> Result<(), String>,
    ) -> Result<GameState, String> {
        let mut dice = ChaCha8Rng::seed_from_u64(dice_seed);
        let mut count = 0usize;
        let mut opening = true;
        loop {
            let action = match Game::turn(&state) {
                Turn::Terminal => return Ok(state),
                Turn::Chance => {
                    Game::sample_chance(&state, &mut dice).ok_or("a chance node without outcomes")?
                }
                Turn::Player(mover) => {
                    let action = players[mover].select_action(&state);
                    let counts = (self.opening || !opening)
                        && self.side.is_none_or(|side| side == mover)
                        && Game::legal_actions(&state).len() >= 2;
                    if counts {
                        count += 1;
                        if count.is_multiple_of(self.every) {
                            judge(Sampled { state: &state, mover, action, count })?;
                        }
                    }
                    action
                }
            };
            opening = false;
            Game::apply(&mut state, action)?;
        }
    }
}

/// What a probe gives: the settings it ran with and one record per scenario, written as one
/// JSON object or as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<R> {
    /// What was judged and how (the network, the agents, the board and crews...): the JSON
    /// object's fields beside `scenarios`.
    pub settings: Map<String, Value>,
    /// One record per scenario.
    pub scenarios: Vec<R>,
    /// The report as text: a heading, a table of the scenarios and notes on reading it.
    pub text: String,
}

impl<R: Serialize> Report<R> {
    /// The report as one JSON object (`json`) or as text.
    pub fn render(&self, json: bool) -> Result<String, String> {
        if !json {
            return Ok(self.text.clone());
        }
        let mut object = self.settings.clone();
        object.insert("scenarios".into(), serde_json::to_value(&self.scenarios).map_err(|e| e.to_string())?);
        Ok(Value::Object(object).to_string())
    }
}

/// The settings every probe reports: the network's name as given, and `config`'s board and
/// crews, with `more` of the probe's own.
pub fn settings(
    net: &str,
    config: &GameConfig,
    more: impl IntoIterator<Item = (&'static str, Value)>,
) -> Map<String, Value> {
    let mut settings = Map::new();
    settings.insert("net".into(), Value::from(net));
    settings.insert("board".into(), serde_json::json!(config.board));
    settings.insert("crews".into(), serde_json::json!(config.crews));
    settings.extend(more.into_iter().map(|(key, value)| (key.to_string(), value)));
    settings
}
