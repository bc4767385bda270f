// The packed fp32 and int8 products against naive references, on shapes that exercise every
// kernel path: row blocks and leftover rows, full panel groups and tails, features and inputs that
// are not multiples of the panel sizes, and each epilogue.
#include "kernels/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include <gtest/gtest.h>

namespace crossattn {
namespace {

struct Case {
  int m, k, n;
};

// Row counts cover whole blocks of rows and every leftover block after them (the int8 kernels take
// rows in blocks of 4 or 6, the last block holding what remains).
const Case kCases[] = {{1, 8, 8},    {1, 256, 768}, {3, 17, 13}, {4, 64, 40},  {5, 30, 37},
                       {9, 100, 70}, {2, 5, 3},     {7, 40, 24}, {8, 33, 19}, {13, 64, 48}};

std::vector<float> random_vector(size_t n, std::mt19937& rng, float scale) {
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// y = epilogue(x w^T + b) in double, from y's previous contents for kAccumulate.
std::vector<float> reference(const Case& c, const std::vector<double>& product, const std::vector<float>& bias,
                             std::vector<float> y, Epilogue e) {
  for (int r = 0; r < c.m; ++r) {
    for (int j = 0; j < c.n; ++j) {
      double v = product[r * c.n + j] + bias[j];
      if (e == Epilogue::kRelu) v = std::max(v, 0.0);
      y[r * c.n + j] = static_cast<float>(e == Epilogue::kAccumulate ? y[r * c.n + j] + v : v);
    }
  }
  return y;
}

TEST(Gemm, Fp32MatchesNaiveProduct) {
  std::mt19937 rng(11);
  for (const Case& c : kCases) {
    const auto w = random_vector(static_cast<size_t>(c.n) * c.k, rng, 0.1f), x = random_vector(c.m * c.k, rng, 1.0f),
               bias = random_vector(c.n, rng, 0.1f), y0 = random_vector(c.m * c.n, rng, 1.0f);
    std::vector<double> product(c.m * c.n, 0.0);
    for (int r = 0; r < c.m; ++r) {
      for (int j = 0; j < c.n; ++j) {
        for (int i = 0; i < c.k; ++i) product[r * c.n + j] += double{x[r * c.k + i]} * w[j * c.k + i];
      }
    }
    const PackedLinear packed = PackedLinear::from_f32(w.data(), c.n, c.k, bias.data());
    for (Epilogue e : {Epilogue::kStore, Epilogue::kRelu, Epilogue::kAccumulate}) {
      std::vector<float> y = y0;
      packed.apply(x.data(), c.m, c.k, y.data(), c.n, e);
      const auto expected = reference(c, product, bias, y0, e);
      for (size_t i = 0; i < y.size(); ++i) {
        ASSERT_NEAR(y[i], expected[i], 1e-4) << c.m << "x" << c.k << "x" << c.n << " element " << i;
      }
    }
  }
}

// The product of x [M, K] skipping zero inputs equals the one keeping them bit for bit, for each
// epilogue, starting from y0 [M, N].
void expect_skipping_exact(const PackedLinear& packed, const Case& c, const std::vector<float>& x,
                           const std::vector<float>& y0, float zero_share) {
  for (Epilogue e : {Epilogue::kStore, Epilogue::kRelu, Epilogue::kAccumulate}) {
    std::vector<float> kept = y0, skipped = y0;
    packed.apply(x.data(), c.m, c.k, kept.data(), c.n, e, InputZeros::kKeep);
    packed.apply(x.data(), c.m, c.k, skipped.data(), c.n, e, InputZeros::kSkip);
    for (size_t i = 0; i < kept.size(); ++i) {
      ASSERT_EQ(std::memcmp(&kept[i], &skipped[i], sizeof(float)), 0)
          << c.m << "x" << c.k << "x" << c.n << " zeros " << zero_share << " element " << i;
    }
  }
}

// InputZeros::kSkip drops inputs that are zero in every row of a block; the other products are
// summed in the same order, so y must equal the unskipped product bit for bit: on rows that are
// mostly zeros (gathered), dense (multiplied whole) and mixed, in blocks of 4 rows and leftover
// rows, for each epilogue. A NaN input is not a zero: it still reaches y.
TEST(Gemm, Fp32SkippingZeroInputsIsExact) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const Case cases[] = {{1, 1024, 256}, {1, 30, 37}, {9, 100, 70}, {6, 1024, 40}, {3, 17, 13}, {5, 30, 37}};
  for (const Case& c : cases) {
    const auto w = random_vector(static_cast<size_t>(c.n) * c.k, rng, 0.1f), bias = random_vector(c.n, rng, 0.1f),
               y0 = random_vector(c.m * c.n, rng, 1.0f);
    const PackedLinear packed = PackedLinear::from_f32(w.data(), c.n, c.k, bias.data());
    for (float zero_share : {0.0f, 0.5f, 0.9f, 1.0f}) {
      auto x = random_vector(c.m * c.k, rng, 1.0f);
      for (int r = 0; r < c.m; ++r) {
        // Rows 4..7 stay dense, so that a block of them is multiplied whole beside gathered ones.
        if (r >= 4 && r < 8) continue;
        for (int i = 0; i < c.k; ++i) {
          if (uniform(rng) < zero_share) x[r * c.k + i] = 0.0f;
        }
      }
      expect_skipping_exact(packed, c, x, y0, zero_share);
    }
    std::vector<float> x(c.m * c.k, 0.0f), y(c.m * c.n);
    x[c.k / 2] = std::nanf("");
    packed.apply(x.data(), c.m, c.k, y.data(), c.n, Epilogue::kStore, InputZeros::kSkip);
    for (int j = 0; j < c.n; ++j) ASSERT_TRUE(std::isnan(y[j])) << "feature " << j;
    for (int j = 0; j < (c.m - 1) * c.n; ++j) ASSERT_EQ(y[c.n + j], bias[j % c.n]) << "a row of zeros is its bias";
  }
}

// A skipped input's weights are never read: with an infinite weight behind an input that is zero in
// every row, the product that skips stays finite, and the one that keeps it turns 0 * inf into NaN.
// This proves the gathered path runs for mostly-zero blocks (the exactness test above cannot tell).
TEST(Gemm, Fp32SkippingNeverReadsTheWeightsOfZeroInputs) {
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (const Case& c : {Case{1, 1024, 256}, Case{4, 1024, 64}, Case{6, 300, 37}}) {
    auto w = random_vector(static_cast<size_t>(c.n) * c.k, rng, 0.1f);
    const int dead = c.k / 3;  // the input that is zero in every row
    for (int j = 0; j < c.n; ++j) w[static_cast<size_t>(j) * c.k + dead] = INFINITY;
    const PackedLinear packed = PackedLinear::from_f32(w.data(), c.n, c.k, nullptr);
    auto x = random_vector(c.m * c.k, rng, 1.0f);
    for (int r = 0; r < c.m; ++r) {
      for (int i = 0; i < c.k; ++i) {
        if (i == dead || uniform(rng) < 0.9f) x[r * c.k + i] = 0.0f;  // 90% zeros, as a ReLU's output
      }
    }
    std::vector<float> kept(c.m * c.n), skipped(c.m * c.n);
    packed.apply(x.data(), c.m, c.k, kept.data(), c.n, Epilogue::kStore, InputZeros::kKeep);
    packed.apply(x.data(), c.m, c.k, skipped.data(), c.n, Epilogue::kStore, InputZeros::kSkip);
    for (int i = 0; i < c.m * c.n; ++i) {
      ASSERT_TRUE(std::isnan(kept[i])) << c.m << "x" << c.k << "x" << c.n << " element " << i;
      ASSERT_TRUE(std::isfinite(skipped[i])) << c.m << "x" << c.k << "x" << c.n << " element " << i;
    }
  }
}

// The int8 path quantizes each row of x with scale max|x|/127 and rounding to nearest; the
// reference does the same independently, so the only difference left is float rounding.
TEST(Gemm, Int8MatchesExactIntegerProduct) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> weight(-127, 127);
  for (const Case& c : kCases) {
    std::vector<int8_t> wq(static_cast<size_t>(c.n) * c.k);
    for (auto& q : wq) q = static_cast<int8_t>(weight(rng));
    const auto scale = random_vector(c.n, rng, 0.01f), x = random_vector(c.m * c.k, rng, 1.0f),
               bias = random_vector(c.n, rng, 0.1f), y0 = random_vector(c.m * c.n, rng, 1.0f);
    std::vector<float> w_scale(scale.size());
    for (size_t j = 0; j < scale.size(); ++j) w_scale[j] = std::fabs(scale[j]);
    std::vector<double> product(c.m * c.n, 0.0);
    for (int r = 0; r < c.m; ++r) {
      float amax = 0.0f;
      for (int i = 0; i < c.k; ++i) amax = std::max(amax, std::fabs(x[r * c.k + i]));
      const float x_scale = amax / 127.0f;
      for (int j = 0; j < c.n; ++j) {
        long acc = 0;
        for (int i = 0; i < c.k; ++i) acc += std::lrint(x[r * c.k + i] / x_scale) * wq[j * c.k + i];
        product[r * c.n + j] = static_cast<double>(acc) * x_scale * w_scale[j];
      }
    }
    const PackedLinear packed = PackedLinear::from_int8(wq.data(), w_scale.data(), c.n, c.k, bias.data());
    EXPECT_TRUE(packed.quantized());
    for (Epilogue e : {Epilogue::kStore, Epilogue::kRelu, Epilogue::kAccumulate}) {
      std::vector<float> y = y0;
      packed.apply(x.data(), c.m, c.k, y.data(), c.n, e);
      const auto expected = reference(c, product, bias, y0, e);
      for (size_t i = 0; i < y.size(); ++i) {
        ASSERT_NEAR(y[i], expected[i], 1e-3 * (1.0 + std::fabs(expected[i]))) << c.m << "x" << c.k << "x" << c.n;
      }
    }
  }
}

// The int8 kernel's sums over two features per int16 lane (gemm_int8.cc) pass 2^31 in int32 when
// K is large and every product is at its extreme, and wrap back: y must still be the exact product.
// K = 4096, weights +-127 and inputs all +-127 after quantization, one row (the decoder's block),
// five rows (a block of four and a leftover) and sparse rows (the gathered path).
TEST(Gemm, Int8SumsPastInt32AreExact) {
  const int k = 4096, n = 16;
  std::vector<int8_t> wq(static_cast<size_t>(n) * k);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < k; ++i) wq[static_cast<size_t>(j) * k + i] = static_cast<int8_t>(j % 3 == 0 ? -127 : 127);
  }
  const std::vector<float> w_scale(n, 1.0f), bias(n, 0.0f);
  const PackedLinear packed = PackedLinear::from_int8(wq.data(), w_scale.data(), n, k, bias.data());
  for (const int m : {1, 5}) {
    for (const InputZeros zeros : {InputZeros::kKeep, InputZeros::kSkip}) {
      std::vector<float> x(static_cast<size_t>(m) * k, 0.0f);
      for (int r = 0; r < m; ++r) {
        // Dense rows: every input 1 (Xq = 127); sparse rows: one pair in eight nonzero.
        for (int i = 0; i < k; ++i) x[r * k + i] = zeros == InputZeros::kSkip && i / 2 % 8 != 0 ? 0.0f : 1.0f;
      }
      std::vector<float> y(static_cast<size_t>(m) * n);
      packed.apply(x.data(), m, k, y.data(), n, Epilogue::kStore, zeros);
      const double nonzero = zeros == InputZeros::kSkip ? k / 8.0 : k;
      for (int r = 0; r < m; ++r) {
        for (int j = 0; j < n; ++j) {
          // (1 / 127) * sum of 127 * (+-127) over the nonzero inputs.
          const double expected = (j % 3 == 0 ? -127.0 : 127.0) * nonzero;
          ASSERT_NEAR(y[r * n + j], expected, 1e-4 * std::fabs(expected)) << m << " rows, feature " << j;
        }
      }
    }
  }
}

