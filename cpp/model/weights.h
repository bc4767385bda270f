// The parameters of a Transformer, assembled from each layer's weights (declared beside the layer in
// cpp/layers), read from a model file with every shape checked against the config, and packed once
// for the kernels (kernels/gemm.h): fp16/bf16/fp32 tensors become fp32 panels, int8 tensors (with
// per-row scales, docs/model-format.md) stay int8, and int8 tensors in the file's kernel layout are
// converted to the kernel's own panels without unpacking to rows (where they lie, when the bytes are
// the parse's own). At load the query, key and value projections of
// self-attention are fused into one [3D, D] product, cross-attention's key and value projections
// into one [2D, D] product (converted together when the file stores their panels back to back, as
// models/quantize.py writes them), an SSRU's W and W_f into one [2D, D] product, and 1/sqrt(Dk) is
// folded into W_Q's scales and b_Q.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "kernels/gemm.h"
#include "layers/alignment_layer.h"
#include "layers/cross_attention.h"
#include "layers/feed_forward.h"
#include "layers/self_attention.h"
#include "layers/ssru.h"
#include "model/config.h"
#include "model/safetensors.h"
#include "model/lexicon.h"
#include "model/shortlist.h"

namespace crossattn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct LayerNorm {
  std::vector<float> gamma, beta;  // [d_model]
};

struct EncoderLayerWeights {
  SelfAttentionWeights self_attention;
  LayerNorm self_attention_norm;
  FeedForwardWeights ffn;
  LayerNorm ffn_norm;
};

struct DecoderLayerWeights {
  SelfAttentionWeights self_attention;  // empty for an SSRU decoder
  SsruWeights ssru;                     // empty for a self-attention decoder
  LayerNorm self_attention_norm;        // the autoregressive block's norm, SSRU or self-attention
  CrossAttentionWeights cross_attention;
  LayerNorm cross_attention_norm;
  FeedForwardWeights ffn;
  LayerNorm ffn_norm;
};

/// An embedding table [vocab_size, D]: fp32 rows, int8 rows with one scale per row, or the int8
/// panels of the output projection it is tied to (a file in the int8 kernel layout).
class Embedding {
 public:
  Embedding() = default;
  Embedding(std::vector<float> table, int d_model) : table_(std::move(table)), d_model_(d_model) {}
  Embedding(std::vector<int8_t> qtable, std::vector<float> scale, int d_model)
      : qtable_(std::move(qtable)), scale_(std::move(scale)), d_model_(d_model) {}
  /// The rows of W [vocab_size, D] of an int8 linear layer, read out of its panels.
  explicit Embedding(PackedLinear panels) : panels_(std::move(panels)), d_model_(panels_.in()) {}

  bool empty() const { return d_model_ == 0; }
  /// out [D] = row `id` times `factor`; id must be in range (checked by the caller).
  void lookup(int id, float factor, float* out) const;

 private:
  std::vector<float> table_;   // [V, D] fp32, or empty
  std::vector<int8_t> qtable_; // [V, D] int8, or empty
  std::vector<float> scale_;   // [V] per-row scales of qtable_
  PackedLinear panels_;        // [V, D] int8 panels, or empty
  int d_model_ = 0;
};

struct TransformerWeights {
  Embedding src_embed;               // [source_vocab_size, D]
  Embedding tgt_embed;               // [vocab_size, D]; empty when the vocabulary is shared
  PackedLinear output_projection;    // [D] -> [vocab_size]: lm_head or the tied target embedding,
                                     // with final_logits_bias as its bias when the config has one
  std::vector<EncoderLayerWeights> encoder_layers;
  std::vector<DecoderLayerWeights> decoder_layers;
  LayerNorm encoder_norm, decoder_norm;  // final layer norms of pre-norm stacks; empty for post-norm
  LexicalShortlist lexical_shortlist;    // the output layer's shortlist; empty when the file has none
  AlignmentLexicon alignment_lexicon;    // the word alignments' lexicon; empty when the file has none
  AlignmentLayerWeights alignment_layer; // the word alignment layer; empty when the file has none

  const Embedding& target_embedding() const { return tgt_embed.empty() ? src_embed : tgt_embed; }

  /// Reads every tensor the config calls for from `file`, parsed from `bytes`. int8 tensors in the
  /// kernel layout are converted where they lie when the caller gives the bytes up (`owned`; the
  /// weights then keep them alive), else into new memory, and nothing refers to `bytes` once it
  /// returns. Raises Error(kModelFormat) for a missing tensor, a
  /// shape that disagrees with the config, an unsupported dtype, an int8 tensor without its scales,
  /// a non-finite value, or a malformed shortlist or lexicon (LexicalShortlist::load, AlignmentLexicon::load).
  static TransformerWeights load(const SafeTensors& file, const ModelConfig& config, const FileBytes& bytes,
                                 bool owned);
};

}  // namespace crossattn
