"""Random games per second through the Python API against the same games played in Rust.

    python python/bench.py [--games 20] [--batches 3] [--cli target/release/tde]

For the skirmish and each scenario on the default board and crews: the median over batches of
random games per second (uniform legal actions, chance by its exact odds) played by a Python
loop over ``tde.State`` (``legal_actions``, ``apply_action``, ``sample_chance_outcome``) and
by the same loop in Rust (``tde.random_games_in_rust``), their ratio, steps per game, and the
per-step overhead of the Python loop (its time per step less Rust's). With ``--cli`` it also
prints ``tde bench``'s own random-game figures (one thread) for comparison. One thread
throughout; timings vary between runs and machines.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from typing import Dict, List, Tuple

import tde


def python_games(start: tde.State, games: int, seed: int) -> int:
    """Play `games` random games from `start` in Python; the steps taken."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        state = start.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng.random()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def timed(fn, *args) -> Tuple[float, int]:
    """Seconds taken by `fn(*args)` and its result."""
    t = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t, result


def measure(scenario: str, games: int, batches: int) -> Dict[str, float]:
    """Median games/s and steps/game, Python and Rust, for one scenario."""
    start = tde.new_game(scenario=scenario)
    py_rates: List[float] = []
    rust_rates: List[float] = []
    py_step: List[float] = []
    rust_step: List[float] = []
    steps_per_game: List[float] = []
    for b in range(batches):
        seconds, steps = timed(python_games, start, games, b)
        py_rates.append(games / seconds)
        py_step.append(seconds / steps)
        steps_per_game.append(steps / games)
        seconds, steps = timed(tde.random_games_in_rust, start, games, b)
        rust_rates.append(games / seconds)
        rust_step.append(seconds / steps)
    py, rust = statistics.median(py_rates), statistics.median(rust_rates)
    return {
        "python_games_per_s": py,
        "rust_games_per_s": rust,
        "ratio": py / rust,
        "steps_per_game": statistics.median(steps_per_game),
        "python_us_per_step": 1e6 * statistics.median(py_step),
        "rust_us_per_step": 1e6 * statistics.median(rust_step),
        "overhead_us_per_step": 1e6 * (statistics.median(py_step) - statistics.median(rust_step)),
    }


def main() -> None:
    """Measure and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per batch")
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--scenarios", default=",".join(tde.scenarios()[::-1]), help="comma-separated")
    parser.add_argument("--cli", default=None, help="a tde binary whose `bench` figures to print too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {s: measure(s, args.games, args.batches) for s in args.scenarios.split(",")}
    cli = None
    if args.cli:
        out = subprocess.run(
            [args.cli, "bench", "--json", "--net", "none", "--games", str(args.games), "--batches", str(args.batches)],
            capture_output=True,
            text=True,
            check=True,
        )
        cli = json.loads(out.stdout)
    if args.json:
        print(json.dumps({"scenarios": rows, "tde_bench": cli}, indent=2))
        return
    print(f"random games, one thread, medians of {args.batches} batches of {args.games} games")
    print(f"{'scenario':<16}{'python g/s':>12}{'rust g/s':>11}{'ratio':>8}{'steps/game':>12}{'py µs/step':>12}{'rust µs/step':>14}{'overhead µs':>13}")
    for s, r in rows.items():
        print(
            f"{s:<16}{r['python_games_per_s']:>12.1f}{r['rust_games_per_s']:>11.1f}{r['ratio']:>8.0%}"
            f"{r['steps_per_game']:>12.0f}{r['python_us_per_step']:>12.2f}{r['rust_us_per_step']:>14.2f}"
            f"{r['overhead_us_per_step']:>13.2f}"
        )
    if cli is not None:
        print("\ntde bench (Rust, one thread):")
        for key, value in sorted(cli.items()):
            if "random_games" in key or key == "scenarios":
                print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
