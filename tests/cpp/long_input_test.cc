// crossattn-cli's long-input rule (cli/long_input.h): where a sentence over the limit is cut, and that
// its parts translate in full.
#include "cli/long_input.h"

#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "error.h"
#include "test_util.h"

namespace crossattn {
namespace {

// A stand-in for Translator::source_length: one token per whitespace-separated word, plus eos.
int words_plus_eos(const std::string& s) {
  std::istringstream in(s);
  int n = 0;
  for (std::string w; in >> w;) ++n;
  return n == 0 ? 0 : n + 1;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

TEST(LongInputTest, ASentenceWithinTheLimitIsOnePart) {
  EXPECT_EQ(split_long_sentence("a b c, d e.", "en", 8, words_plus_eos), std::vector<std::string>{"a b c, d e."});
}

TEST(LongInputTest, ASemicolonIsPreferredToCommasAndCommasToConjunctions) {
  // 13 words + eos > 12; budget 6 tokens (5 words). The semicolon cuts first, then the comma, then "and".
  const std::string text = "one two, three four; five six seven and eight nine ten, eleven twelve thirteen";
  const auto parts = split_long_sentence(text, "en", 12, words_plus_eos);
  EXPECT_EQ(parts, (std::vector<std::string>{"one two, three four;", "five six seven", "and eight nine ten,",
                                             "eleven twelve thirteen"}));
  for (const std::string& p : parts) EXPECT_LE(words_plus_eos(p), 6) << p;
  EXPECT_EQ(joined(parts), text);
}

TEST(LongInputTest, GermanConjunctionsCutAndNumbersStayWhole) {
  const std::string text = "eins zwei drei vier 1,5 und fünf sechs sieben 9:30 aber acht neun";
  const auto parts = split_long_sentence(text, "de", 12, words_plus_eos);
  EXPECT_EQ(parts, (std::vector<std::string>{"eins zwei drei vier 1,5", "und fünf sechs sieben 9:30",
                                             "aber acht neun"}));
}

TEST(LongInputTest, WithoutPunctuationItCutsBetweenWordsNeverInsideOne) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += (i ? " " : "") + std::string("word") + std::to_string(i);
  const auto parts = split_long_sentence(text, "fr", 16, words_plus_eos);
  ASSERT_GT(parts.size(), 1u);
  for (const std::string& p : parts) EXPECT_LE(words_plus_eos(p), 8) << p;
  EXPECT_EQ(joined(parts), text);  // every cut fell on a space: the words come back whole, in order
}

TEST(LongInputTest, PastItsCapASentenceIsStillInputTooLong) {
  const std::string text = [] { std::string t; for (int i = 0; i < 200; ++i) t += "w, "; return t; }();
  try {
    split_long_sentence(text, "en", 8, words_plus_eos);  // 201 tokens > 16 x 8
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInputTooLong);
    EXPECT_NE(std::string(e.what()).find("128 in parts"), std::string::npos) << e.what();
  }
}

TEST(LongInputTest, ASentenceOfTwoThousandTokensTranslatesInFullInParts) {
  const Translator& translator = testing::shared_translator();
  const int max_positions = translator.config().max_positions;
  const std::vector<std::string> clauses = {"a man in a blue shirt is riding a bike down the street",
                                            "two dogs are playing in the snow", "a woman sings on a stage"};
  std::string text;
  while (translator.source_length(text) < 2000) text += (text.empty() ? "" : ", ") + clauses[text.size() % 3];
  text += ".";
  const auto parts = split_long_sentence(text, translator.config().source_lang, max_positions,
                                         [&](const std::string& s) { return translator.source_length(s); });
  const int budget = std::min(kLongInputPartTokens, max_positions / 2);
  ASSERT_GE(parts.size(), static_cast<size_t>(2000 / budget));
  for (const std::string& p : parts) {
    EXPECT_LE(translator.source_length(p), budget) << p;
    EXPECT_EQ(p.back(), p == parts.back() ? '.' : ',') << "a cut between clauses, at a comma: " << p;
  }
  TranslateOptions options;
  options.attention = false;
  options.alignment = AlignmentOptions{};
  const Translation r = translate_long(translator, text, options);
  const std::vector<Translation> alone = translator.translate_batch(parts, options);
  std::string expected;
  size_t source_tokens = 0;
  for (const Translation& a : alone) {
    ASSERT_FALSE(a.text.empty());
    EXPECT_NE(r.text.find(a.text), std::string::npos) << "a part's translation is missing: " << a.text;
    expected += (expected.empty() ? "" : " ") + a.text;
    source_tokens += a.source_tokens.size();
  }
  EXPECT_EQ(r.text, expected);
  EXPECT_EQ(r.source_tokens.size(), source_tokens);
  EXPECT_EQ(r.target_word_of_token.size(), r.target_tokens.size());
  ASSERT_TRUE(r.alignment.has_value());
  for (const auto& [s, t] : r.alignment->links) {
    EXPECT_LT(s, static_cast<int>(r.source_words.size()));
    EXPECT_LT(t, static_cast<int>(r.target_words.size()));
  }
  EXPECT_GT(r.confidence, 0.0f);
  EXPECT_LE(r.confidence, 1.0f);
}

}  // namespace
}  // namespace crossattn
