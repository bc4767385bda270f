# The WebAssembly module: Embind glue + the engine, as an ES module factory (dist/crossattn.mjs)
# and its binary (dist/crossattn.wasm). Included from the top CMakeLists.txt under emcmake.
#
# With CROSSATTN_WASM_ENGINE=threads (everything compiled with -pthread, see bindings/build-wasm.sh) it is
# the pthreads engine instead, dist/crossattn-mt.{mjs,wasm,worker.js}, for pages that are cross-origin
# isolated: its products run on up to 4 threads (cpp/kernels/parallel.h). The pool of Workers is
# started with the module, so that threads start synchronously (Emscripten cannot otherwise start
# one before returning to the event loop); a thread asked for beyond it fails (EAGAIN) rather than
# deadlocking, and the engine runs on the threads it got.
# With CROSSATTN_WASM_ENGINE=relaxed (compiled with -mrelaxed-simd by LLVM 19) it is the relaxed
# SIMD engine, dist/crossattn-relaxed.{mjs,wasm}, linked at -O1 so that Binaryen never reads it.
set(CROSSATTN_WASM_ENGINE simd128 CACHE STRING "Which engine build: simd128, threads or relaxed")
set_property(CACHE CROSSATTN_WASM_ENGINE PROPERTY STRINGS simd128 threads relaxed)
set(CROSSATTN_WASM_THREADS OFF)
set(engine_name crossattn)
set(exceptions -fwasm-exceptions)
if(CROSSATTN_WASM_ENGINE STREQUAL "threads")
  set(CROSSATTN_WASM_THREADS ON)
  set(engine_name crossattn-mt)
  set(exceptions -fexceptions)  # see bindings/build-wasm.sh
elseif(CROSSATTN_WASM_ENGINE STREQUAL "relaxed")
  set(engine_name crossattn-relaxed)
  # After CMAKE_CXX_FLAGS' -O3 (the last -O counts); bench/CMakeLists.txt links its kernel bench so too.
  set(CROSSATTN_RELAXED_LINK_OPTIONS -O1 -sWASM_BIGINT)
elseif(NOT CROSSATTN_WASM_ENGINE STREQUAL "simd128")
  message(FATAL_ERROR "CROSSATTN_WASM_ENGINE must be simd128, threads or relaxed, not ${CROSSATTN_WASM_ENGINE}")
endif()
add_executable(crossattn-wasm bindings/embind.cc bindings/options_json.cc bindings/result_value.cc bindings/warm_up.cc)
target_link_libraries(crossattn-wasm PRIVATE crossattn)
set_target_properties(crossattn-wasm PROPERTIES OUTPUT_NAME ${engine_name} SUFFIX ".mjs"
                      RUNTIME_OUTPUT_DIRECTORY ${CROSSATTN_DIST_DIR})
if(CROSSATTN_WASM_THREADS)
  target_link_options(crossattn-wasm PRIVATE
    -pthread
    "SHELL:-sPTHREAD_POOL_SIZE=Math.max(1,Math.min(3,(navigator.hardwareConcurrency||2)-1))"
    -sPTHREAD_POOL_SIZE_STRICT=2)
endif()
target_link_options(crossattn-wasm PRIVATE
  --bind
  ${exceptions}
  -sMODULARIZE=1
  -sEXPORT_ES6=1
  -sEXPORT_NAME=createCrossattnModule
  # Node runs the web build as well: the wrapper passes wasmBinary, so no loader branch that
  # needs require() or __dirname (absent in ES modules) is ever taken.
  -sENVIRONMENT=web,worker
  -sFILESYSTEM=0
  -sALLOW_MEMORY_GROWTH=1
  -sINITIAL_MEMORY=33554432
  -sTOTAL_STACK=1048576
  -sDYNAMIC_EXECUTION=0)
if(CROSSATTN_WASM_ENGINE STREQUAL "relaxed")
  target_link_options(crossattn-wasm PRIVATE ${CROSSATTN_RELAXED_LINK_OPTIONS})
  # Without Binaryen the function names stay (0.9 MB): dropped. LLVM's target_features section stays:
  # it names relaxed-simd, which is how bindings/src/engine.ts tells this build from the others.
  add_custom_command(TARGET crossattn-wasm POST_BUILD
    COMMAND /usr/lib/llvm-19/bin/llvm-objcopy --remove-section=name ${CROSSATTN_DIST_DIR}/${engine_name}.wasm)
endif()
