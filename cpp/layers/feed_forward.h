// Position-wise feed-forward network (Vaswani et al. 2017, eq. 2): fc2(activation(fc1(x))).
// Legend: M rows, D d_model, F d_ff.
#pragma once

#include "model/config.h"
#include "model/weights.h"

namespace crossattn {

/// x [M, D] += fc2(activation(fc1(h))) for h [M, D]; hidden [M, F] is scratch.
void feed_forward(const float* h, int m, const FeedForwardWeights& w, Activation activation, float* hidden, float* x);

}  // namespace crossattn
