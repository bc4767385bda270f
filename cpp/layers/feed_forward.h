// Position-wise feed-forward network (Vaswani et al. 2017, eq. 2): fc2(activation(fc1(x))).
#pragma once

#include "model/config.h"
#include "model/weights.h"

namespace crossattn {

/// x [L, D] -> out [L, D] through a hidden layer of d_ff units.
void feed_forward(const Matrix& x, const FeedForwardWeights& w, Activation activation, Matrix& out);

}  // namespace crossattn
