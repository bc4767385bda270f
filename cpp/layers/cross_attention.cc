#include "layers/cross_attention.h"

#include <cmath>

#include "kernels/ops.h"
#include "layers/attention.h"

namespace crossattn {

CrossAttentionMemory project_cross_attention_memory(const Matrix& encoder_out, const AttentionWeights& w) {
  CrossAttentionMemory memory;
  linear(encoder_out, w.k_proj, memory.keys);
  linear(encoder_out, w.v_proj, memory.values);
  return memory;
}

void cross_attention(const Matrix& x, const AttentionWeights& w, const CrossAttentionMemory& memory, int n_heads,
                     Matrix& out, float* weights) {
  Matrix q, context;
  linear(x, w.q_proj, q);  // [T, D], queries from the decoder
  q *= 1.0f / std::sqrt(static_cast<float>(x.cols() / n_heads));
  attend(q, memory.keys, memory.values, n_heads, -1, context, weights);  // context [T, D]
  linear(context, w.out_proj, out);
}

}  // namespace crossattn
