// Kernel microbenchmark: GFLOP/s of our matrix products (kernels/gemm.h) for the shapes the shipped
// model really multiplies, next to Eigen's product on the same shapes and to this machine's limits,
// measured in the same run: the SIMD128 compute peak for fp32 (a tight multiply + add loop on
// registers) and for int8 (i32x4.dot_i16x8_s + add, what the int8 kernel issues), and the read
// bandwidth over a buffer as large as the shape's weights (so that a shape whose weights stay in a
// cache is measured against that cache, a cold one against memory). Each product then gets a
// roofline fraction (Williams et al. 2009): the time its bound allows, max(operations / compute
// peak, weight bytes / read bandwidth), over the time it took; 1 is the machine's limit. Built
// natively (SSE4.1) and as WebAssembly (bench/CMakeLists.txt); prints one JSON object. Run by
// `npm run bench` (bench/run.js) with the dimensions of the model it benchmarks. Where the build has
// threads (natively), each shape's int8 product is timed on 2 threads too (kernels/parallel.h; null
// elsewhere).
//
// Each shape runs alone, so its weights stay in whichever cache holds them between calls. A decode
// step does not: it streams every decoder layer's weights and the output layer's once per token, more
// than an L2 holds. So the whole step is measured too ("decode_step"): the products of one target
// token at batch 1 in the decoder's order, each layer with its own weights, against its roofline
// bound with the read bandwidth over a buffer of the whole step's weight bytes. Issue 19's goal is
// this step at half its bound or better; npm run bench (bench/model.js) also turns the bound into a
// ceiling on the tokens/s of decoding one token at a time with the whole output layer. The step's
// median batch is printed beside its fastest: a translation's tokens/s is an average over its whole
// run, so the ratio of the two says how much of a ratio to the ceiling this host's contention takes.
//
//   kernels [--quick] [--d-model D] [--d-ff F] [--vocab V] [--decoder-layers L]
//           (defaults 256, 512, 8000, 6)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "kernels/gemm.h"
#include "kernels/parallel.h"
#include "kernels/simd128.h"

namespace {

using Clock = std::chrono::steady_clock;
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Seconds per call of fn: the fastest of `batches` timed batches of calls lasting ~min_s / 5 each.
// The fastest, not the median, because this host is shared: another tenant's work only ever adds
// time, and it adds more to a product that streams its weights through the caches than to the
// register-only peak loops, so medians understate the products against their bounds. One product
// timed in one process both ways (general-en-de's decode shapes, wasm, 2026-11-26): medians of 0.1 s batches
// 26-38 GOP/s, the fastest of short batches 39-53 GOP/s; the peak loop's two agree within a few percent.
// `all`, where given, receives every batch's seconds per call (a decode step's median, below).
template <typename Fn>
double seconds_per_call(Fn&& fn, double min_s, int batches, std::vector<double>* all = nullptr) {
  const double batch_s = min_s / 5;
  int calls = 1;
  for (;;) {  // calibrate
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) fn();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s >= batch_s) break;
    calls *= 2;
  }
  double best = 0.0;
  for (int r = 0; r < batches; ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) fn();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count() / calls;
    if (all != nullptr) all->push_back(s);
    if (r == 0 || s < best) best = s;
  }
  return best;
}

// The most multiplies and adds per second one core issues with 128-bit SIMD and no FMA, in equal
// numbers as a GEMM needs them: 5 chains m = m * a and 5 chains s = s + b, interleaved. Each step
// depends on the last of its chain (nothing can be hoisted out of the loop), 5 chains per kind
// cover the latency, and 12 registers fit x86's 16 (which V8 also maps v128 locals to). In the
// relaxed SIMD build, 10 chains of f32x4.relaxed_madd, which its fp32 kernel issues.
double simd_peak_gflops(double min_s, int batches) {
  using namespace crossattn::simd;
  constexpr int kChains = 5, kIters = 1 << 16;
  volatile float seed = 1.0f;
  float sink = 0.0f;
  const double s = seconds_per_call(
      [&] {
        const f32x4 a = splat(seed * 0.99999f), b = splat(seed * 1e-6f);
        f32x4 m[kChains], acc[kChains];
        for (int j = 0; j < kChains; ++j) m[j] = acc[j] = splat(seed + static_cast<float>(j));
        for (int i = 0; i < kIters; i += 8) {  // unrolled so that loop overhead is negligible
          for (int u = 0; u < 8; ++u) {
            for (int j = 0; j < kChains; ++j) {
#if defined(CROSSATTN_RELAXED_SIMD)
              // Relaxed SIMD: 10 chains of f32x4.relaxed_madd, as the fp32 kernel issues them.
              m[j] = madd(m[j], a, b);
              acc[j] = madd(acc[j], a, b);
#else
              m[j] = mul(m[j], a);
              acc[j] = add(acc[j], b);
#endif
            }
          }
        }
        f32x4 total = m[0];
        for (int j = 0; j < kChains; ++j) total = add(add(total, m[j]), acc[j]);
        sink += sum(total);
      },
      min_s, batches);
  if (sink == 1.2345f) std::puts("");
#if defined(CROSSATTN_RELAXED_SIMD)
  return kChains * 2 * 8.0 * kIters / s / 1e9;  // a multiply-add is 2 flops
#else
  return kChains * 2 * 4.0 * kIters / s / 1e9;
#endif
}

