"""Masked policy gradient over the factored actions: a pointer-style linear policy scores
each legal action by the sum of its recipe's terms (``State.action_recipes``: a weight per
(policy plane, cell) and per global logit, the outputs a network head would give), and
REINFORCE trains it on ``tde.Batch`` games played in Rust, side A of a tiny skirmish against
``random``. The learned policy is then played against ``random`` on fresh games beside a
uniformly random player on the same games.

    python factored_pg.py --games 600 --eval 200
"""

from __future__ import annotations

import argparse
import os
from typing import Dict, List, Tuple

import numpy as np

import tde

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TINY = dict(
    scenario="skirmish",
    board=os.path.join(DATA, "duel_yard.board"),
    crews=[os.path.join(DATA, "duel_a.toml"), os.path.join(DATA, "duel_b.toml")],
)


class PointerPolicy:
    """Logits of the legal actions from their recipes: one weight per (policy plane, cell)
    and one per global logit, an action's logit the sum of its terms' weights."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.spatial = np.zeros(tde.POLICY_PLANES * cells)
        self.globals = np.zeros(tde.POLICY_GLOBALS)

    def terms(self, recipes: Dict[str, np.ndarray], rows: slice) -> Tuple[np.ndarray, np.ndarray]:
        """The spatial and global weight indices of the actions in ``rows`` (-1: no term)."""
        planes, cells = recipes["planes"][rows], recipes["cells"][rows]
        spatial = np.where(planes >= 0, planes * self.cells + cells, -1)
        return spatial, recipes["globals"][rows]

    def logits(self, spatial: np.ndarray, glob: np.ndarray) -> np.ndarray:
        """Each action's logit."""
        out = np.where(spatial >= 0, self.spatial[np.maximum(spatial, 0)], 0.0).sum(axis=1)
        return out + np.where(glob >= 0, self.globals[np.maximum(glob, 0)], 0.0).sum(axis=1)

    def update(self, spatial: np.ndarray, glob: np.ndarray, probs: np.ndarray, k: int, step: float) -> None:
        """Move the weights by ``step`` along the gradient of log pi(action ``k``): the
        chosen action's terms up, every action's down by its probability."""
        coefficient = -probs
        coefficient[k] += 1.0
        for t in range(spatial.shape[1]):
            used = spatial[:, t] >= 0
            np.add.at(self.spatial, spatial[used, t], step * coefficient[used])
            used = glob[:, t] >= 0
            np.add.at(self.globals, glob[used, t], step * coefficient[used])


def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits."""
    z = np.exp(x - x.max())
    return z / z.sum()


def play(policy: PointerPolicy, games: int, envs: int, seed: int, learn: bool, lr: float = 0.1) -> List[float]:
    """Play ``games`` games of the policy (side A) against ``random`` on a batch of ``envs``;
    with ``learn``, REINFORCE updates the policy after each game. The games' returns."""
    batch = tde.Batch(envs, opponent="random", side=0, seed=seed, **TINY)
    rng = np.random.default_rng(seed)
    trajectories: List[list] = [[] for _ in range(envs)]
    returns: List[float] = []
    baseline = 0.0
    while len(returns) < games:
        recipes = batch.action_recipes()
        offsets = recipes["offsets"]
        actions = np.empty(envs, dtype=np.int64)
        for i in range(envs):
            rows = slice(offsets[i], offsets[i + 1])
            spatial, glob = policy.terms(recipes, rows)
            probs = softmax(policy.logits(spatial, glob))
            k = int(rng.choice(len(probs), p=probs))
            actions[i] = recipes["actions"][rows][k]
            if learn:
                trajectories[i].append((spatial, glob, probs, k))
        rewards, ended = batch.step(actions)
        for i in np.flatnonzero(ended):
            reward = float(rewards[i])
            returns.append(reward)
            if learn:
                advantage = reward - baseline
                baseline += 0.05 * (reward - baseline)
                for spatial, glob, probs, k in trajectories[i]:
                    policy.update(spatial, glob, probs, k, lr * advantage)
                trajectories[i] = []
    return returns[:games]


def win_rate(returns: List[float]) -> float:
    """Wins over games, a draw counting half."""
    return float(np.mean([(r + 1) / 2 for r in returns]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="training games")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games, each player")
    parser.add_argument("--envs", type=int, default=8, help="games played at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args()
    (_, depth, width), _ = tde.Batch(1, **TINY).observation_shape()
    policy = PointerPolicy(depth * width)
    trained = play(policy, args.games, args.envs, args.seed, learn=True, lr=args.lr)
    print(f"training: {len(trained)} games, win rate {win_rate(trained[: len(trained) // 2]):.1%} in the first half, "
          f"{win_rate(trained[len(trained) // 2 :]):.1%} in the second")
    evaluation_seed = args.seed + 1_000_003
    learned = win_rate(play(policy, args.eval, args.envs, evaluation_seed, learn=False))
    uniform = win_rate(play(PointerPolicy(depth * width), args.eval, args.envs, evaluation_seed, learn=False))
    print(f"evaluation against random, {args.eval} games each: learned {learned:.1%}, uniform {uniform:.1%}")


if __name__ == "__main__":
    main()
