#include "model/weights.h"

#include <cmath>
#include <cstring>
#include <string>

#include "error.h"
#include "model/tensor_spec.generated.h"

namespace crossattn {
namespace {

using tensor_spec::DecoderLayerTensors;
using tensor_spec::EncoderLayerTensors;
using tensor_spec::ModelTensors;

// The full name of a tensor: `name` after `layer` (a layer's expanded prefix, or "" for a tensor the
// model has once). Tensor names come from tensor_spec.generated.h only.
std::string tensor_name(const std::string& layer, std::string_view name) { return layer + std::string(name); }

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

void check_finite(const std::vector<float>& values) {
  for (float v : values) {
    if (!std::isfinite(v)) fail_model_format("a tensor holds a non-finite value");
  }
}

// The elements of a floating-point tensor as fp32.
std::vector<float> to_float(const TensorView& t) {
  const int64_t n = t.numel();
  std::vector<float> out(static_cast<size_t>(n));
  const uint8_t* p = t.data;
  switch (t.dtype) {
    case DType::kF32:
      std::memcpy(out.data(), p, static_cast<size_t>(n) * 4);
      break;
    case DType::kF16:
    case DType::kBF16:
      for (int64_t i = 0; i < n; ++i) {
        const uint16_t bits = static_cast<uint16_t>(p[2 * i] | (p[2 * i + 1] << 8));
        out[i] = t.dtype == DType::kF16 ? static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits))
                                        : static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(bits));
      }
      break;
    default:
      fail_model_format("a floating-point tensor is stored with an integer dtype");
  }
  check_finite(out);
  return out;
}

const TensorView& expect(const SafeTensors& file, const std::string& name, std::vector<int64_t> shape) {
  const TensorView& t = file.tensor(name);
  // A vector may also be stored as [1, n] (HF Marian's final_logits_bias).
  const bool row_vector = shape.size() == 1 && t.shape.size() == 2 && t.shape[0] == 1 && t.shape[1] == shape[0];
  if (t.shape != shape && !row_vector) {
    fail_model_format("tensor '" + name + "' has shape " + shape_string(t.shape) + ", the config needs " + shape_string(shape));
  }
  return t;
}

std::vector<float> read_vector(const SafeTensors& file, const std::string& name, int n) {
  return to_float(expect(file, name, {n}));
}

// The file being read and its bytes, which int8 panels alias; `owned`: the bytes are the parse's
// own, and int8 panels may be converted where they lie.
struct Source {
  const SafeTensors& file;
  const FileBytes& bytes;
  bool owned;
};

// A weight matrix [out, in] as stored, before packing: fp32 values, or int8 values with per-row
// scales (the tensor `<name>_scale`, [out]), as rows or as panels in the file (kernel layout).
struct RawMatrix {
  int out = 0, in = 0;
  std::vector<float> w;                  // [out, in] fp32, or empty
  std::vector<int8_t> wq;                // [out, in] int8 rows, or empty
  std::shared_ptr<const int8_t> panels;  // int8 panels in the file's bytes (its kernel layout), or null
  bool panels_owned = false;             // the panels' bytes may be rewritten (Source::owned)
  std::vector<float> scale;              // [out] for int8

  bool quantized() const { return !wq.empty() || panels; }
};

// Whether `t` is an int8 tensor in the kernel layout of an [out, in] matrix: I8 [ceil(out/4), ceil(in/4), 16].
bool is_int8_panels(const TensorView& t, int out, int in) {
  return t.dtype == DType::kI8 && t.shape == std::vector<int64_t>{(out + 3) / 4, (in + 3) / 4, 16};
}

// Bytes of the kernel layout of an [out, in] matrix.
size_t file_panel_bytes(int out, int in) { return static_cast<size_t>((out + 3) / 4) * ((in + 3) / 4) * 16; }

RawMatrix read_matrix(const Source& src, const std::string& name, int out, int in) {
  const SafeTensors& file = src.file;
  const TensorView* panels = file.find(name);
  const TensorView& t = panels != nullptr && is_int8_panels(*panels, out, in) ? *panels : expect(file, name, {out, in});
  RawMatrix m;
  m.out = out;
  m.in = in;
  if (t.dtype == DType::kI8) {
    const auto* wq = reinterpret_cast<const int8_t*>(t.data);
    if (t.shape.size() == 3) {
      m.panels = std::shared_ptr<const int8_t>(src.bytes, wq);  // aliases the file: no copy
      m.panels_owned = src.owned;
    } else {
      m.wq.assign(wq, wq + static_cast<size_t>(out) * in);
    }
    m.scale = read_vector(file, name + "_scale", out);
    for (float s : m.scale) {
      if (!(s >= 0.0f)) fail_model_format("tensor '" + name + "_scale' holds a negative scale");
    }
  } else {
    m.w = to_float(t);
  }
  return m;
}

