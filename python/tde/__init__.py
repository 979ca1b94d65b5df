"""The Drowned Earth (TDE) from Python: the Rust rules engine, its tensor encodings, its
built-in agents and its arena, at native speed.

>>> import random
>>> import tde
>>> state = tde.new_game(scenario="skirmish")
>>> state.is_chance_node()  # a skirmish starts with a roll
True
>>> rng = random.Random(1)
>>> while state.is_chance_node():
...     state.apply_action(state.sample_chance_outcome(rng.random()))
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)

Actions are indices of the Rust policy space (the indexing the networks use); chance nodes
list their outcomes ``0..k`` with exact odds (``chance_outcomes()``). ``action_recipes()``
gives each legal action's factored form (policy plane, cell, global logit) for a
pointer-style policy head, and ``Batch`` steps many games at once in Rust. Adapters:
``tde.pettingzoo.env(...)`` (PettingZoo AEC), ``tde.gym.make(...)`` (Gymnasium, one side
played by a built-in agent; ``tde.gym.make_vec(...)`` for a vector env) and
``tde.openspiel`` (registers ``python_tde`` with ``pyspiel``). The observation's planes and
globals are named in ``PLANE_NAMES`` and ``GLOBAL_NAMES`` (``docs/python-observation.md``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Union

#: The game data a wheel carries (``tde/configs/``; absent in a build from the repository,
#: whose extension knows the repository's own ``configs/``).
PACKAGED_CONFIGS = Path(__file__).resolve().with_name("configs")


def _use_packaged_configs() -> None:
    """Point the engine at the wheel's game data unless ``$TDE_CONFIGS`` or a ``./configs``
    with factions says otherwise (the engine's own order: the variable, the working
    directory's folder, then the built-in data)."""
    if not PACKAGED_CONFIGS.is_dir() or os.environ.get("TDE_CONFIGS"):
        return
    if Path("configs", "factions").is_dir():
        return
    os.environ["TDE_CONFIGS"] = str(PACKAGED_CONFIGS)


_use_packaged_configs()

from tde._tde import (
    AGENT_NAMES,
    CHANCE_PLAYER,
    GLOBAL_NAMES,
    GLOBALS,
    MAX_CHANCE_OUTCOMES,
    PLANE_NAMES,
    PLANES,
    POLICY_GLOBALS,
    POLICY_PLANES,
    TERMINAL_PLAYER,
    Agent,
    Batch,
    IllegalActionError,
    State,
    TdeError,
    deserialize,
    new_game,
    random_games_in_rust,
    scenarios,
)
from tde._tde import __version__

__all__ = [
    "AGENT_NAMES",
    "PACKAGED_CONFIGS",
    "CHANCE_PLAYER",
    "GLOBAL_NAMES",
    "GLOBALS",
    "MAX_CHANCE_OUTCOMES",
    "PLANE_NAMES",
    "PLANES",
    "POLICY_GLOBALS",
    "POLICY_PLANES",
    "TERMINAL_PLAYER",
    "Agent",
    "Batch",
    "IllegalActionError",
    "State",
    "TdeError",
    "arena",
    "deserialize",
    "load_record",
    "new_game",
    "random_games_in_rust",
    "scenarios",
    "score_actions",
    "__version__",
]

DEFAULT_BOARD = "sunken_plaza"
DEFAULT_CREWS = ("artifacters_100", "the_firm_100")


def render_text(state: Optional[State], render_mode: Optional[str], player: int = 0) -> Any:
    """What an environment's ``render()`` gives: the map and roster as text for ``"ansi"``,
    printed (and ``None`` returned) for ``"human"``, the table as ``player`` sees it as an
    RGB array for ``"rgb_array"`` (``render_rgb``), ``None`` without a mode or a game."""
    if render_mode is None or state is None:
        return None
    if render_mode == "rgb_array":
        return render_rgb(state, player)
    text = str(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def score_actions(recipes: Dict[str, Any], policy_planes: Any, policy_globals: Any) -> Any:
    """The logits of the legal actions described by ``recipes`` (``State.action_recipes()``)
    from a network's outputs: ``policy_planes`` of shape ``(POLICY_PLANES, depth, width)``
    (the padded board of ``observation_shape()``) and ``policy_globals`` of
    ``POLICY_GLOBALS`` values. Each action's logit is the sum of its (plane, cell) and
    global terms, as the Rust networks score it; only the legal actions are computed.
    Works with numpy arrays (and, gathering the same way, with any array library)."""
    import numpy as np

    planes = np.asarray(recipes["planes"])
    cells = np.asarray(recipes["cells"])
    globals_ = np.asarray(recipes["globals"])
    flat = np.asarray(policy_planes).reshape(POLICY_PLANES, -1)
    logits = np.zeros(len(planes), dtype=flat.dtype)
    for t in range(planes.shape[1] if planes.ndim == 2 else 0):
        used = planes[:, t] >= 0
        logits[used] += flat[planes[used, t], cells[used, t]]
        used = globals_[:, t] >= 0
        logits[used] += np.asarray(policy_globals)[globals_[used, t]]
    return logits


#: Colours of ``render_rgb``, painted in this order (later layers over earlier ones): plane
#: name and RGB.
RGB_LAYERS = (
    ("board", (205, 190, 150)),
    ("rough", (160, 140, 100)),
    ("water", (70, 120, 190)),
    ("impassable", (60, 60, 60)),
    ("soft", (120, 160, 90)),
    ("hard", (120, 110, 100)),
    ("zone_mine", (215, 215, 240)),
    ("zone_theirs", (240, 210, 210)),
    ("smoke", (180, 180, 180)),
    ("marker", (240, 200, 40)),
    ("own_down", (120, 150, 230)),
    ("enemy_down", (230, 130, 120)),
    ("own_conscious", (30, 70, 220)),
    ("enemy_conscious", (210, 30, 30)),
    ("active", (255, 255, 255)),
)


def render_rgb(state: State, player: int = 0, scale: int = 8) -> Any:
    """The table as an RGB image (``uint8``, ``(depth * scale, width * scale, 3)``) from
    ``player``'s observation planes: terrain, cover, deployment zones, smoke, markers, the
    observer's models blue and the enemy's red (paler when down), the acting model white;
    the padding black. For notebooks and videos (``render_mode="rgb_array"``)."""
    import numpy as np

    if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= 64:
        raise TdeError(f"scale: a whole number from 1 to 64, got {scale!r}")
    planes, _ = state.observation_arrays(player)
    image = np.zeros(planes.shape[1:] + (3,), dtype=np.uint8)
    for name, colour in RGB_LAYERS:
        image[planes[PLANE_NAMES.index(name)] > 0] = colour
    return np.repeat(np.repeat(image, scale, axis=0), scale, axis=1)


def _names(value: Union[str, Sequence[str]], argument: str) -> list:
    """A comma-separated string or a sequence of strings as a list of names."""
    if isinstance(value, str):
        names = [v.strip() for v in value.split(",") if v.strip()]
    else:
        names = [str(v) for v in value]
    if not names:
        raise TdeError(f"{argument}: name at least one")
    return names


def arena(
    agents: Union[str, Sequence[str]],
    scenarios: Union[str, Sequence[str]] = "all",
    games: int = 2,
    seed: int = 1,
    threads: int = 1,
    board: Union[str, Sequence[str]] = DEFAULT_BOARD,
    crews: Union[str, Sequence[str]] = DEFAULT_CREWS,
    rules: str = "standard",
    dinos: int = 0,
    ambush: int = 0,
) -> Dict[str, Any]:
    """Play a round robin between built-in agents, as ``tde arena`` does, and return its
    results (the content of ``results.json``) as a dict: ``ratings`` (Bradley-Terry, best
    first), ``agents`` (totals with Wilson intervals), ``pairs``, ``scenarios``, ``timing``...

    ``agents``: two or more specs (a list, or one comma-separated string where an ``mcts:``
    spec keeps its ``key=value`` parameters); ``games`` per pair and scenario, sides swapped
    (rounded up to even); ``board``: one board, or several (or ``"all"``) to draw from;
    ``crews``: side A's and side B's, or a pool of three or more (or ``"all"``).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TdeError(f"games: a positive whole number, got {games!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise TdeError(f"threads: a positive whole number, got {threads!r}")
    text = _tde_arena_json(
        _names(agents, "agents"),
        _names(scenarios, "scenarios"),
        games,
        seed,
        threads,
        _names(board, "board"),
        _names(crews, "crews"),
        rules,
        dinos,
        ambush,
    )
    return json.loads(text)


def load_record(path: str) -> State:
    """The final state of a game record file (``tde demo --record``, ``tde arena --records``,
    ``State.serialize()``), replayed and checked against its final hash."""
    with open(path, encoding="utf-8") as f:
        return deserialize(f.read())


def _tde_arena_json(*args: Any) -> str:
    from tde._tde import arena_json

    return arena_json(*args)


def _agent_for(spec_or_agent: Union[str, Agent], seed: int) -> Agent:
    """An ``Agent`` from a spec string, or the agent itself."""
    if isinstance(spec_or_agent, Agent):
        return spec_or_agent
    return Agent(spec_or_agent, seed)


def _check_seed(seed: Optional[int]) -> None:
    """Refuse a seed that is not a non-negative whole number."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TdeError(f"seed: a non-negative whole number, got {seed!r}")
