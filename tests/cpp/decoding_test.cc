// Batched decoding and the allocation-free decoding step, on the shipped model.
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "error.h"
#include "model/model_file.h"
#include "model/transformer.h"
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
  const auto batch = translator.translate_batch(kSentences, {});
  ASSERT_EQ(batch.size(), kSentences.size());
  for (size_t i = 0; i < kSentences.size(); ++i) {
    const auto one = translator.translate(kSentences[i], {});
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

}  // namespace
}  // namespace crossattn