// The most int8 multiply-adds per second with i32x4.dot_i16x8_s (SSE4.1 pmaddwd), as the int8
// kernel issues them: 10 chains acc = acc + dot(acc, b), interleaved (each dot feeds on its chain's
// last sum, so nothing can be hoisted). One dot and one add are 8 multiplies and 8 adds: 16 ops,
// counted as the int8 products' GOP/s count them (2 per multiply-add). In the relaxed SIMD build,
// 10 chains of i32x4.relaxed_dot_i8x16_i7x16_add_s, 16 multiply-adds each, as gemm_int8_dot.cc
// issues them.
double dot_peak_gops(double min_s, int batches) {
  using namespace crossattn::simd;
  constexpr int kChains = 10, kIters = 1 << 16;
  volatile int32_t seed = 3;
  int32_t sink = 0;
  const double s = seconds_per_call(
      [&] {
        const i16x8 b = narrow_i32(splat_i32(seed), splat_i32(seed + 1));
        i32x4 acc[kChains];
        for (int j = 0; j < kChains; ++j) acc[j] = splat_i32(seed + j);
        for (int i = 0; i < kIters; i += 4) {
          for (int u = 0; u < 4; ++u) {
#if defined(CROSSATTN_RELAXED_SIMD)
            for (int j = 0; j < kChains; ++j) acc[j] = dot_i8_add(acc[j], b, acc[j]);
#else
            for (int j = 0; j < kChains; ++j) acc[j] = add_i32(acc[j], dot_i16(acc[j], b));
#endif
          }
        }
        i32x4 total = acc[0];
        for (int j = 1; j < kChains; ++j) total = add_i32(total, acc[j]);
        sink += static_cast<int32_t>(sum(reinterpret_f32(total)) != 0.0f);
      },
      min_s, batches);
  if (sink == 12345) std::puts("");
#if defined(CROSSATTN_RELAXED_SIMD)
  return kChains * 32.0 * kIters / s / 1e9;  // 16 multiply-adds per dot
#else
  return kChains * 16.0 * kIters / s / 1e9;
#endif
}

// Read bandwidth in GB/s over a buffer of `bytes` (rounded up to 64), summed with 4 SIMD
// accumulators: what streaming that many bytes of weights can reach, from whichever level of the
// memory hierarchy holds them after the previous pass.
double read_gbps(size_t bytes, double min_s, int batches) {
  using namespace crossattn::simd;
  std::vector<float> buffer((bytes + 63) / 64 * 16, 1.0f);
  float sink = 0.0f;
  const double s = seconds_per_call(
      [&] {
        f32x4 acc[4] = {splat(0.0f), splat(0.0f), splat(0.0f), splat(0.0f)};
        for (size_t i = 0; i < buffer.size(); i += 16) {
          for (int u = 0; u < 4; ++u) acc[u] = add(acc[u], load(buffer.data() + i + 4 * u));
        }
        sink += sum(add(add(acc[0], acc[1]), add(acc[2], acc[3])));
      },
      min_s, batches);
  if (sink == 1.2345f) std::puts("");
  return buffer.size() * 4.0 / s / 1e9;
}

struct Shape {
  const char* name;
  int m, k, n;
};

// One shape's measurements, the best over the rounds so far: the machine's limits measured right
// before the shape (GFLOP/s, GOP/s, GB/s: the highest) and its products (seconds per call: the lowest).
struct Timing {
  double peak = 0, dot_peak = 0, f32_read = 0, int8_read = 0;
  double f32 = INFINITY, int8 = INFINITY, int8_two = INFINITY, eigen = INFINITY;
};

