"""TDE as an OpenSpiel game: OpenSpiel's MCTS and random rollouts play it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")

import tde.openspiel  # noqa: E402,F401
from conftest import TINY  # noqa: E402

PARAMS = {"scenario": "skirmish", "board": TINY["board"], "crews": ",".join(TINY["crews"])}


def test_the_game_is_registered_and_loads() -> None:
    assert "python_tde" in pyspiel.registered_names()
    game = pyspiel.load_game("python_tde", PARAMS)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == tde.new_game(**TINY).num_distinct_actions()
    state = game.new_initial_state()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_openspiel_random_simulations() -> None:
    game = pyspiel.load_game("python_tde", PARAMS)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_mcts_plays_a_game_with_random_rollouts() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_tde", PARAMS)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng, solve=False)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0 and decisions < 6:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert decisions == 6
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert str(state)
