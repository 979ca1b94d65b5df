#!/bin/bash
# The levels against scripted, each alone on the two cores, boards and crews drawn per game.
# hard (0.1 s a move): 100 games at each of seeds 301 and 302; strongest (0.5 s): 40 at each of seeds 303 and 304.
NET=checkpoints/fast/gen-002.fnet
tde arena --agents "mcts-fast-root:ms=100,rollout=scripted,width=4,net=$NET,scripted" --games 20 --boards all --crews all --seed 301 --out hard_seed301
tde arena --agents "mcts-fast-root:ms=100,rollout=scripted,width=4,net=$NET,scripted" --games 20 --boards all --crews all --seed 302 --out hard_seed302
tde arena --agents "mcts-fast-root:ms=500,rollout=scripted,width=4,net=$NET,scripted" --games 8 --boards all --crews all --seed 303 --out strongest_seed303
# The same search at 20 ms a move: 500 games at each of seeds 222 and 223.
for seed in 222 223; do
tde arena --agents "mcts-fast-root:ms=20,rollout=scripted,width=4,net=$NET,scripted" --games 100 --boards all --crews all --seed $seed --out root20_seed$seed
done
# strongest at a second seed: 40 games at seed 304.
tde arena --agents "mcts-fast-root:ms=500,rollout=scripted,width=4,net=$NET,scripted" --games 8 --boards all --crews all --seed 304 --out strongest_seed304
