// The word alignment layer: one extra attention over the final encoder output whose query already
// knows the target token it aligns (Zenkel et al. 2019, "Adding Interpretable Attention to Neural
// Translation Models Improves Word Alignment", section 3: the alignment layer attends with the target
// word's embedding; Chen et al. 2020, Shift-AET, section 3.2: a separate alignment module trained on
// alignment links while the translation model stays frozen). It feeds nothing back into the decoder,
// so translations are the same with and without it. models/alignment_layer.py trains it and is its
// PyTorch reference; docs/alignment.md measures it.
//
//   q_t = W_state h_t + b_state + W_embed E[y_t]     h_t the decoder's final state at the step
//                                                   that predicts y_t (after the final layer norm)
//   k_i = W_key encoder_out_i
//   A[t, i] = softmax_i(q_t . k_i / sqrt(D))
//
// Legend: T target positions, S source positions (eos included), D d_model.
#pragma once

#include "kernels/gemm.h"

namespace crossattn {

/// The layer's parameters (tensors alignment.*, docs/model-format.md), packed at load (model/weights.cc).
struct AlignmentLayerWeights {
  PackedLinear q_state;  // [D] -> [D] with bias, final decoder states to queries
  PackedLinear q_embed;  // [D] -> [D], target token embeddings to queries (no bias)
  PackedLinear k_proj;   // [D] -> [D], encoder_out to keys (no bias: it would shift every score of a row alike)

  bool empty() const { return q_state.out() == 0; }
};

/// weights [T, S] = softmax over each row of (W_state states + b + W_embed embeds)(W_key encoder_out)^T / sqrt(D),
/// for states [T, D] (final decoder states), embeds [T, D] (rows of the target embedding, unscaled, of
/// the tokens y_t) and encoder_out [S, D]. Rows sum to 1. Needs !w.empty(), t_len >= 1, s_len >= 1.
void alignment_attention(const float* states, const float* embeds, int t_len, const float* encoder_out, int s_len,
                         const AlignmentLayerWeights& w, float* weights);

}  // namespace crossattn
