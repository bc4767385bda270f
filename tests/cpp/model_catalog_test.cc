// cli/model_catalog.h: reading a catalog.json and looking a direction up, on catalogs written here.
#include "cli/model_catalog.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "error.h"

namespace crossattn {
namespace {

class ModelCatalogTest : public ::testing::Test {
 protected:
  std::string dir;

  void SetUp() override {
    char pattern[] = "/tmp/crossattn-catalog-XXXXXX";
    dir = mkdtemp(pattern);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  void write(const std::string& text) { std::ofstream(dir + "/catalog.json") << text; }

  std::string error_of(const std::string& from, const std::string& to) {
    try {
      model_for(dir, from, to);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
};

TEST_F(ModelCatalogTest, FindsEachDirectionInTheFolder) {
  write(R"({"directions": [
    {"source_lang": "en", "target_lang": "de", "model": "a.int8.crossattn"},
    {"source_lang": "de", "target_lang": "en", "model": "b.crossattn", "card": "b.md"}]})");
  const auto entries = read_catalog(dir);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].source_lang, "de");
  EXPECT_EQ(model_for(dir, "en", "de").model, dir + "/a.int8.crossattn");
  EXPECT_EQ(model_for(dir, "de", "en").model, dir + "/b.crossattn");
}

TEST_F(ModelCatalogTest, MissingDirectionNamesTheAvailableOnes) {
  write(R"({"directions": [{"source_lang": "en", "target_lang": "de", "model": "a.crossattn"}]})");
  const std::string message = error_of("de", "en");
  EXPECT_NE(message.find("no model translates de to en"), std::string::npos) << message;
  EXPECT_NE(message.find("available: en→de"), std::string::npos) << message;
}

TEST_F(ModelCatalogTest, MissingOrMalformedCatalogIsInvalidInput) {
  EXPECT_NE(error_of("en", "de").find("cannot read the model catalog"), std::string::npos);
  write("{not json");
  EXPECT_NE(error_of("en", "de").find("invalid model catalog"), std::string::npos);
  write(R"({"directions": [{"source_lang": "en", "target_lang": "de"}]})");  // no "model"
  EXPECT_NE(error_of("en", "de").find("invalid model catalog"), std::string::npos);
  write(R"({"directions": {"en": "de"}})");  // not an array of objects
  EXPECT_NE(error_of("en", "de").find("invalid model catalog"), std::string::npos);
}

}  // namespace
}  // namespace crossattn
