"""The PettingZoo parallel environment: PettingZoo's API test, whole games, refused actions,
seeding."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

from pettingzoo.test import parallel_api_test  # noqa: E402
from pettingzoo.utils.env import ParallelEnv  # noqa: E402

import tde  # noqa: E402
from conftest import TINY  # noqa: E402
from tde.pettingzoo import env, parallel_env  # noqa: E402


def masked_actions(p, obs):
    """A masked random action for every live agent (the no-op for the waiting one)."""
    return {a: int(p.action_space(a).sample(obs[a]["action_mask"])) for a in p.agents}


def test_parallel_api_test() -> None:
    p = parallel_env(**TINY)
    assert isinstance(p, ParallelEnv)
    parallel_api_test(p, num_cycles=300)


def test_parallel_api_test_on_a_scenario_board() -> None:
    parallel_api_test(parallel_env(scenario="couriers"), num_cycles=60)


def test_parallel_api_test_solo() -> None:
    """A solo game has ``player_a`` alone, always the one to move."""
    p = parallel_env(**TINY, solo=True, dinos=2)
    assert p.possible_agents == ["player_a"]
    parallel_api_test(p, num_cycles=200)


def test_a_whole_game_with_masked_random_actions() -> None:
    p = parallel_env(**TINY)
    obs, infos = p.reset(seed=4)
    noop = p.noop_action
    assert noop == p.state.num_distinct_actions() == p.action_space("player_a").n - 1
    totals = {a: 0.0 for a in p.possible_agents}
    movers = set()
    steps = 0
    while p.agents:
        mover = p.agent_to_move()
        movers.add(mover)
        assert mover == p.possible_agents[p.state.current_player()]
        for agent in p.agents:
            mask = obs[agent]["action_mask"]
            assert mask.shape == (noop + 1,) and mask.dtype == np.int8
            assert infos[agent]["legal_actions"].tolist() == np.flatnonzero(mask).tolist()
            if agent == mover:
                assert mask[noop] == 0 and mask.sum() > 0
                assert infos[agent]["action_recipes"]["actions"].tolist() == infos[agent]["legal_actions"].tolist()
            else:
                assert np.flatnonzero(mask).tolist() == [noop]
        actions = masked_actions(p, obs)
        obs, rewards, terminations, truncations, infos = p.step(actions)
        steps += 1
        assert set(rewards) == set(p.possible_agents)
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert not any(truncations.values())
    assert p.state.is_terminal() and steps > 1
    assert movers == {"player_a", "player_b"}
    assert all(terminations.values())
    assert totals == dict(zip(p.possible_agents, p.state.returns()))
    assert totals["player_a"] == -totals["player_b"]
    with pytest.raises(tde.TdeError, match="reset"):
        p.step({})


def test_the_parallel_game_follows_the_aec_game() -> None:
    """The same seed and the same decisions give the same game in both APIs."""
    p = parallel_env(**TINY)
    e = env(**TINY)
    obs, _ = p.reset(seed=9)
    e.reset(seed=9)
    while p.agents:
        mover = p.agent_to_move()
        assert mover == e.agent_selection
        actions = masked_actions(p, obs)
        e.step(actions[mover])
        obs, rewards, terminations, _, _ = p.step(actions)
        assert p.state.serialize() == e.state.serialize()
    assert all(e.terminations.values())
    assert rewards == e.rewards


def test_a_refused_action_leaves_the_game_unchanged() -> None:
    p = parallel_env(**TINY)
    obs, _ = p.reset(seed=1)
    mover = p.agent_to_move()
    waiting = next(a for a in p.agents if a != mover)
    legal = int(np.flatnonzero(obs[mover]["action_mask"])[0])
    before = p.state.serialize()
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    # The mover's illegal action, the mover's no-op, the waiting agent's game action.
    for actions, message in (
        ({mover: illegal, waiting: p.noop_action}, "not legal"),
        ({mover: p.noop_action, waiting: p.noop_action}, "no-op is only for the waiting agent"),
        ({mover: legal, waiting: legal}, f"only legal action is the no-op {p.noop_action}"),
    ):
        with pytest.raises(tde.IllegalActionError, match=message):
            p.step(actions)
        assert p.state.serialize() == before
        assert p.agent_to_move() == mover and p.agents == list(p.possible_agents)
    with pytest.raises(tde.TdeError, match="must decide"):
        p.step({waiting: p.noop_action})
    with pytest.raises(tde.TdeError, match="not a live agent"):
        p.step({mover: legal, "player_c": 0})
    assert p.state.serialize() == before
    # The waiting agent may be left out; the game then goes on.
    p.step({mover: legal})
    assert p.state.serialize() != before


def test_truncation_empties_the_agents() -> None:
    p = parallel_env(**TINY, max_decisions=5)
    obs, _ = p.reset(seed=1)
    steps = 0
    while p.agents:
        obs, rewards, terminations, truncations, _ = p.step(masked_actions(p, obs))
        steps += 1
    assert steps == 5
    assert all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0}


def test_seeding_reproduces_a_game() -> None:
    """PettingZoo's ``parallel_seed_test`` samples its actions without the mask (illegal
    here), so the same check with masked sampling: the same seeds give the same game."""

    def play(seed: int):
        p = parallel_env(**TINY)
        obs, infos = p.reset(seed=seed)
        for i, agent in enumerate(p.possible_agents):
            p.action_space(agent).seed(seed + i)
        trace = [(obs, infos)]
        while p.agents:
            actions = masked_actions(p, obs)
            obs, rewards, terminations, truncations, infos = p.step(actions)
            trace.append((actions, obs, rewards, terminations, truncations, infos))
        return p.state.serialize(), trace

    from gymnasium.utils.env_checker import data_equivalence

    first, trace1 = play(42)
    second, trace2 = play(42)
    assert first == second
    assert data_equivalence(trace1, trace2)
    other, _ = play(43)
    assert other != first
