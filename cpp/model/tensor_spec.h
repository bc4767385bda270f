// The tensors of a model file, from the declarative spec cpp/model/tensor_spec.json (the one list
// the converters, the docs' table and this loader follow, as CTranslate2's python/ctranslate2/specs
// is for its models): each tensor's name, shape rule and kind, and the config that calls for it.
// The loader reads the spec as constant tables made from it by tools/model-spec/index.js
// (tensor_spec.generated.h), so that a load parses no JSON for it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/config.h"
#include "model/safetensors.h"

namespace crossattn {

/// How a tensor may be stored: `kMatrix` float (F32, F16, BF16) or I8 with an F32 "<name>_scale"
/// [out] (rows [out, in] or kernel panels [ceil(out/4), ceil(in/4), 16]); `kVector` float, [n] or
/// [1, n]; `kIds` I32; `kF32` F32.
enum class TensorKind { kMatrix, kVector, kIds, kF32 };

/// One tensor a config calls for.
struct ExpectedTensor {
  std::string name;
  std::vector<int64_t> shape;  // sizes; -1 where any length is allowed
  TensorKind kind;
  int optional_group = -1;     // the spec's group index for an all-or-none group, else -1
};

/// `prefix` (a layer group's, as EncoderLayerTensors::kPrefix "encoder.layers.{i}.") with its layer
/// placeholder "{i}", if any, replaced by `layer`: "encoder.layers.3.".
std::string layer_prefix(std::string_view prefix, int layer);

/// Every tensor `config` calls for, in the spec's order (layers expanded).
std::vector<ExpectedTensor> expected_tensors(const ModelConfig& config);

/// Checks the tensors of `file` against the spec for `config`: every tensor it calls for is present
/// with its shape and kind, each optional group (shortlist, lexicon) is whole or absent, and the
/// file holds no other tensor but `tokenizer_tensors` and the scales of its I8 matrices (a tensor the
/// engine would not read, such as the layers past the config's layer count, is an error). A file whose layer count or
/// width disagrees with its tensors thus fails here. Raises Error(kModelFormat) naming the first
/// tensor at fault.
void check_tensors(const SafeTensors& file, const ModelConfig& config, const std::vector<std::string>& tokenizer_tensors);

}  // namespace crossattn
