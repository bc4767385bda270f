// The kernel bench's main as Emscripten 3.1.6's JavaScript calls it, for the relaxed SIMD build only
// (bench/CMakeLists.txt). LLVM 15 and later name a wasm `main(int, char**)` __main_argc_argv and no
// longer add the `main` alias that LLVM 14 did for Emscripten; LLVM 19 compiles the relaxed build.
extern "C" int __main_argc_argv(int argc, char** argv);

extern "C" __attribute__((export_name("main"))) int crossattn_main(int argc, char** argv) {
  return __main_argc_argv(argc, argv);
}
