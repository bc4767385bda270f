// The output layer's lexical shortlist (model/shortlist.h): the table's validation, the restricted
// output projection (PackedLinear::select_rows), the decoding step's logits with and without it,
// and translations that score only the candidates. The tables are made here, on the shipped model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "decoding/repetition_guard.h"
#include "error.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

struct Table {
  std::vector<int> frequent, offsets, targets;  // [F], [V + 1], [N]
};

// `bytes` with the tensors of `table` appended (no checksum); `dtype` is what the header claims
// for shortlist.targets (a 4-byte type, so that the sizes still agree).
std::vector<uint8_t> with_shortlist(const std::vector<uint8_t>& bytes, const Table& table,
                                    const std::string& dtype = "I32") {
  testing::Parts p = testing::split(bytes);
  testing::append_tensor(p, "shortlist.frequent", "I32", table.frequent);
  testing::append_tensor(p, "shortlist.offsets", "I32", table.offsets);
  testing::append_tensor(p, "shortlist.targets", dtype, table.targets);
  return testing::join(std::move(p));
}

class ShortlistTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = testing::read_bytes(testing::model_path());
    const ModelFile file = ModelFile::parse(bytes_.data(), bytes_.size());
    vocab_size_ = file.config.vocab_size;
    eos_id_ = file.config.eos_id;
  }

  // Frequent pieces 4..23; source piece s lists (s * 7 + 3) % V and (s * 13 + 5) % V.
  Table small_table() const {
    Table t;
    for (int id = 4; id < 24; ++id) t.frequent.push_back(id);
    t.offsets.push_back(0);
    for (int s = 0; s < vocab_size_; ++s) {
      t.targets.push_back((s * 7 + 3) % vocab_size_);
      t.targets.push_back((s * 13 + 5) % vocab_size_);
      t.offsets.push_back(static_cast<int>(t.targets.size()));
    }
    return t;
  }

  // Every id frequent, no per-source lists: the shortlist is the whole vocabulary.
  Table whole_vocabulary() const {
    Table t;
    t.frequent.resize(vocab_size_);
    std::iota(t.frequent.begin(), t.frequent.end(), 0);
    t.offsets.assign(vocab_size_ + 1, 0);
    return t;
  }

  void expect_model_format_error(const Table& table, const std::string& dtype = "I32") const {
    testing::expect_model_format_error(with_shortlist(bytes_, table, dtype), "shortlist");
  }

  std::vector<uint8_t> bytes_;
  int vocab_size_ = 0, eos_id_ = 0;
};

TEST_F(ShortlistTest, ShippedModelFileHasNoShortlistAndTheOptionChangesNothing) {
  const Translator& t = testing::shared_translator();
  TranslateOptions off;
  off.shortlist = false;
  EXPECT_EQ(t.translate("A dog runs through the grass.", {}).target_ids,
            t.translate("A dog runs through the grass.", off).target_ids);
}

TEST_F(ShortlistTest, MalformedTablesAreModelFormatErrors) {
  Table partial = small_table();
  testing::Parts p = testing::split(with_shortlist(bytes_, partial));
  p.header.erase("shortlist.offsets");
  const auto without_offsets = testing::join(std::move(p));
  EXPECT_THROW(ModelFile::parse(without_offsets.data(), without_offsets.size()), Error);

  Table short_offsets = small_table();
  short_offsets.offsets.pop_back();
  expect_model_format_error(short_offsets);

  Table falling = small_table();
  std::swap(falling.offsets[5], falling.offsets[6]);
  expect_model_format_error(falling);

  Table past_end = small_table();
  past_end.offsets.back() += 1;
  expect_model_format_error(past_end);

  Table outside = small_table();
  outside.targets[3] = vocab_size_;
  expect_model_format_error(outside);

  Table negative = small_table();
  negative.frequent[0] = -1;
  expect_model_format_error(negative);

  expect_model_format_error(small_table(), "F32");
}

