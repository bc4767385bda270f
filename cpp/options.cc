#include "options.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include "error.h"
#include "model/config.h"

namespace crossattn {
namespace {

using nlohmann::json;

const std::vector<std::string> kMethodNames = {"argmax", "grow-diag-final-and", "threshold"};

// camelCase and kebab-case forms of a snake_case name.
std::string js_name(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    out += name[i] == '_' && i + 1 < name.size() ? static_cast<char>(std::toupper(name[++i])) : name[i];
  }
  return out;
}
std::string flag(std::string name) {
  for (char& ch : name) ch = ch == '_' ? '-' : ch;
  return name;
}

// A value as JSON; a float as the shortest decimal that reads back as the same float (0.3, not
// 0.30000001192092896).
template <typename T>
json to_json(const T& x) {
  if constexpr (std::is_same_v<T, float>) {
    for (int digits = 6;; ++digits) {
      std::ostringstream out;
      out << std::setprecision(digits) << x;
      const double shortest = std::stod(out.str());
      if (static_cast<float>(shortest) == x || digits >= 9 || !std::isfinite(x)) return shortest;
    }
  } else {
    return json(x);
  }
}

// A spec for the field `member` of TranslateOptions (or of the SearchOptions it extends).
template <typename T>
OptionSpec field(const char* name, OptionGroup group, OptionType type, T TranslateOptions::*member, const char* doc) {
  OptionSpec s{name, js_name(name), flag(name), group, type, {}, {}, false, {}, doc, {}, {}};
  s.get = [member](const TranslateOptions& o) { return to_json(o.*member); };
  s.set = [member](TranslateOptions& o, const json& v) { o.*member = v.get<T>(); };
  return s;
}
template <typename T>
OptionSpec field(const char* name, OptionGroup group, OptionType type, T SearchOptions::*member, const char* doc) {
  return field(name, group, type, static_cast<T TranslateOptions::*>(member), doc);
}

// A spec for the field `member` of the AlignmentOptions that TranslateOptions::alignment holds;
// reading it from options without alignment gives AlignmentOptions' default.
template <typename T>
OptionSpec alignment_field(const char* name, OptionType type, T AlignmentOptions::*member, const char* doc) {
  OptionSpec s{name, js_name(name), flag(name), OptionGroup::kAlignment, type, {}, {}, false, {}, doc, {}, {}};
  s.get = [member](const TranslateOptions& o) { return to_json(o.alignment.value_or(AlignmentOptions{}).*member); };
  s.set = [member](TranslateOptions& o, const json& v) {
    if (!o.alignment) o.alignment.emplace();
    (*o.alignment).*member = v.get<T>();
  };
  return s;
}

OptionSpec bounded(OptionSpec s, std::optional<double> min, std::optional<double> max, bool min_exclusive = false) {
  s.min = min;
  s.max = max;
  s.min_exclusive = min_exclusive;
  return s;
}

std::vector<OptionSpec> make_specs() {
  using G = OptionGroup;
  using T = OptionType;
  std::vector<OptionSpec> s;
  s.push_back(bounded(field("beam_size", G::kSearch, T::kInt, &SearchOptions::beam_size,
                            "hypotheses kept per sentence; 1 is greedy decoding"), 1, 64));
  s.push_back(bounded(field("n_best", G::kSearch, T::kInt, &SearchOptions::n_best,
                            "hypotheses returned per sentence, best first; at most beam_size"), 1, 64));
  s.push_back(field("length_penalty", G::kSearch, T::kFloat, &SearchOptions::length_penalty,
                    "GNMT alpha: hypotheses are ranked by log_prob / ((5 + T) / 6)^alpha; 0 ranks by log_prob"));
  s.push_back(field("early_stopping", G::kSearch, T::kBool, &SearchOptions::early_stopping,
                    "stop once beam_size hypotheses have finished; false searches until none can win"));
  s.push_back(bounded(field("repeat_limit", G::kSearch, T::kInt, &SearchOptions::repeat_limit,
                            "no span of up to 16 target tokens repeats more often in a row; 0 turns the guard off"), 0, 100));
  s.push_back(field("sample", G::kSearch, T::kBool, &SearchOptions::sample,
                    "draw each token at random from the model's distribution (needs beam_size 1)"));
  s.push_back(bounded(field("top_k", G::kSearch, T::kInt, &SearchOptions::top_k,
                            "with sample: draw among the k most probable tokens; 0 means all"), 0, INT_MAX));
  s.push_back(bounded(field("top_p", G::kSearch, T::kFloat, &SearchOptions::top_p,
                            "with sample: draw from the fewest most probable tokens whose probability reaches p"), 0, 1, true));
  s.push_back(bounded(field("temperature", G::kSearch, T::kFloat, &SearchOptions::temperature,
                            "with sample: divides the logits; below 1 sharpens, above 1 flattens"), 0, {}, true));
  s.push_back(bounded(field("seed", G::kSearch, T::kInt, &SearchOptions::seed,
                            "with sample: where the random stream starts; the same seed gives the same output"), 0, INT_MAX));
  s.push_back(bounded(field("max_length", G::kLength, T::kInt, &TranslateOptions::max_length,
                            "most target tokens per sentence, eos included; 0 means the model's max_positions"), 0, INT_MAX));
  s.push_back(bounded(field("max_length_ratio", G::kLength, T::kFloat, &TranslateOptions::max_length_ratio,
                            "target tokens allowed per source token: floor(ratio * S + offset)"), 0, {}));
  s.push_back(bounded(field("max_length_offset", G::kLength, T::kInt, &TranslateOptions::max_length_offset,
                            "target tokens allowed beyond ratio * S"), 0, INT_MAX));
  s.push_back(field("shortlist", G::kSearch, T::kBool, &TranslateOptions::shortlist,
                    "score only the model's lexical shortlist of target pieces, when it has one; false scores the whole vocabulary"));
  s.push_back(field("attention", G::kOutput, T::kBool, &TranslateOptions::attention,
                    "return the cross-attention weights [layers][heads][T][S] of the best hypothesis"));
  s.push_back(field("residual", G::kOutput, T::kBool, &TranslateOptions::residual,
                    "return the statistics of each cross-attention residual connection"));
  s.push_back(bounded(alignment_field("layers", T::kIntList, &AlignmentOptions::layers,
                                      "decoder layers averaged, negative from the last; with no layers and no heads given: the model's trained alignment head if it has one, else the last two layers"),
                      -1024, 1023));
  s.push_back(bounded(alignment_field("heads", T::kIntList, &AlignmentOptions::heads,
                                      "heads averaged in those layers; none given: all"), -1024, 1023));
  OptionSpec method{"method", "method", "method", G::kAlignment, T::kChoice, {}, {}, false, kMethodNames,
                    "how attention becomes links: argmax, grow-diag-final-and (both directions) or threshold", {}, {}};
  method.get = [](const TranslateOptions& o) {
    return json(kMethodNames[static_cast<int>(o.alignment.value_or(AlignmentOptions{}).method)]);
  };
  method.set = [](TranslateOptions& o, const json& v) {
    if (!o.alignment) o.alignment.emplace();
    const auto at = std::find(kMethodNames.begin(), kMethodNames.end(), v.get<std::string>());
    o.alignment->method = static_cast<AlignmentMethod>(at - kMethodNames.begin());
  };
  s.push_back(method);
  s.push_back(bounded(alignment_field("threshold", T::kFloat, &AlignmentOptions::threshold,
                                      "with method threshold: every pair whose weight reaches it links"), 0, 1, true));
  s.push_back(alignment_field("shift", T::kBool, &AlignmentOptions::shift,
                              "Shift-Att: read token i's attention at the step fed token i (Chen et al. 2020)"));
  s.push_back(alignment_field("merge_subwords", T::kBool, &AlignmentOptions::merge_subwords,
                              "link words (pieces merged); false links SentencePiece pieces"));
  s.push_back(alignment_field("lexicon", T::kBool, &AlignmentOptions::lexicon,
                              "weigh attention by the model's alignment lexicon, when its file has one; false reads attention alone"));
  return s;
}

std::string number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// "from 1 to 64", ">= 0", "in (0, 1]", "> 0", or "" for an unbounded option.
std::string range_text(const OptionSpec& s) {
  const bool has_max = s.max && *s.max < INT_MAX;
  if (s.min && has_max) {
    if (s.min_exclusive) return "in (" + number(*s.min) + ", " + number(*s.max) + "]";
    return "from " + number(*s.min) + " to " + number(*s.max);
  }
  if (s.min) return (s.min_exclusive ? "> " : ">= ") + number(*s.min);
  return "";
}

bool in_range(const OptionSpec& s, double x) {
  if (s.min && (s.min_exclusive ? x <= *s.min : x < *s.min)) return false;
  return !s.max || x <= *s.max;
}

bool is_int(const json& v) {
  if (!v.is_number_integer()) return false;
  if (v.is_number_unsigned()) return v.get<unsigned long long>() <= static_cast<unsigned long long>(INT_MAX);
  const long long x = v.get<long long>();
  return x >= INT_MIN && x <= INT_MAX;
}

}  // namespace

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = make_specs();
  return specs;
}

