#!/usr/bin/env python3
"""Score of the first agent of each arena in this folder, per seed and over both seeds.

Reads every ARENA/games.jsonl given on the command line and prints the first agent's score
(wins + draws/2) with a 95% Wilson interval, per arena, per scenario and pooled.
Usage: summarise.py ARENA_DIR... (the arenas of one pair at different seeds)
"""
import json
import math
import sys
from collections import defaultdict


def wilson(score: float, n: int) -> tuple[float, float]:
    z = 1.96
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def line(label: str, scores: list[float]) -> str:
    n = len(scores)
    mean = sum(scores) / n
    lo, hi = wilson(mean, n)
    return f"{label:<28} {n:>5} games  {100 * mean:5.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%)"


def main() -> None:
    pooled: list[float] = []
    by_scenario: dict[str, list[float]] = defaultdict(list)
    first = None
    for folder in sys.argv[1:]:
        scores = []
        for row in map(json.loads, open(f"{folder}/games.jsonl")):
            first = first or row["a"]
            score = row["score_a"] if row["a"] == first else 1 - row["score_a"]
            scores.append(score)
            by_scenario[row["scenario"]].append(score)
        pooled += scores
        print(line(folder.rstrip("/").split("/")[-1], scores))
    print(line("both seeds", pooled))
    for scenario, scores in by_scenario.items():
        print(line(f"  {scenario}", scores))
    print(f"score of: {first}")


if __name__ == "__main__":
    main()
