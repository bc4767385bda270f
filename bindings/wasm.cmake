# The WebAssembly module: Embind glue + the engine, as an ES module factory (dist/crossattn.mjs)
# and its binary (dist/crossattn.wasm). Included from the top CMakeLists.txt under emcmake.
#
# With CROSSATTN_WASM_THREADS (everything compiled with -pthread, see bindings/build-wasm.sh) it is
# the pthreads engine instead, dist/crossattn-mt.{mjs,wasm,worker.js}, for pages that are cross-origin
# isolated: its products run on up to 4 threads (cpp/kernels/parallel.h). The pool of Workers is
# started with the module, so that threads start synchronously (Emscripten cannot otherwise start
# one before returning to the event loop); a thread asked for beyond it fails (EAGAIN) rather than
# deadlocking, and the engine runs on the threads it got.
option(CROSSATTN_WASM_THREADS "Build the pthreads engine (crossattn-mt)" OFF)
set(engine_name crossattn)
set(exceptions -fwasm-exceptions)
if(CROSSATTN_WASM_THREADS)
  set(engine_name crossattn-mt)
  set(exceptions -fexceptions)  # see bindings/build-wasm.sh
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
