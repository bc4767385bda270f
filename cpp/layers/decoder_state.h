// What the decoder keeps for one hypothesis between steps: the keys and values of its masked
// self-attention for every position decoded so far (the KV cache), or for an SSRU decoder
// (layers/ssru.h) each layer's cell state instead, and each layer's projection of
// the final encoder output into cross-attention keys and values, made once per sentence and shared
// (not copied) by every beam-search hypothesis of that sentence.
// The cache is preallocated for `capacity` target positions, so decoding a step allocates nothing.
// Legend: L decoder layers, S src_len, D d_model, H n_heads, Dk = D / H, T capacity.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "kernels/uninitialized.h"

namespace crossattn {

struct DecoderState {
  int d_model = 0;
  int n_heads = 1;
  int src_len = 0;
  int capacity = 0;  // target positions the cache holds
  int length = 0;    // target positions fed so far
  // [L, 2, H, T, Dk]: each layer's keys, then its values, head by head, row t of position t
  // (KeyValueLayout::head_major); empty for an SSRU decoder.
  UninitializedVector<float> self_kv;
  // [L, D]: each layer's SSRU cell state c_t; empty for a self-attention decoder.
  std::vector<float> ssru_cell;
  // [L, 2, H, S, Dk]: each layer's keys, then its values, head by head (KeyValueLayout::head_major).
  std::shared_ptr<const UninitializedVector<float>> cross_kv;

  float* self_kv_layer(int layer) { return self_kv.data() + static_cast<std::size_t>(layer) * capacity * 2 * d_model; }
  /// Where position t's key (kv 0) or value (kv 1) of head h lies in a layer's cache [2, H, T, Dk].
  std::size_t self_kv_row(int kv, int h, int t) const {
    return ((static_cast<std::size_t>(kv) * n_heads + h) * capacity + t) * static_cast<std::size_t>(d_model / n_heads);
  }
  float* ssru_cell_layer(int layer) { return ssru_cell.data() + static_cast<std::size_t>(layer) * d_model; }
  const float* cross_kv_layer(int layer) const {
    return cross_kv->data() + static_cast<std::size_t>(layer) * src_len * 2 * d_model;
  }

  /// A state for another hypothesis of the same sentence, as start() made this one (beam search's
  /// slots): the same capacity and cross-attention memory (shared, not copied), an empty cache of its
  /// own (length 0; its rows are written before they are read), zero SSRU cell states. Copies none of
  /// this state's cache.
  DecoderState sibling() const {
    DecoderState s;
    s.d_model = d_model;
    s.n_heads = n_heads;
    s.src_len = src_len;
    s.capacity = capacity;
    s.self_kv.resize(self_kv.size());
    s.ssru_cell.resize(ssru_cell.size());
    s.cross_kv = cross_kv;
    return s;
  }

  /// Makes this state continue `from`'s prefix (beam search, when a hypothesis takes over another's
  /// slot): copies its length and cache rows [shared_rows, length) of each layer and head, or its
  /// SSRU cell states. The first `shared_rows` rows (clamped to [0, from.length]) must already be
  /// from's: those of a common prefix, which beam search computes once and copies, so they are the
  /// same bits. Both states must come from the same start() (same capacity and memory). Allocates nothing.
  void assign_prefix(const DecoderState& from, int shared_rows = 0) {
    const std::size_t row = static_cast<std::size_t>(d_model / n_heads), head = capacity * row;  // Dk, T Dk
    const std::size_t first = static_cast<std::size_t>(std::clamp(shared_rows, 0, from.length)) * row;
    for (std::size_t offset = 0; offset < self_kv.size(); offset += head) {
      std::copy(from.self_kv.data() + offset + first, from.self_kv.data() + offset + from.length * row,
                self_kv.data() + offset + first);
    }
    std::copy(from.ssru_cell.begin(), from.ssru_cell.end(), ssru_cell.begin());
    length = from.length;
  }
};

}  // namespace crossattn
