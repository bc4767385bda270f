#include "layers/cross_attention.h"

#include <cmath>

#include "kernels/ops.h"
#include "layers/attention.h"

namespace crossattn {

void project_cross_attention_memory(const float* encoder_out, int s_len, const CrossAttentionWeights& w, int n_heads,
                                    float* projected, float* memory) {
  const int d = w.q_proj.in();
  w.kv_proj.apply(encoder_out, s_len, d, projected, 2 * d, Epilogue::kStore);  // [S, 2D] = [S, 2H, Dk]
  swap_leading_axes(projected, s_len, 2 * n_heads, d / n_heads, memory);      // [2H, S, Dk]
}

void cross_attention(const float* h, int m, const CrossAttentionWeights& w, int n_heads, DecoderState* const* states,
                     int layer, float* q, float* context, float* probs, const CrossAttentionProbe* probe, float* x) {
  const int d = w.q_proj.in();
  w.q_proj.apply(h, m, d, q, d, Epilogue::kStore);  // [M, D], queries from the decoder
  float* const* weights = probe != nullptr ? probe->weights : nullptr;
  for (int r = 0; r < m; ++r) {
    const int s_len = states[r]->src_len;
    const float* memory = states[r]->cross_kv_layer(layer);  // [2, H, S, Dk] from the final encoder output
    float* p = weights != nullptr && weights[r] != nullptr ? weights[r] + layer * n_heads * s_len : probs;
    attend(q + r * d, memory, memory + static_cast<size_t>(s_len) * d, KeyValueLayout::head_major(s_len, d / n_heads),
           s_len, s_len, n_heads, d, context + r * d, p);
  }
  if (probe == nullptr || probe->residual == nullptr) {
    w.out_proj.apply(context, m, d, x, d, Epilogue::kAccumulate);  // the residual: x + W_O context
    return;
  }
  float* update = q;  // [M, D]; the queries are spent
  w.out_proj.apply(context, m, d, update, d, Epilogue::kStore);
  for (int r = 0; r < m; ++r) {
    float* xr = x + r * d;
    const float* ur = update + r * d;
    if (float* stats = probe->residual[r]) {
      const float x_norm = std::sqrt(dot(xr, xr, d)), u_norm = std::sqrt(dot(ur, ur, d));
      stats[3 * layer] = x_norm;
      stats[3 * layer + 1] = u_norm;
      stats[3 * layer + 2] = x_norm > 0 && u_norm > 0 ? dot(xr, ur, d) / (x_norm * u_norm) : 0.0f;
    }
    add(ur, xr, d);
  }
}

}  // namespace crossattn
