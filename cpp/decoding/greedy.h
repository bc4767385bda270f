// Greedy decoding: at each step the most probable next token, until eos or the length limit.
// Legend: L decoder layers, H n_heads, T generated tokens, S src_len.
#pragma once

#include <vector>

#include "model/transformer.h"

namespace crossattn {

struct Hypothesis {
  std::vector<int> ids;                // [T] generated ids, ending with eos unless max_length stopped it
  std::vector<float> cross_attention;  // [L, H, T, S] when requested, else empty
  float log_prob = 0.0f;               // sum of log p(token) over ids, in nats
};

/// Decodes up to max_length tokens from encoder_out [S, D].
Hypothesis greedy_search(const Transformer& model, const Matrix& encoder_out, int max_length, bool keep_attention);

}  // namespace crossattn
