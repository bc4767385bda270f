// What a translation returns: ScoredHypothesis (one entry of an n-best list) and Translation (the
// best hypothesis with its source side, words, confidence and the cross-attention behind it).
//
// Each field's meaning lives once, in the field tables below (hypothesis_fields(),
// translation_fields()): name, shape, when it is present, and doc. The front ends name them in their
// own words: bindings/ turns the tables into the JavaScript result (bindings/result_value.cc) and its
// TypeScript declarations and docs (tools/internals/result-types.js); nothing else restates a field.
// Legend: L decoder layers, H n_heads, S source tokens, T target tokens, W target words.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "alignment/word_alignment.h"

namespace crossattn {

/// One entry of an n-best list (fields: hypothesis_fields()).
struct ScoredHypothesis {
  std::string text;
  std::vector<std::string> target_tokens;
  std::vector<int> target_ids;
  std::vector<float> token_log_probs;
  float log_prob = 0.0f;
  float score = 0.0f;
};

/// A translation: the best hypothesis (the base, so that its fields are the translation's own, not
/// copies) with the source side and what was asked for (fields: translation_fields()).
struct Translation : ScoredHypothesis {
  std::vector<std::string> source_tokens;
  std::vector<int> source_ids;
  float confidence = 1.0f;
  std::vector<float> word_confidence;
  std::vector<ScoredHypothesis> hypotheses;
  std::vector<std::string> source_words, target_words;
  std::vector<int> source_word_of_token, target_word_of_token;
  int layers = 0, heads = 0;
  std::vector<float> cross_attention;
  std::vector<float> residual;
  std::optional<WordAlignment> alignment;
};

/// When a field is there. kShape fields size another field; front ends use them to shape it and
/// need not show them.
enum class FieldPresence { kAlways, kOnRequest, kShape };

/// One field of a result struct R: its C++ name, where it lives, its shape in the legend's letters
/// ("" for a scalar or text), when it is present, and what it means (in C++ names).
template <class R>
struct ResultField {
  using Member = std::variant<std::string R::*, std::vector<std::string> R::*, std::vector<int> R::*,
                              std::vector<float> R::*, float R::*, int R::*, std::vector<ScoredHypothesis> R::*,
                              std::optional<WordAlignment> R::*>;
  const char* name;
  Member member;
  const char* shape;
  FieldPresence presence;
  const char* doc;
  /// True for a Translation field that is its best hypothesis' (a ScoredHypothesis field).
  bool from_hypothesis = false;
};

/// Every field of ScoredHypothesis, in order.
const std::vector<ResultField<ScoredHypothesis>>& hypothesis_fields();
/// Every field of Translation, in the order front ends show them, the best hypothesis' among them.
const std::vector<ResultField<Translation>>& translation_fields();

}  // namespace crossattn