// InputZeros::kSkip on int8 weights: rows whose input pairs are mostly zero are multiplied over
// their nonzero pairs only; int32 sums make y equal the unskipped product bit for bit: single rows
// (the decoder's), blocks of rows (the encoder's), rows all zeros, and a dense row among sparse
// ones (then nothing is gathered), for each epilogue; rows of both signs, and rows with no negative
// value (a ReLU's output, which the relaxed build gathers by quads).
TEST(Gemm, Int8SkippingZeroInputsIsExact) {
  std::mt19937 rng(41);
  std::uniform_int_distribution<int> weight(-127, 127);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const Case cases[] = {{1, 1024, 256}, {1, 30, 37}, {4, 1024, 40}, {9, 100, 70}, {5, 30, 37}, {2, 5, 3}};
  for (const Case& c : cases) {
    std::vector<int8_t> wq(static_cast<size_t>(c.n) * c.k);
    for (auto& q : wq) q = static_cast<int8_t>(weight(rng));
    auto w_scale = random_vector(c.n, rng, 0.01f);
    for (float& v : w_scale) v = std::fabs(v);
    const auto bias = random_vector(c.n, rng, 0.1f), y0 = random_vector(c.m * c.n, rng, 1.0f);
    const PackedLinear packed = PackedLinear::from_int8(wq.data(), w_scale.data(), c.n, c.k, bias.data());
    for (float zero_share : {0.0f, 0.5f, 0.8f, 0.95f, 1.0f}) {
      for (bool one_dense_row : {false, true}) {
        for (bool relu : {false, true}) {
          auto x = random_vector(c.m * c.k, rng, 1.0f);
          for (int r = one_dense_row ? 1 : 0; r < c.m; ++r) {
            for (int i = 0; i < c.k; ++i) {
              if (uniform(rng) < zero_share) x[r * c.k + i] = 0.0f;
            }
          }
          if (relu) std::transform(x.begin(), x.end(), x.begin(), [](float v) { return std::fabs(v); });
          expect_skipping_exact(packed, c, x, y0, zero_share);
        }
      }
    }
  }
}

