// Each direction of the shipped catalog (models/catalog.json) translates everyday sentences, natively,
// to outputs with the words a translator would use (tests/fixtures/everyday.json, written by hand).
// The same fixture runs in WebAssembly in tests/js/everyday.test.js.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include <nlohmann/json.hpp>

#include "translator.h"

namespace crossattn {
namespace {

std::string ascii_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The model file models/catalog.json names for `direction` ("en-de"), or "" (the package's
// parseCatalog reads the catalog for the products; the test needs only this lookup).
std::string catalog_model(const std::string& direction) {
  std::ifstream in(std::string(CROSSATTN_MODELS_DIR) + "/catalog.json");
  const auto catalog = nlohmann::json::parse(in);  // kept alive: at() returns a reference into it
  for (const auto& d : catalog.at("directions")) {
    if (d.at("source_lang").get<std::string>() + "-" + d.at("target_lang").get<std::string>() == direction) {
      return std::string(CROSSATTN_MODELS_DIR) + "/" + d.at("model").get<std::string>();
    }
  }
  return "";
}

nlohmann::json everyday_fixture() {
  std::ifstream in(CROSSATTN_EVERYDAY_FIXTURE);
  return nlohmann::json::parse(in);
}

class EverydayTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EverydayTest, TranslationsContainTheKeyWords) {
  const std::string direction = GetParam();  // "en-de"
  const std::string model = catalog_model(direction);
  ASSERT_FALSE(model.empty()) << "models/catalog.json has no " << direction;
  const auto translator = Translator::from_file(model);
  EXPECT_EQ(translator.config().source_lang + "-" + translator.config().target_lang, direction);
  const auto cases = everyday_fixture().at(direction);
  ASSERT_GE(cases.size(), 5u);
  for (const auto& c : cases) {
    const std::string text = translator.translate(c.at("source").get<std::string>(), {}).text;
    const std::string lower = ascii_lower(text);
    for (const auto& alternatives : c.at("expect")) {
      const bool found = std::any_of(alternatives.begin(), alternatives.end(), [&](const nlohmann::json& word) {
        return lower.find(word.get<std::string>()) != std::string::npos;
      });
      EXPECT_TRUE(found) << c.at("source") << " -> " << text << ": none of " << alternatives;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ShippedDirections, EverydayTest, ::testing::Values("en-de", "de-en"),
                         [](const auto& info) { return info.param.substr(0, 2) + "_" + info.param.substr(3); });

}  // namespace
}  // namespace crossattn
