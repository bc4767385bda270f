#include "layers/alignment_layer.h"

#include <cmath>
#include <vector>

#include "kernels/ops.h"

namespace crossattn {

void alignment_attention(const float* states, const float* embeds, int t_len, const float* encoder_out, int s_len,
                         const AlignmentLayerWeights& w, float* weights) {
  const int d = w.q_state.in();
  std::vector<float> q(static_cast<size_t>(t_len) * d), k(static_cast<size_t>(s_len) * d);
  w.q_state.apply(states, t_len, d, q.data(), d, Epilogue::kStore);      // [T, D] = W_state h + b
  w.q_embed.apply(embeds, t_len, d, q.data(), d, Epilogue::kAccumulate); // [T, D] += W_embed E[y]
  w.k_proj.apply(encoder_out, s_len, d, k.data(), d, Epilogue::kStore);  // [S, D]
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  for (int t = 0; t < t_len; ++t) {
    float* row = weights + static_cast<size_t>(t) * s_len;  // [S]
    for (int s = 0; s < s_len; ++s) row[s] = dot(q.data() + static_cast<size_t>(t) * d, k.data() + static_cast<size_t>(s) * d, d) * scale;
    softmax(row, s_len);
  }
}

}  // namespace crossattn
