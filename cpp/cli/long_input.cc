// Long input for crossattn-cli (long_input.h).
#include "cli/long_input.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>

#include "error.h"

namespace crossattn {
namespace {

using Length = std::function<int(const std::string&)>;

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\n\r\f\v");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\n\r\f\v") - begin + 1);
}

// The end of the whitespace run at `i` (i itself when there is none).
size_t skip_space(const std::string& s, size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

// Cut positions of punctuation level `ascii` + whitespace, or one of `wide` (UTF-8) with any whitespace after.
std::vector<size_t> punctuation_cuts(const std::string& s, char ascii, const std::vector<std::string>& wide) {
  std::vector<size_t> cuts;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ascii && i + 1 < s.size() && space(s[i + 1])) cuts.push_back(skip_space(s, i + 1));
    for (const std::string& w : wide) {
      if (s.compare(i, w.size(), w) == 0) cuts.push_back(skip_space(s, i + w.size()));
    }
  }
  return cuts;
}

// Cut positions before a conjunction of `lang` that whitespace precedes and follows.
std::vector<size_t> conjunction_cuts(const std::string& s, const std::string& lang) {
  static const std::vector<std::string> en = {"and", "but", "or", "nor", "yet"};
  static const std::vector<std::string> de = {"und", "aber", "oder", "sondern", "denn", "doch"};
  const std::string code = lang.substr(0, 2);
  const std::vector<std::string>* words = code == "en" ? &en : code == "de" ? &de : nullptr;
  std::vector<size_t> cuts;
  if (!words) return cuts;
  for (size_t i = 1; i < s.size(); ++i) {
    if (!space(s[i - 1]) || space(s[i])) continue;
    for (const std::string& w : *words) {
      if (i + w.size() >= s.size() || !space(s[i + w.size()])) continue;
      if (std::equal(w.begin(), w.end(), s.begin() + i, [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); })) {
        cuts.push_back(i);
      }
    }
  }
  return cuts;
}

// The cut positions of rule level `level` (long_input.h) in `s`.
std::vector<size_t> cuts_of(const std::string& s, int level, const std::string& lang) {
  switch (level) {
    case 0: return punctuation_cuts(s, ';', {"\xEF\xBC\x9B"});
    case 1: return punctuation_cuts(s, ':', {"\xEF\xBC\x9A"});
    case 2: return punctuation_cuts(s, ',', {"\xEF\xBC\x8C", "\xE3\x80\x81"});
    case 3: return conjunction_cuts(s, lang);
    case 4: {
      std::vector<size_t> cuts;
      for (size_t i = 1; i < s.size(); ++i) if (space(s[i - 1]) && !space(s[i])) cuts.push_back(i);
      return cuts;
    }
    default: {  // between UTF-8 code points: before every byte that is not a continuation byte
      std::vector<size_t> cuts;
      for (size_t i = 1; i < s.size(); ++i) if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) cuts.push_back(i);
      return cuts;
    }
  }
}

constexpr int kLevels = 6;

// The untrimmed parts of `s` within `budget` tokens by the rule from `level` on.
std::vector<std::string> cut(const std::string& s, int budget, const Length& length, const std::string& lang, int level) {
  if (level >= kLevels || length(trim(s)) <= budget) return {s};
  std::vector<size_t> cuts = cuts_of(s, level, lang);
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::string> pieces;
  size_t start = 0;
  for (size_t c : cuts) {
    if (c > start && c < s.size()) pieces.push_back(s.substr(start, c - start)), start = c;
  }
  pieces.push_back(s.substr(start));
  if (pieces.size() < 2) return cut(s, budget, length, lang, level + 1);
  std::vector<std::string> parts;
  for (const std::string& piece : pieces) {
    std::vector<std::string> units = length(trim(piece)) > budget ? cut(piece, budget, length, lang, level + 1)
                                                                   : std::vector<std::string>{piece};
    for (const std::string& unit : units) {
      if (!parts.empty() && length(trim(parts.back() + unit)) <= budget) parts.back() += unit;
      else parts.push_back(unit);
    }
  }
  return parts;
}