TEST_F(ShortlistTest, CandidatesAreFrequentPiecesEosAndEachSourcePiecesList) {
  const auto file_bytes = with_shortlist(bytes_, small_table());
  ModelFile file = ModelFile::parse(file_bytes.data(), file_bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  ASSERT_TRUE(model.has_shortlist());
  const std::vector<int> a = {30, 31, eos_id_}, b = {31, 50};
  const OutputShortlist s = model.shortlist({&a, &b});
  std::vector<int> expected = {eos_id_};
  for (int id = 4; id < 24; ++id) expected.push_back(id);
  for (int src : {30, 31, eos_id_, 50}) {
    expected.push_back((src * 7 + 3) % vocab_size_);
    expected.push_back((src * 13 + 5) % vocab_size_);
  }
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  EXPECT_EQ(s.ids, expected);
  EXPECT_EQ(s.projection.out(), static_cast<int>(expected.size()));

  const std::vector<int> bad = {vocab_size_};
  EXPECT_THROW(model.shortlist({&bad}), Error);
}

// One decoding step's logits: one column per candidate, in the order of s.ids, each equal to the full
// layer's logit of that token bit for bit.
TEST_F(ShortlistTest, DecodeScoresCandidatesExactlyAndNothingElse) {
  for (const bool int8 : {false, true}) {
    const auto base = testing::read_bytes(int8 ? testing::int8_model_path() : testing::model_path());
    const auto file_bytes = with_shortlist(base, small_table());
    ModelFile file = ModelFile::parse(file_bytes.data(), file_bytes.size());
    const Transformer model(file.config, std::move(file.weights));
    const ModelConfig& c = model.config();
    const std::vector<int> src = {40, 41, 42, 43, c.eos_id};
    const OutputShortlist s = model.shortlist({&src});
    const Matrix encoder_out = model.encode(src);
    DecoderState full_state = model.start(encoder_out, 8), short_state = model.start(encoder_out, 8);
    DecoderWorkspace full_ws, short_ws;
    full_ws.reserve(1, c);
    short_ws.reserve(1, c);
    for (int id : {c.decoder_start_id, 57, 58}) {
      DecoderState* full_rows[1] = {&full_state};
      DecoderState* short_rows[1] = {&short_state};
      model.decode(full_rows, &id, 1, full_ws, nullptr);
      model.decode(short_rows, &id, 1, short_ws, nullptr, &s);
      ASSERT_LT(s.ids.size(), static_cast<size_t>(c.vocab_size));
      for (size_t i = 0; i < s.ids.size(); ++i) {
        ASSERT_EQ(short_ws.logits[i], full_ws.logits[s.ids[i]]) << (int8 ? "int8" : "fp32") << " id " << s.ids[i];
      }
    }
  }
}

TEST_F(ShortlistTest, WholeVocabularyShortlistTranslatesAsTheFullLayer) {
  const auto file_bytes = with_shortlist(bytes_, whole_vocabulary());
  const Translator with = Translator::from_bytes(file_bytes.data(), file_bytes.size());
  const Translator& without = testing::shared_translator();
  TranslateOptions options;
  options.beam_size = 3;
  for (const std::string text : {"A dog runs through the grass.", "Two young men are playing soccer on a field."}) {
    const Translation a = with.translate(text, options), b = without.translate(text, options);
    EXPECT_EQ(a.target_ids, b.target_ids) << text;
    EXPECT_EQ(a.log_prob, b.log_prob) << text;
  }
}

// The search over a shortlist's columns applies the repetition guard to token ids: each greedy step
// equals the argmax of the full layer's logits over the candidates, with the guard's bans removed.
// Texts that make the model repeat itself, so that the guard decides some steps (checked).
TEST_F(ShortlistTest, RepetitionGuardBansCandidatesByTokenId) {
  const auto file_bytes = with_shortlist(bytes_, small_table());
  const Translator t = Translator::from_bytes(file_bytes.data(), file_bytes.size());
  ModelFile file = ModelFile::parse(file_bytes.data(), file_bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const ModelConfig& c = model.config();
  TranslateOptions options;
  options.repeat_limit = 1;
  int decided_by_guard = 0;
  for (const std::string text : {"dog dog dog dog dog dog dog dog", "a a a a a a a a a a", "the the the the the the"}) {
    const Translation r = t.translate(text, options);
    const std::vector<int> ids = model.shortlist({&r.source_ids}).ids;
    const Matrix encoder_out = model.encode(r.source_ids);
    DecoderState state = model.start(encoder_out, static_cast<int>(r.target_ids.size()) + 1);
    DecoderState* rows[1] = {&state};
    DecoderWorkspace ws;
    ws.reserve(1, c);
    std::vector<int> prefix, banned;
    int fed = c.decoder_start_id;
    for (int expected : r.target_ids) {
      model.decode(rows, &fed, 1, ws, nullptr);  // the full layer, [1, V]
      banned.clear();
      repeated_span_tokens(prefix.data(), static_cast<int>(prefix.size()), options.repeat_limit, banned);
      int best = -1, best_unguarded = -1;
      for (int id : ids) {
        const bool is_banned = std::find(banned.begin(), banned.end(), id) != banned.end();
        if (best_unguarded < 0 || ws.logits[id] > ws.logits[best_unguarded]) best_unguarded = id;
        if (!is_banned && (best < 0 || ws.logits[id] > ws.logits[best])) best = id;
      }
      ASSERT_EQ(expected, best) << text << " at target position " << prefix.size();
      decided_by_guard += best != best_unguarded;
      prefix.push_back(expected);
      fed = expected;
    }
  }
  EXPECT_GT(decided_by_guard, 0);
}

TEST_F(ShortlistTest, TranslationsUseOnlyCandidatesUnlessTheOptionIsOff) {
  const auto file_bytes = with_shortlist(bytes_, small_table());
  const Translator t = Translator::from_bytes(file_bytes.data(), file_bytes.size());
  ModelFile file = ModelFile::parse(file_bytes.data(), file_bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const std::vector<std::string> texts = {"A dog runs through the grass.", "A woman is reading a book."};
  const auto results = t.translate_batch(texts, {});
  std::vector<const std::vector<int>*> sources;
  for (const Translation& r : results) sources.push_back(&r.source_ids);
  const std::vector<int> candidates = model.shortlist(sources).ids;
  for (const Translation& r : results) {
    for (int id : r.target_ids) EXPECT_TRUE(std::binary_search(candidates.begin(), candidates.end(), id)) << id;
    EXPECT_TRUE(std::isfinite(r.log_prob));
  }
  TranslateOptions off;
  off.shortlist = false;
  const Translator& plain = testing::shared_translator();
  bool restricted = false;  // the full layer picks a piece outside the table: the test can fail
  for (const std::string& text : texts) {
    const Translation full = plain.translate(text, off);
    EXPECT_EQ(t.translate(text, off).target_ids, full.target_ids);
    for (int id : full.target_ids) restricted |= !std::binary_search(candidates.begin(), candidates.end(), id);
  }
  EXPECT_TRUE(restricted);
}

}  // namespace
}  // namespace crossattn
