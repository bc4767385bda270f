// Architecture of an encoder-decoder Transformer (Vaswani et al. 2017), as stored in the model
// file's "config" metadata. The fields cover our own models and HF MarianMT (OPUS-MT) checkpoints:
// pre- or post-layer-norm, relu/gelu/swish, sinusoidal positions interleaved (the paper), in halves
// (HF MarianMT) or as native Marian computes them, tied embeddings, a final logits bias, and
// Marian's zero vector as the decoder's first input. See docs/model-format.md.
#pragma once

#include <string>

#include "kernels/ops.h"  // Activation

namespace crossattn {

enum class SinusoidalLayout { kInterleaved, kHalves, kMarian };  // model/positions.h

/// What carries the decoder's history from step to step: masked self-attention over a KV cache
/// (Vaswani et al. 2017, the default), or the Simpler Simple Recurrent Unit of Kim et al. 2019
/// (layers/ssru.h; Marian's `transformer-decoder-autoreg: rnn` with `dec-cell: ssru`).
enum class DecoderAutoregression { kSelfAttention, kSsru };

struct ModelConfig {
  std::string name;
  std::string source_lang, target_lang;
  int encoder_layers = 0, decoder_layers = 0;
  int d_model = 0, n_heads = 0, d_ff = 0;
  Activation activation = Activation::kRelu;
  bool pre_norm = true;  // x + f(LN(x)), with a final LN after each stack; else LN(x + f(x))
  float layer_norm_eps = 1e-5f;
  bool embed_scale = true;  // multiply embeddings by sqrt(d_model)
  SinusoidalLayout sinusoidal_layout = SinusoidalLayout::kInterleaved;
  int max_positions = 0;  // positions 0 .. max_positions-1 on either side
  bool tied_embeddings = true;  // the output projection is the target embedding matrix
  bool shared_vocab = true;     // source and target embeddings are one matrix
  bool final_logits_bias = false;
  int vocab_size = 0;  // the target side's; the ids below are target ids
  int pad_id = 0, unk_id = 1, bos_id = 2, eos_id = 3, decoder_start_id = 2;
  /// The source side's vocabulary when it differs from the target's (HF MarianMT without shared
  /// embeddings, Marian models with separate source and target SentencePiece models): config
  /// "source_vocab_size", "source_eos_id", "source_unk_id", defaulting to vocab_size, eos_id, unk_id
  /// (from_json fills them in; a config built in code sets them itself).
  int source_vocab_size = 0;
  int source_eos_id = 3, source_unk_id = 1;
  DecoderAutoregression decoder_autoregression = DecoderAutoregression::kSelfAttention;
  /// The decoder's first input (position 0, the step that reads decoder_start_id) is a zero vector
  /// plus its position encoding instead of the embedding of decoder_start_id: native Marian's
  /// convention (DecoderBase::embeddingsFromPrediction, src/models/decoder.h), config "decoder_start":
  /// "zero"; the default "token" is ours and HF's.
  bool zero_decoder_start = false;
  /// The cross-attention head trained to align (guided alignment, Garg et al. 2019): decoder layer
  /// in [0, decoder_layers) and head in [0, n_heads), or both -1 when the model has none. Word
  /// alignments read this head by default (docs/alignment.md).
  int alignment_layer = -1, alignment_head = -1;

  /// Parses and validates the JSON text of a config (the "model" object of models/configs/*.json
  /// plus name and languages). Raises Error(kModelFormat) naming the field for one missing, of the
  /// wrong type, or out of range: every integer must be a JSON integer (no 256.5) within its range
  /// (no 2^32 + N read as N), and n_heads must divide d_model into heads at least 4 wide.
  static ModelConfig from_json(const std::string& json_text);
};

}  // namespace crossattn
