"""The README's examples run."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import EXAMPLES


def run_example(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, *args], cwd=EXAMPLES, capture_output=True, text=True, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_play_vs_scripted() -> None:
    out = run_example("play_vs_scripted.py")
    assert "returns [" in out and "VP (" in out


def test_reinforce_runs_a_few_episodes() -> None:
    out = run_example("reinforce.py", "--episodes", "6", "--report", "3")
    lines = [l for l in out.splitlines() if l.startswith("games")]
    assert len(lines) == 2 and "win rate" in lines[-1]


def test_the_factored_policy_gradient_beats_random() -> None:
    """A small run of ``factored_pg.py``: the pointer policy over the action recipes, trained
    on 400 batched games, wins clearly more often against ``random`` than a uniformly random
    player does on the same evaluation games (seeded: the same figures every run)."""
    import re

    out = run_example("factored_pg.py", "--games", "400", "--eval", "100")
    match = re.search(r"learned ([\d.]+)%, uniform ([\d.]+)%", out)
    assert match, out
    learned, uniform = float(match.group(1)), float(match.group(2))
    assert learned >= uniform + 8, out
