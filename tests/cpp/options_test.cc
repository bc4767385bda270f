// The option table (cpp/options.h): every option set through its table row reaches its field and
// nothing else, bad values are refused with the option, the value and the limit in fields, and
// contradictions are refused, without a model and against it.
#include "options.h"

#include <gtest/gtest.h>

#include <set>

#include "error.h"
#include "model/config.h"

namespace crossattn {
namespace {

// A valid value of `s` other than its default.
OptionValue other_value(const OptionSpec& s, const OptionValue& fallback) {
  switch (s.type) {
    case OptionType::kBool: return !std::get<bool>(fallback);
    case OptionType::kChoice: return s.choices.front() == std::get<std::string>(fallback) ? s.choices.back() : s.choices.front();
    case OptionType::kIntList: return std::vector<int>{-1, 0};
    case OptionType::kInt: return std::get<int>(fallback) == 1 ? 2 : 1;
    case OptionType::kFloat: return std::get<float>(fallback) == 0.5f ? 0.25f : 0.5f;
  }
  return false;
}

// The fault that `body` raises (an empty option when it raises none).
template <typename Body>
OptionFault fault_of(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    EXPECT_TRUE(e.fault().has_value()) << e.what();
    return e.fault().value_or(OptionFault{});
  }
  return {};
}

TEST(Options, EachRowSetsItsFieldAlone) {
  const TranslateOptions defaults;
  std::set<std::string> names;
  for (const OptionSpec& s : option_specs()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_EQ(find_option(s.name), &s);
    const OptionValue value = other_value(s, s.get(defaults));
    check_value(s, value);
    TranslateOptions o;
    s.set(o, value);
    for (const OptionSpec& t : option_specs()) {
      if (&t == &s) {
        EXPECT_EQ(t.get(o), value) << s.name;
      } else {
        EXPECT_EQ(t.get(o), t.get(defaults)) << "setting " << s.name << " changed " << t.name;
      }
    }
  }
  EXPECT_EQ(find_option("beamSize"), nullptr);
}

TEST(Options, BadValuesAreRefusedWithTheOptionTheValueAndTheLimit) {
  const OptionFault f = fault_of([] { check_value(*find_option("beam_size"), 65); });
  EXPECT_EQ(f.option, "beam_size");
  EXPECT_EQ(f.value, "65");
  EXPECT_EQ(f.limit, "an integer from 1 to 64");
  EXPECT_EQ(word_fault(f, [](const std::string& n) { return "<" + n + ">"; }), "<beam_size> must be an integer from 1 to 64, not 65");
  EXPECT_EQ(fault_of([] { check_value(*find_option("beam_size"), 2.0f); }).limit, "an integer from 1 to 64");  // a float
  EXPECT_EQ(fault_of([] { check_value(*find_option("top_p"), 0.0f); }).limit, "a finite number in (0, 1]");
  EXPECT_EQ(fault_of([] { check_value(*find_option("temperature"), -1.0f); }).limit, "a finite number > 0");
  EXPECT_EQ(fault_of([] { check_value(*find_option("seed"), -1); }).limit, "an integer >= 0");
  EXPECT_EQ(fault_of([] { check_value(*find_option("layers"), std::vector<int>{}); }).limit,
            "a non-empty list of integers from -1024 to 1023");
  const OptionFault method = fault_of([] { check_value(*find_option("method"), std::string("union")); });
  EXPECT_EQ(method.limit, "one of argmax, grow-diag-final-and, threshold");
  EXPECT_EQ(method.value, "union");
  EXPECT_EQ(value_text(0.3f), "0.3");
  EXPECT_EQ(value_text(std::vector<int>{-1, 0}), "[-1, 0]");
}

TEST(Options, ContradictionsAreRefusedWithoutAModelAndAgainstIt) {
  ModelConfig c;
  c.max_positions = 256;
  TranslateOptions o;
  check_options(o, c);
  o.n_best = 2;
  OptionFault f = fault_of([&] { check_options(o); });  // n_best above beam_size
  EXPECT_EQ(f.option, "n_best");
  EXPECT_EQ(f.other, "beam_size");
  o.beam_size = 2;
  check_options(o, c);
  o.sample = true;
  f = fault_of([&] { check_options(o); });  // sampling draws one hypothesis
  EXPECT_EQ(f.option, "beam_size");
  EXPECT_EQ(f.other, "sample");
  o = TranslateOptions{};
  o.max_length = 257;
  check_options(o);  // the model's limit needs the model
  EXPECT_EQ(fault_of([&] { check_options(o, c); }).limit, "an integer from 0 to 256");
  o.max_length = 0;
  o.top_p = 1.5f;  // a C++ caller's out-of-range value is caught by the table too
  EXPECT_EQ(fault_of([&] { check_options(o); }).option, "top_p");
}

TEST(Options, DocsNameOtherOptionsInBackquotesForEachFrontEndToSpell) {
  const auto upper = [](const std::string& n) { return "[" + n + "]"; };
  EXPECT_EQ(name_options("at most `beam_size`; `log_prob` stays", upper), "at most [beam_size]; `log_prob` stays");
  for (const OptionSpec& s : option_specs()) {
    EXPECT_FALSE(s.doc.empty()) << s.name;
    const std::string named = name_options(s.doc, upper);
    EXPECT_EQ(named.find('`'), std::string::npos) << s.name << ": a backquoted word that names no option: " << s.doc;
  }
}

}  // namespace
}  // namespace crossattn
