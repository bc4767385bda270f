#include "options_json.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>

namespace crossattn {
namespace {

using nlohmann::json;

bool is_int(const json& v) {
  if (!v.is_number_integer()) return false;
  if (v.is_number_unsigned()) return v.get<unsigned long long>() <= static_cast<unsigned long long>(INT_MAX);
  const long long x = v.get<long long>();
  return x >= INT_MIN && x <= INT_MAX;
}

// `v` as a value of `s`'s type, checked (check_value); a value of another type raises the fault
// naming its JSON text.
OptionValue value_from_json(const OptionSpec& s, const json& v) {
  auto refuse = [&]() -> OptionValue { throw Error(OptionFault{s.name, v.dump(), value_rule(s), "", ""}); };
  OptionValue value;
  switch (s.type) {
    case OptionType::kBool: value = v.is_boolean() ? OptionValue(v.get<bool>()) : refuse(); break;
    case OptionType::kInt: value = is_int(v) ? OptionValue(v.get<int>()) : refuse(); break;
    case OptionType::kChoice: value = v.is_string() ? OptionValue(v.get<std::string>()) : refuse(); break;
    case OptionType::kFloat: {
      // A double beyond float's range would become infinite: refused by its JSON text.
      if (!v.is_number() || !std::isfinite(static_cast<float>(v.get<double>()))) refuse();
      value = v.get<float>();
      break;
    }
    case OptionType::kIntList: {
      if (!v.is_array() || !std::all_of(v.begin(), v.end(), is_int)) refuse();
      value = v.get<std::vector<int>>();
      break;
    }
  }
  try {
    check_value(s, value);
  } catch (const Error&) {
    refuse();  // named by the JSON text the caller wrote (0.1, not 0.100000001)
  }
  return value;
}

// Sets every option of `group`s (alignment or not) that `object` holds.
void set_from(const json& object, bool alignment, TranslateOptions& o) {
  for (const OptionSpec& s : option_specs()) {
    if ((s.group == OptionGroup::kAlignment) != alignment) continue;
    const auto at = object.find(js_name(s.name));
    if (at != object.end()) s.set(o, value_from_json(s, *at));
  }
}

std::vector<std::string> target_prefix(const json& prefix) {
  const bool strings = prefix.is_array() && std::all_of(prefix.begin(), prefix.end(), [](const json& x) { return x.is_string(); });
  if (!strings) throw Error(OptionFault{"target_prefix", prefix.dump(), "an array of strings, one per text", "", ""});
  return prefix.get<std::vector<std::string>>();
}

// The npm CLI's flag of an option, without dashes: "beam_size" -> "beam-size".
std::string cli_flag(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

json value_json(const OptionValue& value) {
  return std::visit([](const auto& v) -> json {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, float>) return std::stod(value_text(v));  // 0.3, not 0.30000001
    else return v;
  }, value);
}

}  // namespace

std::string js_name(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    out += name[i] == '_' && i + 1 < name.size() ? static_cast<char>(std::toupper(name[++i])) : name[i];
  }
  return out;
}

std::string js_option_name(const std::string& name) {
  const OptionSpec* spec = find_option(name);
  return (spec != nullptr && spec->group == OptionGroup::kAlignment ? "alignment." : "") + js_name(name);
}

TranslateOptions options_from_json(const json& object) {
  if (!object.is_object()) throw Error(ErrorCode::kInvalidInput, "options must be an object");
  TranslateOptions o;
  set_from(object, false, o);
  if (const auto a = object.find("alignment"); a != object.end() && !a->is_null() && *a != false) {
    if (!a->is_object() && *a != true) throw Error(ErrorCode::kInvalidInput, "alignment must be a boolean or an object");
    o.alignment.emplace();
    if (a->is_object()) set_from(*a, true, o);
  }
  if (const auto p = object.find("targetPrefix"); p != object.end() && !p->is_null()) o.target_prefix = target_prefix(*p);
  return o;
}

AlignmentOptions alignment_options_from_json(const json& object) {
  if (!object.is_object()) throw Error(ErrorCode::kInvalidInput, "alignment must be an object");
  TranslateOptions o;
  o.alignment.emplace();
  set_from(object, true, o);
  return *o.alignment;
}

json option_specs_json() {
  const char* groups[] = {"search", "length", "output", "alignment"};
  const char* types[] = {"int", "float", "bool", "choice", "int[]"};
  const TranslateOptions defaults;
  json out = json::array();
  for (const OptionSpec& s : option_specs()) {
    json j = {{"name", s.name}, {"jsName", js_name(s.name)}, {"flag", cli_flag(s.name)}, {"group", groups[static_cast<int>(s.group)]},
              {"type", types[static_cast<int>(s.type)]}, {"minExclusive", s.min_exclusive}, {"range", range_text(s)},
              {"rule", value_rule(s)}, {"doc", name_options(s.doc, js_name)},
              {"flagDoc", name_options(s.doc, [](const std::string& n) { return "--" + cli_flag(n); })},
              {"default", value_json(s.get(defaults))}};
    if (s.min) j["min"] = *s.min;
    if (s.max) j["max"] = *s.max;
    if (!s.choices.empty()) j["choices"] = s.choices;
    if (s.sentence_default) j["sentenceDefault"] = *s.sentence_default;
    out.push_back(std::move(j));
  }
  return out;
}

json fault_json(const OptionFault& f) {
  json out = {{"option", js_name(f.option)}, {"value", f.value}, {"limit", f.limit}};
  if (!f.other.empty()) out["other"] = js_name(f.other);
  if (!f.note.empty()) out["note"] = f.note;
  return out;
}

}  // namespace crossattn
