#include "model/positions.h"

#include <cmath>

namespace crossattn {

std::vector<float> sinusoid_table(int n, int d, SinusoidalLayout layout) {
  std::vector<float> table(static_cast<size_t>(n) * d);
  const int half = d / 2;
  const bool marian = layout == SinusoidalLayout::kMarian;
  const float step = -std::log(10000.0f) / static_cast<float>(marian ? half - 1 : d);
  for (int pos = 0; pos < n; ++pos) {
    for (int i = 0; i < half; ++i) {
      const float inv_freq = std::exp(static_cast<float>(marian ? i : 2 * i) * step);
      const float angle = static_cast<float>(pos) * inv_freq;
      const int sin_col = layout == SinusoidalLayout::kInterleaved ? 2 * i : i;
      const int cos_col = layout == SinusoidalLayout::kInterleaved ? 2 * i + 1 : half + i;
      table[static_cast<size_t>(pos) * d + sin_col] = std::sin(angle);
      table[static_cast<size_t>(pos) * d + cos_col] = std::cos(angle);
    }
  }
  return table;
}

}  // namespace crossattn
