#include "decoding/token_selection.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops.h"

namespace crossattn {

void MostProbable::select(const float* logits, int n, int k, std::vector<int>& tokens) {
  tokens.resize(std::max(k, 0));
  tokens.resize(top_k(logits, n, k, tokens.data()));
}

Sampler::Sampler(int top_k, float top_p, float temperature, uint32_t seed)
    : top_k_(top_k), top_p_(top_p), temperature_(temperature), rng_(seed) {}

void Sampler::select(const float* logits, int n, int /*k*/, std::vector<int>& tokens) {
  tokens.clear();
  order_.clear();
  for (int i = 0; i < n; ++i) {
    if (logits[i] != -INFINITY) order_.push_back(i);
  }
  if (order_.empty()) return;
  // Most probable first (ties to the smaller id) where top_k or top_p needs an order.
  auto more_probable = [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
  if (top_k_ > 0 && top_k_ < static_cast<int>(order_.size())) {
    std::partial_sort(order_.begin(), order_.begin() + top_k_, order_.end(), more_probable);
    order_.resize(top_k_);
  } else if (top_p_ < 1.0f) {
    std::sort(order_.begin(), order_.end(), more_probable);
  }
  float max_logit = -INFINITY;
  for (int id : order_) max_logit = std::max(max_logit, logits[id]);
  probs_.resize(order_.size());
  float total = 0.0f;
  for (size_t i = 0; i < order_.size(); ++i) total += probs_[i] = std::exp((logits[order_[i]] - max_logit) / temperature_);
  size_t kept = order_.size();
  if (top_p_ < 1.0f) {  // the nucleus: the shortest prefix whose share of the mass reaches top_p
    float mass = 0.0f;
    for (kept = 0; kept < order_.size() && mass < top_p_ * total;) mass += probs_[kept++];
    total = mass;
  }
  // A uniform in [0, 1) from the top 24 bits of one draw, then the inverse of the cumulative sum.
  const float u = static_cast<float>(rng_() >> 8) * 0x1p-24f * total;
  float cumulative = 0.0f;
  size_t pick = 0;
  while (pick + 1 < kept && (cumulative += probs_[pick]) <= u) ++pick;
  tokens.push_back(order_[pick]);
}

std::unique_ptr<TokenSelector> make_selector(const SearchOptions& options) {
  if (!options.sample) return std::make_unique<MostProbable>();
  return std::make_unique<Sampler>(options.top_k, options.top_p, options.temperature, static_cast<uint32_t>(options.seed));
}

}  // namespace crossattn
