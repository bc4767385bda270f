// int8 y = x W^T + b (see gemm.h for the format).
//
// Weights: W[j, k] = scale_w[j] * Wq[j, k], Wq in [-127, 127], one scale per output feature.
// Activations: each row r of x is quantized on the fly, x[r, k] ~ scale_x[r] * Xq[r, k], with
// scale_x[r] = max_k |x[r, k]| / 127, so y[r, j] = scale_x[r] scale_w[j] sum_k Xq[r, k] Wq[j, k] + b[j].
// The sum is exact in int32 (|products| <= 127^2, K <= 2^17 inputs).
//
// Packing: a panel is 4 features x 4 inputs in 16 bytes, ordered so that the low 8 bytes hold
// inputs (k, k+1) and the high 8 bytes inputs (k+2, k+3), each as [feature 0 | 1 | 2 | 3] pairs.
// One load8x8 widens 8 of them to int16, and one i32x4.dot_i16x8_s (SSE4.1 pmaddwd) against the
// broadcast activation pair (Xq[k], Xq[k+1]) adds both products for all 4 features.
//
// Zero inputs (InputZeros::kSkip, a ReLU's output): when every row has few nonzero input pairs,
// each row is multiplied alone over its nonzero pairs only, gathered with their weights' offsets.
// Exact: the skipped products are zero and int32 sums do not depend on their order.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/parallel.h"
#include "kernels/simd128.h"

