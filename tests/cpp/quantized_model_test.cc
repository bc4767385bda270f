// The int8 model (models/quantize.py) against the model it was quantized from: the same decisions
// on forced targets, and damaged quantization tensors are clean errors.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "error.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

Transformer load(const std::string& path) {
  const auto bytes = testing::read_bytes(path);
  ModelFile file = ModelFile::parse(bytes.data(), bytes.size());
  return Transformer(file.config, std::move(file.weights));
}

// Log-softmax of one row of logits [V].
std::vector<double> log_softmax(const float* row, int v) {
  double m = row[0], z = 0;
  for (int i = 1; i < v; ++i) m = std::max<double>(m, row[i]);
  for (int i = 0; i < v; ++i) z += std::exp(row[i] - m);
  std::vector<double> out(v);
  for (int i = 0; i < v; ++i) out[i] = row[i] - m - std::log(z);
  return out;
}

TEST(QuantizedModel, AgreesWithTheFloatModelOnForcedTargets) {
  const Transformer fp32 = load(testing::model_path()), int8 = load(testing::int8_model_path());
  ASSERT_TRUE(int8.weights().output_projection.quantized());
  ASSERT_FALSE(fp32.weights().output_projection.quantized());
  const Translator translator = Translator::from_file(testing::model_path());
  const ModelConfig& c = fp32.config();
  int positions = 0, agree = 0;
  for (const std::string text : {"A dog runs through the grass.", "Two young men are playing soccer on a field.",
                                 "A woman in a red coat is reading a book at the station."}) {
    const Translation t = translator.translate(text, {});
    std::vector<int> tgt_in = {c.decoder_start_id};
    tgt_in.insert(tgt_in.end(), t.target_ids.begin(), t.target_ids.end() - 1);
    Matrix logits_fp32, logits_int8;
    DecoderState a = fp32.start(fp32.encode(t.source_ids), static_cast<int>(tgt_in.size()));
    DecoderState b = int8.start(int8.encode(t.source_ids), static_cast<int>(tgt_in.size()));
    fp32.decode(a, tgt_in, logits_fp32, nullptr);
    int8.decode(b, tgt_in, logits_int8, nullptr);
    for (Eigen::Index p = 0; p < logits_fp32.rows(); ++p) {
      const auto lp32 = log_softmax(logits_fp32.row(p).data(), c.vocab_size);
      const auto lp8 = log_softmax(logits_int8.row(p).data(), c.vocab_size);
      const int target = t.target_ids[p];
      EXPECT_NEAR(lp8[target], lp32[target], 0.25) << text << " position " << p;
      Eigen::Index best;
      logits_int8.row(p).maxCoeff(&best);
      agree += best == target;
      ++positions;
    }
  }
  EXPECT_GE(agree, positions * 9 / 10) << agree << " of " << positions << " greedy choices kept";
}

TEST(QuantizedModel, DamagedScalesAreCleanErrors) {
  const auto bytes = testing::read_bytes(testing::int8_model_path());
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  const auto header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n));
  const std::vector<uint8_t> data(bytes.begin() + 8 + static_cast<long>(n), bytes.end());
  auto error_of = [&](const nlohmann::json& h, const std::vector<uint8_t>& d) {
    const auto file = testing::make_safetensors(h.dump(), d);
    try {
      Translator::from_bytes(file.data(), file.size());
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::kInvalidInput;
  };
  auto missing = header;
  missing.erase("decoder.layers.0.fc1.weight_scale");
  EXPECT_EQ(error_of(missing, data), ErrorCode::kModelFormat);

  auto negative = data;
  const size_t offset = header["decoder.layers.0.fc1.weight_scale"]["data_offsets"][0].get<size_t>();
  negative[offset + 3] |= 0x80;  // the sign bit of the first scale (little-endian fp32)
  EXPECT_EQ(error_of(header, negative), ErrorCode::kModelFormat);
}

}  // namespace
}  // namespace crossattn
