#include "options.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include "model/config.h"

namespace crossattn {
namespace {

const std::vector<std::string> kMethodNames = {"argmax", "grow-diag-final-and", "threshold"};

// A spec for the field `member` of TranslateOptions (or of the SearchOptions it extends).
template <typename T>
OptionSpec field(const char* name, OptionGroup group, OptionType type, T TranslateOptions::*member, const char* doc) {
  OptionSpec s{name, group, type, {}, {}, false, {}, doc, {}, {}, {}};
  s.get = [member](const TranslateOptions& o) { return OptionValue(o.*member); };
  s.set = [member](TranslateOptions& o, const OptionValue& v) { o.*member = std::get<T>(v); };
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
  OptionSpec s{name, OptionGroup::kAlignment, type, {}, {}, false, {}, doc, {}, {}, {}};
  s.get = [member](const TranslateOptions& o) { return OptionValue(o.alignment.value_or(AlignmentOptions{}).*member); };
  s.set = [member](TranslateOptions& o, const OptionValue& v) {
    if (!o.alignment) o.alignment.emplace();
    (*o.alignment).*member = std::get<T>(v);
  };
  return s;
}

OptionSpec method_spec() {
  OptionSpec s{"method", OptionGroup::kAlignment, OptionType::kChoice, {}, {}, false, kMethodNames,
               "how attention becomes links: argmax (each target word to the source word it attends to most), "
               "grow-diag-final-and (that and each source word's most attending target word, symmetrized as Koehn et al. "
               "2003 do for two directions) or threshold (every pair whose weight reaches `threshold`)", {}, {}, {}};
  s.get = [](const TranslateOptions& o) {
    return OptionValue(kMethodNames[static_cast<int>(o.alignment.value_or(AlignmentOptions{}).method)]);
  };
  s.set = [](TranslateOptions& o, const OptionValue& v) {
    if (!o.alignment) o.alignment.emplace();
    const auto at = std::find(kMethodNames.begin(), kMethodNames.end(), std::get<std::string>(v));
    o.alignment->method = static_cast<AlignmentMethod>(at - kMethodNames.begin());
  };
  return s;
}

OptionSpec bounded(OptionSpec s, std::optional<double> min, std::optional<double> max, bool min_exclusive = false) {
  s.min = min;
  s.max = max;
  s.min_exclusive = min_exclusive;
  return s;
}

// The search options (decoding/search_options.h): what each does, the method's source, its range.
void add_search_specs(std::vector<OptionSpec>& s) {
  using G = OptionGroup;
  using T = OptionType;
  s.push_back(bounded(field("beam_size", G::kSearch, T::kInt, &SearchOptions::beam_size,
                            "hypotheses kept per sentence; 1 is greedy decoding, the fastest"), 1, 64));
  s.back().sentence_default = kSentenceBeamSize;
  s.push_back(bounded(field("n_best", G::kSearch, T::kInt, &SearchOptions::n_best,
                            "hypotheses returned per sentence, best first; at most `beam_size`"), 1, 64));
  s.push_back(field("length_penalty", G::kSearch, T::kFloat, &SearchOptions::length_penalty,
                    "GNMT length penalty alpha (Wu et al. 2016, eq. 14): finished hypotheses are ranked by "
                    "log_prob / ((5 + T) / 6)^alpha for T target tokens; 0 ranks by log_prob"));
  s.push_back(field("early_stopping", G::kSearch, T::kBool, &SearchOptions::early_stopping,
                    "stop a sentence once `beam_size` hypotheses have finished; false searches on until no live "
                    "hypothesis can beat them (slower, rarely different)"));
  s.push_back(bounded(field("repeat_limit", G::kSearch, T::kInt, &SearchOptions::repeat_limit,
                            "repetition guard: no span of up to 16 target tokens repeats more often in a row, which "
                            "stops loops on out-of-domain input, and no word is written twice in a row unless the "
                            "source repeats one; 0 turns the guard off"), 0, 100));
  s.push_back(field("sample", G::kSearch, T::kBool, &SearchOptions::sample,
                    "draw each token at random from the model's distribution instead of the most probable "
                    "(needs `beam_size` 1)"));
  s.push_back(bounded(field("top_k", G::kSearch, T::kInt, &SearchOptions::top_k,
                            "with `sample`: draw among the k most probable tokens only (Fan et al. 2018); 0 means all"),
                      0, INT_MAX));
  s.push_back(bounded(field("top_p", G::kSearch, T::kFloat, &SearchOptions::top_p,
                            "with `sample`: draw from the nucleus, the fewest most probable tokens whose probability "
                            "reaches p (Holtzman et al. 2020); 1 keeps all"), 0, 1, true));
  s.push_back(bounded(field("temperature", G::kSearch, T::kFloat, &SearchOptions::temperature,
                            "with `sample`: divides the logits before the draw; below 1 sharpens, above 1 flattens"),
                      0, {}, true));
  s.push_back(bounded(field("seed", G::kSearch, T::kInt, &SearchOptions::seed,
                            "with `sample`: where each sentence's random stream starts; the same seed gives the same "
                            "translation on every platform, alone or in a batch"), 0, INT_MAX));
}

// The length, output and alignment options.
void add_translate_specs(std::vector<OptionSpec>& s) {
  using G = OptionGroup;
  using T = OptionType;
  s.push_back(bounded(field("max_length", G::kLength, T::kInt, &TranslateOptions::max_length,
                            "most target tokens per sentence, eos included: floor(`max_length_ratio` * S + "
                            "`max_length_offset`) for S source tokens, at most this; 0 means the model's max_positions"),
                      0, INT_MAX));
  s.push_back(bounded(field("max_length_ratio", G::kLength, T::kFloat, &TranslateOptions::max_length_ratio,
                            "target tokens allowed per source token"), 0, {}));
  s.push_back(bounded(field("max_length_offset", G::kLength, T::kInt, &TranslateOptions::max_length_offset,
                            "target tokens allowed beyond `max_length_ratio` * S"), 0, INT_MAX));
  s.push_back(field("shortlist", G::kSearch, T::kBool, &TranslateOptions::shortlist,
                    "score only the model's lexical shortlist of target pieces, when its file has one (a faster "
                    "output layer); false scores the whole vocabulary"));
  s.push_back(field("attention", G::kOutput, T::kBool, &TranslateOptions::attention,
                    "return the cross-attention weights [layers][heads][T][S] of the best hypothesis"));
  s.push_back(field("residual", G::kOutput, T::kBool, &TranslateOptions::residual,
                    "return the statistics of each cross-attention residual connection"));
  s.push_back(bounded(alignment_field("layers", T::kIntList, &AlignmentOptions::layers,
                                      "decoder layers whose attention is averaged, negative from the last (-1); with no "
                                      "`layers`, no `heads` and no `shift` given: the model's alignment layer if it has one, "
                                      "else its trained alignment head, else the last two layers"),
                      -1024, 1023));
  s.push_back(bounded(alignment_field("heads", T::kIntList, &AlignmentOptions::heads,
                                      "heads averaged in those layers; none given: all"), -1024, 1023));
  s.push_back(method_spec());
  s.push_back(bounded(alignment_field("threshold", T::kFloat, &AlignmentOptions::threshold,
                                      "with `method` threshold: every pair whose weight reaches it links"), 0, 1, true));
  s.push_back(alignment_field("shift", T::kBool, &AlignmentOptions::shift,
                              "Shift-Att: read token i's attention at the step fed token i (Chen et al. 2020)"));
  s.push_back(alignment_field("merge_subwords", T::kBool, &AlignmentOptions::merge_subwords,
                              "link words (source pieces summed, target pieces averaged); false links SentencePiece "
                              "pieces, indexed as the tokens without eos"));
  s.push_back(alignment_field("lexicon", T::kBool, &AlignmentOptions::lexicon,
                              "weigh attention by the model's alignment lexicon when its file has one (how often the "
                              "training data linked each source piece to each target piece; docs/alignment.md): links "
                              "come from attention x (lexicon + 1e-4); false reads attention alone"));
}

std::string number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// The shortest decimal that reads back as `x` (0.3, not 0.30000001192092896).
std::string float_text(float x) {
  for (int digits = 6;; ++digits) {
    std::ostringstream out;
    out << std::setprecision(digits) << x;
    if (!std::isfinite(x) || digits >= 9 || static_cast<float>(std::stod(out.str())) == x) return out.str();
  }
}

bool in_range(const OptionSpec& s, double x) {
  if (s.min && (s.min_exclusive ? x <= *s.min : x < *s.min)) return false;
  return !s.max || x <= *s.max;
}

// Whether `v` holds the type and range of `s`.
bool valid(const OptionSpec& s, const OptionValue& v) {
  switch (s.type) {
    case OptionType::kBool: return std::holds_alternative<bool>(v);
    case OptionType::kInt: return std::holds_alternative<int>(v) && in_range(s, std::get<int>(v));
    case OptionType::kFloat:
      return std::holds_alternative<float>(v) && std::isfinite(std::get<float>(v)) && in_range(s, std::get<float>(v));
    case OptionType::kChoice:
      return std::holds_alternative<std::string>(v) &&
             std::find(s.choices.begin(), s.choices.end(), std::get<std::string>(v)) != s.choices.end();
    case OptionType::kIntList: {
      if (!std::holds_alternative<std::vector<int>>(v)) return false;
      const auto& items = std::get<std::vector<int>>(v);
      return !items.empty() && std::all_of(items.begin(), items.end(), [&](int x) { return in_range(s, x); });
    }
  }
  return false;
}

[[noreturn]] void fail(OptionFault fault) { throw Error(std::move(fault)); }

}  // namespace

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = [] {
    std::vector<OptionSpec> s;
    add_search_specs(s);
    add_translate_specs(s);
    return s;
  }();
  return specs;
}