nlohmann::json option_specs_json() {
  const char* groups[] = {"search", "length", "output", "alignment"};
  const char* types[] = {"int", "float", "bool", "choice", "int[]"};
  const TranslateOptions defaults;
  json out = json::array();
  for (const OptionSpec& s : option_specs()) {
    json j = {{"name", s.name}, {"jsName", s.js_name}, {"flag", s.flag}, {"group", groups[static_cast<int>(s.group)]},
              {"type", types[static_cast<int>(s.type)]}, {"minExclusive", s.min_exclusive}, {"doc", with_js_names(s.doc)},
              {"range", range_text(s)}, {"default", s.get(defaults)}};
    if (s.min) j["min"] = *s.min;
    if (s.max) j["max"] = *s.max;
    if (!s.choices.empty()) j["choices"] = s.choices;
    out.push_back(std::move(j));
  }
  return out;
}

std::string check_value(const OptionSpec& s, const json& v, const std::string& shown) {
  const std::string range = range_text(s);
  switch (s.type) {
    case OptionType::kBool:
      return v.is_boolean() ? "" : shown + " must be a boolean";
    case OptionType::kChoice:
      if (v.is_string() && std::find(s.choices.begin(), s.choices.end(), v.get<std::string>()) != s.choices.end()) return "";
      {
        std::string list;
        for (const std::string& c : s.choices) list += (list.empty() ? "" : ", ") + c;
        return shown + " must be one of " + list;
      }
    case OptionType::kInt:
      if (is_int(v) && in_range(s, v.get<double>())) return "";
      return shown + " must be an integer" + (range.empty() ? "" : " " + range);
    case OptionType::kFloat:
      if (v.is_number() && std::isfinite(v.get<double>()) && in_range(s, v.get<double>())) return "";
      return shown + " must be a finite number" + (range.empty() ? "" : " " + range);
    case OptionType::kIntList:
      if (!v.is_array() || v.empty()) return shown + " must be a non-empty list of integers";
      for (const json& x : v) {
        if (!is_int(x) || !in_range(s, x.get<double>())) return shown + " must hold integers " + range;
      }
      return "";
  }
  return shown + " has an unknown type";
}

