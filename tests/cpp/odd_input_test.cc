// Limits and odd input through the Translator: text a user may paste or a JavaScript string may
// carry. Each gives a translation or a typed Error, never a crash or a hang, and the translator
// translates the same sentence the same way afterwards.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "error.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

class OddInputTest : public ::testing::Test {
 protected:
  const Translator& translator = testing::shared_translator();

  // Translates `text` with greedy decoding and beam search; checks the result's invariants.
  void expect_translates(const std::string& text) {
    for (int beam : {1, 4}) {
      TranslateOptions o;
      o.beam_size = beam;
      o.attention = true;
      const Translation r = translator.translate(text, o);
      ASSERT_FALSE(r.source_tokens.empty()) << text;
      EXPECT_EQ(r.source_tokens.back(), "</s>");
      EXPECT_GT(r.target_ids.size(), 0u);
      EXPECT_EQ(r.cross_attention.size(), static_cast<size_t>(r.layers) * r.heads * r.target_ids.size() * r.source_ids.size());
      EXPECT_EQ(r.source_word_of_token.size(), r.source_ids.size());
      EXPECT_TRUE(std::isfinite(r.log_prob));
    }
  }

  void expect_still_usable() {
    EXPECT_EQ(translator.translate("A dog runs through the grass.", {}).text, reference_);
  }

  void SetUp() override { reference_ = translator.translate("A dog runs through the grass.", {}).text; }
  std::string reference_;
};

TEST_F(OddInputTest, EmptyAndWhitespaceOnlyGiveEmptyTranslations) {
  // Spaces, tabs, newlines, a no-break space, an ideographic space.
  for (const std::string text : {"", " ", "\t\n\r ", "\xc2\xa0", "\xe3\x80\x80"}) {
    for (int beam : {1, 3}) {
      TranslateOptions o;
      o.beam_size = beam;
      const Translation r = translator.translate(text, o);
      EXPECT_EQ(r.text, "");
      EXPECT_TRUE(r.target_ids.empty());
      EXPECT_TRUE(r.hypotheses.empty());
    }
  }
  expect_still_usable();
}

TEST_F(OddInputTest, EmojiUnknownScriptsAndMixedDirectionTranslate) {
  expect_translates("A dog \xf0\x9f\x90\xb6 runs \xf0\x9f\x8f\x83\xe2\x80\x8d\xe2\x99\x82\xef\xb8\x8f fast.");  // 🐶, 🏃‍♂️ (ZWJ sequence)
  expect_translates("\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80");  // 😀😀😀 only
  expect_translates("\xd9\x83\xd9\x84\xd8\xa8 \xd9\x8a\xd8\xb1\xd9\x83\xd8\xb6.");  // Arabic: a dog runs.
  expect_translates("\xd7\x9b\xd7\x9c\xd7\x91 \xd7\xa8\xd7\xa5.");  // Hebrew
  // English with an Arabic word, a right-to-left mark and an embedding with its pop.
  expect_translates("A man says \xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xe2\x80\x8f to a \xe2\x80\xab\xd7\x9b\xd7\x9c\xd7\x91\xe2\x80\xac dog.");
  expect_translates("\xe4\xb8\x80\xe5\x8f\xaa\xe7\x8b\x97 A dog \xd1\x81\xd0\xbe\xd0\xb1\xd0\xb0\xd0\xba\xd0\xb0.");  // CJK, Latin, Cyrillic
  expect_translates("\xef\xbf\xbd\xef\xbf\xbd dog");  // U+FFFD, what a lone surrogate becomes in the bindings
  expect_still_usable();
}

TEST_F(OddInputTest, NulAndOtherControlCharactersSeparateWordsAsSpacesDo) {
  // Not terminators: the text after a NUL is translated, and the NUL separates words.
  static const char kText[] = "A dog\0runs through\x1b the\x7fgrass.";
  const Translation nul = translator.translate(std::string(kText, sizeof kText - 1), {});
  EXPECT_EQ(nul.text, translator.translate("A dog runs through the grass.", {}).text);
  EXPECT_EQ(nul.source_words, (std::vector<std::string>{"A", "dog", "runs", "through", "the", "grass."}));
  for (const std::string only : {std::string(1, '\0'), std::string("\x01\x02\x1f\x7f")}) {
    EXPECT_TRUE(translator.translate(only, {}).target_ids.empty());  // nothing but separators
  }
  expect_still_usable();
}

TEST_F(OddInputTest, InvalidUtf8IsInvalidInput) {
  for (const std::string text : {std::string("caf\xc3", 4), std::string("\xff\xfe"), std::string("\xed\xa0\x80", 3)}) {
    try {
      translator.translate(text, {});
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    }
  }
  expect_still_usable();
}

TEST_F(OddInputTest, VeryLongTextIsACleanErrorPastTheTokenCap) {
  const int cap = translator.config().max_positions;
  std::string text;
  while (static_cast<int>(text.size()) < 1 << 20) text += "A dog runs through the grass and ";  // 1 MiB
  for (int beam : {1, 4}) {
    TranslateOptions o;
    o.beam_size = beam;
    try {
      translator.translate(text, o);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInputTooLong);
      EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(cap)), std::string::npos) << e.what();
    }
  }
  // Just under the cap translates, and its output stops at the length limit at the latest.
  std::string longest;
  for (int words = 0; words < cap - 1; ++words) longest += "dog ";
  const Translation r = translator.translate(longest, {});
  EXPECT_EQ(static_cast<int>(r.source_ids.size()), cap);
  EXPECT_LE(static_cast<int>(r.target_ids.size()), cap);
  expect_still_usable();
}

}  // namespace
}  // namespace crossattn
