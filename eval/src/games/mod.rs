//! The registry of games: every game the framework plays, each with its fact sheet (what kind
//! of game it is, as OpenSpiel's `GameType`, its scenarios, tensor shapes and agents), its
//! agents and its match-maker, behind one object ([`RegisteredGame`]) so that the command line
//! (`tde games`, `tde arena --game NAME`) and the tests (the conformance test, every agent on
//! every game) iterate one list, [`all`].
//!
//! Adding a game: its crate (implementing [`agents::Game`] and [`agents::TensorGame`]), its
//! match-maker with its [`GameType`] in a file here, and one line in [`all`]; the tests and
//! the command line then pick it up. The Ulaya Chronicles card AI is no game of its own here:
//! its dinosaurs are a third, non-player side of a TDE game (`tde arena --dinos N`).

pub mod drowned_earth;
pub mod encounter;
pub mod tictactoe;

use crate::arena::{run, ArenaOptions};
use crate::games::drowned_earth::{AgentFactory, TdeMatch};
use crate::matchmaker::MatchMaker;
use crate::results::Results;
use crate::settings::ArenaSettings;
use agents::conformance::{self, Options, Report};
use agents::{Game, GameType, Registry, TensorGame, TensorShape, Turn};
use engine::GameState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::marker::PhantomData;

/// Where each game's agents come from: the libraries' registries by default; the command line
/// gives the ones that also know the network agents (crate `training`, the Encounter's).
pub struct AgentSources {
    /// TDE's agents, listed.
    pub tde: fn() -> Registry<GameState>,
    /// TDE's agents, built (the same agents as `tde`, from a registry built once).
    pub tde_factory: AgentFactory,
    /// The Encounter's agents.
    pub encounter: fn() -> Registry<::encounter::Encounter>,
}

impl Default for AgentSources {
    fn default() -> Self {
        AgentSources {
            tde: agents::registry,
            tde_factory: agents::make_agent,
            encounter: ::encounter::registry,
        }
    }
}

/// Every game of the framework, TDE first. Fails only when TDE's shipped data (the default
/// board and crews) cannot be read.
pub fn all(sources: &AgentSources) -> Result<Vec<Box<dyn RegisteredGame>>, String> {
    let tde = TdeMatch::new(engine::setup::DEFAULT_BOARD, DEFAULT_CREWS, "standard")?
        .with_factory(sources.tde_factory);
    Ok(vec![
        Box::new(Entry::new(crate::games::drowned_earth::GAME_TYPE, tde, sources.tde, TDE_CHECKS)),
        Box::new(Entry::new(
            encounter::GAME_TYPE,
            encounter::EncounterMatch::new((sources.encounter)()),
            sources.encounter,
            ENCOUNTER_CHECKS,
        )),
        Box::new(Entry::new(
            tictactoe::GAME_TYPE,
            tictactoe::TicTacToeMatch::new(::tictactoe::registry()),
            ::tictactoe::registry,
            TICTACTOE_CHECKS,
        )),
    ])
}

/// The game of `name` (its short name, any case), or why there is none.
pub fn find(sources: &AgentSources, name: &str) -> Result<Box<dyn RegisteredGame>, String> {
    let games = all(sources)?;
    let names: Vec<&str> = games.iter().map(|g| g.game_type().short_name).collect();
    let wanted = names.iter().position(|n| n.eq_ignore_ascii_case(name.trim()));
    let Some(i) = wanted else {
        return Err(format!("unknown game `{name}` (available: {}; see `tde games`)", names.join(", ")));
    };
    Ok(games.into_iter().nth(i).expect("the position of a listed game"))
}

/// The crews of the registry's TDE games, side A then side B (as `tde demo`'s default).
const DEFAULT_CREWS: [&str; 2] = ["artifacters_100", "the_firm_100"];

/// How the tests check a game: the conformance test's options and a cheap spec for agents too
/// slow at their defaults for a short test game.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// The conformance test's options.
    pub conformance: Options,
    /// The decisions after which a test game stops unfinished (a TDE game takes hundreds).
    pub max_decisions: u32,
    /// An agent's name and the spec a test plays it with (an agent not named plays as its
    /// bare name).
    pub quick: &'static [(&'static str, &'static str)],
}

