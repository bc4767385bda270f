// Tiny model files made by the tests themselves: random weights for every tensor a config calls for
// (model/tensor_spec.h), with the shipped model's SentencePiece model as the tokenizer. For the
// layers and vocabularies no shipped model has (the SSRU decoder, a separate source vocabulary).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model_file.h"
#include "model/tensor_spec.h"
#include "test_util.h"

namespace crossattn::testing {

/// One tensor of a file being made: its safetensors dtype, shape and little-endian bytes.
struct RawTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

template <typename T>
RawTensor raw_tensor(const std::string& dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const uint8_t*>(values.data());
  return {dtype, std::move(shape), std::vector<uint8_t>(p, p + values.size() * sizeof(T))};
}

/// The elements of an F32 tensor.
inline std::vector<float> floats(const RawTensor& t) {
  std::vector<float> v(t.bytes.size() / 4);
  std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
  return v;
}

/// The config of a tiny post-norm model (Bergamot's students are post-norm) over the shipped
/// SentencePiece model's 8000 pieces; tests edit it.
inline nlohmann::json tiny_config() {
  return {{"name", "tiny"}, {"source_lang", "en"}, {"target_lang", "de"}, {"encoder_layers", 2},
          {"decoder_layers", 2}, {"d_model", 16}, {"n_heads", 2}, {"d_ff", 32}, {"activation", "relu"},
          {"layer_norm", "post"}, {"layer_norm_eps", 1e-6}, {"embed_scale", true}, {"sinusoidal_layout", "marian"},
          {"max_positions", 64}, {"tied_embeddings", true}, {"shared_vocab", true}, {"vocab_size", 8000},
          {"pad_id", 0}, {"unk_id", 1}, {"bos_id", 2}, {"eos_id", 3}, {"decoder_start_id", 2},
          {"decoder_start", "zero"}};
}

/// Random F32 values for every tensor `config` calls for but the optional groups: matrices [out, in]
/// ~ N(0, 1/in), layer-norm scales ~ 1 + N(0, 0.1^2), other vectors ~ N(0, 0.1^2).
inline std::map<std::string, RawTensor> random_tensors(const nlohmann::json& config, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::map<std::string, RawTensor> tensors;
  for (const ExpectedTensor& e : expected_tensors(ModelConfig::from_json(config.dump()))) {
    if (e.optional_group >= 0) continue;
    int64_t n = 1;
    for (int64_t s : e.shape) n *= s;
    std::vector<float> v(static_cast<size_t>(n));
    const bool norm_scale = e.name.find("layer_norm.weight") != std::string::npos;
    const float sd = e.shape.size() == 2 ? 1.0f / std::sqrt(static_cast<float>(e.shape[1])) : 0.1f;
    for (float& x : v) x = (norm_scale ? 1.0f : 0.0f) + sd * normal(rng);
    tensors[e.name] = raw_tensor("F32", e.shape, v);
  }
  return tensors;
}

/// Replaces the F32 matrix `name` [out, in] by its int8 rows and per-row scales (max |w| / 127).
inline void quantize(std::map<std::string, RawTensor>& tensors, const std::string& name) {
  const RawTensor& t = tensors.at(name);
  const int64_t out = t.shape[0], in = t.shape[1];
  const std::vector<float> w = floats(t);
  std::vector<int8_t> q(w.size());
  std::vector<float> scale(static_cast<size_t>(out));
  for (int64_t r = 0; r < out; ++r) {
    float top = 0;
    for (int64_t c = 0; c < in; ++c) top = std::max(top, std::abs(w[r * in + c]));
    scale[r] = top / 127.0f;
    for (int64_t c = 0; c < in; ++c) q[r * in + c] = static_cast<int8_t>(std::lround(w[r * in + c] / scale[r]));
  }
  tensors[name] = raw_tensor("I8", t.shape, q);
  tensors[name + "_scale"] = raw_tensor("F32", {out}, scale);
}

/// The serialized SentencePiece model of the shipped model file (8000 pieces).
inline const std::string& shipped_spm() {
  static const std::string spm = [] {
    const auto bytes = read_bytes(model_path());
    return ModelFile::parse(bytes.data(), bytes.size()).source_spm;
  }();
  return spm;
}

/// A model file of `config` and `tensors`, with `metadata` (strings, e.g. "source_vocab") added and
/// `spm` as both sides' SentencePiece model (or `source_spm` for the source side when not empty).
inline std::vector<uint8_t> model_file(const nlohmann::json& config, const std::map<std::string, RawTensor>& tensors,
                                       const std::map<std::string, std::string>& metadata = {},
                                       const std::string& source_spm = "") {
  Parts p;
  p.header["__metadata__"] = {{"format", "crossattn"}, {"format_version", "1"}, {"config", config.dump()}};
  for (const auto& [key, value] : metadata) p.header["__metadata__"][key] = value;
  std::map<std::string, RawTensor> all = tensors;
  const std::string& spm = shipped_spm();
  all["tokenizer.spm"] = raw_tensor("U8", {static_cast<int64_t>(spm.size())}, std::vector<char>(spm.begin(), spm.end()));
  std::string source_name = "tokenizer.spm";
  if (!source_spm.empty()) {
    source_name = "tokenizer.source.spm";
    all[source_name] = raw_tensor("U8", {static_cast<int64_t>(source_spm.size())},
                                  std::vector<char>(source_spm.begin(), source_spm.end()));
  }
  p.header["__metadata__"]["tokenizer"] =
      nlohmann::json{{"type", "sentencepiece"}, {"source_spm", source_name}, {"target_spm", "tokenizer.spm"}}.dump();
  for (const auto& [name, t] : all) {
    const size_t begin = p.data.size();
    p.data.insert(p.data.end(), t.bytes.begin(), t.bytes.end());
    p.header[name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {begin, p.data.size()}}};
  }
  return join(std::move(p));
}

}  // namespace crossattn::testing
