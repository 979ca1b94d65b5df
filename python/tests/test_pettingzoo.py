"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import tde  # noqa: E402
from conftest import TINY  # noqa: E402
from tde.pettingzoo import env  # noqa: E402


def test_api_test() -> None:
    api_test(env(**TINY), num_cycles=300)


def test_api_test_on_a_scenario_board() -> None:
    api_test(env(scenario="couriers"), num_cycles=60)


def test_seed_test() -> None:
    seed_test(lambda: env(**TINY), num_cycles=300)


def test_a_whole_game_cycles_the_two_players_and_pays_opposite_rewards() -> None:
    e = env(**TINY)
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    seen = set()
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        seen.add(agent)
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() > 0
        # The info lists the same legal actions, with their recipes.
        assert info["legal_actions"].tolist() == np.flatnonzero(mask).tolist()
        assert info["action_recipes"]["actions"].tolist() == info["legal_actions"].tolist()
        e.step(int(e.action_space(agent).sample(mask)))
    assert seen == {"player_a", "player_b"}
    assert e.agents == []
    assert totals["player_a"] == -totals["player_b"]
    assert e.state.is_terminal()


def test_truncation_and_bad_input() -> None:
    e = env(**TINY, max_decisions=5)
    e.reset(seed=1)
    steps = 0
    for agent in e.agent_iter(max_iter=1000):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and steps == 5
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    e = env(**TINY)
    e.reset(seed=1)
    with pytest.raises(tde.IllegalActionError):
        e.step(e.action_space(e.agent_selection).n - 1)
    with pytest.raises(tde.TdeError, match="max_decisions"):
        env(**TINY, max_decisions=0)