const TDE_CHECKS: Checks = Checks {
    conformance: Options {
        games: 4,
        max_steps: 20_000,
        actions_per_node: 2,
        determinizations: 1,
        sorted: false,
    },
    max_decisions: 60,
    quick: &[
        ("mcts", "mcts:iters=8,depth=20"),
        ("learned", concat!("learned:gen=", env!("CARGO_MANIFEST_DIR"), "/../checkpoints/learned")),
    ],
};

const ENCOUNTER_CHECKS: Checks = Checks {
    conformance: Options {
        games: 20,
        max_steps: 10_000,
        actions_per_node: 4,
        determinizations: 2,
        sorted: true,
    },
    max_decisions: 400,
    quick: &[
        ("mcts", "mcts:iters=16,depth=20"),
        ("policy", concat!("policy:checkpoint=", env!("CARGO_MANIFEST_DIR"), "/../checkpoints/encounter")),
        ("az", concat!("az:net=", env!("CARGO_MANIFEST_DIR"), "/../checkpoints/encounter,sims=4")),
    ],
};

const TICTACTOE_CHECKS: Checks = Checks {
    conformance: Options {
        games: 200,
        max_steps: 10_000,
        actions_per_node: 4,
        determinizations: 2,
        sorted: true,
    },
    max_decisions: 9,
    quick: &[("mcts", "mcts:iters=50")],
};

/// What `tde games` prints of a game: its kind, scenarios, tensor shapes and agents.
#[derive(Clone, Debug, PartialEq)]
pub struct FactSheet {
    /// What kind of game it is.
    pub game_type: GameType,
    /// The scenarios its arena plays (`--scenarios all`).
    pub scenarios: Vec<String>,
    /// Its tensor shapes, of the first scenario's start (TDE's grid follows the board).
    pub tensor: TensorShape,
    /// The names of its agents.
    pub agents: Vec<&'static str>,
}

impl FactSheet {
    /// The fact sheet as lines for people.
    pub fn text(&self) -> String {
        let t = &self.game_type;
        let s = &self.tensor;
        format!(
            "{} ({})\n  players        {}\n  dynamics       {:?}\n  chance         {:?}\n  information    {:?}\n  \
             utility        {:?}\n  rewards        {}\n  observation    {} planes of {}x{}, {} globals\n  \
             policy         {} planes, {} global logits, {} actions\n  scenarios      {}\n  agents         {}\n  \
             rules          {}\n",
            t.short_name,
            t.long_name,
            t.players,
            t.dynamics,
            t.chance,
            t.information,
            t.utility,
            if t.terminal_rewards_only { "at the end only" } else { "during play" },
            s.planes,
            s.depth,
            s.width,
            s.globals,
            s.policy_planes,
            s.policy_globals,
            s.policy_size,
            self.scenarios.join(", "),
            self.agents.join(", "),
            t.rules,
        )
    }
}

/// How a short test game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGame {
    /// Decisions taken.
    pub decisions: u32,
    /// Whether the game reached its end (else it stopped at [`Checks::max_decisions`]).
    pub finished: bool,
    /// Each player's return at the end (0 each when unfinished).
    pub returns: Vec<f64>,
}

/// A game of the registry, whatever its state type: its fact sheet, agents, checks and arena.
pub trait RegisteredGame: Sync {
    /// What kind of game it is.
    fn game_type(&self) -> GameType;
    /// Its fact sheet; fails only when its first scenario cannot be set up.
    fn facts(&self) -> Result<FactSheet, String>;
    /// Its agents with their parameters, as `tde agents` lists them.
    fn describe_agents(&self) -> String;
    /// A spec for every registered agent, cheap enough for a short test game.
    fn test_specs(&self) -> Vec<String>;
    /// The conformance test on the game (its [`Checks::conformance`] options, or `games`
    /// games when given), game `n` on its scenario `n` modulo their number, and its fact
    /// sheet's claims against what the games showed.
    fn conformance(&self, games: Option<u64>) -> Result<Report, String>;
    /// One game between the agents of `specs` (player 0's first) on scenario `seed` modulo
    /// their number, the agents and dice seeded from `seed`, stopped after
    /// [`Checks::max_decisions`] decisions.
    fn test_game(&self, specs: [&str; 2], seed: u64) -> Result<TestGame, String>;
    /// The framework's arena on it: settings checked as [`ArenaSettings::new`] checks them,
    /// then [`crate::run`].
    fn arena(
        &self,
        agents: &[String],
        scenarios: &[String],
        games: u32,
        seed: u64,
        options: &ArenaOptions,
    ) -> Result<Results, String>;
}

