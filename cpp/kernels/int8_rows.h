// Dynamic quantization of activation rows for the int8 products (gemm_int8.cc, gemm_int8_dot.cc):
// x[k] ~ scale Xq[k] with scale = max_k |x[k]| / 127 and Xq = round(x / scale) in [-127, 127]
// (Jacob et al. 2018, symmetric). Both products quantize with this one function, so that their
// integer sums, and so their outputs, are the same.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/simd128.h"

namespace crossattn::kernels {

/// A quantized row's scale and the sum of its Xq.
struct QuantizedRow {
  float scale;
  int32_t sum;
};

/// q [k_pad] = Xq of x [k], zero past k; returns the row's scale (1 for a row of zeros) and sum.
inline QuantizedRow quantize_row(const float* x, int k, int k_pad, int16_t* q) {
  simd::f32x4 vmax = simd::splat(0.0f);
  int i = 0;
  for (; i + 4 <= k; i += 4) vmax = simd::max(vmax, simd::abs(simd::load(x + i)));
  float amax = simd::max_lane(vmax);
  for (; i < k; ++i) amax = std::max(amax, std::fabs(x[i]));
  const float scale = amax > 0.0f ? amax / 127.0f : 1.0f, inv = 1.0f / scale;
  i = 0;
  const simd::f32x4 vinv = simd::splat(inv);
  simd::i32x4 sum = simd::zero_i32();
  for (; i + 8 <= k; i += 8) {
    const simd::i32x4 lo = simd::to_i32(simd::round_nearest(simd::mul(simd::load(x + i), vinv)));
    const simd::i32x4 hi = simd::to_i32(simd::round_nearest(simd::mul(simd::load(x + i + 4), vinv)));
    sum = simd::add_i32(sum, simd::add_i32(lo, hi));
    simd::store_i16(q + i, simd::narrow_i32(lo, hi));
  }
  alignas(16) int32_t lanes[4];
  simd::store_i32(lanes, sum);
  int32_t total = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
  for (; i < k; ++i) total += q[i] = static_cast<int16_t>(std::nearbyint(x[i] * inv));
  for (; i < k_pad; ++i) q[i] = 0;
  return {scale, total};
}

}  // namespace crossattn::kernels
