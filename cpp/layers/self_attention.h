// Self-attention of the encoder (every position sees every position) and the decoder's masked
// self-attention over its KV cache (Vaswani et al. 2017, section 3.2.3).
// Legend: M rows, S src_len, D d_model, H n_heads.
#pragma once

#include "kernels/gemm.h"
#include "layers/decoder_state.h"

namespace crossattn {

/// The parameters of one self-attention block, packed for the kernels at load (model/weights.cc).
struct SelfAttentionWeights {
  PackedLinear qkv_proj;  // [D] -> [3D]: queries (scaled by 1/sqrt(Dk)), keys, values
  PackedLinear out_proj;  // [D] -> [D], W_O
};

/// x [S, D] += W_O attention(h) for h [S, D] (the layer-normed x when pre-norm).
/// Scratch: qkv [S, 3D], context [S, D], probs [H, S].
void encoder_self_attention(const float* h, int s_len, const SelfAttentionWeights& w, int n_heads, float* qkv,
                            float* context, float* probs, float* x);

/// x [M, D] += W_O attention(h) for the decoder rows h [M, D]. Row r is position positions[r] of
/// states[r]: its key and value are written to that state's cache of `layer`, and it attends to
/// positions 0 .. positions[r]. Rows of one state must come in position order.
/// Scratch: qkv [M, 3D], context [M, D], probs [H, max position + 1].
void decoder_self_attention(const float* h, int m, const SelfAttentionWeights& w, int n_heads,
                            DecoderState* const* states, const int* positions, int layer, float* qkv, float* context,
                            float* probs, float* x);

}  // namespace crossattn
