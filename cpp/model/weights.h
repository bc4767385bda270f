// The parameters of a Transformer, loaded from a model file into fp32 Eigen matrices with every
// shape checked against the config. Tensor names in the file follow docs/model-format.md.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "model/config.h"
#include "model/safetensors.h"

namespace crossattn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

/// y = x W^T + b. The file stores W as [out, in] (PyTorch's nn.Linear); we keep W^T, [in, out],
/// so that a row-major activation times it is a plain GEMM.
struct Linear {
  Matrix weight_t;  // [in, out]
  RowVector bias;   // [out]
};

struct LayerNorm {
  RowVector gamma, beta;  // [d_model]
};

struct AttentionWeights {
  Linear q_proj, k_proj, v_proj, out_proj;  // each [d_model, d_model]
};

struct FeedForwardWeights {
  Linear fc1;  // [d_model, d_ff]
  Linear fc2;  // [d_ff, d_model]
};

struct EncoderLayerWeights {
  AttentionWeights self_attention;
  LayerNorm self_attention_norm;
  FeedForwardWeights ffn;
  LayerNorm ffn_norm;
};

struct DecoderLayerWeights {
  AttentionWeights self_attention;
  LayerNorm self_attention_norm;
  AttentionWeights cross_attention;
  LayerNorm cross_attention_norm;
  FeedForwardWeights ffn;
  LayerNorm ffn_norm;
};

struct TransformerWeights {
  Matrix src_embed;             // [vocab_size, d_model]
  Matrix tgt_embed;             // [vocab_size, d_model]; empty when the vocabulary is shared
  Matrix lm_head;               // [vocab_size, d_model]; empty when tied to the target embedding
  RowVector final_logits_bias;  // [vocab_size]; empty when the config has none
  std::vector<EncoderLayerWeights> encoder_layers;
  std::vector<DecoderLayerWeights> decoder_layers;
  LayerNorm encoder_norm, decoder_norm;  // final layer norms of pre-norm stacks; empty for post-norm

  const Matrix& target_embedding() const { return tgt_embed.size() ? tgt_embed : src_embed; }
  const Matrix& output_projection() const { return lm_head.size() ? lm_head : target_embedding(); }

  /// Reads every tensor the config calls for. Raises Error(kModelFormat) for a missing tensor, a
  /// shape that disagrees with the config, an unsupported dtype, or a non-finite value.
  static TransformerWeights load(const SafeTensors& file, const ModelConfig& config);
};

}  // namespace crossattn
