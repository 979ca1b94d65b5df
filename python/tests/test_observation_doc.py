"""The observation's feature names (``tde.PLANE_NAMES``, ``tde.GLOBAL_NAMES``) and the page
``docs/python-observation.md`` that documents them."""

from __future__ import annotations

import os
import sys

import numpy as np

import tde
from conftest import HERE, REPO

sys.path.append(os.path.dirname(HERE))
import observation_doc  # noqa: E402


def test_every_plane_and_global_has_one_distinct_name() -> None:
    assert len(tde.PLANE_NAMES) == tde.PLANES and len(set(tde.PLANE_NAMES)) == tde.PLANES
    assert len(tde.GLOBAL_NAMES) == tde.GLOBALS and len(set(tde.GLOBAL_NAMES)) == tde.GLOBALS


def test_the_names_say_what_the_observation_holds() -> None:
    state = tde.new_game(scenario="couriers")
    planes, globals_ = state.observation_arrays(0)
    plane = {name: planes[i] for i, name in enumerate(tde.PLANE_NAMES)}
    glob = dict(zip(tde.GLOBAL_NAMES, globals_))
    (_, depth, width), _ = state.observation_shape()
    # The board plane marks the table's cells, the padding stays 0.
    assert set(np.unique(plane["board"])) <= {0.0, 1.0} and plane["board"].sum() > 0
    assert glob["scenario_couriers"] == 1.0 and glob["scenario_skirmish"] == 0.0
    assert glob["turn"] > 0
    # Nothing has deployed yet: no model on the table.
    assert plane["own_conscious"].sum() == 0 and plane["enemy_conscious"].sum() == 0


def test_the_observation_page_is_up_to_date() -> None:
    page = REPO + "/docs/python-observation.md"
    with open(page, encoding="utf-8") as f:
        assert f.read() == observation_doc.page(), "run python/observation_doc.py to write the page again"
