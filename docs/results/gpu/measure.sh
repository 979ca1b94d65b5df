#!/bin/bash
# GPU measurements on a lent device machine (docs/results/gpu/README.md), in stages that each
# leave their figures in $OUT even when a later one runs out of time:
#   1. a start-up probe of the GPU;
#   2. `tde bench --network-only` on the GPU (inference at batch 1, 64 and NB, training, searches
#      batched 16 and NB at once, and the first pass of each shape: kernel compilation), with
#      the same bench on two of that machine's CPU cores beside it for comparison;
#   3. self-play for DUR seconds: a learner and ACTORS actor processes on the GPU, each actor
#      playing GAMES games at once.
#
# Prepared here, in the repository root:
#   cargo build --release -p tde-cli --features vulkan
#   mkdir -p .gpu && strip -o /tmp/tde target/release/tde && gzip -1 -c /tmp/tde > .gpu/tde.gz
#   cp docs/results/gpu/measure.sh .gpu/run.sh
#   (and .gl/ with Debian's Vulkan loader packages, as the device tool's notes describe)
# Run there with `.gpu` and `.gl` carried:  bash .gpu/run.sh [DUR] [ACTORS] [DEVICE]
# (environment: NB, the large batch, 256; BENCHT, the GPU bench's time limit, 170; GAMES,
# games per actor shard, 64; AUTOTUNE, cubecl's autotune level, minimal; SKIPBENCH=1).
set -u
gunzip -c .gpu/tde.gz > /tmp/tde; T=/tmp/tde
chmod +x $T
export XDG_RUNTIME_DIR=/tmp CUBECL_AUTOTUNE_LEVEL=${AUTOTUNE:-minimal}
S=$(date +%s)
# Pin to cores where taskset exists.
ts(){ if command -v taskset > /dev/null; then taskset -c "$@"; else shift; "$@"; fi; }
el(){ echo "[$(( $(date +%s) - S ))s] $*"; }
DUR=${1:-150}
ACTORS=${2:-2}
D=${3:-vulkan}
NB=${NB:-256}
if ! ldconfig -p | grep -q libvulkan; then for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f $ICD ] && export VK_DRIVER_FILES=$ICD
{
nvidia-smi -L; nproc
el probe
if ! timeout 60 $T --device $D scenarios > /dev/null; then el "probe failed"; ldd $T | head; exit 1; fi
el probed
if [ -z "${SKIPBENCH:-}" ]; then
  # The CPU bench on two cores (this project's reference machine has two) beside the GPU one,
  # which keeps cores 0-3 for its own host work.
  RAYON_NUM_THREADS=2 ts 4,5 timeout 150 $T bench --network-only --batches 3 --net-batch $NB --json \
    > $OUT/bench-cpu.json 2> $OUT/bench-cpu.err &
  CPU=$!
  CUBECL_DEBUG_LOG=/tmp/cubecl.log ts 0-3 timeout ${BENCHT:-170} $T --device $D bench --network-only \
    --batches 3 --net-batch $NB --json > $OUT/bench-gpu.json 2> $OUT/bench-gpu.err; echo "gpu bench rc=$?"
  cat $OUT/bench-gpu.err; cat $OUT/bench-gpu.json; echo
  wait $CPU; echo "cpu bench rc=$?"; cat $OUT/bench-cpu.err; cat $OUT/bench-cpu.json; echo
  # What the GPU compiled and tuned: counts of the log's lines by their first words.
  [ -f /tmp/cubecl.log ] && { wc -l /tmp/cubecl.log; cut -c1-40 /tmp/cubecl.log | sort | uniq -c | sort -rn | head -15; gzip -c /tmp/cubecl.log | head -c 15000000 > $OUT/cubecl.log.gz; }
fi
el selfplay
R=runs/gpu1
mkdir -p runs
sed -i "s/^parallel_games = .*/parallel_games = ${GAMES:-64}/" configs/training/selfplay-gpu.toml
RAYON_NUM_THREADS=2 $T --device $D train --config configs/training/selfplay-gpu.toml --run $R --learner --quiet > $R.learner.log 2>&1 &
for i in $(seq 50); do [ -f $R/config.toml ] && break; sleep 0.2; done
for i in $(seq 0 $((ACTORS-1))); do RAYON_NUM_THREADS=1 $T --device $D selfplay --run $R --actor a$i --quiet > $R.actor$i.log 2>&1 & done
for k in $(seq $((DUR/30))); do sleep 30; el "shards $(ls $R/shards 2>/dev/null | wc -l) $(tail -c 300 $R/metrics.jsonl 2>/dev/null | tail -1)"; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; done
pkill -f "selfplay --run" ; sleep 3; pkill -f "train --config"; sleep 2
el collected
tail -n 2 $R.learner.log $R.actor0.log
cat $R/learner.json 2>/dev/null
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/run-meta.tgz runs/gpu1.*.log runs/gpu1/config.toml runs/gpu1/learner.json runs/gpu1/metrics.jsonl runs/gpu1/actors 2>/dev/null
ls -la $OUT
