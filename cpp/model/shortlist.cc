#include "model/shortlist.h"

#include <algorithm>

#include "error.h"
#include "model/piece_lists.h"

namespace crossattn {

LexicalShortlist LexicalShortlist::load(const SafeTensors& file, int source_vocab_size, int vocab_size) {
  const TensorView* frequent = file.find("shortlist.frequent");
  const bool offsets = file.find("shortlist.offsets") != nullptr, targets = file.find("shortlist.targets") != nullptr;
  if (!frequent && !offsets && !targets) return {};
  if (!frequent || !offsets || !targets) {
    fail_model_format("a shortlist needs shortlist.frequent, shortlist.offsets and shortlist.targets");
  }
  LexicalShortlist s;
  s.frequent_ = read_ids(*frequent, "shortlist.frequent");
  check_ids_in_vocabulary(s.frequent_, vocab_size, "shortlist.frequent");
  PieceLists lists = PieceLists::load(file, "shortlist", source_vocab_size, vocab_size);
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
