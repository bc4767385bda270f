// The decoding seam (decoding/token_selection.h): the most probable tokens against a full sort, and
// the sampler's draws against the distribution it promises (temperature, top_k, top_p), its seed,
// and forbidden tokens; the normalizer the searches score with (log_sum_exp) against a double sum.
#include "decoding/token_selection.h"

#include <gtest/gtest.h>

#include "kernels/ops.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

namespace crossattn {
namespace {

TEST(MostProbable, EqualsAFullSortWithTiesToTheSmallerIdAndNoForbiddenToken) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> level(-3, 3);  // few distinct values: many ties
  for (int trial = 0; trial < 200; ++trial) {
    const int v = 1 + trial % 17;
    std::vector<float> logits(v);
    for (float& x : logits) x = level(rng) == -3 ? -INFINITY : static_cast<float>(level(rng));
    std::vector<int> order;
    for (int i = 0; i < v; ++i) {
      if (logits[i] != -INFINITY) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
    for (int k = 1; k <= v; ++k) {
      std::vector<int> tokens;
      MostProbable().select(logits.data(), v, k, tokens);
      const std::vector<int> expected(order.begin(), order.begin() + std::min<size_t>(k, order.size()));
      EXPECT_EQ(tokens, expected) << "trial " << trial << " k " << k;
    }
  }
}

TEST(MostProbable, EqualsAFullSortOnVocabularySizedRows) {
  // Rows as long as a vocabulary (and not a multiple of four), where most groups of four are skipped.
  std::mt19937 rng(7);
  std::normal_distribution<float> logit(0.0f, 3.0f);
  for (int v : {1003, 8000}) {
    std::vector<float> logits(v);
    for (float& x : logits) x = std::round(logit(rng) * 4.0f) / 4.0f;  // coarse: ties among the best
    logits[v - 1] = 50.0f;                                                // the best in the tail
    std::vector<int> order(v);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
    for (int k : {1, 2, 4, 8, 16}) {
      std::vector<int> tokens;
      MostProbable().select(logits.data(), v, k, tokens);
      EXPECT_EQ(tokens, std::vector<int>(order.begin(), order.begin() + k)) << "v " << v << " k " << k;
    }
  }
}

TEST(LogSumExp, EqualsADoubleSumWithAndWithoutAShortlistsInfinities) {
  // A full row, the same row with a shortlist's -inf outside every fifth id (whole blocks of four
  // among them), and with logits far below the maximum but finite.
  std::mt19937 rng(11);
  std::normal_distribution<float> logit(0.0f, 4.0f);
  for (int v : {8000, 1003}) {
    std::vector<float> full(v);
    for (float& x : full) x = logit(rng);
    std::vector<float> shortlisted = full, far = full;
    for (int i = 0; i < v; ++i) {
      if (i % 5 != 0) shortlisted[i] = -INFINITY;
      if (i % 7 == 0) far[i] -= 200.0f;
    }
    shortlisted[v - 2] = 30.0f;  // the maximum in the tail
    for (const std::vector<float>* row : {&full, &shortlisted, &far}) {
      const float m = *std::max_element(row->begin(), row->end());
      double total = 0.0;
      for (float x : *row) total += std::exp(static_cast<double>(x) - m);
      int argmax = -1;
      EXPECT_NEAR(log_sum_exp(row->data(), v, &argmax), m + std::log(total), 1e-5) << "v " << v;
      EXPECT_EQ((*row)[argmax], m);
      EXPECT_EQ(std::find(row->begin(), row->end(), m) - row->begin(), argmax);
      EXPECT_EQ(log_sum_exp(row->data(), v), log_sum_exp(row->data(), v, &argmax)) << "without argmax, v " << v;
    }
  }
}

// Relative frequencies of `draws` samples of one selector over logits.
std::vector<double> frequencies(Sampler sampler, const std::vector<float>& logits, int draws) {
  std::vector<double> count(logits.size(), 0.0);
  std::vector<int> tokens;
  for (int i = 0; i < draws; ++i) {
    sampler.select(logits.data(), static_cast<int>(logits.size()), 1, tokens);
    EXPECT_EQ(tokens.size(), 1u);
    count[tokens.front()] += 1.0 / draws;
  }
  return count;
}

// softmax(logits / temperature) restricted to `keep` (ids), renormalized.
std::vector<double> expected(const std::vector<float>& logits, float temperature, const std::vector<int>& keep) {
  std::vector<double> p(logits.size(), 0.0);
  double total = 0.0;
  for (int id : keep) total += p[id] = std::exp(logits[id] / temperature);
  for (double& x : p) x /= total;
  return p;
}

TEST(Sampler, DrawsFromTheTemperedTruncatedDistribution) {
  // Probabilities at temperature 1: about .40 .22 .18 .12 .06 .02 (ids 2, 0, 4, 1, 5, 3).
  const std::vector<float> logits = {1.5f, 0.9f, 2.1f, -0.7f, 1.3f, 0.2f};
  const int draws = 40000;
  const double tolerance = 0.012;  // > 4 standard errors of a frequency near 0.5
  struct Case {
    int top_k;
    float top_p, temperature;
    std::vector<int> keep;
  };
  const std::vector<Case> cases = {
      {0, 1.0f, 1.0f, {0, 1, 2, 3, 4, 5}},  // plain sampling
      {0, 1.0f, 0.5f, {0, 1, 2, 3, 4, 5}},  // sharper
      {0, 1.0f, 2.0f, {0, 1, 2, 3, 4, 5}},  // flatter
      {3, 1.0f, 1.0f, {2, 0, 4}},           // top-k
      {0, 0.7f, 1.0f, {2, 0, 4}},           // nucleus: .40 + .22 < .7 <= .40 + .22 + .18
      {0, 0.3f, 1.0f, {2}},                 // the most probable token alone reaches .3
      {4, 0.9f, 1.0f, {2, 0, 4, 1}},        // top-k first, then its nucleus: .87 of the four < .9
  };
  for (const Case& c : cases) {
    const auto seen = frequencies(Sampler(c.top_k, c.top_p, c.temperature, 17), logits, draws);
    const auto want = expected(logits, c.temperature, c.keep);
    for (size_t id = 0; id < logits.size(); ++id) {
      EXPECT_NEAR(seen[id], want[id], tolerance) << "top_k " << c.top_k << " top_p " << c.top_p << " T "
                                                  << c.temperature << " id " << id;
    }
  }
}

TEST(Sampler, TheSameSeedDrawsTheSameTokensAndForbiddenTokensNever) {
  std::vector<float> logits = {0.3f, -INFINITY, 0.1f, 0.2f, -INFINITY, 0.0f};
  auto run = [&](int seed) {
    Sampler sampler(0, 1.0f, 1.0f, seed);
    std::vector<int> drawn, tokens;
    for (int i = 0; i < 500; ++i) {
      sampler.select(logits.data(), 6, 1, tokens);
      drawn.push_back(tokens.front());
    }
    return drawn;
  };
  const std::vector<int> a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (int token : a) EXPECT_TRUE(token != 1 && token != 4) << token;
  // Nothing left to draw: no candidate.
  std::vector<float> none(4, -INFINITY);
  std::vector<int> tokens = {7};
  Sampler(0, 1.0f, 1.0f, 1).select(none.data(), 4, 1, tokens);
  EXPECT_TRUE(tokens.empty());
}

}  // namespace
}  // namespace crossattn
