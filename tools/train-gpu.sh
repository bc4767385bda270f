#!/usr/bin/env bash
# Trains several runs side by side on one GPU inside a fixed wall-clock budget (a device lease), then
# packs what must travel back: for each run its compact checkpoint (the last weights in fp16, the run's
# state and vocabulary: train.py --resume-from, --init-from and export.py --weights read it) and its
# logs, as one tar split into 15 MiB parts (the device returns files of at most 16 MiB).
#
#   bash tools/train-gpu.sh MINUTES PREPARED DEST RUN...
#     MINUTES   training time of each run (train.py --max-minutes; loading the data comes on top)
#     PREPARED  folder with the prepared corpora and the BLEU sets (train.py's --data and --prepared)
#     DEST      where runs.tar.aa, runs.tar.ab, ... go (the device's $OUT)
#     RUN       NAME:CONFIG[:SECTION.KEY=VALUE,...]  trains CONFIG into build/train/NAME with those --set
#
# The last weights travel, not an average: while a short run still improves fast, its evaluations
# 1,000 updates apart differ by points of BLEU (a 6+2 run: FLORES 12.61 at 3,000 updates, 15.73 at 5,000).
#
# Unpack here with: cat DEST/runs.tar.* | tar -x -C build/gpu
# Small models leave most of a GPU idle at one run (the Python step loop is the bottleneck), so the
# runs share it; each gets nproc / runs CPU threads. PYTHON names the interpreter (default python3), AMP
# the precision (default bf16; none on a CPU without native bf16).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=$1 prepared=$2 dest=$3
shift 3
python=${PYTHON:-python3}
threads=$(( $(nproc) / $# > 0 ? $(nproc) / $# : 1 ))
pack=$(mktemp -d)
pids=()
for run in "$@"; do
  IFS=: read -r name config sets <<< "$run"
  args=()
  for s in ${sets//,/ }; do args+=(--set "$s"); done
  mkdir -p "build/train/$name"
  "$python" models/train.py --config "$config" --data "$prepared" --prepared "$prepared" --out "build/train/$name" \
    --compact "build/train/$name/compact.pt" --max-minutes "$minutes" --checkpoint-minutes 2 \
    --threads "$threads" --amp "${AMP:-bf16}" "${args[@]}" > "build/train/$name/stdout.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
for run in "$@"; do
  name=${run%%:*}
  tail -n 3 "build/train/$name/stdout.log"
  cp "build/train/$name/stdout.log" "$pack/$name.stdout.log"
  cp "build/train/$name/train.log.jsonl" "$pack/$name.log.jsonl" 2>/dev/null || true  # none before the first evaluation
  cp "build/train/$name/compact.pt" "$pack/$name.pt" || status=1
done
mkdir -p "$dest"
tar -C "$pack" -cf - . | split -b 15M - "$dest/runs.tar."
ls -l "$dest"
exit $status