// Symmetric per-row int8 quantization of w [n, k] (as models/quantize.py does): wq and scale [n].
void quantize(const std::vector<float>& w, int n, int k, std::vector<int8_t>& wq, std::vector<float>& scale) {
  wq.resize(w.size());
  scale.resize(n);
  for (int j = 0; j < n; ++j) {
    const float* row = w.data() + static_cast<size_t>(j) * k;
    float amax = 0;
    for (int i = 0; i < k; ++i) amax = std::max(amax, std::fabs(row[i]));
    scale[j] = amax / 127.0f;
    for (int i = 0; i < k; ++i) wq[static_cast<size_t>(j) * k + i] = static_cast<int8_t>(std::lround(row[i] / scale[j]));
  }
}

// Measures the machine's limits for a product with `weights` weights (fp32 peak, int8 dot peak, read
// bandwidth over its fp32 and its int8 bytes) and keeps the highest in `best`.
void measure_limits(size_t weights, double min_s, int batches, Timing& best) {
  best.peak = std::max(best.peak, simd_peak_gflops(min_s, batches));
  best.dot_peak = std::max(best.dot_peak, dot_peak_gops(min_s, batches));
  best.f32_read = std::max(best.f32_read, read_gbps(weights * sizeof(float), min_s, batches));
  best.int8_read = std::max(best.int8_read, read_gbps(weights, min_s, batches));
}

// Roofline (Williams et al. 2009) of `ops` operations on `bytes` of weights at `peak` GOP/s and
// `read` GB/s: the time the bound allows, in seconds, and which bound it is (the larger time).
struct Bound {
  double seconds;
  const char* kind;
};
Bound roofline(double ops, double bytes, double peak, double read) {
  const double compute_s = ops / (peak * 1e9), memory_s = bytes / (read * 1e9);
  return compute_s >= memory_s ? Bound{compute_s, "compute"} : Bound{memory_s, "memory"};
}

// Measures shape s once (each figure the fastest of `batches` batches) and keeps the better of
// this and `best`'s figures. Its weights and inputs are drawn from `seed`, the same every round.
void measure(const Shape& s, unsigned seed, double min_s, int batches, Timing& best) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.05f);
  std::vector<float> w(static_cast<size_t>(s.n) * s.k), x(static_cast<size_t>(s.m) * s.k), bias(s.n);
  std::vector<float> y(static_cast<size_t>(s.m) * s.n);
  for (float& v : w) v = normal(rng);
  for (float& v : x) v = normal(rng) * 20.0f;
  std::vector<int8_t> wq;
  std::vector<float> scale;
  quantize(w, s.n, s.k, wq, scale);
  const auto f32 = crossattn::PackedLinear::from_f32(w.data(), s.n, s.k, bias.data());
  const auto i8 = crossattn::PackedLinear::from_int8(wq.data(), scale.data(), s.n, s.k, bias.data());
  const Matrix ew = Eigen::Map<Matrix>(w.data(), s.n, s.k).transpose(), ex = Eigen::Map<Matrix>(x.data(), s.m, s.k);
  Matrix ey(s.m, s.n);
  measure_limits(w.size(), min_s, batches, best);
  const auto fastest = [&](double& kept, auto&& fn) { kept = std::min(kept, seconds_per_call(fn, min_s, batches)); };
  fastest(best.f32, [&] { f32.apply(x.data(), s.m, s.k, y.data(), s.n, crossattn::Epilogue::kStore); });
  fastest(best.int8, [&] { i8.apply(x.data(), s.m, s.k, y.data(), s.n, crossattn::Epilogue::kStore); });
  if (crossattn::set_thread_count(2) == 2) {  // on 2 threads, where there are threads
    fastest(best.int8_two, [&] { i8.apply(x.data(), s.m, s.k, y.data(), s.n, crossattn::Epilogue::kStore); });
  }
  crossattn::set_thread_count(1);
  fastest(best.eigen, [&] { ey.noalias() = ex * ew; });
}

