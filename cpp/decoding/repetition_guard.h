// A guard against degenerate repetition loops ("antantantant…", "of the city of the city of the
// city …"), the typical failure of a small translation model on out-of-domain input, in greedy
// and beam search alike.
//
// Rule: no span of 1 .. kMaxRepeatSpan target tokens may occur more than `repeat_limit` times in a
// row. Appending token x to a target y[0 .. n-1] makes its end a run of R + 1 copies of the last p
// tokens exactly when x = y[n - p] and y[n - p*(R + 1) + 1 .. n - 1] has period p; so each span
// length p bans at most one token, found in O(p * R) steps. Unlike n-gram blocking
// (no_repeat_ngram_size in fairseq, CTranslate2 and Hugging Face, Paulus et al. 2017), which
// forbids any repeated n-gram anywhere, the rule only cuts consecutive runs: "the … the" and
// "Ja, ja" stay possible, and a banned token's probability mass is not renormalized into the
// hypothesis' log-probability (scores remain those of the model).
#pragma once

#include <vector>

#include "decoding/token_selection.h"

namespace crossattn {

/// Longest span the guard looks for, in tokens.
inline constexpr int kMaxRepeatSpan = 16;

/// Tokens needed by repeated_span_tokens to check every span length, for a given repeat_limit.
inline int repeat_history(int repeat_limit) { return kMaxRepeatSpan * (repeat_limit + 1) - 1; }

/// Appends to `banned` each token that would make the target end in more than `repeat_limit`
/// (>= 1) consecutive copies of a span of 1 .. kMaxRepeatSpan tokens. `tail` holds the target's
/// last n tokens, oldest first (at most repeat_history(repeat_limit) are read). A token may be
/// appended more than once.
void repeated_span_tokens(const int* tail, int n, int repeat_limit, std::vector<int>& banned);

/// The guard as BeamSearch applies it: a TokenConstraint forbidding repeated_span_tokens.
class RepetitionGuard final : public TokenConstraint {
 public:
  /// repeat_limit >= 1.
  explicit RepetitionGuard(int repeat_limit) : repeat_limit_(repeat_limit) {}
  int history() const override { return repeat_history(repeat_limit_); }
  void forbid(const int* tail, int n, std::vector<int>& banned) const override {
    repeated_span_tokens(tail, n, repeat_limit_, banned);
  }

 private:
  int repeat_limit_;
};

}  // namespace crossattn
