#include "model/weights.h"

#include <cmath>
#include <cstring>
#include <string>

#include "error.h"

namespace crossattn {
namespace {

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Converts `n` elements of `t` to fp32 at `out`.
void to_float(const TensorView& t, float* out, int64_t n) {
  const uint8_t* p = t.data;
  switch (t.dtype) {
    case DType::kF32:
      std::memcpy(out, p, static_cast<size_t>(n) * 4);
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
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(out[i])) fail_model_format("a tensor holds a non-finite value");
  }
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

Matrix read_matrix(const SafeTensors& file, const std::string& name, int rows, int cols) {
  const TensorView& t = expect(file, name, {rows, cols});
  Matrix m(rows, cols);
  to_float(t, m.data(), m.size());
  return m;
}

RowVector read_vector(const SafeTensors& file, const std::string& name, int n) {
  const TensorView& t = expect(file, name, {n});
  RowVector v(n);
  to_float(t, v.data(), n);
  return v;
}

Linear read_linear(const SafeTensors& file, const std::string& prefix, int in, int out) {
  return {read_matrix(file, prefix + ".weight", out, in).transpose(), read_vector(file, prefix + ".bias", out)};
}

LayerNorm read_layer_norm(const SafeTensors& file, const std::string& prefix, int d) {
  return {read_vector(file, prefix + ".weight", d), read_vector(file, prefix + ".bias", d)};
}

AttentionWeights read_attention(const SafeTensors& file, const std::string& prefix, int d) {
  return {read_linear(file, prefix + ".q_proj", d, d), read_linear(file, prefix + ".k_proj", d, d),
          read_linear(file, prefix + ".v_proj", d, d), read_linear(file, prefix + ".out_proj", d, d)};
}

FeedForwardWeights read_ffn(const SafeTensors& file, const std::string& prefix, int d, int d_ff) {
  return {read_linear(file, prefix + ".fc1", d, d_ff), read_linear(file, prefix + ".fc2", d_ff, d)};
}

}  // namespace

TransformerWeights TransformerWeights::load(const SafeTensors& file, const ModelConfig& c) {
  TransformerWeights w;
  const int d = c.d_model, v = c.vocab_size;
  if (c.shared_vocab) {
    w.src_embed = read_matrix(file, "shared.weight", v, d);
  } else {
    w.src_embed = read_matrix(file, "encoder.embed_tokens.weight", v, d);
    w.tgt_embed = read_matrix(file, "decoder.embed_tokens.weight", v, d);
  }
  if (!c.tied_embeddings) w.lm_head = read_matrix(file, "lm_head.weight", v, d);
  if (c.final_logits_bias) w.final_logits_bias = read_vector(file, "final_logits_bias", v);
  for (int i = 0; i < c.encoder_layers; ++i) {
    const std::string p = "encoder.layers." + std::to_string(i);
    w.encoder_layers.push_back({read_attention(file, p + ".self_attn", d),
                                read_layer_norm(file, p + ".self_attn_layer_norm", d),
                                read_ffn(file, p, d, c.d_ff), read_layer_norm(file, p + ".final_layer_norm", d)});
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    const std::string p = "decoder.layers." + std::to_string(i);
    w.decoder_layers.push_back({read_attention(file, p + ".self_attn", d),
                                read_layer_norm(file, p + ".self_attn_layer_norm", d),
                                read_attention(file, p + ".cross_attn", d),
                                read_layer_norm(file, p + ".cross_attn_layer_norm", d),
                                read_ffn(file, p, d, c.d_ff), read_layer_norm(file, p + ".final_layer_norm", d)});
  }
  if (c.pre_norm) {
    w.encoder_norm = read_layer_norm(file, "encoder.layer_norm", d);
    w.decoder_norm = read_layer_norm(file, "decoder.layer_norm", d);
  }
  return w;
}

}  // namespace crossattn
