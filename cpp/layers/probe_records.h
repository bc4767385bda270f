// Where the probes of decoder rows (CrossAttentionProbe) are kept: one record per row fed to the
// decoder, read back for one target sequence in the layout of Translation (cpp/translation.h). Beam
// search feeds one row per live hypothesis per step and keeps every record until it knows the best
// hypothesis; a forced decode (Transformer::decode of a whole target) feeds row t for position t.
// Both read back through gather(), the one place that turns per-step records [T, L*H, S] into
// [L, H, T, S].
// Legend: L decoder layers, H n_heads, S src_len, T target positions.
#pragma once

#include <vector>

namespace crossattn {

class ProbeRecords {
 public:
  /// Records of L * H rows of S attention weights when `attention`, of L x {|x|, |u|, cos(x, u)}
  /// when `residual` (layers/cross_attention.h, CrossAttentionProbe).
  ProbeRecords(int layers, int heads, int src_len, bool attention, bool residual);

  /// Room for `records` records in all; pointers taken before may move.
  void resize(int records);
  /// Where record r's attention [L*H, S] goes; null when attention is not recorded.
  float* attention(int record);
  /// Where record r's residual statistics [L, 3] go; null when they are not recorded.
  float* residual(int record);

  /// The records of positions t = 0 .. T-1 (records[t]) into attention [L, H, T, S] and residual
  /// [L, T, 3], T = records.size(); each output may be null, and is left alone when not recorded.
  void gather(const std::vector<int>& records, float* attention, float* residual) const;

 private:
  int layers_, heads_, src_len_;
  bool attention_on_, residual_on_;
  std::vector<float> attention_;  // [records, L*H, S]
  std::vector<float> residual_;   // [records, L, 3]
};

}  // namespace crossattn
