#include "layers/ssru.h"

#include <algorithm>
#include <cmath>

namespace crossattn {

void ssru(const float* h, int m, const SsruWeights& w, DecoderState* const* states, int layer, float* gates,
          float* x) {
  const int d = w.gates.in();
  w.gates.apply(h, m, d, gates, 2 * d, Epilogue::kStore);  // [M, 2D]: x_t W | x_t W_f + b_f
  for (int r = 0; r < m; ++r) {
    const float* candidate = gates + static_cast<size_t>(r) * 2 * d;  // x_t W
    const float* forget = candidate + d;                                // x_t W_f + b_f, before the sigmoid
    float* c = states[r]->ssru_cell_layer(layer);                       // [D]: c_{t-1}, then c_t
    float* xr = x + static_cast<size_t>(r) * d;
    for (int i = 0; i < d; ++i) {
      const float f = 1.0f / (1.0f + std::exp(-forget[i]));
      c[i] = f * c[i] + (1.0f - f) * candidate[i];
      xr[i] += std::max(c[i], 0.0f);
    }
  }
}

}  // namespace crossattn
