// int8 y = x W^T + b (see gemm.h for the format) on SIMD128; with relaxed SIMD, gemm_int8_dot.cc.
//
// Weights: W[j, k] = scale_w[j] * Wq[j, k], Wq in [-127, 127], one scale per output feature.
// Activations: each row r of x is quantized on the fly, x[r, k] ~ scale_x[r] * Xq[r, k], with
// scale_x[r] = max_k |x[r, k]| / 127, so y[r, j] = scale_x[r] scale_w[j] sum_k Xq[r, k] Wq[j, k] + b[j].
//
// Packing: SIMD128 has no int8 product, so each int8 weight must reach an int16 lane before
// i32x4.dot_i16x8_s (SSE4.1 pmaddwd) multiplies it. Widening 8 weights per instruction (load8x8_s,
// pmovsxbw) made the widening, not the products, the single-row kernel's limit. Here a 16-byte
// chunk is read as eight int16 lanes that each hold two features' weights for the same input:
// lane 2i + e (i in 0..3, e in 0..1) holds, for input k + e, feature i's weight biased to an
// unsigned byte in its low byte, u = Wq + 128, and feature 4 + i's weight in its high byte. One
// dot_i16x8_s of the lanes against the broadcast pair (Xq[k], Xq[k+1]) then gives, per int32 lane i,
//   T_i = sum (u[i] + 256 Wq[4 + i]) Xq,
// and one more of the lanes shifted right by 8 (the high bytes, sign-extended) gives
//   H_i = sum Wq[4 + i] Xq,
// so that sum Wq[i] Xq = T_i - 256 H_i - 128 sum Xq: 16 products per load, one shift and two dots,
// where widening cost two widening loads. T may wrap in int32 (K = 1024 inputs reach 2^32); the
// subtraction then wraps back, and the result is exact because the true sum fits in int32
// (|products| <= 127^2, K <= 2^17 inputs). Against a kernel that widens both operands to i16, in wasm
// on an AMD EPYC (2026-11-27): bench/kernels.cc's single-row shapes 52-61 GOP/s against 44-55, its
// decode step 0.316 ms against 0.375; whole greedy translations 1.16-1.27x faster with identical
// outputs (bench/ab.js, general-en-de and general-de-en, whole output layer). Blocks of rows (the
// encoder, a beam) run at the dot product's peak either way.
//
// A panel holds 8 features (j = 8p .. 8p+7) in chunks of 16 bytes, one per input pair (k, k+1):
// chunk kk at byte 16 kk holds lane 2i + e = bytes (4i + 2e, 4i + 2e + 1) = (Wq[8p+i][2kk+e] + 128,
// Wq[8p+4+i][2kk+e]), inputs padded to a multiple of 4. Model files keep the layout of
// docs/model-format.md ("int8 kernel layout", 4 features by 4 inputs); from_int8_panels converts
// it with two byte shuffles per 32 bytes at load, from_int8_panels_in_place where it lies.
//
// Zero inputs (InputZeros::kSkip, a ReLU's output): when every row has few nonzero input pairs,
// each row is multiplied alone over its nonzero pairs only, gathered with their weights' offsets.
// Exact: the skipped products are zero and int32 sums do not depend on their order.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/int8_rows.h"
#include "kernels/parallel.h"
#include "kernels/simd128.h"

// With relaxed SIMD the int8 products are gemm_int8_dot.cc's.
#if !defined(CROSSATTN_RELAXED_SIMD)

