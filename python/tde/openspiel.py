"""TDE as an OpenSpiel Python game, registered with ``pyspiel`` as ``python_tde``.

>>> import tde.openspiel
>>> import pyspiel
>>> game = pyspiel.load_game("python_tde", {"scenario": "skirmish"})
>>> state = game.new_initial_state()

Importing this module registers the game when ``pyspiel`` (the ``open_spiel`` package) is
installed; without it, ``register()`` raises ``ImportError`` saying so. Parameters:
``scenario`` (a name, 1-5 or ``skirmish``; not ``random``: an OpenSpiel game has one
set-up), ``board``, ``crews`` (``"side_a_crew+side_b_crew"``; a comma is accepted in a
parameter dict too, but OpenSpiel's game strings split on commas, so the game keeps ``+``),
``rules``, ``dinos``,
``ambush``, ``max_turns`` (0 for the scenario's default). Actions are the Rust policy
space's indices, chance outcomes ``0..k`` with exact odds; observations the Rust encoding
(planes then globals); the information state string is the JSON of what the player knows
(the state without the enemy's secrets).

The game rebuilds from its own name: ``pyspiel.load_game(str(game))`` gives an equal game,
so ``pyspiel.serialize_game_and_state``, ``pickle`` and ``copy.deepcopy`` of games and
states work.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

import tde

try:  # OpenSpiel is optional.
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

SHORT_NAME = "python_tde"

#: What separates side A's crew from side B's in the ``crews`` parameter (OpenSpiel's game
#: strings, ``python_tde(board=...,crews=...)``, split parameters on commas).
CREW_SEPARATOR = "+"

DEFAULT_PARAMS: Dict[str, Any] = {
    "scenario": "skirmish",
    "board": tde.DEFAULT_BOARD,
    "crews": CREW_SEPARATOR.join(tde.DEFAULT_CREWS),
    "rules": "standard",
    "dinos": 0,
    "ambush": 0,
    "max_turns": 0,
}

# Longer than any game the engine plays (turns are capped; random games take a few thousand
# steps, chance nodes included).
MAX_GAME_LENGTH = 100_000


def crew_names(crews: Any) -> List[str]:
    """The crews of a ``crews`` parameter: names or paths separated by ``+`` (or, in a
    parameter dict, by commas)."""
    return [c.strip() for c in str(crews).replace(",", CREW_SEPARATOR).split(CREW_SEPARATOR)]


def _new_game(params: Dict[str, Any]) -> "tde.State":
    """A fresh ``tde.State`` from the game's parameters."""
    scenario = str(params["scenario"])
    if scenario == "random":
        raise tde.TdeError("scenario: an OpenSpiel game has one set-up; name a scenario, not 'random'")
    max_turns = int(params["max_turns"])
    return tde.new_game(
        scenario=scenario,
        board=str(params["board"]),
        crews=crew_names(params["crews"]),
        rules=str(params["rules"]),
        dinos=int(params["dinos"]),
        ambush=int(params["ambush"]),
        max_turns=max_turns if max_turns > 0 else None,
    )


if pyspiel is not None:
    _GAME_TYPE = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="The Drowned Earth (TDE), Rust engine",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )

    class TdeGame(pyspiel.Game):
        """The OpenSpiel game: one set-up (scenario, board, crews) per game object."""

        def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
            merged = dict(DEFAULT_PARAMS)
            merged.update(params or {})
            # One spelling, the one OpenSpiel's game strings can carry: str(game) loads again.
            merged["crews"] = CREW_SEPARATOR.join(crew_names(merged["crews"]))
            probe = _new_game(merged)
            if probe.num_players() != 2:
                raise tde.TdeError("OpenSpiel's TDE game has two players; solo games are not offered")
            (planes, depth, width), globals_ = probe.observation_shape()
            info = pyspiel.GameInfo(
                num_distinct_actions=probe.num_distinct_actions(),
                max_chance_outcomes=tde.MAX_CHANCE_OUTCOMES,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(_GAME_TYPE, info, merged)
            self._initial = probe
            self._obs_size = planes * depth * width + globals_

        def new_initial_state(self) -> "TdeSpielState":
            """A fresh game."""
            return TdeSpielState(self, self._initial.clone())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TdeObserver":
            """The observer: the Rust encoding as tensor; the observation, or with perfect
            recall the information state, as string."""
            if params:
                raise ValueError(f"params: observation parameters are not supported, got {params}")
            perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return TdeObserver(self._obs_size, perfect_recall)

    class TdeSpielState(pyspiel.State):
        """An OpenSpiel state over a ``tde.State``."""

        def __init__(self, game: TdeGame, state: "tde.State") -> None:
            super().__init__(game)
            self.tde_state = state

        def current_player(self) -> int:
            """0 or 1, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
            p = self.tde_state.current_player()
            if p == tde.CHANCE_PLAYER:
                return int(pyspiel.PlayerId.CHANCE)
            if p == tde.TERMINAL_PLAYER:
                return int(pyspiel.PlayerId.TERMINAL)
            return p

        def _legal_actions(self, player: int) -> List[int]:
            """The policy indices of the legal actions, ascending."""
            return self.tde_state.legal_actions(player)

        def chance_outcomes(self) -> List[Tuple[int, float]]:
            """The roll's outcomes with their exact probabilities."""
            return self.tde_state.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.tde_state.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.tde_state.action_to_string(action)

        def is_terminal(self) -> bool:
            """Whether the game is over."""
            return self.tde_state.is_terminal()

        def returns(self) -> List[float]:
            """+1 win, -1 loss, 0 draw; zeros before the end."""
            return self.tde_state.returns()

        def __str__(self) -> str:
            return str(self.tde_state)

    class TdeObserver:
        """OpenSpiel's PyObserver interface over the Rust encoding."""

        def __init__(self, size: int, perfect_recall: bool) -> None:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}
            self._perfect_recall = perfect_recall

        def set_from(self, state: TdeSpielState, player: int) -> None:
            """Write ``player``'s observation of ``state`` into ``tensor``."""
            self.tensor[:] = state.tde_state.observation_tensor(player)

        def string_from(self, state: TdeSpielState, player: int) -> str:
            """``player``'s information state (perfect recall) or observation, as JSON."""
            if self._perfect_recall:
                return state.tde_state.information_state_string(player)
            return state.tde_state.observation_string(player)


def register() -> None:
    """Register ``python_tde`` with ``pyspiel`` (done on import when it is installed)."""
    if pyspiel is None:
        raise ImportError("tde.openspiel: the `open_spiel` package (pyspiel) is not installed: pip install open_spiel")
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, TdeGame)


if pyspiel is not None:
    register()
