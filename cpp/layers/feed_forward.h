// Position-wise feed-forward network (Vaswani et al. 2017, eq. 2): fc2(activation(fc1(x))).
// Legend: M rows, D d_model, F d_ff.
#pragma once

#include "kernels/gemm.h"
#include "kernels/ops.h"

namespace crossattn {

/// The parameters of one feed-forward network, packed for the kernels at load (model/weights.cc).
struct FeedForwardWeights {
  PackedLinear fc1;  // [D] -> [d_ff]
  PackedLinear fc2;  // [d_ff] -> [D]
};

/// x [M, D] += fc2(activation(fc1(h))) for h [M, D]; hidden [M, F] is scratch.
void feed_forward(const float* h, int m, const FeedForwardWeights& w, Activation activation, float* hidden, float* x);

}  // namespace crossattn