struct RawLinear {
  RawMatrix weight;
  std::vector<float> bias;  // [out]
};

RawLinear read_linear(const Source& src, const std::string& weight, const std::string& bias, int in, int out) {
  return {read_matrix(src, weight, out, in), read_vector(src.file, bias, out)};
}

// Multiplies the layer's outputs by `factor` (folds a constant that follows the product into it).
void scale_outputs(RawLinear& l, float factor) {
  for (float& v : l.weight.quantized() ? l.weight.scale : l.weight.w) v *= factor;
  for (float& v : l.bias) v *= factor;
}

// The int8 rows [out, in] of a matrix read as panels (a copy out of the kernel layout).
void unpack_rows(RawMatrix& m) {
  const PackedLinear view = PackedLinear::from_int8_panels(m.panels.get(), m.scale.data(), m.out, m.in, nullptr);
  m.wq.resize(static_cast<size_t>(m.out) * m.in);
  for (int j = 0; j < m.out; ++j) view.int8_row(j, m.wq.data() + static_cast<size_t>(j) * m.in);
  m.panels.reset();
}

// Whether the panels of `parts` lie back to back in the file, each a whole number of panels, so
// that together they are the panels of the stacked matrix.
bool contiguous_panels(const std::vector<RawLinear*>& parts) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const RawMatrix& m = parts[i]->weight;
    if (!m.panels || m.out % 4 != 0) return false;
    if (i > 0) {
      const RawMatrix& prev = parts[i - 1]->weight;
      if (prev.panels.get() + file_panel_bytes(prev.out, prev.in) != m.panels.get()) return false;
    }
  }
  return true;
}

// One layer whose outputs are those of `parts` side by side: their weight rows stacked. Panels
// that lie back to back in the file are converted together; others are unpacked and stacked as rows.
RawLinear stack(const std::vector<RawLinear*>& parts) {
  RawLinear s;
  s.weight.in = parts.front()->weight.in;
  const bool in_place = contiguous_panels(parts);
  if (in_place) {
    s.weight.panels = parts.front()->weight.panels;
    s.weight.panels_owned = parts.front()->weight.panels_owned;
  }
  for (RawLinear* p : parts) {
    if (p->weight.quantized() != parts.front()->weight.quantized()) {
      fail_model_format("a fused projection mixes int8 and floating-point matrices");
    }
    if (!in_place && p->weight.panels) unpack_rows(p->weight);
    s.weight.out += p->weight.out;
    s.weight.w.insert(s.weight.w.end(), p->weight.w.begin(), p->weight.w.end());
    s.weight.wq.insert(s.weight.wq.end(), p->weight.wq.begin(), p->weight.wq.end());
    s.weight.scale.insert(s.weight.scale.end(), p->weight.scale.begin(), p->weight.scale.end());
    s.bias.insert(s.bias.end(), p->bias.begin(), p->bias.end());
  }
  return s;
}

PackedLinear pack(const RawMatrix& m, const std::vector<float>& bias) {
  const float* b = bias.empty() ? nullptr : bias.data();
  if (m.panels && m.panels_owned && m.out % 8 == 0) {
    // Each tensor is read once (a tied table is packed once, the embedding sharing it), so no
    // reader sees these panels after they are rewritten.
    return PackedLinear::from_int8_panels_in_place(std::const_pointer_cast<int8_t>(m.panels), m.scale.data(), m.out, m.in, b);
  }
  if (m.panels) return PackedLinear::from_int8_panels(m.panels.get(), m.scale.data(), m.out, m.in, b);
  return m.quantized() ? PackedLinear::from_int8(m.wq.data(), m.scale.data(), m.out, m.in, b)
                       : PackedLinear::from_f32(m.w.data(), m.out, m.in, b);
}

PackedLinear pack(const RawLinear& l) { return pack(l.weight, l.bias); }

LayerNorm read_layer_norm(const SafeTensors& file, const std::string& weight, const std::string& bias, int d) {
  return {read_vector(file, weight, d), read_vector(file, bias, d)};
}