// Appends `from` to `to`, adding `offset` to each entry that is not -1.
void append_offset(std::vector<int>& to, const std::vector<int>& from, int offset) {
  for (int v : from) to.push_back(v < 0 ? v : v + offset);
}

Translation join(std::vector<Translation> parts) {
  Translation out;
  out.layers = parts.front().layers;
  out.heads = parts.front().heads;
  double total = 0;
  int source_words = 0, target_words = 0, source_units = 0, target_units = 0;  // units: the alignment's
  for (Translation& p : parts) {
    if (!p.text.empty()) out.text += (out.text.empty() ? "" : " ") + p.text;
    std::move(p.source_tokens.begin(), p.source_tokens.end(), std::back_inserter(out.source_tokens));
    std::move(p.target_tokens.begin(), p.target_tokens.end(), std::back_inserter(out.target_tokens));
    out.source_ids.insert(out.source_ids.end(), p.source_ids.begin(), p.source_ids.end());
    out.target_ids.insert(out.target_ids.end(), p.target_ids.begin(), p.target_ids.end());
    out.token_log_probs.insert(out.token_log_probs.end(), p.token_log_probs.begin(), p.token_log_probs.end());
    out.word_confidence.insert(out.word_confidence.end(), p.word_confidence.begin(), p.word_confidence.end());
    for (float lp : p.token_log_probs) total += lp;
    out.log_prob += p.log_prob;
    out.score += p.score;
    append_offset(out.source_word_of_token, p.source_word_of_token, source_words);
    append_offset(out.target_word_of_token, p.target_word_of_token, target_words);
    if (p.alignment) {
      if (!out.alignment) out.alignment = WordAlignment{};
      for (const auto& [s, t] : p.alignment->links) out.alignment->links.emplace_back(s + source_units, t + target_units);
      source_units += p.alignment->src_len;
      target_units += p.alignment->tgt_len;
    }
    source_words += static_cast<int>(p.source_words.size());
    target_words += static_cast<int>(p.target_words.size());
    std::move(p.source_words.begin(), p.source_words.end(), std::back_inserter(out.source_words));
    std::move(p.target_words.begin(), p.target_words.end(), std::back_inserter(out.target_words));
  }
  if (!out.token_log_probs.empty()) out.confidence = static_cast<float>(std::exp(total / out.token_log_probs.size()));
  if (out.alignment) out.alignment->src_len = source_units, out.alignment->tgt_len = target_units;
  out.hypotheses.push_back({out.text, out.target_tokens, out.target_ids, out.token_log_probs, out.log_prob, out.score});
  return out;
}

}  // namespace

std::vector<std::string> split_long_sentence(const std::string& text, const std::string& lang, int max_positions,
                                             const Length& source_length) {
  const int tokens = source_length(text);
  if (tokens <= max_positions) return {text};
  const auto too_long = [&](const std::string& what) {
    return Error(ErrorCode::kInputTooLong, "the text has " + std::to_string(tokens) + " tokens; this model takes at most " +
                                               std::to_string(max_positions) + " per sentence and translates up to " +
                                               std::to_string(kLongInputFactor * max_positions) + " in parts" + what +
                                               " (split it into sentences)");
  };
  if (tokens > kLongInputFactor * max_positions) throw too_long("");
  std::vector<std::string> parts;
  for (const std::string& p : cut(text, std::max(1, std::min(kLongInputPartTokens, max_positions / 2)), source_length, lang, 0)) {
    std::string t = trim(p);
    if (t.empty()) continue;
    if (source_length(t) > max_positions) throw too_long(", but one of its characters alone has more");
    parts.push_back(std::move(t));
  }
  return parts;
}

Translation translate_long(const Translator& translator, const std::string& text, const TranslateOptions& options) {
  const ModelConfig& c = translator.config();
  std::vector<std::string> parts = split_long_sentence(
      text, c.source_lang, c.max_positions, [&](const std::string& s) { return translator.source_length(s); });
  if (parts.size() == 1 && parts.front() == text) return translator.translate(text, options);
  return join(translator.translate_batch(parts, options));
}

}  // namespace crossattn
