// The alignment lexicon of a model file: how strongly each source piece translates to each target
// piece, lex(s, t) = sqrt(p(t | s) · p(s | t)) from the counts of the training pairs' piece links
// (models/lexicon.py writes it). Word alignments read attention as the prior over source positions
// and this lexicon as the emission, P(a_j = i) ∝ A[j, i] · (lex(s_i, t_j) + kLexiconFloor), the
// posterior of an IBM-style model whose distortion is the attention (docs/alignment.md).
// Legend: V_src source_vocab_size, V vocab_size, N table entries, S source pieces, T target pieces.
#pragma once

#include <vector>

#include "model/safetensors.h"

namespace crossattn {

/// The score every pair gets on top of its lexicon entry, so that an unlisted pair keeps a little of
/// its attention (tools: docs/alignment.md measured 1e-4 and 1e-3 on align-dev; 1e-4 was better).
constexpr float kLexiconFloor = 1e-4f;

/// The tensors lexicon.offsets I32 [V_src + 1], lexicon.targets I32 [N] and lexicon.scores F32 [N]
/// (docs/model-format.md).
class AlignmentLexicon {
 public:
  AlignmentLexicon() = default;

  /// Reads the table if the file has one (all three tensors), else returns an empty one. Raises
  /// Error(kModelFormat) for a partial table, other dtypes or shapes, offsets that do not rise from
  /// 0 to N over source_vocab_size + 1 entries, a target id outside [0, vocab_size), targets not
  /// ascending within a source's list, or a score that is negative or not finite.
  static AlignmentLexicon load(const SafeTensors& file, int source_vocab_size, int vocab_size);

  bool empty() const { return offsets_.empty(); }

  /// lex(s, t), 0 for a pair the table does not list; s in [0, V_src), t in [0, vocab_size).
  float score(int s, int t) const;

  /// The prior [T, S] of one sentence pair: lex(src_ids[i], tgt_ids[j]) + kLexiconFloor at [j, i],
  /// for source ids in [0, V_src) and target ids in [0, vocab_size).
  std::vector<float> prior(const std::vector<int>& src_ids, const std::vector<int>& tgt_ids) const;

 private:
  std::vector<int> offsets_, targets_;
  std::vector<float> scores_;
};

}  // namespace crossattn
