#include "layers/self_attention.h"

#include "kernels/ops.h"
#include "layers/attention.h"

namespace crossattn {

void encoder_self_attention(const float* h, int s_len, const SelfAttentionWeights& w, int n_heads, float* qkv,
                            float* context, float* probs, float* x) {
  const int d = w.out_proj.out();
  w.qkv_proj.apply(h, s_len, d, qkv, 3 * d, Epilogue::kStore);  // [S, 3D]: q | k | v
  for (int s = 0; s < s_len; ++s) {
    attend(qkv + s * 3 * d, qkv + d, qkv + 2 * d, KeyValueLayout::token_major(3 * d, d / n_heads), s_len, s_len,
           n_heads, d, context + s * d, probs);
  }
  w.out_proj.apply(context, s_len, d, x, d, Epilogue::kAccumulate);
}

void decoder_self_attention(const float* h, int m, const SelfAttentionWeights& w, int n_heads,
                            DecoderState* const* states, const int* positions, int layer, float* qkv, float* context,
                            float* probs, float* x) {
  const int d = w.out_proj.out();
  w.qkv_proj.apply(h, m, d, qkv, 3 * d, Epilogue::kStore);  // [M, 3D]
  const int d_k = d / n_heads;
  // Every row's key and value enter its cache first, head by head, so that rows of one state
  // (forced decoding) see each other up to their own position.
  for (int r = 0; r < m; ++r) {
    float* cache = states[r]->self_kv_layer(layer);  // [2, H, T, Dk]
    for (int kv = 0; kv < 2; ++kv) {
      for (int h = 0; h < n_heads; ++h) {
        copy(qkv + r * 3 * d + (kv + 1) * d + h * d_k, cache + states[r]->self_kv_row(kv, h, positions[r]), d_k);
      }
    }
  }
  for (int r = 0; r < m; ++r) {
    const float* cache = states[r]->self_kv_layer(layer);
    attend(qkv + r * 3 * d, cache, cache + states[r]->self_kv_row(1, 0, 0),
           KeyValueLayout::head_major(states[r]->capacity, d_k), positions[r] + 1, positions[r] + 1, n_heads, d,
           context + r * d, probs);
  }
  w.out_proj.apply(context, m, d, x, d, Epilogue::kAccumulate);
}

}  // namespace crossattn
