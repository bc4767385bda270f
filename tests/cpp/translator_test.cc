#include "translator.h"

#include <cmath>

#include <gtest/gtest.h>

#include "error.h"
#include "test_util.h"

namespace crossattn {
namespace {

class TranslatorTest : public ::testing::Test {
 protected:
  Translator translator = Translator::from_file(testing::model_path());

  ErrorCode error_of(const std::string& text, TranslateOptions options = {}) {
    try {
      translator.translate(text, options);
    } catch (const Error& e) {
      return e.code();
    }
    ADD_FAILURE() << "no error";
    return ErrorCode::kModelFormat;
  }
};

TEST_F(TranslatorTest, ReturnsTextTokensAndShapedAttention) {
  TranslateOptions with_attention;
  with_attention.attention = true;
  const auto r = translator.translate("A man is riding a bike.", with_attention);
  EXPECT_FALSE(r.text.empty());
  EXPECT_EQ(r.source_tokens.back(), "</s>");
  EXPECT_EQ(r.source_tokens.size(), r.source_ids.size());
  EXPECT_EQ(r.target_tokens.size(), r.target_ids.size());
  EXPECT_EQ(r.target_ids.back(), translator.config().eos_id);
  EXPECT_EQ(r.layers, translator.config().decoder_layers);
  EXPECT_EQ(r.heads, translator.config().n_heads);
  EXPECT_EQ(r.cross_attention.size(),
            static_cast<size_t>(r.layers) * r.heads * r.target_tokens.size() * r.source_tokens.size());
  EXPECT_LT(r.log_prob, 0.0f);
  // Without attention the same translation comes back, without the weights.
  TranslateOptions no_attention;
  no_attention.attention = false;
  const auto plain = translator.translate("A man is riding a bike.", no_attention);
  EXPECT_EQ(plain.text, r.text);
  EXPECT_TRUE(plain.cross_attention.empty());
  // Attention costs layers * heads * T * S floats: a caller who does not ask for it does not get it.
  const auto unasked = translator.translate("A man is riding a bike.", {});
  EXPECT_EQ(unasked.target_ids, r.target_ids);
  EXPECT_TRUE(unasked.cross_attention.empty());
}

TEST_F(TranslatorTest, TokenLogProbsOfTheSearchAreThoseOfForcedDecodingAndMakeTheConfidence) {
  TranslateOptions beam;
  beam.beam_size = 4;
  for (const TranslateOptions& options : {TranslateOptions{}, beam}) {
    const auto r = translator.translate("Two dogs are playing in the snow.", options);
    ASSERT_EQ(r.token_log_probs.size(), r.target_ids.size());
    // The search's incremental decoding and a fresh teacher-forced pass give each token the same log p.
    const auto forced = translator.align("Two dogs are playing in the snow.", r.text, {});
    ASSERT_EQ(forced.target_ids, r.target_ids);
    double sum = 0.0;
    for (size_t t = 0; t < r.token_log_probs.size(); ++t) {
      EXPECT_NEAR(r.token_log_probs[t], forced.token_log_probs[t], 1e-3) << "token " << t;
      EXPECT_LE(r.token_log_probs[t], 0.0f);
      sum += r.token_log_probs[t];
    }
    EXPECT_NEAR(sum, r.log_prob, 1e-3);
    EXPECT_NEAR(r.confidence, std::exp(sum / r.token_log_probs.size()), 1e-5);
    EXPECT_NEAR(forced.confidence, r.confidence, 1e-3);
    ASSERT_EQ(r.word_confidence.size(), r.target_words.size());
    for (float p : r.word_confidence) EXPECT_TRUE(p > 0.0f && p <= 1.0f);
  }
}

TEST_F(TranslatorTest, AWorkBudgetRefusesHugeSearchesBeforeTheyStartAndNothingElse) {
  std::string long_text;
  for (int i = 0; i < 300; ++i) long_text += "the ";
  TranslateOptions huge;
  huge.beam_size = 64;
  huge.n_best = 64;
  huge.early_stopping = false;
  try {
    translator.translate(long_text, huge);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    EXPECT_NE(std::string(e.what()).find("the limit is 4096"), std::string::npos) << e.what();
  }
  // The same beam on a short sentence is within the budget, and the translator is unharmed.
  EXPECT_FALSE(translator.translate("A dog runs.", huge).text.empty());
  // Attention kept for many long sentences at once (10 x 4 x 512 steps x 3 x 4 heads x 301 source
  // tokens x 4 bytes = 296 MiB): refused by its size, though each sentence is within its steps.
  TranslateOptions wide;
  wide.attention = true;
  wide.beam_size = 4;
  wide.max_length = 512;
  const std::vector<std::string> batch(10, long_text);
  EXPECT_THROW(translator.translate_batch(batch, wide), Error);
  wide.attention = false;  // without attention the same batch is only bounded by its steps
  wide.max_length = 8;
  EXPECT_EQ(translator.translate_batch(batch, wide).size(), 10u);
}

TEST_F(TranslatorTest, EmptyAndBlankTextGiveEmptyTranslations) {
  for (const std::string text : {"", "   ", "\n\t"}) {
    const auto r = translator.translate(text, {});
    EXPECT_EQ(r.text, "");
    EXPECT_TRUE(r.target_tokens.empty());
  }
}

TEST_F(TranslatorTest, MaxLengthBoundsTheOutput) {
  TranslateOptions options;
  options.max_length = 2;
  const auto r = translator.translate("Two men in orange vests are working on the road near a big truck.", options);
  EXPECT_EQ(r.target_ids.size(), 2u);
}

TEST_F(TranslatorTest, BadInputIsATypedErrorAndTheTranslatorStaysUsable) {
  const auto before = translator.translate("A dog runs.", {});
  EXPECT_EQ(error_of(std::string("caf\xc3", 4)), ErrorCode::kInvalidInput);
  std::string long_text;
  for (int i = 0; i < translator.config().max_positions; ++i) long_text += "dog ";
  EXPECT_EQ(error_of(long_text), ErrorCode::kInputTooLong);
  TranslateOptions bad;
  bad.max_length = -1;
  EXPECT_EQ(error_of("A dog.", bad), ErrorCode::kInvalidInput);
  bad.max_length = translator.config().max_positions + 1;
  EXPECT_EQ(error_of("A dog.", bad), ErrorCode::kInvalidInput);
  EXPECT_EQ(translator.translate("A dog runs.", {}).text, before.text);
}

}  // namespace
}  // namespace crossattn
