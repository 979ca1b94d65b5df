"""TDE as a PettingZoo AEC environment.

>>> from tde.pettingzoo import env
>>> e = env(scenario="skirmish")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter(max_iter=50):
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_a`` (side A) and ``player_b`` (side B); a solo game has ``player_a``
alone. The AI dinosaurs never decide: their choices are card draws, chance nodes like the
dice. Chance nodes are resolved inside the environment with its seeded generator
(``reset(seed=...)``), so ``agent_selection`` is always a player who must decide.
Observations are dicts: ``observation``, the Rust encoding's planes then globals (float32,
flat; ``tde.State.observation_shape()`` gives the planes' shape), and ``action_mask``, int8
over the policy space (all zeros for the agent not deciding); the deciding agent's ``info``
has ``legal_actions`` (an int64 array: no scan of the mask needed) and ``action_recipes``
(``State.action_recipes()``, the factored form). Rewards are the game's returns
(+1 win, -1 loss, 0 draw) when it ends; ``max_decisions`` truncates it.

``parallel_env(...)`` is the same game as a PettingZoo ``ParallelEnv``. The sides never decide
at the same time, so at each step every live agent acts but only the agent to move decides:
the waiting agent's one legal action is the no-op, ``TdeParallelEnv.noop_action``
(``num_distinct_actions()``, one past the policy space; its action space is ``Discrete`` over
the policy space plus that id, and its ``action_mask`` holds a 1 there alone):

>>> from tde.pettingzoo import parallel_env
>>> p = parallel_env(scenario="skirmish")
>>> obs, infos = p.reset(seed=1)
>>> while p.agents:
...     actions = {a: p.action_space(a).sample(obs[a]["action_mask"]) for a in p.agents}
...     obs, rewards, terminations, truncations, infos = p.step(actions)
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

import tde

AGENTS = ("player_a", "player_b")


def env(**kwargs: Any) -> "TdeAecEnv":
    """A TDE AEC environment; keyword arguments as ``TdeAecEnv``."""
    return TdeAecEnv(**kwargs)


def parallel_env(**kwargs: Any) -> "TdeParallelEnv":
    """A TDE PettingZoo parallel environment; keyword arguments as ``TdeAecEnv``."""
    return TdeParallelEnv(**kwargs)


def raw_env(**kwargs: Any) -> "TdeAecEnv":
    """The environment without wrappers (the same as ``env``: it checks its own actions)."""
    return TdeAecEnv(**kwargs)


class TdeAecEnv(AECEnv):
    """Two crews (or one, ``solo``) take turns deciding; see the module's docstring.

    Game options are those of ``tde.new_game``: ``scenario`` (``"random"`` draws one from the
    reset's generator), ``board``, ``crews``, ``rules``, ``dinos``, ``ambush``, ``solo``,
    ``max_turns``. ``max_decisions`` truncates a game after that many decisions;
    ``render_mode`` ``"ansi"`` (``render()`` returns the map) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "tde_v0", "is_parallelizable": False}

    def __init__(
        self,
        scenario: str = "skirmish",
        board: str = tde.DEFAULT_BOARD,
        crews: Sequence[str] = tde.DEFAULT_CREWS,
        rules: str = "standard",
        dinos: int = 0,
        ambush: int = 0,
        solo: bool = False,
        max_turns: Optional[int] = None,
        max_decisions: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise tde.TdeError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        if max_decisions is not None and max_decisions < 1:
            raise tde.TdeError(f"max_decisions: at least 1, got {max_decisions}")
        self._options: Dict[str, Any] = dict(
            board=board, crews=list(crews), rules=rules, dinos=dinos, ambush=ambush, solo=solo, max_turns=max_turns
        )
        self._scenario = scenario
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        # A game of the same set-up fixes the spaces (they depend on the board's size class).
        probe = tde.new_game(scenario="skirmish" if scenario == "random" else scenario, **self._options)
        (planes, depth, width), globals_ = probe.observation_shape()
        self._obs_len = planes * depth * width + globals_
        self._num_actions = probe.num_distinct_actions()
        self.possible_agents: List[str] = list(AGENTS[: probe.num_players()])
        self.agent_name_mapping = {name: i for i, name in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self._obs_len,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self._num_actions)
        self.state: Optional[tde.State] = None
        self._decisions = 0
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation dict's space (the same for every agent)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete`` over the policy space (the same for every agent)."""
        return self._action_space

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new game; ``seed`` seeds the dice and the draw of a ``"random"``
        scenario."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        scenario = self._scenario
        if scenario == "random":
            scenario = str(self.np_random.choice(tde.scenarios()[:5]))
        self.state = tde.new_game(scenario=scenario, **self._options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._decisions = 0
        self._resolve_chance()
        self._after_move()

    def _resolve_chance(self) -> None:
        """Roll every chance node with the environment's generator until a decision or the
        end."""
        state = self.state
        assert state is not None
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(float(self.np_random.random())))

    def _after_move(self) -> None:
        """Point ``agent_selection`` at the player to decide, or end the game."""
        state = self.state
        assert state is not None
        for agent in self.agents:
            self.infos[agent] = {}
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns()):
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
            # Whoever is selected gets its final observation and leaves first.
            if self.agent_selection_or_none() is None:
                self.agent_selection = self.agents[0]
            return
        player = state.current_player()
        self.agent_selection = self.possible_agents[player]
        # The decider's legal actions as an array (no scan of the mask) and their recipes.
        self.infos[self.agent_selection] = {
            "legal_actions": state.legal_actions_array(),
            "action_recipes": state.action_recipes(),
        }
        if self.max_decisions is not None and self._decisions >= self.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True

    def agent_selection_or_none(self) -> Optional[str]:
        """The selected agent, or None before the first selection."""
        return getattr(self, "agent_selection", None)

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``agent``'s observation and action mask (zeros when it is not deciding)."""
        state = self.state
        if state is None:
            raise tde.TdeError("observe: call reset() first")
        player = self.agent_name_mapping[agent]
        return {
            "observation": state.observation_tensor(player),
            "action_mask": state.legal_actions_mask(player),
        }

    def step(self, action: Optional[int]) -> None:
        """Apply the selected agent's action (an index with ``action_mask`` 1), then roll
        the dice up to the next decision. A finished agent must pass ``None``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        if action is None:
            raise tde.TdeError(f"action: {agent} must decide; None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(int(action))
        self._decisions += 1
        self._resolve_chance()
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The map and roster as text (``"ansi"``), printed (``"human"``), or the table as an
        RGB image (``"rgb_array"``, ``tde.render_rgb``)."""
        return tde.render_text(self.state, self.render_mode, 0)

    def close(self) -> None:
        """Nothing to release."""


