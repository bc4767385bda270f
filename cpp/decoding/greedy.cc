#include "decoding/greedy.h"

#include <cmath>

namespace crossattn {

Hypothesis greedy_search(const Transformer& model, const Matrix& encoder_out, int max_length, bool keep_attention) {
  const ModelConfig& c = model.config();
  const int s_len = static_cast<int>(encoder_out.rows());
  const size_t step_size = static_cast<size_t>(c.decoder_layers) * c.n_heads * s_len;  // [L, H, 1, S]
  DecoderState state = model.start(encoder_out, max_length);
  std::vector<float> steps;  // [T, L, H, S], transposed to [L, H, T, S] at the end
  Hypothesis hyp;
  Matrix logits;  // [1, V]
  int token = c.decoder_start_id;
  for (int t = 0; t < max_length; ++t) {
    if (keep_attention) steps.resize(steps.size() + step_size);
    model.decode(state, {token}, logits, keep_attention ? steps.data() + t * step_size : nullptr);
    Eigen::Index best;
    const float max_logit = logits.row(0).maxCoeff(&best);
    const float log_z = max_logit + std::log((logits.row(0).array() - max_logit).exp().sum());
    token = static_cast<int>(best);
    hyp.ids.push_back(token);
    hyp.log_prob += max_logit - log_z;
    if (token == c.eos_id) break;
  }
  if (keep_attention) {
    const size_t t_len = hyp.ids.size(), heads = static_cast<size_t>(c.decoder_layers) * c.n_heads;
    hyp.cross_attention.resize(heads * t_len * s_len);
    for (size_t t = 0; t < t_len; ++t) {
      for (size_t lh = 0; lh < heads; ++lh) {
        std::copy_n(steps.data() + t * step_size + lh * s_len, s_len,
                    hyp.cross_attention.data() + (lh * t_len + t) * s_len);
      }
    }
  }
  return hyp;
}

}  // namespace crossattn
