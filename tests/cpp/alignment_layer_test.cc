// The word alignment layer (layers/alignment_layer.h) against a naive reference written from its
// formula: q_t = W_state h_t + b + W_embed e_t, k_i = W_key m_i, A[t, i] = softmax_i(q_t . k_i / sqrt(D)).
#include "layers/alignment_layer.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace crossattn {
namespace {

std::vector<float> random_values(size_t n, float sd, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, sd);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// y [n, D] = x [n, D] W^T (+ b), W [D, D] as [out, in].
std::vector<float> naive_linear(const std::vector<float>& x, int n, const std::vector<float>& w, const float* b, int d) {
  std::vector<float> y(static_cast<size_t>(n) * d);
  for (int r = 0; r < n; ++r) {
    for (int j = 0; j < d; ++j) {
      double sum = b != nullptr ? b[j] : 0.0;
      for (int k = 0; k < d; ++k) sum += static_cast<double>(x[r * d + k]) * w[j * d + k];
      y[r * d + j] = static_cast<float>(sum);
    }
  }
  return y;
}

TEST(AlignmentLayer, MatchesTheNaiveFormula) {
  std::mt19937 rng(7);
  const int d = 12, t_len = 5, s_len = 7;
  const float sd = 1.0f / std::sqrt(static_cast<float>(d));
  const auto w_state = random_values(d * d, sd, rng), w_embed = random_values(d * d, sd, rng),
             w_key = random_values(d * d, sd, rng), b_state = random_values(d, 1.0f, rng);
  const auto states = random_values(t_len * d, 1.0f, rng), embeds = random_values(t_len * d, 1.0f, rng),
             memory = random_values(s_len * d, 1.0f, rng);
  AlignmentLayerWeights w{PackedLinear::from_f32(w_state.data(), d, d, b_state.data()),
                          PackedLinear::from_f32(w_embed.data(), d, d, nullptr),
                          PackedLinear::from_f32(w_key.data(), d, d, nullptr)};
  std::vector<float> got(static_cast<size_t>(t_len) * s_len);
  alignment_attention(states.data(), embeds.data(), t_len, memory.data(), s_len, w, got.data());

  const auto q_state = naive_linear(states, t_len, w_state, b_state.data(), d);
  const auto q_embed = naive_linear(embeds, t_len, w_embed, nullptr, d);
  const auto keys = naive_linear(memory, s_len, w_key, nullptr, d);
  for (int t = 0; t < t_len; ++t) {
    std::vector<double> scores(s_len);
    double max_score = -1e300, total = 0.0;
    for (int i = 0; i < s_len; ++i) {
      double dotp = 0.0;
      for (int k = 0; k < d; ++k) dotp += (static_cast<double>(q_state[t * d + k]) + q_embed[t * d + k]) * keys[i * d + k];
      scores[i] = dotp / std::sqrt(static_cast<double>(d));
      max_score = std::max(max_score, scores[i]);
    }
    for (double& s : scores) total += (s = std::exp(s - max_score));
    double row_sum = 0.0;
    for (int i = 0; i < s_len; ++i) {
      EXPECT_NEAR(got[t * s_len + i], scores[i] / total, 1e-5) << "t=" << t << " i=" << i;
      row_sum += got[t * s_len + i];
    }
    EXPECT_NEAR(row_sum, 1.0, 1e-5);
  }
}

TEST(AlignmentLayer, TheTargetEmbeddingPicksTheSourcePositionWithTheSameKey) {
  // W_state = 0, W_embed = W_key = 8 I: the query of a target row equal to source row i's memory
  // scores i highest, whatever the decoder state says.
  const int d = 4, s_len = 3;
  std::vector<float> zero(d * d, 0.0f), eight(d * d, 0.0f), bias(d, 0.0f);
  for (int k = 0; k < d; ++k) eight[k * d + k] = 8.0f;
  AlignmentLayerWeights w{PackedLinear::from_f32(zero.data(), d, d, bias.data()),
                          PackedLinear::from_f32(eight.data(), d, d, nullptr),
                          PackedLinear::from_f32(eight.data(), d, d, nullptr)};
  const std::vector<float> memory = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};  // [S, D] one-hot rows
  const std::vector<float> embeds = {0, 0, 1, 0, 1, 0, 0, 0};             // [T, D]: rows 2 and 0
  const std::vector<float> states = {5, -3, 2, 1, -1, 4, 0, 2};           // ignored: W_state = 0
  std::vector<float> got(2 * s_len);
  alignment_attention(states.data(), embeds.data(), 2, memory.data(), s_len, w, got.data());
  EXPECT_GT(got[2], 0.99f);
  EXPECT_GT(got[s_len + 0], 0.99f);
}

}  // namespace
}  // namespace crossattn
