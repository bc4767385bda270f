// Native Marian's conventions, which a model trained for a like-for-like Bergamot comparison uses
// (docs/bergamot.md): its sinusoid frequencies and the zero vector as the decoder's first input.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "model/model_file.h"
#include "model/positions.h"
#include "model/transformer.h"
#include "test_util.h"

namespace crossattn {
namespace {

void expect_row(const std::vector<float>& table, int d, int pos, const std::vector<double>& want) {
  for (int j = 0; j < d; ++j) EXPECT_NEAR(table[static_cast<size_t>(pos) * d + j], want[j], 1e-6) << "dimension " << j;
}

TEST(MarianConventionsTest, SinusoidsFollowEachLayoutsFormula) {
  // d = 4: the paper's frequencies are 10000^(-2i/4) = 1 and 0.01; Marian's 10000^(-i/(4/2 - 1)) = 1 and 1e-4.
  const auto paper = sinusoid_table(2, 4, SinusoidalLayout::kInterleaved);
  expect_row(paper, 4, 0, {0, 1, 0, 1});
  expect_row(paper, 4, 1, {std::sin(1.0), std::cos(1.0), std::sin(0.01), std::cos(0.01)});
  const auto halves = sinusoid_table(2, 4, SinusoidalLayout::kHalves);
  expect_row(halves, 4, 0, {0, 0, 1, 1});
  expect_row(halves, 4, 1, {std::sin(1.0), std::sin(0.01), std::cos(1.0), std::cos(0.01)});
  const auto marian = sinusoid_table(2, 4, SinusoidalLayout::kMarian);
  expect_row(marian, 4, 1, {std::sin(1.0), std::sin(1e-4), std::cos(1.0), std::cos(1e-4)});
  const auto wide = sinusoid_table(4, 256, SinusoidalLayout::kMarian);  // the last frequency is 1e-4 at any width
  EXPECT_NEAR(wide[3 * 256 + 127], std::sin(3e-4), 1e-7);
}

TEST(MarianConventionsTest, ConfigNamesTheConventions) {
  const auto bytes = testing::read_bytes(testing::model_path());
  const auto marian = testing::with_config(bytes, [](nlohmann::json& c) {
    c["sinusoidal_layout"] = "marian";
    c["decoder_start"] = "zero";
  });
  const ModelFile file = ModelFile::parse(marian.data(), marian.size());
  EXPECT_EQ(file.config.sinusoidal_layout, SinusoidalLayout::kMarian);
  EXPECT_TRUE(file.config.zero_decoder_start);
  testing::expect_model_format_error(testing::with_config(bytes, [](nlohmann::json& c) { c["decoder_start"] = "pad"; }),
                                     "decoder_start");
}

// The first step's logits [V] for one source sentence.
std::vector<float> first_step_logits(const std::vector<uint8_t>& bytes) {
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const ModelConfig& c = model.config();
  DecoderState state = model.start(model.encode({40, 41, 42, 43, c.eos_id}), 4);
  Matrix logits;
  std::vector<float> cross(static_cast<size_t>(c.decoder_layers) * c.n_heads * 5);
  model.decode(state, {c.decoder_start_id}, logits, cross.data());
  return {logits.data(), logits.data() + logits.size()};
}

TEST(MarianConventionsTest, ZeroDecoderStartFeedsThePositionAlone) {
  const auto file = testing::read_bytes(testing::model_path());
  const auto bytes = testing::with_config(file, [](nlohmann::json& c) { c["decoder_start"] = "token"; });
  const auto zero_start = testing::with_config(file, [](nlohmann::json& c) { c["decoder_start"] = "zero"; });
  // The token-start model with the start token's embedding row zeroed: its first step must be the
  // zero start's, but for the logit of the start token itself (the tied output layer reads that row).
  testing::Parts p = testing::split(bytes);
  const ModelConfig c = ModelFile::parse(bytes.data(), bytes.size()).config;
  const std::string table = c.shared_vocab ? "shared.weight" : "decoder.embed_tokens.weight";
  const auto& entry = p.header[table];
  const std::string dtype = entry["dtype"];
  ASSERT_TRUE(dtype == "F32" || dtype == "F16" || dtype == "BF16") << dtype;
  const size_t row_bytes = static_cast<size_t>(c.d_model) * (dtype == "F32" ? 4 : 2);
  const size_t begin = entry["data_offsets"][0].get<size_t>() + static_cast<size_t>(c.decoder_start_id) * row_bytes;
  std::memset(p.data.data() + begin, 0, row_bytes);
  const auto row_zeroed = testing::join(std::move(p));

  const auto ours = first_step_logits(bytes), zero = first_step_logits(zero_start), zeroed = first_step_logits(row_zeroed);
  float same = 0, changed = 0;
  for (size_t v = 0; v < zero.size(); ++v) {
    if (static_cast<int>(v) != c.decoder_start_id) same = std::max(same, std::abs(zero[v] - zeroed[v]));
    changed = std::max(changed, std::abs(zero[v] - ours[v]));
  }
  EXPECT_LT(same, 1e-4f);
  EXPECT_GT(changed, 1e-2f);
}

}  // namespace
}  // namespace crossattn
