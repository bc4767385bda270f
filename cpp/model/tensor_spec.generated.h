// Made by tools/model-spec/index.js from cpp/model/tensor_spec.json: the config's fields, which
// cpp/model/config.cc checks a config by; the spec's groups and tensors as constant tables, which
// cpp/model/tensor_spec.cc expands for a config; and the tensors' names as constants, which the
// loader (weights.cc, shortlist.cc, lexicon.cc) reads them by.
// Do not edit: `node tools/model-spec/index.js --write` makes it anew; tests/js/model-spec-generated.test.js
// fails when it differs from what the spec makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string_view>

#include "model/tensor_spec.h"

namespace crossattn::tensor_spec {

/// A config field's JSON type: an integer (a JSON integer, no fraction), a finite number, true or
/// false, a string, or one of an enum's strings.
enum class FieldType : uint8_t { kInt, kNumber, kBool, kString, kEnum };

/// The upper end of a range that has none but the field it stays below.
inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// One config field. An int or number lies in [min, max] and, where `below` names a field, under
/// that field's value. An absent field takes `default_json` (JSON text) or the value of the field
/// `default_from` names, and is then checked as given; with neither, it is required.
struct ConfigField {
  std::string_view name;
  FieldType type;
  double min, max;
  std::string_view below;
  std::string_view default_json;
  std::string_view default_from;
  const std::string_view* values;  // an enum's values
  size_t value_count;
};

inline constexpr std::string_view kActivationValues[] = {"relu", "gelu", "swish", "silu"};
inline constexpr std::string_view kLayerNormValues[] = {"pre", "post"};
inline constexpr std::string_view kPositionalEncodingValues[] = {"sinusoidal"};
inline constexpr std::string_view kSinusoidalLayoutValues[] = {"interleaved", "halves", "marian"};
inline constexpr std::string_view kDecoderAutoregressionValues[] = {"self-attention", "ssru"};
inline constexpr std::string_view kDecoderStartValues[] = {"token", "zero"};

/// The config's fields, in the spec's order (a default or a bound names only a field before it).
inline constexpr ConfigField kConfigFields[] = {
    {"name", FieldType::kString, 0.0, 0.0, "", "\"\"", "", nullptr, 0},
    {"source_lang", FieldType::kString, 0.0, 0.0, "", "\"\"", "", nullptr, 0},
    {"target_lang", FieldType::kString, 0.0, 0.0, "", "\"\"", "", nullptr, 0},
    {"encoder_layers", FieldType::kInt, 1.0, 64.0, "", "", "", nullptr, 0},
    {"decoder_layers", FieldType::kInt, 1.0, 64.0, "", "", "", nullptr, 0},
    {"d_model", FieldType::kInt, 1.0, 16384.0, "", "", "", nullptr, 0},
    {"n_heads", FieldType::kInt, 1.0, 256.0, "", "", "", nullptr, 0},
    {"d_ff", FieldType::kInt, 1.0, 65536.0, "", "", "", nullptr, 0},
    {"activation", FieldType::kEnum, 0.0, 0.0, "", "", "", kActivationValues, 4},
    {"layer_norm", FieldType::kEnum, 0.0, 0.0, "", "", "", kLayerNormValues, 2},
    {"layer_norm_eps", FieldType::kNumber, 1e-30, 0.1, "", "0.00001", "", nullptr, 0},
    {"embed_scale", FieldType::kBool, 0.0, 0.0, "", "", "", nullptr, 0},
    {"positional_encoding", FieldType::kEnum, 0.0, 0.0, "", "\"sinusoidal\"", "", kPositionalEncodingValues, 1},
    {"sinusoidal_layout", FieldType::kEnum, 0.0, 0.0, "", "\"interleaved\"", "", kSinusoidalLayoutValues, 3},
    {"max_positions", FieldType::kInt, 1.0, 65536.0, "", "", "", nullptr, 0},
    {"tied_embeddings", FieldType::kBool, 0.0, 0.0, "", "", "", nullptr, 0},
    {"shared_vocab", FieldType::kBool, 0.0, 0.0, "", "", "", nullptr, 0},
    {"final_logits_bias", FieldType::kBool, 0.0, 0.0, "", "false", "", nullptr, 0},
    {"vocab_size", FieldType::kInt, 1.0, 1048576.0, "", "", "", nullptr, 0},
    {"pad_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "", nullptr, 0},
    {"unk_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "", nullptr, 0},
    {"bos_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "", nullptr, 0},
    {"eos_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "", nullptr, 0},
    {"decoder_start_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "bos_id", nullptr, 0},
    {"source_vocab_size", FieldType::kInt, 1.0, 1048576.0, "", "", "vocab_size", nullptr, 0},
    {"source_eos_id", FieldType::kInt, 0.0, kUnbounded, "source_vocab_size", "", "eos_id", nullptr, 0},
    {"source_unk_id", FieldType::kInt, 0.0, kUnbounded, "source_vocab_size", "", "unk_id", nullptr, 0},
    {"decoder_autoregression", FieldType::kEnum, 0.0, 0.0, "", "\"self-attention\"", "", kDecoderAutoregressionValues, 2},
    {"decoder_start", FieldType::kEnum, 0.0, 0.0, "", "\"token\"", "", kDecoderStartValues, 2},
    {"alignment_layer", FieldType::kInt, -1.0, kUnbounded, "decoder_layers", "-1", "", nullptr, 0},
    {"alignment_head", FieldType::kInt, -1.0, kUnbounded, "n_heads", "-1", "", nullptr, 0},
};

/// Where a group's tensors sit: once in the model, once per encoder or decoder layer (the prefix's
/// "{i}" is the layer's index), or once in an optional all-or-none group.
enum class Scope : uint8_t { kModel, kEncoderLayer, kDecoderLayer, kOptional };

/// The config size a dimension rule starts from; kAny is any length.
enum class Dim : uint8_t { kD /* D */, kF /* F */, kV /* V */, kVs /* Vs */, kAny /* n */ };

/// One dimension's rule: the size of `base` plus `extra` ("Vs+1" is {kVs, 1}).
struct DimRule {
  Dim base;
  int32_t extra;
};

/// The config a tensor is called for by (the spec's "conditions").
enum class When : uint8_t {
  kAlways,  // no condition: every config
  kSharedVocab,  // shared_vocab: config shared_vocab is true
  kNotSharedVocab,  // !shared_vocab: config shared_vocab is false
  kNotTiedEmbeddings,  // !tied_embeddings: config tied_embeddings is false
  kFinalLogitsBias,  // final_logits_bias: config final_logits_bias is true
  kPreNorm,  // pre_norm: config layer_norm is "pre"
  kSelfAttention,  // self_attention: config decoder_autoregression is "self-attention"
  kSsru,  // ssru: config decoder_autoregression is "ssru"
};

/// How many conditions the spec names (When's enumerators but kAlways).
inline constexpr size_t kConditionCount = 7;

/// The largest rank of a tensor in the spec.
inline constexpr size_t kMaxRank = 2;

/// One tensor of a group: its name after the group's prefix, its `rank` dimension rules, kind and condition.
struct TensorRule {
  std::string_view name;
  uint8_t rank;
  DimRule shape[kMaxRank];
  TensorKind kind;
  When when;
};

/// One group of the spec, its tensors in the spec's order.
struct GroupRule {
  Scope scope;
  std::string_view prefix;
  bool all_or_none;
  const TensorRule* tensors;
  size_t size;
};

inline constexpr TensorRule kGroup0[] = {  // model
    {"shared.weight", 2, {{Dim::kV, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSharedVocab},
    {"encoder.embed_tokens.weight", 2, {{Dim::kVs, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kNotSharedVocab},
    {"decoder.embed_tokens.weight", 2, {{Dim::kV, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kNotSharedVocab},
    {"lm_head.weight", 2, {{Dim::kV, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kNotTiedEmbeddings},
    {"final_logits_bias", 1, {{Dim::kV, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kFinalLogitsBias},
    {"encoder.layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kPreNorm},
    {"encoder.layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kPreNorm},
    {"decoder.layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kPreNorm},
    {"decoder.layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kPreNorm},
};

inline constexpr TensorRule kGroup1[] = {  // encoder_layer encoder.layers.{i}.
    {"self_attn.q_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"self_attn.q_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn.k_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"self_attn.k_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn.v_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"self_attn.v_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn.out_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"self_attn.out_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn_layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn_layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"fc1.weight", 2, {{Dim::kF, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"fc1.bias", 1, {{Dim::kF, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"fc2.weight", 2, {{Dim::kD, 0}, {Dim::kF, 0}}, TensorKind::kMatrix, When::kAlways},
    {"fc2.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"final_layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"final_layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
};

inline constexpr TensorRule kGroup2[] = {  // decoder_layer decoder.layers.{i}.
    {"self_attn.q_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSelfAttention},
    {"self_attn.q_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kSelfAttention},
    {"self_attn.k_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSelfAttention},
    {"self_attn.k_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kSelfAttention},
    {"self_attn.v_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSelfAttention},
    {"self_attn.v_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kSelfAttention},
    {"self_attn.out_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSelfAttention},
    {"self_attn.out_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kSelfAttention},
    {"ssru.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSsru},
    {"ssru.forget_weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kSsru},
    {"ssru.forget_bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kSsru},
    {"self_attn_layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"self_attn_layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn.q_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"cross_attn.q_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn.k_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"cross_attn.k_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn.v_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"cross_attn.v_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn.out_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"cross_attn.out_proj.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn_layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"cross_attn_layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"fc1.weight", 2, {{Dim::kF, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"fc1.bias", 1, {{Dim::kF, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"fc2.weight", 2, {{Dim::kD, 0}, {Dim::kF, 0}}, TensorKind::kMatrix, When::kAlways},
    {"fc2.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"final_layer_norm.weight", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"final_layer_norm.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
};

inline constexpr TensorRule kGroup3[] = {  // optional
    {"shortlist.frequent", 1, {{Dim::kAny, 0}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways},
    {"shortlist.offsets", 1, {{Dim::kVs, 1}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways},
    {"shortlist.targets", 1, {{Dim::kAny, 0}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways},
};

inline constexpr TensorRule kGroup4[] = {  // optional
    {"lexicon.offsets", 1, {{Dim::kVs, 1}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways},
    {"lexicon.targets", 1, {{Dim::kAny, 0}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways},
    {"lexicon.scores", 1, {{Dim::kAny, 0}, {Dim::kAny, 0}}, TensorKind::kF32, When::kAlways},
};

inline constexpr TensorRule kGroup5[] = {  // optional
    {"alignment.q_state.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"alignment.q_state.bias", 1, {{Dim::kD, 0}, {Dim::kAny, 0}}, TensorKind::kVector, When::kAlways},
    {"alignment.q_embed.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
    {"alignment.k_proj.weight", 2, {{Dim::kD, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kAlways},
};

/// The spec's groups, in its order (a group's index is ExpectedTensor::optional_group).
inline constexpr GroupRule kGroups[] = {
    {Scope::kModel, "", false, kGroup0, std::size(kGroup0)},
    {Scope::kEncoderLayer, "encoder.layers.{i}.", false, kGroup1, std::size(kGroup1)},
    {Scope::kDecoderLayer, "decoder.layers.{i}.", false, kGroup2, std::size(kGroup2)},
    {Scope::kOptional, "", true, kGroup3, std::size(kGroup3)},
    {Scope::kOptional, "", true, kGroup4, std::size(kGroup4)},
    {Scope::kOptional, "", true, kGroup5, std::size(kGroup5)},
};

/// The names of the tensors a model has once (the spec's model and optional groups).
struct ModelTensors {
  static constexpr std::string_view kSharedWeight = "shared.weight";
  static constexpr std::string_view kEncoderEmbedTokensWeight = "encoder.embed_tokens.weight";
  static constexpr std::string_view kDecoderEmbedTokensWeight = "decoder.embed_tokens.weight";
  static constexpr std::string_view kLmHeadWeight = "lm_head.weight";
  static constexpr std::string_view kFinalLogitsBias = "final_logits_bias";
  static constexpr std::string_view kEncoderLayerNormWeight = "encoder.layer_norm.weight";
  static constexpr std::string_view kEncoderLayerNormBias = "encoder.layer_norm.bias";
  static constexpr std::string_view kDecoderLayerNormWeight = "decoder.layer_norm.weight";
  static constexpr std::string_view kDecoderLayerNormBias = "decoder.layer_norm.bias";
  static constexpr std::string_view kShortlistFrequent = "shortlist.frequent";
  static constexpr std::string_view kShortlistOffsets = "shortlist.offsets";
  static constexpr std::string_view kShortlistTargets = "shortlist.targets";
  static constexpr std::string_view kLexiconOffsets = "lexicon.offsets";
  static constexpr std::string_view kLexiconTargets = "lexicon.targets";
  static constexpr std::string_view kLexiconScores = "lexicon.scores";
  static constexpr std::string_view kAlignmentQStateWeight = "alignment.q_state.weight";
  static constexpr std::string_view kAlignmentQStateBias = "alignment.q_state.bias";
  static constexpr std::string_view kAlignmentQEmbedWeight = "alignment.q_embed.weight";
  static constexpr std::string_view kAlignmentKProjWeight = "alignment.k_proj.weight";
};

/// The names of an encoder layer's tensors after its prefix kPrefix, whose "{i}" is the layer's index (layer_prefix).
struct EncoderLayerTensors {
  static constexpr std::string_view kPrefix = "encoder.layers.{i}.";
  static constexpr std::string_view kSelfAttnQProjWeight = "self_attn.q_proj.weight";
  static constexpr std::string_view kSelfAttnQProjBias = "self_attn.q_proj.bias";
  static constexpr std::string_view kSelfAttnKProjWeight = "self_attn.k_proj.weight";
  static constexpr std::string_view kSelfAttnKProjBias = "self_attn.k_proj.bias";
  static constexpr std::string_view kSelfAttnVProjWeight = "self_attn.v_proj.weight";
  static constexpr std::string_view kSelfAttnVProjBias = "self_attn.v_proj.bias";
  static constexpr std::string_view kSelfAttnOutProjWeight = "self_attn.out_proj.weight";
  static constexpr std::string_view kSelfAttnOutProjBias = "self_attn.out_proj.bias";
  static constexpr std::string_view kSelfAttnLayerNormWeight = "self_attn_layer_norm.weight";
  static constexpr std::string_view kSelfAttnLayerNormBias = "self_attn_layer_norm.bias";
  static constexpr std::string_view kFc1Weight = "fc1.weight";
  static constexpr std::string_view kFc1Bias = "fc1.bias";
  static constexpr std::string_view kFc2Weight = "fc2.weight";
  static constexpr std::string_view kFc2Bias = "fc2.bias";
  static constexpr std::string_view kFinalLayerNormWeight = "final_layer_norm.weight";
  static constexpr std::string_view kFinalLayerNormBias = "final_layer_norm.bias";
};

/// The names of a decoder layer's tensors after its prefix kPrefix, whose "{i}" is the layer's index (layer_prefix).
struct DecoderLayerTensors {
  static constexpr std::string_view kPrefix = "decoder.layers.{i}.";
  static constexpr std::string_view kSelfAttnQProjWeight = "self_attn.q_proj.weight";
  static constexpr std::string_view kSelfAttnQProjBias = "self_attn.q_proj.bias";
  static constexpr std::string_view kSelfAttnKProjWeight = "self_attn.k_proj.weight";
  static constexpr std::string_view kSelfAttnKProjBias = "self_attn.k_proj.bias";
  static constexpr std::string_view kSelfAttnVProjWeight = "self_attn.v_proj.weight";
  static constexpr std::string_view kSelfAttnVProjBias = "self_attn.v_proj.bias";
  static constexpr std::string_view kSelfAttnOutProjWeight = "self_attn.out_proj.weight";
  static constexpr std::string_view kSelfAttnOutProjBias = "self_attn.out_proj.bias";
  static constexpr std::string_view kSsruWeight = "ssru.weight";
  static constexpr std::string_view kSsruForgetWeight = "ssru.forget_weight";
  static constexpr std::string_view kSsruForgetBias = "ssru.forget_bias";
  static constexpr std::string_view kSelfAttnLayerNormWeight = "self_attn_layer_norm.weight";
  static constexpr std::string_view kSelfAttnLayerNormBias = "self_attn_layer_norm.bias";
  static constexpr std::string_view kCrossAttnQProjWeight = "cross_attn.q_proj.weight";
  static constexpr std::string_view kCrossAttnQProjBias = "cross_attn.q_proj.bias";
  static constexpr std::string_view kCrossAttnKProjWeight = "cross_attn.k_proj.weight";
  static constexpr std::string_view kCrossAttnKProjBias = "cross_attn.k_proj.bias";
  static constexpr std::string_view kCrossAttnVProjWeight = "cross_attn.v_proj.weight";
  static constexpr std::string_view kCrossAttnVProjBias = "cross_attn.v_proj.bias";
  static constexpr std::string_view kCrossAttnOutProjWeight = "cross_attn.out_proj.weight";
  static constexpr std::string_view kCrossAttnOutProjBias = "cross_attn.out_proj.bias";
  static constexpr std::string_view kCrossAttnLayerNormWeight = "cross_attn_layer_norm.weight";
  static constexpr std::string_view kCrossAttnLayerNormBias = "cross_attn_layer_norm.bias";
  static constexpr std::string_view kFc1Weight = "fc1.weight";
  static constexpr std::string_view kFc1Bias = "fc1.bias";
  static constexpr std::string_view kFc2Weight = "fc2.weight";
  static constexpr std::string_view kFc2Bias = "fc2.bias";
  static constexpr std::string_view kFinalLayerNormWeight = "final_layer_norm.weight";
  static constexpr std::string_view kFinalLayerNormBias = "final_layer_norm.bias";
};

}  // namespace crossattn::tensor_spec
