#include "layers/feed_forward.h"

#include "kernels/ops.h"

namespace crossattn {

void feed_forward(const Matrix& x, const FeedForwardWeights& w, Activation activation, Matrix& out) {
  Matrix hidden;
  linear(x, w.fc1, hidden);  // [L, d_ff]
  activate(hidden, activation);
  linear(hidden, w.fc2, out);  // [L, D]
}

}  // namespace crossattn
