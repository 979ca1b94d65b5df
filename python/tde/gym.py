"""TDE as a single-agent Gymnasium environment: you play one side, a built-in agent the
other.

>>> import gymnasium
>>> import tde.gym
>>> env = gymnasium.make("tde/TDE-v0", opponent="scripted", scenario="skirmish")
>>> obs, info = env.reset(seed=1)
>>> action = int(info["legal_actions"][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

Importing ``tde.gym`` registers ``tde/TDE-v0`` with Gymnasium (``gymnasium.make`` gives it a
spec); ``tde.gym.make(...)`` builds the environment without Gymnasium's wrappers.
The action space is ``Discrete`` over the Rust policy space; ``info["action_mask"]`` (int8)
marks the legal actions, ``info["legal_actions"]`` lists them and ``env.action_masks()``
gives the mask as bools (the method masked-PPO libraries call). Observations are the Rust
encoding's planes then globals, flat float32, within ``[-OBSERVATION_BOUND,
OBSERVATION_BOUND]``. ``make_vec(n, ...)`` is a Gymnasium vector environment of ``n`` games
stepped together in Rust (``tde.Batch``). The reward is the game's return for your side
(+1 win, -1 loss, 0 draw) when it ends, 0 before. Chance nodes and the opponent's decisions
happen inside ``step``, with generators seeded by ``reset(seed=...)``. An illegal action ends
the episode with reward -1 and ``info["illegal_action"] = True`` (``illegal_action="raise"``
raises ``tde.IllegalActionError`` instead).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

import tde

#: Gymnasium's id of the environment (``gymnasium.make(ENV_ID, opponent=..., ...)``).
ENV_ID = "tde/TDE-v0"

#: A bound on every observation value, for the ``Box``: each feature is a 0/1 flag, a
#: fraction, a nearness in [0, 1], or a count or statistic of at most 255 (victory points: a
#: 16-bit number) divided by at least 3, so none comes near it.
OBSERVATION_BOUND = 4096.0


def observation_box(length: int) -> spaces.Box:
    """The ``Box`` of a flat observation of ``length`` floats."""
    return spaces.Box(low=-OBSERVATION_BOUND, high=OBSERVATION_BOUND, shape=(length,), dtype=np.float32)


def make(opponent: Union[str, "tde.Agent"] = "scripted", **kwargs: Any) -> "TdeGymEnv":
    """A ``TdeGymEnv`` against ``opponent`` (an agent spec, e.g. ``"scripted"``,
    ``"mcts:iters=100"``); other keyword arguments as ``TdeGymEnv``."""
    return TdeGymEnv(opponent=opponent, **kwargs)


class TdeGymEnv(gymnasium.Env):
    """One side of a TDE game against a built-in agent; see the module's docstring.

    ``side``: 0 (A) or 1 (B) for the learner, or ``"random"`` to draw it at each reset.
    Game options are those of ``tde.new_game``; ``scenario="random"`` draws one of the five
    at each reset. ``max_decisions`` truncates an episode after that many of your decisions.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        opponent: Union[str, "tde.Agent"] = "scripted",
        side: Union[int, str] = 0,
        scenario: str = "skirmish",
        board: str = tde.DEFAULT_BOARD,
        crews: Sequence[str] = tde.DEFAULT_CREWS,
        rules: str = "standard",
        dinos: int = 0,
        ambush: int = 0,
        max_turns: Optional[int] = None,
        max_decisions: Optional[int] = None,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if side not in (0, 1, "random"):
            raise tde.TdeError(f"side: 0, 1 or 'random', got {side!r}")
        if illegal_action not in ("lose", "raise"):
            raise tde.TdeError(f"illegal_action: 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise tde.TdeError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        if max_decisions is not None and max_decisions < 1:
            raise tde.TdeError(f"max_decisions: at least 1, got {max_decisions}")
        self._opponent_spec = opponent
        # Build it once now so that a bad spec fails here.
        self._opponent = tde._agent_for(opponent, 0)
        self._side_choice = side
        self._scenario = scenario
        self._options: Dict[str, Any] = dict(
            board=board, crews=list(crews), rules=rules, dinos=dinos, ambush=ambush, max_turns=max_turns
        )
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        probe = tde.new_game(scenario="skirmish" if scenario == "random" else scenario, **self._options)
        (planes, depth, width), globals_ = probe.observation_shape()
        self.observation_space = observation_box(planes * depth * width + globals_)
        self.action_space = spaces.Discrete(probe.num_distinct_actions())
        self.state: Optional[tde.State] = None
        self.side = 0 if side == "random" else int(side)
        self._decisions = 0

    def _advance(self) -> None:
        """Roll the dice and let the opponent play until the learner decides or the game
        ends."""
        state = self.state
        assert state is not None
        while not state.is_terminal():
            player = state.current_player()
            if player == tde.CHANCE_PLAYER:
                state.apply_action(state.sample_chance_outcome(float(self.np_random.random())))
            elif player == self.side:
                return
            else:
                state.apply_action(self._opponent.step(state))

    def _observe(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        state = self.state
        assert state is not None
        info: Dict[str, Any] = {
            "action_mask": state.legal_actions_mask(self.side),
            "legal_actions": state.legal_actions(self.side),
            "side": self.side,
        }
        return state.observation_tensor(self.side), info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Start a game and play up to the learner's first decision."""
        super().reset(seed=seed)
        scenario = self._scenario
        if scenario == "random":
            scenario = str(self.np_random.choice(tde.scenarios()[:5]))
        if self._side_choice == "random":
            self.side = int(self.np_random.integers(2))
        self.state = tde.new_game(scenario=scenario, **self._options)
        if isinstance(self._opponent_spec, str):
            self._opponent = tde.Agent(self._opponent_spec, int(self.np_random.integers(2**63)))
        self._decisions = 0
        self._advance()
        return self._observe()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Play ``action`` (a policy index), then the opponent and the dice up to your next
        decision."""
        state = self.state
        if state is None:
            raise tde.TdeError("step: call reset() first")
        if state.is_terminal():
            raise tde.TdeError("step: the episode is over; call reset()")
        try:
            state.apply_action(int(action))
        except tde.IllegalActionError:
            if self.illegal_action == "raise":
                raise
            obs, info = self._observe()
            info["illegal_action"] = True
            self.state = None
            return obs, -1.0, True, False, info
        self._decisions += 1
        self._advance()
        obs, info = self._observe()
        terminated = state.is_terminal()
        reward = float(state.returns()[self.side]) if terminated else 0.0
        truncated = not terminated and self.max_decisions is not None and self._decisions >= self.max_decisions
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's decision as a bool array over the action space
        (all false before ``reset`` and once the episode is over): the method masked-PPO
        libraries (sb3-contrib's ``MaskablePPO``) call."""
        mask = np.zeros(self.action_space.n, dtype=bool)
        if self.state is not None and not self.state.is_terminal():
            mask[self.state.legal_actions_array()] = True
        return mask

    def render(self) -> Any:
        """The map and roster as text (``"ansi"``), printed (``"human"``), or the table as an
        RGB image (``"rgb_array"``, ``tde.render_rgb``)."""
        return tde.render_text(self.state, self.render_mode, self.side)


class TdeVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one set-up against a built-in opponent, stepped together in
    Rust (``tde.Batch``): no Python loop over the games. Observations are
    ``(num_envs, length)`` float32; ``infos["legal_actions"]`` is ``(offsets, indices)``
    (game ``i``'s legal actions are ``indices[offsets[i]:offsets[i + 1]]``) and
    ``action_masks()`` gives ``(num_envs, actions)`` bools. A game that ends restarts in the
    same step (``autoreset_mode`` ``SAME_STEP``): its reward and ``terminations`` entry are
    its end's, its observation the new game's first. Game options as ``tde.new_game`` (one
    named scenario); ``opponent`` an agent spec, ``side`` the learner's (0 or 1)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        opponent: str = "random",
        side: int = 0,
        scenario: str = "skirmish",
        board: str = tde.DEFAULT_BOARD,
        crews: Sequence[str] = tde.DEFAULT_CREWS,
        rules: str = "standard",
        dinos: int = 0,
        ambush: int = 0,
        max_turns: Optional[int] = None,
    ) -> None:
        self._options: Dict[str, Any] = dict(
            scenario=scenario,
            board=board,
            crews=list(crews),
            rules=rules,
            dinos=dinos,
            ambush=ambush,
            max_turns=max_turns,
            opponent=opponent,
            side=side,
        )
        self.batch = tde.Batch(num_envs, **self._options)
        self.num_envs = len(self.batch)
        (planes, depth, width), globals_ = self.batch.observation_shape()
        self.single_observation_space = observation_box(planes * depth * width + globals_)
        self.single_action_space = spaces.Discrete(self.batch.num_distinct_actions())
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)

    def _infos(self) -> Dict[str, Any]:
        return {"legal_actions": self.batch.legal_actions()}

    def reset(
        self, *, seed: Optional[Union[int, Sequence[int]]] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Restart every game; ``seed`` (one number) seeds every game's dice and opponent."""
        if seed is not None and not isinstance(seed, int):
            raise tde.TdeError(f"seed: one whole number seeds every game, got {seed!r}")
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        self.batch.reset(seed)
        return self.batch.observations(), self._infos()

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One action per game (legal policy indices)."""
        rewards, ended = self.batch.step(actions)
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self.batch.observations(), rewards.astype(np.float64), ended, truncated, self._infos()

    def action_masks(self) -> np.ndarray:
        """``(num_envs, actions)`` bools: each game's legal actions."""
        return self.batch.action_masks()


def make_vec(num_envs: int, opponent: str = "random", **kwargs: Any) -> TdeVectorEnv:
    """A ``TdeVectorEnv`` of ``num_envs`` games against ``opponent``; other keyword arguments
    as ``TdeVectorEnv``."""
    return TdeVectorEnv(num_envs, opponent=opponent, **kwargs)


def _register() -> None:
    """Register ``ENV_ID`` with Gymnasium (on import; once)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="tde.gym:TdeGymEnv",
            vector_entry_point="tde.gym:TdeVectorEnv",
            disable_env_checker=False,
        )


_register()