class TdeParallelEnv(ParallelEnv):
    """The game as a PettingZoo ``ParallelEnv``; options as ``TdeAecEnv``.

    Both agents are live until the game ends; at each step the agent to move passes an action
    of the game (its ``action_mask`` is the game's, plus a 0 for the no-op) and the other
    agent passes ``noop_action`` (its mask holds only that id; it may also be left out of the
    actions dict). Every agent's ``info`` has ``legal_actions`` (``[noop_action]`` for the
    waiting agent); the mover's also has ``action_recipes``. An illegal action of the mover,
    or anything but the no-op from the waiting agent, raises ``tde.IllegalActionError`` and
    leaves the game unchanged. Chance (dice, the dinosaurs' card draws) is rolled inside with
    the generator ``reset(seed=...)`` seeds. Rewards are 0 until the game ends, then its
    returns; at the end (or when ``max_decisions`` truncates it) ``agents`` empties.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "tde_parallel_v0", "is_parallelizable": True}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        # The AEC environment checks the options and holds the game; this one steps it.
        self._aec = TdeAecEnv(**kwargs)
        self.render_mode = self._aec.render_mode
        self.max_decisions = self._aec.max_decisions
        self.possible_agents: List[str] = list(self._aec.possible_agents)
        self.agents: List[str] = []
        self._num_actions = self._aec._num_actions
        #: The waiting agent's one legal action: one past the game's policy space.
        self.noop_action: int = self._num_actions
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self._aec._obs_len,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions + 1,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self._num_actions + 1)

    @property
    def state(self) -> Optional[tde.State]:  # type: ignore[override]
        """The game (``None`` before ``reset``)."""
        return self._aec.state

    @property
    def np_random(self) -> np.random.Generator:
        """The generator that rolls the chance nodes."""
        return self._aec.np_random

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation dict's space (the same for every agent)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete`` over the policy space and the no-op (the same for every agent)."""
        return self._action_space

    def agent_to_move(self) -> Optional[str]:
        """The agent that decides this step, or ``None`` once the game is over."""
        if not self.agents:
            return None
        return self._aec.agent_selection

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> "tuple[Dict[str, Dict[str, np.ndarray]], Dict[str, Dict[str, Any]]]":
        """Start a new game; ``seed`` seeds the dice and the draw of a ``"random"``
        scenario. Returns every agent's observation and info."""
        self._aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return {a: self._observe(a) for a in self.agents}, {a: self._info(a) for a in self.agents}

    def _observe(self, agent: str) -> Dict[str, np.ndarray]:
        obs = self._aec.observe(agent)
        mask = np.zeros(self._num_actions + 1, dtype=np.int8)
        if agent == self.agent_to_move():
            mask[: self._num_actions] = obs["action_mask"]
        elif self.agents and not self._aec.state.is_terminal():  # type: ignore[union-attr]
            mask[self.noop_action] = 1
        return {"observation": obs["observation"], "action_mask": mask}

    def _info(self, agent: str) -> Dict[str, Any]:
        if agent == self.agent_to_move():
            return dict(self._aec.infos[agent])
        if self.agents and not self._aec.state.is_terminal():  # type: ignore[union-attr]
            return {"legal_actions": np.array([self.noop_action], dtype=np.int64)}
        return {}

    def step(
        self, actions: Dict[str, int]
    ) -> "tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]":
        """Apply the mover's action (the waiting agent passes ``noop_action`` or nothing), roll
        the dice up to the next decision, and return every acting agent's observation,
        reward, termination, truncation and info."""
        if not self.agents:
            raise tde.TdeError("step: the game is over (or not started); call reset()")
        mover = self.agent_to_move()
        assert mover is not None
        for agent, action in actions.items():
            if agent not in self.agents:
                raise tde.TdeError(f"actions: {agent!r} is not a live agent; live: {self.agents}")
            if agent != mover and (action is None or int(action) != self.noop_action):
                raise tde.IllegalActionError(
                    f"action {action} of {agent}: it is {mover}'s move; {agent}'s only legal action "
                    f"is the no-op {self.noop_action}"
                )
        if mover not in actions or actions[mover] is None:
            raise tde.TdeError(f"actions: {mover} must decide; none was given")
        action = int(actions[mover])
        if action == self.noop_action:
            raise tde.IllegalActionError(
                f"action {action} of {mover}: the no-op is only for the waiting agent; {mover} must decide"
            )
        # The AEC step checks the action against the game (IllegalActionError, nothing
        # changed) before it rolls the dice and selects the next agent.
        self._aec.step(action)
        acting = list(self.agents)
        terminal = self._aec.state.is_terminal()  # type: ignore[union-attr]
        rewards = {a: float(self._aec.rewards[a]) if terminal else 0.0 for a in acting}
        terminations = {a: bool(self._aec.terminations[a]) for a in acting}
        truncations = {a: bool(self._aec.truncations[a]) and not terminations[a] for a in acting}
        if terminal or any(truncations.values()):
            self.agents = []
        observations = {a: self._observe(a) for a in acting}
        infos = {a: self._info(a) for a in acting}
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Any:
        """As ``TdeAecEnv.render``."""
        return self._aec.render()

    def close(self) -> None:
        """Nothing to release."""
