// Fork-join over a range of independent work items, for the matrix products of one translator: the
// range is cut into a few chunks per thread, the caller and helper threads claim chunks in turn
// (one compare-and-swap each), and the caller returns once every chunk is done. A helper the system
// does not schedule for a while delays at most the chunk it claimed; the caller takes the rest.
// Native builds and the pthreads wasm build (-pthread, __EMSCRIPTEN_PTHREADS__) start helpers; the
// single-thread wasm build has none and runs every range on the caller, so its code is unchanged.
//
// Helpers spin on the run word for up to 2 ms before sleeping on a condition variable (a
// spin-then-block barrier, as OpenMP runtimes do): a decode step makes a dozen products of
// 3–80 µs each with serial work between them, and waking a sleeping thread costs 50–100 µs in a
// browser, so helpers stay awake through a translation and sleep between translations.
#pragma once

#include <cstdint>
#include <type_traits>

namespace crossattn {

/// The most threads a pool runs (caller included).
constexpr int kMaxThreads = 8;

/// Sets the number of threads that products use, caller included, in [1, kMaxThreads]; 1 runs
/// everything on the caller. Starts or stops helpers; call it between translations, not during one.
/// In a build without threads (the single-thread wasm) any value behaves as 1. @return the number now in use.
int set_thread_count(int n);

/// The number of threads products use (1 until set_thread_count says otherwise).
int thread_count();

/// A callable `void(int begin, int end)` by reference, without std::function's allocation: valid
/// while the callable it refers to lives (parallel_for's duration).
class RangeFn {
 public:
  template <typename Fn, typename = std::enable_if_t<!std::is_same_v<std::decay_t<Fn>, RangeFn>>>
  RangeFn(Fn& fn) : object_(&fn), call_([](void* o, int begin, int end) { (*static_cast<Fn*>(o))(begin, end); }) {}
  void operator()(int begin, int end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, int, int);
};

/// Runs fn(begin, end) over contiguous ranges that cover [0, n) once, on whichever threads claim
/// them, and returns when all are done. `work` is the caller's estimate of the whole range in multiply-adds: below
/// kMinParallelWork it all runs on the caller, since a fork-join costs a few µs. fn must not throw.
void parallel_for(int n, int64_t work, RangeFn fn);

/// parallel_for on a callable held here (a lambda written at the call).
template <typename Fn>
void parallel_for(int n, int64_t work, Fn&& fn) {
  parallel_for(n, work, RangeFn(fn));
}

/// Multiply-adds under which parallel_for stays on the caller: a fork-join costs 1–2 µs on two
/// cores (the activations, the run word and half the output change caches), as long as a 1 x 256 x
/// 256 int8 product takes alone (2.9 µs natively). Larger ones gain (`int8_gops_2_threads` of
/// bench/kernels.cc, native, 2 cores: 1 x 256 x 512 1.55x, 1 x 256 x 768 1.66x, 1 x 256 x 8000 1.93x).
constexpr int64_t kMinParallelWork = 1 << 17;

}  // namespace crossattn
