// The int8 model (models/quantize.py) against the model it was quantized from: the same decisions
// on forced targets, and damaged quantization tensors are clean errors. The int8 kernel layout
// (docs/model-format.md): a file whose int8 matrices are stored as the kernel's panels translates
// exactly as the same values stored as rows, and its panels are multiplied where they lie in the file.
#include <algorithm>
#include <cmath>

#include <cstring>

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

// The int8 matrices [out, in] of `bytes` rewritten in the kernel layout, [out/4, in/4, 16] with
// panels[p][kk][8h + 2f + e] = Wq[4p + f][4kk + 2h + e], as docs/model-format.md specifies it. The
// tensors are written int8 first and q, k, v, out within each attention block when `back_to_back`,
// else in reverse name order (v, q, out, k, scales and biases between), which keeps the fused
// projections apart in the file.
std::vector<uint8_t> kernel_layout(const std::vector<uint8_t>& bytes, bool back_to_back) {
  testing::Parts in = testing::split(bytes), out;
  out.header["__metadata__"] = in.header["__metadata__"];
  std::vector<std::string> names;
  for (const auto& [name, entry] : in.header.items()) {
    if (name != "__metadata__") names.push_back(name);
  }
  std::sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    auto key = [&](const std::string& n) {
      std::string k = n;
      for (const auto& [from, to] : {std::pair{".q_proj.", ".0."}, {".k_proj.", ".1."}, {".v_proj.", ".2."}, {".out_proj.", ".3."}}) {
        const size_t at = k.find(from);
        if (at != std::string::npos) k.replace(at, std::string(from).size(), to);
      }
      return k;
    };
    const auto dtype = [&](const std::string& n) { return in.header[n]["dtype"].get<std::string>(); };
    return back_to_back ? std::pair(dtype(a) != "I8", key(a)) < std::pair(dtype(b) != "I8", key(b)) : a > b;
  });
  for (const std::string& name : names) {
    const auto& entry = in.header[name];
    const size_t begin = entry["data_offsets"][0].get<size_t>(), end = entry["data_offsets"][1].get<size_t>();
    std::vector<uint8_t> data(in.data.begin() + static_cast<long>(begin), in.data.begin() + static_cast<long>(end));
    nlohmann::json shape = entry["shape"];
    if (entry["dtype"] == "I8" && shape.size() == 2 && shape[0].get<int>() % 4 == 0 && shape[1].get<int>() % 4 == 0) {
      const int rows = shape[0].get<int>(), cols = shape[1].get<int>();
      std::vector<uint8_t> panels(data.size());
      for (int j = 0; j < rows; ++j) {
        for (int k = 0; k < cols; ++k) {
          const int p = j / 4, f = j % 4, kk = k / 4, h = (k % 4) / 2, e = k % 2;
          panels[(static_cast<size_t>(p) * (cols / 4) + kk) * 16 + 8 * h + 2 * f + e] = data[static_cast<size_t>(j) * cols + k];
        }
      }
      data = panels;
      shape = {rows / 4, cols / 4, 16};
    }
    const size_t at = out.data.size();
    out.data.insert(out.data.end(), data.begin(), data.end());
    out.header[name] = {{"dtype", entry["dtype"]}, {"shape", shape}, {"data_offsets", {at, out.data.size()}}};
  }
  return testing::join(out);
}

std::vector<Translation> translate_all(const Translator& t) {
  std::vector<Translation> out;
  for (const std::string text : {"A dog runs through the grass.", "Two young men are playing soccer on a field.",
                                 "A woman in a red coat is reading a book at the station."}) {
    TranslateOptions options;
    options.beam_size = 3;
    out.push_back(t.translate(text, options));
  }
  return out;
}

// The file's kernel layout is converted at load (gemm_int8.cc): the same products as the rows give,
// bit for bit, whether fused projections lie back to back (converted together) or not (unpacked),
// and the parsed model keeps no reference to the file's bytes.
TEST(QuantizedModel, KernelLayoutTranslatesExactlyAsRowsAndReleasesTheFile) {
  const auto rows = testing::read_bytes(testing::int8_model_path());
  const auto expected = translate_all(Translator::from_bytes(rows.data(), rows.size()));
  for (const bool back_to_back : {true, false}) {
    const auto shared = std::make_shared<const std::vector<uint8_t>>(kernel_layout(rows, back_to_back));
    const FileBytes file_bytes(shared, shared->data());
    const auto got = translate_all(Translator::from_bytes(file_bytes, shared->size()));
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(got[i].target_ids, expected[i].target_ids) << i;
      EXPECT_EQ(got[i].score, expected[i].score) << i;  // the same int8 products, bit for bit
    }
    const long readers = shared.use_count();
    const ModelFile file = ModelFile::parse(file_bytes, shared->size());
    EXPECT_EQ(shared.use_count(), readers);
  }
}

// Bytes the caller gives up (ModelFile::parse_owned, as a file read or the wasm loader's buffer):
// the panels are converted where they lie, so the bytes change and the model keeps them, and the
// translations are still those of the rows, bit for bit.
TEST(QuantizedModel, OwnedKernelLayoutIsConvertedInPlace) {
  const auto rows = testing::read_bytes(testing::int8_model_path());
  const auto expected = translate_all(Translator::from_bytes(rows.data(), rows.size()));
  const auto layout = kernel_layout(rows, true);
  const OwnedFileBytes owned = copy_file_bytes(layout.data(), layout.size());
  const auto got = translate_all(Translator::from_owned_bytes(owned, layout.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(got[i].target_ids, expected[i].target_ids) << i;
    EXPECT_EQ(got[i].score, expected[i].score) << i;
  }
  const OwnedFileBytes again = copy_file_bytes(layout.data(), layout.size());
  const ModelFile file = ModelFile::parse_owned(again, layout.size());
  EXPECT_GT(again.use_count(), 1);  // the converted panels alias the bytes
  EXPECT_NE(std::memcmp(again.get(), layout.data(), layout.size()), 0);
}

TEST(QuantizedModel, KernelLayoutWithTheWrongPanelShapeIsACleanError) {
  testing::Parts p = testing::split(kernel_layout(testing::read_bytes(testing::int8_model_path()), true));
  auto& shape = p.header["encoder.layers.0.fc1.weight"]["shape"];
  shape = {shape[1], shape[0], 16};  // [in/4, out/4, 16]: the same bytes, transposed panel counts
  testing::expect_model_format_error(testing::join(p), "encoder.layers.0.fc1.weight");
}

}  // namespace
}  // namespace crossattn
