#include "layers/attention.h"

#include <algorithm>

#include "kernels/ops.h"

namespace crossattn {

void attend(const float* q, const float* keys, const float* values, int ld, int s_len, int visible, int n_heads,
            int d_model, float* context, float* probs) {
  const int d_k = d_model / n_heads;
  std::fill(context, context + d_model, 0.0f);
  for (int h = 0; h < n_heads; ++h) {
    const int off = h * d_k;
    float* p = probs + h * s_len;  // [S] for this head
    for (int s = 0; s < visible; ++s) p[s] = dot(q + off, keys + s * ld + off, d_k);
    softmax(p, visible);
    std::fill(p + visible, p + s_len, 0.0f);
    for (int s = 0; s < visible; ++s) axpy(p[s], values + s * ld + off, context + off, d_k);
  }
}

}  // namespace crossattn
