//! The plain-Rust core the Python bindings wrap: games built from keyword options, a state
//! that speaks in policy-space indices and remembers its history (so that it serialises as a
//! game record), agents that answer with indices, and the arena returning its results as
//! JSON. Nothing here knows Python; every failure is a `String` naming the bad argument.

use agents::Agent;
use engine::encoding::{self, Geometry, PolicySpace, Recipe};
use engine::record::{format_hash, GameRecord, SavedGame};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{Action, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

/// OpenSpiel's id of the chance player.
pub const CHANCE_PLAYER: i32 = -1;
/// OpenSpiel's id of the terminal "player".
pub const TERMINAL_PLAYER: i32 = -4;
/// The most outcomes a chance node may have (outcomes are `Action::Chance(u8)`).
pub const MAX_CHANCE_OUTCOMES: usize = 256;

/// Run `f`, turning a panic into an error that carries the panic's message, so that no panic
/// unwinds into the interpreter.
pub fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            Err(format!("{what}: internal error in the engine: {message}"))
        }
    }
}

/// What a new game is built from: the keyword arguments of `tde.new_game`, with the CLI's
/// defaults.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// A scenario name (`tde scenarios`), 1-5, `random` (a D5 rolled from `seed`) or
    /// `skirmish`.
    pub scenario: String,
    /// Board name in `configs/boards/` or a path to a `.board` file.
    pub board: String,
    /// The crews, side A then side B (one in a solo game): names in `configs/crews/` or paths.
    pub crews: Vec<String>,
    /// Rule variant in `configs/rules/`.
    pub rules: String,
    /// AI dinosaurs placed before deployment.
    pub dinos: u8,
    /// Ambush markers placed after the dinosaurs.
    pub ambush: u8,
    /// Side A's crew alone against the dinosaurs.
    pub solo: bool,
    /// Turns in the game, or the scenario's default.
    pub max_turns: Option<u8>,
    /// Rolls the scenario of `random`; a game's own randomness is all in its chance nodes.
    pub seed: u64,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            scenario: "random".into(),
            board: engine::setup::DEFAULT_BOARD.into(),
            crews: engine::setup::DEFAULT_CREWS.iter().map(|s| s.to_string()).collect(),
            rules: "standard".into(),
            dinos: 0,
            ambush: 0,
            solo: false,
            max_turns: None,
            seed: 0,
        }
    }
}

/// A scenario by name or number, or `random`: the D5 table (p.76) rolled with `seed`, as
/// `tde demo --scenario random --seed SEED` rolls it.
pub fn pick_scenario(name: &str, seed: u64) -> Result<Scenario, String> {
    if name.eq_ignore_ascii_case("random") {
        let roll = ChaCha8Rng::seed_from_u64(seed ^ 0x5ce7_a210).gen_range(1..=5);
        return Ok(Scenario::from_d5(roll));
    }
    Scenario::parse(name).map_err(|e| format!("scenario: {e}"))
}

/// Build a new game from `options`, before its first decision or roll.
pub fn build_game(options: &GameOptions) -> Result<GameState, String> {
    let crews: [String; 2] = match (options.solo, options.crews.as_slice()) {
        (true, [a]) => [a.clone(), a.clone()],
        (_, [a, b]) => [a.clone(), b.clone()],
        (_, other) => {
            return Err(format!(
                "crews: give exactly two crews (side A, side B){}, got {}",
                if options.solo { ", or one in a solo game" } else { "" },
                other.len()
            ))
        }
    };
    if options.dinos > engine::setup::MAX_DINOS {
        return Err(format!("dinos: at most {}, got {}", engine::setup::MAX_DINOS, options.dinos));
    }
    if options.ambush as usize > engine::uc::MAX_MARKERS {
        return Err(format!("ambush: at most {}, got {}", engine::uc::MAX_MARKERS, options.ambush));
    }
    if options.solo && options.dinos == 0 {
        return Err("solo: a solo game needs AI dinosaurs to face (dinos 1 or more)".into());
    }
    if options.max_turns == Some(0) {
        return Err("max_turns: a game lasts at least one turn".into());
    }
    let mut config = GameConfig {
        board: options.board.clone(),
        crews,
        rules: options.rules.clone(),
        scenario: pick_scenario(&options.scenario, options.seed)?,
        dinos: options.dinos,
        ambush: options.ambush,
        solo: options.solo,
        ..GameConfig::default()
    };
    if let Some(turns) = options.max_turns {
        config.max_turns = turns;
    }
    guarded("new_game", || new_game(&config).map_err(|e| e.to_string()))
}

