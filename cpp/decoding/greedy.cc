#include "decoding/greedy.h"

#include <algorithm>

#include "kernels/ops.h"

namespace crossattn {

std::vector<Hypothesis> greedy_search(const Transformer& model, const std::vector<const Matrix*>& encoder_outs,
                                      const std::vector<int>& max_lengths, bool keep_attention) {
  const ModelConfig& c = model.config();
  const int n = static_cast<int>(encoder_outs.size());
  const size_t heads = static_cast<size_t>(c.decoder_layers) * c.n_heads;
  std::vector<DecoderState> states;
  std::vector<Hypothesis> hyps(n);
  std::vector<std::vector<float>> steps(n);  // [max_length, L, H, S] per sentence
  states.reserve(n);
  for (int i = 0; i < n; ++i) {
    states.push_back(model.start(*encoder_outs[i], max_lengths[i]));
    hyps[i].ids.reserve(max_lengths[i]);
    if (keep_attention) steps[i].resize(max_lengths[i] * heads * states[i].src_len);
  }
  DecoderWorkspace ws;
  ws.reserve(n, c);
  std::vector<int> running(n), tokens(n, c.decoder_start_id);
  for (int i = 0; i < n; ++i) running[i] = i;
  std::vector<DecoderState*> rows(n);
  std::vector<float*> weights(n);
  while (!running.empty()) {
    const int m = static_cast<int>(running.size());
    for (int r = 0; r < m; ++r) {
      const int i = running[r];
      rows[r] = &states[i];
      tokens[r] = hyps[i].ids.empty() ? c.decoder_start_id : hyps[i].ids.back();
      weights[r] = keep_attention ? steps[i].data() + hyps[i].ids.size() * heads * states[i].src_len : nullptr;
    }
    model.decode(rows.data(), tokens.data(), m, ws, keep_attention ? weights.data() : nullptr);
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
  if (!keep_attention) return hyps;
  for (int i = 0; i < n; ++i) {  // [T, L*H, S] -> [L*H, T, S]
    const size_t t_len = hyps[i].ids.size(), s_len = states[i].src_len;
    hyps[i].cross_attention.resize(heads * t_len * s_len);
    for (size_t t = 0; t < t_len; ++t) {
      for (size_t lh = 0; lh < heads; ++lh) {
        std::copy_n(steps[i].data() + (t * heads + lh) * s_len, s_len,
                    hyps[i].cross_attention.data() + (lh * t_len + t) * s_len);
      }
    }
  }
  return hyps;
}

}  // namespace crossattn
