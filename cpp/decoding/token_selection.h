// The seam where decoding methods differ. After each decoder step, BeamSearch asks, for every live
// hypothesis, its TokenConstraints which next tokens they forbid (their logits become -inf), then
// its TokenSelector which of the remaining tokens are candidate extensions. The search itself
// (ranking, finishing, the KV-cache slots, stopping) is the same for all of them: greedy decoding
// and beam search select the most probable tokens, sampling draws one, and a new method (a lexical
// constraint, diverse beam search) is a new class here, not a change to the search.
// Legend: n scored tokens (the vocabulary, or a lexical shortlist's candidates), k candidates per hypothesis.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "decoding/search_options.h"

namespace crossattn {

/// A rule that forbids some next tokens of a hypothesis, given the tokens it ends with.
class TokenConstraint {
 public:
  virtual ~TokenConstraint() = default;
  /// How many of the hypothesis' last tokens forbid() reads.
  virtual int history() const = 0;
  /// Appends to `banned` the tokens that may not follow a target whose last n tokens are
  /// tail [n], oldest first (n <= history(); fewer when the target is shorter). A token may be
  /// appended more than once.
  virtual void forbid(const int* tail, int n, std::vector<int>& banned) const = 0;
};

/// Chooses a hypothesis' candidate extensions from its next-token logits.
class TokenSelector {
 public:
  virtual ~TokenSelector() = default;
  /// Writes to `tokens` at most k (>= 1) columns of logits [n] whose logits are finite (forbidden
  /// tokens are -inf and never chosen); none when every logit is -inf. Column i is token i, or the
  /// i-th of a shortlist's candidates in ascending id order (BeamSearch maps it back), so a tie
  /// broken to the smaller column is broken to the smaller id. BeamSearch ranks the candidates of
  /// all hypotheses by the model's log-probability whatever the selector.
  virtual void select(const float* logits, int n, int k, std::vector<int>& tokens) = 0;
};

/// The k most probable tokens, most probable first, ties to the smaller id: greedy decoding
/// (k = 1 of one hypothesis) and beam search.
class MostProbable final : public TokenSelector {
 public:
  void select(const float* logits, int n, int k, std::vector<int>& tokens) override;
};

/// One token drawn from softmax(logits / temperature), restricted to the top_k most probable
/// tokens (Fan et al. 2018, "Hierarchical Neural Story Generation") and to the nucleus, the fewest
/// most probable tokens whose probability reaches top_p (Holtzman et al. 2020, "The Curious Case
/// of Neural Text Degeneration"), renormalized. The generator is std::mt19937 turned into
/// uniforms by this class, so a seed gives the same draws on every platform (std::
/// uniform_real_distribution is not specified bit for bit).
class Sampler final : public TokenSelector {
 public:
  /// top_k >= 0 (0: all tokens), top_p in (0, 1], temperature > 0 (checked by the caller).
  Sampler(int top_k, float top_p, float temperature, uint32_t seed);
  void select(const float* logits, int n, int k, std::vector<int>& tokens) override;

 private:
  int top_k_;
  float top_p_, temperature_;
  std::mt19937 rng_;
  std::vector<int> order_;    // [n] candidate columns, most probable first
  std::vector<float> probs_;  // [n] their tempered probabilities
};

/// The selector `options` ask for: a Sampler seeded with options.seed, or MostProbable.
std::unique_ptr<TokenSelector> make_selector(const SearchOptions& options);

}  // namespace crossattn