/// The legal moves of one node, in policy-space order.
#[derive(Clone, Debug, Default)]
struct Legal {
    /// Policy indices (decision) or outcome numbers (chance), ascending.
    indices: Vec<usize>,
    /// The engine's action of each index.
    actions: Vec<Action>,
    /// Each outcome's probability at a chance node; empty at a decision.
    probabilities: Vec<f64>,
    /// Each action's recipe (how a network scores it) at a decision; empty at a chance node.
    recipes: Vec<Recipe>,
}

/// A game position as the bindings see it: the engine's state, the policy space of its board,
/// where the game started and every action since (so that it serialises as a record).
#[derive(Clone, Debug)]
pub struct TdeState {
    state: GameState,
    space: PolicySpace,
    initial: Arc<GameState>,
    history: Arc<Vec<Action>>,
    description: Arc<str>,
    legal: OnceLock<Legal>,
}

impl TdeState {
    /// A game starting at `state`, with no history yet.
    pub fn new(state: GameState, description: &str) -> TdeState {
        TdeState {
            space: PolicySpace::of(&state),
            initial: Arc::new(state.clone()),
            state,
            history: Arc::new(Vec::new()),
            description: description.into(),
            legal: OnceLock::new(),
        }
    }

    /// The engine's state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The policy space of the board (its size class).
    pub fn space(&self) -> PolicySpace {
        self.space
    }

    /// Every action taken since the start, chance outcomes included, as the engine's actions.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// Number of players with a crew: 2, or 1 in a solo game.
    pub fn num_players(&self) -> usize {
        self.state.playing_sides().len()
    }

    /// Number of policy indices (OpenSpiel's `num_distinct_actions`).
    pub fn num_distinct_actions(&self) -> usize {
        self.space.size()
    }

    /// The side to act (0 or 1), [`CHANCE_PLAYER`] or [`TERMINAL_PLAYER`].
    pub fn current_player(&self) -> i32 {
        match self.state.current_player() {
            Player::Side(s) => s as i32,
            Player::Chance => CHANCE_PLAYER,
            Player::Terminal => TERMINAL_PLAYER,
        }
    }

