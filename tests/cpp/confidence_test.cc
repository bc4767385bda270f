#include "decoding/confidence.h"

#include <cmath>

#include <gtest/gtest.h>

namespace crossattn {
namespace {

TEST(Confidence, WordsMultiplyTheirTokensAndTheSentenceIsTheGeometricMean) {
  // Three tokens: two of word 0 ("Haus" as "Ha" "us"), then eos, which belongs to no word.
  const std::vector<float> log_probs = {std::log(0.5f), std::log(0.25f), std::log(0.8f)};
  const Confidence c = confidence(log_probs, {0, 0, -1}, 1);
  ASSERT_EQ(c.words.size(), 1u);
  EXPECT_NEAR(c.words[0], 0.125f, 1e-6);
  EXPECT_NEAR(c.sentence, std::cbrt(0.5 * 0.25 * 0.8), 1e-6);
}

TEST(Confidence, EveryWordGetsItsOwnTokensAndAnEmptyOutputIsCertain) {
  const Confidence c = confidence({std::log(0.9f), std::log(0.1f), std::log(0.6f), 0.0f}, {0, 1, 1, -1}, 2);
  EXPECT_NEAR(c.words[0], 0.9f, 1e-6);
  EXPECT_NEAR(c.words[1], 0.06f, 1e-6);
  EXPECT_EQ(confidence({}, {}, 0).sentence, 1.0f);
}

}  // namespace
}  // namespace crossattn
