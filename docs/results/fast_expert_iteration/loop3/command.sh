#!/bin/bash
cd "$(git rev-parse --show-toplevel)"
exec tde fast loop --run runs/loop3 --rounds 1 --games 1200 --shard-games 100 \
  --search sims=128,root=gumbel,considered=8,rescale=0,chance=8,noise=1 --full-share 0.35 \
  --value-mix 0.5 --window 1 --base-data runs/gen0-data/shard-0001.fdata,runs/gen0-data/shard-0002.fdata \
  --steps 2000 --batch 512 --lr 0.0003 --gate-p1 0.53 --gate-look 200 --gate-max 2000 --promote-to runs/loop3-promoted --seed 3 --quiet
