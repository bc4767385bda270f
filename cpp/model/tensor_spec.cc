#include "model/tensor_spec.h"

#include <iterator>
#include <set>
#include <stdexcept>
#include <string_view>

#include "error.h"
#include "model/tensor_spec.generated.h"  // cpp/model/tensor_spec.json as constant tables

namespace crossattn {
namespace {

namespace spec = tensor_spec;

static_assert(spec::kConditionCount == 7, "tensor_spec.json names a condition that holds() has no case for");

// Whether `config` calls for a tensor with condition `when` (tensor_spec.json "conditions").
bool holds(spec::When when, const ModelConfig& c) {
  const bool ssru = c.decoder_autoregression == DecoderAutoregression::kSsru;
  switch (when) {
    case spec::When::kAlways: return true;
    case spec::When::kSharedVocab: return c.shared_vocab;
    case spec::When::kNotSharedVocab: return !c.shared_vocab;
    case spec::When::kNotTiedEmbeddings: return !c.tied_embeddings;
    case spec::When::kFinalLogitsBias: return c.final_logits_bias;
    case spec::When::kPreNorm: return c.pre_norm;
    case spec::When::kSelfAttention: return !ssru;
    case spec::When::kSsru: return ssru;
  }
  throw std::logic_error("tensor_spec.generated.h: a condition without a case");
}

// The size `rule` gives under `c`, or -1 where any length is allowed (a negative config size reads
// as any length, as a rule "n" does).
int64_t dimension(spec::DimRule rule, const ModelConfig& c) {
  int64_t base = -1;
  switch (rule.base) {
    case spec::Dim::kD: base = c.d_model; break;
    case spec::Dim::kF: base = c.d_ff; break;
    case spec::Dim::kV: base = c.vocab_size; break;
    case spec::Dim::kVs: base = c.source_vocab_size; break;
    case spec::Dim::kAny: base = -1; break;
  }
  return base < 0 ? -1 : base + rule.extra;
}

// How many times a group of `scope` repeats: once per layer of its stack, else once.
int repeats(spec::Scope scope, const ModelConfig& c) {
  switch (scope) {
    case spec::Scope::kEncoderLayer: return c.encoder_layers;
    case spec::Scope::kDecoderLayer: return c.decoder_layers;
    case spec::Scope::kModel:
    case spec::Scope::kOptional: return 1;
  }
  throw std::logic_error("tensor_spec.generated.h: a scope without a case");
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

std::string layer_prefix(std::string_view prefix, int layer) {
  std::string out(prefix);
  if (const auto at = out.find("{i}"); at != std::string::npos) out.replace(at, 3, std::to_string(layer));
  return out;
}

std::vector<ExpectedTensor> expected_tensors(const ModelConfig& config) {
  std::vector<ExpectedTensor> out;
  for (size_t g = 0; g < std::size(spec::kGroups); ++g) {
    const spec::GroupRule& group = spec::kGroups[g];
    const int layers = repeats(group.scope, config);
    for (int i = 0; i < layers; ++i) {
      const std::string prefix = layer_prefix(group.prefix, i);
      for (const spec::TensorRule* t = group.tensors; t != group.tensors + group.size; ++t) {
        if (!holds(t->when, config)) continue;
        std::vector<int64_t> shape(t->rank);
        for (size_t d = 0; d < t->rank; ++d) shape[d] = dimension(t->shape[d], config);
        out.push_back({prefix + std::string(t->name), std::move(shape), t->kind, group.all_or_none ? static_cast<int>(g) : -1});
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
