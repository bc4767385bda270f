// Configs that lie (the reliability issue of 2026-11-27, "configs cannot lie"): every config integer
// is a JSON integer within its range, with no wrap and no fraction, and a config whose layer count
// or width disagrees with the tensors is a ModelFormatError naming the field or the tensor.
#include "model/config.h"

#include <cstdint>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "model/model_file.h"
#include "test_util.h"
#include "tiny_model.h"

namespace crossattn {
namespace {

// The message of the ModelFormatError that ModelConfig::from_json raises for `config`, or "" (and a
// test failure) when it parses.
std::string config_error(const nlohmann::json& config) {
  try {
    ModelConfig::from_json(config.dump());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "a lying config parsed: " << config.dump();
  return "";
}

// Every integer field of a config, required and optional, with a value it may hold.
nlohmann::json config_with_every_integer() {
  nlohmann::json c = testing::tiny_config();
  c["source_vocab_size"] = c["vocab_size"];
  c["source_eos_id"] = 3;
  c["source_unk_id"] = 1;
  c["alignment_layer"] = 1;
  c["alignment_head"] = 1;
  return c;
}

TEST(ConfigTest, EveryIntegerIsAJsonIntegerInRangeWithNoWrapOrFraction) {
  const nlohmann::json good = config_with_every_integer();
  ModelConfig::from_json(good.dump());  // the unedited config parses
  int fields = 0;
  for (const auto& [key, value] : good.items()) {
    if (!value.is_number_integer()) continue;
    ++fields;
    const int64_t v = value.get<int64_t>();
    // 2^32 + v became v through get<int>(); v + 0.5 became v; the others are other types or past
    // any range (2^64 - 1, 1e20).
    const nlohmann::json lies[] = {(int64_t{1} << 32) + v, static_cast<double>(v) + 0.5, static_cast<double>(v),
                                   std::to_string(v), true, nlohmann::json(), UINT64_MAX, 1e20,
                                   -(int64_t{1} << 32) + v, -2};
    for (const nlohmann::json& lie : lies) {
      nlohmann::json c = good;
      c[key] = lie;
      const std::string message = config_error(c);
      EXPECT_NE(message.find("'" + key + "'"), std::string::npos) << key << " = " << lie.dump() << ": " << message;
    }
  }
  EXPECT_EQ(fields, 17);  // the integer fields of docs/model-format.md's config table
}

TEST(ConfigTest, EachLimitIsTheLastValueAccepted) {
  const nlohmann::json good = testing::tiny_config();
  // [field, the largest value it accepts] (tiny_config has 8000 pieces)
  const struct {
    const char* key;
    int64_t largest;
  } limits[] = {{"encoder_layers", 64}, {"decoder_layers", 64}, {"d_ff", 1 << 16}, {"max_positions", 1 << 16},
                {"vocab_size", 1 << 20}, {"pad_id", 7999}, {"decoder_start_id", 7999}};
  for (const auto& limit : limits) {
    nlohmann::json c = good;
    c[limit.key] = limit.largest;
    EXPECT_NO_THROW(ModelConfig::from_json(c.dump())) << limit.key << " = " << limit.largest;
    c[limit.key] = limit.largest + 1;
    EXPECT_NE(config_error(c).find(limit.key), std::string::npos) << limit.key << " = " << limit.largest + 1;
  }
}

// source_eos_id and source_unk_id default to eos_id and unk_id, which must then lie in the source
// vocabulary too.
TEST(ConfigTest, DefaultSourceIdsLieInTheSourceVocabulary) {
  nlohmann::json c = testing::tiny_config();  // eos_id 3, unk_id 1
  c["shared_vocab"] = false;
  c["source_vocab_size"] = 4;
  EXPECT_EQ(ModelConfig::from_json(c.dump()).source_eos_id, 3);
  c["source_vocab_size"] = 3;
  EXPECT_NE(config_error(c).find("source_eos_id"), std::string::npos);
}

// All attention projections are [d_model, d_model] whatever the head count, so the tensors cannot
// say how many heads there are: what is checked is that n_heads divides d_model into heads at least
// 4 wide.
TEST(ConfigTest, HeadsDivideDModelIntoHeadsAtLeastFourWide) {
  nlohmann::json c = testing::tiny_config();  // d_model 16
  for (int heads : {1, 2, 4}) {
    c["n_heads"] = heads;
    EXPECT_EQ(ModelConfig::from_json(c.dump()).n_heads, heads);
  }
  for (int heads : {3, 8, 16}) {
    c["n_heads"] = heads;
    EXPECT_NE(config_error(c).find("n_heads " + std::to_string(heads)), std::string::npos) << heads << " heads";
  }
}

// The shared corpus of configs (tests/fixtures/config-verdicts.json): the engine gives each case the
// verdict written there, as the converters' checker (tests/js/config-verdicts.test.js) and the Python
// writer's (tests/python/test_config_verdicts.py) must.
TEST(ConfigVerdicts, EachCaseGetsTheCorpusVerdict) {
  std::ifstream in(CROSSATTN_CONFIG_VERDICTS);
  const nlohmann::json corpus = nlohmann::json::parse(in);
  ASSERT_GT(corpus.at("cases").size(), 20u);
  for (const auto& c : corpus.at("cases")) {
    nlohmann::json config = corpus.at("config");
    for (const auto& field : c.value("drop", nlohmann::json::array())) config.erase(field.get<std::string>());
    config.update(c.value("set", nlohmann::json::object()));
    std::string verdict;
    try {
      ModelConfig::from_json(config.dump());
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kModelFormat) << e.what();
      std::smatch m;
      const std::string message = e.what();
      verdict = std::regex_search(message, m, std::regex("'([^']+)'")) ? m[1].str() : message;
    }
    const std::string expected = c.at("verdict").is_null() ? "" : c.at("verdict").get<std::string>();
    EXPECT_EQ(verdict, expected) << c.at("about");
  }
}

class LyingModelFileTest : public ::testing::Test {
 protected:
  std::vector<uint8_t> bytes = testing::read_bytes(testing::model_path());
  nlohmann::json config() const {
    return nlohmann::json::parse(testing::split(bytes).header["__metadata__"]["config"].get<std::string>());
  }
};

// The probe's lies, in the shipped model's own file: each field 2^32 past its value, or with a half.
TEST_F(LyingModelFileTest, WrappedOrFractionalIntegersDoNotLoad) {
  const nlohmann::json original = config();
  for (const char* key : {"d_model", "max_positions", "vocab_size", "n_heads", "d_ff", "encoder_layers"}) {
    const int64_t v = original.at(key).get<int64_t>();
    for (const nlohmann::json& lie : {nlohmann::json((int64_t{1} << 32) + v), nlohmann::json(static_cast<double>(v) + 0.5)}) {
      testing::expect_model_format_error(testing::with_config(bytes, [&](nlohmann::json& c) { c[key] = lie; }),
                                         std::string("'") + key + "'");
    }
  }
}

// n_heads = d_model: heads of one dimension (the probe's 256 over 4-head tensors).
TEST_F(LyingModelFileTest, HeadsOfOneDimensionDoNotLoad) {
  const int d_model = config().at("d_model").get<int>();
  testing::expect_model_format_error(testing::with_config(bytes, [&](nlohmann::json& c) { c["n_heads"] = d_model; }),
                                     "n_heads " + std::to_string(d_model));
}

// Fewer layers than the file has: the tensors of the layers past the config's count are tensors of
// no layer the config names. More layers than it has: the first tensor of a missing layer.
TEST_F(LyingModelFileTest, LayerCountsThatDisagreeWithTheTensorsNameATensor) {
  const nlohmann::json original = config();
  for (const auto& [key, stack] : {std::pair{"encoder_layers", "encoder"}, {"decoder_layers", "decoder"}}) {
    const int layers = original.at(key).get<int>();
    for (int lie = 1; lie < layers; ++lie) {
      testing::expect_model_format_error(testing::with_config(bytes, [&](nlohmann::json& c) {
                                           c[key] = lie;
                                           c.erase("alignment_layer");  // which may name a layer past `lie`
                                           c.erase("alignment_head");
                                         }),
                                         "tensor '" + std::string(stack) + ".layers." + std::to_string(lie) + ".");
    }
    testing::expect_model_format_error(testing::with_config(bytes, [&](nlohmann::json& c) { c[key] = layers + 1; }),
                                       "tensor '" + std::string(stack) + ".layers." + std::to_string(layers) + ".");
  }
}

// A width that disagrees with the tensors names the first tensor whose shape (or scale) it contradicts.
TEST_F(LyingModelFileTest, WidthsThatDisagreeWithTheTensorsNameATensor) {
  const nlohmann::json original = config();
  for (const char* key : {"d_model", "d_ff"}) {
    const int v = original.at(key).get<int>();
    testing::expect_model_format_error(testing::with_config(bytes, [&](nlohmann::json& c) { c[key] = v * 2; }),
                                       "tensor '");
  }
}

// A tensor the engine would not read is an error, not ignored: a scale beside a float matrix or
// beside a vector, and a tensor of no name the spec knows.
TEST_F(LyingModelFileTest, TensorsNothingReadsDoNotLoad) {
  const testing::Parts intact = testing::split(bytes);
  const std::string matrix = "decoder.layers.0.fc1.weight";
  const int64_t rows = intact.header["decoder.layers.0.fc1.bias"]["shape"][0];  // d_ff
  std::vector<std::string> unread = {"decoder.layers.0.fc1.bias_scale", "decoder.layers.0.fc3.weight"};
  if (intact.header[matrix]["dtype"] != "I8") unread.push_back(matrix + "_scale");  // of an int8 file, it is read
  for (const std::string& name : unread) {
    testing::Parts p = intact;
    testing::append_tensor(p, name, "F32", std::vector<float>(static_cast<size_t>(rows), 1.0f));
    testing::expect_model_format_error(testing::join(p), "tensor '" + name + "' is not a tensor of this config");
  }
}

}  // namespace
}  // namespace crossattn
