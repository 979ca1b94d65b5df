"""Shared fixtures: small games, and the paths of the example data."""

from __future__ import annotations

import os
from typing import Dict, List

import pytest

import tde

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")
DATA = os.path.join(EXAMPLES, "data")
REPO = os.path.dirname(os.path.dirname(HERE))

#: The learning example's tiny game: a 12x12 table, two models a side.
TINY: Dict[str, object] = {
    "scenario": "skirmish",
    "board": os.path.join(DATA, "duel_yard.board"),
    "crews": [os.path.join(DATA, "duel_a.toml"), os.path.join(DATA, "duel_b.toml")],
}


@pytest.fixture
def tiny_game() -> tde.State:
    """A new game on the tiny board."""
    return tde.new_game(**TINY)


def play_random(state: tde.State, seed: int, max_steps: int = 100_000) -> List[int]:
    """Play uniformly random actions (chance by its odds) to the end; the actions taken."""
    import numpy as np

    rng = np.random.default_rng(seed)
    taken = []
    while not state.is_terminal() and len(taken) < max_steps:
        if state.is_chance_node():
            action = state.sample_chance_outcome(float(rng.random()))
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        taken.append(action)
    return taken