// One target token's products at batch 1, in the decoder's order: in each layer self-attention's
// fused Q, K, V [D -> 3D] and its output [D -> D], cross-attention's query and output [D -> D]
// (its keys and values are computed once per sentence, not per token), the feed-forward block's
// [D -> F] and [F -> D]; then the output layer [D -> V]. Each product has its own weights. The
// feed-forward block's second product gets a dense input here (the engine skips the zeros of a
// ReLU's output, InputZeros::kSkip), so every product reads all its weights, as the bound counts.
class DecodeStep {
 public:
  DecodeStep(int d_model, int d_ff, int vocab, int layers) {
    std::mt19937 rng(1000);
    std::normal_distribution<float> normal(0.0f, 0.05f);
    const auto add = [&](int n, int k) {
      std::vector<float> w(static_cast<size_t>(n) * k), bias(n, 0.0f);
      for (float& v : w) v = normal(rng);
      std::vector<int8_t> wq;
      std::vector<float> scale;
      quantize(w, n, k, wq, scale);
      f32_.push_back(crossattn::PackedLinear::from_f32(w.data(), n, k, bias.data()));
      int8_.push_back(crossattn::PackedLinear::from_int8(wq.data(), scale.data(), n, k, bias.data()));
      weights_ += static_cast<double>(n) * k;
      y_.resize(std::max(y_.size(), static_cast<size_t>(n)));
    };
    for (int layer = 0; layer < layers; ++layer) {
      add(3 * d_model, d_model);                      // self-attention Q, K, V
      add(d_model, d_model);                          // self-attention output
      add(d_model, d_model);                          // cross-attention query
      add(d_model, d_model);                          // cross-attention output
      add(d_ff, d_model);                             // feed-forward in
      add(d_model, d_ff);                             // feed-forward out
    }
    add(vocab, d_model);                              // output layer
    x_.resize(std::max(d_model, d_ff));
    for (float& v : x_) v = normal(rng) * 20.0f;
  }

  /// The step's products, fp32 or int8 weights, each y [1, out] = x [1, in] W^T + b.
  void run(bool int8) {
    for (const auto& p : int8 ? int8_ : f32_) p.apply(x_.data(), 1, p.in(), y_.data(), p.out(), crossattn::Epilogue::kStore);
  }
  /// Weights multiplied per step (the step's multiply-adds), a count.
  double weights() const { return weights_; }

 private:
  std::vector<crossattn::PackedLinear> f32_, int8_;
  std::vector<float> x_, y_;
  double weights_ = 0;
};

// Every batch's seconds per call of the decode step, over all rounds, fp32 and int8.
struct StepBatches {
  std::vector<double> f32, int8;
};

// The median of `seconds` (not empty), reordering it.
double median(std::vector<double>& seconds) {
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return seconds[seconds.size() / 2];
}

