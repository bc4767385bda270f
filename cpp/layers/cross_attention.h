// Cross-attention (Vaswani et al. 2017, section 3.2.3, "encoder-decoder attention"): the queries come
// from the decoder's own states, the keys and values from the final encoder output. The encoder output
// is the same memory for every decoder layer; each layer projects it with its own W_K and W_V once per
// sentence (project_cross_attention_memory), and every decoding step reuses those projections. The
// result is added by the residual to the decoder state that asked, so the block maps target_len query
// rows to target_len output rows whatever the source length.
// Legend: M decoder rows, S src_len, D d_model, H n_heads, L decoder layers.
#pragma once

#include "kernels/gemm.h"
#include "layers/decoder_state.h"

namespace crossattn {

/// The parameters of one cross-attention block, packed for the kernels at load (model/weights.cc).
struct CrossAttentionWeights {
  PackedLinear q_proj;   // [D] -> [D], decoder states to queries (scaled by 1/sqrt(Dk))
  PackedLinear kv_proj;  // [D] -> [2D], encoder_out to keys and values
  PackedLinear out_proj; // [D] -> [D], W_O
};

/// Projects encoder_out [S, D] with this layer's fused W_K, W_V into memory [2, H, S, Dk]: the keys
/// then the values, each head's S rows together (KeyValueLayout::head_major). Scratch: projected
/// [S, 2D].
void project_cross_attention_memory(const float* encoder_out, int s_len, const CrossAttentionWeights& w, int n_heads,
                                    float* projected, float* memory);

/// What cross_attention can record per decoder row r, for the views that explain it. Each array
/// (and each row pointer in it) may be null.
struct CrossAttentionProbe {
  /// weights[r] + layer * H * S_r receives row r's attention probabilities [H, S_r].
  float* const* weights = nullptr;
  /// residual[r] + layer * 3 receives {|x|, |u|, cos(x, u)} for row r's residual input x [D] and
  /// the block's update u = W_O context + b_O [D] that the residual adds to it (L2 norms).
  float* const* residual = nullptr;
};

/// x [M, D] += W_O attention(h) for the decoder rows h [M, D] (layer-normed when pre-norm); row r
/// attends over the memory of states[r] in `layer`. `probe` (may be null) records weights and
/// residual statistics. Scratch: q [M, D], context [M, D], probs [H, S] for the longest source.
void cross_attention(const float* h, int m, const CrossAttentionWeights& w, int n_heads, DecoderState* const* states,
                     int layer, float* q, float* context, float* probs, const CrossAttentionProbe* probe, float* x);

}  // namespace crossattn
