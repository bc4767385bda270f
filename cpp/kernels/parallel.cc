// The fork-join pool of parallel.h.
#include "kernels/parallel.h"

#include <algorithm>

#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define CROSSATTN_THREADS 1
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>
#endif

namespace crossattn {

#ifdef CROSSATTN_THREADS
namespace {

// How long a helper spins on the run word before it sleeps: longer than the serial work between
// two products of a decode step (attention, layer norm, the search: ~0.1–0.5 ms), so that it stays
// awake through a translation (waking a sleeping thread costs 50–100 µs in a browser), and short
// beside a pause between translations.
constexpr auto kSpinTime = std::chrono::milliseconds(2);

// Chunks per thread a run is cut into: threads claim chunks one at a time, so a thread the system
// does not schedule for a while holds up at most the chunk it claimed, never a whole share.
constexpr int kChunksPerThread = 4;

// The run word: [run id : 32][chunks : 16][next chunk : 16]. A chunk is claimed by a compare-and-swap
// of the whole word, so a helper that wakes late, into a later run, claims nothing of the run it saw.
constexpr uint64_t word(uint64_t run, uint64_t chunks, uint64_t next) { return run << 32 | chunks << 16 | next; }
constexpr uint64_t run_of(uint64_t w) { return w >> 32; }
constexpr int chunks_of(uint64_t w) { return static_cast<int>(w >> 16 & 0xffff); }
constexpr int next_of(uint64_t w) { return static_cast<int>(w & 0xffff); }

class Pool {
 public:
  ~Pool() { resize(1); }

  int size() const { return static_cast<int>(helpers_.size()) + 1; }

  void resize(int threads) {
    if (threads == size()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      wake_.notify_all();
    }
    for (std::thread& t : helpers_) t.join();
    helpers_.clear();
    stopping_ = false;
    // A helper starts from the run of now, not of when its thread first runs: a run started in
    // between would otherwise pass it by.
    const uint64_t now = run_of(state_.load(std::memory_order_acquire));
    for (int i = 1; i < threads; ++i) {
      try {
        helpers_.emplace_back([this, now] { serve(now); });
      } catch (const std::system_error&) {
        break;  // no thread to be had (the wasm build's Worker pool is exhausted): run on those we have
      }
    }
  }

  void run(int n, const RangeFn& fn) {
    const int chunks = std::min({n, size() * kChunksPerThread, 0xffff});
    n_ = n;
    fn_ = &fn;
    done_.store(0, std::memory_order_relaxed);
    const uint64_t id = run_of(state_.load(std::memory_order_relaxed)) + 1;
    state_.store(word(id, chunks, 0), std::memory_order_seq_cst);  // publishes n_, fn_ and done_
    // A helper counts itself in sleeping_ before it reads state_ a last time and waits; so either it
    // sees this run, or this sees it sleeping and wakes it (both seq_cst).
    if (sleeping_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    work(id);
    while (done_.load(std::memory_order_acquire) != chunks) {
    }
  }

 private:
  // Claims and runs chunks of run `id` while it has unclaimed ones.
  void work(uint64_t id) {
    uint64_t w = state_.load(std::memory_order_acquire);
    for (;;) {
      if (run_of(w) != id || next_of(w) >= chunks_of(w)) return;
      if (!state_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      // Claimed chunk c of this run: the run cannot end before done_ counts it, so n_ and fn_ hold.
      const int64_t c = next_of(w), chunks = chunks_of(w), n = n_;
      (*fn_)(static_cast<int>(n * c / chunks), static_cast<int>(n * (c + 1) / chunks));
      done_.fetch_add(1, std::memory_order_release);
    }
  }

  void serve(uint64_t seen) {
    for (;;) {
      uint64_t now = seen;
      const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
      for (int spin = 1; now == seen; ++spin) {
        now = run_of(state_.load(std::memory_order_acquire));
        if (spin % 1024 == 0 && std::chrono::steady_clock::now() > deadline) break;
      }
      if (now == seen) {
        std::unique_lock<std::mutex> lock(mutex_);
        sleeping_.fetch_add(1, std::memory_order_seq_cst);
        wake_.wait(lock, [&] { return stopping_ || run_of(state_.load(std::memory_order_seq_cst)) != seen; });
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
        if (stopping_) return;
        now = run_of(state_.load(std::memory_order_acquire));
      }
      seen = now;
      work(now);
    }
  }

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;                 // guarded by mutex_
  std::atomic<uint64_t> state_{0};        // the run word (above)
  std::atomic<int> done_{0};              // chunks of the current run finished
  std::atomic<int> sleeping_{0};          // helpers waiting on wake_ (or about to)
  // The current run: written before state_ publishes it, read by whoever claims one of its chunks.
  const RangeFn* fn_ = nullptr;
  int n_ = 0;
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

int set_thread_count(int n) {
  pool().resize(std::clamp(n, 1, kMaxThreads));
  return pool().size();
}

int thread_count() { return pool().size(); }

void parallel_for(int n, int64_t work, RangeFn fn) {
  if (n <= 0) return;
  if (n == 1 || work < kMinParallelWork || pool().size() == 1) {
    fn(0, n);
    return;
  }
  pool().run(n, fn);
}

#else  // the single-thread wasm build

int set_thread_count(int) { return 1; }
int thread_count() { return 1; }
void parallel_for(int n, int64_t, RangeFn fn) {
  if (n > 0) fn(0, n);
}

#endif

}  // namespace crossattn