namespace crossattn {
namespace {

using simd::i16x8;
using simd::i32x4;

constexpr int kFeatures = 8;    // output features per panel (two i32x4 accumulators)
constexpr int kInputs = 4;      // inputs are padded to a multiple of this (the file layout's step)
constexpr int kChunk = 16;      // bytes per input pair of a panel
constexpr int kRowBlock = 4;    // MR for blocks of rows
constexpr int kPanelGroup = 4;  // panels that stay in L1 while every row block uses them

int round_up(int n, int to) { return (n + to - 1) / to * to; }

// Bytes of one panel: a chunk per input pair.
size_t panel_stride(int in) { return static_cast<size_t>(round_up(in, kInputs)) / 2 * kChunk; }

// Bytes of the panels of `out` features: ceil(out/8) * ceil(in/4) * 32.
size_t panel_bytes(int out, int in) { return static_cast<size_t>(round_up(out, kFeatures) / kFeatures) * panel_stride(in); }

// Where Wq[j, k] lies in the panels, and what its byte holds: Wq + 128 (top bit flipped) for the
// first four features of a panel, Wq itself for the last four.
size_t weight_offset(int j, int k, size_t stride) {
  const int i = j % kFeatures % 4, high = j % kFeatures / 4;
  return static_cast<size_t>(j / kFeatures) * stride + static_cast<size_t>(k / 2) * kChunk + 4 * i + 2 * (k % 2) + high;
}
int8_t flip(int j) { return j % kFeatures < 4 ? static_cast<int8_t>(-128) : 0; }

// Quantized activations of the rows being multiplied, [M, K rounded up to 4] as int16, their
// scales [M] and 128 times their sums [M] (the correction of the biased low bytes). Grows to the
// largest product seen, then is reused: no allocation in steady state.
struct ActivationBuffer {
  std::vector<int16_t> values;
  std::vector<float> scales;
  std::vector<int32_t> bias_sums;
  // With zeros skipped: per row, its nonzero pairs (Xq[k], Xq[k+1]) as one int32 each and their
  // chunk's byte offset in a panel, [M, K/2] of which the first pair_count[r] are used.
  std::vector<int32_t> pairs, pair_offsets;
  std::vector<int> pair_count;
};
thread_local ActivationBuffer activations;

// Quantizes rows x [M, K] into `activations` with per-row symmetric scales.
void quantize_rows(const float* x, int m, int ldx, int k, int k_pad) {
  if (activations.values.size() < static_cast<size_t>(m) * k_pad) activations.values.resize(static_cast<size_t>(m) * k_pad);
  if (activations.scales.size() < static_cast<size_t>(m)) {
    activations.scales.resize(m);
    activations.bias_sums.resize(m);
  }
  for (int r = 0; r < m; ++r) {
    const kernels::QuantizedRow row =
        kernels::quantize_row(x + r * ldx, k, k_pad, activations.values.data() + static_cast<size_t>(r) * k_pad);
    activations.scales[r] = row.scale;
    activations.bias_sums[r] = 128 * row.sum;
  }
}

// A row is gathered when at most this share of its input pairs is nonzero. A gathered pair costs
// more than a dense one per row (its own weight loads and shifts, where a block of 4 rows shares
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
      values[count] = pair;  // without a branch: a ReLU's zeros fall at random
      offsets[count] = kChunk * p;  // chunk p holds the pair (2p, 2p + 1)
      count += pair != 0;
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

// Adds one chunk's products with the broadcast pair a: t += T, h += H (the header's sums).
[[gnu::always_inline]] inline void multiply_chunk(i16x8 chunk, i32x4 a, i32x4& t, i32x4& h) {
  t = simd::add_i32(t, simd::dot_i16(chunk, a));
  h = simd::add_i32(h, simd::dot_i16(simd::high_bytes_i16(chunk), a));
}

// y[MR, 8 NP] = epilogue(x_scale[r] w_scale[j] sum_k Xq[r, k] Wq[j, k] + b[j]) for features j from
// n0 (those < n), from the sums t and h of each row and panel and the rows' bias_sums.
// Always inlined: left to clang, store<1, 4> stayed a call that took acc by reference, so each
// block of the single-row product wrote its accumulators to the stack in linear memory and read
// them back (2.4% of a whole int8 translation's wasm profile, node --cpu-prof, 2026-11-27).
template <int MR, int NP>
[[gnu::always_inline]] inline void store(const i32x4 (&t)[MR][NP], const i32x4 (&h)[MR][NP], const float* x_scale,
                                         const int32_t* bias_sums, const float* w_scale, const float* bias, int n0,
                                         int n, float* y, int ldy, Epilogue epilogue) {
  // Unrolled (and `continue`, not `break`), so that the sums are indexed by constants and stay in registers.
#pragma GCC unroll 4
  for (int q = 0; q < NP; ++q) {
#pragma GCC unroll 2
    for (int half = 0; half < 2; ++half) {
      const int col = n0 + kFeatures * q + 4 * half;
      if (col >= n) continue;
      const simd::f32x4 ws = simd::load(w_scale + col), b = simd::load(bias + col);
#pragma GCC unroll 4
      for (int r = 0; r < MR; ++r) {
        const i32x4 sum = half == 1 ? h[r][q]
                                    : simd::sub_i32(simd::sub_i32(t[r][q], simd::shift_left_i32(h[r][q], 8)),
                                                    simd::splat_i32(bias_sums[r]));
        const simd::f32x4 v = simd::add(simd::mul(simd::to_f32(sum), simd::mul(ws, simd::splat(x_scale[r]))), b);
        kernels::finish(v, y + r * ldy + col, std::min(4, n - col), epilogue);
      }
    }
  }
}

// y[MR, 8 NP] for MR quantized rows and NP consecutive panels starting at `panel`: one load and one
// shift per chunk, shared by the MR rows.
template <int MR, int NP>
void block(const int16_t* xq, int k_pad, const float* x_scale, const int32_t* bias_sums, const int8_t* panel,
           size_t stride, const float* w_scale, const float* bias, int n0, int n, float* y, int ldy, Epilogue epilogue) {
  i32x4 t[MR][NP], h[MR][NP];
  for (int r = 0; r < MR; ++r) {
    for (int q = 0; q < NP; ++q) t[r][q] = h[r][q] = simd::zero_i32();
  }
  if constexpr (MR == 1) {
    // One row: each chunk is loaded, used and dropped in turn, so that only the 2 NP sums stay live.
    for (int k = 0; k < k_pad; k += 2) {
      const i32x4 a = splat_pair(xq + k);
      for (int q = 0; q < NP; ++q) multiply_chunk(simd::load_i16x8(panel + q * stride + k / 2 * kChunk), a, t[0][q], h[0][q]);
    }
    return store<MR, NP>(t, h, x_scale, bias_sums, w_scale, bias, n0, n, y, ldy, epilogue);
  }
  for (int k = 0; k < k_pad; k += 2) {
    i16x8 chunk[NP], high[NP];
    for (int q = 0; q < NP; ++q) {
      chunk[q] = simd::load_i16x8(panel + q * stride + k / 2 * kChunk);
      high[q] = simd::high_bytes_i16(chunk[q]);
    }
    for (int r = 0; r < MR; ++r) {
      const i32x4 a = splat_pair(xq + r * k_pad + k);
      for (int q = 0; q < NP; ++q) {
        t[r][q] = simd::add_i32(t[r][q], simd::dot_i16(chunk[q], a));
        h[r][q] = simd::add_i32(h[r][q], simd::dot_i16(high[q], a));
      }
    }
  }
  store<MR, NP>(t, h, x_scale, bias_sums, w_scale, bias, n0, n, y, ldy, epilogue);
}

// y[1, 8 NP] for one row over its gathered nonzero input pairs: values [count] (Xq[k], Xq[k+1])
// and offsets [count] of their chunks in a panel, for NP consecutive panels starting at `panel`.
template <int NP>
void gathered_block(const int32_t* values, const int32_t* offsets, int count, const float* x_scale,
                    const int32_t* bias_sum, const int8_t* panel, size_t stride, const float* w_scale,
                    const float* bias, int n0, int n, float* y, Epilogue epilogue) {
  i32x4 t[1][NP], h[1][NP];
  for (int q = 0; q < NP; ++q) t[0][q] = h[0][q] = simd::zero_i32();
  for (int c = 0; c < count; ++c) {
    const i32x4 a = simd::splat_i32(values[c]);
    const int8_t* w = panel + offsets[c];
    for (int q = 0; q < NP; ++q) multiply_chunk(simd::load_i16x8(w + q * stride), a, t[0][q], h[0][q]);
  }
  store<1, NP>(t, h, x_scale, bias_sum, w_scale, bias, n0, n, y, 0, epilogue);
}

// Panels g .. g+count-1 for MR rows, NP panels at a time: 4 for one row, 1 for a block of rows, so
// that the sums (2 MR NP registers) and the chunks fit in 16 vector registers.
template <int MR>
void row_block(const int16_t* xq, int k_pad, const float* x_scale, const int32_t* bias_sums, const int8_t* panels,
               size_t stride, const float* w_scale, const float* bias, int g, int count, int n, float* y, int ldy,
               Epilogue e) {
  constexpr int NP = MR == 1 ? 4 : MR == 2 ? 2 : 1;
  int q = g;
  for (; q + NP <= g + count; q += NP) {
    block<MR, NP>(xq, k_pad, x_scale, bias_sums, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y,
                  ldy, e);
  }
  for (; q < g + count; ++q) {
    block<MR, 1>(xq, k_pad, x_scale, bias_sums, panels + q * stride, stride, w_scale, bias, q * kFeatures, n, y, ldy,
                 e);
  }
}

// row_block<b> for a block of b rows: blocks of kRowBlock rows, the last holding what remains (so a
// beam of 2 or 3 reads the weights once, not once a row).
constexpr decltype(&row_block<1>) kRowBlocks[] = {&row_block<1>, &row_block<2>, &row_block<3>, &row_block<4>};
static_assert(std::size(kRowBlocks) == kRowBlock, "one kernel for each block size");

// One row over its `count` gathered pairs (values, offsets as gather_pairs lists them), panels
// g .. g + count_panels - 1, four at a time.
void gathered_row(const int32_t* values, const int32_t* offsets, int count, const float* x_scale,
                  const int32_t* bias_sum, const int8_t* panels, size_t stride, const float* w_scale,
                  const float* bias, int g, int count_panels, int n, float* y, Epilogue e) {
  int q = g;
  for (; q + 4 <= g + count_panels; q += 4) {
    gathered_block<4>(values, offsets, count, x_scale, bias_sum, panels + q * stride, stride, w_scale, bias,
                      q * kFeatures, n, y, e);
  }
  for (; q < g + count_panels; ++q) {
    gathered_block<1>(values, offsets, count, x_scale, bias_sum, panels + q * stride, stride, w_scale, bias,
                      q * kFeatures, n, y, e);
  }
}

// One of our panels, at `to`, from the file's panels `low` and `high` (null past the last file panel)
// of `steps` 16-byte steps each: the file's panel p holds features 4p .. 4p+3, each step s their
// inputs 4s .. 4s+3, the pairs (4s, 4s+1) in its low 8 bytes and (4s+2, 4s+3) in its high 8, as
// [feature 0 | 1 | 2 | 3] pairs. Our panel pairs file panels 2q (low bytes, biased) and 2q+1 (high
// bytes): interleaving the two steps' low halves gives our chunk 2s, their high halves chunk 2s+1.
void convert_file_panels(const int8_t* low, const int8_t* high, int steps, int8_t* to) {
  for (int s = 0; s < steps; ++s, to += 2 * kChunk) {
    const i16x8 a = simd::flip_sign_bits(simd::load_i16x8(low + s * 16));
    const i16x8 b = high != nullptr ? simd::load_i16x8(high + s * 16) : simd::zero_i32();
    simd::store_i8x16(to, simd::interleave_low_i8(a, b));
    simd::store_i8x16(to + kChunk, simd::interleave_high_i8(a, b));
  }
}

}  // namespace

void PackedLinear::int8_row(int j, int8_t* out) const {
  const size_t stride = panel_stride(in_);
  const int8_t* panels = qpanels_.get();
  for (int k = 0; k < in_; ++k) out[k] = static_cast<int8_t>(panels[weight_offset(j, k, stride)] ^ flip(j));
}

void PackedLinear::dequantize_row(int j, float factor, float* out) const {
  const size_t stride = panel_stride(in_);
  const int8_t* panels = qpanels_.get();
  const float s = scale_[j] * factor;
  for (int k = 0; k < in_; ++k) {
    out[k] = static_cast<float>(static_cast<int8_t>(panels[weight_offset(j, k, stride)] ^ flip(j))) * s;
  }
}

PackedLinear PackedLinear::select_int8_rows(const std::vector<int>& rows) const {
  const int n = static_cast<int>(rows.size());
  const size_t stride = panel_stride(in_);
  std::shared_ptr<int8_t> panels(new int8_t[panel_bytes(n, in_)](), std::default_delete<int8_t[]>());
  std::vector<float> scale(n), bias(n);
  // Feature rows[i]'s two bytes of each chunk (inputs k and k+1) move to feature i's slot, their top
  // bit flipped where one slot is a low byte (biased) and the other a high byte.
  for (int i = 0; i < n; ++i) {
    const int8_t* from = qpanels_.get() + weight_offset(rows[i], 0, stride);
    int8_t* to = panels.get() + weight_offset(i, 0, stride);
    const int8_t bits = static_cast<int8_t>(flip(i) ^ flip(rows[i]));
    for (size_t c = 0; c < stride; c += kChunk) {
      to[c] = static_cast<int8_t>(from[c] ^ bits);
      to[c + 2] = static_cast<int8_t>(from[c + 2] ^ bits);
    }
    scale[i] = scale_[rows[i]];
    bias[i] = bias_[rows[i]];
  }
  return from_packed(std::move(panels), scale.data(), n, in_, bias.data());
}

PackedLinear PackedLinear::from_int8_panels(const int8_t* file_panels, const float* scale, int out, int in,
                                            const float* bias) {
  const int file_panel_count = round_up(out, 4) / 4, steps = round_up(in, kInputs) / kInputs;
  const size_t file_stride = static_cast<size_t>(steps) * 16, stride = panel_stride(in);
  // Not zeroed first: every byte is written below (a memset was 16% of a model's load in wasm).
  std::shared_ptr<int8_t> panels(new int8_t[panel_bytes(out, in)], std::default_delete<int8_t[]>());
  for (int q = 0; q < round_up(out, kFeatures) / kFeatures; ++q) {
    const int8_t* low = file_panels + 2 * q * file_stride;
    convert_file_panels(low, 2 * q + 1 < file_panel_count ? low + file_stride : nullptr, steps, panels.get() + q * stride);
  }
  return from_packed(std::move(panels), scale, out, in, bias);
}

PackedLinear PackedLinear::from_int8_panels_in_place(std::shared_ptr<int8_t> file_panels, const float* scale, int out,
                                                     int in, const float* bias) {
  if (out % kFeatures != 0) throw std::invalid_argument("from_int8_panels_in_place needs a multiple of 8 features");
  const int steps = round_up(in, kInputs) / kInputs;
  const size_t stride = panel_stride(in);  // two file panels' bytes
  // Fresh pages cost more than the conversion in wasm (a model's 7.8 MB of int8 weights took 12 ms
  // to convert into new memory against about 1 ms here): each pair of file panels is copied aside
  // and written back as one of ours.
  std::vector<int8_t> pair(stride);
  for (int q = 0; q < out / kFeatures; ++q) {
    int8_t* at = file_panels.get() + q * stride;
    std::memcpy(pair.data(), at, stride);
    convert_file_panels(pair.data(), pair.data() + stride / 2, steps, at);
  }
  return from_packed(std::move(file_panels), scale, out, in, bias);
}

PackedLinear PackedLinear::from_int8(const int8_t* wq, const float* scale, int out, int in, const float* bias) {
  const size_t stride = panel_stride(in);
  std::shared_ptr<int8_t> panels(new int8_t[panel_bytes(out, in)](), std::default_delete<int8_t[]>());
  for (int j = 0; j < out; ++j) {
    const int8_t* row = wq + static_cast<size_t>(j) * in;
    for (int k = 0; k < in; ++k) panels.get()[weight_offset(j, k, stride)] = static_cast<int8_t>(row[k] ^ flip(j));
  }
  return from_packed(std::move(panels), scale, out, in, bias);
}

bool int8_dot_offset_form() { return false; }

void PackedLinear::apply_int8(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
                              InputZeros zeros) const {
  const int k_pad = round_up(in_, kInputs), panels = round_up(out_, kFeatures) / kFeatures;
  const size_t stride = panel_stride(in_);
  quantize_rows(x, m, ldx, in_, k_pad);
  const bool gathered = zeros == InputZeros::kSkip && gather_pairs(m, k_pad);
  // The caller's buffers: helpers read them, never write them.
  const int16_t* xq = activations.values.data();
  const float* xs = activations.scales.data();
  const int32_t* sums = activations.bias_sums.data();
  const int32_t *pairs = activations.pairs.data(), *offsets = activations.pair_offsets.data();
  const int* pair_count = activations.pair_count.data();
  // Threads take disjoint ranges of panel groups, so each output feature is computed as on one thread.
  // A group's panels stay in L1 while every block of rows uses them; one block of rows takes its
  // whole range at once (a decode step's product: no call per group).
  const int groups = (panels + kPanelGroup - 1) / kPanelGroup;
  const int run = m <= kRowBlock ? panels : kPanelGroup;
  parallel_for(groups, static_cast<int64_t>(m) * in_ * out_, [&](int first, int last) {
    const int end = std::min(panels, last * kPanelGroup);
    for (int g = first * kPanelGroup; g < end; g += run) {
      const int count = std::min(run, end - g);
      if (gathered) {
        for (int r = 0; r < m; ++r) {
          const size_t at = static_cast<size_t>(r) * (k_pad / 2);
          gathered_row(pairs + at, offsets + at, pair_count[r], xs + r, sums + r, qpanels_.get(), stride,
                       scale_.data(), bias_.data(), g, count, out_, y + r * ldy, epilogue);
        }
        continue;
      }
      for (int r = 0; r < m; r += kRowBlock) {
        kRowBlocks[std::min(kRowBlock, m - r) - 1](xq + r * k_pad, k_pad, xs + r, sums + r, qpanels_.get(), stride,
                                                   scale_.data(), bias_.data(), g, count, out_, y + r * ldy, ldy,
                                                   epilogue);
      }
    }
  });
}

}  // namespace crossattn

#endif  // !CROSSATTN_RELAXED_SIMD
