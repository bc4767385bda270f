// Attention against a naive reference, and the invariants of cross-attention in a real model.
#include "layers/attention.h"

#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "error.h"
#include "kernels/ops.h"

#include "model/model_file.h"
#include "model/transformer.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

Matrix random_matrix(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// Runs attend() for every row of q [T, D] over k, v [S, D]; row t sees visible(t) keys.
// Returns weights [H, T, S]; context [T, D] is written.
template <typename Visible>
std::vector<float> attend_rows(const Matrix& q, const Matrix& k, const Matrix& v, int heads, Visible visible,
                               Matrix& context) {
  const int t_len = static_cast<int>(q.rows()), s_len = static_cast<int>(k.rows()), d = static_cast<int>(q.cols());
  context.resize(t_len, d);
  std::vector<float> weights(heads * t_len * s_len), probs(heads * s_len);
  for (int t = 0; t < t_len; ++t) {
    attend(q.row(t).data(), k.data(), v.data(), KeyValueLayout::token_major(d, d / heads), s_len, visible(t), heads, d,
           context.row(t).data(), probs.data());
    for (int h = 0; h < heads; ++h) {
      std::copy_n(probs.data() + h * s_len, s_len, weights.data() + (h * t_len + t) * s_len);
    }
  }
  return weights;
}

// Key counts and head widths cover attend()'s four-keys-per-pass loops, their remainders, and a
// head width that is not a multiple of four (the one-key-at-a-time path).
TEST(Attention, MatchesNaiveReference) {
  std::mt19937 rng(7);
  struct Shape { int s_len, heads, d_k; };
  for (const Shape shape : {Shape{7, 2, 4}, Shape{9, 3, 6}, Shape{12, 2, 8}, Shape{3, 1, 16}}) {
    SCOPED_TRACE("s_len " + std::to_string(shape.s_len) + ", d_k " + std::to_string(shape.d_k));
    const int t_len = 5, s_len = shape.s_len, heads = shape.heads, d_k = shape.d_k;
    const Matrix q = random_matrix(t_len, heads * d_k, rng), k = random_matrix(s_len, heads * d_k, rng),
                 v = random_matrix(s_len, heads * d_k, rng);
    Matrix context;
    const std::vector<float> weights = attend_rows(q, k, v, heads, [&](int) { return s_len; }, context);
    for (int h = 0; h < heads; ++h) {
      for (int t = 0; t < t_len; ++t) {
        std::vector<double> p(s_len);
        double z = 0;
        for (int s = 0; s < s_len; ++s) {
          double dot = 0;
          for (int i = 0; i < d_k; ++i) dot += q(t, h * d_k + i) * k(s, h * d_k + i);
          z += p[s] = std::exp(dot);
        }
        for (int s = 0; s < s_len; ++s) EXPECT_NEAR(weights[(h * t_len + t) * s_len + s], p[s] / z, 1e-5);
        for (int i = 0; i < d_k; ++i) {
          double expected = 0;
          for (int s = 0; s < s_len; ++s) expected += p[s] / z * v(s, h * d_k + i);
          EXPECT_NEAR(context(t, h * d_k + i), expected, 1e-4);
        }
      }
    }
  }
}

TEST(Attention, CausalMaskHidesTheFuture) {
  std::mt19937 rng(3);
  const int n = 6, heads = 2;
  const Matrix x = random_matrix(n, 8, rng);
  Matrix context;
  const std::vector<float> weights = attend_rows(x, x, x, heads, [](int t) { return t + 1; }, context);
  for (int h = 0; h < heads; ++h) {
    for (int t = 0; t < n; ++t) {
      double sum = 0;
      for (int s = 0; s <= t; ++s) sum += weights[(h * n + t) * n + s];
      EXPECT_NEAR(sum, 1.0, 1e-6);
      for (int s = t + 1; s < n; ++s) EXPECT_EQ(weights[(h * n + t) * n + s], 0.0f);
    }
  }
}

// The same keys and values stored head by head ([H, S, Dk], cross-attention's memory) give the
// same context and weights, bit for bit: only where attend() reads a row changes.
TEST(Attention, HeadMajorRowsEqualTokenMajorRows) {
  std::mt19937 rng(11);
  const int s_len = 10, heads = 3, d_k = 8, d = heads * d_k;
  const Matrix q = random_matrix(1, d, rng), k = random_matrix(s_len, d, rng), v = random_matrix(s_len, d, rng);
  std::vector<float> k_heads(k.size()), v_heads(v.size());
  swap_leading_axes(k.data(), s_len, heads, d_k, k_heads.data());  // [S, H, Dk] -> [H, S, Dk]
  swap_leading_axes(v.data(), s_len, heads, d_k, v_heads.data());
  std::vector<float> context(d), probs(heads * s_len), head_context(d), head_probs(heads * s_len);
  attend(q.data(), k.data(), v.data(), KeyValueLayout::token_major(d, d_k), s_len, s_len, heads, d, context.data(),
         probs.data());
  attend(q.data(), k_heads.data(), v_heads.data(), KeyValueLayout::head_major(s_len, d_k), s_len, s_len, heads, d,
         head_context.data(), head_probs.data());
  EXPECT_EQ(head_context, context);
  EXPECT_EQ(head_probs, probs);
}

// Rows of 7 floats: copy()'s four-at-a-time loop and its remainder.
TEST(Attention, SwapLeadingAxesMovesEachRowWhole) {
  const int a = 3, b = 5, w = 7;
  std::vector<float> in(a * b * w), out(in.size(), -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  swap_leading_axes(in.data(), a, b, w, out.data());
  for (int i = 0; i < a; ++i) {
    for (int j = 0; j < b; ++j) {
      for (int x = 0; x < w; ++x) EXPECT_EQ(out[(j * a + i) * w + x], in[(i * b + j) * w + x]);
    }
  }
}

class ModelAttentionTest : public ::testing::Test {
 protected:
  Translator translator = Translator::from_file(testing::model_path());
};

TEST_F(ModelAttentionTest, CrossAttentionRowsSumToOne) {
  for (const std::string text : {"A dog runs.", "Two men in orange vests are working on the road near a truck."}) {
    TranslateOptions o;
    o.attention = true;
    const auto r = translator.translate(text, o);
    const size_t t_len = r.target_tokens.size(), s_len = r.source_tokens.size();
    ASSERT_EQ(r.cross_attention.size(), static_cast<size_t>(r.layers) * r.heads * t_len * s_len);
    for (size_t row = 0; row < r.cross_attention.size() / s_len; ++row) {
      double sum = 0;
      for (size_t s = 0; s < s_len; ++s) {
        const float w = r.cross_attention[row * s_len + s];
        EXPECT_GE(w, 0.0f);
        sum += w;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
}

// Incremental decoding with the KV cache gives the same logits and cross-attention as feeding the
// whole target at once with the causal mask (the two paths share no per-step state).
TEST(KVCache, IncrementalDecodingEqualsFullDecoding) {
  const auto bytes = testing::read_bytes(testing::model_path());
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const ModelConfig& c = model.config();
  const std::vector<int> src = {10, 11, 12, 13, c.eos_id};
  const std::vector<int> tgt = {c.decoder_start_id, 20, 21, 22, 23};
  const Matrix encoder_out = model.encode(src);
  const int t_len = static_cast<int>(tgt.size()), s_len = static_cast<int>(src.size());
  const int lh = c.decoder_layers * c.n_heads;

  DecoderState full_state = model.start(encoder_out, t_len);
  Matrix full_logits;
  std::vector<float> full_weights(static_cast<size_t>(lh) * t_len * s_len);
  model.decode(full_state, tgt, full_logits, full_weights.data());

  DecoderState step_state = model.start(encoder_out, t_len);
  Matrix step_logits;
  std::vector<float> step_weights(static_cast<size_t>(lh) * s_len);
  for (int t = 0; t < t_len; ++t) {
    model.decode(step_state, {tgt[t]}, step_logits, step_weights.data());
    EXPECT_LT((step_logits.row(0) - full_logits.row(t)).cwiseAbs().maxCoeff(), 1e-4) << "position " << t;
    for (int i = 0; i < lh; ++i) {
      for (int s = 0; s < s_len; ++s) {
        EXPECT_NEAR(step_weights[i * s_len + s], full_weights[(i * t_len + t) * s_len + s], 1e-5);
      }
    }
  }
  // The state holds exactly the capacity it was given.
  EXPECT_THROW(model.decode(step_state, {tgt[0]}, step_logits, nullptr), Error);
}

}  // namespace
}  // namespace crossattn