// Every engine build gives the same int8 outputs (SIMD128's kernel in crossattn.wasm, relaxed
// SIMD's in crossattn-relaxed.wasm; this test runs against both, natively): y is the documented
// arithmetic in float, bit for bit: Xq = nearest(x / s_x) computed as x * (1 / s_x) with
// s_x = max|x| / 127, the exact integer sum S = sum Xq Wq, then float(S) * (s_w s_x) + b. Rows of
// mixed sign (the relaxed kernel's offset form or its split by sign, as the engine's dot product
// allows: this test runs against both), rows with no negative value (one dot product a chunk), rows
// of zeros, blocks of rows and leftovers.
// y of `packed` (weights wq [n, k], scales w_scale, bias) for x [m, k] is the documented arithmetic, bit for bit.
void expect_documented_arithmetic(const PackedLinear& packed, const Case& c, const std::vector<float>& x,
                                  const std::vector<int8_t>& wq, const std::vector<float>& w_scale,
                                  const std::vector<float>& bias) {
  std::vector<float> y(c.m * c.n);
  packed.apply(x.data(), c.m, c.k, y.data(), c.n, Epilogue::kStore);
  for (int r = 0; r < c.m; ++r) {
    float amax = 0.0f;
    for (int i = 0; i < c.k; ++i) amax = std::max(amax, std::fabs(x[r * c.k + i]));
    const float s_x = amax > 0.0f ? amax / 127.0f : 1.0f, inv = 1.0f / s_x;
    for (int j = 0; j < c.n; ++j) {
      int32_t sum = 0;
      for (int i = 0; i < c.k; ++i) sum += static_cast<int32_t>(std::nearbyint(x[r * c.k + i] * inv)) * wq[j * c.k + i];
      const float expected = static_cast<float>(sum) * (w_scale[j] * s_x) + bias[j];
      ASSERT_EQ(y[r * c.n + j], expected) << c.m << "x" << c.k << "x" << c.n << " row " << r << " feature " << j;
    }
  }
}

