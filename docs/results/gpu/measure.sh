#!/bin/bash
# GPU measurements on a lent device machine (docs/results/gpu/README.md): a start-up probe,
# `tde bench` on the GPU, then a self-play run with a learner and ACTORS actor processes all
# on the GPU for DUR seconds; figures and run files land in $OUT.
#
# Prepared here, in the repository root:
#   cargo build --release -p tde-cli --features vulkan
#   mkdir -p .gpu && strip -o /tmp/tde target/release/tde && gzip -1 -c /tmp/tde > .gpu/tde.gz
#   cp docs/results/gpu/measure.sh .gpu/run.sh
#   (and .gl/ with Debian's Vulkan loader packages, as the device tool's notes describe)
# Run there with `.gpu` and `.gl` carried:  bash .gpu/run.sh [DUR] [ACTORS] [DEVICE]
# (environment: BENCHT, the bench's time limit; GAMES, games per actor shard; SKIPBENCH=1;
# AUTOTUNE, cubecl's autotune level).
set -u
gunzip -c .gpu/tde.gz > /tmp/tde; T=/tmp/tde
chmod +x $T
export XDG_RUNTIME_DIR=/tmp CUBECL_AUTOTUNE_LEVEL=${AUTOTUNE:-minimal}
S=$(date +%s)
el(){ echo "[$(( $(date +%s) - S ))s] $*"; }
DUR=${1:-150}
ACTORS=${2:-14}
D=${3:-vulkan}
if ! ldconfig -p | grep -q libvulkan; then for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f $ICD ] && export VK_DRIVER_FILES=$ICD
{
nvidia-smi -L; nproc; ldconfig -p | grep libvulkan; echo "icd: $(ls $ICD)"
el probe
if ! timeout 60 $T --device $D scenarios > /dev/null; then el "probe failed"; ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d 2>&1; ldd $T | head; exit 1; fi
if [ -z "${SKIPBENCH:-}" ]; then
# In stages, smallest first, so a stage that runs out of time still leaves the ones before.
el bench-gpu-small
timeout 90 $T --device $D bench --games 1 --batches 1 --net-batch 64 --mcts mcts:iters=20,depth=5 --json > $OUT/bench-gpu-small.json 2> $OUT/bench-gpu-small.err; echo rc=$?
el bench-gpu
timeout ${BENCHT:-200} $T --device $D bench --games 1 --batches 3 --net-batch 1024 --mcts mcts:iters=20,depth=5 --json > $OUT/bench-gpu.json 2> $OUT/bench-gpu.err; echo rc=$?
tail -3 $OUT/bench-gpu.err
cat $OUT/bench-gpu.json
fi
el selfplay
R=runs/gpu1
mkdir -p runs
sed -i "s/^parallel_games = .*/parallel_games = ${GAMES:-16}/" configs/training/selfplay-gpu.toml
RAYON_NUM_THREADS=2 $T --device $D train --config configs/training/selfplay-gpu.toml --run $R --learner --quiet > $R.learner.log 2>&1 &
for i in $(seq 50); do [ -f $R/config.toml ] && break; sleep 0.2; done
for i in $(seq 0 $((ACTORS-1))); do RAYON_NUM_THREADS=1 $T --device $D selfplay --run $R --actor a$i --quiet > $R.actor$i.log 2>&1 & done
for k in $(seq $((DUR/30))); do sleep 30; el "shards $(ls $R/shards 2>/dev/null | wc -l) $(tail -c 300 $R/metrics.jsonl 2>/dev/null | tail -1)"; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; done
pkill -f "selfplay --run" ; sleep 3; pkill -f "train --config"; sleep 2
el collected
tail -n 2 $R.learner.log $R.actor0.log
cat $R/learner.json 2>/dev/null
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/run-meta.tgz runs/gpu1.*.log runs/gpu1/config.toml runs/gpu1/learner.json runs/gpu1/metrics.jsonl runs/gpu1/actors runs/gpu1/checkpoints/latest $(ls -d runs/gpu1/checkpoints/*/ 2>/dev/null | tail -2) 2>/dev/null
tar czf $OUT/run-shards.tgz runs/gpu1/shards 2>/dev/null
ls -la $OUT
