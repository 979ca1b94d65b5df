//! The Python module `tde._tde`: [`State`], [`Agent`], `new_game`, `deserialize`, the arena
//! and the benchmark loop, over the plain-Rust [`crate::core`]. Every failure becomes a
//! Python exception (`tde.TdeError`, a `ValueError`; `tde.IllegalActionError` for an
//! illegal action) carrying the engine's message; panics are caught in the core and come
//! back as errors, never unwinding into the interpreter.

use crate::core::{self, ArenaRequest, GameOptions, TdeAgent, TdeState};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PySlice, PyTuple};
use std::sync::Mutex;

create_exception!(
    _tde,
    TdeError,
    PyValueError,
    "An error from the TDE engine or a bad argument: the message names the argument and why."
);
create_exception!(
    _tde,
    IllegalActionError,
    TdeError,
    "An action that is not legal at the state's current node; the state is unchanged."
);

fn err(message: String) -> PyErr {
    TdeError::new_err(message)
}

/// A writable numpy array of `dtype` over a new `bytearray` holding `bytes` (numpy's
/// `frombuffer`: the array shares the bytearray's memory, one copy out of Rust in all).
fn numpy_array<'py>(py: Python<'py>, bytes: &[u8], dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
    frombuffer.call1((PyByteArray::new(py, bytes), dtype))
}

/// A float32 numpy array of `values`.
fn f32_array<'py>(py: Python<'py>, values: &[f32]) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = vec![0u8; values.len() * 4];
    for (chunk, v) in bytes.chunks_exact_mut(4).zip(values) {
        chunk.copy_from_slice(&v.to_ne_bytes());
    }
    numpy_array(py, &bytes, "float32")
}

/// A game position: decisions by side 0 (A) and 1 (B), chance nodes with exact odds, legal
/// actions as indices of the Rust policy space.
#[pyclass(name = "State", module = "tde._tde")]
pub struct State {
    inner: TdeState,
}

impl State {
    fn player_or_current(&self, player: Option<i64>) -> PyResult<i64> {
        match player {
            Some(p) => Ok(p),
            None => match self.inner.current_player() {
                p if p >= 0 => Ok(p as i64),
                _ => {
                    Err(err("player: give the observing player (0 or 1); nobody decides at this node".into()))
                }
            },
        }
    }
}

