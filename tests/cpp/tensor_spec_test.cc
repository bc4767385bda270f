// The engine's loader checks a file's tensors (check_tensors, cpp/model/tensor_spec.cc) with the
// verdict the shared corpus writes for each case (tests/fixtures/tensor-spec-verdicts.json), as the
// converters' checker (tests/js/tensor-spec-verdicts.test.js) and the Python writer's
// (tests/python/test_tensor_spec_verdicts.py) must.
#include "model/tensor_spec.h"

#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "model/config.h"
#include "model/safetensors.h"
#include "test_util.h"

namespace crossattn {
namespace {

using TensorSet = std::map<std::string, std::pair<std::string, std::vector<int64_t>>>;  // name: dtype, shape

nlohmann::json corpus() {
  std::ifstream in(CROSSATTN_TENSOR_SPEC_VERDICTS);
  return nlohmann::json::parse(in);
}

// The case's tensors: the config's expected ones but the all-or-none groups' (float F32, ids I32,
// any length 3), less `drop`, with `set` applied.
TensorSet tensors_of(const ModelConfig& config, const nlohmann::json& c) {
  TensorSet tensors;
  for (const ExpectedTensor& e : expected_tensors(config)) {
    if (e.optional_group >= 0) continue;
    std::vector<int64_t> shape = e.shape;
    for (int64_t& d : shape) d = d < 0 ? 3 : d;
    tensors[e.name] = {e.kind == TensorKind::kIds ? "I32" : "F32", shape};
  }
  const nlohmann::json drop = c.value("drop", nlohmann::json::array()), set = c.value("set", nlohmann::json::object());
  for (const auto& name : drop) tensors.erase(name.get<std::string>());
  for (const auto& [name, t] : set.items()) {
    tensors[name] = {t.at(0).get<std::string>(), t.at(1).get<std::vector<int64_t>>()};
  }
  return tensors;
}

// A safetensors file of `tensors`, their bytes zeros.
std::vector<uint8_t> file_of(const TensorSet& tensors) {
  const std::map<std::string, int64_t> element_bytes = {{"F32", 4}, {"I32", 4}, {"F16", 2}, {"BF16", 2}, {"I8", 1}, {"U8", 1}};
  nlohmann::json header = nlohmann::json::object();
  int64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    int64_t bytes = element_bytes.at(t.first);
    for (int64_t d : t.second) bytes *= d;
    header[name] = {{"dtype", t.first}, {"shape", t.second}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  return testing::make_safetensors(header.dump(), std::vector<uint8_t>(static_cast<size_t>(offset), 0));
}

// "" when check_tensors accepts the case, else the tensor its error names.
std::string verdict(const nlohmann::json& base_config, const nlohmann::json& c) {
  nlohmann::json config_json = base_config;
  config_json.update(c.value("config", nlohmann::json::object()));
  const ModelConfig config = ModelConfig::from_json(config_json.dump());
  const std::vector<uint8_t> bytes = file_of(tensors_of(config, c));
  const SafeTensors file = SafeTensors::parse(bytes.data(), bytes.size());
  try {
    check_tensors(file, config, c.value("tokenizer", std::vector<std::string>{}));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat) << e.what();
    std::smatch m;
    const std::string message = e.what();
    return std::regex_search(message, m, std::regex("tensor '([^']+)'")) ? m[1].str() : message;
  }
  return "";
}

TEST(TensorSpecVerdicts, EachCaseGetsTheCorpusVerdict) {
  const nlohmann::json all = corpus();
  ASSERT_GT(all.at("cases").size(), 8u);
  for (const auto& c : all.at("cases")) {
    const std::string expected = c.at("verdict").is_null() ? "" : c.at("verdict").get<std::string>();
    EXPECT_EQ(verdict(all.at("config"), c), expected) << c.at("about");
  }
}

}  // namespace
}  // namespace crossattn
