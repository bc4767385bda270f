#include "layers/attention.h"

#include <algorithm>
#include <cstddef>

#include "kernels/ops.h"
#include "kernels/simd128.h"

namespace crossattn {
namespace {

using simd::f32x4;

// p[s] = q . keys[s] over Dk for s in [0, visible) (keys with row stride ld), four keys per pass:
// one load of q feeds four products, and four horizontal sums share their shuffles.
void scores(const float* q, const float* keys, int ld, int visible, int d_k, float* p) {
  int s = 0;
  for (; s + 4 <= visible && d_k % 4 == 0; s += 4) {
    const float* k0 = keys + s * ld;
    const float *k1 = k0 + ld, *k2 = k1 + ld, *k3 = k2 + ld;
    f32x4 a0 = simd::splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int i = 0; i < d_k; i += 4) {
      const f32x4 qi = simd::load(q + i);
      a0 = simd::add(a0, simd::mul(qi, simd::load(k0 + i)));
      a1 = simd::add(a1, simd::mul(qi, simd::load(k1 + i)));
      a2 = simd::add(a2, simd::mul(qi, simd::load(k2 + i)));
      a3 = simd::add(a3, simd::mul(qi, simd::load(k3 + i)));
    }
    simd::store(p + s, simd::sums(a0, a1, a2, a3));
  }
  for (; s < visible; ++s) p[s] = dot(q, keys + s * ld, d_k);
}

// context [Dk] += sum_s p[s] values[s] for s in [0, visible), four value rows per pass, so that the
// context is loaded and stored once per four rows.
void weighted_sum(const float* p, const float* values, int ld, int visible, int d_k, float* context) {
  int s = 0;
  for (; s + 4 <= visible && d_k % 4 == 0; s += 4) {
    const float* v0 = values + s * ld;
    const float *v1 = v0 + ld, *v2 = v1 + ld, *v3 = v2 + ld;
    const f32x4 p0 = simd::splat(p[s]), p1 = simd::splat(p[s + 1]), p2 = simd::splat(p[s + 2]),
                p3 = simd::splat(p[s + 3]);
    for (int i = 0; i < d_k; i += 4) {
      const f32x4 a = simd::add(simd::mul(p0, simd::load(v0 + i)), simd::mul(p1, simd::load(v1 + i)));
      const f32x4 b = simd::add(simd::mul(p2, simd::load(v2 + i)), simd::mul(p3, simd::load(v3 + i)));
      simd::store(context + i, simd::add(simd::load(context + i), simd::add(a, b)));
    }
  }
  for (; s < visible; ++s) axpy(p[s], values + s * ld, context, d_k);
}

}  // namespace

void attend(const float* q, const float* keys, const float* values, KeyValueLayout layout, int s_len, int visible,
            int n_heads, int d_model, float* context, float* probs) {
  const int d_k = d_model / n_heads;
  std::fill(context, context + d_model, 0.0f);
  for (int h = 0; h < n_heads; ++h) {
    const int off = h * d_k;
    const size_t rows = static_cast<size_t>(h) * layout.head_stride;  // this head's row 0
    float* p = probs + h * s_len;  // [S] for this head
    scores(q + off, keys + rows, layout.row_stride, visible, d_k, p);
    softmax(p, visible);
    std::fill(p + visible, p + s_len, 0.0f);
    weighted_sum(p, values + rows, layout.row_stride, visible, d_k, context + off);
  }
}

}  // namespace crossattn
