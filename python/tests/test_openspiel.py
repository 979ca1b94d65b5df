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


def test_openspiel_random_simulations_with_serialization() -> None:
    game = pyspiel.load_game("python_tde", PARAMS)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def played(game, steps: int, seed: int = 0):
    """A state of ``game`` after ``steps`` random actions (chance by its odds)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_game_rebuilds_from_its_own_name() -> None:
    game = pyspiel.load_game("python_tde", PARAMS)
    assert "crews=" + "+".join(TINY["crews"]) in str(game)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions()
    # The comma spelling of a parameter dict is kept as `+`, so it loads by name too.
    default = pyspiel.load_game("python_tde")
    assert "crews=artifacters_100+the_firm_100" in str(default)
    assert str(pyspiel.load_game(str(default))) == str(default)


def test_serialize_game_and_state_round_trips() -> None:
    game = pyspiel.load_game("python_tde", PARAMS)
    state = played(game, 120)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert state2.tde_state == state.tde_state


def test_games_and_states_pickle_and_deepcopy() -> None:
    import copy
    import pickle

    game = pyspiel.load_game("python_tde", PARAMS)
    game2 = pickle.loads(pickle.dumps(game))
    assert str(game2) == str(game)
    state = played(game, 80, seed=3)
    for back in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert back.history() == state.history()
        assert back.tde_state == state.tde_state
        assert back.legal_actions() == state.legal_actions()
    # A copy is independent of the original.
    twin = copy.deepcopy(state)
    assert not twin.is_terminal()
    twin.apply_action(twin.legal_actions()[0])
    assert len(twin.history()) == len(state.history()) + 1
    assert twin.tde_state.move_number() == state.tde_state.move_number() + 1


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
