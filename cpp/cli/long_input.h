// Long input for crossattn-cli: a sentence over the model's limit is translated in parts instead of
// failing, by the rule of the npm package (bindings/src/long-input.ts, docs/api.md "Long input").
//
// The limit is max_positions source tokens, counted in the model's tokens (Translator::source_length:
// SentencePiece pieces plus eos). A sentence within it is translated whole. One over it is cut into
// parts of at most kLongInputPartTokens (48) tokens, or max_positions / 2 if less: about two everyday
// sentences, where the models translate best (longer parts measured worse: long-input.ts), in order:
//   1. at semicolons (";" followed by whitespace, or the full-width "；"),
//   2. else at colons (":" + whitespace, "："),
//   3. else at commas ("," + whitespace, "，", "、"),
//   4. else before a conjunction of the source language (en: and, but, or, nor, yet; de: und, aber,
//      oder, sondern, denn, doch; ASCII case-insensitive; none for other languages),
//   5. else at whitespace,
//   6. else, for a run of more than the budget without whitespace, between UTF-8 code points
//      (the package cuts between grapheme clusters there).
// A sentence of more than kLongInputFactor x max_positions tokens, or whose cut leaves a part over
// max_positions (one code point of that many tokens), raises Error(kInputTooLong) instead.
// Each level cuts at all its boundaries; a piece still over the budget is cut at the next level;
// then neighbouring pieces merge, left to right, while the merge fits the budget. The punctuation
// stays with the part before it; parts are trimmed substrings of the sentence.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "translator.h"

namespace crossattn {

/// The longest sentence translated in parts, in multiples of max_positions source tokens.
constexpr int kLongInputFactor = 16;
/// The most source tokens of one part (eos included), unless max_positions / 2 is less.
constexpr int kLongInputPartTokens = 48;

/// The parts `text` is translated in: {text} when source_length(text) <= max_positions, else its
/// parts by the rule above, each of at most min(kLongInputPartTokens, max_positions / 2) tokens (unless one code point alone
/// has more), trimmed, in order. `lang` is the source language ("en", "de"). Raises
/// Error(kInputTooLong) past the rule's cap (above).
std::vector<std::string> split_long_sentence(const std::string& text, const std::string& lang, int max_positions,
                                             const std::function<int(const std::string&)>& source_length);

/// translator.translate(text, options), or for a sentence over the limit its parts translated as a
/// batch and joined: text, the parts' texts joined with spaces; tokens, ids, log-probabilities,
/// words and word confidences one part after another (word indexes offset); log_prob and score the
/// sums; confidence the geometric mean probability of all target tokens; hypotheses the joined best
/// alone; alignment links offset (its weights empty); cross_attention and residual empty (they exist per part only).
/// Errors as Translator::translate.
Translation translate_long(const Translator& translator, const std::string& text, const TranslateOptions& options);

}  // namespace crossattn
