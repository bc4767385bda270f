// Multi-head scaled dot-product attention (Vaswani et al. 2017, eq. 1 and section 3.2.2) for one
// query row, shared by the encoder's self-attention, the decoder's masked self-attention and
// cross-attention (layers/cross_attention.h explains who asks whom there).
// Legend: S key/value rows, D d_model, H n_heads, Dk = D / H.
#pragma once

namespace crossattn {

/// Where head h's key (and value) row s lies: h * head_stride + s * row_stride floats from the start.
struct KeyValueLayout {
  int row_stride;
  int head_stride;
  /// [S, ...]: each row holds every head's Dk floats side by side; rows ld floats apart.
  static KeyValueLayout token_major(int ld, int d_k) { return {ld, d_k}; }
  /// [H, S, Dk]: each head's S rows together, so that a head reads one stream (cross-attention's
  /// memory, read once per decoder layer and step, mostly from beyond L1).
  static KeyValueLayout head_major(int s_rows, int d_k) { return {d_k, s_rows * d_k}; }
};

/// softmax(q K^T) V for each head h of one query row, with 1/sqrt(Dk) already folded into q.
///   q [D]: the query, heads side by side;
///   keys, values: S rows per head, where `layout` says;
///   visible: the query sees key rows 0 .. visible-1 (1 <= visible <= S); causal masking passes
///            its own position + 1, and rows from `visible` on get exactly zero weight;
///   context [D] receives the concatenated head outputs (before W_O);
///   probs [H, S] receives the attention probabilities, each row summing to 1.
void attend(const float* q, const float* keys, const float* values, KeyValueLayout layout, int s_len, int visible,
            int n_heads, int d_model, float* context, float* probs);

}  // namespace crossattn
