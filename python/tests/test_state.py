"""The game API: nodes, legal actions, chance odds, observations, records, errors."""

from __future__ import annotations

import copy
import json
import os
import pickle
import shutil
import subprocess

import numpy as np
import pytest

import tde
from conftest import REPO, TINY, play_random


def test_a_new_game_starts_at_a_decision_or_a_roll_with_legal_moves() -> None:
    state = tde.new_game(scenario="couriers")
    assert state.scenario() == "couriers"
    assert state.num_players() == 2
    assert not state.is_terminal()
    assert state.current_player() in (0, 1, tde.CHANCE_PLAYER)
    assert len(state.legal_actions()) > 0
    assert state.returns() == [0.0, 0.0]


def test_random_scenario_is_rolled_from_the_seed() -> None:
    names = {tde.new_game(scenario="random", seed=s).scenario() for s in range(20)}
    assert len(names) > 1
    assert names <= set(tde.scenarios())
    assert tde.new_game(seed=7).scenario() == tde.new_game(seed=7).scenario()


def test_legal_actions_are_ascending_policy_indices_and_the_mask_agrees() -> None:
    state = tde.new_game(scenario="skirmish")
    rng = np.random.default_rng(0)
    decisions = 0
    while decisions < 40 and not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        mask = state.legal_actions_mask()
        assert mask.dtype == np.int8
        if state.is_chance_node():
            assert len(mask) == tde.MAX_CHANCE_OUTCOMES
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal == list(range(len(legal)))
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert all(p > 0 for _, p in outcomes)
        else:
            decisions += 1
            assert len(mask) == state.num_distinct_actions()
            assert state.chance_outcomes() == []
            other = 1 - state.current_player()
            assert state.legal_actions(other) == []
            assert not state.legal_actions_mask(other).any()
        assert np.flatnonzero(mask).tolist() == legal
        state.apply_action(legal[int(rng.integers(len(legal)))])


def test_a_whole_random_game_ends_with_opposite_returns(tiny_game: tde.State) -> None:
    taken = play_random(tiny_game, seed=1)
    assert tiny_game.is_terminal()
    assert tiny_game.current_player() == tde.TERMINAL_PLAYER
    assert tiny_game.legal_actions() == []
    r = tiny_game.returns()
    assert r in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert tiny_game.move_number() == len(taken)


def test_equal_seeds_give_equal_games_and_clones_are_independent() -> None:
    a = tde.new_game(**TINY)
    b = a.clone()
    c = copy.deepcopy(a)
    play_random(a, seed=5)
    assert b.move_number() == 0 and not b.is_terminal()
    play_random(b, seed=5)
    assert a.state_hash() == b.state_hash() and a == b
    play_random(c, seed=6)
    assert c.state_hash() != a.state_hash()


def test_an_illegal_action_raises_with_the_engines_message_and_changes_nothing() -> None:
    state = tde.new_game(scenario="skirmish")
    with pytest.raises(tde.IllegalActionError, match=r"chance outcome 7 is not legal at this node \(the dice"):
        state.apply_action(7)
    while state.is_chance_node():
        state.apply_action(0)
    before = state.state_hash()
    legal = set(state.legal_actions())
    bad = next(i for i in range(10**6) if i not in legal)
    with pytest.raises(tde.IllegalActionError, match=f"action {bad} is not legal at this node"):
        state.apply_action(bad)
    for hopeless in (-1, 2**80):
        with pytest.raises(tde.IllegalActionError, match=f"action {hopeless} is not legal"):
            state.apply_action(hopeless)
    with pytest.raises(tde.TdeError, match="action: a whole number"):
        state.apply_action("1")
    assert state.state_hash() == before
    # IllegalActionError is a TdeError is a ValueError.
    assert issubclass(tde.IllegalActionError, tde.TdeError) and issubclass(tde.TdeError, ValueError)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"scenario": "chess"}, "scenario:"),
        ({"crews": ["the_firm_100"]}, "crews: give exactly two crews"),
        ({"solo": True}, "solo: a solo game needs AI dinosaurs"),
        ({"board": "no_such_board"}, "no_such_board"),
        ({"dinos": 99}, "dinos: at most"),
        ({"max_turns": 0}, "max_turns"),
        # Out-of-range numbers are TdeErrors naming the argument, never OverflowError.
        ({"scenario": "random", "seed": -1}, "seed: a whole number from 0 to"),
        ({"scenario": "random", "seed": 2**64}, "seed: a whole number from 0 to"),
        ({"max_turns": -3}, "max_turns: a whole number from 0 to 255, got -3"),
        ({"dinos": -1}, "dinos: a whole number from 0 to 255, got -1"),
        ({"ambush": 1000}, "ambush: a whole number from 0 to 255, got 1000"),
        ({"dinos": 1.5}, "dinos: a whole number"),
        ({"dinos": True}, "dinos: a whole number"),
        # A named scenario has nothing for a seed to roll: refused, not ignored.
        ({"scenario": "skirmish", "seed": 3}, "seed: only scenario='random' has a seed"),
    ],
)
def test_bad_game_options_raise_naming_the_argument(kwargs: dict, message: str) -> None:
    with pytest.raises(tde.TdeError, match=message):
        tde.new_game(**kwargs)


