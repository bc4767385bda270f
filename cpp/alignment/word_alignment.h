// Word alignments from cross-attention: which source words each target word was translated from.
// Attention weights are averaged over chosen decoder layers and heads, optionally read one decoder
// step later (Shift-Att, Chen et al. 2020: the step whose *input* is target token i attends to the
// source word it translates more sharply than the step that predicts it), merged from SentencePiece
// pieces to words, and turned into links: by argmax over the source for each target word (Garg et
// al. 2019, section 3), by a threshold, or by reading the same matrix in both directions (argmax
// over the source for each target word, argmax over the target for each source word) and
// symmetrizing the two with grow-diag-final-and (Koehn et al. 2003), as is done for the two
// directions of IBM-model alignments.
// docs/alignment.md gives the defaults and the AER they reach.
// Legend: L decoder layers, H n_heads, T target positions, S source positions (pieces, eos last).
#pragma once

#include <utility>
#include <vector>

namespace crossattn {

enum class AlignmentMethod {
  kArgmax,           // each target word links to the source word it attends to most
  kGrowDiagFinalAnd, // both directions of argmax, symmetrized (Koehn et al. 2003)
  kThreshold,        // every pair whose weight reaches AlignmentOptions::threshold
};

struct AlignmentOptions {
  // Each field's meaning, range and source is documented once, in option_specs() (cpp/options.cc).
  // The defaults (last two layers, all heads, grow-diag-final-and, no shift) had the lowest AER on
  // the dev half of the gold in docs/alignment.md for models without a trained alignment layer or head.
  std::vector<int> layers;  // empty: the last two layers (the Translator first tries the model's
                            // alignment layer, not with shift, then ModelConfig's head)
  std::vector<int> heads;   // empty: all heads
  AlignmentMethod method = AlignmentMethod::kGrowDiagFinalAnd;
  float threshold = 0.3f;  // kThreshold
  bool shift = false;      // Shift-Att
  bool merge_subwords = true;
  bool lexicon = true;  // model/lexicon.h: P(a_j = i) ∝ A[j, i] · (lex(s_i, t_j) + floor)
};

/// Cross-attention weights [L, H, T, S] of one translation (rows sum to 1 over S).
struct CrossAttentionView {
  const float* weights = nullptr;
  int layers = 0, heads = 0, tgt_len = 0, src_len = 0;
};

/// The word of each piece on one side: word_of_piece [pieces] indexes [0, words), or is -1 for a
/// piece outside every word (eos).
struct WordMap {
  std::vector<int> word_of_piece;
  int words = 0;
};

struct WordAlignment {
  int src_len = 0, tgt_len = 0;  // words, or pieces without eos when not merged
  /// [tgt_len, src_len]: the attention each target unit pays to each source unit, each row
  /// renormalized over the source without eos (so rows sum to 1).
  std::vector<float> weights;
  /// (source, target) index pairs, 0-based, sorted by target then source: Pharaoh "s-t".
  std::vector<std::pair<int, int>> links;
};

/// Aligns the words of src and tgt through `attention`; src has S pieces, tgt has T (the target
/// tokens, eos included when generated). With a `prior` [T, S] (model/lexicon.h), each piece row of
/// averaged attention is multiplied by the prior's row before it is renormalized, merged and linked.
/// Raises Error(kInvalidInput) for a layer, head or threshold out of range, or maps or a prior that
/// do not match the attention's shape.
WordAlignment align_words(const CrossAttentionView& attention, const WordMap& src, const WordMap& tgt,
                          const AlignmentOptions& options, const std::vector<float>* prior = nullptr);

/// Symmetrizes the alignments of one sentence pair by two models of opposite directions:
/// `forward` from the source->target model ([T, S] words), `backward` from the target->source
/// model ([S, T]). Their word attention is averaged, [T, S] = (forward + backward transposed) / 2,
/// and linked by `method` as align_words links one matrix; the two models' evidence then counts
/// in both directions, as when the two directions of IBM-model alignments are symmetrized (Och
/// and Ney 2003; attention of both directions, Garg et al. 2019, section 6). Raises
/// Error(kInvalidInput) if the shapes do not match or the threshold is out of (0, 1].
WordAlignment symmetrize(const WordAlignment& forward, const WordAlignment& backward, AlignmentMethod method,
                         float threshold);

}  // namespace crossattn
