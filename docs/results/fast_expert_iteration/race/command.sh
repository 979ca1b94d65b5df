#!/bin/bash
# The race search (race-fast) on generation 2 against scripted: 16 rounds of paired scripted rollouts
# a move (about 0.1 s alone on a core), the network's 4 best actions, boards and crews drawn per game.
tde arena --agents "race-fast:rounds=16,width=4,net=checkpoints/fast/gen-002.fnet,scripted" --games 40 \
  --boards all --crews all --seed 403 --out race16_scripted_s403
# A second seed, 100 games:
tde arena --agents "race-fast:rounds=16,width=4,net=checkpoints/fast/gen-002.fnet,scripted" --games 20 \
  --boards all --crews all --seed 404 --out race16_scripted_s404
# The same with z=1.5, 100 games of the same seed:
tde arena --agents "race-fast:rounds=16,width=4,z=1.5,net=checkpoints/fast/gen-002.fnet,scripted" --games 20 \
  --boards all --crews all --seed 403 --out race16z15_scripted_s403
# How much common dice narrow the comparisons (per scenario, printed by tde bench):
tde bench --net none --fast none --batches 1 --games 5
