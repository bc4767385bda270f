#!/usr/bin/env bash
# Trains several runs side by side on one GPU inside a fixed wall-clock budget (a device lease), then
# packs what must travel back: for each run its compact checkpoint (the last weights in fp16, the run's
# state and vocabulary: train.py --resume-from, --init-from and export.py --weights read it) and its
# logs, one tar per run split into 15 MiB parts (the device returns files of at most 16 MiB, and about
# 64 MiB in all: a fp16 compact of a 10M-parameter model is 19 MiB, so three runs come back from one
# call; with more, a second call on the still-warm machine naming the runs left out, with the same
# MINUTES, brings them: each resumes, stops at once and is packed again).
#
#   bash tools/train-gpu.sh MINUTES PREPARED DEST RUN...
#     MINUTES   training time of each run in all (train.py --max-minutes, counted over resumes: a run
#               resumed with the same MINUTES stops at once; loading the data comes on top)
#     PREPARED  folder with the prepared corpora and the BLEU sets (train.py's --data and --prepared)
#     DEST      where NAME.tar.aa, NAME.tar.ab, ... go for each run (the device's $OUT)
#     RUN       NAME:CONFIG[:SECTION.KEY=VALUE,...[:START]]  trains CONFIG into build/train/NAME with those
#               --set; START, a compact checkpoint, is where the run begins: resume:PATH continues its
#               schedule (train.py --resume-from; models/compact_from_model.py makes one from a shipped
#               model file), init:PATH starts a new schedule from its weights (--init-from)
#
# The last weights travel, not an average: while a short run still improves fast, its evaluations
# 1,000 updates apart differ by points of BLEU (a 6+2 run: FLORES 12.61 at 3,000 updates, 15.73 at 5,000).
#
# Unpack here with: for t in DEST/*.tar.aa; do cat "${t%aa}"* | tar -x -C build/gpu; done
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
  IFS=: read -r name config sets how from <<< "$run"
  args=()
  for s in ${sets//,/ }; do args+=(--set "$s"); done
  if [[ -n ${from:-} ]]; then
    case $how in
      resume) args+=(--resume-from "$from") ;;
      init) args+=(--init-from "$from") ;;
      *) echo "train-gpu.sh: $run: START is resume:PATH or init:PATH" >&2; exit 2 ;;
    esac
  fi
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
for run in "$@"; do
  name=${run%%:*}
  tar -C "$pack" -cf - $(cd "$pack" && ls "$name".*) | split -b 15M - "$dest/$name.tar."
done
ls -l "$dest"
total=$(du -sm "$dest" | cut -f1)
if (( total > 60 )); then
  echo "warning: $total MiB to return, more than the device returns in one call (about 64 MiB): the runs" \
       "whose parts are left out can be packed again by a second call on the warm machine" >&2
fi
exit $status
