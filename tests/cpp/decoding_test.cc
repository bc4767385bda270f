// Batched decoding (with and without the lexical shortlist), the allocation-free decoding step and
// forced target prefixes (prefix decoding), on the shipped models.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include <gtest/gtest.h>

#include "decoding/beam_search.h"
#include "error.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "options.h"
#include "options_json.h"
#include "test_util.h"
#include "translator.h"

// Counts every allocation of this test binary, so that a test can assert that a stretch of code
// allocates nothing.
static std::atomic<long> g_allocations{0};

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace crossattn {
namespace {

const std::vector<std::string> kSentences = {
    "A dog runs through the grass.", "Two young men are playing soccer on a field.", "",
    "A woman in a red coat is reading a book at the station while her friend waits.", "A man."};

TEST(Decoding, BatchedTranslationEqualsOneByOne) {
  const Translator translator = Translator::from_file(testing::model_path());
  TranslateOptions o;
  o.attention = true;
  const auto batch = translator.translate_batch(kSentences, o);
  ASSERT_EQ(batch.size(), kSentences.size());
  for (size_t i = 0; i < kSentences.size(); ++i) {
    const auto one = translator.translate(kSentences[i], o);
    EXPECT_EQ(batch[i].text, one.text) << kSentences[i];
    EXPECT_EQ(batch[i].target_ids, one.target_ids);
    EXPECT_EQ(batch[i].log_prob, one.log_prob);
    EXPECT_EQ(batch[i].cross_attention, one.cross_attention);  // bit for bit: rows are summed alike
  }
  EXPECT_TRUE(batch[2].target_ids.empty());
}

TEST(Decoding, BatchErrorNamesTheTextAndTranslatesNothing) {
  const Translator translator = Translator::from_file(testing::model_path());
  std::string too_long;
  for (int i = 0; i < 600; ++i) too_long += "dog ";
  try {
    translator.translate_batch({"A dog.", too_long}, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInputTooLong);
    EXPECT_EQ(std::string(e.what()).rfind("text 1: ", 0), 0u) << e.what();
  }
  EXPECT_EQ(translator.translate_batch({"A dog."}, {}).front().text, translator.translate("A dog.", {}).text);
}

TEST(Decoding, DecodingStepsAllocateNothing) {
  const auto bytes = testing::read_bytes(testing::model_path());
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode({10, 11, 12, 13, 14, c.eos_id});
  DecoderState states[2] = {model.start(encoder_out, 20), model.start(encoder_out, 20)};
  DecoderState* rows[2] = {&states[0], &states[1]};
  DecoderWorkspace ws;
  ws.reserve(2, c);
  std::vector<float> weights(2 * c.decoder_layers * c.n_heads * encoder_out.rows());
  float* weight_rows[2] = {weights.data(), weights.data() + weights.size() / 2};
  const CrossAttentionProbe probe{weight_rows, nullptr};
  int ids[2] = {c.decoder_start_id, c.decoder_start_id};
  model.decode(rows, ids, 2, ws, &probe);  // the first step may size lazily grown buffers
  const long before = g_allocations.load();
  for (int t = 1; t < 15; ++t) {
    ids[0] = 20 + t;
    ids[1] = 40 + t;
    model.decode(rows, ids, 2, ws, &probe);
  }
  EXPECT_EQ(g_allocations.load() - before, 0) << "allocations in 14 decoding steps";
  EXPECT_EQ(states[0].length, 15);
}


// Translation options with forced target prefixes, greedy or with a beam.
TranslateOptions with_prefix(std::vector<std::string> prefixes, int beam_size = 1) {
  TranslateOptions o;
  o.target_prefix = std::move(prefixes);
  o.beam_size = o.n_best = beam_size;
  o.shortlist = false;
  return o;
}

// The target ids of a text as align() feeds them, eos left off.
std::vector<int> target_ids_of(const Translator& translator, const std::string& source, const std::string& target) {
  std::vector<int> ids = translator.align(source, target, {}).target_ids;
  ids.pop_back();
  return ids;
}

TEST(TargetPrefix, TheOutputStartsWithThePrefixScoredAsForcedDecodingScoresIt) {
  const Translator translator = Translator::from_file(testing::model_path());
  const std::string source = kSentences[1], prefix = "Zwei Katzen";
  const std::vector<int> forced_ids = target_ids_of(translator, source, prefix);
  const Translation forced = translator.align(source, prefix, {});
  const Translation free = translator.translate(source, with_prefix({}));
  ASSERT_NE(std::vector<int>(free.target_ids.begin(), free.target_ids.begin() + forced_ids.size()), forced_ids)
      << "the model would write the prefix anyway: " << free.text;
  for (int beam_size : {1, 4}) {
    const Translation r = translator.translate(source, with_prefix({prefix}, beam_size));
    ASSERT_GT(r.target_ids.size(), forced_ids.size() + 1) << r.text;
    EXPECT_EQ(std::vector<int>(r.target_ids.begin(), r.target_ids.begin() + forced_ids.size()), forced_ids);
    EXPECT_EQ(r.text.rfind(prefix, 0), 0u) << r.text;
    EXPECT_EQ(r.target_ids.back(), translator.config().eos_id);
    for (size_t t = 0; t < forced_ids.size(); ++t) EXPECT_NEAR(r.token_log_probs[t], forced.token_log_probs[t], 1e-4) << t;
    for (const ScoredHypothesis& h : r.hypotheses) {
      EXPECT_EQ(std::vector<int>(h.target_ids.begin(), h.target_ids.begin() + forced_ids.size()), forced_ids);
    }
    // The continuation is the model's own: forced decoding of the whole output scores it alike.
    const Translation whole = translator.align(source, r.text, {});
    if (whole.target_ids == r.target_ids) EXPECT_NEAR(whole.log_prob, r.log_prob, 2e-3) << r.text;
  }
}

TEST(TargetPrefix, EmptyPrefixesEqualPlainDecodingAndABatchEqualsOneByOne) {
  const Translator translator = Translator::from_file(testing::model_path());
  for (int beam_size : {1, 3}) {
    const auto plain = translator.translate_batch(kSentences, with_prefix({}, beam_size));
    const auto empty = translator.translate_batch(kSentences, with_prefix(std::vector<std::string>(kSentences.size()), beam_size));
    for (size_t i = 0; i < kSentences.size(); ++i) {
      EXPECT_EQ(empty[i].target_ids, plain[i].target_ids) << kSentences[i];
      EXPECT_EQ(empty[i].token_log_probs, plain[i].token_log_probs);
    }
    const std::vector<std::string> prefixes = {"Ein Hund", "", "", "Eine Frau", "Ein Mann"};
    const auto batch = translator.translate_batch(kSentences, with_prefix(prefixes, beam_size));
    for (size_t i = 0; i < kSentences.size(); ++i) {
      const Translation one = translator.translate(kSentences[i], with_prefix({prefixes[i]}, beam_size));
      EXPECT_EQ(batch[i].target_ids, one.target_ids) << kSentences[i];
      EXPECT_EQ(batch[i].text.rfind(prefixes[i], 0), 0u) << batch[i].text;
    }
  }
}

TEST(TargetPrefix, APrefixOutsideTheShortlistIsScoredAndALongOneExtendsMaxLength) {
  const std::string path = std::string(CROSSATTN_MODELS_DIR) + "/general-en-de/general-en-de.int8.crossattn";
  const Translator translator = Translator::from_file(path);
  const auto bytes = testing::read_bytes(path);
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const std::string source = "A dog runs.", prefix = "Quokkas Zyxw";
  const Translation r0 = translator.translate(source, {});
  const std::vector<int> ids = target_ids_of(translator, source, prefix);
  const std::vector<int> candidates = model.shortlist({&r0.source_ids}).ids;
  const bool outside = std::any_of(ids.begin(), ids.end(), [&](int id) {
    return !std::binary_search(candidates.begin(), candidates.end(), id);
  });
  ASSERT_TRUE(outside) << "every prefix piece is a shortlist candidate; the test needs one that is not";
  TranslateOptions o;
  o.target_prefix = {prefix};
  const Translation r = translator.translate(source, o);  // with the shortlist (the default)
  EXPECT_EQ(std::vector<int>(r.target_ids.begin(), r.target_ids.begin() + ids.size()), ids);
  for (float lp : r.token_log_probs) EXPECT_TRUE(std::isfinite(lp));
  o.max_length = 3;  // fewer than the prefix's pieces: the prefix and eos still fit
  const Translation cut = translator.translate(source, o);
  EXPECT_EQ(cut.target_ids.size(), ids.size() + 1);
  EXPECT_EQ(cut.text.rfind(prefix, 0), 0u) << cut.text;
}

TEST(TargetPrefix, PrefixesThatDoNotMatchTheTextsAreInvalidInput) {
  const Translator translator = Translator::from_file(testing::model_path());
  try {
    translator.translate_batch({"A dog.", "A cat."}, with_prefix({"Ein"}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidInput);
    ASSERT_TRUE(e.fault().has_value()) << e.what();
    EXPECT_EQ(e.fault()->option, "target_prefix");
    EXPECT_EQ(e.fault()->value, "1 prefixes");
    EXPECT_EQ(e.fault()->limit, "2 prefixes, one per text");
  }
  EXPECT_EQ(options_from_json(nlohmann::json::parse(R"({"targetPrefix": ["Ein", ""]})")).target_prefix,
            (std::vector<std::string>{"Ein", ""}));
  EXPECT_THROW(options_from_json(nlohmann::json::parse(R"({"targetPrefix": "Ein"})")), Error);
  EXPECT_THROW(options_from_json(nlohmann::json::parse(R"({"targetPrefix": [1]})")), Error);
}

// With the lexical shortlist (on by default, shipped with the general models), a batch's decoder
// step scores the union of its texts' candidates, and each text is searched over its own: so a batch
// gives each text exactly the ids and log-probabilities of translating it alone, greedy and beam,
// also with a forced prefix whose pieces are outside another text's shortlist, and a text given
// twice under two prefixes (as copy-through's second chance asks; the batch encodes it once).
TEST(ShortlistBatch, EachTextDecodesAsAloneOverItsOwnCandidates) {
  const std::string path = std::string(CROSSATTN_MODELS_DIR) + "/general-en-de/general-en-de.int8.crossattn";
  const Translator translator = Translator::from_file(path);
  const auto bytes = testing::read_bytes(path);
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  ASSERT_TRUE(model.has_shortlist());
  const std::vector<std::string> texts = {
      "The committee approved the budget after a long debate on Tuesday.", "",
      "Scientists discovered a new species of frog in the rainforest.",
      "Please turn off your phone before the concert begins.",
      "The bridge was closed because of strong winds and heavy rain.",
      "She bought three apples, a loaf of bread and some cheese.",
      "Please turn off your phone before the concert begins."};
  // The test decides something only if each text's own candidates are fewer than the batch's.
  std::vector<const std::vector<int>*> sources;
  const auto plain = translator.translate_batch(texts, {});
  for (const Translation& r : plain) {
    if (!r.source_ids.empty()) sources.push_back(&r.source_ids);
  }
  const size_t all = model.shortlist(sources).ids.size();
  for (const std::vector<int>* source : sources) ASSERT_LT(model.shortlist({source}).ids.size(), all);
  for (int beam_size : {1, 4}) {
    for (bool prefixed : {false, true}) {
      TranslateOptions o;
      o.beam_size = o.n_best = beam_size;
      if (prefixed) o.target_prefix = {"Quokkas Zyxw", "", "", "Bitte", "", "", "Bitte schalten"};
      const auto batch = translator.translate_batch(texts, o);
      ASSERT_EQ(batch.size(), texts.size());
      for (size_t i = 0; i < texts.size(); ++i) {
        TranslateOptions one_options = o;
        if (prefixed) one_options.target_prefix = {o.target_prefix[i]};
        const Translation one = translator.translate(texts[i], one_options);
        EXPECT_EQ(batch[i].target_ids, one.target_ids) << texts[i] << " beam " << beam_size;
        EXPECT_EQ(batch[i].token_log_probs, one.token_log_probs) << texts[i] << " beam " << beam_size;
        EXPECT_EQ(batch[i].log_prob, one.log_prob);
        EXPECT_EQ(batch[i].score, one.score);
        ASSERT_EQ(batch[i].hypotheses.size(), one.hypotheses.size());
        for (size_t h = 0; h < one.hypotheses.size(); ++h) {
          EXPECT_EQ(batch[i].hypotheses[h].target_ids, one.hypotheses[h].target_ids) << texts[i] << " n-best " << h;
          EXPECT_EQ(batch[i].hypotheses[h].log_prob, one.hypotheses[h].log_prob);
        }
      }
    }
  }
}

// A search's per-sentence candidate lists must be ascending ids of its shortlist, one per sentence.
TEST(ShortlistBatch, CandidateListsOutsideTheShortlistAreInvalidInput) {
  const std::string path = std::string(CROSSATTN_MODELS_DIR) + "/general-en-de/general-en-de.int8.crossattn";
  const auto bytes = testing::read_bytes(path);
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  const Transformer model(file.config, std::move(file.weights));
  const std::vector<int> source = {10, 11, 12, model.config().source_eos_id};
  const Matrix encoder_out = model.encode(source);
  auto shortlist = std::make_shared<const OutputShortlist>(model.shortlist({&source}));
  const std::vector<int>& ids = shortlist->ids;
  ASSERT_GE(ids.size(), 3u);
  auto search = [&](std::vector<std::vector<int>> candidates) {
    return beam_search(model, {&encoder_out}, {8}, SearchOptions{}, {}, shortlist, {}, std::move(candidates));
  };
  const std::vector<std::vector<int>> bad = {{ids[1], ids[0]}, {ids[0], ids[0]}, {}, {model.config().vocab_size}};
  for (const std::vector<int>& list : bad) {
    try {
      search({list});
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidInput) << e.what();
    }
  }
  EXPECT_THROW(search({ids, ids}), Error);  // two lists for one sentence
  EXPECT_EQ(search({ids}).front().front().ids, search({}).front().front().ids);
}

}  // namespace
}  // namespace crossattn
