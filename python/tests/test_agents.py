"""Built-in agents from Python, and the arena."""

from __future__ import annotations

import numpy as np
import pytest

import tde
from conftest import TINY


@pytest.mark.parametrize("spec", ["random", "greedy", "scripted", "mcts:iters=20,rollout=random", "learned:gen=checkpoints/learned/gen-000.json"])
def test_agents_choose_legal_indices(spec: str, monkeypatch) -> None:
    from conftest import REPO

    monkeypatch.chdir(REPO)
    agent = tde.Agent(spec, seed=1)
    assert agent.spec == spec
    state = tde.new_game(scenario="skirmish")
    rng = np.random.default_rng(0)
    decisions = 0
    while decisions < 10 and not state.is_terminal():
        if state.is_chance_node():
            with pytest.raises(tde.TdeError, match="chance node"):
                agent.step(state)
            state.apply_action(state.sample_chance_outcome(float(rng.random())))
        else:
            action = agent.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1


def test_agents_are_deterministic_given_their_seed() -> None:
    state = tde.new_game(**TINY)
    while state.is_chance_node():
        state.apply_action(0)
    picks = [tde.Agent("random", seed=9).step(state) for _ in range(3)]
    assert len(set(picks)) == 1


def test_scripted_beats_random_from_python() -> None:
    wins = 0
    for seed in range(4):
        state = tde.new_game(**TINY)
        agents = [tde.Agent("scripted", seed), tde.Agent("random", seed)]
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(float(rng.random())))
            else:
                state.apply_action(agents[state.current_player()].step(state))
        wins += state.returns()[0] >= 0
    assert wins >= 3


def test_bad_agent_specs_raise_naming_the_argument() -> None:
    with pytest.raises(tde.TdeError, match="spec: unknown agent `nobody`"):
        tde.Agent("nobody")
    with pytest.raises(tde.TdeError, match="spec:"):
        tde.Agent("mcts:iters=abc")
    with pytest.raises(tde.TdeError, match="spec:"):
        tde.Agent("policy:checkpoint=/no/such/checkpoint")


def test_the_arena_returns_its_results_as_a_dict() -> None:
    results = tde.arena(["random", "greedy"], scenarios="skirmish", games=2, seed=3)
    assert results["games"] == 2
    assert {row["agent"] for row in results["agents"]} == {"random", "greedy"}
    assert results["settings"]["agents"] == ["random", "greedy"]
    with pytest.raises(tde.TdeError, match="at least two agents"):
        tde.arena(["random"], scenarios="skirmish")
    with pytest.raises(tde.TdeError, match="games:"):
        tde.arena(["random", "greedy"], games=0)