TranslateOptions options_from_json(const json& object) {
  if (!object.is_object()) throw Error(ErrorCode::kInvalidInput, "options must be an object");
  TranslateOptions o;
  const json* alignment = nullptr;
  if (object.contains("alignment")) {
    const json& a = object["alignment"];
    if (a.is_object()) {
      alignment = &a;
      o.alignment.emplace();
    } else if (a == true) {
      o.alignment.emplace();
    } else if (!a.is_null() && a != false) {
      throw Error(ErrorCode::kInvalidInput, "alignment must be a boolean or an object");
    }
  }
  if (object.contains("targetPrefix") && !object["targetPrefix"].is_null()) {
    const json& prefix = object["targetPrefix"];
    const bool strings = prefix.is_array() && std::all_of(prefix.begin(), prefix.end(), [](const json& x) { return x.is_string(); });
    if (!strings) throw Error(ErrorCode::kInvalidInput, "targetPrefix must be an array of strings, one per text");
    o.target_prefix = prefix.get<std::vector<std::string>>();
  }
  for (const OptionSpec& s : option_specs()) {
    const json* from = s.group == OptionGroup::kAlignment ? alignment : &object;
    if (from == nullptr || !from->contains(s.js_name)) continue;
    const json& value = (*from)[s.js_name];
    const std::string shown = s.group == OptionGroup::kAlignment ? "alignment." + s.js_name : s.js_name;
    const std::string problem = check_value(s, value, shown);
    if (!problem.empty()) throw Error(ErrorCode::kInvalidInput, problem);
    s.set(o, value);
  }
  return o;
}

std::string with_js_names(const std::string& message) {
  auto word_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  std::string out;
  for (size_t i = 0; i < message.size();) {
    size_t end = i;
    while (end < message.size() && word_char(message[end])) ++end;
    if (end == i) {
      out += message[i++];
      continue;
    }
    const std::string word = message.substr(i, end - i);
    const auto& specs = option_specs();
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == word; });
    out += spec == specs.end() ? word : spec->js_name;
    i = end;
  }
  return out;
}

void check_options(const TranslateOptions& o, const ModelConfig& c) {
  auto fail = [](const std::string& what) { throw Error(ErrorCode::kInvalidInput, what); };
  for (const OptionSpec& s : option_specs()) {
    if (s.group == OptionGroup::kAlignment && (!o.alignment || s.type == OptionType::kIntList)) continue;
    const std::string problem = check_value(s, s.get(o), s.name);
    if (!problem.empty()) fail(problem);
  }
  if (o.max_length > c.max_positions) {
    fail("max_length must lie in 0 .. " + std::to_string(c.max_positions) + " (0 means max_positions)");
  }
  if (o.n_best > o.beam_size) fail("n_best must lie in 1 .. beam_size");
  if (o.sample && o.beam_size != 1) fail("sample draws one hypothesis: beam_size must be 1");
}

}  // namespace crossattn
