#include "decoding/confidence.h"

#include <cmath>

namespace crossattn {

Confidence confidence(const std::vector<float>& token_log_probs, const std::vector<int>& word_of_token, int n_words) {
  Confidence out;
  std::vector<double> word_log_prob(n_words, 0.0);  // [W]
  double total = 0.0;
  for (size_t t = 0; t < token_log_probs.size(); ++t) {
    total += token_log_probs[t];
    if (word_of_token[t] >= 0) word_log_prob[word_of_token[t]] += token_log_probs[t];
  }
  if (!token_log_probs.empty()) out.sentence = static_cast<float>(std::exp(total / token_log_probs.size()));
  out.words.reserve(n_words);
  for (double lp : word_log_prob) out.words.push_back(static_cast<float>(std::exp(lp)));
  return out;
}

}  // namespace crossattn