// The self-attention of layer `layer` (its expanded prefix) of an encoder or decoder (L: its names).
template <typename L>
SelfAttentionWeights read_self_attention(const Source& src, const std::string& layer, int d, float q_scale) {
  const auto name = [&](std::string_view n) { return tensor_name(layer, n); };
  RawLinear q = read_linear(src, name(L::kSelfAttnQProjWeight), name(L::kSelfAttnQProjBias), d, d);
  RawLinear k = read_linear(src, name(L::kSelfAttnKProjWeight), name(L::kSelfAttnKProjBias), d, d);
  RawLinear v = read_linear(src, name(L::kSelfAttnVProjWeight), name(L::kSelfAttnVProjBias), d, d);
  scale_outputs(q, q_scale);
  return {pack(stack({&q, &k, &v})),
          pack(read_linear(src, name(L::kSelfAttnOutProjWeight), name(L::kSelfAttnOutProjBias), d, d))};
}

CrossAttentionWeights read_cross_attention(const Source& src, const std::string& layer, int d, float q_scale) {
  using L = DecoderLayerTensors;
  const auto name = [&](std::string_view n) { return tensor_name(layer, n); };
  RawLinear q = read_linear(src, name(L::kCrossAttnQProjWeight), name(L::kCrossAttnQProjBias), d, d);
  RawLinear k = read_linear(src, name(L::kCrossAttnKProjWeight), name(L::kCrossAttnKProjBias), d, d);
  RawLinear v = read_linear(src, name(L::kCrossAttnVProjWeight), name(L::kCrossAttnVProjBias), d, d);
  scale_outputs(q, q_scale);
  return {pack(q), pack(stack({&k, &v})),
          pack(read_linear(src, name(L::kCrossAttnOutProjWeight), name(L::kCrossAttnOutProjBias), d, d))};
}

// An SSRU block (layers/ssru.h): W [D, D] (no bias) and W_f [D, D] with b_f [D], fused into one
// [2D, D] product.
SsruWeights read_ssru(const Source& src, const std::string& layer, int d) {
  using L = DecoderLayerTensors;
  RawLinear candidate{read_matrix(src, tensor_name(layer, L::kSsruWeight), d, d), std::vector<float>(static_cast<size_t>(d), 0.0f)};
  RawLinear forget{read_matrix(src, tensor_name(layer, L::kSsruForgetWeight), d, d),
                   read_vector(src.file, tensor_name(layer, L::kSsruForgetBias), d)};
  return {pack(stack({&candidate, &forget}))};
}

// The masked self-attention or the SSRU of decoder layer `layer`, as the config's decoder_autoregression
// says (check_tensors, model/tensor_spec.h, has refused a file with the other block's tensors).
void read_autoregression(const Source& src, const ModelConfig& c, const std::string& layer, float q_scale,
                         DecoderLayerWeights& weights) {
  if (c.decoder_autoregression == DecoderAutoregression::kSsru) {
    weights.ssru = read_ssru(src, layer, c.d_model);
  } else {
    weights.self_attention = read_self_attention<DecoderLayerTensors>(src, layer, c.d_model, q_scale);
  }
}

// The feed-forward block of layer `layer` of an encoder or decoder (L: its names).
template <typename L>
FeedForwardWeights read_ffn(const Source& src, const std::string& layer, int d, int d_ff) {
  const auto name = [&](std::string_view n) { return tensor_name(layer, n); };
  return {pack(read_linear(src, name(L::kFc1Weight), name(L::kFc1Bias), d, d_ff)),
          pack(read_linear(src, name(L::kFc2Weight), name(L::kFc2Bias), d_ff, d))};
}

// A layer norm of layer `layer` of an encoder or decoder, by its weight's and bias's names.
LayerNorm read_layer_norm(const SafeTensors& file, const std::string& layer, std::string_view weight,
                          std::string_view bias, int d) {
  return read_layer_norm(file, tensor_name(layer, weight), tensor_name(layer, bias), d);
}

Embedding to_embedding(RawMatrix m) {
  if (m.panels) return Embedding(pack(m, {}));
  return m.quantized() ? Embedding(std::move(m.wq), std::move(m.scale), m.in) : Embedding(std::move(m.w), m.in);
}

}  // namespace

