#include "layers/feed_forward.h"

#include "kernels/ops.h"

namespace crossattn {

void feed_forward(const float* h, int m, const FeedForwardWeights& w, Activation activation, float* hidden, float* x) {
  const int d = w.fc1.in(), d_ff = w.fc1.out();
  if (activation == Activation::kRelu) {
    w.fc1.apply(h, m, d, hidden, d_ff, Epilogue::kRelu);  // [M, F]
  } else {
    w.fc1.apply(h, m, d, hidden, d_ff, Epilogue::kStore);
    activate(hidden, m * d_ff, activation);
  }
  // A ReLU's output is mostly zeros, which the product skips (exactly).
  const InputZeros zeros = activation == Activation::kRelu ? InputZeros::kSkip : InputZeros::kKeep;
  w.fc2.apply(hidden, m, d_ff, x, d, Epilogue::kAccumulate, zeros);  // [M, D]
}

}  // namespace crossattn
