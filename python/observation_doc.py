#!/usr/bin/env python3
"""Write ``docs/python-observation.md``: every observation plane and global feature by index,
with its name (``tde.PLANE_NAMES``, ``tde.GLOBAL_NAMES``, from the Rust extension) and its
meaning (the doc comment of the engine's ``P_*`` constant in
``engine/src/encoding/observe.rs`` for a plane; the table below for the model features and
the globals, which have no constant each).

``python/tests/test_observation_doc.py`` checks that the page is what this script writes.

Usage: observation_doc.py [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The installed package first: the source folder beside this script has no extension unless
# maturin built one there.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]

import tde  # noqa: E402

ROOT = HERE.parent
PAGE = ROOT / "docs" / "python-observation.md"
OBSERVE_RS = ROOT / "engine" / "src" / "encoding" / "observe.rs"

#: What each model feature holds (planes from ``own_`` and ``enemy_``; the acting model's
#: globals from ``acting_``), as ``model_features`` in observe.rs computes it.
MODEL_FEATURES = {
    "conscious": "1 when conscious",
    "down": "1 when down",
    "wounds_left": "wounds left, as a fraction of the profile's",
    "ap_left": "action points left, as a fraction of the maximum",
    "activated": "1 once activated this turn",
    "low_stance": "1 when prone, swimming or climbing",
    "tokens": "(fire tokens up to 3 + blind + slow) / 3",
    "stealthed": "1 with a stealth token",
    "climbing_height": "height climbed above the ground, in tens of inches",
    "marksmanship": "Marksmanship / 10",
    "close_combat": "Close Combat / 10",
    "agility": "Agility / 10",
    "intelligence": "Intelligence / 10",
    "armour_target": "the armour roll's target / 10",
    "ranged_reach": "longest ranged weapon's range / 24 (inches)",
    "close_combat_reach": "longest close-combat reach / 3 (inches)",
}

#: What each global feature holds, as ``encode_globals`` and ``acting_model`` compute it.
GLOBALS = {
    "turn": "the turn / 6",
    "max_turns": "the game's length in turns / 6",
    "player_a": "1 when the observer is player A",
    "vp_mine": "the observer's victory points / 10",
    "vp_theirs": "the enemy's victory points / 10",
    "pass_tokens_mine": "the observer's pass tokens / 3",
    "pass_tokens_theirs": "the enemy's pass tokens / 3",
    "initiative_mine": "1 when the observer holds the initiative",
    "active_side_mine": "1 when the observer's side is the active one",
    "my_decision": "1 when the observer decides now",
    "models_left_mine": "the observer's conscious models / 10",
    "models_left_theirs": "the enemy's conscious models / 10",
    "sequence_under_way": "1 while an action's sequence is under way",
    "cards_used_mine": "cards the observer has used / 4",
    "cards_held_mine": "cards in the observer's hand at the start / 4",
    "grudge_complete_mine": "1 once the observer's grudge is complete (Grudge Match)",
    "grudge_revealed_theirs": "1 once the enemy's grudge is announced (Grudge Match)",
    "scenario_done_mine": "1 once the observer's scenario goal is done",
    "acting_present": "1 when a model acts (all acting_ features are 0 otherwise)",
    "acting_mine": "the acting model is the observer's",
    "acting_courier": "the acting model is a courier (Couriers)",
    "acting_carries_my_prize": "it carries the observer's prize (Couriers)",
    "acting_carries_their_prize": "it carries the enemy's prize (Couriers)",
    "acting_carries_a_marker": "it carries any marker",
    "acting_grudge_holder": "it holds a grudge (either side's, as far as known)",
    "acting_grudge_target": "it is a grudge's target",
    "acting_leader": "it is its crew's leader",
    "acting_character": "it is a character",
    "acting_speed_walk": "its first speed value / 10",
    "acting_speed_run": "its second speed value / 10",
}


def plane_meanings() -> dict:
    """The doc comment of each ``P_*`` constant of observe.rs, by plane name."""
    meanings = {}
    comment: list = []
    for line in OBSERVE_RS.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("///"):
            comment.append(stripped[3:].strip())
            continue
        match = re.match(r"pub const P_([A-Z_]+): usize", stripped)
        if match:
            text = " ".join(comment)
            text = re.sub(r"\[`([A-Z_]+)`\]", r"`\1`", text)
            meanings[match.group(1).lower()] = text
        comment = []
    return meanings


def meaning_of_global(name: str) -> str:
    """A global feature's meaning."""
    if name in GLOBALS:
        return GLOBALS[name]
    if name.startswith("scenario_"):
        return f"1 when the scenario is {name[len('scenario_'):]}"
    if name.startswith("node_kind_"):
        return f"1 when the node awaited is of kind {name[len('node_kind_'):]} (the engine's `node_kind`)"
    if name.startswith("acting_") and name[len("acting_") :] in MODEL_FEATURES:
        return "the acting model: " + MODEL_FEATURES[name[len("acting_") :]]
    raise KeyError(f"no meaning written for the global feature {name!r}")


def meaning_of_plane(name: str, meanings: dict) -> str:
    """A plane's meaning."""
    for side, whose in (("own_", "the observer's models"), ("enemy_", "the enemy's models")):
        if name.startswith(side) and name[len(side) :] in MODEL_FEATURES:
            return f"on the cells of {whose}: {MODEL_FEATURES[name[len(side):]]}"
    if name in meanings:
        return meanings[name]
    raise KeyError(f"no meaning found for the plane {name!r}")


def page() -> str:
    """The page's text."""
    meanings = plane_meanings()
    lines = [
        "# The observation, feature by feature",
        "",
        "<!-- Written by python/observation_doc.py; python/tests/test_observation_doc.py checks it. -->",
        "",
        "`State.observation_tensor(player)` (and the PettingZoo, Gymnasium and OpenSpiel",
        "observations) is the Rust encoding of what `player` may see: "
        f"{tde.PLANES} planes over the padded board (`observation_shape()` gives",
        "`(planes, depth, width)`; row-major, a cell is `row * width + column`), then",
        f"{tde.GLOBALS} global features. `State.observation_arrays(player)` splits the two. Model",
        "planes are relative to the observer (`own_` its models, `enemy_` the opponent's), so one",
        "network plays either side. `tde.PLANE_NAMES` and `tde.GLOBAL_NAMES` give the names below",
        "by index; the plane names come from the engine's `P_*` constants",
        "(`engine/src/encoding/observe.rs`), whose doc comments are the plane meanings here.",
        "",
        "## Planes",
        "",
        "| index | name | meaning |",
        "| ---: | --- | --- |",
    ]
    for i, name in enumerate(tde.PLANE_NAMES):
        lines.append(f"| {i} | `{name}` | {meaning_of_plane(name, meanings)} |")
    lines += ["", "## Global features", "", "| index | name | meaning |", "| ---: | --- | --- |"]
    for i, name in enumerate(tde.GLOBAL_NAMES):
        lines.append(f"| {i} | `{name}` | {meaning_of_global(name)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if the page differs instead of writing it")
    args = parser.parse_args()
    text = page()
    if args.check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is out of date: run python/observation_doc.py", file=sys.stderr)
            return 1
        return 0
    tmp = PAGE.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(PAGE)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
