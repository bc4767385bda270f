#include "model/piece_lists.h"

#include <algorithm>
#include <cstring>

#include "error.h"

namespace crossattn {

std::vector<int> read_ids(const TensorView& t, const std::string& name) {
  if (t.dtype != DType::kI32 || t.shape.size() != 1) fail_model_format("tensor '" + name + "' must be a 1-D I32 tensor");
  std::vector<int> ids(static_cast<size_t>(t.numel()));
  std::memcpy(ids.data(), t.data, ids.size() * sizeof(int));  // little-endian, as wasm and x86
  return ids;
}

void check_ids_in_vocabulary(const std::vector<int>& ids, int vocab_size, const std::string& name) {
  for (int id : ids) {
    if (id < 0 || id >= vocab_size) fail_model_format("tensor '" + name + "' holds an id outside the vocabulary");
  }
}

PieceLists PieceLists::load(const SafeTensors& file, std::string_view offsets_name, std::string_view targets_name,
                            int source_vocab_size, int vocab_size) {
  const std::string offsets(offsets_name), targets(targets_name);
  PieceLists lists;
  lists.offsets = read_ids(file.tensor(offsets), offsets);
  lists.targets = read_ids(file.tensor(targets), targets);
  check_ids_in_vocabulary(lists.targets, vocab_size, targets);
  const std::vector<int>& o = lists.offsets;
  if (static_cast<int>(o.size()) != source_vocab_size + 1 || o.front() != 0 || !std::is_sorted(o.begin(), o.end()) ||
      o.back() != static_cast<int>(lists.targets.size())) {
    fail_model_format(offsets + " must rise from 0 to the size of " + targets + " over source_vocab_size + 1 entries");
  }
  return lists;
}

}  // namespace crossattn
