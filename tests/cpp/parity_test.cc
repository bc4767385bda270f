// The engine against PyTorch: for each fixture sentence (written by models/export.py from the same
// fp16-rounded weights), teacher-forced logits within 1e-3 and cross-attention within 1e-4, and the
// engine's own greedy translation equal to PyTorch's.
#include <cstring>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/model_file.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

std::vector<float> floats(const TensorView& t) {
  std::vector<float> out(static_cast<size_t>(t.numel()));
  std::memcpy(out.data(), t.data, t.nbytes);
  return out;
}

std::vector<int> ints(const TensorView& t) {
  std::vector<int32_t> out(static_cast<size_t>(t.numel()));
  std::memcpy(out.data(), t.data, t.nbytes);
  return {out.begin(), out.end()};
}

class ParityTest : public ::testing::Test {
 protected:
  std::vector<uint8_t> model_bytes = testing::read_bytes(testing::model_path());
  std::vector<uint8_t> fixture_bytes = testing::read_bytes(testing::fixture_path());
  SafeTensors fixture = SafeTensors::parse(fixture_bytes.data(), fixture_bytes.size());
  nlohmann::json sentences = nlohmann::json::parse(fixture.metadata("sentences"));
};

TEST_F(ParityTest, LogitsAndCrossAttentionMatchPyTorch) {
  ModelFile file = ModelFile::parse(model_bytes.data(), model_bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const ModelConfig& c = model.config();
  ASSERT_FALSE(sentences.empty());
  for (size_t i = 0; i < sentences.size(); ++i) {
    const std::string key = std::to_string(i);
    const auto src = ints(fixture.tensor(key + ".src_ids"));
    const auto tgt = ints(fixture.tensor(key + ".tgt_ids"));
    std::vector<int> tgt_in = {c.decoder_start_id};
    tgt_in.insert(tgt_in.end(), tgt.begin(), tgt.end() - 1);
    const int t_len = static_cast<int>(tgt_in.size()), s_len = static_cast<int>(src.size());

    DecoderState state = model.start(model.encode(src), t_len);
    Matrix logits;
    std::vector<float> cross(static_cast<size_t>(c.decoder_layers) * c.n_heads * t_len * s_len);
    model.decode(state, tgt_in, logits, cross.data());

    const auto expected_logits = floats(fixture.tensor(key + ".logits"));  // [T, V]
    ASSERT_EQ(expected_logits.size(), static_cast<size_t>(logits.size()));
    float worst_logit = 0, worst_attention = 0;
    for (size_t j = 0; j < expected_logits.size(); ++j) {
      worst_logit = std::max(worst_logit, std::abs(logits.data()[j] - expected_logits[j]));
    }
    const auto expected_cross = floats(fixture.tensor(key + ".cross_attention"));  // [L, H, T, S]
    ASSERT_EQ(expected_cross.size(), cross.size());
    for (size_t j = 0; j < cross.size(); ++j) {
      worst_attention = std::max(worst_attention, std::abs(cross[j] - expected_cross[j]));
    }
    EXPECT_LT(worst_logit, 1e-3f) << sentences[i]["source"];
    EXPECT_LT(worst_attention, 1e-4f) << sentences[i]["source"];
  }
}

TEST_F(ParityTest, GreedyTranslationMatchesPyTorch) {
  const Translator translator = Translator::from_bytes(model_bytes.data(), model_bytes.size());
  TranslateOptions greedy;
  greedy.repeat_limit = 0;  // PyTorch's greedy has no repetition guard (an untrained model loops)
  for (size_t i = 0; i < sentences.size(); ++i) {
    const auto r = translator.translate(sentences[i]["source"].get<std::string>(), greedy);
    EXPECT_EQ(r.source_ids, ints(fixture.tensor(std::to_string(i) + ".src_ids")));
    EXPECT_EQ(r.target_ids, ints(fixture.tensor(std::to_string(i) + ".tgt_ids")));
    EXPECT_EQ(r.text, sentences[i]["target"].get<std::string>());
  }
}

}  // namespace
}  // namespace crossattn