#[pymethods]
impl State {
    /// The player to act: 0 (side A) or 1 (side B), -1 at a chance node, -4 once the game is
    /// over (OpenSpiel's ids).
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// Whether a die roll or a draw is next.
    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Number of players with a crew: 2, or 1 in a solo game.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// Size of the policy space of this board's size class (OpenSpiel's
    /// `num_distinct_actions`).
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// The legal actions: policy indices, ascending, at a decision; the outcome numbers
    /// 0..k at a chance node; empty once the game is over, or when `player` is given and is
    /// not the one to act.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i32>) -> PyResult<Vec<usize>> {
        if player.is_some_and(|p| p != self.inner.current_player()) {
            return Ok(Vec::new());
        }
        Ok(self.inner.legal_actions().map_err(err)?.to_vec())
    }

    /// The legal actions as a 0/1 `int8` array: `num_distinct_actions()` long at a decision,
    /// `MAX_CHANCE_OUTCOMES` long at a chance node (all zeros when `player` is given and is not
    /// the one to act, or once the game is over).
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i32>) -> PyResult<Bound<'py, PyAny>> {
        let len = if self.inner.is_chance_node() {
            core::MAX_CHANCE_OUTCOMES
        } else {
            self.inner.num_distinct_actions()
        };
        let mut mask = vec![0u8; len];
        if player.is_none_or(|p| p == self.inner.current_player()) {
            for &i in self.inner.legal_actions().map_err(err)? {
                mask[i] = 1;
            }
        }
        numpy_array(py, &mask, "int8")
    }

    /// A chance node's outcomes as `(outcome, probability)` pairs, exact and summing to 1;
    /// empty at any other node.
    fn chance_outcomes(&self) -> PyResult<Vec<(usize, f64)>> {
        self.inner.chance_outcomes().map_err(err)
    }

    /// At a chance node, the outcome a uniform draw `u` in [0, 1) picks by the exact odds
    /// (for environments that roll the dice with their own seeded generator); `None` at any
    /// other node.
    fn sample_chance_outcome(&self, u: f64) -> PyResult<Option<usize>> {
        if !(0.0..1.0).contains(&u) {
            return Err(err(format!("u: {u} is not in [0, 1)")));
        }
        self.inner.chance_outcome_for(u).map_err(err)
    }

    /// Apply a legal action (a policy index at a decision, an outcome number at a chance
    /// node). An illegal one raises `IllegalActionError` and leaves the state unchanged.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let index = usize::try_from(action)
            .map_err(|_| IllegalActionError::new_err(format!("action {action} is negative")))?;
        self.inner.apply(index).map_err(IllegalActionError::new_err)
    }

    /// An independent copy (cheap: the static game data is shared).
    fn clone(&self) -> State {
        State { inner: self.inner.clone() }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Pickling goes through the game record.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("tde._tde")?;
        let f = module.getattr("deserialize")?;
        PyTuple::new(py, [f.into_any(), PyTuple::new(py, [self.inner.serialize()])?.into_any()])
    }

    fn __eq__(&self, other: &State) -> bool {
        self.inner == other.inner
    }

    /// Each player's return: +1 win, -1 loss, 0 draw (a solo game: side A's score as a
    /// return in [-1, 1]); zeros until the game is over.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// Victory points of sides A and B as the game stands (final once it is over).
    fn victory_points(&self) -> (i32, i32) {
        let vp = self.inner.state().outcome().vp;
        (vp[0], vp[1])
    }

    /// `player`'s observation as the Rust encoding writes it, flat: the planes
    /// (`observation_shape()[0]`, row-major) then the globals, float32. Only what `player`
    /// may see. `player` defaults to the one deciding.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let player = self.player_or_current(player)?;
        f32_array(py, &self.inner.observation(player).map_err(err)?)
    }

    /// `player`'s observation as `(planes, globals)` arrays: planes of shape
    /// `(PLANES, depth, width)` and `GLOBALS` global features, views of one buffer.
    #[pyo3(signature = (player=None))]
    fn observation_arrays<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyTuple>> {
        let player = self.player_or_current(player)?;
        let ([p, d, w], _) = self.inner.observation_shape();
        let flat = f32_array(py, &self.inner.observation(player).map_err(err)?)?;
        let n = (p * d * w) as isize;
        let planes = flat.get_item(PySlice::new(py, 0, n, 1))?.call_method1("reshape", ((p, d, w),))?;
        let globals = flat.get_item(PySlice::new(py, n, isize::MAX, 1))?;
        PyTuple::new(py, [planes, globals])
    }

    /// `((planes, depth, width), globals)`: the observation's shape for this board's size
    /// class.
    fn observation_shape(&self) -> ((usize, usize, usize), usize) {
        let ([p, d, w], g) = self.inner.observation_shape();
        ((p, d, w), g)
    }

    /// What `player` sees now, as JSON. `player` defaults to the one deciding.
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        let player = self.player_or_current(player)?;
        self.inner.observation_string(player).map_err(err)
    }

    /// `player`'s information state as JSON: the state without what `player` cannot know
    /// (the enemy's unannounced grudge, marker numbers it has not seen); equal for states
    /// `player` cannot tell apart. `player` defaults to the one deciding.
    #[pyo3(signature = (player=None))]
    fn information_state_string(&self, player: Option<i64>) -> PyResult<String> {
        let player = self.player_or_current(player)?;
        self.inner.information_state_string(player).map_err(err)
    }

    /// A legal action of this node in words.
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        let index = usize::try_from(action).map_err(|_| err(format!("action: {action} is negative")))?;
        self.inner.action_to_string(index).map_err(err)
    }

    /// The node awaited, in words (who decides what, or which roll).
    fn describe_node(&self) -> String {
        self.inner.state().describe_node()
    }

    /// The current turn, from 1.
    fn turn(&self) -> u8 {
        self.inner.state().turn()
    }

    /// Actions taken so far, chance outcomes included.
    fn move_number(&self) -> usize {
        self.inner.history().len()
    }

    /// The game so far as a game record (JSON): `tde replay` and `tde view` read it.
    fn serialize(&self) -> String {
        self.inner.serialize()
    }

    /// A stable 64-bit hash of the position (a record's `final_hash`, as a number).
    fn state_hash(&self) -> u64 {
        self.inner.state_hash()
    }

    /// The scenario's name.
    fn scenario(&self) -> &'static str {
        self.inner.state().static_data().scenario.name()
    }

    fn __str__(&self) -> String {
        self.inner.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "<tde.State {} turn {}, {} actions so far: {}>",
            self.scenario(),
            self.turn(),
            self.move_number(),
            self.describe_node()
        )
    }
}

