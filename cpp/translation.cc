#include "translation.h"

namespace crossattn {

namespace {

using P = FieldPresence;

// A ScoredHypothesis field as a Translation field (a base member is a member of the derived struct).
template <class T>
ResultField<Translation>::Member widen(T ScoredHypothesis::*member) {
  return static_cast<T Translation::*>(member);
}

ResultField<Translation> from_hypothesis(const char* name) {
  for (const ResultField<ScoredHypothesis>& f : hypothesis_fields()) {
    if (std::string(f.name) == name) {
      return {f.name, std::visit([](auto m) { return widen(m); }, f.member), f.shape, f.presence, f.doc, true};
    }
  }
  return {name, {}, "", P::kAlways, "", true};  // unreachable: every caller below names a field
}

}  // namespace

const std::vector<ResultField<ScoredHypothesis>>& hypothesis_fields() {
  using H = ScoredHypothesis;
  static const std::vector<ResultField<H>> fields = {
      {"text", &H::text, "", P::kAlways, "The translated text: the target pieces detokenized."},
      {"target_tokens", &H::target_tokens, "[T]",
       P::kAlways, "SentencePiece pieces of the target, eos (`</s>`) last unless the length limit cut the output."},
      {"target_ids", &H::target_ids, "[T]", P::kAlways, "The vocabulary id of each of target_tokens."},
      {"token_log_probs", &H::token_log_probs, "[T]", P::kAlways,
       "Log-probability of each target token given the ones before it and the source (nats)."},
      {"log_prob", &H::log_prob, "", P::kAlways, "Sum of the log-probabilities of target_tokens (nats)."},
      {"score", &H::score, "", P::kAlways,
       "log_prob / ((5 + T) / 6) ** length_penalty: what beam search ranks by (Wu et al. 2016, eq. 14)."},
  };
  return fields;
}

const std::vector<ResultField<Translation>>& translation_fields() {
  using R = Translation;
  static const std::vector<ResultField<R>> fields = {
      from_hypothesis("text"),
      {"source_tokens", &R::source_tokens, "[S]", P::kAlways, "SentencePiece pieces fed to the encoder, eos (`</s>`) last."},
      from_hypothesis("target_tokens"),
      {"source_ids", &R::source_ids, "[S]", P::kAlways, "The vocabulary id of each of source_tokens."},
      from_hypothesis("target_ids"),
      from_hypothesis("token_log_probs"),
      from_hypothesis("log_prob"),
      from_hypothesis("score"),
      {"confidence", &R::confidence, "", P::kAlways,
       "How sure the model is of this translation, in (0, 1]: the geometric mean of its token probabilities, "
       "exp(mean of token_log_probs) (Fomicheva et al. 2020, \"Unsupervised Quality Estimation for Neural Machine "
       "Translation\"). docs/confidence.md measures how well it ranks translations by quality (Spearman 0.48-0.51 "
       "with chrF on FLORES dev) and how well it and word_confidence find injected errors (ROC AUC 0.62-0.64 for a "
       "sentence, 0.91 for a word)."},
      {"word_confidence", &R::word_confidence, "[W]", P::kAlways,
       "For each of target_words, the probability of the whole word (the product of its tokens')."},
      {"hypotheses", &R::hypotheses, "[n_best]", P::kAlways,
       "The n-best list (options.n_best entries), best first; hypotheses[0] is this translation. Empty for blank "
       "text and align()."},
      {"source_words", &R::source_words, "", P::kAlways,
       "Whitespace-separated words of the source text: the units of alignment."},
      {"target_words", &R::target_words, "[W]", P::kAlways,
       "Whitespace-separated words of the target text: the units of alignment and word_confidence."},
      {"source_word_of_token", &R::source_word_of_token, "[S]", P::kAlways, "The source word of each token, -1 for eos."},
      {"target_word_of_token", &R::target_word_of_token, "[T]", P::kAlways, "The target word of each token, -1 for eos."},
      {"layers", &R::layers, "", P::kShape, "Decoder layers of cross_attention and residual (L)."},
      {"heads", &R::heads, "", P::kShape, "Heads per layer of cross_attention (H)."},
      {"cross_attention", &R::cross_attention, "[L, H, T, S]", P::kOnRequest,
       "Cross-attention weights of the best hypothesis: [l][h][t][s] is how much target position t attended to "
       "source position s in decoder layer l, head h; each row sums to 1. Only with options.attention."},
      {"alignment", &R::alignment, "", P::kOnRequest, "Word alignments from cross-attention, when options.alignment asked for them: links, (source, target) "
       "word index pairs sorted by target (Pharaoh s-t), and weights [target_words][source_words], the attention "
       "each target word pays to each source word, rows summing to 1."},
      {"residual", &R::residual, "[L, T, 3]", P::kOnRequest,
       "Statistics of each cross-attention residual connection x + u, per decoder layer l and target position t: "
       "the L2 norm of the residual input x, the norm of the update u = W_O context + b_O, and cos(x, u) "
       "(layers/cross_attention.h). Only with options.residual."},
  };
  return fields;
}

}  // namespace crossattn
