"""Learner steps per second of ``n`` games against ``random``: a Python loop over ``n``
Gymnasium environments against ``tde.Batch`` (the vector environment's engine), each step
fetching every game's observation and legal actions.

    python python/bench_batch.py [--envs 16] [--steps 200] [--scenario skirmish]

A step is one learner decision in each game, the dice and the opponent's moves up to the
next one included. Actions are uniform over the legal ones, drawn in numpy. The Python loop
runs on one thread, the batch on all cores (rayon); timings vary between runs and machines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

# The installed package first: the source folder beside this script has no extension unless
# maturin built one there.
HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]

import tde  # noqa: E402
import tde.gym  # noqa: E402


def python_loop(envs: int, steps: int, scenario: str) -> float:
    """Learner steps per second of ``envs`` ``TdeGymEnv``s stepped one by one."""
    games = [tde.gym.make(opponent="random", scenario=scenario) for _ in range(envs)]
    infos = [g.reset(seed=i)[1] for i, g in enumerate(games)]
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        for i, env in enumerate(games):
            legal = infos[i]["legal_actions"]
            _, _, terminated, truncated, infos[i] = env.step(legal[rng.integers(len(legal))])
            if terminated or truncated:
                infos[i] = env.reset()[1]
    return envs * steps / (time.perf_counter() - start)


def batch_loop(envs: int, steps: int, scenario: str) -> float:
    """Learner steps per second of one ``tde.Batch`` of ``envs`` games."""
    batch = tde.Batch(envs, scenario=scenario, opponent="random", seed=0)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        offsets, indices = batch.legal_actions()
        picks = offsets[:-1] + (rng.random(envs) * np.diff(offsets)).astype(np.int64)
        batch.step(indices[picks])
        batch.observations()
    return envs * steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--scenario", default="skirmish")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {
        "python_loop_steps_per_s": python_loop(args.envs, args.steps, args.scenario),
        "batch_steps_per_s": batch_loop(args.envs, args.steps, args.scenario),
    }
    rows["speed_up"] = rows["batch_steps_per_s"] / rows["python_loop_steps_per_s"]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{args.envs} games of {args.scenario} against random, {args.steps} steps each (the batch on all cores)")
    print(f"python loop over gym envs: {rows['python_loop_steps_per_s']:8.0f} learner steps/s")
    print(f"tde.Batch:                 {rows['batch_steps_per_s']:8.0f} learner steps/s ({rows['speed_up']:.1f}x)")


if __name__ == "__main__":
    main()
