// The options as JavaScript sends them (bindings/options_json.h): every option set through its
// JavaScript name reaches its field, bad values are refused naming the option the JavaScript way
// with the value as the caller wrote it, and the exported table holds each option's names,
// default and doc.
#include "options_json.h"

#include <gtest/gtest.h>

#include "error.h"

namespace crossattn {
namespace {

using nlohmann::json;

// The JSON object {jsName: value}, nested under "alignment" for the alignment options.
json object_with(const OptionSpec& s, const json& value) {
  return s.group == OptionGroup::kAlignment ? json{{"alignment", {{js_name(s.name), value}}}} : json{{js_name(s.name), value}};
}

// The message of the error options_from_json raises for `object` as the Embind glue words it, or "".
std::string message(const json& object) {
  try {
    options_from_json(object);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    return e.fault() ? word_fault(*e.fault(), js_option_name) : e.what();
  }
  return "";
}

// A valid value of `s` other than its default, as JSON and as the option's value.
std::pair<json, OptionValue> other_value(const OptionSpec& s) {
  const OptionValue fallback = s.get(TranslateOptions{});
  switch (s.type) {
    case OptionType::kBool: return {!std::get<bool>(fallback), !std::get<bool>(fallback)};
    case OptionType::kChoice: {
      const std::string c = s.choices.front() == std::get<std::string>(fallback) ? s.choices.back() : s.choices.front();
      return {c, c};
    }
    case OptionType::kIntList: return {json::array({-1, 0}), std::vector<int>{-1, 0}};
    case OptionType::kInt: return std::get<int>(fallback) == 1 ? std::pair<json, OptionValue>{2, 2} : std::pair<json, OptionValue>{1, 1};
    case OptionType::kFloat: return std::get<float>(fallback) == 0.5f ? std::pair<json, OptionValue>{0.25, 0.25f} : std::pair<json, OptionValue>{0.5, 0.5f};
  }
  return {};
}

TEST(OptionsJson, EachOptionSetByItsJavaScriptNameReachesItsFieldAlone) {
  const TranslateOptions defaults;
  for (const OptionSpec& s : option_specs()) {
    const auto [text, value] = other_value(s);
    const TranslateOptions o = options_from_json(object_with(s, text));
    for (const OptionSpec& t : option_specs()) {
      if (&t == &s) {
        EXPECT_EQ(t.get(o), value) << s.name;
      } else {
        EXPECT_EQ(t.get(o), t.get(defaults)) << "setting " << s.name << " changed " << t.name;
      }
    }
  }
  EXPECT_EQ(options_from_json({{"beamSize", 4}}).beam_size, 4);
  EXPECT_FLOAT_EQ(options_from_json({{"topP", 0.9}}).top_p, 0.9f);
}

TEST(OptionsJson, TheTableHasJavaScriptNamesFlagsDefaultsAndDocs) {
  const json table = option_specs_json();
  const auto row = [&](const std::string& name) {
    for (const json& r : table) {
      if (r["name"] == name) return r;
    }
    return json();
  };
  EXPECT_EQ(row("beam_size")["jsName"], "beamSize");
  EXPECT_EQ(row("beam_size")["flag"], "beam-size");
  EXPECT_EQ(row("beam_size")["default"], 1);
  EXPECT_EQ(row("beam_size")["rule"], "an integer from 1 to 64");
  EXPECT_EQ(row("threshold")["default"], 0.3);  // the float 0.3f as the decimal it was written as
  EXPECT_EQ(row("method")["default"], "grow-diag-final-and");
  EXPECT_EQ(row("layers")["default"], json::array());
  EXPECT_NE(row("n_best")["doc"].get<std::string>().find("at most beamSize"), std::string::npos);
  EXPECT_NE(row("n_best")["flagDoc"].get<std::string>().find("at most --beam-size"), std::string::npos);
}

TEST(OptionsJson, BadValuesAreRefusedNamingTheOptionAndTheValue) {
  EXPECT_EQ(message({{"beamSize", 65}}), "beamSize must be an integer from 1 to 64, not 65");
  EXPECT_EQ(message({{"beamSize", 2.5}}), "beamSize must be an integer from 1 to 64, not 2.5");
  EXPECT_EQ(message({{"beamSize", "4"}}), "beamSize must be an integer from 1 to 64, not \"4\"");
  EXPECT_EQ(message({{"lengthPenalty", nullptr}}), "lengthPenalty must be a finite number, not null");  // NaN in JSON
  EXPECT_EQ(message({{"topP", 0}}), "topP must be a finite number in (0, 1], not 0");
  EXPECT_EQ(message({{"temperature", 1e39}}), "temperature must be a finite number > 0, not 1e+39");
  EXPECT_EQ(message({{"earlyStopping", 1}}), "earlyStopping must be a boolean, not 1");
  EXPECT_EQ(message({{"seed", 4294967296LL}}), "seed must be an integer >= 0, not 4294967296");
  EXPECT_EQ(message({{"alignment", {{"layers", json::array()}}}}),
            "alignment.layers must be a non-empty list of integers from -1024 to 1023, not []");
  EXPECT_EQ(message({{"alignment", {{"method", "union"}}}}),
            "alignment.method must be one of argmax, grow-diag-final-and, threshold, not \"union\"");
  EXPECT_EQ(message({{"alignment", 3}}), "alignment must be a boolean or an object");
  EXPECT_EQ(message(json::array()), "options must be an object");
  EXPECT_EQ(message({{"beamSize", 4}, {"unknown", 1}}), "");  // unknown keys are ignored
}

TEST(OptionsJson, AlignmentIsAskedForByAnObjectOrTrue) {
  EXPECT_FALSE(options_from_json(json::object()).alignment.has_value());
  EXPECT_FALSE(options_from_json({{"alignment", nullptr}}).alignment.has_value());
  EXPECT_FALSE(options_from_json({{"alignment", false}}).alignment.has_value());
  EXPECT_TRUE(options_from_json({{"alignment", true}}).alignment.has_value());
  const TranslateOptions o = options_from_json({{"alignment", {{"threshold", 0.5}}}});
  ASSERT_TRUE(o.alignment.has_value());
  EXPECT_FLOAT_EQ(o.alignment->threshold, 0.5f);
  EXPECT_EQ(o.alignment->method, AlignmentOptions{}.method);
  EXPECT_EQ(alignment_options_from_json({{"method", "argmax"}}).method, AlignmentMethod::kArgmax);
  EXPECT_THROW(alignment_options_from_json({{"threshold", 2}}), Error);
}

TEST(OptionsJson, FaultsCrossWithJavaScriptNames) {
  const json f = fault_json(OptionFault{"n_best", "3", "at most", "beam_size", ""});
  EXPECT_EQ(f, (json{{"option", "nBest"}, {"value", "3"}, {"limit", "at most"}, {"other", "beamSize"}}));
  EXPECT_EQ(js_option_name("merge_subwords"), "alignment.mergeSubwords");
  EXPECT_EQ(js_option_name("max_length_ratio"), "maxLengthRatio");
}

}  // namespace
}  // namespace crossattn