// The relaxed kernel takes its offset form exactly where the engine's dot product reads bytes above
// 127 as unsigned with exact sums: V8's with AVX-VNNI (emulated here by CROSSATTN_EMULATE_AVX_VNNI),
// not V8's saturating pairs without it; the SIMD128 kernel has no such form.
TEST(Gemm, Int8DotFormFollowsTheEnginesDotProduct) {
#if defined(CROSSATTN_EMULATE_AVX_VNNI)
  EXPECT_TRUE(int8_dot_offset_form());
#else
  EXPECT_FALSE(int8_dot_offset_form());
#endif
}

TEST(Gemm, Int8OutputIsTheDocumentedArithmeticBitForBit) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> weight(-127, 127);
  for (const Case& c : kCases) {
    std::vector<int8_t> wq(static_cast<size_t>(c.n) * c.k);
    for (auto& q : wq) q = static_cast<int8_t>(weight(rng));
    auto w_scale = random_vector(c.n, rng, 0.01f);
    for (float& v : w_scale) v = std::fabs(v);
    const auto bias = random_vector(c.n, rng, 0.1f);
    auto x = random_vector(c.m * c.k, rng, 1.0f);
    for (int i = 0; i < c.k; ++i) x[i] = std::fabs(x[i]);            // row 0: no negative value
    if (c.m > 2) std::fill(x.begin() + 2 * c.k, x.begin() + 3 * c.k, 0.0f);  // row 2: zeros
    const PackedLinear packed = PackedLinear::from_int8(wq.data(), w_scale.data(), c.n, c.k, bias.data());
    expect_documented_arithmetic(packed, c, x, wq, w_scale, bias);
    // Every row without a negative value (a ReLU's output, dense): each block takes one dot product a chunk.
    for (float& v : x) v = std::fabs(v);
    expect_documented_arithmetic(packed, c, x, wq, w_scale, bias);
  }
}