/// A registered game: its kind, match-maker, agents and checks.
pub struct Entry<G: Game, M: MatchMaker<G>> {
    game_type: GameType,
    maker: M,
    agents: fn() -> Registry<G>,
    checks: Checks,
    game: PhantomData<fn() -> G>,
}

impl<G: Game, M: MatchMaker<G>> Entry<G, M> {
    /// A game of kind `game_type` built by `maker`, whose agents `agents` lists (`maker`
    /// builds the same ones), checked as `checks` says.
    pub fn new(game_type: GameType, maker: M, agents: fn() -> Registry<G>, checks: Checks) -> Self {
        Entry { game_type, maker, agents, checks, game: PhantomData }
    }

    /// Game `n`'s start: the scenarios in turn, the lineup drawn by `n`.
    fn game(&self, n: u64) -> Result<G, String> {
        let scenarios = self.maker.scenarios();
        let scenario =
            scenarios.get(n as usize % scenarios.len().max(1)).ok_or("a game without scenarios")?;
        Ok(self.maker.new_game(scenario, n)?.0)
    }
}

impl<G: TensorGame, M: MatchMaker<G>> RegisteredGame for Entry<G, M> {
    fn game_type(&self) -> GameType {
        self.game_type
    }

    fn facts(&self) -> Result<FactSheet, String> {
        Ok(FactSheet {
            game_type: self.game_type,
            scenarios: self.maker.scenarios(),
            tensor: self.game(0)?.tensor_shape(),
            agents: (self.agents)().names(),
        })
    }

    fn describe_agents(&self) -> String {
        (self.agents)().describe()
    }

    fn test_specs(&self) -> Vec<String> {
        let quick = |name: &str| self.checks.quick.iter().find(|(n, _)| *n == name).map(|(_, spec)| *spec);
        (self.agents)().names().into_iter().map(|name| quick(name).unwrap_or(name).to_string()).collect()
    }

    fn conformance(&self, games: Option<u64>) -> Result<Report, String> {
        let mut options = self.checks.conformance;
        options.games = games.unwrap_or(options.games);
        let first = self.game(0)?;
        let name = self.game_type.short_name;
        let new_game =
            |seed: u64| self.game(seed).unwrap_or_else(|e| panic!("{name}: game {seed} not set up: {e}"));
        let report = conformance::check(name, new_game, &options)?;
        conformance::check_game_type(&self.game_type, &first, &report)?;
        Ok(report)
    }

    fn test_game(&self, specs: [&str; 2], seed: u64) -> Result<TestGame, String> {
        let mut players = [
            self.maker.make_agent(specs[0], seed.wrapping_mul(2))?,
            self.maker.make_agent(specs[1], seed.wrapping_mul(2) + 1)?,
        ];
        let mut state = self.game(seed)?;
        let mut dice = ChaCha8Rng::seed_from_u64(seed);
        let mut decisions = 0;
        loop {
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance(&mut dice).ok_or("a chance node without outcomes")?,
                Turn::Player(_) if decisions == self.checks.max_decisions => break,
                Turn::Player(p) => {
                    decisions += 1;
                    players[p].select_action(&state)
                }
            };
            let who = if matches!(state.turn(), Turn::Chance) { "the dice" } else { "an agent" };
            state.apply(action).map_err(|e| format!("{who} chose an illegal action {action:?}: {e}"))?;
        }
        let finished = state.is_terminal();
        let returns = if finished { state.returns() } else { vec![0.0; state.num_players()] };
        Ok(TestGame { decisions, finished, returns })
    }

    fn arena(
        &self,
        agents: &[String],
        scenarios: &[String],
        games: u32,
        seed: u64,
        options: &ArenaOptions,
    ) -> Result<Results, String> {
        let settings = ArenaSettings::new(&self.maker, agents, scenarios, games, seed)?;
        run(&self.maker, &settings, options)
    }
}
