// The SSRU decoder layer (layers/ssru.h) against a naive reference written from Marian's formula:
// f_t = sigmoid(x_t W_f + b_f), c_t = f_t * c_{t-1} + (1 - f_t) * (x_t W), out_t = relu(c_t), c_0 = 0.
#include "layers/ssru.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace crossattn {
namespace {

// W and W_f [D, D] ([out, in]), b_f [D], with the fused product the layer multiplies by.
struct Cell {
  int d;
  std::vector<float> w, wf, bf;
  SsruWeights packed;
};

// The fused [2D, D] product: W's rows, then W_f's; fp32, or int8 rows with per-row scales.
Cell random_cell(int d, bool int8, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  Cell c{d, std::vector<float>(static_cast<size_t>(d) * d), std::vector<float>(static_cast<size_t>(d) * d),
         std::vector<float>(static_cast<size_t>(d)), {}};
  const float sd = 1.0f / std::sqrt(static_cast<float>(d));
  for (float& v : c.w) v = sd * normal(rng);
  for (float& v : c.wf) v = sd * normal(rng);
  for (float& v : c.bf) v = normal(rng);
  std::vector<float> stacked = c.w, bias(static_cast<size_t>(d), 0.0f);
  stacked.insert(stacked.end(), c.wf.begin(), c.wf.end());
  bias.insert(bias.end(), c.bf.begin(), c.bf.end());
  if (!int8) {
    c.packed.gates = PackedLinear::from_f32(stacked.data(), 2 * d, d, bias.data());
    return c;
  }
  std::vector<int8_t> q(stacked.size());
  std::vector<float> scale(2 * static_cast<size_t>(d));
  for (int r = 0; r < 2 * d; ++r) {
    float top = 0;
    for (int i = 0; i < d; ++i) top = std::max(top, std::abs(stacked[r * d + i]));
    scale[r] = top / 127.0f;
    for (int i = 0; i < d; ++i) {
      q[r * d + i] = static_cast<int8_t>(std::lround(stacked[r * d + i] / scale[r]));
      (r < d ? c.w : c.wf)[(r % d) * d + i] = q[r * d + i] * scale[r];  // the reference uses what int8 stores
    }
  }
  c.packed.gates = PackedLinear::from_int8(q.data(), scale.data(), 2 * d, d, bias.data());
  return c;
}

// One step of the reference in double: returns relu(c_t) and advances c [D].
std::vector<double> reference_step(const Cell& cell, const float* x, std::vector<double>& c) {
  const int d = cell.d;
  std::vector<double> out(d);
  for (int j = 0; j < d; ++j) {
    double xw = 0, xwf = cell.bf[j];
    for (int i = 0; i < d; ++i) {
      xw += static_cast<double>(x[i]) * cell.w[j * d + i];
      xwf += static_cast<double>(x[i]) * cell.wf[j * d + i];
    }
    const double f = 1.0 / (1.0 + std::exp(-xwf));
    c[j] = f * c[j] + (1.0 - f) * xw;
    out[j] = std::max(c[j], 0.0);
  }
  return out;
}

DecoderState ssru_state(int d) {
  DecoderState s;
  s.d_model = d;
  s.ssru_cell.assign(static_cast<size_t>(d), 0.0f);  // one layer, c_0 = 0
  return s;
}

std::vector<float> random_rows(int m, int d, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  std::vector<float> x(static_cast<size_t>(m) * d);
  for (float& v : x) v = normal(rng);
  return x;
}

// Three states advanced together for several steps, one row each per call, against three
// reference cells; the layer adds relu(c_t) to the residual rows it is given.
TEST(Ssru, MatchesNaiveReference) {
  for (const bool int8 : {false, true}) {
    for (const int d : {16, 12}) {
      SCOPED_TRACE(std::string(int8 ? "int8" : "fp32") + ", d " + std::to_string(d));
      std::mt19937 rng(11 + d);
      const Cell cell = random_cell(d, int8, rng);
      DecoderState states[3] = {ssru_state(d), ssru_state(d), ssru_state(d)};
      DecoderState* rows[3] = {&states[0], &states[1], &states[2]};
      std::vector<std::vector<double>> c(3, std::vector<double>(d, 0.0));
      std::vector<float> gates(3 * 2 * static_cast<size_t>(d));
      // int8 quantizes the inputs too (kernels/gemm.h): its error stays within a few hundredths here.
      const double tolerance = int8 ? 0.05 : 1e-4;
      for (int step = 0; step < 6; ++step) {
        const std::vector<float> h = random_rows(3, d, rng), residual = random_rows(3, d, rng);
        std::vector<float> x = residual;
        ssru(h.data(), 3, cell.packed, rows, 0, gates.data(), x.data());
        for (int r = 0; r < 3; ++r) {
          const std::vector<double> want = reference_step(cell, h.data() + r * d, c[r]);
          for (int j = 0; j < d; ++j) {
            EXPECT_NEAR(x[r * d + j] - residual[r * d + j], want[j], tolerance) << "step " << step << " row " << r;
            EXPECT_NEAR(states[r].ssru_cell[j], c[r][j], tolerance) << "cell state, step " << step << " row " << r;
          }
        }
      }
    }
  }
}

// Rows of different states in one call give what each gives alone; forced decoding (T rows of one
// state in one call) gives what T single steps give; assign_prefix carries the cell state.
TEST(Ssru, BatchesForcedDecodingAndBeamCopiesAgreeWithSingleSteps) {
  const int d = 16, t_len = 5;
  std::mt19937 rng(5);
  const Cell cell = random_cell(d, false, rng);
  std::vector<float> gates(t_len * 2 * static_cast<size_t>(d));
  const std::vector<float> warm = random_rows(2, d, rng), h = random_rows(t_len, d, rng);

  // Two states with different histories, then one step each: together and apart.
  DecoderState a = ssru_state(d), b = ssru_state(d), a1 = ssru_state(d), b1 = ssru_state(d);
  std::vector<float> x(2 * static_cast<size_t>(d), 0.0f), sink(static_cast<size_t>(d));
  for (DecoderState* s : {&a, &a1}) ssru(warm.data(), 1, cell.packed, &s, 0, gates.data(), sink.data());
  for (DecoderState* s : {&b, &b1}) ssru(warm.data() + d, 1, cell.packed, &s, 0, gates.data(), sink.data());
  DecoderState* together[2] = {&a, &b};
  ssru(h.data(), 2, cell.packed, together, 0, gates.data(), x.data());
  std::vector<float> xa(static_cast<size_t>(d), 0.0f), xb(static_cast<size_t>(d), 0.0f);
  DecoderState* pa = &a1;
  DecoderState* pb = &b1;
  ssru(h.data(), 1, cell.packed, &pa, 0, gates.data(), xa.data());
  ssru(h.data() + d, 1, cell.packed, &pb, 0, gates.data(), xb.data());
  for (int j = 0; j < d; ++j) {
    EXPECT_NEAR(x[j], xa[j], 1e-6);
    EXPECT_NEAR(x[d + j], xb[j], 1e-6);
    EXPECT_NEAR(a.ssru_cell[j], a1.ssru_cell[j], 1e-6);
    EXPECT_NEAR(b.ssru_cell[j], b1.ssru_cell[j], 1e-6);
  }
  EXPECT_GT(std::abs(x[0] - x[d]) + std::abs(a.ssru_cell[1] - b.ssru_cell[1]), 1e-3) << "the states should differ";

  // Forced decoding of T positions against T single steps.
  DecoderState forced = ssru_state(d), stepped = ssru_state(d);
  std::vector<DecoderState*> same(t_len, &forced);
  std::vector<float> x_forced(t_len * static_cast<size_t>(d), 0.0f), x_stepped(x_forced.size(), 0.0f);
  ssru(h.data(), t_len, cell.packed, same.data(), 0, gates.data(), x_forced.data());
  DecoderState* one = &stepped;
  for (int t = 0; t < t_len; ++t) ssru(h.data() + t * d, 1, cell.packed, &one, 0, gates.data(), x_stepped.data() + t * d);
  for (size_t i = 0; i < x_forced.size(); ++i) EXPECT_NEAR(x_forced[i], x_stepped[i], 1e-6) << "element " << i;

  // A beam slot that takes over another hypothesis continues from its cell state.
  DecoderState slot = ssru_state(d);
  slot.assign_prefix(forced);
  EXPECT_EQ(slot.ssru_cell, forced.ssru_cell);
  EXPECT_EQ(slot.length, forced.length);
}

}  // namespace
}  // namespace crossattn