// The model file's int8 kernel layout (docs/model-format.md: panels[p][s][8h + 2f + e] =
// Wq[4p + f][4s + 2h + e], zero padded) converted at load, into new memory or where it lies, is
// the same layer as its rows: outputs bit for bit, and each row read back, as int8 and dequantized
// (as an embedding lookup of a tied table reads it).
TEST(Gemm, Int8FilePanelsAreTheSameLayerAsTheirRows) {
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> weight(-127, 127);
  for (const Case& c : {Case{5, 30, 40}, Case{1, 256, 64}, Case{4, 17, 8}, Case{1, 62, 40}}) {
    std::vector<int8_t> wq(static_cast<size_t>(c.n) * c.k);
    for (auto& q : wq) q = static_cast<int8_t>(weight(rng));
    const int out4 = (c.n + 3) / 4, in4 = (c.k + 3) / 4;
    std::vector<int8_t> file(static_cast<size_t>(out4) * in4 * 16, 0);
    for (int j = 0; j < c.n; ++j) {
      for (int k = 0; k < c.k; ++k) {
        const int p = j / 4, f = j % 4, s = k / 4, h = k % 4 / 2, e = k % 2;
        file[(static_cast<size_t>(p) * in4 + s) * 16 + 8 * h + 2 * f + e] = wq[static_cast<size_t>(j) * c.k + k];
      }
    }
    auto w_scale = random_vector(c.n, rng, 0.01f);
    for (float& v : w_scale) v = std::fabs(v);
    const auto bias = random_vector(c.n, rng, 0.1f), x = random_vector(c.m * c.k, rng, 1.0f);
    const PackedLinear rows = PackedLinear::from_int8(wq.data(), w_scale.data(), c.n, c.k, bias.data());
    std::shared_ptr<int8_t> in_place(new int8_t[file.size()], std::default_delete<int8_t[]>());
    std::copy(file.begin(), file.end(), in_place.get());
    for (const PackedLinear& panels :
         {PackedLinear::from_int8_panels(file.data(), w_scale.data(), c.n, c.k, bias.data()),
          PackedLinear::from_int8_panels_in_place(in_place, w_scale.data(), c.n, c.k, bias.data())}) {
      std::vector<float> expected(c.m * c.n), y(c.m * c.n);
      rows.apply(x.data(), c.m, c.k, expected.data(), c.n, Epilogue::kStore);
      panels.apply(x.data(), c.m, c.k, y.data(), c.n, Epilogue::kStore);
      ASSERT_EQ(y, expected) << c.m << "x" << c.k << "x" << c.n;
      std::vector<int8_t> row(c.k);
      std::vector<float> dequantized(c.k);
      for (int j = 0; j < c.n; ++j) {
        panels.int8_row(j, row.data());
        ASSERT_TRUE(std::equal(row.begin(), row.end(), wq.begin() + static_cast<size_t>(j) * c.k)) << "row " << j;
        panels.dequantize_row(j, 2.0f, dequantized.data());
        for (int k = 0; k < c.k; ++k) {
          ASSERT_EQ(dequantized[k], static_cast<float>(wq[static_cast<size_t>(j) * c.k + k]) * (w_scale[j] * 2.0f));
        }
      }
    }
  }
}

