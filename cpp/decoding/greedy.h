// Greedy decoding: at each step the most probable next token, until eos or the length limit.
// Several sentences decode together: each step is one batched decode call over the sentences still
// running, so the linear layers multiply [running, D] matrices instead of vectors. A sentence's
// result does not depend on what it is batched with (the kernels sum each row in the same order).
// Legend: L decoder layers, H n_heads, T generated tokens, S src_len, D d_model.
#pragma once

#include <vector>

#include "model/transformer.h"

namespace crossattn {

struct Hypothesis {
  std::vector<int> ids;                // [T] generated ids, ending with eos unless max_length stopped it
  std::vector<float> cross_attention;  // [L, H, T, S] when requested, else empty
  std::vector<float> residual;         // [L, T, 3] cross-attention residual statistics when requested
  float log_prob = 0.0f;               // sum of log p(token) over ids, in nats
};

/// What greedy_search records besides the tokens.
struct SearchProbes {
  bool attention = false;  // Hypothesis::cross_attention
  bool residual = false;   // Hypothesis::residual (CrossAttentionProbe::residual)
};

/// Decodes sentence i from encoder_outs[i] [S_i, D] for up to max_lengths[i] tokens (>= 1), all
/// sentences in one batch. Returns one hypothesis per sentence, in order. The decoding loop
/// allocates nothing: buffers are sized before the first step.
std::vector<Hypothesis> greedy_search(const Transformer& model, const std::vector<const Matrix*>& encoder_outs,
                                      const std::vector<int>& max_lengths, SearchProbes probes);

}  // namespace crossattn
