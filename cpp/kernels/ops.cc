#include "kernels/ops.h"

#include <cmath>

namespace crossattn {

void linear(const Matrix& x, const Linear& layer, Matrix& y) {
  y.noalias() = x * layer.weight_t;  // [L, in] x [in, out]
  y.rowwise() += layer.bias;
}

void layer_norm(Matrix& x, const LayerNorm& norm, float eps) {
  const float inv_d = 1.0f / static_cast<float>(x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    auto row = x.row(r);
    const float mean = row.sum() * inv_d;
    row.array() -= mean;
    const float var = row.squaredNorm() * inv_d;
    row *= 1.0f / std::sqrt(var + eps);
    row = row.cwiseProduct(norm.gamma) + norm.beta;
  }
}

void softmax_rows(Eigen::Ref<Matrix> scores) {
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    auto row = scores.row(r).array();
    row = (row - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

void activate(Matrix& x, Activation activation) {
  auto a = x.array();
  switch (activation) {
    case Activation::kRelu:
      a = a.max(0.0f);
      break;
    case Activation::kGelu:
      a = a.unaryExpr([](float v) { return 0.5f * v * (1.0f + std::erf(v * static_cast<float>(M_SQRT1_2))); });
      break;
    case Activation::kSwish:
      a = a / (1.0f + (-a).exp());
      break;
  }
}

void add_sinusoidal_positions(Matrix& x, int first_position, SinusoidalLayout layout) {
  const int d = static_cast<int>(x.cols()), half = d / 2;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float pos = static_cast<float>(first_position + r);
    for (int i = 0; i < half; ++i) {
      // Same float32 arithmetic as models/transformer.py: exp(2i * -ln(10000) / d).
      const float inv_freq = std::exp(static_cast<float>(2 * i) * (-std::log(10000.0f) / static_cast<float>(d)));
      const float angle = pos * inv_freq;
      const int sin_col = layout == SinusoidalLayout::kInterleaved ? 2 * i : i;
      const int cos_col = layout == SinusoidalLayout::kInterleaved ? 2 * i + 1 : half + i;
      x(r, sin_col) += std::sin(angle);
      x(r, cos_col) += std::cos(angle);
    }
  }
}

}  // namespace crossattn
