// How sure the model is of its own translation, read from its token probabilities: glass-box
// quality estimation as in Fomicheva et al. 2020 ("Unsupervised Quality Estimation for Neural
// Machine Translation", TACL), whose "TP" indicator, the mean log-probability of the output's
// tokens, correlates with human quality judgements without any extra model.
//
//   sentence confidence = exp(1/T * sum_t log p(y_t | y_<t, x))   the geometric mean token probability
//   word confidence     = exp(sum over the word's tokens of log p) the probability of the whole word
//
// Both are in (0, 1]. eos counts for the sentence (a translation the model did not want to end is
// a doubtful one) and belongs to no word. docs/confidence.md measures how well the sentence score
// ranks translations on FLORES dev.
// Legend: T target tokens, W target words.
#pragma once

#include <vector>

namespace crossattn {

struct Confidence {
  float sentence = 1.0f;     // geometric mean token probability; 1 for an empty output
  std::vector<float> words;  // [W] probability of each target word
};

/// Confidence from `token_log_probs` [T] (nats) and `word_of_token` [T] (the target word of each
/// token in [0, n_words), -1 for tokens of no word such as eos). Raises nothing; sizes must match.
Confidence confidence(const std::vector<float>& token_log_probs, const std::vector<int>& word_of_token, int n_words);

}  // namespace crossattn
