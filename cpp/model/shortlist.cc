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
  s.frequent_ = read_ids(*frequent, frequent_name);
  check_ids_in_vocabulary(s.frequent_, vocab_size, frequent_name);
  PieceLists lists = PieceLists::load(file, offsets_name, targets_name, source_vocab_size, vocab_size);
  s.offsets_ = std::move(lists.offsets);
  s.targets_ = std::move(lists.targets);
  return s;
}

std::vector<int> LexicalShortlist::candidates(const std::vector<const std::vector<int>*>& sources, int eos_id) const {
  std::vector<int> ids = frequent_;
  ids.push_back(eos_id);
  for (const std::vector<int>* source : sources) {
    for (int s : *source) ids.insert(ids.end(), targets_.begin() + offsets_[s], targets_.begin() + offsets_[s + 1]);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace crossattn
