//! The Python module `tde._tde`: [`State`], [`Agent`], `new_game`, `deserialize`, the arena
//! and the benchmark loop, over the plain-Rust [`crate::core`]. Every failure becomes a
//! Python exception (`tde.TdeError`, a `ValueError`; `tde.IllegalActionError` for an
//! illegal action) carrying the engine's message; panics are caught in the core and come
//! back as errors, never unwinding into the interpreter.

use crate::batch::{Batch as CoreBatch, LegalActions, Opponents};
use crate::core::{self, ArenaRequest, GameOptions, TdeAgent, TdeState};
use engine::encoding::Recipe;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyInt, PySlice, PyTuple};
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

/// A whole-number argument from 0 to `max`, or a `TdeError` naming `argument` and its range
/// (never Python's `OverflowError`): numbers that are negative, too large, not whole or not
/// numbers are all refused the same way. Anything with `__index__` (numpy's integers) counts.
fn whole(value: &Bound<'_, PyAny>, argument: &str, max: u64) -> PyResult<u64> {
    let refuse = || err(format!("{argument}: a whole number from 0 to {max}, got {value}"));
    if value.is_instance_of::<PyBool>() {
        return Err(refuse());
    }
    match value.extract::<u64>() {
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(refuse()),
        Err(_) if value.is_instance_of::<PyInt>() || value.hasattr("__index__")? => Err(refuse()),
        Err(_) => Err(err(format!(
            "{argument}: a whole number from 0 to {max}, got {} {value}",
            value.get_type().name()?
        ))),
    }
}

/// A whole number that fits `T` (an unsigned type), refused as [`whole`] refuses.
fn whole_as<T: TryFrom<u64>>(value: &Bound<'_, PyAny>, argument: &str, max: T) -> PyResult<T>
where
    u64: From<T>,
{
    let n = whole(value, argument, u64::from(max))?;
    T::try_from(n).map_err(|_| err(format!("{argument}: out of range")))
}

/// `seed`: any whole number from 0 to 2^64-1.
fn seed_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "seed", u64::MAX)
}

/// `seed` of `new_game`, which may be left out (`None`).
fn game_seed_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    if value.is_none() {
        return Ok(None);
    }
    seed_arg(value).map(Some)
}

/// `dinos`: AI dinosaurs, 0-255 here (the engine sets the real limit and names it).
fn dinos_arg(value: &Bound<'_, PyAny>) -> PyResult<u8> {
    whole_as(value, "dinos", u8::MAX)
}

/// `ambush`: ambush markers, 0-255 here (the engine sets the real limit and names it).
fn ambush_arg(value: &Bound<'_, PyAny>) -> PyResult<u8> {
    whole_as(value, "ambush", u8::MAX)
}

/// `max_turns`: `None` for the scenario's length, or 1-255 turns.
fn max_turns_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if value.is_none() {
        return Ok(None);
    }
    whole_as(value, "max_turns", u8::MAX).map(Some)
}

/// An action: a policy index or an outcome number. One that no index can be (negative,
/// too large) raises `IllegalActionError`, anything else but a whole number `TdeError`.
fn action_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if !value.is_instance_of::<PyBool>() {
        if let Ok(n) = value.extract::<u64>() {
            if let Ok(n) = usize::try_from(n) {
                return Ok(n);
            }
        }
        if value.is_instance_of::<PyInt>() || value.hasattr("__index__")? {
            return Err(IllegalActionError::new_err(format!(
                "action {value} is not legal: no policy index or outcome is negative or that large"
            )));
        }
    }
    Err(err(format!("action: a whole number (a policy index), got {} {value}", value.get_type().name()?)))
}

/// `side`: 0 (A) or 1 (B).
fn side_arg(value: &Bound<'_, PyAny>) -> PyResult<u8> {
    whole_as(value, "side", 1u8)
}

/// `games` of the arena and the benchmark loop.
fn games_arg(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    whole_as(value, "games", u32::MAX)
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
    numpy_array(py, bytemuck::cast_slice(values), "float32")
}

