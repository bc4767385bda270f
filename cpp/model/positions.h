// Sinusoidal position encodings (Vaswani et al. 2017, section 3.5) in the three layouts our models,
// HF MarianMT (OPUS-MT) checkpoints and native Marian (Bergamot) use.
#pragma once

#include <vector>

#include "model/config.h"

namespace crossattn {

/// The encodings of positions 0 .. n-1, [n, d] row-major, d even; in the same float32 arithmetic as
/// models/transformer.py's sinusoidal_positions. With i in [0, d/2):
///   kInterleaved  sin(pos w_i) at 2i, cos at 2i+1, w_i = exp(2i * -ln(10000) / d)   (the paper)
///   kHalves       sin(pos w_i) at i, cos at d/2+i, the same w_i                      (HF MarianMT)
///   kMarian       sin(pos w_i) at i, cos at d/2+i, w_i = exp(i * -ln(10000) / (d/2 - 1))
///                 (native Marian: src/graph/node_initializers.cpp, sinusoidalPositionEmbeddings)
/// kMarian needs d >= 4 (ModelConfig::from_json checks it).
std::vector<float> sinusoid_table(int n, int d, SinusoidalLayout layout);

}  // namespace crossattn
