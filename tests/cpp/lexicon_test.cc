// The alignment lexicon (model/lexicon.h): the table's validation, the prior it gives align_words,
// and word alignments that follow it. The tables are made here, on the shipped model.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "alignment/word_alignment.h"
#include "error.h"
#include "model/model_file.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

struct Table {
  std::vector<int> offsets, targets;  // [V + 1], [N]
  std::vector<float> scores;          // [N]
};

std::vector<uint8_t> with_lexicon(const std::vector<uint8_t>& bytes, const Table& table) {
  testing::Parts p = testing::split(bytes);
  testing::append_tensor(p, "lexicon.offsets", "I32", table.offsets);
  testing::append_tensor(p, "lexicon.targets", "I32", table.targets);
  testing::append_tensor(p, "lexicon.scores", "F32", table.scores);
  return testing::join(std::move(p));
}

// Source piece pairs[k].first translates to target piece pairs[k].second with score 1; nothing else is listed.
Table table_of(int vocab_size, std::vector<std::pair<int, int>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  Table t;
  t.offsets.assign(vocab_size + 1, 0);
  for (const auto& [s, target] : pairs) {
    t.targets.push_back(target);
    t.scores.push_back(1.0f);
    for (int k = s + 1; k <= vocab_size; ++k) ++t.offsets[k];
  }
  return t;
}

void expect_model_format_error(const std::vector<uint8_t>& bytes) { testing::expect_model_format_error(bytes, "lexicon"); }

TEST(AlignWords, PriorReweighsEachPieceRowBeforeLinking) {
  // One layer, one head; 2 target pieces, 3 source pieces (eos last), one word a piece.
  const std::vector<float> attention = {0.6f, 0.3f, 0.1f,   // target 0 looks at source 0
                                        0.2f, 0.7f, 0.1f};  // target 1 looks at source 1
  const CrossAttentionView view{attention.data(), 1, 1, 2, 3};
  const WordMap src{{0, 1, -1}, 2}, tgt{{0, 1}, 2};
  AlignmentOptions o;
  o.method = AlignmentMethod::kArgmax;
  EXPECT_EQ(align_words(view, src, tgt, o).links, (std::vector<std::pair<int, int>>{{0, 0}, {1, 1}}));
  const std::vector<float> crossed = {0.01f, 1.0f, 1.0f,  // the lexicon says target 0 translates source 1
                                      1.0f, 0.01f, 1.0f}; // and target 1 source 0
  const WordAlignment a = align_words(view, src, tgt, o, &crossed);
  EXPECT_EQ(a.links, (std::vector<std::pair<int, int>>{{1, 0}, {0, 1}}));
  EXPECT_NEAR(a.weights[0] + a.weights[1], 1.0f, 1e-6f);  // rows still renormalized over the source
  const std::vector<float> flat(6, 0.5f);
  EXPECT_EQ(align_words(view, src, tgt, o, &flat).weights, align_words(view, src, tgt, o).weights);
  const std::vector<float> wrong(5, 1.0f);
  EXPECT_THROW(align_words(view, src, tgt, o, &wrong), Error);
}

class LexiconTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = testing::read_bytes(testing::model_path());
    vocab_size_ = ModelFile::parse(bytes_.data(), bytes_.size()).config.vocab_size;
  }
  std::vector<uint8_t> bytes_;
  int vocab_size_ = 0;
};

TEST_F(LexiconTest, MalformedTablesAreModelFormatErrors) {
  const Table good = table_of(vocab_size_, {{5, 9}, {5, 7}, {6, 9}});
  const auto intact = with_lexicon(bytes_, good);
  EXPECT_NO_THROW(ModelFile::parse(intact.data(), intact.size()));

  testing::Parts p = testing::split(with_lexicon(bytes_, good));
  p.header.erase("lexicon.scores");
  expect_model_format_error(testing::join(std::move(p)));

  Table descending = good;  // source 5 lists 9 before 7
  std::swap(descending.targets[0], descending.targets[1]);
  expect_model_format_error(with_lexicon(bytes_, descending));

  Table negative = good;
  negative.scores[2] = -0.5f;
  expect_model_format_error(with_lexicon(bytes_, negative));

  Table short_scores = good;
  short_scores.scores.pop_back();
  expect_model_format_error(with_lexicon(bytes_, short_scores));

  Table outside = good;
  outside.targets[2] = vocab_size_;
  expect_model_format_error(with_lexicon(bytes_, outside));
}

// A lexicon that pairs the source's pieces with the target's in reverse order overrules the
// attention (it weighs listed pairs 1 + 1e-4 against 1e-4); `lexicon: false` reads attention alone.
TEST_F(LexiconTest, AlignmentsFollowTheLexiconUnlessTheOptionIsOff) {
  const Translator& plain = testing::shared_translator();
  const std::string source = "Two dogs play.", target = "Zwei Hunde spielen.";
  TranslateOptions options;
  options.alignment.emplace();
  options.alignment->merge_subwords = false;  // links between pieces, whose ids the table lists
  options.alignment->method = AlignmentMethod::kArgmax;
  const Translation base = plain.align(source, target, options);
  const int s_len = static_cast<int>(base.source_ids.size()) - 1, t_len = static_cast<int>(base.target_ids.size()) - 1;
  ASSERT_GT(s_len, 2);
  ASSERT_GT(t_len, 2);
  std::vector<std::pair<int, int>> pairs, expected;
  for (int j = 0; j < t_len; ++j) {
    const int i = s_len - 1 - j * (s_len - 1) / (t_len - 1);  // from the last source piece to the first
    pairs.emplace_back(base.source_ids[i], base.target_ids[j]);
    expected.emplace_back(i, j);
  }
  const auto file = with_lexicon(bytes_, table_of(vocab_size_, pairs));
  const Translator with = Translator::from_bytes(file.data(), file.size());
  const Translation a = with.align(source, target, options);
  ASSERT_TRUE(a.alignment.has_value());
  EXPECT_EQ(a.alignment->links, expected);
  EXPECT_NE(base.alignment->links, expected);  // the attention alone links otherwise: the test can fail

  options.alignment->lexicon = false;
  EXPECT_EQ(with.align(source, target, options).alignment->links, base.alignment->links);
  EXPECT_EQ(with.align(source, target, options).log_prob, base.log_prob);  // translation scores untouched
}

}  // namespace
}  // namespace crossattn
