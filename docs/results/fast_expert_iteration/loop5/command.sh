#!/bin/bash
# Session of 2026-11-29 (evening). The round's data were played first into runs/loop4 (the
# same settings with a version-1 base shard, which the trainer refused) and copied into
# runs/loop5/round-001/data: the data do not depend on the base data.
cd "$(git rev-parse --show-toplevel)"
exec tde fast loop --run runs/loop5 --rounds 1 --games 300 --shard-games 50 \
  --search mcts:iters=300,rollout=scripted,width=4 --full-share 0.15 --value-mix 0 --window 1 \
  --base-data runs/s7/prox-learned/shard-0001.fdata --steps 600 --lr 0.0002 \
  --gate-p1 0.53 --gate-max 2000 --seed 10 --quiet
