// Row-wise operations on activations. Legend: L rows (tokens), D d_model, N output features.
#pragma once

#include "model/config.h"
#include "model/weights.h"

namespace crossattn {

/// y = x W^T + b for x [L, in]; returns [L, out].
void linear(const Matrix& x, const Linear& layer, Matrix& y);

/// Layer normalization (Ba et al. 2016) of each row of x [L, D] in place, with biased variance
/// and eps inside the square root, as torch.nn.LayerNorm.
void layer_norm(Matrix& x, const LayerNorm& norm, float eps);

/// Numerically stable softmax of each row in place (subtracts the row maximum first).
void softmax_rows(Eigen::Ref<Matrix> scores);

/// relu, gelu (erf form, as torch.nn.functional.gelu) or swish (x * sigmoid(x)) in place.
void activate(Matrix& x, Activation activation);

/// Adds sinusoidal position encodings (Vaswani et al. 2017, section 3.5) for positions
/// first_position .. first_position + L - 1 to x [L, D].
void add_sinusoidal_positions(Matrix& x, int first_position, SinusoidalLayout layout);

}  // namespace crossattn
