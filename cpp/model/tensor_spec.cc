#include "model/tensor_spec.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "error.h"
#include "tensor_spec_json.h"  // kTensorSpecJson: cpp/model/tensor_spec.json, embedded by CMake

namespace crossattn {
namespace {

bool holds(const std::string& condition, const ModelConfig& c) {
  const bool ssru = c.decoder_autoregression == DecoderAutoregression::kSsru;
  if (condition.empty()) return true;
  if (condition == "shared_vocab") return c.shared_vocab;
  if (condition == "!shared_vocab") return !c.shared_vocab;
  if (condition == "!tied_embeddings") return !c.tied_embeddings;
  if (condition == "final_logits_bias") return c.final_logits_bias;
  if (condition == "pre_norm") return c.pre_norm;
  if (condition == "self_attention") return !ssru;
  if (condition == "ssru") return ssru;
  throw std::logic_error("tensor_spec.json: unknown condition " + condition);
}

int64_t dimension(const std::string& rule, const ModelConfig& c) {
  const auto plus = rule.find('+');
  const std::string base = rule.substr(0, plus);
  const int64_t extra = plus == std::string::npos ? 0 : std::stoll(rule.substr(plus + 1));
  const std::map<std::string, int64_t> sizes = {
      {"D", c.d_model}, {"F", c.d_ff}, {"V", c.vocab_size}, {"Vs", c.source_vocab_size}, {"n", -1}};
  const auto it = sizes.find(base);
  if (it == sizes.end()) throw std::logic_error("tensor_spec.json: unknown dimension " + rule);
  return it->second < 0 ? -1 : it->second + extra;
}

TensorKind kind_of(const std::string& kind) {
  if (kind == "matrix") return TensorKind::kMatrix;
  if (kind == "vector") return TensorKind::kVector;
  if (kind == "ids") return TensorKind::kIds;
  if (kind == "f32") return TensorKind::kF32;
  throw std::logic_error("tensor_spec.json: unknown kind " + kind);
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + (shape[i] < 0 ? "n" : std::to_string(shape[i]));
  return s + "]";
}

bool shape_matches(const std::vector<int64_t>& actual, const std::vector<int64_t>& expected) {
  if (actual.size() == 2 && expected.size() == 1 && actual[0] == 1) return shape_matches({actual[1]}, expected);
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (expected[i] >= 0 && actual[i] != expected[i]) return false;
  }
  return true;
}

bool is_float(DType d) { return d == DType::kF32 || d == DType::kF16 || d == DType::kBF16; }

// The problem with tensor `t` stored for `e`, or "" when it fits.
std::string problem(const SafeTensors& file, const TensorView& t, const ExpectedTensor& e) {
  switch (e.kind) {
    case TensorKind::kIds:
      if (t.dtype != DType::kI32) return "must be I32";
      break;
    case TensorKind::kF32:
      if (t.dtype != DType::kF32) return "must be F32";
      break;
    case TensorKind::kMatrix:
      if (t.dtype == DType::kI8) {
        const int64_t out = e.shape[0], in = e.shape[1];
        const TensorView* scale = file.find(e.name + "_scale");
        if (scale == nullptr || scale->dtype != DType::kF32 || !shape_matches(scale->shape, {out})) {
          return "is I8 without an F32 '" + e.name + "_scale' of shape [" + std::to_string(out) + "]";
        }
        if (shape_matches(t.shape, {(out + 3) / 4, (in + 3) / 4, 16})) return "";  // int8 kernel panels
        break;
      }
      [[fallthrough]];
    case TensorKind::kVector:
      if (!is_float(t.dtype)) return "must be F32, F16 or BF16 (or I8 with scales, for a matrix)";
      break;
  }
  if (!shape_matches(t.shape, e.shape)) return "has shape " + shape_string(t.shape) + ", the config needs " + shape_string(e.shape);
  return "";
}

}  // namespace

std::vector<ExpectedTensor> expected_tensors(const ModelConfig& config) {
  static const nlohmann::json spec = nlohmann::json::parse(kTensorSpecJson);
  std::vector<ExpectedTensor> out;
  const auto& groups = spec.at("groups");
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    const std::string scope = group.at("scope");
    const int layers = scope == "encoder_layer" ? config.encoder_layers : scope == "decoder_layer" ? config.decoder_layers : 1;
    const bool all_or_none = group.value("all_or_none", false);
    for (int i = 0; i < layers; ++i) {
      std::string prefix = group.value("prefix", "");
      if (const auto at = prefix.find("{i}"); at != std::string::npos) prefix.replace(at, 3, std::to_string(i));
      for (const auto& t : group.at("tensors")) {
        if (!holds(t.value("when", ""), config)) continue;
        std::vector<int64_t> shape;
        for (const auto& d : t.at("shape")) shape.push_back(dimension(d.get<std::string>(), config));
        out.push_back({prefix + t.at("name").get<std::string>(), shape, kind_of(t.at("kind")), all_or_none ? static_cast<int>(g) : -1});
      }
    }
  }
  return out;
}

void check_tensors(const SafeTensors& file, const ModelConfig& config, const std::vector<std::string>& tokenizer_tensors) {
  const std::vector<ExpectedTensor> expected = expected_tensors(config);
  std::set<int> groups_present;
  for (const auto& e : expected) {
    if (e.optional_group >= 0 && file.find(e.name) != nullptr) groups_present.insert(e.optional_group);
  }
  std::set<std::string> known(tokenizer_tensors.begin(), tokenizer_tensors.end());
  for (const auto& e : expected) {
    known.insert(e.name);
    const TensorView* t = file.find(e.name);
    // A scale belongs to an int8 matrix only: beside a float matrix or a vector it is read by nothing.
    if (t != nullptr && e.kind == TensorKind::kMatrix && t->dtype == DType::kI8) known.insert(e.name + "_scale");
    if (t == nullptr) {
      if (e.optional_group < 0) fail_model_format("tensor '" + e.name + "' is missing: the config calls for it");
      if (groups_present.count(e.optional_group)) fail_model_format("tensor '" + e.name + "' is missing: its group is all or none");
      continue;
    }
    if (const std::string p = problem(file, *t, e); !p.empty()) fail_model_format("tensor '" + e.name + "' " + p);
  }
  for (const std::string& name : file.names()) {
    if (!known.count(name)) fail_model_format("tensor '" + name + "' is not a tensor of this config (cpp/model/tensor_spec.json)");
  }
}

}  // namespace crossattn