    /// Whether a die roll or a draw is next.
    pub fn is_chance_node(&self) -> bool {
        self.state.current_player() == Player::Chance
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    fn legal(&self) -> Result<&Legal, String> {
        if let Some(l) = self.legal.get() {
            return Ok(l);
        }
        let computed = guarded("legal_actions", || self.compute_legal())?;
        Ok(self.legal.get_or_init(|| computed))
    }

    fn compute_legal(&self) -> Result<Legal, String> {
        let state = &self.state;
        match state.current_player() {
            Player::Terminal => Ok(Legal::default()),
            Player::Chance => {
                let outcomes = state.chance_outcomes();
                Ok(Legal {
                    indices: (0..outcomes.len()).collect(),
                    actions: outcomes.iter().map(|&(a, _)| a).collect(),
                    probabilities: outcomes.iter().map(|&(_, p)| p).collect(),
                    recipes: Vec::new(),
                })
            }
            Player::Side(_) => {
                let actions = state.legal_actions();
                let mut triples = Vec::with_capacity(actions.len());
                for a in actions {
                    let (index, recipe) = self.space.encode(state, a).map_err(|e| e.to_string())?;
                    triples.push((index, a, recipe));
                }
                triples.sort_unstable_by_key(|&(i, _, _)| i);
                Ok(Legal {
                    indices: triples.iter().map(|&(i, _, _)| i).collect(),
                    actions: triples.iter().map(|&(_, a, _)| a).collect(),
                    probabilities: Vec::new(),
                    recipes: triples.iter().map(|&(_, _, r)| r).collect(),
                })
            }
        }
    }

    /// The legal actions as policy indices (ascending) at a decision, the outcome numbers
    /// `0..k` at a chance node, nothing once the game is over.
    pub fn legal_actions(&self) -> Result<&[usize], String> {
        Ok(&self.legal()?.indices)
    }

    /// The recipes of the legal actions at a decision, in the order of
    /// [`legal_actions`](Self::legal_actions): how a network's policy planes and global
    /// logits score each one. Empty at a chance node and once the game is over.
    pub fn action_recipes(&self) -> Result<&[Recipe], String> {
        Ok(&self.legal()?.recipes)
    }

    /// A chance node's outcomes with their exact probabilities (summing to 1); empty at any
    /// other node.
    pub fn chance_outcomes(&self) -> Result<Vec<(usize, f64)>, String> {
        let legal = self.legal()?;
        Ok(legal.indices.iter().copied().zip(legal.probabilities.iter().copied()).collect())
    }

    /// The engine's action for a legal index at this node.
    pub fn action_of(&self, index: usize) -> Result<Action, String> {
        let legal = self.legal()?;
        match legal.indices.binary_search(&index) {
            Ok(k) => Ok(legal.actions[k]),
            Err(_) => Err(self.illegal(index, legal)),
        }
    }

    fn illegal(&self, index: usize, legal: &Legal) -> String {
        let node = self.state.describe_node();
        if self.state.is_terminal() {
            return format!("action {index}: the game is over");
        }
        let kind = if self.is_chance_node() { "chance outcome" } else { "action" };
        let first: Vec<String> = legal.indices.iter().take(8).map(|i| i.to_string()).collect();
        format!(
            "{kind} {index} is not legal at this node ({node}); the {} legal ones are {}{}",
            legal.indices.len(),
            first.join(", "),
            if legal.indices.len() > first.len() { ", ..." } else { "" }
        )
    }

    /// The policy index of one of the engine's legal actions at this decision (or the outcome
    /// number of a chance outcome).
    pub fn index_of(&self, action: Action) -> Result<usize, String> {
        let legal = self.legal()?;
        legal
            .actions
            .iter()
            .position(|&a| a == action)
            .map(|k| legal.indices[k])
            .ok_or_else(|| format!("{action} is not legal at this node ({})", self.state.describe_node()))
    }

    /// Apply a legal index (a policy index at a decision, an outcome number at a chance
    /// node); an illegal one is refused with the reason and changes nothing.
    pub fn apply(&mut self, index: usize) -> Result<(), String> {
        let action = self.action_of(index)?;
        // The action comes from this very state's legal list, so the engine need not
        // generate the legal actions again to check it (the search's fast path).
        let state = &mut self.state;
        guarded("apply_action", || {
            state.apply_legal_action(action);
            Ok(())
        })?;
        self.record(action);
        Ok(())
    }

    /// Apply one of the engine's legal actions (or chance outcomes) at this node.
    pub fn apply_engine_action(&mut self, action: Action) -> Result<(), String> {
        let state = &mut self.state;
        guarded("apply_action", || state.apply_action(action).map_err(|e| e.to_string()))?;
        self.record(action);
        Ok(())
    }

    /// Adds an applied action to the history and forgets the legal actions of the state before.
    fn record(&mut self, action: Action) {
        Arc::make_mut(&mut self.history).push(action);
        self.legal = OnceLock::new();
    }

    /// At a chance node, the outcome number a uniform draw `u` in `[0, 1)` picks (outcomes
    /// weighted by their exact probabilities); `None` at any other node.
    pub fn chance_outcome_for(&self, u: f64) -> Result<Option<usize>, String> {
        if !self.is_chance_node() {
            return Ok(None);
        }
        let legal = self.legal()?;
        let mut x = u;
        for (&i, &p) in legal.indices.iter().zip(&legal.probabilities) {
            if x < p {
                return Ok(Some(i));
            }
            x -= p;
        }
        Ok(legal.indices.last().copied())
    }

    /// An index in words, as taken at this node (the model, where it goes, the roll's result).
    pub fn action_to_string(&self, index: usize) -> Result<String, String> {
        let action = self.action_of(index)?;
        let state = &self.state;
        guarded("action_to_string", || Ok(engine::render::describe_action(state, action)))
    }

    /// Each side's return: +1 win, -1 loss, 0 draw (a solo game: side A's score as a return);
    /// zeros until the game is over.
    pub fn returns(&self) -> Vec<f64> {
        self.state.returns()[..self.num_players()].to_vec()
    }

    /// Check that `player` is a side with a crew.
    pub fn check_player(&self, player: i64) -> Result<u8, String> {
        let n = self.num_players() as i64;
        if (0..n).contains(&player) {
            Ok(player as u8)
        } else {
            Err(format!(
                "player: {player} is not a player of this game (0{})",
                if n > 1 { " or 1" } else { "" }
            ))
        }
    }

    /// The observation shape: (planes, depth, width) of the board's size class and the number
    /// of global features.
    pub fn observation_shape(&self) -> ([usize; 3], usize) {
        let geo = Geometry::of(self.state.board());
        ([encoding::PLANES, geo.depth, geo.width], encoding::GLOBALS)
    }

    /// `player`'s observation as the Rust encoding writes it: the planes (`PLANES × depth ×
    /// width`, row-major) followed by the globals, in one vector.
    pub fn observation(&self, player: i64) -> Result<Vec<f32>, String> {
        let ([p, d, w], g) = self.observation_shape();
        let mut out = vec![0f32; p * d * w + g];
        self.observe_into(player, &mut out)?;
        Ok(out)
    }

    /// The number of floats of an observation: the planes, then the globals.
    pub fn observation_len(&self) -> usize {
        let ([p, d, w], g) = self.observation_shape();
        p * d * w + g
    }

    /// Write `player`'s observation (as [`observation`](Self::observation)) into `out`, which
    /// is [`observation_len`](Self::observation_len) long.
    pub fn observe_into(&self, player: i64, out: &mut [f32]) -> Result<(), String> {
        let side = self.check_player(player)?;
        let ([p, d, w], _) = self.observation_shape();
        if out.len() != self.observation_len() {
            return Err(format!(
                "observation: a buffer of {} floats for {}",
                out.len(),
                self.observation_len()
            ));
        }
        let state = &self.state;
        guarded("observation_tensor", || {
            let (planes, globals) = out.split_at_mut(p * d * w);
            let planes = ndarray::ArrayViewMut3::from_shape((p, d, w), planes).map_err(|e| e.to_string())?;
            encoding::encode_observation(state, side, planes, ndarray::ArrayViewMut1::from(globals));
            Ok(())
        })
    }

    /// What `player` sees now, as JSON (the engine's `Observation`).
    pub fn observation_string(&self, player: i64) -> Result<String, String> {
        let side = self.check_player(player)?;
        let state = &self.state;
        guarded("observation_string", || {
            serde_json::to_string(&state.observation(side)).map_err(|e| e.to_string())
        })
    }

    /// `player`'s information state as JSON: the dynamic state with what `player` cannot know
    /// (the enemy's unannounced grudge, marker numbers it has not seen) removed. Equal for the
    /// states of one game `player` cannot tell apart.
    pub fn information_state_string(&self, player: i64) -> Result<String, String> {
        let side = self.check_player(player)?;
        let state = &self.state;
        guarded("information_state_string", || {
            serde_json::to_string(&state.masked(side)).map_err(|e| e.to_string())
        })
    }

    /// The whole state in words (map, roster, the node awaited).
    pub fn render(&self) -> String {
        let state = &self.state;
        guarded("render", || Ok(engine::render::render(state))).unwrap_or_else(|e| e)
    }

    /// The game so far as a record (JSON), the format `tde replay` and `tde view` read.
    pub fn serialize(&self) -> String {
        let mut record = GameRecord::new(&self.initial, self.description.to_string());
        record.actions = self.history.to_vec();
        record.final_hash = format_hash(self.state.state_hash());
        serde_json::to_string(&record).expect("records serialise")
    }

    /// A state from a game record (JSON, as [`serialize`](Self::serialize), `tde demo
    /// --record` or `tde arena --records` write it), replayed to its last action and checked
    /// against its final hash; or from a saved game (`SavedGame` JSON), with no history.
    pub fn deserialize(text: &str) -> Result<TdeState, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("deserialize: not JSON: {e}"))?;
        if value.get("initial").is_some() {
            let record: GameRecord =
                serde_json::from_value(value).map_err(|e| format!("deserialize: not a game record: {e}"))?;
            let initial =
                guarded("deserialize", || record.initial.restore("record").map_err(|e| e.to_string()))?;
            let mut state = TdeState::new(initial, &record.description);
            for (k, &action) in record.actions.iter().enumerate() {
                state.apply_engine_action(action).map_err(|e| format!("deserialize: action #{k}: {e}"))?;
            }
            let hash = format_hash(state.state.state_hash());
            if hash != record.final_hash {
                return Err(format!(
                    "deserialize: the replayed final hash {hash} differs from the record's {}",
                    record.final_hash
                ));
            }
            Ok(state)
        } else if value.get("state").is_some() {
            let saved: SavedGame =
                serde_json::from_value(value).map_err(|e| format!("deserialize: not a saved game: {e}"))?;
            let state = guarded("deserialize", || saved.restore("saved game").map_err(|e| e.to_string()))?;
            Ok(TdeState::new(state, "saved game"))
        } else {
            Err("deserialize: neither a game record (no `initial`) nor a saved game (no `state`)".into())
        }
    }

    /// A stable 64-bit hash of the position (the record's `final_hash`, as a number).
    pub fn state_hash(&self) -> u64 {
        self.state.state_hash()
    }
}