def test_observations_are_the_rust_encodings_planes_then_globals() -> None:
    state = tde.new_game(scenario="grudge_match")
    (planes, depth, width), globals_ = state.observation_shape()
    assert planes == tde.PLANES and globals_ == tde.GLOBALS and (depth, width) == (36, 36)
    flat = state.observation_tensor(0)
    assert flat.dtype == np.float32 and flat.shape == (planes * depth * width + globals_,)
    p, g = state.observation_arrays(0)
    assert p.shape == (planes, depth, width) and g.shape == (globals_,)
    np.testing.assert_array_equal(np.concatenate([p.ravel(), g]), flat)
    assert p[0].sum() == 36 * 36, "plane 0 marks the board's cells"
    assert not np.array_equal(flat, state.observation_tensor(1)), "each side sees its own crew as its own"
    with pytest.raises(tde.TdeError, match="player: 2"):
        state.observation_tensor(2)


def test_information_states_hide_the_enemys_secret_grudge() -> None:
    state = tde.new_game(scenario="grudge_match")
    rng = np.random.default_rng(2)
    # Play past the grudge choices.
    for _ in range(200):
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(float(rng.random())))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    a = json.loads(state.information_state_string(0))
    b = json.loads(state.information_state_string(1))
    assert a["scenario"]["grudges"][0] is not None and a["scenario"]["grudges"][1] is None
    assert b["scenario"]["grudges"][1] is not None and b["scenario"]["grudges"][0] is None
    assert json.loads(state.observation_string(0))["observer"] == 0


def test_action_to_string_describes_legal_actions_and_refuses_others() -> None:
    state = tde.new_game(scenario="skirmish")
    while state.is_chance_node():
        state.apply_action(0)
    words = [state.action_to_string(a) for a in state.legal_actions()]
    assert all(isinstance(w, str) and w for w in words)
    with pytest.raises(tde.TdeError, match="not legal"):
        state.action_to_string(10**6 + 1)


def test_serialize_round_trips_and_pickles() -> None:
    state = tde.new_game(**TINY)
    play_random(state, seed=3)
    text = state.serialize()
    record = json.loads(text)
    assert set(record) >= {"format", "initial", "actions", "final_hash"}
    assert len(record["actions"]) == state.move_number()
    back = tde.deserialize(text)
    assert back == state and back.move_number() == state.move_number()
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    record["final_hash"] = "0" * 16
    with pytest.raises(tde.TdeError, match="differs"):
        tde.deserialize(json.dumps(record))
    with pytest.raises(tde.TdeError, match="not JSON"):
        tde.deserialize("{")


def test_tde_replay_reads_a_serialized_game(tmp_path) -> None:
    binary = os.path.join(REPO, "target", "release", "tde")
    if not os.path.exists(binary):
        binary = shutil.which("tde") or ""
    if not binary:
        pytest.skip("no tde binary (cargo build --release -p tde-cli)")
    state = tde.new_game(scenario="assassinate")
    play_random(state, seed=4, max_steps=300)
    path = tmp_path / "game.json"
    path.write_text(state.serialize())
    out = subprocess.run([binary, "replay", str(path), "--json"], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert result["matches"] is True
    assert result["final_hash"] == f"{state.state_hash():016x}"
    assert tde.load_record(str(path)) == state


def test_rust_side_random_games_take_steps(tiny_game: tde.State) -> None:
    assert tde.random_games_in_rust(tiny_game, 2, 1) > 20
    with pytest.raises(tde.TdeError, match="games: a whole number from 0 to 4294967295, got -1"):
        tde.random_games_in_rust(tiny_game, -1, 0)
    with pytest.raises(tde.TdeError, match="seed: a whole number"):
        tde.random_games_in_rust(tiny_game, 1, -5)


def test_numpy_integers_are_whole_numbers_too() -> None:
    import numpy as np

    state = tde.new_game(scenario="random", seed=np.uint64(3), max_turns=np.int64(2))
    assert state.scenario() == tde.new_game(scenario="random", seed=3).scenario()
    while state.is_chance_node():
        state.apply_action(np.int64(0))


def test_legal_actions_of_a_player_who_is_not_in_the_game_raise() -> None:
    state = tde.new_game(scenario="skirmish")
    assert state.is_chance_node()
    # The chance player may ask at a chance node; a side that is not to act gets nothing.
    assert state.legal_actions(tde.CHANCE_PLAYER) == state.legal_actions()
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    for bad in (5, 2, -3):
        with pytest.raises(tde.TdeError, match=f"player: {bad} is not a player of this game"):
            state.legal_actions(bad)
        with pytest.raises(tde.TdeError, match=f"player: {bad} is not a player"):
            state.legal_actions_mask(bad)
        with pytest.raises(tde.TdeError, match=f"player: {bad} is not a player"):
            state.observation_tensor(bad)


def test_the_package_has_a_version() -> None:
    import re

    assert re.fullmatch(r"\d+\.\d+\.\d+.*", tde.__version__), tde.__version__
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return
    try:
        assert version("tde") == tde.__version__
    except PackageNotFoundError:
        pass  # imported from the source tree, not installed


def test_the_docstring_examples_run() -> None:
    """The examples in the package's docstrings (``tde/__init__.py`` and the adapters that
    can be imported here) pass as doctests."""
    import doctest
    import importlib

    modules = ["tde"]
    for name, needs in (("tde.gym", "gymnasium"), ("tde.pettingzoo", "pettingzoo"), ("tde.openspiel", "pyspiel")):
        try:
            importlib.import_module(needs)
        except ImportError:
            continue
        modules.append(name)
    for name in modules:
        module = importlib.import_module(name)
        failed, attempted = doctest.testmod(module, globs={"np": __import__("numpy")}, optionflags=doctest.ELLIPSIS)
        assert attempted > 0, f"{name} has no examples"
        assert failed == 0, f"{failed} of {attempted} examples of {name} failed"
