"""Type stubs of the Rust extension ``tde._tde`` (``python/src/py.rs``): the game state, the
built-in agents and the functions ``tde/__init__.py`` re-exports."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

PLANES: int
"""Observation planes of the Rust encoding."""
GLOBALS: int
"""Global features of the Rust encoding."""
CHANCE_PLAYER: int
"""``current_player()`` at a chance node (OpenSpiel's -1)."""
TERMINAL_PLAYER: int
"""``current_player()`` once the game is over (OpenSpiel's -4)."""
MAX_CHANCE_OUTCOMES: int
"""Length of ``legal_actions_mask()`` at a chance node."""
AGENT_NAMES: List[str]
"""The agent names ``Agent`` takes specs of."""
POLICY_PLANES: int
"""Policy planes a network outputs over the cells (the ``planes`` of ``action_recipes()``)."""
POLICY_GLOBALS: int
"""Global policy logits a network outputs (the ``globals`` of ``action_recipes()``)."""
PLANE_NAMES: List[str]
"""The name of each observation plane, by index (``docs/python-observation.md``)."""
GLOBAL_NAMES: List[str]
"""The name of each global observation feature, by index."""
__version__: str
"""The package's version."""

class TdeError(ValueError):
    """Bad input: the engine's message names the argument, file or action and the reason."""

class IllegalActionError(TdeError):
    """An action that is not legal here; the state is left unchanged."""

class State:
    """A game position: decisions by side 0 (A) and 1 (B), chance nodes with exact odds, legal
    actions as indices of the Rust policy space."""

    def current_player(self) -> int:
        """0 (side A) or 1 (side B), ``CHANCE_PLAYER`` at a roll, ``TERMINAL_PLAYER`` at the end."""
    def is_chance_node(self) -> bool:
        """Whether a die roll or a draw is next."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def num_players(self) -> int:
        """Players with a crew: 2, or 1 in a solo game."""
    def num_distinct_actions(self) -> int:
        """Size of the policy space of this board's size class."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """Policy indices (ascending) at a decision, outcome numbers at a chance node."""
    def legal_actions_mask(self, player: Optional[int] = None) -> npt.NDArray[np.int8]:
        """The legal actions as a 0/1 ``int8`` array."""
    def legal_actions_array(self) -> npt.NDArray[np.int64]:
        """The legal actions as an int64 array."""
    def action_recipes(self) -> Dict[str, npt.NDArray[np.int64]]:
        """The legal actions' factored form: ``actions``, and ``planes``, ``cells``, ``globals``
        (n × 2, -1 for an unused term), the terms a network's logit of each is the sum of."""
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """A chance node's ``(outcome, probability)`` pairs, exact and summing to 1."""
    def sample_chance_outcome(self, u: float) -> Optional[int]:
        """The outcome a uniform draw ``u`` in [0, 1) picks by the exact odds."""
    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError``."""
    def clone(self) -> "State":
        """An independent copy."""
    def __copy__(self) -> "State": ...
    def __deepcopy__(self, memo: Any) -> "State": ...
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __eq__(self, other: object) -> bool: ...
    def returns(self) -> List[float]:
        """Each player's return: +1 win, -1 loss, 0 draw; zeros until the game is over."""
    def victory_points(self) -> Tuple[int, int]:
        """Victory points of sides A and B."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """``player``'s observation, flat: the planes then the globals."""
    def observation_arrays(
        self, player: Optional[int] = None
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(planes, globals)``: planes of shape ``(PLANES, depth, width)``."""
    def observation_shape(self) -> Tuple[Tuple[int, int, int], int]:
        """``((planes, depth, width), globals)`` for this board's size class."""
    def observation_string(self, player: Optional[int] = None) -> str:
        """What ``player`` sees now, as JSON."""
    def information_state_string(self, player: Optional[int] = None) -> str:
        """``player``'s information state as JSON."""
    def action_to_string(self, action: int) -> str:
        """A legal action of this node in words."""
    def describe_node(self) -> str:
        """The node awaited, in words."""
    def turn(self) -> int:
        """The current turn, from 1."""
    def move_number(self) -> int:
        """Actions taken so far, chance outcomes included."""
    def serialize(self) -> str:
        """The game so far as a game record (JSON)."""
    def state_hash(self) -> int:
        """A stable 64-bit hash of the position."""
    def scenario(self) -> str:
        """The scenario's name."""

class Agent:
    """A built-in agent from a spec as ``tde arena --agents`` takes it."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    def step(self, state: State) -> int:
        """The policy index of the agent's choice at ``state``'s decision."""
    @property
    def spec(self) -> str:
        """The spec it was built from."""
    @property
    def name(self) -> str:
        """The agent's name with its parameters."""

class Batch:
    """``games`` games of one set-up stepped together in Rust against ``opponent`` (an agent
    spec, or ``None`` for self-play); games that end restart at once."""

    def __init__(
        self,
        games: int,
        scenario: str = "skirmish",
        board: str = "sunken_plaza",
        crews: Optional[Sequence[str]] = None,
        rules: str = "standard",
        dinos: int = 0,
        ambush: int = 0,
        solo: bool = False,
        max_turns: Optional[int] = None,
        opponent: Optional[str] = "random",
        side: int = 0,
        seed: int = 0,
    ) -> None: ...
    def reset(self, seed: int = 0) -> None:
        """Restart every game, the generators seeded anew."""
    def step(self, actions: Any) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """One legal action per game; ``(rewards, ended)``."""
    def observations(self) -> npt.NDArray[np.float32]:
        """``(games, observation length)``: each game's observation."""
    def observers(self) -> npt.NDArray[np.int64]:
        """The side each game's observation and decision belong to."""
    def legal_actions(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(offsets, indices)``: game ``i``'s legal actions are ``indices[offsets[i]:offsets[i+1]]``."""
    def action_recipes(self) -> Dict[str, npt.NDArray[np.int64]]:
        """Every game's ``State.action_recipes()``, flat, with ``offsets``."""
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(games, num_distinct_actions)`` bools."""
    def game(self, i: int) -> State:
        """A copy of game ``i``."""
    def __len__(self) -> int: ...
    def num_distinct_actions(self) -> int:
        """Size of the policy space."""
    def observation_shape(self) -> Tuple[Tuple[int, int, int], int]:
        """``((planes, depth, width), globals)`` of one observation."""
    @property
    def episodes(self) -> int:
        """Games finished since the batch was built."""
    @property
    def steps(self) -> int:
        """Learner decisions applied, all games together."""

def new_game(
    scenario: str = "random",
    board: str = "sunken_plaza",
    crews: Optional[Sequence[str]] = None,
    rules: str = "standard",
    dinos: int = 0,
    ambush: int = 0,
    solo: bool = False,
    max_turns: Optional[int] = None,
    seed: Optional[int] = None,
) -> State:
    """A new game, before its first decision or roll; ``seed`` rolls a ``"random"``
    scenario and is refused with a named one."""

def deserialize(text: str) -> State:
    """A state from a game record or a saved game, replayed and checked against its hash."""

def arena_json(
    agents: Sequence[str],
    scenarios: Sequence[str],
    games: int,
    seed: int,
    threads: int,
    boards: Sequence[str],
    crews: Sequence[str],
    rules: str,
    dinos: int,
    ambush: int,
) -> str:
    """A round robin's ``results.json`` as a string (``tde.arena`` parses it)."""

def random_games_in_rust(state: State, games: int, seed: int) -> int:
    """Play ``games`` uniformly random games from ``state`` in Rust; the steps taken."""

def scenarios() -> List[str]:
    """The scenarios ``new_game`` takes, by name."""