/// Build a new game, before its first decision or roll. `scenario`: a name from
/// `scenarios()`, 1-5, `"random"` (a D5 rolled from `seed`) or `"skirmish"`; `board` and
/// `crews` (side A, side B; one crew with `solo`): names in `configs/` or paths; `dinos` AI
/// dinosaurs and `ambush` markers (Ulaya Chronicles); `max_turns` overrides the game length.
#[pyfunction]
#[pyo3(signature = (scenario="random", board=engine::setup::DEFAULT_BOARD, crews=None, rules="standard", dinos=0, ambush=0, solo=false, max_turns=None, seed=0))]
#[allow(clippy::too_many_arguments)]
fn new_game(
    scenario: &str,
    board: &str,
    crews: Option<Vec<String>>,
    rules: &str,
    dinos: u8,
    ambush: u8,
    solo: bool,
    max_turns: Option<u8>,
    seed: u64,
) -> PyResult<State> {
    let options = GameOptions {
        scenario: scenario.to_string(),
        board: board.to_string(),
        crews: crews.unwrap_or_else(|| GameOptions::default().crews),
        rules: rules.to_string(),
        dinos,
        ambush,
        solo,
        max_turns,
        seed,
    };
    let state = core::build_game(&options).map_err(err)?;
    let description = format!("python new_game scenario {scenario} board {board} seed {seed}");
    Ok(State { inner: TdeState::new(state, &description) })
}

/// A state from a game record (JSON, as `State.serialize`, `tde demo --record` or `tde arena
/// --records` write it), replayed and checked against its final hash; or from a saved game.
#[pyfunction]
fn deserialize(text: &str) -> PyResult<State> {
    TdeState::deserialize(text).map(|inner| State { inner }).map_err(err)
}

/// A built-in agent from a spec as `tde arena --agents` takes it: `random`, `greedy`,
/// `scripted`, `learned:gen=PATH`, `mcts:iters=400,rollout=scripted`, `uc-cards`,
/// `policy:checkpoint=PATH`, `az:net=PATH`, ... Seeded: the same seed and states give the
/// same choices.
#[pyclass(name = "Agent", module = "tde._tde")]
pub struct Agent {
    inner: Mutex<TdeAgent>,
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed=0))]
    fn new(spec: &str, seed: u64) -> PyResult<Agent> {
        Ok(Agent { inner: Mutex::new(TdeAgent::new(spec, seed).map_err(err)?) })
    }

    /// The policy index of the agent's choice at `state`'s decision (the interpreter is free
    /// while it thinks). Raises at a chance node or once the game is over.
    fn step(&self, py: Python<'_>, state: &State) -> PyResult<usize> {
        let inner = &self.inner;
        let state = &state.inner;
        py.detach(|| match inner.lock() {
            Ok(mut agent) => agent.step(state),
            Err(_) => Err("Agent.step: the agent failed earlier and cannot be used again".to_string()),
        })
        .map_err(err)
    }

    /// The spec it was built from.
    #[getter]
    fn spec(&self) -> String {
        self.inner.lock().map(|a| a.spec().to_string()).unwrap_or_default()
    }

    /// The agent's name with its parameters.
    #[getter]
    fn name(&self) -> String {
        self.inner.lock().map(|a| a.name()).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        format!("<tde.Agent {}>", self.name())
    }
}

/// Play a round robin and return `results.json` as a string (`tde.arena` parses it).
#[pyfunction]
#[pyo3(signature = (agents, scenarios, games, seed, threads, boards, crews, rules, dinos, ambush))]
#[allow(clippy::too_many_arguments)]
fn arena_json(
    py: Python<'_>,
    agents: Vec<String>,
    scenarios: Vec<String>,
    games: u32,
    seed: u64,
    threads: usize,
    boards: Vec<String>,
    crews: Vec<String>,
    rules: String,
    dinos: u8,
    ambush: u8,
) -> PyResult<String> {
    let request =
        ArenaRequest { agents, scenarios, games, seed, threads, boards, crews, rules, dinos, ambush };
    py.detach(|| core::run_arena(&request)).map_err(err)
}

/// Play `games` uniformly random games from `state` entirely in Rust and return the steps
/// taken (the benchmark's reference loop).
#[pyfunction]
fn random_games_in_rust(py: Python<'_>, state: &State, games: u32, seed: u64) -> PyResult<u64> {
    let start = state.inner.state();
    py.detach(|| core::random_games(start, games, seed)).map_err(err)
}

/// The scenarios `new_game` takes, by name (the five of the rulebook, then `skirmish`).
#[pyfunction]
fn scenarios() -> Vec<&'static str> {
    engine::scenario::Scenario::ALL
        .iter()
        .chain(&[engine::scenario::Scenario::Skirmish])
        .map(|s| s.name())
        .collect()
}

/// The module.
#[pymodule]
fn _tde(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize, m)?)?;
    m.add_function(wrap_pyfunction!(arena_json, m)?)?;
    m.add_function(wrap_pyfunction!(random_games_in_rust, m)?)?;
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add("TdeError", py.get_type::<TdeError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("PLANES", engine::encoding::PLANES)?;
    m.add("GLOBALS", engine::encoding::GLOBALS)?;
    m.add("CHANCE_PLAYER", core::CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", core::TERMINAL_PLAYER)?;
    m.add("MAX_CHANCE_OUTCOMES", core::MAX_CHANCE_OUTCOMES)?;
    m.add("AGENT_NAMES", training::play::registry().names())?;
    Ok(())
}
