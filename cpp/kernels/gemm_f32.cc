// fp32 y = x W^T + b on panels of 8 output features (see gemm.h for the layout).
//
// The micro-kernel keeps an [MR rows x 8 NP features] block of y in registers and streams K once:
// per input k it loads NP panel rows (2 NP vectors), broadcasts MR activations and issues
// 2 MR NP multiplies and adds. MR x NP is chosen to fit x86's 16 vector registers, which is also
// what V8 maps WebAssembly's v128 locals to: 4 x 1 (8 accumulators) for blocks of rows,
// 1 x 4 for the single row of batch-1 decoding, where every weight is used once anyway.
#include <algorithm>
#include <vector>

#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/parallel.h"
#include "kernels/simd128.h"

namespace crossattn {
namespace {

using simd::f32x4;

constexpr int kPanel = 8;        // output features per panel
constexpr int kRowBlock = 4;     // MR for blocks of rows
constexpr int kPanelGroup = 4;   // NP for a single row

int round_up(int n, int to) { return (n + to - 1) / to * to; }

// Blocks of kRowBlock rows of x [M, K] interleaved as [M / kRowBlock][K][kRowBlock], so that the
// micro-kernel reads each block's activations through one pointer. Grows to the largest product
// seen, then is reused: no allocation in steady state.
thread_local std::vector<float> packed_rows;

// Packs the first `blocks` blocks of kRowBlock rows of x into packed_rows; returns its data.
const float* pack_rows(const float* x, int ldx, int blocks, int k) {
  const size_t size = static_cast<size_t>(blocks) * k * kRowBlock;
  if (packed_rows.size() < size) packed_rows.resize(size);
  for (int b = 0; b < blocks; ++b) {
    float* xp = packed_rows.data() + static_cast<size_t>(b) * k * kRowBlock;
    const float* xb = x + static_cast<size_t>(b) * kRowBlock * ldx;
    for (int p = 0; p < k; ++p) {
      for (int r = 0; r < kRowBlock; ++r) xp[p * kRowBlock + r] = xb[r * ldx + p];
    }
  }
  return packed_rows.data();
}

// y[MR, 8 NP] for MR rows given as xp [K][MR] (a block from pack_rows, or one row of x as it is)
// and NP consecutive panels starting at `panel`. The activations and the weights advance by one
// pointer step per input and every load sits at a constant offset from its pointer: V8 then
// compiles the loop to loads, broadcasts, multiplies and adds with no address arithmetic (for the
// 4 x 8 block, 27 x86 instructions per input where indexing x[r * ldx + p] took 34; the fp32
// engine translated 1.07x faster for it, same-process A/B on 200 FLORES sentences).
template <int MR, int NP>
void block(const float* xp, const float* panel, size_t panel_stride, int k, const float* bias, int n0, int n,
           float* y, int ldy, Epilogue epilogue) {
  f32x4 acc[MR][2 * NP];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < 2 * NP; ++j) acc[r][j] = simd::splat(0.0f);
  }
  const float* a = xp;
  const float* w = panel;
  for (int p = 0; p < k; ++p, a += MR, w += kPanel) {
    f32x4 wv[2 * NP];
    for (int q = 0; q < NP; ++q) {
      wv[2 * q] = simd::load(w + q * panel_stride);
      wv[2 * q + 1] = simd::load(w + q * panel_stride + 4);
    }
    for (int r = 0; r < MR; ++r) {
      const f32x4 ar = simd::splat(a[r]);
      for (int j = 0; j < 2 * NP; ++j) acc[r][j] = simd::add(acc[r][j], simd::mul(ar, wv[j]));
    }
  }
  // Unrolled (and `continue`, not `break`), so that acc is indexed by constants and stays in registers.
#pragma GCC unroll 8
  for (int j = 0; j < 2 * NP; ++j) {
    const int col = n0 + 4 * j;
    if (col >= n) continue;
    const f32x4 b = simd::load(bias + col);
#pragma GCC unroll 4
    for (int r = 0; r < MR; ++r) {
      kernels::finish(simd::add(acc[r][j], b), y + r * ldy + col, std::min(4, n - col), epilogue);
    }
  }
}

