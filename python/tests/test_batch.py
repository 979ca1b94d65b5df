"""Many games stepped together in Rust (``tde.Batch``) and the Gymnasium vector environment
over it (``tde.gym.make_vec``)."""

from __future__ import annotations

import numpy as np
import pytest

import tde
from conftest import TINY


def random_actions(batch: tde.Batch, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game."""
    offsets, indices = batch.legal_actions()
    return np.array([indices[rng.integers(offsets[i], offsets[i + 1])] for i in range(len(batch))])


def test_a_batch_steps_every_game_and_restarts_those_that_end() -> None:
    batch = tde.Batch(4, opponent="random", side=1, seed=3, **TINY)
    obs = batch.observations()
    (p, d, w), g = batch.observation_shape()
    assert obs.shape == (4, p * d * w + g) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    finished = []
    for _ in range(300):
        rewards, ended = batch.step(random_actions(batch, rng))
        assert rewards.shape == (4,) and ended.dtype == np.bool_
        assert (rewards[~ended] == 0).all()
        finished += rewards[ended].tolist()
    assert batch.episodes == len(finished) > 0
    assert set(finished) <= {-1.0, 0.0, 1.0}
    assert batch.steps == 1200
    # Each game waits for side B, and its observation is side B's.
    for i in range(4):
        game = batch.game(i)
        assert game.current_player() == 1
        np.testing.assert_array_equal(batch.observations()[i], game.observation_tensor(1))
    assert batch.observers().tolist() == [1, 1, 1, 1]


def test_legal_actions_masks_and_recipes_agree_with_each_game() -> None:
    batch = tde.Batch(3, opponent="scripted", seed=1, **TINY)
    offsets, indices = batch.legal_actions()
    masks = batch.action_masks()
    recipes = batch.action_recipes()
    assert masks.shape == (3, batch.num_distinct_actions())
    for i in range(3):
        game = batch.game(i)
        own = indices[offsets[i] : offsets[i + 1]].tolist()
        assert own == game.legal_actions() == np.flatnonzero(masks[i]).tolist()
        rows = slice(recipes["offsets"][i], recipes["offsets"][i + 1])
        np.testing.assert_array_equal(recipes["planes"][rows], game.action_recipes()["planes"])


def test_equal_seeds_give_equal_batches_and_reset_restarts() -> None:
    def run(seed: int) -> list:
        batch = tde.Batch(2, opponent="random", seed=seed, **TINY)
        rng = np.random.default_rng(5)
        for _ in range(50):
            batch.step(random_actions(batch, rng))
        return [batch.game(i).state_hash() for i in range(2)]

    assert run(4) == run(4)
    batch = tde.Batch(2, opponent="random", seed=4, **TINY)
    first = batch.observations()
    batch.step(random_actions(batch, np.random.default_rng(1)))
    batch.reset(4)
    np.testing.assert_array_equal(batch.observations(), first)


def test_self_play_decides_for_whichever_side_is_to_act() -> None:
    batch = tde.Batch(4, opponent=None, seed=2, **TINY)
    rng = np.random.default_rng(2)
    sides = set()
    for _ in range(60):
        sides |= set(batch.observers().tolist())
        for i, side in enumerate(batch.observers()):
            assert batch.game(i).current_player() == side
        batch.step(random_actions(batch, rng))
    assert sides == {0, 1}


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    batch = tde.Batch(2, seed=1, **TINY)
    offsets, indices = batch.legal_actions()
    before = [batch.game(i).state_hash() for i in range(2)]
    bad = next(a for a in range(batch.num_distinct_actions()) if a not in indices[offsets[1] :].tolist())
    with pytest.raises(tde.IllegalActionError, match=r"actions\[1\]: action"):
        batch.step([indices[0], bad])
    with pytest.raises(tde.TdeError, match="actions: one per game"):
        batch.step([indices[0]])
    with pytest.raises(tde.IllegalActionError, match=r"actions\[0\]: -1 is negative"):
        batch.step([-1, indices[offsets[1]]])
    assert [batch.game(i).state_hash() for i in range(2)] == before
    with pytest.raises(tde.TdeError, match="games: a whole number"):
        tde.Batch(-2)
    with pytest.raises(tde.TdeError, match="games: at least 1"):
        tde.Batch(0)
    with pytest.raises(tde.TdeError, match="scenario: a batch plays one set-up"):
        tde.Batch(2, scenario="random")
    with pytest.raises(tde.TdeError, match="side: a whole number from 0 to 1"):
        tde.Batch(2, side=2)


def test_the_gymnasium_vector_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import tde.gym

    env = tde.gym.make_vec(3, opponent="random", **TINY)
    obs, infos = env.reset(seed=7)
    assert env.observation_space.contains(obs)
    assert env.num_envs == 3 and env.action_space.shape == (3,)
    rng = np.random.default_rng(7)
    total_ends = 0
    for _ in range(200):
        offsets, indices = infos["legal_actions"]
        actions = np.array([indices[rng.integers(offsets[i], offsets[i + 1])] for i in range(3)])
        masks = env.action_masks()
        assert masks[np.arange(3), actions].all()
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert obs.shape == (3, env.single_observation_space.shape[0])
        total_ends += int(terminations.sum())
        assert not truncations.any()
    assert total_ends > 0
    again, _ = env.reset(seed=7)
    first, _ = tde.gym.make_vec(3, opponent="random", **TINY).reset(seed=7)
    np.testing.assert_array_equal(again, first)
    # Gymnasium builds it from the registered id too.
    vec = gymnasium.make_vec("tde/TDE-v0", num_envs=2, vectorization_mode="vector_entry_point", **TINY)
    assert vec.num_envs == 2
