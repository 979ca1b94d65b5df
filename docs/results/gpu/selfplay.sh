#!/bin/bash
# Self-play on a GPU machine as docs/results/gpu/README.md recommends: the learner on the GPU
# (burn's wgpu backend over Vulkan), the actors on CPU cores (ONNX Runtime, one core each).
# Prepared here, in the repository root:
#   cargo build --release -p tde-cli --features vulkan,onnx
#   mkdir -p .gpu && strip -o /tmp/tde target/release/tde && gzip -1 -c /tmp/tde > .gpu/tde.gz
#   gzip -1 -c "$ORT_DYLIB_PATH" > .gpu/libonnxruntime.so.gz
#   cp docs/results/gpu/selfplay.sh .gpu/run2.sh   (and .gl/ as for measure.sh)
# Run there with `.gpu` and `.gl` carried:  bash .gpu/run2.sh [DUR] [ACTORS] [GAMES]
set -u
gunzip -c .gpu/tde.gz > /tmp/tde; T=/tmp/tde; chmod +x $T
gunzip -c .gpu/libonnxruntime.so.gz > /tmp/libonnxruntime.so
export ORT_DYLIB_PATH=/tmp/libonnxruntime.so XDG_RUNTIME_DIR=/tmp CUBECL_AUTOTUNE_LEVEL=minimal
S=$(date +%s)
el(){ echo "[$(( $(date +%s) - S ))s] $*"; }
DUR=${1:-420}; ACTORS=${2:-14}; GAMES=${3:-16}; LD=${LD:-vulkan}
ts(){ if command -v taskset > /dev/null; then taskset -c "$@"; else shift; "$@"; fi; }
if ! ldconfig -p | grep -q libvulkan; then for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f $ICD ] && export VK_DRIVER_FILES=$ICD
R=runs/gpu2
{
nvidia-smi -L; nproc
el probe
timeout 60 $T --device $LD scenarios > /dev/null || { el "$LD probe failed"; ldd $T | head; exit 1; }
timeout 60 $T --device onnx scenarios > /dev/null || { el "onnx probe failed"; exit 1; }
el probed
mkdir -p runs
sed -i "s/^parallel_games = .*/parallel_games = $GAMES/; s/^min_positions = .*/min_positions = 2000/" configs/training/selfplay-gpu.toml
RAYON_NUM_THREADS=2 ts 0,1 $T --device $LD train --config configs/training/selfplay-gpu.toml --run $R --learner --quiet > $R.learner.log 2>&1 &
for i in $(seq 50); do [ -f $R/config.toml ] && break; sleep 0.2; done
for i in $(seq 0 $((ACTORS-1))); do RAYON_NUM_THREADS=1 ts $((i+2)) $T --device onnx:1 selfplay --run $R --actor a$i --quiet > $R.actor$i.log 2>&1 & done
for k in $(seq $((DUR/30))); do sleep 30; el "shards $(ls $R/shards 2>/dev/null | wc -l) $(tail -n 1 $R/metrics.jsonl 2>/dev/null | cut -c1-400)"; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; done
pkill -f "selfplay --run"; sleep 3; pkill -f "train --config"; sleep 2
el collected
tail -n 3 $R.learner.log $R.actor0.log
cat $R/learner.json 2>/dev/null
} 2>&1 | tee $OUT/log.txt
cp $R/metrics.jsonl $OUT/ 2>/dev/null
tar czf $OUT/run-meta.tgz runs/gpu2.*.log $R/config.toml $R/learner.json $R/metrics.jsonl $R/actors 2>/dev/null
ls -la $OUT
