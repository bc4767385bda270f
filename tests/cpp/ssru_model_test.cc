// A whole model with an SSRU decoder (config decoder_autoregression "ssru"; layers/ssru.h), made by
// the test with random weights: it loads, keeps no KV cache, and every way of decoding agrees with
// forced decoding through the same recurrence.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "error.h"
#include "kernels/ops.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "tiny_model.h"
#include "translator.h"

namespace crossattn {
namespace {

const std::vector<std::string> kSentences = {"A dog runs through the grass.", "Two men are playing football."};

nlohmann::json ssru_config() {
  nlohmann::json c = testing::tiny_config();
  c["decoder_autoregression"] = "ssru";
  return c;
}

const std::vector<uint8_t>& ssru_file() {
  static const std::vector<uint8_t> bytes = testing::model_file(ssru_config(), testing::random_tensors(ssru_config(), 1));
  return bytes;
}

Transformer load_model(const std::vector<uint8_t>& bytes) {
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  return Transformer(file.config, std::move(file.weights));
}

TranslateOptions plain_options(int beam_size) {
  TranslateOptions o;
  o.beam_size = o.n_best = beam_size;
  o.max_length = 12;
  o.repeat_limit = 0;  // pure argmax / beam search, for comparison with the model's own scores
  return o;
}

// log p of ids [T] given the source, by forced decoding from decoder_start_id.
double forced_log_prob(const Transformer& model, const std::vector<int>& src_ids, const std::vector<int>& ids) {
  const ModelConfig& c = model.config();
  std::vector<int> inputs = {c.decoder_start_id};
  inputs.insert(inputs.end(), ids.begin(), ids.end() - 1);
  DecoderState state = model.start(model.encode(src_ids), static_cast<int>(inputs.size()));
  Matrix logits;  // [T, V]
  model.decode(state, inputs, logits, nullptr);
  double sum = 0;
  for (size_t t = 0; t < ids.size(); ++t) {
    sum += logits(static_cast<Eigen::Index>(t), ids[t]) - log_sum_exp(logits.row(static_cast<Eigen::Index>(t)).data(), c.vocab_size);
  }
  return sum;
}

TEST(SsruModel, LoadsWithCellStatesInsteadOfAKvCache) {
  const Transformer model = load_model(ssru_file());
  const ModelConfig& c = model.config();
  EXPECT_EQ(c.decoder_autoregression, DecoderAutoregression::kSsru);
  const DecoderState state = model.start(model.encode({40, 41, c.eos_id}), 10);
  EXPECT_TRUE(state.self_kv.empty());
  EXPECT_EQ(state.ssru_cell, std::vector<float>(static_cast<size_t>(c.decoder_layers) * c.d_model, 0.0f));
}

// T positions fed at once run the recurrence position by position: the same logits as T steps.
TEST(SsruModel, ForcedDecodingEqualsStepByStep) {
  const Transformer model = load_model(ssru_file());
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode({40, 41, 42, 43, c.eos_id});
  const std::vector<int> tgt = {c.decoder_start_id, 50, 51, 52, 53};
  DecoderState forced = model.start(encoder_out, 5), stepped = model.start(encoder_out, 5);
  Matrix all, one;
  model.decode(forced, tgt, all, nullptr);
  for (size_t t = 0; t < tgt.size(); ++t) {
    model.decode(stepped, {tgt[t]}, one, nullptr);
    for (int v = 0; v < c.vocab_size; v += 97) {
      EXPECT_NEAR(all(static_cast<Eigen::Index>(t), v), one(0, v), 1e-4) << "position " << t << ", token " << v;
    }
  }
  // Later positions depend on earlier ones through the cell state: a different history changes them.
  DecoderState other = model.start(encoder_out, 5);
  Matrix changed;
  model.decode(other, {c.decoder_start_id, 60, 51, 52, 53}, changed, nullptr);
  EXPECT_GT((changed.row(4) - all.row(4)).cwiseAbs().maxCoeff(), 1e-4);
}

// Greedy decoding through the Translator is the argmax at every step, and every beam hypothesis'
// log-probability is what forced decoding gives its tokens: the beam slots carry their cell states.
TEST(SsruModel, GreedyAndBeamSearchAgreeWithTheModelsScores) {
  const Translator translator = Translator::from_bytes(ssru_file().data(), ssru_file().size());
  const Transformer model = load_model(ssru_file());
  const ModelConfig& c = model.config();
  const std::vector<Translation> greedy = translator.translate_batch(kSentences, plain_options(1));
  const std::vector<Translation> beam = translator.translate_batch(kSentences, plain_options(4));
  for (size_t i = 0; i < kSentences.size(); ++i) {
    const Translation& g = greedy[i];
    ASSERT_FALSE(g.target_ids.empty());
    DecoderState state = model.start(model.encode(g.source_ids), 12);
    int id = c.decoder_start_id;
    std::vector<int> argmax_ids;
    Matrix logits;
    while (argmax_ids.size() < 12 && (argmax_ids.empty() || argmax_ids.back() != c.eos_id)) {
      model.decode(state, {id}, logits, nullptr);
      log_sum_exp(logits.data(), c.vocab_size, &id);
      argmax_ids.push_back(id);
    }
    EXPECT_EQ(g.target_ids, argmax_ids) << kSentences[i];
    ASSERT_EQ(beam[i].hypotheses.size(), 4u);
    for (const ScoredHypothesis& h : beam[i].hypotheses) {
      EXPECT_NEAR(h.log_prob, forced_log_prob(model, g.source_ids, h.target_ids), 1e-3) << h.text;
    }
  }
}

// Cross-attention probes, word alignments, streaming and sampling work with an SSRU decoder.
TEST(SsruModel, ProbesStreamingAndSamplingWork) {
  const Translator translator = Translator::from_bytes(ssru_file().data(), ssru_file().size());
  const ModelConfig& c = translator.config();
  TranslateOptions o = plain_options(2);
  o.alignment = AlignmentOptions{};
  o.attention = true;
  std::vector<std::string> streamed;
  o.on_token = [&](const TokenEvent& e) {
    streamed.insert(streamed.end(), e.tokens.begin(), e.tokens.end());
    return true;
  };
  const Translation r = translator.translate(kSentences[0], o);
  EXPECT_EQ(streamed, r.target_tokens);
  EXPECT_EQ(r.cross_attention.size(),
            static_cast<size_t>(c.decoder_layers) * c.n_heads * r.target_ids.size() * r.source_ids.size());
  ASSERT_TRUE(r.alignment.has_value());

  TranslateOptions sampled = plain_options(1);
  sampled.sample = true;
  sampled.seed = 7;
  const Translation s1 = translator.translate(kSentences[1], sampled), s2 = translator.translate(kSentences[1], sampled);
  EXPECT_FALSE(s1.target_ids.empty());
  EXPECT_EQ(s1.target_ids, s2.target_ids);
}

// int8 SSRU matrices (both, as the fused product needs) load and give the fp32 model's logits
// within quantization error.
TEST(SsruModel, Int8WeightsMatchFp32) {
  auto tensors = testing::random_tensors(ssru_config(), 1);
  for (int i = 0; i < 2; ++i) {
    const std::string p = "decoder.layers." + std::to_string(i) + ".ssru.";
    testing::quantize(tensors, p + "weight");
    testing::quantize(tensors, p + "forget_weight");
  }
  const Transformer fp32 = load_model(ssru_file()), int8 = load_model(testing::model_file(ssru_config(), tensors));
  const ModelConfig& c = fp32.config();
  const std::vector<int> src = {40, 41, 42, c.eos_id}, tgt = {c.decoder_start_id, 50, 51};
  DecoderState a = fp32.start(fp32.encode(src), 3), b = int8.start(int8.encode(src), 3);
  Matrix la, lb;
  fp32.decode(a, tgt, la, nullptr);
  int8.decode(b, tgt, lb, nullptr);
  const float diff = (la - lb).cwiseAbs().maxCoeff(), scale = la.cwiseAbs().maxCoeff();
  EXPECT_LT(diff, 0.05f * scale);
  EXPECT_GT(diff, 0.0f) << "the int8 file should really hold int8 weights";

  // One int8 and one float matrix cannot be fused into one product.
  auto mixed = testing::random_tensors(ssru_config(), 1);
  testing::quantize(mixed, "decoder.layers.0.ssru.weight");
  testing::expect_model_format_error(testing::model_file(ssru_config(), mixed), "mixes int8");
}

// The file must hold exactly the SSRU's tensors: one missing, or a self-attention tensor beside
// them, is a ModelFormatError naming the tensor; so are SSRU tensors in a self-attention model.
TEST(SsruModel, WrongTensorsAreNamed) {
  const auto tensors = testing::random_tensors(ssru_config(), 1);
  for (const std::string name : {"decoder.layers.1.ssru.forget_bias", "decoder.layers.0.ssru.weight"}) {
    auto missing = tensors;
    missing.erase(name);
    testing::expect_model_format_error(testing::model_file(ssru_config(), missing), name);
  }
  auto extra = tensors;
  extra["decoder.layers.0.self_attn.q_proj.weight"] = extra.at("decoder.layers.0.ssru.weight");
  testing::expect_model_format_error(testing::model_file(ssru_config(), extra), "decoder.layers.0.self_attn.q_proj.weight");

  nlohmann::json self_attention = ssru_config();
  self_attention.erase("decoder_autoregression");
  auto both = testing::random_tensors(self_attention, 1);
  both["decoder.layers.1.ssru.weight"] = tensors.at("decoder.layers.1.ssru.weight");
  testing::expect_model_format_error(testing::model_file(self_attention, both), "decoder.layers.1.ssru.weight");
  testing::expect_model_format_error(testing::model_file(ssru_config(), testing::random_tensors(self_attention, 1)),
                                     "ssru");
  nlohmann::json unknown = ssru_config();
  unknown["decoder_autoregression"] = "average-attention";
  testing::expect_model_format_error(testing::model_file(unknown, tensors), "decoder_autoregression");
}

}  // namespace
}  // namespace crossattn
