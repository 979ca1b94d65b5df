//! The Drowned Earth in the arena: the only module of this crate that knows the engine.
//!
//! Games are built once per scenario from a board, two crews and a rule variant, and cloned
//! for each game: a TDE game's randomness (set-up rolls, deployment, dice) all comes from its
//! chance nodes, so the initial state is the same for every game of a scenario. The margin is
//! the victory-point margin ([`engine::state::Outcome::margin`]), the length the number of
//! decisions, and agents come from [`agents::make_agent`].

use crate::arena::MatchMaker;
use agents::Agent;
use engine::record::GameRecord;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use std::collections::BTreeMap;

/// Builds TDE games and agents for the arena.
pub struct TdeMatch {
    /// The configuration shared by every game (its scenario is replaced per game).
    config: GameConfig,
    /// The initial state of each scenario in [`Scenario::ALL`], then the skirmish.
    initial: Vec<(Scenario, GameState)>,
    /// Builds the agents from their specs (the learned ones come from the training crate).
    factory: AgentFactory,
}

/// Builds a TDE agent from its spec and a seed.
pub type AgentFactory = fn(&str, u64) -> Result<Box<dyn Agent<GameState>>, String>;

impl TdeMatch {
    /// Games on `board` between `crews` (side A, side B) under rule variant `rules`; names as
    /// `tde demo` takes them. Fails when a file is missing or invalid.
    /// Build agents with `factory` instead of [`agents::make_agent`] (e.g. one that also
    /// knows learned agents).
    pub fn with_factory(mut self, factory: AgentFactory) -> TdeMatch {
        self.factory = factory;
        self
    }

    pub fn new(board: &str, crews: [&str; 2], rules: &str) -> Result<TdeMatch, String> {
        TdeMatch::with_dinos(board, crews, rules, 0)
    }

    /// As [`TdeMatch::new`], with `dinos` AI dinosaurs (the Ulaya Chronicles card AI) placed
    /// before deployment in every game.
    pub fn with_dinos(board: &str, crews: [&str; 2], rules: &str, dinos: u8) -> Result<TdeMatch, String> {
        TdeMatch::with_ai_side(board, crews, rules, dinos, 0)
    }

    /// As [`TdeMatch::with_dinos`], with `ambush` ambush markers placed after the dinosaurs.
    pub fn with_ai_side(
        board: &str,
        crews: [&str; 2],
        rules: &str,
        dinos: u8,
        ambush: u8,
    ) -> Result<TdeMatch, String> {
        let config = GameConfig {
            board: board.to_string(),
            crews: crews.map(String::from),
            rules: rules.to_string(),
            dinos,
            ambush,
            ..GameConfig::default()
        };
        let initial = Scenario::ALL
            .into_iter()
            .chain([Scenario::Skirmish])
            .map(|scenario| {
                let state =
                    new_game(&GameConfig { scenario, ..config.clone() }).map_err(|e| e.to_string())?;
                Ok((scenario, state))
            })
            .collect::<Result<_, String>>()?;
        Ok(TdeMatch { config, initial, factory: agents::make_agent })
    }
}

impl MatchMaker<GameState> for TdeMatch {
    fn scenarios(&self) -> Vec<String> {
        Scenario::ALL.iter().map(|s| s.name().to_string()).collect()
    }

    fn scenario(&self, name: &str) -> Result<String, String> {
        Scenario::parse(name).map(|s| s.name().to_string())
    }

    fn new_game(&self, scenario: &str) -> Result<GameState, String> {
        let scenario = Scenario::parse(scenario)?;
        self.initial
            .iter()
            .find(|(s, _)| *s == scenario)
            .map(|(_, state)| state.clone())
            .ok_or_else(|| format!("no game built for scenario `{}`", scenario.name()))
    }

    fn make_agent(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
        (self.factory)(spec, seed)
    }

    fn margin(&self, state: &GameState, player: usize) -> f64 {
        state.outcome().margin(player as u8) as f64
    }

    fn length(&self, state: &GameState) -> u32 {
        state.dynamic().decisions
    }

    fn record(
        &self,
        initial: &GameState,
        actions: &[engine::Action],
        last: &GameState,
        description: &str,
    ) -> String {
        let mut record = GameRecord::new(initial, description);
        record.actions = actions.to_vec();
        record.final_hash = engine::record::format_hash(last.state_hash());
        serde_json::to_string(&record).expect("records serialise")
    }

    /// With AI dinosaurs: the player's models the dinosaurs put out of action (down or taken
    /// out) and the dinosaurs the player's crew put out of action.
    fn figures(&self, state: &GameState, player: usize) -> Vec<(String, f64)> {
        if self.config.dinos == 0 && self.config.ambush == 0 {
            return Vec::new();
        }
        let uc = &state.dynamic().uc;
        let side = player as engine::state::Side;
        vec![
            ("models lost to dinosaurs".to_string(), uc.out_of_action_by(engine::uc::AI_SIDE, side) as f64),
            ("dinosaurs taken out".to_string(), uc.out_of_action_by(side, engine::uc::AI_SIDE) as f64),
        ]
    }

    fn options(&self) -> BTreeMap<String, String> {
        let mut options = BTreeMap::from([
            ("board".to_string(), self.config.board.clone()),
            ("crews".to_string(), self.config.crews.join(",")),
            ("rules".to_string(), self.config.rules.clone()),
        ]);
        // Named only when there are some, so that earlier runs resume as they were.
        if self.config.dinos > 0 {
            options.insert("dinos".to_string(), self.config.dinos.to_string());
        }
        if self.config.ambush > 0 {
            options.insert("ambush".to_string(), self.config.ambush.to_string());
        }
        options
    }
}
