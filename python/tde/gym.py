"""TDE as a single-agent Gymnasium environment: you play one side, a built-in agent the
other.

>>> import tde.gym
>>> env = tde.gym.make(opponent="scripted", scenario="skirmish")
>>> obs, info = env.reset(seed=1)
>>> action = int(np.flatnonzero(info["action_mask"])[0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The action space is ``Discrete`` over the Rust policy space; ``info["action_mask"]`` (int8)
marks the legal actions and ``info["legal_actions"]`` lists them. Observations are the Rust
encoding's planes then globals, flat float32. The reward is the game's return for your side
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

    metadata = {"render_modes": ["ansi", "human"]}

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
        probe = tde.new_game(scenario="skirmish" if scenario == "random" else scenario, seed=0, **self._options)
        (planes, depth, width), globals_ = probe.observation_shape()
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=(planes * depth * width + globals_,), dtype=np.float32
        )
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

    def render(self) -> Optional[str]:
        """The map and roster as text (``"ansi"``), or printed (``"human"``)."""
        return tde.render_text(self.state, self.render_mode)
