#!/bin/bash
# race3: the fast network's policy taught by sibling rollouts with common dice (--search race:...):
# a quarter of the learner's decisions race its 4 best actions over 8 rounds of paired scripted rollouts,
# each candidate's advantage over the others its policy target; from generation 2, every game against
# scripted or generation 2, Adam carried across rounds, a gate every third round (H1 52%).
cd /work/main
exec nice -n 5 /work/runs/s14/tde2 fast loop --run /work/runs/s14/race3 --start checkpoints/fast/gen-002.fnet \
  --rounds 40 --games 1000 --shard-games 125 --search race:rounds=8,width=4 --temperature 0.5 --full-share 0.25 \
  --value-mix 0 --opponent-share 1 --other-nodes 0.05 --window 2 --steps 100 --batch 2048 --lr 0.0005 \
  --gate-p1 0.52 --gate-look 400 --gate-max 4000 --gate-every 3 --carry-optimiser --prune-data \
  --promote-to /work/runs/s14/promoted --seed 1403 --quiet
