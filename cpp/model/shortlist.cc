#include "model/shortlist.h"

#include <algorithm>

#include "error.h"
#include "model/piece_lists.h"
#include "model/tensor_spec.generated.h"

namespace crossattn {

LexicalShortlist LexicalShortlist::load(const SafeTensors& file, int source_vocab_size, int vocab_size) {
  using M = tensor_spec::ModelTensors;
  const std::string frequent_name(M::kShortlistFrequent), offsets_name(M::kShortlistOffsets), targets_name(M::kShortlistTargets);
  const TensorView* frequent = file.find(frequent_name);
  const bool offsets = file.find(offsets_name) != nullptr, targets = file.find(targets_name) != nullptr;
  if (!frequent && !offsets && !targets) return {};
  if (!frequent || !offsets || !targets) {
    fail_model_format("a shortlist needs " + frequent_name + ", " + offsets_name + " and " + targets_name);
  }
  LexicalShortlist s;
  s.vocab_size_ = vocab_size;
  s.frequent_ = read_ids(*frequent, frequent_name);
  check_ids_in_vocabulary(s.frequent_, vocab_size, frequent_name);
  PieceLists lists = PieceLists::load(file, offsets_name, targets_name, source_vocab_size, vocab_size);
  s.offsets_ = std::move(lists.offsets);
  s.targets_ = std::move(lists.targets);
  return s;
}

std::vector<int> LexicalShortlist::candidates(const std::vector<const std::vector<int>*>& sources, int eos_id) const {
  // Marks over the vocabulary, then one pass in id order: O(V + N) for N listed ids, where sorting
  // them took 0.9% of a greedy translation's time (general-en-de, 2026-11-30).
  std::vector<char> listed(vocab_size_, 0);  // eos_id is below vocab_size (the config's check)
  for (int id : frequent_) listed[id] = 1;
  listed[eos_id] = 1;
  for (const std::vector<int>* source : sources) {
    for (int s : *source) {
      for (int i = offsets_[s]; i < offsets_[s + 1]; ++i) listed[targets_[i]] = 1;
    }
  }
  std::vector<int> ids;
  for (int id = 0; id < static_cast<int>(listed.size()); ++id) {
    if (listed[id]) ids.push_back(id);
  }
  return ids;
}

}  // namespace crossattn
