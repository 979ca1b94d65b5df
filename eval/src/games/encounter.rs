//! The dungeon Encounter of seed 004 (crate `encounter`) in the arena: one fixed start (the
//! Encounter has no options), the party as player 0 and the Dungeon Master as player 1, agents
//! from a registry of Encounter agents (the crate's own, or one the network agents extend).

use crate::matchmaker::{Lineup, MatchMaker, RecordAbout};
use agents::{Agent, ChanceMode, Dynamics, Game, GameType, Information, Registry, Utility};
use encounter::{Encounter, GameRecord, Setup};
use std::collections::BTreeMap;

/// The Encounter's only scenario: the one encounter of seed 004.
pub const SCENARIO: &str = "encounter";

/// What kind of game the Encounter is: the party against the DM, dice at chance nodes, hidden
/// simultaneous declarations made in turn, a win, a loss or a draw.
pub const GAME_TYPE: GameType = GameType {
    short_name: "encounter",
    long_name: "The dungeon Encounter of seed 004 (party against an AI Dungeon Master)",
    players: 2,
    dynamics: Dynamics::Sequential,
    chance: ChanceMode::ExplicitStochastic,
    information: Information::Imperfect,
    utility: Utility::ZeroSum,
    terminal_rewards_only: true,
    rules: "seeds/004 (Encounters & Combat), rulings in docs/rulings-encounter.md",
};

/// Builds Encounters and Encounter agents for the arena.
pub struct EncounterMatch {
    /// The agents specs name.
    agents: Registry<Encounter>,
}

impl EncounterMatch {
    /// Games whose agents come from `agents` (e.g. [`encounter::registry`]).
    pub fn new(agents: Registry<Encounter>) -> EncounterMatch {
        EncounterMatch { agents }
    }
}

impl MatchMaker<Encounter> for EncounterMatch {
    fn scenarios(&self) -> Vec<String> {
        vec![SCENARIO.to_string()]
    }

    fn scenario(&self, name: &str) -> Result<String, String> {
        match name.eq_ignore_ascii_case(SCENARIO) {
            true => Ok(SCENARIO.to_string()),
            false => Err(format!("unknown scenario `{name}`: the Encounter has one, `{SCENARIO}`")),
        }
    }

    fn new_game(&self, scenario: &str, _draw: u64) -> Result<(Encounter, Lineup), String> {
        self.scenario(scenario)?;
        Ok((Encounter::start(), Lineup::new()))
    }

    fn make_agent(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<Encounter>>, String> {
        self.agents.make(spec, seed)
    }

    /// 1 for the winner, −1 for the loser, 0 each in a draw.
    fn margin(&self, state: &Encounter, player: usize) -> f64 {
        state.returns()[player]
    }

    /// Rounds played.
    fn length(&self, state: &Encounter) -> u32 {
        state.round() as u32
    }

    /// The Encounter's own record (`tde encounter replay` plays it back), its set-up naming
    /// the round's seed and the two agents.
    fn record(
        &self,
        _initial: &Encounter,
        actions: &[encounter::Action],
        last: &Encounter,
        about: &RecordAbout,
    ) -> String {
        let [party, dm] = about.players.clone();
        let record = GameRecord::new(Setup { seed: about.seed, party, dm }, actions.to_vec(), last);
        serde_json::to_string(&record).expect("records serialise")
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::new()
    }
}
