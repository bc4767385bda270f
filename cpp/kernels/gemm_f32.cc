// fp32 y = x W^T + b on panels of 8 output features (see gemm.h for the layout), and the members of
// PackedLinear that the fp32 and int8 formats share (apply, select_rows, from_packed).
//
// The micro-kernel keeps an [MR rows x 8 NP features] block of y in registers and streams K once:
// per input k it loads NP panel rows (2 NP vectors), broadcasts MR activations and issues
// 2 MR NP multiplies and adds. MR x NP is chosen to fit x86's 16 vector registers, which is also
// what V8 maps WebAssembly's v128 locals to: 4 x 1 (8 accumulators) for blocks of rows,
// 1 x 4 for the single row of batch-1 decoding, where every weight is used once anyway. With
// relaxed SIMD each multiply and add is one f32x4.relaxed_madd (fused where the hardware fuses).
// With InputZeros::kSkip a block multiplies only the inputs where one of its rows is nonzero,
// reading their weights through a list of indices.
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

// A block is gathered when at most this share of its K inputs is nonzero, else multiplied whole:
// reading each input's weights through its index costs more than it saves on denser rows (kernel
// A/B, random zeros: single rows with 70% nonzero inputs 0.84x to 0.95x the whole product's speed
// on the decoder's shapes, with 50% 1.12x to 1.35x; blocks of 4 rows with 94% 0.87x to 0.99x).
// A ReLU's output in the bench model is 31-40% nonzero per block (4 rows in the encoder, one row
// per decoder step).
constexpr float kGatherShare = 0.5f;

// The rows of x as the micro-kernel reads them: a block of kRowBlock rows interleaved as
// [inputs][kRowBlock] (one pointer for every row's activations), a leftover row as [inputs][1].
// With zeros skipped, a block keeps only the inputs where one of its rows is nonzero, gathered,
// with their indices in [0, K).
struct RowBlock {
  int row, rows;        // first row of x; kRowBlock or 1
  const float* values;  // [count][rows]
  const int* inputs;    // [count] input indices, or null for all K in order
  int count;
};

// Sized for M x K values before packing (so that pointers into it stay valid), grown to the largest
// product seen and then reused: no allocation in steady state.
struct RowBuffer {
  std::vector<float> values;
  std::vector<int> inputs;
  size_t used_values = 0, used_inputs = 0;
  std::vector<RowBlock> blocks;
};
thread_local RowBuffer row_buffer;

// Appends rows [row, row + rows) of x (K inputs each) to the buffer, which has room for them.
template <int rows>
void pack_block(const float* x, int ldx, int row, int k, bool skip_zeros, RowBuffer& buf) {
  const float* xb = x + static_cast<size_t>(row) * ldx;
  float* values = buf.values.data() + buf.used_values;
  if (skip_zeros) {
    int* inputs = buf.inputs.data() + buf.used_inputs;
    int count = 0;
    const auto keep = [&](int p) {
      for (int r = 0; r < rows; ++r) values[count * rows + r] = xb[r * ldx + p];
      inputs[count++] = p;
    };
    int p = 0;
    for (; p + 4 <= k; p += 4) {  // four inputs per test
      int lanes = 0;
      for (int r = 0; r < rows; ++r) lanes |= simd::nonzero_lanes(simd::load(xb + r * ldx + p));
      for (; lanes != 0; lanes &= lanes - 1) keep(p + __builtin_ctz(lanes));
    }
    for (; p < k; ++p) {
      bool nonzero = false;
      for (int r = 0; r < rows; ++r) nonzero |= xb[r * ldx + p] != 0.0f;
      if (nonzero) keep(p);
    }
    if (count <= kGatherShare * k) {
      buf.blocks.push_back({row, rows, values, inputs, count});
      buf.used_values += static_cast<size_t>(count) * rows;
      buf.used_inputs += count;
      return;
    }
  }
  if constexpr (rows == 1) {  // one row is already [K][1]
    buf.blocks.push_back({row, 1, xb, nullptr, k});
  } else {
    static_assert(rows == 4, "blocks of rows are transposed 4 x 4");
    int p = 0;
    for (; p + 4 <= k; p += 4) {
      f32x4 r0 = simd::load(xb + p), r1 = simd::load(xb + ldx + p), r2 = simd::load(xb + 2 * ldx + p),
            r3 = simd::load(xb + 3 * ldx + p);
      simd::transpose4(r0, r1, r2, r3);  // r0 = inputs p of the 4 rows, r1 = inputs p + 1, ...
      simd::store(values + p * 4, r0);
      simd::store(values + p * 4 + 4, r1);
      simd::store(values + p * 4 + 8, r2);
      simd::store(values + p * 4 + 12, r3);
    }
    for (; p < k; ++p) {
      for (int r = 0; r < rows; ++r) values[p * rows + r] = xb[r * ldx + p];
    }
    buf.blocks.push_back({row, rows, values, nullptr, k});
    buf.used_values += static_cast<size_t>(k) * rows;
  }
}

