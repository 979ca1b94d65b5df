"""REINFORCE with numpy only: a softmax policy over the legal actions, one weight per policy
index (a table), learns to play side A of a tiny skirmish against `random` in the Gymnasium
environment. The win rate climbs within a few hundred games.

    python reinforce.py --episodes 600
"""

from __future__ import annotations

import argparse
import os
from typing import List, Tuple

import numpy as np

import tde.gym

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TINY = dict(
    scenario="skirmish",
    board=os.path.join(DATA, "duel_yard.board"),
    crews=[os.path.join(DATA, "duel_a.toml"), os.path.join(DATA, "duel_b.toml")],
)


def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits."""
    z = np.exp(x - x.max())
    return z / z.sum()


def run(episodes: int, seed: int = 0, lr: float = 0.1, report: int = 100) -> List[float]:
    """Train for `episodes` games; the mean return of each block of `report` games."""
    env = tde.gym.make(opponent="random", **TINY)
    theta = np.zeros(env.action_space.n)  # one logit per policy index
    rng = np.random.default_rng(seed)
    baseline, returns, means = 0.0, [], []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 100_003 + episode)
        trajectory: List[Tuple[np.ndarray, int]] = []
        done, reward = False, 0.0
        while not done:
            legal = np.asarray(info["legal_actions"])
            k = rng.choice(len(legal), p=softmax(theta[legal]))
            trajectory.append((legal, k))
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            done = terminated or truncated
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for legal, k in trajectory:  # grad of log softmax: one-hot minus the probabilities
            grad = -softmax(theta[legal])
            grad[k] += 1.0
            theta[legal] += lr * advantage * grad
        returns.append(reward)
        if (episode + 1) % report == 0 or episode + 1 == episodes:
            block = returns[-report:]
            means.append(float(np.mean(block)))
            wins = sum(r > 0 for r in block) / len(block)
            print(f"games {episode + 1:5d}: mean return {means[-1]:+.2f}, win rate {wins:.0%}", flush=True)
    return means


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--report", type=int, default=100)
    args = parser.parse_args()
    run(args.episodes, args.seed, args.lr, args.report)
