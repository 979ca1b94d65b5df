//! Yardsticks of a network (`tde probe value|policy|sibling`): its value head against game
//! results and rollouts ([`value`]), its policy against an expert's choices ([`policy`]), and
//! its value head among the positions after a decision's actions ([`sibling`]).
//!
//! Every probe is a [`Probe`] and runs the same way ([`run`]): games of every scenario played
//! in parallel, the decisions the [`DecisionSampler`] picks judged as the games go, and a
//! [`Report`]: the settings it ran with and one record per scenario, as one JSON object or as
//! text.

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

/// What a probe judges: any network that gives priors and a value at a decision (the
/// convolutional network, the fast network).
pub type Judge = dyn agents::PolicyValue<GameState>;

/// A yardstick of a network: how it plays and judges a game, and what it makes of a
/// scenario's judged games.
pub trait Probe: Sync {
    /// What one game gives.
    type Judged: Send;
    /// What one scenario gives.
    type Record: Serialize;
    /// Games per scenario.
    fn games(&self) -> u32;
    /// Play game `game` (0-based) of a scenario's configuration and judge its decisions.
    fn judge_game(&self, network: &Judge, config: &GameConfig, game: u64) -> Result<Self::Judged, String>;
    /// A scenario's record from its judged games, in game order.
    fn summarize(&self, scenario: Scenario, judged: Vec<Self::Judged>) -> Self::Record;
    /// The probe's own settings in the report (beside the network, board and crews).
    fn settings(&self) -> Vec<(&'static str, Value)>;
    /// The report as text, for the network named `net`.
    fn text(&self, net: &str, records: &[Self::Record]) -> String;
}

/// Run `probe` on every scenario with `config`'s board and crews, judging `network` (named
/// `net` in the report), the games of each scenario in parallel.
pub fn run<P: Probe>(
    probe: &P,
    network: &Judge,
    net: &str,
    config: &GameConfig,
) -> Result<Report<P::Record>, String> {
    let records = Scenario::ALL
        .into_iter()
        .map(|scenario| {
            let config = GameConfig { scenario, ..config.clone() };
            let judged: Vec<P::Judged> = (0..probe.games() as u64)
                .into_par_iter()
                .map(|g| probe.judge_game(network, &config, g))
                .collect::<Result<_, _>>()?;
            Ok(probe.summarize(scenario, judged))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut settings = Map::new();
    settings.insert("net".into(), Value::from(net));
    settings.insert("board".into(), serde_json::json!(config.board));
    settings.insert("crews".into(), serde_json::json!(config.crews));
    settings.extend(probe.settings().into_iter().map(|(key, value)| (key.to_string(), value)));
    let text = probe.text(net, &records);
    Ok(Report { settings, scenarios: records, text })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::rollout::players;
    use engine::setup::{new_game, GameConfig};

    /// The counts of the decisions `sampler` picks in a game of random players, with their
    /// movers.
    fn picked(sampler: DecisionSampler) -> Vec<(usize, usize)> {
        let config = GameConfig { scenario: Scenario::GrudgeMatch, ..GameConfig::default() };
        let state = new_game(&config).unwrap();
        let mut picked = Vec::new();
        sampler
            .play(state, &mut players("random", 5).unwrap(), 5, |d| {
                picked.push((d.count, d.mover));
                Ok(())
            })
            .unwrap();
        picked
    }

    #[test]
    fn the_sampler_picks_every_nth_choice_of_the_sides_asked_for() {
        let all = picked(DecisionSampler { every: 1, side: None, opening: true });
        assert!(all.len() > 10 && all.iter().enumerate().all(|(i, &(count, _))| count == i + 1));
        // Grudge Match opens with side A's choice of a grudge: counted only with `opening`.
        assert_eq!(all[0].1, 0);
        let later = picked(DecisionSampler { every: 1, side: None, opening: false });
        assert_eq!(later.len(), all.len() - 1);
        let third = picked(DecisionSampler { every: 3, side: None, opening: true });
        assert_eq!(third, all.iter().copied().filter(|(count, _)| count % 3 == 0).collect::<Vec<_>>());
        let side_b = picked(DecisionSampler { every: 1, side: Some(1), opening: true });
        assert_eq!(side_b.len(), all.iter().filter(|(_, mover)| *mover == 1).count());
        assert!(side_b.iter().all(|&(_, mover)| mover == 1));
    }
}
