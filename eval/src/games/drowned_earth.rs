//! The Drowned Earth in the arena: the only module of the arena core's users that knows the
//! engine (with [`crate::lineup`], which builds the games, and [`crate::solo`]).
//!
//! Each game's board and crews are fixed or drawn per game ([`crate::lineup`]); a lineup's
//! game is built once per scenario and cloned for each game: a TDE game's randomness (set-up
//! rolls, deployment, dice) all comes from its chance nodes. The margin is the victory-point
//! margin ([`engine::state::Outcome::margin`]), the length the number of decisions, and agents
//! come from [`agents::make_agent`].

use crate::lineup::{Lineups, Pool};
use crate::matchmaker::{Lineup, MatchMaker, RecordAbout};
use agents::{Agent, ChanceMode, Dynamics, GameType, Information, Utility};
use engine::record::GameRecord;
use engine::scenario::Scenario;
use engine::setup::GameConfig;
use engine::GameState;
use std::collections::BTreeMap;

/// What kind of game The Drowned Earth is: two crews, dice at chance nodes, hidden choices
/// (secret set-up picks, see `GameState::node_visible_to`), returns by the victory-point
/// result. The conformance test of the game registry checks it against play.
pub const GAME_TYPE: GameType = GameType {
    short_name: "tde",
    long_name: "The Drowned Earth",
    players: 2,
    dynamics: Dynamics::Sequential,
    chance: ChanceMode::ExplicitStochastic,
    information: Information::Imperfect,
    utility: Utility::ZeroSum,
    terminal_rewards_only: true,
    rules: "the English rulebook (seeds/000_...), page numbers in docs/rulings.md",
};

/// Builds TDE games and agents for the arena.
pub struct TdeMatch {
    /// Each game's board and crews, and the configuration the games share.
    lineups: Lineups,
    /// Builds the agents from their specs (the learned ones come from the training crate).
    factory: AgentFactory,
}

/// Builds a TDE agent from its spec and a seed.
pub type AgentFactory = fn(&str, u64) -> Result<Box<dyn Agent<GameState>>, String>;

impl TdeMatch {
    /// Build agents with `factory` instead of [`agents::make_agent`] (e.g. one that also
    /// knows learned agents).
    pub fn with_factory(mut self, factory: AgentFactory) -> TdeMatch {
        self.factory = factory;
        self
    }

    /// Games on `board` between `crews` (side A, side B) under rule variant `rules`; names as
    /// `tde demo` takes them. Fails when a file is missing or invalid.
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
        TdeMatch::with_pools(
            Pool::Fixed(board.to_string()),
            Pool::Fixed(crews.map(String::from)),
            rules,
            dinos,
            ambush,
        )
    }

    /// As [`TdeMatch::with_ai_side`], with the board and the crews fixed or drawn per game
    /// (see [`crate::lineup`]). A fixed lineup is built for every scenario at once and fails
    /// here when it cannot play one; drawn ones fail here when a pool is bad.
    pub fn with_pools(
        boards: Pool<String>,
        crews: Pool<[String; 2]>,
        rules: &str,
        dinos: u8,
        ambush: u8,
    ) -> Result<TdeMatch, String> {
        let config = GameConfig { rules: rules.to_string(), dinos, ambush, ..GameConfig::default() };
        let lineups = Lineups::new(config, boards, crews)?;
        let scenarios: Vec<Scenario> = Scenario::ALL.into_iter().chain([Scenario::Skirmish]).collect();
        lineups.prepare(&scenarios)?;
        Ok(TdeMatch { lineups, factory: agents::make_agent })
    }
}

impl MatchMaker<GameState> for TdeMatch {
    fn scenarios(&self) -> Vec<String> {
        Scenario::ALL.iter().map(|s| s.name().to_string()).collect()
    }

    fn scenario(&self, name: &str) -> Result<String, String> {
        Scenario::parse(name).map(|s| s.name().to_string())
    }

    fn new_game(&self, scenario: &str, draw: u64) -> Result<(GameState, Lineup), String> {
        self.lineups.game(Scenario::parse(scenario)?, draw)
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
        about: &RecordAbout,
    ) -> String {
        let mut record = GameRecord::new(initial, &about.description);
        record.actions = actions.to_vec();
        record.final_hash = engine::record::format_hash(last.state_hash());
        serde_json::to_string(&record).expect("records serialise")
    }

    /// With AI dinosaurs: the player's models the dinosaurs put out of action (down or taken
    /// out) and the dinosaurs the player's crew put out of action.
    fn figures(&self, state: &GameState, player: usize) -> Vec<(String, f64)> {
        let config = self.lineups.config();
        if config.dinos == 0 && config.ambush == 0 {
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
        let config = self.lineups.config();
        let mut options: BTreeMap<String, String> = self.lineups.options().into_iter().collect();
        options.insert("rules".to_string(), config.rules.clone());
        // Named only when there are some, so that earlier runs resume as they were.
        if config.dinos > 0 {
            options.insert("dinos".to_string(), config.dinos.to_string());
        }
        if config.ambush > 0 {
            options.insert("ambush".to_string(), config.ambush.to_string());
        }
        options
    }
}