impl PartialEq for TdeState {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
    }
}

/// An agent built from a spec as the CLI takes it, answering with policy indices.
pub struct TdeAgent {
    agent: Box<dyn Agent<GameState>>,
    spec: String,
}

impl TdeAgent {
    /// Build `spec` (`random`, `greedy`, `scripted`, `learned:gen=PATH`, `mcts:...`,
    /// `policy:checkpoint=PATH`, `az:net=PATH`, `uc-cards`; see `tde --help`), seeded.
    pub fn new(spec: &str, seed: u64) -> Result<TdeAgent, String> {
        let agent =
            guarded("Agent", || training::play::make_agent(spec, seed)).map_err(|e| format!("spec: {e}"))?;
        Ok(TdeAgent { agent, spec: spec.to_string() })
    }

    /// The spec it was built from.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The agent's name with its parameters.
    pub fn name(&self) -> String {
        self.agent.name()
    }

    /// The policy index of the agent's choice at `state`'s decision.
    pub fn step(&mut self, state: &TdeState) -> Result<usize, String> {
        match state.state.current_player() {
            Player::Side(_) => {}
            Player::Chance => return Err("state: a chance node; agents choose only at decisions".into()),
            Player::Terminal => return Err("state: the game is over".into()),
        }
        let agent = &mut self.agent;
        let action = guarded("Agent.step", || Ok(agent.select_action(&state.state)))?;
        state.index_of(action)
    }
}

