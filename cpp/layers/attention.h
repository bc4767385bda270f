// Multi-head scaled dot-product attention (Vaswani et al. 2017, eq. 1 and section 3.2.2), and the
// self-attention of encoder and decoder built on it. Cross-attention lives in cross_attention.h.
// Legend: T query rows, S key/value rows, D d_model, H n_heads, Dk = D / H.
#pragma once

#include "model/weights.h"

namespace crossattn {

/// softmax(Q K^T / sqrt(Dk)) V for every head, with the 1/sqrt(Dk) already applied to `q`.
///   q [T, D] queries, k [S, D] keys, v [S, D] values, all heads side by side in D;
///   context [T, D] receives the concatenated head outputs (before W_O);
///   weights, when not null, receives the attention probabilities [H, T, S], each row summing to 1.
/// With causal_offset >= 0, query row t sees only key rows 0 .. t + causal_offset.
void attend(const Matrix& q, const Eigen::Ref<const Matrix>& k, const Eigen::Ref<const Matrix>& v, int n_heads,
            int causal_offset, Matrix& context, float* weights);

/// Encoder self-attention: x [S, D] -> out [S, D]; every position sees every position.
void encoder_self_attention(const Matrix& x, const AttentionWeights& w, int n_heads, Matrix& out);

/// Keys and values of the decoder's masked self-attention for the positions decoded so far.
struct KVCache {
  Matrix keys, values;  // [max_len, D], rows 0 .. length-1 filled
  int length = 0;

  void reset(int max_len, int d_model);
};

/// Decoder self-attention for the new rows x [T, D] at positions cache.length .. cache.length+T-1,
/// each seeing itself and the positions before it. Appends their keys and values to the cache.
/// out [T, D].
void decoder_self_attention(const Matrix& x, const AttentionWeights& w, int n_heads, KVCache& cache, Matrix& out);

}  // namespace crossattn
