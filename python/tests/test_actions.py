"""The factored form of the legal actions (``State.action_recipes``, ``tde.score_actions``):
what a pointer-style policy head scores instead of a flat mask over the policy space."""

from __future__ import annotations

import numpy as np

import tde
from conftest import TINY


def decisions(seed: int, count: int, **options):
    """States at ``count`` decisions of a random game (chance by its odds)."""
    rng = np.random.default_rng(seed)
    state = tde.new_game(**options)
    found = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(float(rng.random())))
            continue
        found.append(state.clone())
        legal = state.legal_actions_array()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    return found


def test_recipes_describe_every_legal_action_within_the_networks_outputs() -> None:
    for state in decisions(1, 60, scenario="couriers"):
        recipes = state.action_recipes()
        legal = state.legal_actions()
        assert recipes["actions"].tolist() == legal == state.legal_actions_array().tolist()
        n = len(legal)
        (_, depth, width), _ = state.observation_shape()
        for key in ("planes", "cells", "globals"):
            assert recipes[key].shape == (n, 2) and recipes[key].dtype == np.int64
        planes, cells, globals_ = recipes["planes"], recipes["cells"], recipes["globals"]
        assert ((planes == -1) == (cells == -1)).all(), "a spatial term has a plane and a cell"
        assert ((planes >= -1) & (planes < tde.POLICY_PLANES)).all()
        assert ((cells >= -1) & (cells < depth * width)).all()
        assert ((globals_ >= -1) & (globals_ < tde.POLICY_GLOBALS)).all()
        assert ((planes[:, 0] >= 0) | (globals_[:, 0] >= 0)).all(), "every action has a term"
        # Distinct actions are told apart by their recipes.
        rows = {tuple(r) for r in np.concatenate([planes, cells, globals_], axis=1).tolist()}
        assert len(rows) == n


def test_score_actions_sums_each_actions_terms() -> None:
    rng = np.random.default_rng(0)
    for state in decisions(2, 20, **TINY):
        (_, depth, width), _ = state.observation_shape()
        plane_logits = rng.normal(size=(tde.POLICY_PLANES, depth, width)).astype(np.float32)
        global_logits = rng.normal(size=tde.POLICY_GLOBALS).astype(np.float32)
        recipes = state.action_recipes()
        scores = tde.score_actions(recipes, plane_logits, global_logits)
        flat = plane_logits.reshape(tde.POLICY_PLANES, -1)
        for k in range(len(scores)):
            expected = 0.0
            for t in range(2):
                if recipes["planes"][k, t] >= 0:
                    expected += flat[recipes["planes"][k, t], recipes["cells"][k, t]]
                if recipes["globals"][k, t] >= 0:
                    expected += global_logits[recipes["globals"][k, t]]
            assert np.isclose(scores[k], expected, atol=1e-5)
        # A pointer head that puts all its weight on one action's first term picks it.
        k = len(scores) // 2
        pointed = np.zeros_like(plane_logits).reshape(tde.POLICY_PLANES, -1)
        glob = np.zeros_like(global_logits)
        if recipes["planes"][k, 0] >= 0:
            pointed[recipes["planes"][k, 0], recipes["cells"][k, 0]] = 10.0
        else:
            glob[recipes["globals"][k, 0]] = 10.0
        best = tde.score_actions(recipes, pointed.reshape(plane_logits.shape), glob)
        assert best[k] == best.max()


def test_chance_nodes_and_ended_games_have_no_recipes() -> None:
    state = tde.new_game(**TINY)
    assert state.is_chance_node()
    recipes = state.action_recipes()
    assert all(len(recipes[key]) == 0 for key in ("actions", "planes", "cells", "globals"))