/// The arena's settings: the keyword arguments of `tde.arena`.
#[derive(Clone, Debug)]
pub struct ArenaRequest {
    /// Agent specs (two or more; a `#tag` suffix enters one twice).
    pub agents: Vec<String>,
    /// Scenario names, or `all`.
    pub scenarios: Vec<String>,
    /// Games per pair and scenario (rounded up to even).
    pub games: u32,
    /// The arena's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The board, or boards to draw from (`all` or several names).
    pub boards: Vec<String>,
    /// Two crews, or a pool of three or more (or `all`) to draw from.
    pub crews: Vec<String>,
    /// Rule variant.
    pub rules: String,
    /// AI dinosaurs in every game.
    pub dinos: u8,
    /// Ambush markers in every game.
    pub ambush: u8,
}

/// Play an arena and return its results as JSON (the content of `results.json`).
pub fn run_arena(request: &ArenaRequest) -> Result<String, String> {
    use eval::lineup::Pool;
    use eval::{ArenaOptions, ArenaSettings};
    if request.threads == 0 {
        return Err("threads: at least 1".into());
    }
    let board = match request.boards.as_slice() {
        [one] if one != "all" => Pool::Fixed(one.clone()),
        [] => return Err("board: name a board".into()),
        many => Pool::drawn_or(many, String::new()),
    };
    guarded("arena", || {
        let maker = eval::TdeMatch::with_pools(
            board,
            Pool::crews(&request.crews)?,
            &request.rules,
            request.dinos,
            request.ambush,
        )?
        .with_factory(training::play::make_agent);
        let agents: Vec<String> = request.agents.iter().flat_map(|a| agents::split_agent_list(a)).collect();
        let settings = ArenaSettings::new(&maker, &agents, &request.scenarios, request.games, request.seed)
            .map_err(|e| e.replace("--", ""))?;
        let options = ArenaOptions { threads: request.threads, out: None, records: false, progress: false };
        let results = eval::run(&maker, &settings, &options)?;
        serde_json::to_string(&results).map_err(|e| e.to_string())
    })
}

