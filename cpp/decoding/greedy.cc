#include "decoding/greedy.h"

#include <algorithm>

#include "kernels/ops.h"

namespace crossattn {

std::vector<Hypothesis> greedy_search(const Transformer& model, const std::vector<const Matrix*>& encoder_outs,
                                      const std::vector<int>& max_lengths, SearchProbes probes) {
  const ModelConfig& c = model.config();
  const int n = static_cast<int>(encoder_outs.size());
  const int layers = c.decoder_layers, heads = layers * c.n_heads;
  std::vector<DecoderState> states;
  std::vector<Hypothesis> hyps(n);
  // Per sentence: [max_length, L*H, S] attention and [max_length, L, 3] residual statistics.
  std::vector<std::vector<float>> weight_steps(n), residual_steps(n);
  states.reserve(n);
  for (int i = 0; i < n; ++i) {
    states.push_back(model.start(*encoder_outs[i], max_lengths[i]));
    hyps[i].ids.reserve(max_lengths[i]);
    if (probes.attention) weight_steps[i].resize(static_cast<size_t>(max_lengths[i]) * heads * states[i].src_len);
    if (probes.residual) residual_steps[i].resize(static_cast<size_t>(max_lengths[i]) * layers * 3);
  }
  DecoderWorkspace ws;
  ws.reserve(n, c);
  std::vector<int> running(n), tokens(n, c.decoder_start_id);
  for (int i = 0; i < n; ++i) running[i] = i;
  std::vector<DecoderState*> rows(n);
  std::vector<float*> weight_rows(n, nullptr), residual_rows(n, nullptr);
  const CrossAttentionProbe probe{probes.attention ? weight_rows.data() : nullptr,
                                  probes.residual ? residual_rows.data() : nullptr};
  while (!running.empty()) {
    const int m = static_cast<int>(running.size());
    for (int r = 0; r < m; ++r) {
      const int i = running[r];
      rows[r] = &states[i];
      tokens[r] = hyps[i].ids.empty() ? c.decoder_start_id : hyps[i].ids.back();
      const size_t t = hyps[i].ids.size();
      if (probes.attention) weight_rows[r] = weight_steps[i].data() + t * heads * states[i].src_len;
      if (probes.residual) residual_rows[r] = residual_steps[i].data() + t * layers * 3;
    }
    model.decode(rows.data(), tokens.data(), m, ws, &probe);
    int kept = 0;
    for (int r = 0; r < m; ++r) {
      const int i = running[r];
      const float* logits = ws.logits.data() + static_cast<size_t>(r) * c.vocab_size;  // [V]
      int best = 0;
      const float log_z = log_sum_exp(logits, c.vocab_size, &best);
      hyps[i].ids.push_back(best);
      hyps[i].log_prob += logits[best] - log_z;
      const bool done = best == c.eos_id || static_cast<int>(hyps[i].ids.size()) >= max_lengths[i];
      if (!done) running[kept++] = i;
    }
    running.resize(kept);
  }
  for (int i = 0; i < n; ++i) {
    const int t_len = static_cast<int>(hyps[i].ids.size());
    if (probes.attention) {
      hyps[i].cross_attention.resize(static_cast<size_t>(heads) * t_len * states[i].src_len);
      swap_leading_axes(weight_steps[i].data(), t_len, heads, states[i].src_len, hyps[i].cross_attention.data());
    }
    if (probes.residual) {
      hyps[i].residual.resize(static_cast<size_t>(layers) * t_len * 3);
      swap_leading_axes(residual_steps[i].data(), t_len, layers, 3, hyps[i].residual.data());
    }
  }
  return hyps;
}

}  // namespace crossattn
