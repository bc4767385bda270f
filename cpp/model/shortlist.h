// The lexical shortlist of the output layer (Junczys-Dowmunt et al. 2018, "Marian: Cost-effective
// High-Quality Neural Machine Translation in C++", section 4.1; Bergamot's lex.s2t shortlists): a
// translation scores only the target pieces likely for its source, the most frequent target pieces
// plus, for each source piece, the target pieces the training data aligned it to most often
// (models/shortlist.py builds the table). The decoder step's largest product, [M, D] x [D, V],
// shrinks to [M, D] x [D, n] for the n candidates, and the search ranks, normalizes and selects
// over those n logits only, mapping their columns back to token ids (decoding/beam_search.cc): as
// if every other piece's logit were -inf, without a pass over V per step.
// Legend: V_src source_vocab_size, V vocab_size, D d_model, F frequent pieces, N table entries,
// n candidates of one call.
#pragma once

#include <vector>

#include "kernels/gemm.h"
#include "model/safetensors.h"

namespace crossattn {

/// The output layer of one translation call, restricted to its candidates.
struct OutputShortlist {
  std::vector<int> ids;     // [n] candidate target ids, ascending
  PackedLinear projection;  // [D] -> [n]: the output projection's rows for ids, bias included
};

/// The table of a model file: the tensors shortlist.frequent [F], shortlist.offsets [V_src + 1] and
/// shortlist.targets [N], int32 (docs/model-format.md).
class LexicalShortlist {
 public:
  LexicalShortlist() = default;

  /// Reads the table if the file has one (all three tensors), else returns an empty one. Raises
  /// Error(kModelFormat) for a partial table, a dtype other than I32, offsets that do not rise from
  /// 0 to N over source_vocab_size + 1 entries, or a target id outside [0, vocab_size).
  static LexicalShortlist load(const SafeTensors& file, int source_vocab_size, int vocab_size);

  bool empty() const { return offsets_.empty(); }

  /// The candidates of a call translating `sources` (source ids, each in [0, V_src)): the frequent
  /// pieces, eos_id, and every source piece's list, ascending and without repeats.
  std::vector<int> candidates(const std::vector<const std::vector<int>*>& sources, int eos_id) const;

 private:
  std::vector<int> frequent_, offsets_, targets_;
  int vocab_size_ = 0;  // V: every listed id is below it
};

}  // namespace crossattn
