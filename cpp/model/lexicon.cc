#include "model/lexicon.h"

#include <algorithm>
#include <cmath>

#include "error.h"
#include "model/piece_lists.h"
#include "model/tensor_spec.generated.h"

namespace crossattn {

AlignmentLexicon AlignmentLexicon::load(const SafeTensors& file, int source_vocab_size, int vocab_size) {
  using M = tensor_spec::ModelTensors;
  const std::string scores_name(M::kLexiconScores), offsets_name(M::kLexiconOffsets), targets_name(M::kLexiconTargets);
  const TensorView* scores = file.find(scores_name);
  const bool offsets = file.find(offsets_name) != nullptr, targets = file.find(targets_name) != nullptr;
  if (!scores && !offsets && !targets) return {};
  if (!scores || !offsets || !targets) fail_model_format("a lexicon needs " + offsets_name + ", " + targets_name + " and " + scores_name);
  PieceLists lists = PieceLists::load(file, offsets_name, targets_name, source_vocab_size, vocab_size);
  if (scores->dtype != DType::kF32 || scores->shape.size() != 1 ||
      scores->numel() != static_cast<int64_t>(lists.targets.size())) {
    fail_model_format(scores_name + " must be F32 with one score per entry of " + targets_name);
  }
  AlignmentLexicon l;
  l.scores_.resize(lists.targets.size());
  std::copy_n(reinterpret_cast<const float*>(scores->data), l.scores_.size(), l.scores_.begin());
  for (float x : l.scores_) {
    if (!(x >= 0.0f) || !std::isfinite(x)) fail_model_format(scores_name + " holds a negative or non-finite score");
  }
  for (int s = 0; s < source_vocab_size; ++s) {
    const auto begin = lists.targets.begin() + lists.offsets[s], end = lists.targets.begin() + lists.offsets[s + 1];
    if (std::adjacent_find(begin, end, [](int a, int b) { return a >= b; }) != end) {
      fail_model_format(targets_name + " must ascend within each source piece's list");
    }
  }
  l.offsets_ = std::move(lists.offsets);
  l.targets_ = std::move(lists.targets);
  return l;
}

float AlignmentLexicon::score(int s, int t) const {
  const auto begin = targets_.begin() + offsets_[s], end = targets_.begin() + offsets_[s + 1];
  const auto it = std::lower_bound(begin, end, t);
  return it != end && *it == t ? scores_[static_cast<size_t>(it - targets_.begin())] : 0.0f;
}

std::vector<float> AlignmentLexicon::prior(const std::vector<int>& src_ids, const std::vector<int>& tgt_ids) const {
  const size_t s_len = src_ids.size();
  std::vector<float> out(tgt_ids.size() * s_len);  // [T, S]
  for (size_t j = 0; j < tgt_ids.size(); ++j) {
    for (size_t i = 0; i < s_len; ++i) out[j * s_len + i] = score(src_ids[i], tgt_ids[j]) + kLexiconFloor;
  }
  return out;
}

}  // namespace crossattn