namespace crossattn {
namespace {

using simd::i16x8;
using simd::i32x4;

constexpr int kFeatures = 4;    // output features per panel (one i32x4 accumulator)
constexpr int kInputs = 4;      // inputs per 16-byte panel step
constexpr int kRowBlock = 4;    // MR for blocks of rows
constexpr int kPanelGroup = 8;  // panels that stay in L1 while every row block uses them

int round_up(int n, int to) { return (n + to - 1) / to * to; }

// Quantized activations of the rows being multiplied, [M, K rounded up to 4] as int16, and their
// scales [M]. Grows to the largest product seen, then is reused: no allocation in steady state.
struct ActivationBuffer {
  std::vector<int16_t> values;
  std::vector<float> scales;
  // With zeros skipped: per row, its nonzero pairs (Xq[k], Xq[k+1]) as one int32 each and their
  // weights' byte offset in a panel, [M, K/2] of which the first pair_count[r] are used.
  std::vector<int32_t> pairs, pair_offsets;
  std::vector<int> pair_count;
};
thread_local ActivationBuffer activations;

// Quantizes rows x [M, K] into `activations` with per-row symmetric scales.
void quantize_rows(const float* x, int m, int ldx, int k, int k_pad) {
  if (activations.values.size() < static_cast<size_t>(m) * k_pad) activations.values.resize(static_cast<size_t>(m) * k_pad);
  if (activations.scales.size() < static_cast<size_t>(m)) activations.scales.resize(m);
  for (int r = 0; r < m; ++r) {
    const float* xr = x + r * ldx;
    int16_t* q = activations.values.data() + static_cast<size_t>(r) * k_pad;
    simd::f32x4 vmax = simd::splat(0.0f);
    int i = 0;
    for (; i + 4 <= k; i += 4) vmax = simd::max(vmax, simd::abs(simd::load(xr + i)));
    float amax = simd::max_lane(vmax);
    for (; i < k; ++i) amax = std::max(amax, std::fabs(xr[i]));
    const float scale = amax > 0.0f ? amax / 127.0f : 1.0f, inv = 1.0f / scale;
    activations.scales[r] = scale;
    i = 0;
    const simd::f32x4 vinv = simd::splat(inv);
    for (; i + 8 <= k; i += 8) {
      const i32x4 lo = simd::to_i32(simd::round_nearest(simd::mul(simd::load(xr + i), vinv)));
      const i32x4 hi = simd::to_i32(simd::round_nearest(simd::mul(simd::load(xr + i + 4), vinv)));
      simd::store_i16(q + i, simd::narrow_i32(lo, hi));
    }
    for (; i < k; ++i) q[i] = static_cast<int16_t>(std::nearbyint(xr[i] * inv));
    for (; i < k_pad; ++i) q[i] = 0;
  }
}

// A row is gathered when at most this share of its input pairs is nonzero. A gathered pair costs
// more than a dense one per row (its own weight loads and widening, where a block of 4 rows shares
// them). general-en-de's ReLU outputs have 55-69% of their pairs zero in the decoder and 75-84% in
// the encoder (tools/relu-zeros.py, 100 FLORES dev pairs).
constexpr float kGatherShare = 0.5f;

// Lists each row's nonzero input pairs (activations already quantized); true when every row has
// at most kGatherShare of its pairs nonzero, so that the gathered product pays.
bool gather_pairs(int m, int k_pad) {
  const int pairs = k_pad / 2;
  const size_t room = static_cast<size_t>(m) * pairs;
  if (activations.pairs.size() < room) {
    activations.pairs.resize(room);
    activations.pair_offsets.resize(room);
  }
  if (activations.pair_count.size() < static_cast<size_t>(m)) activations.pair_count.resize(m);
  bool sparse = true;
  for (int r = 0; r < m && sparse; ++r) {
    const int16_t* q = activations.values.data() + static_cast<size_t>(r) * k_pad;
    int32_t* values = activations.pairs.data() + static_cast<size_t>(r) * pairs;
    int32_t* offsets = activations.pair_offsets.data() + static_cast<size_t>(r) * pairs;
    int count = 0;
    for (int p = 0; p < pairs; ++p) {
      int32_t pair;
      std::memcpy(&pair, q + 2 * p, sizeof pair);
      if (pair == 0) continue;
      values[count] = pair;
      offsets[count++] = 8 * p;  // panel_offset(2p): pair (k, k+1) of a step at 8 * (k / 2) bytes
    }
    activations.pair_count[r] = count;
    sparse = count <= kGatherShare * pairs;
  }
  return sparse;
}

inline i32x4 splat_pair(const int16_t* q) {
  int32_t pair;
  std::memcpy(&pair, q, sizeof pair);
  return simd::splat_i32(pair);
}

// Where input k of a feature lies in its panels, from the feature's first byte (as packed below).
size_t panel_offset(int k) { return static_cast<size_t>(k / kInputs) * 16 + (k % kInputs) / 2 * 8 + k % 2; }

// y[MR, 4 NP] = epilogue(x_scale[r] w_scale[j] acc[r][q] + b[j]) for features j from n0 (those < n).
// Always inlined: left to clang, store<1, 4> stayed a call that took acc by reference, so each
// block of the single-row product wrote its accumulators to the stack in linear memory and read
// them back (2.4% of a whole int8 translation's wasm profile, node --cpu-prof, 2026-11-27). Inlined,
// the 1 x 256 x 16000 product ran 30-42 GOP/s before and 48 GOP/s after (bench/kernels.cc --quick,
// wasm, same host, alternating runs).
template <int MR, int NP>
[[gnu::always_inline]] inline void store(const i32x4 (&acc)[MR][NP], const float* x_scale, const float* w_scale,
                                         const float* bias, int n0, int n, float* y, int ldy, Epilogue epilogue) {
  // Unrolled (and `continue`, not `break`), so that acc is indexed by constants and stays in registers.
#pragma GCC unroll 4
  for (int q = 0; q < NP; ++q) {
    const int col = n0 + kFeatures * q;
    if (col >= n) continue;
    const simd::f32x4 ws = simd::load(w_scale + col), b = simd::load(bias + col);
#pragma GCC unroll 4
    for (int r = 0; r < MR; ++r) {
      const simd::f32x4 v = simd::add(simd::mul(simd::to_f32(acc[r][q]), simd::mul(ws, simd::splat(x_scale[r]))), b);
      kernels::finish(v, y + r * ldy + col, std::min(kFeatures, n - col), epilogue);
    }
  }
}

// y[MR, 4 NP] for MR quantized rows and NP consecutive panels starting at `panel`.
template <int MR, int NP>
void block(const int16_t* xq, int k_pad, const float* x_scale, const int8_t* panel, size_t panel_stride,
           const float* w_scale, const float* bias, int n0, int n, float* y, int ldy, Epilogue epilogue) {
  i32x4 acc[MR][NP];
  for (int r = 0; r < MR; ++r) {
    for (int q = 0; q < NP; ++q) acc[r][q] = simd::zero_i32();
  }
  if constexpr (MR == 1) {
    // One row: both halves of each panel step per pass, so that the loop runs K / 4 times.
    for (int k = 0; k < k_pad; k += kInputs) {
      i16x8 lo[NP], hi[NP];
      for (int q = 0; q < NP; ++q) {
        const int8_t* p = panel + q * panel_stride + k * kFeatures;
        lo[q] = simd::load_i8x8(p);
        hi[q] = simd::load_i8x8(p + 8);
      }
      const i32x4 a01 = splat_pair(xq + k), a23 = splat_pair(xq + k + 2);
      for (int q = 0; q < NP; ++q) {
        acc[0][q] = simd::add_i32(acc[0][q], simd::add_i32(simd::dot_i16(lo[q], a01), simd::dot_i16(hi[q], a23)));
      }
    }
  } else {
    // Blocks of rows: one input pair (k, k+1) per pass, the low or the high half of a panel step,
    // so that only NP widened weight vectors are live beside the MR x NP accumulators. With both
    // halves live (2 NP) V8 ran out of x64's vector registers and spilled accumulators every pass
    // (read from `node --print-wasm-code`); same-process A/B on the encoder's shapes (M = 20):
    // 1.02x to 1.09x.
    for (int k = 0; k < k_pad; k += 2) {
      i16x8 w[NP];
      for (int q = 0; q < NP; ++q) w[q] = simd::load_i8x8(panel + q * panel_stride + panel_offset(k));
      for (int r = 0; r < MR; ++r) {
        const i32x4 a = splat_pair(xq + r * k_pad + k);
        for (int q = 0; q < NP; ++q) acc[r][q] = simd::add_i32(acc[r][q], simd::dot_i16(w[q], a));
      }
    }
  }
  store<MR, NP>(acc, x_scale, w_scale, bias, n0, n, y, ldy, epilogue);
}

// y[1, 4 NP] for one row over its gathered nonzero input pairs: values [count] (Xq[k], Xq[k+1])
// and offsets [count] of their weights in a panel, for NP consecutive panels starting at `panel`.
template <int NP>
void gathered_block(const int32_t* values, const int32_t* offsets, int count, const float* x_scale,
                    const int8_t* panel, size_t panel_stride, const float* w_scale, const float* bias, int n0, int n,
                    float* y, Epilogue epilogue) {
  i32x4 acc[1][NP];
  for (int q = 0; q < NP; ++q) acc[0][q] = simd::zero_i32();
  for (int t = 0; t < count; ++t) {
    const i32x4 a = simd::splat_i32(values[t]);
    const int8_t* w = panel + offsets[t];
    for (int q = 0; q < NP; ++q) acc[0][q] = simd::add_i32(acc[0][q], simd::dot_i16(simd::load_i8x8(w + q * panel_stride), a));
  }
  store<1, NP>(acc, x_scale, w_scale, bias, n0, n, y, 0, epilogue);
}

// Panels g .. g+count-1 for MR rows, NP panels at a time: 4 for one row, 2 for a block of rows,
// so that the accumulators and the widened weights fit in 16 vector registers.
template <int MR>
void row_block(const int16_t* xq, int k_pad, const float* x_scale, const int8_t* panels, size_t stride,
               const float* w_scale, const float* bias, int g, int count, int n, float* y, int ldy, Epilogue e) {
  constexpr int NP = MR == 1 ? 4 : 2;
  int q = g;
  for (; q + NP <= g + count; q += NP) {
    block<MR, NP>(xq, k_pad, x_scale, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y, ldy, e);
  }
  for (; q < g + count; ++q) {
    block<MR, 1>(xq, k_pad, x_scale, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y, ldy, e);
  }
}

// One row over its `count` gathered pairs (values, offsets as gather_pairs lists them), panels
// g .. g + count_panels - 1, four at a time.
void gathered_row(const int32_t* values, const int32_t* offsets, int count, const float* x_scale, const int8_t* panels,
                  size_t stride, const float* w_scale, const float* bias, int g, int count_panels, int n, float* y,
                  Epilogue e) {
  int q = g;
  for (; q + 4 <= g + count_panels; q += 4) {
    gathered_block<4>(values, offsets, count, x_scale, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y, e);
  }
  for (; q < g + count_panels; ++q) {
    gathered_block<1>(values, offsets, count, x_scale, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y, e);
  }
}

}  // namespace

size_t PackedLinear::int8_panel_bytes(int out, int in) {
  return static_cast<size_t>(round_up(out, kFeatures)) * round_up(in, kInputs);
}

const int8_t* PackedLinear::int8_row_start(int j) const {
  const size_t stride = static_cast<size_t>(round_up(in_, kInputs)) * kFeatures;
  return qpanels_.get() + (j / kFeatures) * stride + (j % kFeatures) * 2;
}

void PackedLinear::int8_row(int j, int8_t* out) const {
  const int8_t* start = int8_row_start(j);
  for (int k = 0; k < in_; ++k) out[k] = start[panel_offset(k)];
}

void PackedLinear::dequantize_row(int j, float factor, float* out) const {
  const int8_t* start = int8_row_start(j);
  const float s = scale_[j] * factor;
  for (int k = 0; k < in_; ++k) out[k] = static_cast<float>(start[panel_offset(k)]) * s;
}

PackedLinear PackedLinear::select_int8_rows(const std::vector<int>& rows) const {
  const int n = static_cast<int>(rows.size()), steps = round_up(in_, kInputs) / kInputs;
  const size_t stride = static_cast<size_t>(steps) * 16;  // bytes per panel
  std::shared_ptr<int8_t> panels(new int8_t[int8_panel_bytes(n, in_)](), std::default_delete<int8_t[]>());
  std::vector<float> scale(n), bias(n);
  // Each 16-byte step holds a feature's inputs (k, k+1) at 2f and (k+2, k+3) at 8 + 2f: copy those
  // two pairs from feature rows[i]'s slot to feature i's, step by step (zero padding included).
  for (int i = 0; i < n; ++i) {
    const int8_t* from = int8_row_start(rows[i]);
    int8_t* to = panels.get() + (i / kFeatures) * stride + (i % kFeatures) * 2;
    for (int s = 0; s < steps; ++s, from += 16, to += 16) {
      std::memcpy(to, from, 2);
      std::memcpy(to + 8, from + 8, 2);
    }
    scale[i] = scale_[rows[i]];
    bias[i] = bias_[rows[i]];
  }
  return from_int8_panels(std::move(panels), scale.data(), n, in_, bias.data());
}

PackedLinear PackedLinear::from_int8_panels(std::shared_ptr<const int8_t> panels, const float* scale, int out, int in,
                                            const float* bias) {
  PackedLinear l;
  l.in_ = in;
  l.out_ = out;
  l.qpanels_ = std::move(panels);
  const int n_pad = round_up(out, kFeatures);
  l.scale_.assign(n_pad, 0.0f);
  std::copy_n(scale, out, l.scale_.begin());
  l.bias_.assign(n_pad, 0.0f);
  if (bias != nullptr) std::copy_n(bias, out, l.bias_.begin());
  return l;
}

PackedLinear PackedLinear::from_int8(const int8_t* wq, const float* scale, int out, int in, const float* bias) {
  const int k_pad = round_up(in, kInputs);
  const size_t stride = static_cast<size_t>(k_pad) * kFeatures;
  std::shared_ptr<int8_t> panels(new int8_t[int8_panel_bytes(out, in)](), std::default_delete<int8_t[]>());
  static_assert(kInputs == 4 && kFeatures == 4, "the packing below writes 4 inputs of 4 features per step");
  for (int j = 0; j < out; ++j) {
    // Step k/4 holds 16 bytes; inputs k%4 in {0,1} go to the low half, {2,3} to the high half;
    // within a half, feature f's pair sits at 2f. One step of this row per iteration.
    int8_t* panel = panels.get() + (j / kFeatures) * stride + (j % kFeatures) * 2;
    const int8_t* row = wq + static_cast<size_t>(j) * in;
    int k = 0;
    for (; k + kInputs <= in; k += kInputs, panel += 16) {
      panel[0] = row[k];
      panel[1] = row[k + 1];
      panel[8] = row[k + 2];
      panel[9] = row[k + 3];
    }
    for (; k < in; ++k) panel[(k % kInputs) / 2 * 8 + k % 2] = row[k];  // a last, partial step
  }
  return from_int8_panels(std::move(panels), scale, out, in, bias);
}

void PackedLinear::apply_int8(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
                              InputZeros zeros) const {
  const int k_pad = round_up(in_, kInputs), panels = round_up(out_, kFeatures) / kFeatures;
  const size_t stride = static_cast<size_t>(k_pad) * kFeatures;
  quantize_rows(x, m, ldx, in_, k_pad);
  const bool gathered = zeros == InputZeros::kSkip && gather_pairs(m, k_pad);
  // The caller's buffers: helpers read them, never write them.
  const int16_t* xq = activations.values.data();
  const float* xs = activations.scales.data();
  const int32_t *pairs = activations.pairs.data(), *offsets = activations.pair_offsets.data();
  const int* pair_count = activations.pair_count.data();
  // Threads take disjoint ranges of panel groups, so each output feature is computed as on one thread.
  const int groups = (panels + kPanelGroup - 1) / kPanelGroup;
  parallel_for(groups, static_cast<int64_t>(m) * in_ * out_, [&](int first, int last) {
    for (int g = first * kPanelGroup; g < std::min(panels, last * kPanelGroup); g += kPanelGroup) {
      const int count = std::min(kPanelGroup, panels - g);
      if (gathered) {
        for (int r = 0; r < m; ++r) {
          const size_t at = static_cast<size_t>(r) * (k_pad / 2);
          gathered_row(pairs + at, offsets + at, pair_count[r], xs + r, qpanels_.get(), stride, scale_.data(),
                       bias_.data(), g, count, out_, y + r * ldy, epilogue);
        }
        continue;
      }
      int r = 0;
      for (; r + kRowBlock <= m; r += kRowBlock) {
        row_block<kRowBlock>(xq + r * k_pad, k_pad, xs + r, qpanels_.get(), stride, scale_.data(), bias_.data(), g,
                             count, out_, y + r * ldy, ldy, epilogue);
      }
      for (; r < m; ++r) {
        row_block<1>(xq + r * k_pad, k_pad, xs + r, qpanels_.get(), stride, scale_.data(), bias_.data(), g, count,
                     out_, y + r * ldy, ldy, epilogue);
      }
    }
  });
}

}  // namespace crossattn