// Measures the step once, as measure() does a shape (limits right before it, over a buffer of the
// whole step's weights), keeps the better figures in `best` (its f32, int8, limits) and every
// batch in `batches_seen`.
void measure_step(DecodeStep& step, double min_s, int batches, Timing& best, StepBatches& batches_seen) {
  measure_limits(static_cast<size_t>(step.weights()), min_s, batches, best);
  best.f32 = std::min(best.f32, seconds_per_call([&] { step.run(false); }, min_s, batches, &batches_seen.f32));
  best.int8 = std::min(best.int8, seconds_per_call([&] { step.run(true); }, min_s, batches, &batches_seen.int8));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int d_model = 256, d_ff = 512, vocab = 8000, decoder_layers = 6;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    int* value = arg == "--d-model" ? &d_model : arg == "--d-ff" ? &d_ff : arg == "--vocab" ? &vocab
               : arg == "--decoder-layers" ? &decoder_layers : nullptr;
    if (arg == "--quick") {
      quick = true;
    } else if (value != nullptr && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      *value = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: kernels [--quick] [--d-model D] [--d-ff F] [--vocab V] [--decoder-layers L]\n");
      return 2;
    }
  }
  const double min_s = quick ? 0.02 : 0.1;
  // The shapes are measured in rounds, each round every shape in turn, and each figure is the best
  // over the rounds: a slow stretch of this shared host (seconds long) then spoils at most one
  // round of a shape instead of all its batches. Measured twice on general-en-de's shapes in wasm
  // (2026-11-27), 21 batches in one go gave one decode product 0.45 of its bound in one run and 0.68
  // in the next; 3 rounds of 7 spread the same 21 batches over the whole run.
  const int rounds = quick ? 1 : 3, batches = quick ? 9 : 7;
  // A model's products: the decoder's self-attention QKV, feed-forward and output layer for one
  // token (batch 1) and for 8 (a batch or a beam), the encoder's for a 20-token sentence; and two
  // cold shapes whose weights (16 and 32 MB in fp32) outgrow the caches, fixed across models.
  const std::vector<Shape> shapes = {
      {"decode_qkv", 1, d_model, 3 * d_model},  {"decode_ffn1", 1, d_model, d_ff},   {"decode_ffn2", 1, d_ff, d_model},
      {"decode_logits", 1, d_model, vocab}, {"encoder_qkv", 20, d_model, 3 * d_model}, {"encoder_ffn1", 20, d_model, d_ff},
      {"encoder_ffn2", 20, d_ff, d_model}, {"batch8_logits", 8, d_model, vocab}, {"cold16mb", 1, 512, 8000}, {"cold32mb", 1, 1024, 8000},
  };
  std::vector<Timing> best(shapes.size());
  DecodeStep step(d_model, d_ff, vocab, decoder_layers);
  Timing step_best;
  StepBatches step_batches;
  for (int round = 0; round < rounds; ++round) {
    for (size_t i = 0; i < shapes.size(); ++i) measure(shapes[i], 1 + static_cast<unsigned>(i), min_s, batches, best[i]);
    measure_step(step, min_s, batches, step_best, step_batches);
  }
  std::vector<double> peaks;
  std::printf("{\n  \"shapes\": [\n");
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const Timing& t = best[i];
    peaks.push_back(t.peak);
    const double flops = 2.0 * s.m * s.k * s.n;
    // The weights are read once a call; "of bound" is the time the bound allows over the time taken.
    const Bound f32_bound = roofline(flops, 4.0 * s.k * s.n, t.peak, t.f32_read);
    const Bound int8_bound = roofline(flops, 1.0 * s.k * s.n, t.dot_peak, t.int8_read);
    std::printf("%s    {\"name\": \"%s\", \"m\": %d, \"k\": %d, \"n\": %d, \"f32_gflops\": %.2f, \"int8_gops\": %.2f, \"int8_gops_2_threads\": %s, "
                "\"eigen_gflops\": %.2f, \"simd128_peak_gflops\": %.2f, \"f32_fraction_of_peak\": %.2f, "
                "\"dot_peak_gops\": %.2f, \"f32_read_gbps\": %.2f, \"int8_read_gbps\": %.2f, "
                "\"f32_bound\": \"%s\", \"f32_fraction_of_bound\": %.2f, \"int8_bound\": \"%s\", \"int8_fraction_of_bound\": %.2f}",
                i == 0 ? "" : ",\n", s.name, s.m, s.k, s.n, flops / t.f32 / 1e9, flops / t.int8 / 1e9,
                std::isfinite(t.int8_two) ? std::to_string(flops / t.int8_two / 1e9).c_str() : "null", flops / t.eigen / 1e9,
                t.peak, flops / t.f32 / 1e9 / t.peak, t.dot_peak, t.f32_read, t.int8_read,
                f32_bound.kind, f32_bound.seconds / t.f32, int8_bound.kind, int8_bound.seconds / t.int8);
  }
  std::sort(peaks.begin(), peaks.end());
  const Timing& t = step_best;
  const double ops = 2.0 * step.weights();  // one multiply-add per weight
  const Bound f32_bound = roofline(ops, 4.0 * step.weights(), t.peak, t.f32_read);
  const Bound int8_bound = roofline(ops, step.weights(), t.dot_peak, t.int8_read);
  std::printf("\n  ],\n  \"decode_step\": {\"decoder_layers\": %d, \"weights\": %.0f, \"f32_ms\": %.4f, \"int8_ms\": %.4f, "
              "\"f32_median_ms\": %.4f, \"int8_median_ms\": %.4f, "
              "\"simd128_peak_gflops\": %.2f, \"dot_peak_gops\": %.2f, \"f32_read_gbps\": %.2f, \"int8_read_gbps\": %.2f, "
              "\"f32_bound\": \"%s\", \"f32_bound_ms\": %.4f, \"f32_fraction_of_bound\": %.2f, "
              "\"int8_bound\": \"%s\", \"int8_bound_ms\": %.4f, \"int8_fraction_of_bound\": %.2f},\n",
              decoder_layers, step.weights(), t.f32 * 1e3, t.int8 * 1e3, median(step_batches.f32) * 1e3,
              median(step_batches.int8) * 1e3, t.peak, t.dot_peak, t.f32_read, t.int8_read,
              f32_bound.kind, f32_bound.seconds * 1e3, f32_bound.seconds / t.f32,
              int8_bound.kind, int8_bound.seconds * 1e3, int8_bound.seconds / t.int8);
  // int8_dot_offset_form: whether this engine's int8 products took one relaxed dot product per 16
  // weights on rows with negative values, or two (cpp/kernels/gemm.h).
  std::printf("  \"simd128_peak_gflops\": %.2f,\n  \"int8_dot_offset_form\": %s,\n  \"rounds\": %d\n}\n",
              peaks[peaks.size() / 2], crossattn::int8_dot_offset_form() ? "true" : "false", rounds);
  return 0;
}