// x [M, K] as blocks of kRowBlock rows, then leftover single rows.
const std::vector<RowBlock>& pack_rows(const float* x, int m, int ldx, int k, bool skip_zeros) {
  RowBuffer& buf = row_buffer;
  const size_t room = static_cast<size_t>(m) * k;
  if (buf.values.size() < room) buf.values.resize(room);
  if (skip_zeros && buf.inputs.size() < room) buf.inputs.resize(room);
  buf.used_values = buf.used_inputs = 0;
  buf.blocks.clear();
  int r = 0;
  for (; r + kRowBlock <= m; r += kRowBlock) pack_block<kRowBlock>(x, ldx, r, k, skip_zeros, buf);
  for (; r < m; ++r) pack_block<1>(x, ldx, r, k, skip_zeros, buf);
  return buf.blocks;
}

// y[MR, 8 NP] for MR rows given as xp [count][MR] (a RowBlock's values) and NP consecutive panels
// starting at `panel`, over inputs 0 .. count-1, or over the gathered `inputs` [count] when kGather.
// The activations advance by one pointer step per input and every load sits at a constant offset
// from its pointer: V8 then compiles the loop to loads, broadcasts, multiplies and adds with no
// address arithmetic (for the 4 x 8 block, 27 x86 instructions per input where indexing
// x[r * ldx + p] took 34; the fp32 engine translated 1.07x faster for it, same-process A/B on 200
// FLORES sentences).
template <int MR, int NP, bool kGather>
void block(const float* xp, const int* inputs, int count, const float* panel, size_t panel_stride, const float* bias,
           int n0, int n, float* y, int ldy, Epilogue epilogue) {
  f32x4 acc[MR][2 * NP];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < 2 * NP; ++j) acc[r][j] = simd::splat(0.0f);
  }
  const float* a = xp;
  const float* w = panel;
  // A single row's loop unrolled 4 times: fewer counter and bound instructions per input, 1.07x to
  // 1.11x on the decoder's shapes (same-process kernel A/B). Blocks of rows are not unrolled: clang
  // then loads both inputs' weights first and V8 spills accumulators (0.64x to 0.78x).
