#include "kernels/ops.h"

#include <algorithm>
#include <cmath>

#include "kernels/simd128.h"

namespace crossattn {

using simd::f32x4;

float dot(const float* a, const float* b, int n) {
  f32x4 acc0 = simd::splat(0.0f), acc1 = simd::splat(0.0f);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    acc0 = simd::add(acc0, simd::mul(simd::load(a + i), simd::load(b + i)));
    acc1 = simd::add(acc1, simd::mul(simd::load(a + i + 4), simd::load(b + i + 4)));
  }
  float s = simd::sum(simd::add(acc0, acc1));
  for (; i < n; ++i) s += a[i] * b[i];
  return s;
}

void axpy(float alpha, const float* x, float* y, int n) {
  const f32x4 a = simd::splat(alpha);
  int i = 0;
  for (; i + 4 <= n; i += 4) simd::store(y + i, simd::add(simd::load(y + i), simd::mul(a, simd::load(x + i))));
  for (; i < n; ++i) y[i] += alpha * x[i];
}

void add(const float* x, float* y, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) simd::store(y + i, simd::add(simd::load(y + i), simd::load(x + i)));
  for (; i < n; ++i) y[i] += x[i];
}

void copy(const float* x, float* y, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) simd::store(y + i, simd::load(x + i));
  for (; i < n; ++i) y[i] = x[i];
}

void layer_norm(const float* x, int m, int d, int ldx, const float* gamma, const float* beta, float eps, float* out,
                int ldo) {
  const float inv_d = 1.0f / static_cast<float>(d);
  for (int r = 0; r < m; ++r) {
    const float* xr = x + r * ldx;
    float* o = out + r * ldo;
    f32x4 acc = simd::splat(0.0f);
    int i = 0;
    for (; i + 4 <= d; i += 4) acc = simd::add(acc, simd::load(xr + i));
    float total = simd::sum(acc);
    for (; i < d; ++i) total += xr[i];
    const float mean = total * inv_d;
    const f32x4 vmean = simd::splat(mean);
    acc = simd::splat(0.0f);
    for (i = 0; i + 4 <= d; i += 4) {
      const f32x4 c = simd::sub(simd::load(xr + i), vmean);
      acc = simd::add(acc, simd::mul(c, c));
    }
    float sq = simd::sum(acc);
    for (; i < d; ++i) sq += (xr[i] - mean) * (xr[i] - mean);
    const float inv_std = 1.0f / std::sqrt(sq * inv_d + eps);
    const f32x4 vinv = simd::splat(inv_std);
    for (i = 0; i + 4 <= d; i += 4) {
      const f32x4 c = simd::mul(simd::sub(simd::load(xr + i), vmean), vinv);
      simd::store(o + i, simd::add(simd::mul(c, simd::load(gamma + i)), simd::load(beta + i)));
    }
    for (; i < d; ++i) o[i] = (xr[i] - mean) * inv_std * gamma[i] + beta[i];
  }
}

namespace {

float max_of(const float* x, int n) {
  float m = x[0];
  int i = 0;
  if (n >= 4) {
    f32x4 acc = simd::load(x);
    for (i = 4; i + 4 <= n; i += 4) acc = simd::max(acc, simd::load(x + i));
    m = simd::max_lane(acc);
  }
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// x[i] = exp(x[i] - shift) in place; returns their sum.
float exp_shifted(float* x, int n, float shift) {
  const f32x4 vshift = simd::splat(shift);
  const simd::ExpConstants constants = simd::exp_constants();
  f32x4 acc = simd::splat(0.0f);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const f32x4 e = simd::exp(simd::sub(simd::load(x + i), vshift), constants);
    simd::store(x + i, e);
    acc = simd::add(acc, e);
  }
  float total = simd::sum(acc);
  for (; i < n; ++i) total += x[i] = std::exp(x[i] - shift);
  return total;
}

}  // namespace

void softmax(float* x, int n) {
  const float total = exp_shifted(x, n, max_of(x, n));
  const f32x4 inv = simd::splat(1.0f / total);
  int i = 0;
  for (; i + 4 <= n; i += 4) simd::store(x + i, simd::mul(simd::load(x + i), inv));
  for (; i < n; ++i) x[i] *= 1.0f / total;
}

float log_sum_exp(const float* x, int n, int* argmax) {
  const float m = max_of(x, n);
  if (argmax != nullptr) {
    int best = 0;
    while (x[best] != m) ++best;
    *argmax = best;
  }
  const f32x4 vm = simd::splat(m);
  const simd::ExpConstants constants = simd::exp_constants();
  f32x4 acc = simd::splat(0.0f);
  int i = 0;
  for (; i + 4 <= n; i += 4) acc = simd::add(acc, simd::exp(simd::sub(simd::load(x + i), vm), constants));
  float total = simd::sum(acc);
  for (; i < n; ++i) total += std::exp(x[i] - m);
  return m + std::log(total);
}

int top_k(const float* x, int n, int k, int* top) {
  if (k <= 0) return 0;
  int size = 0;
  float kth = INFINITY;  // x[top[k - 1]] once size == k
  // Insertion into the sorted list top[0, size): against its last once it is full.
  const auto offer = [&](int i) {
    const float v = x[i];
    if (size == k ? v <= kth : v == -INFINITY) return;
    int j = size < k ? size++ : k - 1;
    for (; j > 0 && x[top[j - 1]] < v; --j) top[j] = top[j - 1];
    top[j] = i;
    if (size == k) kth = x[top[k - 1]];
  };
  int i = 0;
  for (; i < n && size < k; ++i) offer(i);
  for (; i + 4 <= n; i += 4) {
    if (!simd::any_greater(simd::load(x + i), simd::splat(kth))) continue;
    for (int e = i; e < i + 4; ++e) offer(e);
  }
  for (; i < n; ++i) offer(i);
  return size;
}

void activate(float* x, int n, Activation activation) {
  int i = 0;
  switch (activation) {
    case Activation::kRelu:
      for (; i + 4 <= n; i += 4) simd::store(x + i, simd::max(simd::load(x + i), simd::splat(0.0f)));
      for (; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
      break;
    case Activation::kGelu:
      for (; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * static_cast<float>(M_SQRT1_2)));
      break;
    case Activation::kSwish:
      for (; i < n; ++i) x[i] = x[i] / (1.0f + std::exp(-x[i]));
      break;
  }
}

void swap_leading_axes(const float* in, int a, int b, int w, float* out) {
  for (int i = 0; i < a; ++i) {
    for (int j = 0; j < b; ++j) {
      copy(in + (static_cast<size_t>(i) * b + j) * w, out + (static_cast<size_t>(j) * a + i) * w, w);
    }
  }
}

}  // namespace crossattn