/// Play `games` random games from `start` in Rust (uniform legal actions, chance by its odds,
/// one seeded generator) and return the number of steps taken: the Rust side of the Python
/// benchmark.
pub fn random_games(start: &GameState, games: u32, seed: u64) -> Result<u64, String> {
    guarded("random_games", || {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0u64;
        let mut legal = Vec::new();
        for _ in 0..games {
            let mut state = start.clone();
            loop {
                let action = match state.current_player() {
                    Player::Terminal => break,
                    Player::Chance => {
                        state.sample_chance(&mut rng).ok_or("a chance node without outcomes")?
                    }
                    Player::Side(_) => {
                        state.legal_actions_into(&mut legal);
                        legal[rng.gen_range(0..legal.len())]
                    }
                };
                state.apply_legal_action(action);
                steps += 1;
            }
        }
        Ok(steps)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(scenario: &str) -> TdeState {
        let options = GameOptions { scenario: scenario.into(), ..GameOptions::default() };
        TdeState::new(build_game(&options).expect("default game builds"), "test")
    }

    /// Play to the end choosing the first legal index, chance by `rng`; the number of steps.
    fn play_out(state: &mut TdeState, seed: u64) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0;
        while !state.is_terminal() {
            let index = if state.is_chance_node() {
                state.chance_outcome_for(rng.gen()).unwrap().unwrap()
            } else {
                let legal = state.legal_actions().unwrap();
                legal[rng.gen_range(0..legal.len())]
            };
            state.apply(index).unwrap();
            steps += 1;
        }
        steps
    }

    #[test]
    fn legal_indices_are_ascending_distinct_and_in_the_policy_space() {
        let mut state = game("couriers");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut decisions = 0;
        while !state.is_terminal() && decisions < 300 {
            let legal = state.legal_actions().unwrap().to_vec();
            assert!(!legal.is_empty());
            assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending and distinct");
            if state.is_chance_node() {
                assert_eq!(legal, (0..legal.len()).collect::<Vec<_>>());
                let total: f64 = state.chance_outcomes().unwrap().iter().map(|&(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "odds sum to 1, got {total}");
            } else {
                decisions += 1;
                assert!(legal.iter().all(|&i| i < state.num_distinct_actions()));
                // Every index decodes to the engine's action and back.
                for &i in &legal {
                    let a = state.action_of(i).unwrap();
                    assert_eq!(state.space().index(state.state(), a), Ok(i));
                }
            }
            let pick = legal[rng.gen_range(0..legal.len())];
            state.apply(pick).unwrap();
        }
        assert!(decisions > 50, "the game reached past its set-up: {decisions} decisions");
    }

    #[test]
    fn an_illegal_index_is_refused_with_the_node_and_changes_nothing() {
        let mut state = game("skirmish");
        let err = state.apply(7).unwrap_err();
        assert!(err.starts_with("chance outcome 7 is not legal at this node (the dice"), "{err}");
        while state.is_chance_node() {
            state.apply(0).unwrap();
        }
        let before = state.clone();
        let legal = state.legal_actions().unwrap().to_vec();
        let bad = (0..).find(|i| !legal.contains(i)).unwrap();
        let err = state.apply(bad).unwrap_err();
        assert!(err.contains(&format!("action {bad} is not legal")), "{err}");
        assert!(err.contains("side A") || err.contains("side B"), "names the node: {err}");
        assert!(state == before && state.history() == before.history());
    }

    #[test]
    fn a_serialized_game_replays_to_the_same_state_and_is_a_record_tde_replay_reads() {
        let mut state = game("assassinate");
        play_out(&mut state, 9);
        let text = state.serialize();
        let back = TdeState::deserialize(&text).unwrap();
        assert!(back == state);
        assert_eq!(back.history(), state.history());
        let record: GameRecord = serde_json::from_str(&text).unwrap();
        let replayed = record.replay("record").unwrap();
        assert_eq!(format_hash(replayed.state_hash()), record.final_hash);
        // A tampered hash is refused.
        let tampered = text.replace(&record.final_hash, "0000000000000000");
        assert!(TdeState::deserialize(&tampered).unwrap_err().contains("differs"));
        assert!(TdeState::deserialize("{").unwrap_err().starts_with("deserialize: not JSON"));
    }

    #[test]
    fn clones_are_independent_and_equal_seeds_give_equal_games() {
        let mut a = game("scavenger_hunt");
        let b = a.clone();
        play_out(&mut a, 5);
        assert!(b.history().is_empty() && !b.is_terminal());
        let mut c = b.clone();
        play_out(&mut c, 5);
        assert_eq!(a.state_hash(), c.state_hash());
        assert_eq!(a.returns().len(), 2);
    }

    #[test]
    fn observations_have_the_encodings_shape_and_refuse_a_bad_player() {
        let state = game("grudge_match");
        let ([p, d, w], g) = state.observation_shape();
        let obs = state.observation(1).unwrap();
        assert_eq!(obs.len(), p * d * w + g);
        assert!(obs[..d * w].contains(&1.0), "the board plane is set");
        assert!(state.observation(2).unwrap_err().starts_with("player: 2"));
        let info: serde_json::Value =
            serde_json::from_str(&state.information_state_string(1).unwrap()).unwrap();
        assert!(info.get("models").is_some(), "the information state is the masked dynamic state");
    }

    #[test]
    fn agents_answer_with_legal_indices_and_bad_specs_name_the_argument() {
        let mut state = game("skirmish");
        let mut agent = TdeAgent::new("scripted", 1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..200 {
            if state.is_terminal() {
                break;
            }
            let index = if state.is_chance_node() {
                assert!(agent.step(&state).unwrap_err().contains("chance node"));
                state.chance_outcome_for(rng.gen()).unwrap().unwrap()
            } else {
                agent.step(&state).unwrap()
            };
            state.apply(index).unwrap();
        }
        let err = TdeAgent::new("nobody", 0).err().unwrap();
        assert!(err.starts_with("spec:") && err.contains("unknown agent"), "{err}");
    }

    #[test]
    fn bad_game_options_name_the_argument() {
        let bad = |o: GameOptions| build_game(&o).unwrap_err();
        assert!(bad(GameOptions { scenario: "chess".into(), ..Default::default() }).starts_with("scenario:"));
        assert!(bad(GameOptions { crews: vec!["the_firm_100".into()], ..Default::default() })
            .starts_with("crews:"));
        assert!(bad(GameOptions { solo: true, ..Default::default() }).starts_with("solo:"));
        assert!(bad(GameOptions { board: "no_such_board".into(), ..Default::default() })
            .contains("no_such_board"));
    }

    #[test]
    fn a_small_arena_returns_its_results() {
        let request = ArenaRequest {
            agents: vec!["random".into(), "greedy".into()],
            scenarios: vec!["skirmish".into()],
            games: 2,
            seed: 1,
            threads: 1,
            boards: vec![engine::setup::DEFAULT_BOARD.into()],
            crews: engine::setup::DEFAULT_CREWS.iter().map(|s| s.to_string()).collect(),
            rules: "standard".into(),
            dinos: 0,
            ambush: 0,
        };
        let json: serde_json::Value = serde_json::from_str(&run_arena(&request).unwrap()).unwrap();
        assert_eq!(json["games"], 2);
        let bad = ArenaRequest { agents: vec!["random".into()], ..request };
        assert!(run_arena(&bad).unwrap_err().contains("at least two agents"));
    }
}