#if defined(__clang__)  // g++ takes no template-dependent count
#pragma clang loop unroll_count(MR == 1 ? 4 : 1)
#endif
  for (int t = 0; t < count; ++t, a += MR, w += kPanel) {
    if constexpr (kGather) w = panel + static_cast<size_t>(inputs[t]) * kPanel;
    f32x4 wv[2 * NP];
    for (int q = 0; q < NP; ++q) {
      wv[2 * q] = simd::load(w + q * panel_stride);
      wv[2 * q + 1] = simd::load(w + q * panel_stride + 4);
    }
    for (int r = 0; r < MR; ++r) {
      const f32x4 ar = simd::splat(a[r]);
      for (int j = 0; j < 2 * NP; ++j) acc[r][j] = simd::madd(ar, wv[j], acc[r][j]);
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

// Panels g .. g + count - 1 for one RowBlock of MR rows, kPanelGroup / MR panels at a time (the
// registers hold MR x 8 NP sums; a single row's weights are read once anyway), then one at a time.
template <int MR, bool kGather>
void panels_of_block(const RowBlock& rb, const float* panels, size_t stride, const float* bias, int g, int count,
                     int n, float* y, int ldy, Epilogue e) {
  constexpr int NP = kPanelGroup / MR;
  int q = g;
  if constexpr (NP > 1) {
    for (; q + NP <= g + count; q += NP) {
      block<MR, NP, kGather>(rb.values, rb.inputs, rb.count, panels + q * stride, stride, bias, q * kPanel, n, y, ldy,
                             e);
    }
  }
  for (; q < g + count; ++q) {
    block<MR, 1, kGather>(rb.values, rb.inputs, rb.count, panels + q * stride, stride, bias, q * kPanel, n, y, ldy, e);
  }
}

template <int MR>
void multiply_block(const RowBlock& rb, const float* panels, size_t stride, const float* bias, int g, int count,
                    int n, float* y, int ldy, Epilogue e) {
  if (rb.inputs != nullptr) {
    panels_of_block<MR, true>(rb, panels, stride, bias, g, count, n, y, ldy, e);
  } else {
    panels_of_block<MR, false>(rb, panels, stride, bias, g, count, n, y, ldy, e);
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

// Both int8 products' (gemm_int8.cc, gemm_int8_dot.cc): scales and bias padded with zeros to a
// multiple of 8 features, whole vectors for panels of 8 or of 4.
PackedLinear PackedLinear::from_packed(std::shared_ptr<const int8_t> panels, const float* scale, int out, int in,
                                       const float* bias) {
  PackedLinear l;
  l.in_ = in;
  l.out_ = out;
  l.qpanels_ = std::move(panels);
  const int n_pad = round_up(out, 8);
  l.scale_.assign(n_pad, 0.0f);
  std::copy_n(scale, out, l.scale_.begin());
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

void PackedLinear::apply(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
                         InputZeros zeros) const {
  if (quantized()) {
    apply_int8(x, m, ldx, y, ldy, epilogue, zeros);
  } else {
    apply_f32(x, m, ldx, y, ldy, epilogue, zeros);
  }
}

void PackedLinear::apply_f32(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
                             InputZeros zeros) const {
  const int k = in_, n = out_, panels = round_up(n, kPanel) / kPanel;
  const size_t stride = static_cast<size_t>(k) * kPanel;
  const float* bias = bias_.data();
  // The caller's buffer: helpers only read it.
  const std::vector<RowBlock>& blocks = pack_rows(x, m, ldx, k, zeros == InputZeros::kSkip);
  // Panel groups outside, rows inside: a group's panels stay in L1 while every row block uses them.
  // Threads take disjoint ranges of groups, so each output feature is computed as on one thread.
  const int groups = (panels + kPanelGroup - 1) / kPanelGroup;
  parallel_for(groups, static_cast<int64_t>(m) * k * n, [&](int first, int last) {
    for (int g = first * kPanelGroup; g < std::min(panels, last * kPanelGroup); g += kPanelGroup) {
      const int count = std::min(kPanelGroup, panels - g);
      for (const RowBlock& rb : blocks) {
        float* yb = y + rb.row * ldy;
        const float* w = panels_.data();
        if (rb.rows == kRowBlock) {
          multiply_block<kRowBlock>(rb, w, stride, bias, g, count, n, yb, ldy, epilogue);
        } else {
          multiply_block<1>(rb, w, stride, bias, g, count, n, yb, ldy, epilogue);
        }
      }
    }
  });
}

}  // namespace crossattn
