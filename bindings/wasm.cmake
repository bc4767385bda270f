# The WebAssembly module: Embind glue + the engine, as an ES module factory (dist/crossattn.mjs)
# and its binary (dist/crossattn.wasm). Included from the top CMakeLists.txt under emcmake.
add_executable(crossattn-wasm bindings/embind.cc)
target_link_libraries(crossattn-wasm PRIVATE crossattn)
set_target_properties(crossattn-wasm PROPERTIES OUTPUT_NAME crossattn SUFFIX ".mjs"
                      RUNTIME_OUTPUT_DIRECTORY ${CROSSATTN_DIST_DIR})
target_link_options(crossattn-wasm PRIVATE
  --bind
  -fwasm-exceptions
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
