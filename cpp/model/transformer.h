// The encoder-decoder Transformer of Vaswani et al. 2017, assembled from the layers in cpp/layers.
// Legend: S src_len, T target rows fed in one call, D d_model, H n_heads, L decoder layers, V vocab.
#pragma once

#include <vector>

#include "layers/attention.h"
#include "layers/cross_attention.h"
#include "model/config.h"
#include "model/weights.h"

namespace crossattn {

/// Everything the decoder keeps between steps of one sentence.
struct DecoderState {
  std::vector<KVCache> self_attention;               // one per decoder layer
  std::vector<CrossAttentionMemory> cross_attention;  // one per decoder layer, fixed for the sentence
  int src_len = 0;
  int position() const { return self_attention.empty() ? 0 : self_attention.front().length; }
};

class Transformer {
 public:
  Transformer(ModelConfig config, TransformerWeights weights);

  const ModelConfig& config() const { return config_; }

  /// Runs the encoder over src_ids [S] (token ids, each in [0, vocab_size)); returns encoder_out [S, D],
  /// the final encoder output after the last layer norm when pre-norm.
  Matrix encode(const std::vector<int>& src_ids) const;

  /// A decoder state for one sentence that can hold max_tgt_len target positions (at most
  /// max_positions): projects encoder_out once into each layer's cross-attention keys and values.
  DecoderState start(const Matrix& encoder_out, int max_tgt_len) const;

  /// Feeds tgt_ids [T] at the next T positions of `state` (T = 1 for incremental decoding, the whole
  /// target for forced decoding). Writes logits [T, V]; when cross_weights is not null, also the
  /// cross-attention probabilities laid out [L, H, T, S]. Raises Error(kInputTooLong) when the
  /// positions would pass the state's capacity.
  void decode(DecoderState& state, const std::vector<int>& tgt_ids, Matrix& logits, float* cross_weights) const;

 private:
  Matrix embed(const Matrix& table, const std::vector<int>& ids, int first_position) const;

  ModelConfig config_;
  TransformerWeights weights_;
};

}  // namespace crossattn
