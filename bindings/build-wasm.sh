#!/usr/bin/env bash
# Builds the WebAssembly engine into dist/ with Debian's Emscripten (-msimd128, wasm exceptions).
# SentencePiece is compiled from Debian's source package, which tools/dev.sh fetches once into
# .cache/sentencepiece (never committed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$root/.cache
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}   # Emscripten's optimizer needs Debian's node modules

spm_src=$(ls -d "$cache"/sentencepiece/sentencepiece-*/ 2>/dev/null | head -n 1 || true)
if [ -z "$spm_src" ]; then
  echo "build-wasm.sh: SentencePiece's source is not in .cache/sentencepiece; 'bash tools/dev.sh build' installs it" >&2
  exit 1
fi

mkdir -p "$root/build"
flags="-O3 -msimd128 -fwasm-exceptions -DNDEBUG"
emcmake cmake -S "$root" -B "$root/build/wasm" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
  -DSENTENCEPIECE_SOURCE_DIR="${spm_src%/}" -DCROSSATTN_DIST_DIR="$root/dist" > "$root/build/wasm-configure.log"
cmake --build "$root/build/wasm" --target crossattn-wasm -j"$(nproc)"
ls -l "$root/dist/crossattn.mjs" "$root/dist/crossattn.wasm"