template <int MR>
void rows_block(const float* xp, const float* panels, size_t panel_stride, int k, const float* bias, int first_panel,
                int panel_count, int n, float* y, int ldy, Epilogue epilogue) {
  for (int q = 0; q < panel_count; ++q) {
    const int p = first_panel + q;
    block<MR, 1>(xp, panels + p * panel_stride, panel_stride, k, bias, p * kPanel, n, y, ldy, epilogue);
  }
}

}  // namespace

PackedLinear PackedLinear::from_f32(const float* w, int out, int in, const float* bias) {
  PackedLinear l;
  l.in_ = in;
  l.out_ = out;
  const int n_pad = round_up(out, kPanel);
  l.panels_.assign(static_cast<size_t>(n_pad) * in, 0.0f);
  for (int j = 0; j < out; ++j) {
    float* panel = l.panels_.data() + static_cast<size_t>(j / kPanel) * in * kPanel;
    for (int k = 0; k < in; ++k) panel[k * kPanel + j % kPanel] = w[static_cast<size_t>(j) * in + k];
  }
  l.bias_.assign(n_pad, 0.0f);
  if (bias != nullptr) std::copy_n(bias, out, l.bias_.begin());
  return l;
}

PackedLinear PackedLinear::select_rows(const std::vector<int>& rows) const {
  if (quantized()) return select_int8_rows(rows);
  const int n = static_cast<int>(rows.size());
  PackedLinear l;
  l.in_ = in_;
  l.out_ = n;
  const size_t stride = static_cast<size_t>(in_) * kPanel;  // floats per panel
  l.panels_.assign(static_cast<size_t>(round_up(n, kPanel)) * in_, 0.0f);
  l.bias_.assign(round_up(n, kPanel), 0.0f);
  // Column rows[i] % 8 of its panel becomes column i % 8 of panel i / 8: a strided copy, no unpacking.
  for (int i = 0; i < n; ++i) {
    const float* from = panels_.data() + static_cast<size_t>(rows[i] / kPanel) * stride + rows[i] % kPanel;
    float* to = l.panels_.data() + static_cast<size_t>(i / kPanel) * stride + i % kPanel;
    for (int k = 0; k < in_; ++k) to[k * kPanel] = from[k * kPanel];
    l.bias_[i] = bias_[rows[i]];
  }
  return l;
}

void PackedLinear::apply(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue) const {
  if (quantized()) {
    apply_int8(x, m, ldx, y, ldy, epilogue);
  } else {
    apply_f32(x, m, ldx, y, ldy, epilogue);
  }
}

void PackedLinear::apply_f32(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue) const {
  const int k = in_, n = out_, panels = round_up(n, kPanel) / kPanel;
  const size_t stride = static_cast<size_t>(k) * kPanel;
  const float* bias = bias_.data();
  // Panel groups outside, rows inside: a group's panels stay in L1 while every row block uses them.
  // Threads take disjoint ranges of groups, so each output feature is computed as on one thread.
  const int groups = (panels + kPanelGroup - 1) / kPanelGroup, blocks = m / kRowBlock;
  const float* packed = pack_rows(x, ldx, blocks, k);  // the caller's buffer: helpers only read it
  parallel_for(groups, static_cast<int64_t>(m) * k * n, [&](int first, int last) {
    for (int g = first * kPanelGroup; g < std::min(panels, last * kPanelGroup); g += kPanelGroup) {
      const int count = std::min(kPanelGroup, panels - g);
      for (int b = 0; b < blocks; ++b) {
        rows_block<kRowBlock>(packed + static_cast<size_t>(b) * k * kRowBlock, panels_.data(), stride, k, bias, g,
                              count, n, y + b * kRowBlock * ldy, ldy, epilogue);
      }
      for (int r = blocks * kRowBlock; r < m; ++r) {
        const float* xr = x + r * ldx;  // one row is already [K][1]
        float* yr = y + r * ldy;
        if (count == kPanelGroup) {
          block<1, kPanelGroup>(xr, panels_.data() + g * stride, stride, k, bias, g * kPanel, n, yr, ldy, epilogue);
        } else {
          rows_block<1>(xr, panels_.data(), stride, k, bias, g, count, n, yr, ldy, epilogue);
        }
      }
    }
  });
}

}  // namespace crossattn
