#!/usr/bin/env bash
# Builds the package's dist/: both WebAssembly engines, then the TypeScript, each only when something
# it reads has changed since it last succeeded. tools/dev.sh runs it, and so do `npm run build` and
# `npm pack` (prepack), so a packed or served clone that is already built is not built again.
#   bash tools/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

# A build step runs only when something it reads has changed since it last succeeded, so that a
# second start with nothing changed serves in about a second. Its stamp (build/NAME.stamp) is dated
# from the start of its last successful run; the step is up to date while its outputs exist and no
# file under its inputs is newer than the stamp (folders aside: a copy dates them anew). A clone moved
# whole keeps its dates, so it stays built; a fresh clone has no stamps, so it builds.
WASM_INPUTS=(CMakeLists.txt bench/CMakeLists.txt cpp bindings/*.cc bindings/*.h bindings/*.cmake bindings/build-wasm.sh
             .cache/sentencepiece)
WASM_OUTPUTS=(dist/crossattn.mjs dist/crossattn.wasm dist/crossattn-mt.mjs dist/crossattn-mt.wasm dist/crossattn-mt.worker.js
              dist/crossattn-relaxed.mjs dist/crossattn-relaxed.wasm)
TS_INPUTS=(bindings/src bindings/tsconfig.json package.json docs/performance.json
           tools/performance-summary.js tools/build-convert-worker.js)
TS_OUTPUTS=(dist/index.js dist/cli.js dist/crossattn.d.mts dist/crossattn-mt.d.mts dist/crossattn-relaxed.d.mts
            dist/performance-summary.json dist/convert-worker.js)

# stamped NAME OUTPUTS_ARRAY INPUTS_ARRAY COMMAND...: runs COMMAND unless NAME is up to date.
stamped() {
  local stamp=build/$1.stamp
  local -n outputs=$2 inputs=$3
  local have_outputs=1 output
  for output in "${outputs[@]}"; do [ -e "$output" ] || have_outputs=0; done
  if [ "$have_outputs" = 1 ] && [ -f "$stamp" ] && [ -z "$(find "${inputs[@]}" ! -type d -newer "$stamp" -print -quit)" ]; then
    echo "up to date: nothing it reads changed since it last ran ($stamp)"
    return
  fi
  mkdir -p build
  touch "$stamp.new"
  "${@:4}"
  mv "$stamp.new" "$stamp"
}

echo "== WebAssembly build"
stamped wasm WASM_OUTPUTS WASM_INPUTS bash bindings/build-wasm.sh
echo "== TypeScript build"
stamped ts TS_OUTPUTS TS_INPUTS npm run --silent build:ts
