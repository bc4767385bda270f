#!/usr/bin/env bash
# Builds the WebAssembly engines into dist/ with Debian's Emscripten (-msimd128):
#   crossattn.{mjs,wasm}: one thread, WebAssembly exceptions (-fwasm-exceptions);
#   crossattn-mt.{mjs,wasm,worker.js}: pthreads, for cross-origin isolated pages; every object of it,
#     SentencePiece included, compiled with -pthread. Its C++ exceptions are Emscripten's JavaScript-
#     based ones (-fexceptions): with -pthread, Emscripten 3.1.6 (LLVM 14) builds -fwasm-exceptions
#     code whose catch blocks never catch (a throw leaves the module as a WebAssembly.Exception, at
#     -O0 and -O3 alike; tests/e2e/threads.test.js checks that errors arrive typed).
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
build() {  # build() DIR EXTRA_FLAGS THREADS
  local flags="-O3 -msimd128 -DNDEBUG $2"
  bash "$root/tools/stale-cmake-cache.sh" "$root/build/$1"
  emcmake cmake -S "$root" -B "$root/build/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" -DCROSSATTN_WASM_THREADS="$3" \
    -DSENTENCEPIECE_SOURCE_DIR="${spm_src%/}" -DCROSSATTN_DIST_DIR="$root/dist" > "$root/build/$1-configure.log"
  cmake --build "$root/build/$1" --target crossattn-wasm -j"$(nproc)"
}
build wasm -fwasm-exceptions OFF
build wasm-mt "-pthread -fexceptions" ON
ls -l "$root"/dist/crossattn.{mjs,wasm} "$root"/dist/crossattn-mt.{mjs,wasm,worker.js}
