#include "layers/probe_records.h"

#include <algorithm>

#include "kernels/ops.h"

namespace crossattn {

namespace {

// Rows of a * w floats picked from `arena` by records [T], as [T, a, w], then swapped into out [a, T, w].
void gather_rows(const std::vector<float>& arena, const std::vector<int>& records, int a, int w, float* out) {
  const size_t row = static_cast<size_t>(a) * w, t_len = records.size();
  std::vector<float> steps(t_len * row);  // [T, a, w]
  for (size_t t = 0; t < t_len; ++t) std::copy_n(arena.data() + records[t] * row, row, steps.data() + t * row);
  swap_leading_axes(steps.data(), static_cast<int>(t_len), a, w, out);  // [a, T, w]
}

}  // namespace

ProbeRecords::ProbeRecords(int layers, int heads, int src_len, bool attention, bool residual, int state_width)
    : layers_(layers), heads_(heads), src_len_(src_len), state_width_(state_width), attention_on_(attention),
      residual_on_(residual) {}

void ProbeRecords::resize(int records) {
  if (attention_on_) attention_.resize(static_cast<size_t>(records) * layers_ * heads_ * src_len_);
  if (residual_on_) residual_.resize(static_cast<size_t>(records) * layers_ * 3);
  if (state_width_ > 0) states_.resize(static_cast<size_t>(records) * state_width_);
}

float* ProbeRecords::attention(int record) {
  return attention_on_ ? attention_.data() + static_cast<size_t>(record) * layers_ * heads_ * src_len_ : nullptr;
}

float* ProbeRecords::residual(int record) {
  return residual_on_ ? residual_.data() + static_cast<size_t>(record) * layers_ * 3 : nullptr;
}

float* ProbeRecords::final_state(int record) {
  return state_width_ > 0 ? states_.data() + static_cast<size_t>(record) * state_width_ : nullptr;
}

void ProbeRecords::gather(const std::vector<int>& records, float* attention, float* residual, float* final_states) const {
  if (attention_on_ && attention) gather_rows(attention_, records, layers_ * heads_, src_len_, attention);
  if (residual_on_ && residual) gather_rows(residual_, records, layers_, 3, residual);
  if (state_width_ > 0 && final_states) gather_rows(states_, records, 1, state_width_, final_states);
}

}  // namespace crossattn
