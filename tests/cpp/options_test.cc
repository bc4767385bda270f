// The option table (cpp/options.h): every option set through its JavaScript name reaches its field
// and nothing else, bad values are refused naming the option, contradictions are refused against
// the model, and C++ names in messages become JavaScript names.
#include "options.h"

#include <gtest/gtest.h>

#include <set>

#include "error.h"
#include "model/config.h"

namespace crossattn {
namespace {

using nlohmann::json;

// A valid value of `s` other than its default.
json other_value(const OptionSpec& s, const json& fallback) {
  switch (s.type) {
    case OptionType::kBool: return !fallback.get<bool>();
    case OptionType::kChoice: return s.choices.front() == fallback ? s.choices.back() : s.choices.front();
    case OptionType::kIntList: return json::array({-1, 0});
    case OptionType::kInt: return fallback.get<int>() == 1 ? 2 : 1;
    case OptionType::kFloat: return fallback.get<double>() == 0.5 ? 0.25 : 0.5;
  }
  return nullptr;
}

// The JSON object {jsName: value}, nested under "alignment" for the alignment options.
json object_with(const OptionSpec& s, const json& value) {
  return s.group == OptionGroup::kAlignment ? json{{"alignment", {{s.js_name, value}}}} : json{{s.js_name, value}};
}

TEST(Options, EachOptionSetByItsJavaScriptNameReachesItsFieldAlone) {
  const TranslateOptions defaults;
  std::set<std::string> names, js_names;
  for (const OptionSpec& s : option_specs()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_TRUE(js_names.insert(s.js_name).second) << s.js_name;
    const json value = other_value(s, s.get(defaults));
    ASSERT_TRUE(check_value(s, value, s.js_name).empty()) << s.name;
    const TranslateOptions o = options_from_json(object_with(s, value));
    for (const OptionSpec& t : option_specs()) {
      if (&t == &s) {
        EXPECT_EQ(t.get(o), value) << s.name;
      } else {
        EXPECT_EQ(t.get(o), t.get(defaults)) << "setting " << s.name << " changed " << t.name;
      }
    }
  }
  EXPECT_TRUE(js_names.count("beamSize") && js_names.count("mergeSubwords") && js_names.count("topP"));
}

TEST(Options, BadValuesAreRefusedNamingTheOption) {
  auto message = [](const json& object) -> std::string {
    try {
      options_from_json(object);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message({{"beamSize", 65}}), "beamSize must be an integer from 1 to 64");
  EXPECT_EQ(message({{"beamSize", 2.5}}), "beamSize must be an integer from 1 to 64");
  EXPECT_EQ(message({{"beamSize", "4"}}), "beamSize must be an integer from 1 to 64");
  EXPECT_EQ(message({{"lengthPenalty", nullptr}}), "lengthPenalty must be a finite number");  // NaN in JSON
  EXPECT_EQ(message({{"topP", 0}}), "topP must be a finite number in (0, 1]");
  EXPECT_EQ(message({{"temperature", -1}}), "temperature must be a finite number > 0");
  EXPECT_EQ(message({{"earlyStopping", 1}}), "earlyStopping must be a boolean");
  EXPECT_EQ(message({{"seed", 4294967296LL}}), "seed must be an integer >= 0");
  EXPECT_EQ(message({{"alignment", {{"layers", json::array()}}}}), "alignment.layers must be a non-empty list of integers");
  EXPECT_EQ(message({{"alignment", {{"method", "union"}}}}),
            "alignment.method must be one of argmax, grow-diag-final-and, threshold");
  EXPECT_EQ(message({{"alignment", 3}}), "alignment must be a boolean or an object");
  EXPECT_EQ(message(json::array()), "options must be an object");
  EXPECT_EQ(message({{"beamSize", 4}, {"unknown", 1}}), "");  // unknown keys are ignored
}

TEST(Options, AlignmentIsAskedForByAnObjectOrTrue) {
  EXPECT_FALSE(options_from_json(json::object()).alignment.has_value());
  EXPECT_FALSE(options_from_json({{"alignment", nullptr}}).alignment.has_value());
  EXPECT_FALSE(options_from_json({{"alignment", false}}).alignment.has_value());
  EXPECT_TRUE(options_from_json({{"alignment", true}}).alignment.has_value());
  const TranslateOptions o = options_from_json({{"alignment", {{"threshold", 0.5}}}});
  ASSERT_TRUE(o.alignment.has_value());
  EXPECT_FLOAT_EQ(o.alignment->threshold, 0.5f);
  EXPECT_EQ(o.alignment->method, AlignmentOptions{}.method);
}

TEST(Options, ContradictionsAreRefusedAgainstTheModel) {
  ModelConfig c;
  c.max_positions = 256;
  auto refused = [&](const TranslateOptions& o) {
    try {
      check_options(o, c);
    } catch (const Error& e) {
      return e.code() == ErrorCode::kInvalidInput;
    }
    return false;
  };
  TranslateOptions o;
  EXPECT_FALSE(refused(o));
  o.n_best = 2;
  EXPECT_TRUE(refused(o));  // n_best above beam_size
  o.beam_size = 2;
  EXPECT_FALSE(refused(o));
  o.sample = true;
  EXPECT_TRUE(refused(o));  // sampling draws one hypothesis
  o = TranslateOptions{};
  o.max_length = 257;
  EXPECT_TRUE(refused(o));
  o.max_length = 0;
  o.top_p = 1.5f;  // a C++ caller's out-of-range value is caught by the table too
  EXPECT_TRUE(refused(o));
}

TEST(Options, MessagesNameOptionsTheJavaScriptWay) {
  EXPECT_EQ(with_js_names("n_best must lie in 1 .. beam_size"), "nBest must lie in 1 .. beamSize");
  EXPECT_EQ(with_js_names("merge_subwords, max_length_ratio; top_k."), "mergeSubwords, maxLengthRatio; topK.");
  EXPECT_EQ(with_js_names("my_beam_size and beam_sizes stay"), "my_beam_size and beam_sizes stay");
}

}  // namespace
}  // namespace crossattn
