"""The Gymnasium environment against a built-in agent."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="gymnasium is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import tde  # noqa: E402
import tde.gym  # noqa: E402
from conftest import TINY  # noqa: E402


def test_check_env() -> None:
    check_env(tde.gym.make(opponent="scripted", **TINY), skip_render_check=True)


def test_check_env_on_a_random_scenario_and_side() -> None:
    check_env(tde.gym.make(opponent="random", scenario="random", side="random"), skip_render_check=True)


def play_episode(env, seed: int) -> float:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert legal.tolist() == info["legal_actions"]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        if terminated or truncated:
            return total


def test_episodes_end_with_the_games_return_and_repeat_with_the_seed() -> None:
    env = tde.gym.make(opponent="scripted", side=1, **TINY)
    results = [play_episode(env, s) for s in range(3)]
    assert all(r in (-1.0, 0.0, 1.0) for r in results)
    assert results == [play_episode(env, s) for s in range(3)]


def test_illegal_actions_lose_or_raise() -> None:
    env = tde.gym.make(**TINY)
    _, info = env.reset(seed=0)
    illegal = next(i for i in range(env.action_space.n) if not info["action_mask"][i])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    env = tde.gym.make(illegal_action="raise", **TINY)
    env.reset(seed=0)
    with pytest.raises(tde.IllegalActionError):
        env.step(illegal)


def test_bad_arguments_raise_naming_them() -> None:
    with pytest.raises(tde.TdeError, match="side:"):
        tde.gym.make(side=2)
    with pytest.raises(tde.TdeError, match="spec:"):
        tde.gym.make(opponent="nobody")


def test_gymnasium_make_builds_the_registered_env_with_a_spec() -> None:
    import gymnasium

    env = gymnasium.make(tde.gym.ENV_ID, opponent="random", **TINY)
    assert env.spec is not None and env.spec.id == "tde/TDE-v0"
    assert env.spec.entry_point == "tde.gym:TdeGymEnv"
    assert env.spec.kwargs["opponent"] == "random"
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    check_env(env.unwrapped, skip_render_check=True)


def test_the_observation_box_is_finite_and_holds_what_games_show() -> None:
    env = tde.gym.make(opponent="random", **TINY)
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    largest = 0.0
    for _ in range(200):
        largest = max(largest, float(np.abs(obs).max()))
        assert space.contains(obs)
        obs, _, terminated, truncated, info = env.step(int(rng.choice(info["legal_actions"])))
        if terminated or truncated:
            obs, info = env.reset()
    assert largest < tde.gym.OBSERVATION_BOUND / 10


def test_action_masks_mark_the_legal_actions_as_bools() -> None:
    env = tde.gym.make(opponent="scripted", **TINY)
    assert not env.action_masks().any(), "nothing is legal before reset"
    _, info = env.reset(seed=1)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
    assert np.flatnonzero(mask).tolist() == info["legal_actions"]
    assert (mask == info["action_mask"].astype(bool)).all()


def test_rgb_array_renders_the_table_with_both_crews() -> None:
    env = tde.gym.make(opponent="scripted", render_mode="rgb_array", **TINY)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    state = env.state

    def on_table(name: str) -> float:
        return float(state.observation_arrays(0)[0][tde.PLANE_NAMES.index(name)].sum())

    while not (on_table("own_conscious") and on_table("enemy_conscious")):  # up to the deployment
        _, _, terminated, _, info = env.step(int(rng.choice(info["legal_actions"])))
        assert not terminated
    image = env.render()
    (_, depth, width), _ = state.observation_shape()
    assert image.shape == (depth * 8, width * 8, 3) and image.dtype == np.uint8
    colours = {tuple(c) for c in image.reshape(-1, 3).tolist()}
    assert dict(tde.RGB_LAYERS)["board"] in colours
    assert dict(tde.RGB_LAYERS)["own_conscious"] in colours and dict(tde.RGB_LAYERS)["enemy_conscious"] in colours
    with pytest.raises(tde.TdeError, match="scale:"):
        tde.render_rgb(state, 0, scale=0)


def test_check_env_with_its_render_check() -> None:
    check_env(tde.gym.make(opponent="random", render_mode="rgb_array", **TINY))
