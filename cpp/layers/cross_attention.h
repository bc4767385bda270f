// Cross-attention (Vaswani et al. 2017, section 3.2.3, "encoder-decoder attention"): the queries come
// from the decoder's own states, the keys and values from the final encoder output. The encoder output
// is the same memory for every decoder layer; each layer projects it with its own W_K and W_V once per
// sentence (CrossAttentionMemory), and every decoding step reuses those projections. The result is
// added by the caller's residual to the decoder state that asked, so the block maps target_len query
// rows to target_len output rows whatever the source length.
// Legend: T target rows, S src_len, D d_model, H n_heads.
#pragma once

#include "model/weights.h"

namespace crossattn {

/// One decoder layer's projections of the encoder output: computed once per sentence.
struct CrossAttentionMemory {
  Matrix keys;    // [S, D] = encoder_out W_K^T + b_K
  Matrix values;  // [S, D] = encoder_out W_V^T + b_V
};

/// Projects encoder_out [S, D] with this layer's key and value weights.
CrossAttentionMemory project_cross_attention_memory(const Matrix& encoder_out, const AttentionWeights& w);

/// Cross-attention of decoder states x [T, D] (already layer-normed when pre-norm) over the memory.
/// out [T, D] is the attention result after W_O, to be added to the residual stream.
/// weights, when not null, receives [H, T, S] attention probabilities, each row summing to 1.
void cross_attention(const Matrix& x, const AttentionWeights& w, const CrossAttentionMemory& memory, int n_heads,
                     Matrix& out, float* weights);

}  // namespace crossattn
