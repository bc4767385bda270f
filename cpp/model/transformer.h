// The encoder-decoder Transformer of Vaswani et al. 2017, assembled from the layers in cpp/layers.
// Decoding works on rows: each row feeds one token to one sentence's DecoderState, so one call
// advances a batch of sentences by a step (batched greedy decoding) or feeds a whole target to one
// sentence (forced decoding); the linear layers see all rows as one matrix product.
// Legend: S src_len, M rows fed in one call, T target positions, D d_model, H n_heads,
// L decoder layers, V vocab_size, F d_ff.
#pragma once

#include <vector>

#include "layers/cross_attention.h"
#include "layers/decoder_state.h"
#include "model/config.h"
#include "model/weights.h"

namespace crossattn {

/// Scratch memory for decode calls of up to `rows` rows. Sized once by reserve(), so that decoding
/// steps allocate nothing.
struct DecoderWorkspace {
  int rows = 0;
  std::vector<float> x, h, q, context;  // [rows, D]
  std::vector<float> qkv;                // [rows, 3D]
  std::vector<float> hidden;             // [rows, F]
  std::vector<float> probs;              // [H, max_positions]
  std::vector<float> logits;             // [rows, V], or [rows, n] with an OutputShortlist of n candidates
  std::vector<int> positions;            // [rows]

  /// Grows the buffers to hold `rows` rows of this model; no-op when they already do.
  void reserve(int rows, const ModelConfig& config);
};

class Transformer {
 public:
  Transformer(ModelConfig config, TransformerWeights weights);

  const ModelConfig& config() const { return config_; }
  const TransformerWeights& weights() const { return weights_; }

  /// Runs the encoder over src_ids [S] (source ids, each in [0, source_vocab_size)); returns encoder_out [S, D],
  /// the final encoder output after the last layer norm when pre-norm. Raises Error(kInputTooLong)
  /// for S = 0 or S > max_positions, Error(kInvalidInput) for an id outside the source vocabulary.
  Matrix encode(const std::vector<int>& src_ids) const;

  /// Whether the model file has a lexical shortlist (model/shortlist.h).
  bool has_shortlist() const { return !weights_.lexical_shortlist.empty(); }

  /// The model file's alignment lexicon (model/lexicon.h); empty when it has none.
  const AlignmentLexicon& alignment_lexicon() const { return weights_.alignment_lexicon; }

  /// The output layer restricted to the shortlist candidates of a call translating `sources`
  /// (source ids [S_i], checked as by encode). Needs has_shortlist(); raises Error(kInvalidInput)
  /// otherwise or for an id outside the vocabulary.
  OutputShortlist shortlist(const std::vector<const std::vector<int>*>& sources) const;

  /// A decoder state for one sentence that can hold max_tgt_len target positions (at most
  /// max_positions): projects encoder_out [S, D] once into each layer's cross-attention keys and values.
  /// An SSRU decoder's state holds each layer's cell state, zero, and no KV cache.
  DecoderState start(const Matrix& encoder_out, int max_tgt_len) const;

  /// Feeds ids[r] to *states[r] at that state's next position, for rows r = 0 .. m-1; rows of one
  /// state are consecutive positions. Writes logits [m, V] to ws.logits (ws must be reserved for m
  /// rows). When probe is not null, row r's cross-attention probabilities go to probe->weights[r]
  /// laid out [L, H, S_r], and its residual statistics to probe->residual[r] laid out [L, 3]
  /// (CrossAttentionProbe; null arrays and rows are skipped). When shortlist is not null, only its
  /// n candidates are scored: ws.logits is then [m, n], column i the logit of token shortlist->ids[i]
  /// (bit for bit the full layer's). Allocates nothing.
  /// Raises Error(kInputTooLong) when a state would pass its capacity and Error(kInvalidInput) for
  /// an id outside the vocabulary; the states are unchanged then.
  void decode(DecoderState* const* states, const int* ids, int m, DecoderWorkspace& ws,
              const CrossAttentionProbe* probe, const OutputShortlist* shortlist = nullptr) const;

  /// Forced decoding of one sentence: feeds tgt_ids [T] at the next T positions of `state`.
  /// Writes logits [T, V]; when cross_weights is not null, also the cross-attention probabilities
  /// laid out [L, H, T, S]; when residual is not null, the cross-attention residual statistics
  /// {|x|, |update|, cos} laid out [L, T, 3] (CrossAttentionProbe); when final_states is not null,
  /// the decoder's final states [T, D] (after the final layer norm when pre-norm), the rows the
  /// output layer reads. Errors as the row form.
  void decode(DecoderState& state, const std::vector<int>& tgt_ids, Matrix& logits, float* cross_weights,
              float* residual = nullptr, float* final_states = nullptr) const;

  /// Whether the model file has a word alignment layer (layers/alignment_layer.h).
  bool has_alignment_layer() const { return !weights_.alignment_layer.empty(); }

  /// The alignment layer's weights [T, S] of target tokens tgt_ids [T] (row t aligns tgt_ids[t]) over
  /// the source positions of encoder_out [S, D] (eos included), from the final decoder states [T, D] of
  /// the steps that predict them (decode's final_states; row t's step is fed tgt_ids[t - 1]). Rows sum
  /// to 1. Raises Error(kInvalidInput) when the model has no alignment layer or an id is outside the
  /// target vocabulary.
  std::vector<float> alignment_weights(const Matrix& encoder_out, const std::vector<int>& tgt_ids,
                                       const float* final_states) const;

 private:
  // Raises Error(kInvalidInput) for an id outside [0, vocab_size) of the `side` ("source" or "target").
  static void check_ids(const int* ids, int n, int vocab_size, const char* side);
  // x [n, D] = embedding rows of ids scaled (by sqrt(D) when embed_scale) + positions; with
  // zero_at_start, rows at position 0 are the position alone (config zero_decoder_start).
  void embed(const Embedding& table, const int* ids, const int* positions, int n, float* x,
             bool zero_at_start = false) const;

  ModelConfig config_;
  TransformerWeights weights_;
  std::vector<float> sinusoids_;  // [max_positions, D]
};

}  // namespace crossattn