/// The values of a sequence or array of integers, through numpy (`numpy.asarray(values,
/// "int64")`, flattened).
fn int64_values(values: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let py = values.py();
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let array = ASARRAY.import(py, "numpy", "asarray")?.call1((values, "int64"))?;
    let bytes = array.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(bytes
        .chunks_exact(8)
        .map(|c| i64::from_ne_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect())
}

/// An int64 numpy array of `values`.
fn i64_array<'py>(py: Python<'py>, values: &[i64]) -> PyResult<Bound<'py, PyAny>> {
    numpy_array(py, bytemuck::cast_slice(values), "int64")
}

/// Policy indices (or offsets) as an int64 numpy array.
fn index_array<'py>(py: Python<'py>, values: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let wide: Vec<i64> = values.iter().map(|&v| v as i64).collect();
    i64_array(py, &wide)
}

/// The recipes of `indices` as a dict of numpy arrays: `actions` (int64, n), `planes`,
/// `cells` and `globals` (int64, n × 2; -1 where a recipe has fewer terms), `offsets` too
/// when given (a batch's).
fn recipe_dict<'py>(
    py: Python<'py>,
    indices: &[usize],
    recipes: &[Recipe],
    offsets: Option<&[usize]>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = recipes.len();
    let (mut planes, mut cells, mut globals) = (vec![-1i64; 2 * n], vec![-1i64; 2 * n], vec![-1i64; 2 * n]);
    for (k, r) in recipes.iter().enumerate() {
        for (t, term) in r.spatial.iter().enumerate() {
            if let Some((plane, cell)) = term {
                planes[2 * k + t] = *plane as i64;
                cells[2 * k + t] = *cell as i64;
            }
        }
        for (t, term) in r.global.iter().enumerate() {
            if let Some(g) = term {
                globals[2 * k + t] = *g as i64;
            }
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("actions", index_array(py, indices)?)?;
    for (name, values) in [("planes", planes), ("cells", cells), ("globals", globals)] {
        dict.set_item(name, i64_array(py, &values)?.call_method1("reshape", ((n, 2),))?)?;
    }
    if let Some(offsets) = offsets {
        dict.set_item("offsets", index_array(py, offsets)?)?;
    }
    Ok(dict)
}

/// A game position: decisions by side 0 (A) and 1 (B), chance nodes with exact odds, legal
/// actions as indices of the Rust policy space.
#[pyclass(name = "State", module = "tde._tde")]
pub struct State {
    inner: TdeState,
}

impl State {
    /// Whether `player` may ask for legal actions: a side of the game, or the current player
    /// (the chance player at a chance node, the terminal id once the game is over).
    fn check_asking_player(&self, player: Option<i64>) -> PyResult<()> {
        match player {
            Some(p) if p != self.inner.current_player() as i64 => {
                self.inner.check_player(p).map_err(err)?;
                Ok(())
            }
            _ => Ok(()),
        }
    }

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
    /// not the one to act. A `player` that is neither a side of the game nor
    /// `current_player()` raises `TdeError`.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<usize>> {
        self.check_asking_player(player)?;
        if player.is_some_and(|p| p != self.inner.current_player() as i64) {
            return Ok(Vec::new());
        }
        Ok(self.inner.legal_actions().map_err(err)?.to_vec())
    }

    /// The legal actions as a 0/1 `int8` array: `num_distinct_actions()` long at a decision,
    /// `MAX_CHANCE_OUTCOMES` long at a chance node (all zeros when `player` is given and is not
    /// the one to act, or once the game is over); a bad `player` raises as `legal_actions`.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        self.check_asking_player(player)?;
        let len = if self.inner.is_chance_node() {
            core::MAX_CHANCE_OUTCOMES
        } else {
            self.inner.num_distinct_actions()
        };
        let mut mask = vec![0u8; len];
        if player.is_none_or(|p| p == self.inner.current_player() as i64) {
            for &i in self.inner.legal_actions().map_err(err)? {
                mask[i] = 1;
            }
        }
        numpy_array(py, &mask, "int8")
    }

    /// The legal actions as an int64 numpy array (as `legal_actions()`, without a Python list).
    fn legal_actions_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        index_array(py, self.inner.legal_actions().map_err(err)?)
    }

    /// The factored form of the legal actions at a decision, for pointer-style policy heads:
    /// a dict of numpy arrays, `actions` (the policy indices, ascending, n), and for each
    /// action the recipe a network scores it by, `planes` and `cells` (n × 2: up to two
    /// (policy plane, padded cell) terms; a cell is `row * width + column` of the padded
    /// board) and `globals` (n × 2: up to two of the `POLICY_GLOBALS` global logits); -1
    /// marks an unused term. An action's logit is the sum of its terms (see
    /// `tde.score_actions`). Empty arrays at a chance node and once the game is over.
    fn action_recipes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let indices =
            if self.inner.is_chance_node() { &[][..] } else { self.inner.legal_actions().map_err(err)? };
        recipe_dict(py, indices, self.inner.action_recipes().map_err(err)?, None)
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
    fn apply_action(&mut self, #[pyo3(from_py_with = action_arg)] action: usize) -> PyResult<()> {
        self.inner.apply(action).map_err(IllegalActionError::new_err)
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
    fn action_to_string(&self, #[pyo3(from_py_with = action_arg)] action: usize) -> PyResult<String> {
        self.inner.action_to_string(action).map_err(err)
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
/// `seed` rolls the scenario of `"random"` (0 when left out) and is refused with a named
/// scenario, which has nothing to roll: a game's dice and draws are its chance nodes, rolled
/// by whoever plays it (`sample_chance_outcome` with your own seeded generator).
#[pyfunction]
#[pyo3(signature = (scenario="random", board=engine::setup::DEFAULT_BOARD, crews=None, rules="standard", dinos=0, ambush=0, solo=false, max_turns=None, seed=None))]
#[allow(clippy::too_many_arguments)]
fn new_game(
    scenario: &str,
    board: &str,
    crews: Option<Vec<String>>,
    rules: &str,
    #[pyo3(from_py_with = dinos_arg)] dinos: u8,
    #[pyo3(from_py_with = ambush_arg)] ambush: u8,
    solo: bool,
    #[pyo3(from_py_with = max_turns_arg)] max_turns: Option<u8>,
    #[pyo3(from_py_with = game_seed_arg)] seed: Option<u64>,
) -> PyResult<State> {
    if seed.is_some() && !scenario.eq_ignore_ascii_case("random") {
        return Err(err(format!(
            "seed: only scenario='random' has a seed (it rolls the scenario); {scenario:?} has nothing to \
             roll: the game's dice are its chance nodes (roll them with sample_chance_outcome and your own \
             seeded generator)"
        )));
    }
    let seed = seed.unwrap_or(0);
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
    fn new(spec: &str, #[pyo3(from_py_with = seed_arg)] seed: u64) -> PyResult<Agent> {
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

/// A batch's buffers, reused from step to step.
struct BatchBuffers {
    batch: CoreBatch,
    observations: Vec<f32>,
    rewards: Vec<f32>,
    ended: Vec<bool>,
    legal: LegalActions,
}

impl BatchBuffers {
    /// Refresh the observations and legal actions of every game.
    fn refresh(&mut self) -> Result<(), String> {
        self.batch.observe_into(&mut self.observations)?;
        self.batch.legal_into(&mut self.legal)
    }
}

/// `games` games of one set-up stepped together in Rust (the vectorised environments' engine):
/// `step(actions)` applies one action per game, rolls the dice and lets `opponent` (an agent
/// spec; `None` for self-play, where the learner decides for whichever side is to act) play
/// up to the learner's next decision, and restarts a game that ends. Observations come back
/// as one `(games, observation length)` float32 array, legal actions as flat arrays with
/// offsets. Game options as `new_game`; `side` is the learner's against an opponent; `seed`
/// seeds each game's dice and opponent.
#[pyclass(name = "Batch", module = "tde._tde")]
pub struct Batch {
    inner: Mutex<BatchBuffers>,
    num_actions: usize,
    shape: ((usize, usize, usize), usize),
    games: usize,
}

impl Batch {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, BatchBuffers>> {
        self.inner
            .lock()
            .map_err(|_| err("Batch: an earlier call failed inside the engine; build a new batch".into()))
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (games, scenario="skirmish", board=engine::setup::DEFAULT_BOARD, crews=None, rules="standard", dinos=0, ambush=0, solo=false, max_turns=None, opponent=Some("random".to_string()), side=0, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = games_arg)] games: u32,
        scenario: &str,
        board: &str,
        crews: Option<Vec<String>>,
        rules: &str,
        #[pyo3(from_py_with = dinos_arg)] dinos: u8,
        #[pyo3(from_py_with = ambush_arg)] ambush: u8,
        solo: bool,
        #[pyo3(from_py_with = max_turns_arg)] max_turns: Option<u8>,
        opponent: Option<String>,
        #[pyo3(from_py_with = side_arg)] side: u8,
        #[pyo3(from_py_with = seed_arg)] seed: u64,
    ) -> PyResult<Batch> {
        if scenario.eq_ignore_ascii_case("random") {
            return Err(err("scenario: a batch plays one set-up; name a scenario, not 'random'".into()));
        }
        let options = GameOptions {
            scenario: scenario.to_string(),
            board: board.to_string(),
            crews: crews.unwrap_or_else(|| GameOptions::default().crews),
            rules: rules.to_string(),
            dinos,
            ambush,
            solo,
            max_turns,
            seed: 0,
        };
        let start = TdeState::new(core::build_game(&options).map_err(err)?, "python Batch");
        let opponents = match opponent {
            Some(spec) => Opponents::Agent { spec, learner: side },
            None => Opponents::SelfPlay,
        };
        let num_actions = start.num_distinct_actions();
        let ([p, d, w], g) = start.observation_shape();
        let len = start.observation_len();
        let batch = CoreBatch::new(start, games as usize, opponents, seed).map_err(err)?;
        let n = batch.len();
        let mut buffers = BatchBuffers {
            batch,
            observations: vec![0.0; n * len],
            rewards: vec![0.0; n],
            ended: vec![false; n],
            legal: LegalActions::default(),
        };
        buffers.refresh().map_err(err)?;
        Ok(Batch { inner: Mutex::new(buffers), num_actions, shape: ((p, d, w), g), games: n })
    }

    /// Restart every game, each generator seeded anew from `seed`.
    #[pyo3(signature = (seed=0))]
    fn reset(&self, py: Python<'_>, #[pyo3(from_py_with = seed_arg)] seed: u64) -> PyResult<()> {
        let mut buffers = self.lock()?;
        let b = &mut *buffers;
        py.detach(|| {
            b.batch.reset(seed)?;
            b.refresh()
        })
        .map_err(err)
    }

    /// Apply `actions[i]` (a legal policy index; any sequence or integer array of `games`)
    /// in game `i` and play on to the learner's next decision; returns `(rewards, ended)`:
    /// float32 returns (+1, 0, -1 for the side that moved, at the end only) and a bool array
    /// of the games that ended (and restarted). An illegal action raises
    /// `IllegalActionError` naming the game, and no game changes.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let actions = int64_values(actions)?;
        if actions.len() != self.games {
            return Err(err(format!("actions: one per game ({}), got {}", self.games, actions.len())));
        }
        let actions: Vec<usize> = actions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                usize::try_from(a)
                    .map_err(|_| IllegalActionError::new_err(format!("actions[{i}]: {a} is negative")))
            })
            .collect::<PyResult<_>>()?;
        let mut buffers = self.lock()?;
        let b = &mut *buffers;
        py.detach(|| b.batch.step(&actions, &mut b.rewards, &mut b.ended)).map_err(|e| {
            if e.starts_with("actions") {
                IllegalActionError::new_err(e)
            } else {
                err(e)
            }
        })?;
        py.detach(|| b.refresh()).map_err(err)?;
        let ended: Vec<u8> = b.ended.iter().map(|&e| e as u8).collect();
        let ended = numpy_array(py, &ended, "bool")?;
        PyTuple::new(py, [f32_array(py, &b.rewards)?, ended])
    }

    /// Every game's observation, `(games, observation length)` float32: the planes then the
    /// globals, of the learner's side (in self-play, of the side to decide).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let buffers = self.lock()?;
        f32_array(py, &buffers.observations)?
            .call_method1("reshape", ((self.games, buffers.observations.len() / self.games),))
    }

    /// The side whose observation and decision each game gives, as an int64 array.
    fn observers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let buffers = self.lock()?;
        let sides: Vec<i64> = (0..self.games).map(|i| buffers.batch.observer(i)).collect();
        i64_array(py, &sides)
    }

    /// The legal actions of every game as `(offsets, indices)` int64 arrays: game `i`'s are
    /// `indices[offsets[i]:offsets[i + 1]]`, ascending.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let buffers = self.lock()?;
        PyTuple::new(py, [index_array(py, &buffers.legal.offsets)?, index_array(py, &buffers.legal.indices)?])
    }

    /// The legal actions' recipes of every game, as `State.action_recipes()` gives one
    /// game's, flat, with `offsets` (game `i`'s rows are `offsets[i]:offsets[i + 1]`).
    fn action_recipes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let buffers = self.lock()?;
        let legal = &buffers.legal;
        recipe_dict(py, &legal.indices, &legal.recipes, Some(&legal.offsets))
    }

    /// The legal actions as a `(games, num_distinct_actions)` bool array (large: prefer
    /// `legal_actions()` or `action_recipes()` where the learner allows).
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let buffers = self.lock()?;
        let legal = &buffers.legal;
        let mut mask = vec![0u8; self.games * self.num_actions];
        for i in 0..self.games {
            for &a in &legal.indices[legal.offsets[i]..legal.offsets[i + 1]] {
                mask[i * self.num_actions + a] = 1;
            }
        }
        numpy_array(py, &mask, "bool")?.call_method1("reshape", ((self.games, self.num_actions),))
    }

    /// A copy of game `i` as it stands.
    fn game(&self, i: usize) -> PyResult<State> {
        let buffers = self.lock()?;
        let game = buffers
            .batch
            .game(i)
            .ok_or_else(|| err(format!("i: {i} is not a game of this batch (0 to {})", self.games - 1)))?;
        Ok(State { inner: game.clone() })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games
    }

    /// Size of the policy space.
    fn num_distinct_actions(&self) -> usize {
        self.num_actions
    }

    /// `((planes, depth, width), globals)` of one observation.
    fn observation_shape(&self) -> ((usize, usize, usize), usize) {
        self.shape
    }

    /// Games finished since the batch was built.
    #[getter]
    fn episodes(&self) -> PyResult<u64> {
        Ok(self.lock()?.batch.episodes)
    }

    /// Learner decisions applied since the batch was built, all games together.
    #[getter]
    fn steps(&self) -> PyResult<u64> {
        Ok(self.lock()?.batch.steps)
    }

    fn __repr__(&self) -> String {
        format!("<tde.Batch of {} games>", self.games)
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
    #[pyo3(from_py_with = games_arg)] games: u32,
    #[pyo3(from_py_with = seed_arg)] seed: u64,
    threads: usize,
    boards: Vec<String>,
    crews: Vec<String>,
    rules: String,
    #[pyo3(from_py_with = dinos_arg)] dinos: u8,
    #[pyo3(from_py_with = ambush_arg)] ambush: u8,
) -> PyResult<String> {
    let request =
        ArenaRequest { agents, scenarios, games, seed, threads, boards, crews, rules, dinos, ambush };
    py.detach(|| core::run_arena(&request)).map_err(err)
}

/// Play `games` uniformly random games from `state` entirely in Rust and return the steps
/// taken (the benchmark's reference loop).
#[pyfunction]
fn random_games_in_rust(
    py: Python<'_>,
    state: &State,
    #[pyo3(from_py_with = games_arg)] games: u32,
    #[pyo3(from_py_with = seed_arg)] seed: u64,
) -> PyResult<u64> {
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
    m.add_class::<Batch>()?;
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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("POLICY_PLANES", engine::encoding::POLICY_PLANES)?;
    m.add("POLICY_GLOBALS", engine::encoding::POLICY_GLOBALS)?;
    m.add("PLANE_NAMES", crate::names::plane_names())?;
    m.add("GLOBAL_NAMES", crate::names::global_names())?;
    Ok(())
}
