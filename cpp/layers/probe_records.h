// Where the probes of decoder rows (CrossAttentionProbe) are kept: one record per row fed to the
// decoder, read back for one target sequence in the layout of Translation (cpp/translation.h). Beam
// search feeds one row per live hypothesis per step and keeps every record until it knows the best
// hypothesis; a forced decode (Transformer::decode of a whole target) feeds row t for position t.
// Both read back through gather(), the one place that turns per-step records [T, L*H, S] into
// [L, H, T, S]. A record may also keep its row's final decoder state [D] (the alignment layer's
// input, layers/alignment_layer.h), so that a search's best hypothesis needs no second, forced pass.
// Legend: L decoder layers, H n_heads, S src_len, T target positions, D d_model.
#pragma once

#include <vector>

namespace crossattn {

class ProbeRecords {
 public:
  /// Records of L * H rows of S attention weights when `attention`, of L x {|x|, |u|, cos(x, u)}
  /// when `residual` (layers/cross_attention.h, CrossAttentionProbe), and of the row's final decoder
  /// state [state_width] when state_width > 0 (d_model; 0 keeps none).
  ProbeRecords(int layers, int heads, int src_len, bool attention, bool residual, int state_width = 0);

  /// Room for `records` records in all; pointers taken before may move.
  void resize(int records);
  /// Where record r's attention [L*H, S] goes; null when attention is not recorded.
  float* attention(int record);
  /// Where record r's residual statistics [L, 3] go; null when they are not recorded.
  float* residual(int record);
  /// Where record r's final decoder state [D] goes; null when states are not recorded.
  float* final_state(int record);

  /// The records of positions t = 0 .. T-1 (records[t]) into attention [L, H, T, S], residual
  /// [L, T, 3] and final_states [T, D], T = records.size(); each output may be null, and is left
  /// alone when not recorded.
  void gather(const std::vector<int>& records, float* attention, float* residual, float* final_states = nullptr) const;

 private:
  int layers_, heads_, src_len_, state_width_;
  bool attention_on_, residual_on_;
  std::vector<float> attention_;  // [records, L*H, S]
  std::vector<float> residual_;   // [records, L, 3]
  std::vector<float> states_;     // [records, D]
};

}  // namespace crossattn