void Embedding::lookup(int id, float factor, float* out) const {
  const size_t row = static_cast<size_t>(id) * d_model_;
  if (panels_.out() > 0) {
    panels_.dequantize_row(id, factor, out);
  } else if (qtable_.empty()) {
    for (int i = 0; i < d_model_; ++i) out[i] = table_[row + i] * factor;
  } else {
    const float s = scale_[id] * factor;
    for (int i = 0; i < d_model_; ++i) out[i] = static_cast<float>(qtable_[row + i]) * s;
  }
}

TransformerWeights TransformerWeights::load(const SafeTensors& file, const ModelConfig& c, const FileBytes& bytes,
                                            bool owned) {
  const Source src{file, bytes, owned};
  TransformerWeights w;
  const int d = c.d_model, v = c.vocab_size, v_src = c.source_vocab_size;
  const float q_scale = 1.0f / std::sqrt(static_cast<float>(d / c.n_heads));
  using M = ModelTensors;
  const std::string src_name(c.shared_vocab ? M::kSharedWeight : M::kEncoderEmbedTokensWeight);
  const std::string tgt_name(c.shared_vocab ? M::kSharedWeight : M::kDecoderEmbedTokensWeight);
  RawMatrix tgt = read_matrix(src, tgt_name, v, d);
  const std::vector<float> logits_bias =
      c.final_logits_bias ? read_vector(file, std::string(M::kFinalLogitsBias), v) : std::vector<float>{};
  // Packed from the target embedding itself when tied, so the table is read and converted once.
  if (c.tied_embeddings) {
    w.output_projection = pack(tgt, logits_bias);
  } else {
    w.output_projection = pack(read_matrix(src, std::string(M::kLmHeadWeight), v, d), logits_bias);
  }
  // A tied table in the kernel layout reads the output projection's own panels: converted once, shared.
  Embedding tgt_embed = c.tied_embeddings && tgt.panels ? Embedding(w.output_projection) : to_embedding(std::move(tgt));
  if (c.shared_vocab) {
    w.src_embed = std::move(tgt_embed);
  } else {
    w.src_embed = to_embedding(read_matrix(src, src_name, v_src, d));
    w.tgt_embed = std::move(tgt_embed);
  }
  for (int i = 0; i < c.encoder_layers; ++i) {
    using L = EncoderLayerTensors;
    const std::string p = layer_prefix(L::kPrefix, i);
    w.encoder_layers.push_back({read_self_attention<L>(src, p, d, q_scale),
                                read_layer_norm(file, p, L::kSelfAttnLayerNormWeight, L::kSelfAttnLayerNormBias, d),
                                read_ffn<L>(src, p, d, c.d_ff),
                                read_layer_norm(file, p, L::kFinalLayerNormWeight, L::kFinalLayerNormBias, d)});
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    using L = DecoderLayerTensors;
    const std::string p = layer_prefix(L::kPrefix, i);
    DecoderLayerWeights layer;
    read_autoregression(src, c, p, q_scale, layer);
    layer.self_attention_norm = read_layer_norm(file, p, L::kSelfAttnLayerNormWeight, L::kSelfAttnLayerNormBias, d);
    layer.cross_attention = read_cross_attention(src, p, d, q_scale);
    layer.cross_attention_norm = read_layer_norm(file, p, L::kCrossAttnLayerNormWeight, L::kCrossAttnLayerNormBias, d);
    layer.ffn = read_ffn<L>(src, p, d, c.d_ff);
    layer.ffn_norm = read_layer_norm(file, p, L::kFinalLayerNormWeight, L::kFinalLayerNormBias, d);
    w.decoder_layers.push_back(std::move(layer));
  }
  if (c.pre_norm) {
    w.encoder_norm = read_layer_norm(file, "", M::kEncoderLayerNormWeight, M::kEncoderLayerNormBias, d);
    w.decoder_norm = read_layer_norm(file, "", M::kDecoderLayerNormWeight, M::kDecoderLayerNormBias, d);
  }
  w.lexical_shortlist = LexicalShortlist::load(file, v_src, v);
  w.alignment_lexicon = AlignmentLexicon::load(file, v_src, v);
  if (file.find(std::string(M::kAlignmentQStateWeight)) != nullptr) {  // all or none: check_tensors saw to the rest
    w.alignment_layer = {pack(read_linear(src, std::string(M::kAlignmentQStateWeight), std::string(M::kAlignmentQStateBias), d, d)),
                         pack(read_matrix(src, std::string(M::kAlignmentQEmbedWeight), d, d), {}),
                         pack(read_matrix(src, std::string(M::kAlignmentKProjWeight), d, d), {})};
  }
  return w;
}

}  // namespace crossattn
