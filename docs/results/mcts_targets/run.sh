#!/usr/bin/env bash
# Issue 39's MCTS targets: two pairs at equal time (20 ms a move), 60 games per scenario
# (300 an arena) at each of seeds 1 and 2, boards and crews drawn per game, sides swapped.
#   t3: MCTS with generation 2's rollouts and ranker against MCTS with scripted ones;
#   t4: the same pair, each with the bootstrap value network choosing its root candidates
#       (the second is today's strongest agent).
# All four arenas run at once, one game thread each: give each a core of its own where you can.
# Usage: docs/results/mcts_targets/run.sh TDE OUT
set -u
tde=$1; out=$2
gen=checkpoints/learned/gen-002.json
net=checkpoints/bootstrap_value
learned="mcts:ms=20,rollout=learned:$gen,width=4"
scripted="mcts:ms=20,rollout=scripted,width=4"
mkdir -p "$out"
run() { # name seed agents
  "$tde" arena --agents "$3" --games 60 --seed "$2" --boards all --crews all --threads 1 \
    --out "$out/$1" >"$out/$1.log" 2>&1
  echo "$1 exit $? games $(wc -l <"$out/$1/games.jsonl")"
}
run t3-seed1 1 "$learned,$scripted" &
run t3-seed2 2 "$learned,$scripted" &
run t4-seed1 1 "$learned,net=$net,$scripted,net=$net" &
run t4-seed2 2 "$learned,net=$net,$scripted,net=$net" &
wait
