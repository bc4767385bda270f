// What the decoder keeps for one sentence between steps: the keys and values of its masked
// self-attention for every position decoded so far (the KV cache), and each layer's projection of
// the final encoder output into cross-attention keys and values, made once per sentence.
// Both are preallocated for `capacity` target positions, so decoding a step allocates nothing.
// Legend: L decoder layers, S src_len, D d_model.
#pragma once

#include <cstddef>
#include <vector>

namespace crossattn {

struct DecoderState {
  int d_model = 0;
  int src_len = 0;
  int capacity = 0;  // target positions the cache holds
  int length = 0;    // target positions fed so far
  std::vector<float> self_kv;   // [L, capacity, 2D]: row t = key then value of position t
  std::vector<float> cross_kv;  // [L, S, 2D]: row s = key then value of source position s

  float* self_kv_layer(int layer) { return self_kv.data() + static_cast<std::size_t>(layer) * capacity * 2 * d_model; }
  const float* cross_kv_layer(int layer) const {
    return cross_kv.data() + static_cast<std::size_t>(layer) * src_len * 2 * d_model;
  }
};

}  // namespace crossattn
