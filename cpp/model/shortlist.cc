#include "model/shortlist.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "error.h"

namespace crossattn {
namespace {

std::vector<int> read_ids(const TensorView& t, const std::string& name) {
  if (t.dtype != DType::kI32 || t.shape.size() != 1) fail_model_format("tensor '" + name + "' must be a 1-D I32 tensor");
  std::vector<int> ids(static_cast<size_t>(t.numel()));
  std::memcpy(ids.data(), t.data, ids.size() * sizeof(int));  // little-endian, as wasm and x86
  return ids;
}

void check_range(const std::vector<int>& ids, int vocab_size, const std::string& name) {
  for (int id : ids) {
    if (id < 0 || id >= vocab_size) fail_model_format("tensor '" + name + "' holds an id outside the vocabulary");
  }
}

}  // namespace

LexicalShortlist LexicalShortlist::load(const SafeTensors& file, int vocab_size) {
  const TensorView* frequent = file.find("shortlist.frequent");
  const TensorView* offsets = file.find("shortlist.offsets");
  const TensorView* targets = file.find("shortlist.targets");
  if (!frequent && !offsets && !targets) return {};
  if (!frequent || !offsets || !targets) {
    fail_model_format("a shortlist needs shortlist.frequent, shortlist.offsets and shortlist.targets");
  }
  LexicalShortlist s;
  s.frequent_ = read_ids(*frequent, "shortlist.frequent");
  s.offsets_ = read_ids(*offsets, "shortlist.offsets");
  s.targets_ = read_ids(*targets, "shortlist.targets");
  check_range(s.frequent_, vocab_size, "shortlist.frequent");
  check_range(s.targets_, vocab_size, "shortlist.targets");
  const bool rising = std::is_sorted(s.offsets_.begin(), s.offsets_.end());
  if (static_cast<int>(s.offsets_.size()) != vocab_size + 1 || s.offsets_.front() != 0 || !rising ||
      s.offsets_.back() != static_cast<int>(s.targets_.size())) {
    fail_model_format("shortlist.offsets must rise from 0 to the size of shortlist.targets over vocab_size + 1 entries");
  }
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
