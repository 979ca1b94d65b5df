#!/bin/bash
# pg13: the opponent-targeted policy-gradient line continued from generation 2 with half the
# learning rate (pg12 plateaued at lr 0.0004 after its promotion), a gate at H1 52% up to 6,000 games.
cd /work/main
exec nice -n 5 /work/runs/s13/tde fast loop --run /work/runs/s13/pg13 --start checkpoints/fast/gen-002.fnet \
  --rounds 80 --games 6000 --shard-games 750 --search pg:lambda=0.95 --temperature 1 --full-share 0.6 \
  --opponent-share 1 --other-nodes 0.05 --window 1 --steps 100 --batch 8192 --lr 0.0002 \
  --gate-p1 0.52 --gate-look 400 --gate-max 6000 --gate-every 3 --carry-optimiser --prune-data \
  --promote-to /work/runs/s13/promoted --seed 1311 --quiet
