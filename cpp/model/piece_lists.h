// Lists of target pieces per source piece, the compressed sparse row layout of a model file's
// lexical tables (the output shortlist, model/shortlist.h; the alignment lexicon, model/lexicon.h).
// Legend: V_src source_vocab_size, V vocab_size (the target's), N entries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/safetensors.h"

namespace crossattn {

/// The ids of a 1-D I32 tensor; Error(kModelFormat) naming `name` for another dtype or rank.
std::vector<int> read_ids(const TensorView& t, const std::string& name);

/// An offsets tensor I32 [V_src + 1] and a targets tensor I32 [N] (shortlist.offsets and
/// shortlist.targets, or the lexicon's): source id s's targets are targets[offsets[s] .. offsets[s + 1]).
struct PieceLists {
  std::vector<int> offsets, targets;

  /// Reads the two tensors (the caller has checked that the file has them). Raises
  /// Error(kModelFormat) for another dtype or rank, offsets that do not rise from 0 to N over
  /// source_vocab_size + 1 entries, or a target outside [0, vocab_size).
  static PieceLists load(const SafeTensors& file, std::string_view offsets_name, std::string_view targets_name,
                         int source_vocab_size, int vocab_size);
};

/// Raises Error(kModelFormat) naming `name` if an id lies outside [0, vocab_size).
void check_ids_in_vocabulary(const std::vector<int>& ids, int vocab_size, const std::string& name);

}  // namespace crossattn
