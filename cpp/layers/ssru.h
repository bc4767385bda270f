// The Simpler Simple Recurrent Unit (SSRU; Kim et al. 2019, "From Research to Production and Back:
// Ludicrously Fast Neural Machine Translation", section 3.2), the decoder's autoregressive block in
// Bergamot's tiny students instead of masked self-attention: each layer carries one cell state
// c [D] per hypothesis from step to step, so a step costs the same at any target length and keeps
// no KV cache. As Marian computes it (browsermt/marian-dev, commit 2781d735):
//   f_t = sigmoid(x_t W_f + b_f)                        src/rnn/cells.h:1045 (affine), 1058 (highway)
//   c_t = f_t * c_{t-1} + (1 - f_t) * (x_t W)           src/rnn/cells.h:1044, 1058; the highway op is
//                                                       sigmoid(t) * y + (1 - sigmoid(t)) * x with
//                                                       y = c_{t-1}, x = x_t W, t = f
//                                                       (src/tensors/cpu/tensor_operators.cpp:1593-1600)
//   o_t = relu(c_t)                                     src/rnn/cells.h:1059
//   c_0 = 0                                             src/models/transformer.h:676-678 (decoder
//                                                       start states are zeros)
// x_t is the decoder layer's input after the pre-processing (src/models/transformer.h:519: layer
// norm when pre-norm, nothing when post-norm); the cell runs over the target positions one at a time
// (src/rnn/rnn.h:56-93, SingleLayerRNN::apply), its outputs o_t are the layer's, and the last step's
// {o_t, c_t} is the state the next decoding step starts from (src/models/transformer.h:522-523).
// The block's output o_t is added to the layer's input by the residual, then layer-normed when
// post-norm (src/models/transformer.h:527, postProcess 180-201 with "dan": dropout, add, norm).
// Inputs and state have one width, d_model (src/rnn/cells.h:1000-1001). Marian's parameters
// W [D, D], W_f [D, D] (x times W: [in, out]), b_f [1, D] are decoder_l{i}_rnn_W, _rnn_Wf, _rnn_bf (src/rnn/cells.h:
// 1006-1011, prefix from src/models/transformer.h:794); the post-norm is decoder_l{i}_rnn_ffn_ln_scale
// and _ln_bias (src/models/transformer.h:527 with src/layers/generic.h:459-464), the pre-norm
// decoder_l{i}_rnn_ln_scale_pre and _ln_bias_pre (src/models/transformer.h:173). Marian's optional
// cell-internal layer normalization (--layer-normalization, src/rnn/cells.h:1040-1043) is not
// supported: a converter must refuse such a model.
// Legend: M decoder rows, D d_model, L decoder layers.
#pragma once

#include "kernels/gemm.h"
#include "layers/decoder_state.h"

namespace crossattn {

/// The parameters of one SSRU block, packed for the kernels at load (model/weights.cc).
struct SsruWeights {
  PackedLinear gates;  // [D] -> [2D]: x W (no bias) then x W_f + b_f, W and W_f fused into one [2D, D]
};

/// x [M, D] += relu(c_t) for the decoder rows h [M, D] (x_t above; the layer-normed x when pre-norm).
/// Row r advances the cell state of states[r] in `layer` by one step, in row order, so that rows of
/// one state (forced decoding) run the recurrence position by position. Scratch: gates [M, 2D].
/// Allocates nothing.
void ssru(const float* h, int m, const SsruWeights& w, DecoderState* const* states, int layer, float* gates,
          float* x);

}  // namespace crossattn
