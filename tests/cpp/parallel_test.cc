// The fork-join pool (kernels/parallel.h) and the products that use it: every range covered once,
// and a product computed on several threads equal bit for bit to the same product on one.
#include "kernels/parallel.h"

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/gemm.h"
#include "test_util.h"

namespace crossattn {
namespace {

// Restores one thread when a test ends, whatever it set.
struct ThreadCount {
  explicit ThreadCount(int n) { set_thread_count(n); }
  ~ThreadCount() { set_thread_count(1); }
};

TEST(Parallel, EveryIndexRunsOnceOnSeveralThreads) {
  ThreadCount threads(3);
  ASSERT_EQ(thread_count(), 3);
  for (int n : {1, 2, 3, 7, 100, 70000}) {
    std::vector<std::atomic<int>> hits(n);
    std::atomic<int> calls{0};
    parallel_for(n, kMinParallelWork, [&](int begin, int end) {
      calls.fetch_add(1);
      for (int i = begin; i < end; ++i) hits[i].fetch_add(1);
    });
    for (int i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n " << n << " index " << i;
    EXPECT_EQ(calls.load(), std::min(n, 12)) << "n " << n << ": 4 chunks per thread";
  }
}

// Chunks long enough that a helper, once awake, claims some: the work does not all stay on the caller.
TEST(Parallel, HelpersTakeChunks) {
  ThreadCount threads(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> helped{false};
  for (int run = 0; run < 200 && !helped; ++run) {
    parallel_for(8, kMinParallelWork, [&](int, int) {
      if (std::this_thread::get_id() != caller) helped = true;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    });
  }
  EXPECT_TRUE(helped);
}

TEST(Parallel, SmallWorkStaysOnTheCaller) {
  ThreadCount threads(2);
  std::thread::id ran_on;
  int calls = 0;
  parallel_for(64, kMinParallelWork - 1, [&](int begin, int end) {
    ++calls;
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 64);
    ran_on = std::this_thread::get_id();
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(Parallel, ThreadCountIsClampedAndCanShrink) {
  EXPECT_EQ(set_thread_count(0), 1);
  EXPECT_EQ(set_thread_count(kMaxThreads + 5), kMaxThreads);
  EXPECT_EQ(set_thread_count(2), 2);
  EXPECT_EQ(set_thread_count(1), 1);
  EXPECT_EQ(thread_count(), 1);
}

// Many short runs in a row: a helper that missed a wake-up or ran a stale job would show here.
TEST(Parallel, ManyRunsInARowAllComplete) {
  ThreadCount threads(2);
  int64_t total = 0;
  std::vector<int64_t> partial(2);
  for (int run = 0; run < 20000; ++run) {
    partial.assign(2, 0);
    parallel_for(2, kMinParallelWork, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) partial[i] += run;
    });
    total += partial[0] + partial[1];
  }
  EXPECT_EQ(total, int64_t{20000} * 19999);
}

std::vector<float> random_vector(size_t n, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 0.5f);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// The output layer's shape at batch 1 and an encoder feed-forward's at 30 source tokens.
TEST(Parallel, ProductsOnTwoThreadsEqualOneThreadBitForBit) {
  std::mt19937 rng(5);
  struct Shape { int m, k, n; };
  for (Shape s : {Shape{1, 256, 8000}, Shape{30, 256, 1024}, Shape{4, 1024, 259}}) {
    const auto w = random_vector(static_cast<size_t>(s.n) * s.k, rng), x = random_vector(s.m * s.k, rng),
               bias = random_vector(s.n, rng);
    std::vector<int8_t> wq(w.size());
    for (size_t i = 0; i < w.size(); ++i) wq[i] = static_cast<int8_t>(std::lround(std::clamp(w[i] * 60.0f, -127.0f, 127.0f)));
    std::vector<float> scale(s.n, 1.0f / 60.0f);
    for (const PackedLinear& layer : {PackedLinear::from_f32(w.data(), s.n, s.k, bias.data()),
                                      PackedLinear::from_int8(wq.data(), scale.data(), s.n, s.k, bias.data())}) {
      std::vector<float> one(static_cast<size_t>(s.m) * s.n), two(one.size());
      set_thread_count(1);
      layer.apply(x.data(), s.m, s.k, one.data(), s.n, Epilogue::kRelu);
      ThreadCount threads(2);
      layer.apply(x.data(), s.m, s.k, two.data(), s.n, Epilogue::kRelu);
      ASSERT_EQ(one, two) << (layer.quantized() ? "int8 " : "fp32 ") << s.m << "x" << s.k << "x" << s.n;
    }
  }
}

// Whole translations, fp32 and int8, greedy and beam: the same text, scores and attention on 2 threads.
TEST(Parallel, TranslationsOnTwoThreadsEqualOneThread) {
  const char* texts[] = {"A man in a blue shirt is standing on a ladder and cleaning a window.",
                         "Two dogs are running through the snow in a park near the river."};
  for (const std::string& path : {testing::model_path(), testing::int8_model_path()}) {
    const Translator translator = Translator::from_file(path);
    for (int beam : {1, 4}) {
      TranslateOptions options;
      options.beam_size = beam;
      options.attention = true;
      for (const char* text : texts) {
        set_thread_count(1);
        const Translation one = translator.translate(text, options);
        ThreadCount threads(2);
        const Translation two = translator.translate(text, options);
        EXPECT_EQ(one.text, two.text) << path << " beam " << beam;
        EXPECT_EQ(one.token_log_probs, two.token_log_probs) << path << " beam " << beam;
        EXPECT_EQ(one.cross_attention, two.cross_attention) << path << " beam " << beam;
      }
    }
  }
}

}  // namespace
}  // namespace crossattn