// select_rows keeps the chosen output features, in the chosen order, with the same numbers: each
// result column equals the full layer's column bit for bit, for fp32 and int8 weights, on shapes
// whose inputs and features are not multiples of the panel sizes.
TEST(Gemm, SelectRowsEqualsTheFullLayersColumns) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> weight(-127, 127);
  const Case c = {5, 30, 37};
  std::vector<int> rows = {36, 0, 5, 5, 17, 3, 33};
  for (int j = c.n - 1; j >= 0; j -= 2) rows.push_back(j);  // more than one group of 32 features
  const auto w = random_vector(static_cast<size_t>(c.n) * c.k, rng, 0.1f), x = random_vector(c.m * c.k, rng, 1.0f),
             bias = random_vector(c.n, rng, 0.1f), scale = random_vector(c.n, rng, 0.01f);
  std::vector<int8_t> wq(w.size());
  for (auto& q : wq) q = static_cast<int8_t>(weight(rng));
  std::vector<float> w_scale(c.n);
  for (int j = 0; j < c.n; ++j) w_scale[j] = std::fabs(scale[j]);
  for (const PackedLinear& full : {PackedLinear::from_f32(w.data(), c.n, c.k, bias.data()),
                                   PackedLinear::from_int8(wq.data(), w_scale.data(), c.n, c.k, bias.data())}) {
    const PackedLinear selected = full.select_rows(rows);
    EXPECT_EQ(selected.out(), static_cast<int>(rows.size()));
    EXPECT_EQ(selected.in(), c.k);
    EXPECT_EQ(selected.quantized(), full.quantized());
    std::vector<float> y_full(c.m * c.n), y(c.m * rows.size());
    full.apply(x.data(), c.m, c.k, y_full.data(), c.n, Epilogue::kStore);
    selected.apply(x.data(), c.m, c.k, y.data(), static_cast<int>(rows.size()), Epilogue::kStore);
    for (int r = 0; r < c.m; ++r) {
      for (size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(y[r * rows.size() + i], y_full[r * c.n + rows[i]]) << "row " << r << " feature " << rows[i];
      }
    }
  }
}

}  // namespace
}  // namespace crossattn
