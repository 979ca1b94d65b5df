"""The installed package: its type stubs match the extension, and a wheel carries the game
data it needs to play outside the repository.

CI installs the wheel ``python/build_wheel.py`` makes and sets ``TDE_REQUIRE_WHEEL=1``, so
the wheel's tests cannot be skipped there; from a source tree they are skipped.
"""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tde
import tde._tde as ext

STUBS = Path(tde.__file__).with_name("_tde.pyi")


def stub_names() -> tuple[set, dict]:
    """Top-level names of the stub file, and each class's public method and property names."""
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    names: set = set()
    members: dict = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
            }
    return names, members


def test_the_stubs_name_everything_the_extension_has() -> None:
    names, members = stub_names()
    public = {n for n in dir(ext) if not n.startswith("_")}
    names = {n for n in names if not n.startswith("_")}
    assert public == names, f"missing from _tde.pyi: {public - names}; not in the extension: {names - public}"
    for cls in ("State", "Agent", "Batch"):
        runtime = {n for n in dir(getattr(ext, cls)) if not n.startswith("_")}
        assert runtime == members[cls], f"{cls}: stubs lack {runtime - members[cls]}, extra {members[cls] - runtime}"


def test_the_stubs_give_the_extensions_parameters() -> None:
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    checked = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) and not isinstance(node, ast.Module):
            continue
        owner = ext if isinstance(node, ast.Module) else getattr(ext, node.name)
        for fn in node.body:
            if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_"):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list):
                continue
            try:
                runtime = inspect.signature(getattr(owner, fn.name))
            except (TypeError, ValueError):
                continue
            stub = [a.arg for a in fn.args.args if a.arg != "self"]
            real = [p for p in runtime.parameters if p not in ("self", "$self")]
            assert stub == real, f"{fn.name}: stub {stub}, extension {real}"
            checked += 1
    assert checked >= 20, f"only {checked} signatures could be compared"


def installed_from_a_wheel() -> bool:
    return tde.PACKAGED_CONFIGS.is_dir()


def test_a_wheel_plays_outside_the_repository(tmp_path: Path) -> None:
    if not installed_from_a_wheel():
        if os.environ.get("TDE_REQUIRE_WHEEL") == "1":
            pytest.fail(f"tde was imported from {tde.__file__}, not from the wheel (TDE_REQUIRE_WHEEL=1)")
        pytest.skip("tde is imported from the source tree, not from a wheel")
    assert (tde.PACKAGED_CONFIGS / "factions").is_dir() and (tde.PACKAGED_CONFIGS / "boards").is_dir()
    assert STUBS.is_file() and STUBS.with_name("py.typed").is_file()
    script = (
        "import os, tde\n"
        "state = tde.new_game(scenario='couriers')\n"
        "print(os.environ['TDE_CONFIGS'], len(state.legal_actions()) > 0)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TDE_CONFIGS"}
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    folder, plays = out.stdout.split()
    assert Path(folder) == tde.PACKAGED_CONFIGS and plays == "True"
