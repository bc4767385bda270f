#!/usr/bin/env bash
# Builds the WebAssembly engines into dist/ with Debian's Emscripten (-msimd128):
#   crossattn.{mjs,wasm}: one thread, WebAssembly exceptions (-fwasm-exceptions);
#   crossattn-mt.{mjs,wasm,worker.js}: pthreads, for cross-origin isolated pages; every object of it,
#     SentencePiece included, compiled with -pthread. Its C++ exceptions are Emscripten's JavaScript-
#     based ones (-fexceptions): with -pthread, Emscripten 3.1.6 (LLVM 14) builds -fwasm-exceptions
#     code whose catch blocks never catch (a throw leaves the module as a WebAssembly.Exception, at
#     -O0 and -O3 alike; tests/e2e/threads.test.js checks that errors arrive typed).
#   crossattn-relaxed.{mjs,wasm}: one thread, with relaxed SIMD's int8 dot product and fused
#     multiply-add (-mrelaxed-simd; cpp/kernels/simd128.h). Emscripten 3.1.6's LLVM 14 cannot emit
#     them, so it compiles with Debian's LLVM 19 (clang-19, lld-19), which Emscripten runs when
#     EM_LLVM_ROOT names a folder of links under LLVM 14's names (build/llvm19-for-emscripten).
#     Debian's Binaryen 108 cannot read the relaxed opcodes, so nothing runs it: the link is at -O1
#     (Emscripten runs Binaryen's optimizer from -O2), with WASM_BIGINT and Emscripten's Python
#     reader of the module's metadata (no wasm-emscripten-finalize); the code is LLVM's -O3.
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
build() {  # build() DIR EXTRA_FLAGS ENGINE (simd128, threads or relaxed)
  local flags="-O3 -msimd128 -DNDEBUG $2"
  bash "$root/tools/stale-cmake-cache.sh" "$root/build/$1"
  emcmake cmake -S "$root" -B "$root/build/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" -DCROSSATTN_WASM_ENGINE="$3" \
    -DSENTENCEPIECE_SOURCE_DIR="${spm_src%/}" -DCROSSATTN_DIST_DIR="$root/dist" > "$root/build/$1-configure.log"
  cmake --build "$root/build/$1" --target crossattn-wasm -j"$(nproc)"
}

# LLVM 19's tools under the names Emscripten 3.1.6 calls (clang-14, wasm-ld-14, ...).
llvm19_for_emscripten() {
  local links=$root/build/llvm19-for-emscripten tool
  if [ ! -x /usr/lib/llvm-19/bin/clang ] || [ ! -x /usr/lib/llvm-19/bin/wasm-ld ]; then
    echo "build-wasm.sh: the relaxed SIMD engine needs Debian's clang-19 and lld-19; 'bash tools/dev.sh build' installs them" >&2
    exit 1
  fi
  mkdir -p "$links"
  for tool in clang clang++ wasm-ld llvm-ar llvm-ranlib llvm-nm llvm-objcopy llvm-dwarfdump llvm-strip; do
    ln -sfn "/usr/lib/llvm-19/bin/$tool" "$links/$tool-14"
  done
  echo "$links"
}

build wasm -fwasm-exceptions simd128
build wasm-mt "-pthread -fexceptions" threads
EM_LLVM_ROOT=$(llvm19_for_emscripten) EMCC_READ_METADATA=python build wasm-relaxed "-fwasm-exceptions -mrelaxed-simd" relaxed
ls -l "$root"/dist/crossattn.{mjs,wasm} "$root"/dist/crossattn-mt.{mjs,wasm,worker.js} "$root"/dist/crossattn-relaxed.{mjs,wasm}