const OptionSpec* find_option(const std::string& name) {
  for (const OptionSpec& s : option_specs()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string range_text(const OptionSpec& s) {
  const bool has_max = s.max && *s.max < INT_MAX;
  if (s.min && has_max) {
    if (s.min_exclusive) return "in (" + number(*s.min) + ", " + number(*s.max) + "]";
    return "from " + number(*s.min) + " to " + number(*s.max);
  }
  if (s.min) return (s.min_exclusive ? "> " : ">= ") + number(*s.min);
  return "";
}

std::string value_rule(const OptionSpec& s) {
  const std::string range = range_text(s).empty() ? "" : " " + range_text(s);
  switch (s.type) {
    case OptionType::kBool: return "a boolean";
    case OptionType::kInt: return "an integer" + range;
    case OptionType::kFloat: return "a finite number" + range;
    case OptionType::kIntList: return "a non-empty list of integers" + range;
    case OptionType::kChoice: {
      std::string list;
      for (const std::string& c : s.choices) list += (list.empty() ? "" : ", ") + c;
      return "one of " + list;
    }
  }
  return "";
}

std::string value_text(const OptionValue& value) {
  return std::visit([](const auto& v) -> std::string {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
    else if constexpr (std::is_same_v<V, int>) return std::to_string(v);
    else if constexpr (std::is_same_v<V, float>) return float_text(v);
    else if constexpr (std::is_same_v<V, std::string>) return v;
    else {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
      return out + "]";
    }
  }, value);
}

void check_value(const OptionSpec& s, const OptionValue& v) {
  if (!valid(s, v)) fail({s.name, value_text(v), value_rule(s), "", ""});
}

void check_options(const TranslateOptions& o) {
  for (const OptionSpec& s : option_specs()) {
    // A list of layers or heads is checked against the model when the alignment is made.
    if (s.group == OptionGroup::kAlignment && (!o.alignment || s.type == OptionType::kIntList)) continue;
    check_value(s, s.get(o));
  }
  if (o.n_best > o.beam_size) fail({"n_best", std::to_string(o.n_best), "at most", "beam_size", ""});
  if (o.sample && o.beam_size != 1) {
    fail({"beam_size", std::to_string(o.beam_size), "1 with", "sample", "sampling draws one hypothesis"});
  }
}

void check_options(const TranslateOptions& o, const ModelConfig& c) {
  check_options(o);
  if (o.max_length > c.max_positions) {
    const std::string most = std::to_string(c.max_positions);
    fail({"max_length", std::to_string(o.max_length), "an integer from 0 to " + most, "",
          "0 means this model's max_positions, " + most});
  }
}

std::string name_options(const std::string& text, const OptionNamer& name) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const size_t close = text[i] == '`' ? text.find('`', i + 1) : std::string::npos;
    const std::string word = close == std::string::npos ? "" : text.substr(i + 1, close - i - 1);
    if (close != std::string::npos && find_option(word) != nullptr) {
      out += name(word);
      i = close + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace crossattn
