#!/bin/bash
# Claim runs (planned in advance, read once at the end): queue $1 of two.
cd /work/wt-enc
B=/work/wt-enc/pilot/tde-claim
R=docs/results/encounter_dm/raw
DM=search:rollouts=16,width=6,rounds=1
P=search:rollouts=16,width=4,rounds=1
run() { # file, args...
  f=$1; shift
  echo "tde encounter arena $*" > $R/$f.tmp
  nice -n 5 $B encounter arena "$@" 2>/dev/null >> $R/$f.tmp && mv $R/$f.tmp $R/$f
}
if [ "$1" = A ]; then base=10000; pseeds="25000 25100 25200"; else base=15000; pseeds="25300 25400 25500"; fi
for i in 0 1 2 3 4 5 6 7; do
  s=$((base + 250*i))
  run seed${base}_chunk0$i.txt --party scripted --dm scripted,$DM --games 250 --seed $s
done
for s in $pseeds; do
  run seed25000_search_party_$s.txt --party $P --dm scripted,$DM --games 100 --seed $s
done
echo done > pilot/claim_$1.done
