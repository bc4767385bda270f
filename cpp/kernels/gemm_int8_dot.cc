// int8 y = x W^T + b on relaxed SIMD's int8 dot product, i32x4.relaxed_dot_i8x16_i7x16_add_s: the
// engine build crossattn-relaxed.wasm (see gemm.h for the format, gemm_int8.cc for SIMD128's).
//
// Weights: W[j, k] = scale_w[j] * Wq[j, k], Wq in [-127, 127], as in gemm_int8.cc. Activations are
// quantized by the same function (int8_rows.h), so every integer sum, and so every output, is the
// SIMD128 engine's.
//
// The dot product multiplies the 16 bytes of w by the 16 bytes of x and adds each lane's four
// products to acc. It gives the same result on every engine only when x's bytes lie in [0, 127]
// (simd128.h); above 127, an engine reads them as unsigned with exact sums (V8 on x86 with
// AVX-VNNI: vpdpbusd), as signed (ARM's sdot) or as unsigned with pairs summed in saturating int16
// (pmaddubsw). Xq lies in [-127, 127]. A row with no negative value (a ReLU's output) takes one
// dot product per 16 weights as it is. Other rows take one of two exact forms:
// - Offset, where the engine's dot product reads bytes as unsigned with exact sums (a probe at the
//   first product, offset_dot_is_exact, as onnxruntime's MLAS asks HasUSDot()): U = Xq + 128, in
//   [1, 255], and
//     sum_k Wq[j, k] Xq[k] = dot(Wq[j], U) - 128 sum_k Wq[j, k],
//   the weights' sums computed at load (with_offset_sums): one dot product per 16 weights.
// - Split by sign, everywhere else, as tract splits it: Xq = P - N with P = max(Xq, 0) and
//   N = max(-Xq, 0), both in [0, 127], and
//     sum_k Wq[j, k] Xq[k] = dot(Wq[j], P) - dot(Wq[j], N):
//   two dot products per 16 weights.
// Both are exact in int32 (|products| <= 127^2, K <= 2^17 inputs; the offset form's sums may wrap,
// and wrap back when the weights' sums are taken off), so every engine gives the same outputs; the
// offset form made greedy translations 1.15-1.2x faster on a Xeon with AVX-VNNI (2026-11-30).
// Quantizing x to 7 bits instead (scale max|x| / 63, shifted into [1, 127]) would take one dot
// product everywhere, but changes the outputs: with int8_rows.h's 127 made 63, the native CLI's
// greedy translations of 200 FLORES dev sentences (general-en-de and general-de-en, whole output
// layer, 2026-11-29) changed in 85 and 75 of 200 and lost 0.09 and 0.36 BLEU.
//
// Packing: panels of 4 output features, chunk s of panel p holding, in lane i, the bytes
// Wq[4p + i][4s .. 4s + 3], so that one dot product of the chunk with the broadcast quad
// X[4s .. 4s + 3] adds 4 features' products over 4 inputs. Panels come in runs of kRun (2: 8
// features; the last run holds what remains), each run quad by quad: [ceil(out/8)][ceil(in/4)]
// [2][16], so that a block of 2 panels reads one stream, 32 bytes a quad, a decode step's block of
// 8 panels four, and a quad of zero inputs skips 32 bytes of each (gathered_row). The model file's
// "int8 kernel layout" (docs/model-format.md) has the same chunks panel by panel,
// [ceil(out/4)][ceil(in/4)][16], with each chunk's bytes as pairs: one byte shuffle per chunk
// (simd::pairs_to_quads) and a transpose of each run's chunks convert it at load, where it lies.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <numeric>

#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/int8_rows.h"
#include "kernels/parallel.h"
#include "kernels/simd128.h"

#if defined(CROSSATTN_RELAXED_SIMD)

namespace crossattn {
namespace {

using simd::i32x4;
using simd::i8x16;

constexpr int kFeatures = 4;    // output features per panel (one i32x4 of sums)
constexpr int kQuad = 4;        // inputs per lane of a chunk
constexpr int kChunk = 16;      // bytes per chunk: 4 features x 4 inputs
// MR for blocks of rows, by form. Split by sign: 6 rows keep 12 sums in flight with N's, enough to
// cover the dot product's latency (with 4, the encoder's products ran at 40 against 63 GOP/s in wasm
// on a Xeon with AVX-VNNI, 2026-11-29; whole translations 1.01-1.03x faster). Offset: 4 rows of 2
// panels each, 8 sums, one broadcast for 2 dot products (the encoder's products 162-165 GOP/s,
// against 158-160 with 5 rows of 2 panels, 143 with 6 rows of 1 and 136 with 3 rows of 4, which
// spilled sums; 2026-11-30).
constexpr int kSplitRowBlock = 6;
constexpr int kOffsetRowBlock = 4;
static_assert(kOffsetRowBlock <= kSplitRowBlock, "kRowBlocks holds the larger");
constexpr int kPanelGroup = 8;  // panels a thread takes at a time (32 features)
// Panels stored quad by quad together (the layout's runs, below): 2 made greedy translations
// 1.02-1.03x faster than 1 (panel by panel) on a Xeon with AVX-VNNI, against 0.98-1.02x for 4 and
// 0.98x for 8 (2026-11-30, bench/ab.js, 200 FLORES dev sentences, shortlist, both general models).
constexpr int kRun = 2;
// A block of rows is gathered (each row's zero quads skipped, row by row) when its rows together
// have at most this share of their quads nonzero; a single row whenever it has no negative value
// (a decode step's second feed-forward matrix, 50-70% of its quads nonzero in the general models'
// decoders): reading only those quads made greedy translations 1.02-1.025x faster than gathering at
// most half (same runs as kRun's). The encoder's rows have 29-42% of theirs nonzero (a
// teacher-forced pass over 100 FLORES dev pairs, general-en-de, 2026-11-30), and once the whole
// product was gathered only when every row had at most half: gathering block by block at 0.75 made
// greedy translations 1.018x faster than that, at 0.5 1.011x, at 1 1.012x (bench/ab.js, 4 passes,
// general-en-de, 2026-11-30).
constexpr float kGatherShare = 0.75f;

int round_up(int n, int to) { return (n + to - 1) / to * to; }

int panel_count(int out) { return round_up(out, kFeatures) / kFeatures; }
// Bytes of one panel's chunks, ceil(in/4) of them; run r starts at kRun r of these.
size_t panel_stride(int in) { return static_cast<size_t>(round_up(in, kQuad)) / kQuad * kChunk; }
size_t panel_bytes(int out, int in) { return static_cast<size_t>(panel_count(out)) * panel_stride(in); }
// Panels in run r of a layer with `panels` panels, and the bytes from one of its quads to the next.
int run_panels(int r, int panels) { return std::min(kRun, panels - r * kRun); }
size_t quad_step(int r, int panels) { return static_cast<size_t>(kChunk) * run_panels(r, panels); }
// Where Wq[j, k] lies in a layer of `panels` panels of `stride` bytes.
size_t weight_offset(int j, int k, size_t stride, int panels) {
  const int p = j / kFeatures, r = p / kRun;
  return static_cast<size_t>(r) * kRun * stride + static_cast<size_t>(k / kQuad) * quad_step(r, panels) +
         kChunk * (p % kRun) + kQuad * (j % kFeatures) + k % kQuad;
}
// Where panel q starts, of panels from a run's start `panel` on, in runs `run_bytes` apart.
const int8_t* panel_in_run(const int8_t* panel, int q, size_t run_bytes) {
  return panel + q / kRun * run_bytes + q % kRun * kChunk;
}

// The rows being multiplied, quantized and split by sign, in the order the products read them:
// rows in blocks of kSplitRowBlock or kOffsetRowBlock, the last block holding what remains
// (block_rows, as apply_int8 takes them); in a block of b rows, for each quad s, row by row, P's
// quad then N's (or U's, in the offset form), one int32 each. The block from row r0 starts at
// int32 2 r0 quads, and its row i's quad s lies at 2 (s b + i) in it: a product reads a chunk's
// activations at fixed offsets from one pointer. Also
// the scales [M], whether a row has a negative value [M]; with zeros skipped, each row's nonzero
// quads of P and their indices s [M, K_pad / 4], the first count[r] used, and whether each block
// of rows is multiplied over them [ceil(M / block)]. Grown to the largest product seen, then reused.
struct ActivationQuads {
  std::vector<int16_t> row;
  std::vector<int32_t> quads;
  std::vector<float> scales;
  std::vector<char> has_negative;
  std::vector<int32_t> gathered, gathered_quads;
  std::vector<int> gathered_count;
  std::vector<char> gathered_blocks;
};
thread_local ActivationQuads activations;

// The calling thread's ActivationQuads as the products read them (threads of parallel_for have
// their own thread_local buffers, so they are handed these pointers).
struct QuadRows {
  const int32_t* quads;
  const float* scales;
  const char* has_negative;
  const int32_t *gathered, *gathered_quads;
  const int* gathered_count;
  const char* gathered_blocks;
  int quad_count;
  bool offset;  // U's quads in place of N's (offset_dot_is_exact)
};

template <typename T>
void grow(std::vector<T>& v, size_t size) {
  if (v.size() < size) v.resize(size);
}

// Whether this engine's dot product reads x's bytes as unsigned, with exact int32 sums, as V8 does
// on x86 with AVX-VNNI (vpdpbusd); then the offset U = Xq + 128 in [1, 255] takes one dot product
// where the split by sign takes two. Engines that read them as signed (ARM's sdot) or sum pairs in
// saturating int16 (pmaddubsw, x86 without AVX-VNNI) fail it and split by sign. Every path computes
// the same integer sums, so the same outputs. As onnxruntime's MLAS chooses its relaxed int8 kernel
// (qgemm_kernel_wasmrelaxedsimd.cpp, HasUSDot): by the dot product's answer on operands that tell
// the engines apart.
bool offset_dot_is_exact() {
  // Lanes of w: bytes 127, -127, 1, -1; x: bytes 255. Exact unsigned sums: 4 x 255 x w[byte], plus 7.
  volatile int32_t w_lanes[4] = {0x7f7f7f7f, static_cast<int32_t>(0x81818181), 0x01010101, -1};
  volatile int32_t x_byte = -1;
  alignas(16) int32_t w[4] = {w_lanes[0], w_lanes[1], w_lanes[2], w_lanes[3]}, got[4];
  simd::store_i32(got, simd::dot_i8_add(simd::load_i32(w), simd::splat_i32(x_byte), simd::splat_i32(7)));
  return got[0] == 7 + 129540 && got[1] == 7 - 129540 && got[2] == 7 + 1020 && got[3] == 7 - 1020;
}

// Rows in the block that starts at row r0 of m, in blocks of `block` rows (r0 a multiple of it).
int block_rows(int r0, int m, int block) { return std::min(block, m - r0); }

// Writes row i of a block of b rows at `block` (the layout of ActivationQuads) from q [k_pad + 4]
// (zero past k_pad): P's quads, then N's, or with `offset` U's, U = Xq + 128 in [1, 255]; returns
// whether a value is negative.
bool split_by_sign(const int16_t* q, int k_pad, int b, int i, bool offset, int32_t* block) {
  const simd::i16x8 zero = simd::zero_i32(), half = simd::splat_i16(128);
  simd::i16x8 negative = zero;
  for (int k = 0; k < k_pad; k += 2 * kQuad) {
    const simd::i16x8 v = simd::load_i16(q + k), n = simd::max_i16(simd::neg_i16(v), zero);
    negative = simd::max_i16(negative, n);
    // Lanes: P's quads s and s + 1, then N's (or U's) quads s and s + 1.
    const simd::i16x8 p = simd::max_i16(v, zero);
    const simd::i8x16 bytes = offset ? simd::narrow_u8(p, simd::add_i16(v, half)) : simd::narrow_i16(p, n);
    int32_t* at = block + 2 * (k / kQuad * b + i);
    if (k + kQuad < k_pad) {
      simd::store_even_odd_i32(at, at + 2 * b, bytes);
    } else {
      at[0] = simd::lane_i32<0>(bytes);
      at[1] = simd::lane_i32<2>(bytes);
    }
  }
  return simd::any_nonzero(negative);
}

// Quantizes x [m, k] (row stride ldx) into ActivationQuads, in blocks of `block_size` rows, with
// U's quads in place of N's where `offset`.
void quantize_rows(const float* x, int m, int ldx, int k, int k_pad, int block_size, bool offset) {
  const size_t quads = k_pad / kQuad;
  grow(activations.row, k_pad + kQuad);
  grow(activations.quads, 2 * m * quads);
  grow(activations.scales, m);
  grow(activations.has_negative, m);
  int16_t* q = activations.row.data();
  std::fill(q + k_pad, q + k_pad + kQuad, 0);
  for (int r0 = 0; r0 < m; r0 += block_size) {
    const int b = block_rows(r0, m, block_size);
    int32_t* block = activations.quads.data() + 2 * r0 * quads;
    for (int i = 0; i < b; ++i) {
      activations.scales[r0 + i] = kernels::quantize_row(x + (r0 + i) * ldx, k, k_pad, q).scale;
      activations.has_negative[r0 + i] = split_by_sign(q, k_pad, b, i, offset, block);
    }
  }
}

// Lists each row's nonzero quads of P and marks the blocks of rows whose gathered product pays
// (kGatherShare); false, with nothing marked, when a row has a negative value.
bool gather_quads(int m, int quads, int block) {
  grow(activations.gathered, static_cast<size_t>(m) * quads);
  grow(activations.gathered_quads, static_cast<size_t>(m) * quads);
  grow(activations.gathered_count, m);
  grow(activations.gathered_blocks, (m + block - 1) / block);
  const auto negative = activations.has_negative.begin();
  if (std::any_of(negative, negative + m, [](char c) { return c != 0; })) return false;
  for (int r = 0; r < m; ++r) {
    const int start = r / block * block, b = block_rows(start, m, block), i = r - start;
    const int32_t* p = activations.quads.data() + 2 * static_cast<size_t>(start) * quads + 2 * i;
    int32_t* values = activations.gathered.data() + static_cast<size_t>(r) * quads;
    int32_t* indices = activations.gathered_quads.data() + static_cast<size_t>(r) * quads;
    int count = 0;
    for (int s = 0; s < quads; ++s) {  // without a branch: a ReLU's zeros fall at random
      values[count] = p[2 * s * b];
      indices[count] = s;
      count += p[2 * s * b] != 0;
    }
    activations.gathered_count[r] = count;
  }
  for (int r0 = 0; r0 < m; r0 += block) {
    const int b = block_rows(r0, m, block);
    const auto counts = activations.gathered_count.begin() + r0;
    const int nonzero = std::accumulate(counts, counts + b, 0);
    activations.gathered_blocks[r0 / block] = m == 1 || nonzero <= kGatherShare * b * quads;
  }
  return true;
}

// How a block of rows is summed. kNonNegative: no row has a negative value, one dot product of P a
// chunk. kSignSplit: P's and N's, two a chunk. kOffset: U's, one a chunk, with the weights' sums
// taken off, sum_k Wq[j, k] U[k] - 128 sum_k Wq[j, k] = sum_k Wq[j, k] Xq[k]: exact only where the
// dot product reads U's bytes as unsigned with exact sums (offset_dot_is_exact).
enum class Sums { kNonNegative, kSignSplit, kOffset };

// y[MR, 4 NP] = epilogue(x_scale[r] w_scale[j] sum_k Wq[j, k] Xq[r, k] + b[j]) for features j from
// n0 (those < n), from the sums p (and nsum, for kSignSplit) and the weights' offset sums
// `w_sums`: the same arithmetic as gemm_int8.cc's store, so the same floats.
template <int MR, int NP, Sums S>
[[gnu::always_inline]] inline void store(const i32x4 (&p)[MR][NP], const i32x4 (&nsum)[MR][NP], const float* x_scale,
                                         const float* w_scale, const int32_t* w_sums, const float* bias, int n0, int n,
                                         float* y, int ldy, Epilogue epilogue) {
#pragma GCC unroll 4
  for (int q = 0; q < NP; ++q) {
    const int col = n0 + kFeatures * q;
    if (col >= n) continue;
    const simd::f32x4 ws = simd::load(w_scale + col), b = simd::load(bias + col);
    const i32x4 offset = S == Sums::kOffset ? simd::load_i32(w_sums + col) : simd::zero_i32();
#pragma GCC unroll 4
    for (int r = 0; r < MR; ++r) {
      const i32x4 sum = S == Sums::kSignSplit ? simd::sub_i32(p[r][q], nsum[r][q])
                        : S == Sums::kOffset  ? simd::sub_i32(p[r][q], offset)
                                              : p[r][q];
      const simd::f32x4 v = simd::add(simd::mul(simd::to_f32(sum), simd::mul(ws, simd::splat(x_scale[r]))), b);
      kernels::finish(v, y + r * ldy + col, std::min(4, n - col), epilogue);
    }
  }
}

// y[MR, 4 NP] for the block of MR rows at x (ActivationQuads' layout, `quads` quads) and NP
// consecutive panels from `panel` (as row_block's: their quads `step` bytes apart): one load per
// chunk, shared by the MR rows, and each row's quads read at fixed offsets from x (P's, or U's
// for kOffset; N's too for kSignSplit). (Adding
// N's products with the chunk's weights negated into P's sums, which halves the sums, measured
// 6-10% slower in whole translations, 2026-11-29: each sum then waits on two dot products a chunk.)
template <int MR, int NP, Sums S>
void block(const int32_t* x, int quads, const float* x_scale, const int8_t* panel, size_t step, size_t run_bytes,
           const float* w_scale, const int32_t* w_sums, const float* bias, int n0, int n, float* y, int ldy,
           Epilogue epilogue) {
  constexpr int kFirst = S == Sums::kOffset ? 1 : 0;  // the quad each row's sums start from
  i32x4 p[MR][NP], nsum[MR][NP];
  for (int r = 0; r < MR; ++r) {
    for (int q = 0; q < NP; ++q) p[r][q] = nsum[r][q] = simd::zero_i32();
  }
  for (int s = 0; s < quads; ++s, x += 2 * MR, panel += step) {
    i8x16 w[NP];
    for (int q = 0; q < NP; ++q) w[q] = simd::load_i16x8(panel_in_run(panel, q, run_bytes));
    for (int r = 0; r < MR; ++r) {
      const i8x16 xp = simd::splat_i32(x[2 * r + kFirst]);
      for (int q = 0; q < NP; ++q) p[r][q] = simd::dot_i8_add(w[q], xp, p[r][q]);
      if constexpr (S == Sums::kSignSplit) {
        const i8x16 xn = simd::splat_i32(x[2 * r + 1]);
        for (int q = 0; q < NP; ++q) nsum[r][q] = simd::dot_i8_add(w[q], xn, nsum[r][q]);
      }
    }
  }
  store<MR, NP, S>(p, nsum, x_scale, w_scale, w_sums, bias, n0, n, y, ldy, epilogue);
}

// Panels a block of MR rows takes at once: as many as keep its sums (MR NP, twice with N's), the
// chunks and a broadcast in x86's 16 vector registers, of which V8 keeps one for itself. In the
// offset form (wasm, Xeon with AVX-VNNI, 2026-11-30), 8 panels for one row against 4 took a decode
// step's products from 95-106 to 108-137 GOP/s (blocks of rows: kOffsetRowBlock).
template <int MR, Sums S>
constexpr int panels_per_block() {
  if constexpr (S == Sums::kSignSplit) return MR == 1 ? 4 : MR <= 3 ? 2 : 1;
  if constexpr (S == Sums::kOffset) return MR == 1 ? 8 : MR == 2 ? 4 : 2;
  return MR <= 2 ? 4 : 2;
}


// The `count` panels from `panel`, the start of a run (runs `run_bytes` apart, their quads `step`
// bytes apart; features from n0), for MR rows, panels_per_block at a time (then one at a time).
template <int MR, Sums S>
void row_block(const int32_t* x, int quads, const float* x_scale, const int8_t* panel, size_t step,
               size_t run_bytes, const float* w_scale, const int32_t* w_sums, const float* bias, int n0, int count,
               int n, float* y, int ldy, Epilogue e) {
  constexpr int NP = panels_per_block<MR, S>();
  static_assert(kRun % NP == 0 || NP % kRun == 0, "a block of panels starts a run or lies in one");
  int q = 0;
  for (; q + NP <= count; q += NP) {
    block<MR, NP, S>(x, quads, x_scale, panel_in_run(panel, q, run_bytes), step, run_bytes, w_scale, w_sums, bias,
                     n0 + q * kFeatures, n, y, ldy, e);
  }
  for (; q < count; ++q) {
    block<MR, 1, S>(x, quads, x_scale, panel_in_run(panel, q, run_bytes), step, run_bytes, w_scale, w_sums, bias,
                    n0 + q * kFeatures, n, y, ldy, e);
  }
}

// MR rows from `row` over a run of groups (as row_block): with kNonNegative sums unless one has a
// negative value, then with kOffset's where the dot product allows, else with kSignSplit's.
template <int MR>
void rows(const QuadRows& x, int row, const int8_t* panel, size_t step, size_t run_bytes, const float* w_scale,
          const int32_t* w_sums, const float* bias, int n0, int count, int n, float* y, int ldy, Epilogue e) {
  const int quads = x.quad_count;
  const int32_t* block = x.quads + 2 * static_cast<size_t>(row) * quads;
  const float* xs = x.scales + row;
  const bool negative = std::any_of(x.has_negative + row, x.has_negative + row + MR, [](char c) { return c != 0; });
  if (!negative) {
    row_block<MR, Sums::kNonNegative>(block, quads, xs, panel, step, run_bytes, w_scale, w_sums, bias, n0, count, n, y,
                                        ldy, e);
  } else if (x.offset) {
    row_block<MR, Sums::kOffset>(block, quads, xs, panel, step, run_bytes, w_scale, w_sums, bias, n0, count, n, y,
                                        ldy, e);
  } else {
    row_block<MR, Sums::kSignSplit>(block, quads, xs, panel, step, run_bytes, w_scale, w_sums, bias, n0, count, n, y,
                                        ldy, e);
  }
}

// rows<b> for a block of b rows: blocks of kSplitRowBlock or kOffsetRowBlock rows, the last holding
// what remains (so a beam of 4 reads the weights once, not once a row).
constexpr decltype(&rows<1>) kRowBlocks[] = {&rows<1>, &rows<2>, &rows<3>, &rows<4>, &rows<5>, &rows<6>};
static_assert(std::size(kRowBlocks) == kSplitRowBlock, "one kernel for each block size");

// y[1, 4 NP] for one row over its gathered quads: values [count] (quads of P) and their indices
// [count], for NP consecutive panels from `panel` (as row_block's).
template <int NP>
void gathered_block(const int32_t* values, const int32_t* indices, int count, const float* x_scale,
                    const int8_t* panel, size_t step, size_t run_bytes, const float* w_scale, const float* bias, int n0, int n,
                    float* y, Epilogue epilogue) {
  i32x4 p[1][NP];
  for (int q = 0; q < NP; ++q) p[0][q] = simd::zero_i32();
  for (int c = 0; c < count; ++c) {
    const i8x16 xp = simd::splat_i32(values[c]);
    const int8_t* w = panel + indices[c] * step;
    for (int q = 0; q < NP; ++q) p[0][q] = simd::dot_i8_add(simd::load_i16x8(panel_in_run(w, q, run_bytes)), xp, p[0][q]);
  }
  store<1, NP, Sums::kNonNegative>(p, p, x_scale, w_scale, nullptr, bias, n0, n, y, 0, epilogue);
}

// Row r over its gathered quads, the `count` panels of a run of groups (as row_block): a whole group
// at a time (one run of 128 bytes a nonzero quad), then one panel at a time.
void gathered_row(const QuadRows& x, int r, const int8_t* panel, size_t step, size_t run_bytes,
                  const float* w_scale, const float* bias, int n0, int count, int n, float* y, Epilogue e) {
  const size_t at = static_cast<size_t>(r) * x.quad_count;
  const int32_t *values = x.gathered + at, *indices = x.gathered_quads + at;
  const int used = x.gathered_count[r];
  const float* xs = x.scales + r;
  int q = 0;
  for (; q + kPanelGroup <= count; q += kPanelGroup) {
    gathered_block<kPanelGroup>(values, indices, used, xs, panel_in_run(panel, q, run_bytes), step, run_bytes, w_scale, bias,
                                n0 + q * kFeatures, n, y, e);
  }
  for (; q < count; ++q) {
    gathered_block<1>(values, indices, used, xs, panel_in_run(panel, q, run_bytes), step, run_bytes, w_scale, bias,
                      n0 + q * kFeatures, n, y, e);
  }
}

}  // namespace

PackedLinear PackedLinear::with_offset_sums(PackedLinear l) {
  if (!int8_dot_offset_form()) return l;  // only the offset form reads them
  const size_t stride = panel_stride(l.in_);
  const int panels = panel_count(l.out_), quads = static_cast<int>(stride / kChunk);
  l.offset_sums_.assign(round_up(l.out_, 8), 0);
  const i8x16 ones = simd::splat_i32(0x01010101);
  for (int p = 0; p < panels; ++p) {
    i32x4 sum = simd::zero_i32();  // lane i: sum_k Wq[4p + i, k]
    const int8_t* chunk = l.qpanels_.get() + weight_offset(kFeatures * p, 0, stride, panels);
    const size_t step = quad_step(p / kRun, panels);
    for (int s = 0; s < quads; ++s, chunk += step) sum = simd::dot_i8_add(simd::load_i16x8(chunk), ones, sum);
    simd::store_i32(l.offset_sums_.data() + kFeatures * p, simd::shift_left_i32(sum, 7));
  }
  return l;
}

namespace {

// f(k, Wq[j, k]) for k = 0 .. in - 1 of a layer's panels (`out` features): quad by quad, each
// quad's 4 bytes together (an embedding lookup of a tied table reads its row this way).
template <typename F>
void for_row(const int8_t* panels, int j, int out, int in, F&& f) {
  const int count = panel_count(out);
  const int8_t* quad = panels + weight_offset(j, 0, panel_stride(in), count);
  const size_t step = quad_step(j / kFeatures / kRun, count);
  for (int k = 0; k < in; k += kQuad, quad += step) {
    for (int i = 0; i < std::min(kQuad, in - k); ++i) f(k + i, quad[i]);
  }
}

}  // namespace

void PackedLinear::int8_row(int j, int8_t* out) const {
  for_row(qpanels_.get(), j, out_, in_, [out](int k, int8_t w) { out[k] = w; });
}

void PackedLinear::dequantize_row(int j, float factor, float* out) const {
  const float s = scale_[j] * factor;
  for_row(qpanels_.get(), j, out_, in_, [out, s](int k, int8_t w) { out[k] = static_cast<float>(w) * s; });
}

PackedLinear PackedLinear::select_int8_rows(const std::vector<int>& rows) const {
  const int n = static_cast<int>(rows.size()), panels = panel_count(out_), selected = panel_count(n);
  const size_t stride = panel_stride(in_);
  const int quads = static_cast<int>(stride / kChunk);
  std::shared_ptr<int8_t> packed(new int8_t[panel_bytes(n, in_)], std::default_delete<int8_t[]>());
  // Zeros only in the last run, which holds the padding features past n: every other byte is copied.
  const int last = (selected - 1) / kRun;
  std::fill_n(packed.get() + last * kRun * stride, run_panels(last, selected) * stride, int8_t{0});
  std::vector<float> scale(n), bias(n);
  for (int i = 0; i < n; ++i) {
    const int8_t* from = qpanels_.get() + weight_offset(rows[i], 0, stride, panels);
    int8_t* to = packed.get() + weight_offset(i, 0, stride, selected);
    const size_t from_step = quad_step(rows[i] / kFeatures / kRun, panels);
    const size_t to_step = quad_step(i / kFeatures / kRun, selected);
    for (int s = 0; s < quads; ++s) std::memcpy(to + s * to_step, from + s * from_step, kQuad);
    scale[i] = scale_[rows[i]];
    bias[i] = bias_[rows[i]];
  }
  PackedLinear l = from_packed(std::move(packed), scale.data(), n, in_, bias.data());
  if (!offset_sums_.empty()) {  // the rows' own sums
    l.offset_sums_.assign(round_up(n, 8), 0);
    for (int i = 0; i < n; ++i) l.offset_sums_[i] = offset_sums_[rows[i]];
  }
  return l;
}

namespace {

// Run r of a layer (`panels` panels of `stride` bytes) from the file's panels at `file` (panel by
// panel, chunks of pairs) into ours at `run` (quad by quad, chunks of quads): the same bytes.
void convert_run(const int8_t* file, int r, int panels, size_t stride, int8_t* run) {
  const int count = run_panels(r, panels);
  const size_t step = quad_step(r, panels);
  for (int i = 0; i < count; ++i) {
    for (size_t c = 0, s = 0; c < stride; c += kChunk, ++s) {
      simd::store_i8x16(run + s * step + i * kChunk, simd::pairs_to_quads(simd::load_i16x8(file + i * stride + c)));
    }
  }
}

}  // namespace

PackedLinear PackedLinear::from_int8_panels(const int8_t* file_panels, const float* scale, int out, int in,
                                            const float* bias) {
  const size_t stride = panel_stride(in), run_bytes = kRun * stride;
  const int panels = panel_count(out);
  std::shared_ptr<int8_t> packed(new int8_t[panel_bytes(out, in)], std::default_delete<int8_t[]>());
  for (int r = 0; r * kRun < panels; ++r) {
    convert_run(file_panels + r * run_bytes, r, panels, stride, packed.get() + r * run_bytes);
  }
  return with_offset_sums(from_packed(std::move(packed), scale, out, in, bias));
}

PackedLinear PackedLinear::from_int8_panels_in_place(std::shared_ptr<int8_t> file_panels, const float* scale, int out,
                                                     int in, const float* bias) {
  const size_t stride = panel_stride(in), run_bytes = kRun * stride;
  const int panels = panel_count(out);
  std::vector<int8_t> run(run_bytes);  // one run at a time: a run's bytes stay where they are
  for (int r = 0; r * kRun < panels; ++r) {
    int8_t* at = file_panels.get() + r * run_bytes;
    convert_run(at, r, panels, stride, run.data());
    std::memcpy(at, run.data(), run_panels(r, panels) * stride);
  }
  return with_offset_sums(from_packed(std::move(file_panels), scale, out, in, bias));
}

PackedLinear PackedLinear::from_int8(const int8_t* wq, const float* scale, int out, int in, const float* bias) {
  const size_t stride = panel_stride(in);
  const int panels = panel_count(out);
  std::shared_ptr<int8_t> packed(new int8_t[panel_bytes(out, in)](), std::default_delete<int8_t[]>());
  for (int j = 0; j < out; ++j) {
    for (int k = 0; k < in; ++k) packed.get()[weight_offset(j, k, stride, panels)] = wq[static_cast<size_t>(j) * in + k];
  }
  return with_offset_sums(from_packed(std::move(packed), scale, out, in, bias));
}

bool int8_dot_offset_form() {
  static const bool offset = offset_dot_is_exact();
  return offset;
}

void PackedLinear::apply_int8(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
                              InputZeros zeros) const {
  const int k_pad = round_up(in_, kQuad), quads = k_pad / kQuad, panels = panel_count(out_);
  const bool offset = int8_dot_offset_form();
  const int block = offset ? kOffsetRowBlock : kSplitRowBlock;
  quantize_rows(x, m, ldx, in_, k_pad, block, offset);
  const bool gathered = zeros == InputZeros::kSkip && gather_quads(m, quads, block);
  const QuadRows xq{activations.quads.data(), activations.scales.data(), activations.has_negative.data(),
                    activations.gathered.data(), activations.gathered_quads.data(), activations.gathered_count.data(),
                    activations.gathered_blocks.data(), quads, offset};
  // Threads take disjoint ranges of panel groups, so each output feature is computed as on one
  // thread. Whole runs share one quad step, so one call takes them: all of the range's for one
  // block of rows (a decode step's product), a group at a time for more, whose panels then stay in
  // L1 while every block of rows uses them; the last run, if partial, goes alone.
  const int groups = (panels + kPanelGroup - 1) / kPanelGroup, whole = panels / kRun * kRun;
  const size_t stride = panel_stride(in_), run_bytes = kRun * stride;
  parallel_for(groups, static_cast<int64_t>(m) * in_ * out_, [&](int first, int last) {
    const int end = std::min(panels, last * kPanelGroup);
    for (int p = first * kPanelGroup; p < end;) {
      const int limit = p < whole ? std::min(end, whole) : end;
      const int count = m <= block ? limit - p : std::min(limit - p, kPanelGroup);
      const size_t step = quad_step(p / kRun, panels);
      const int8_t* panel = qpanels_.get() + p * stride;  // the start of a run
      const int n0 = p * kFeatures;
      p += count;
      for (int r = 0; r < m; r += block) {
        const int b = block_rows(r, m, block);
        if (!gathered || !xq.gathered_blocks[r / block]) {
          kRowBlocks[b - 1](xq, r, panel, step, run_bytes, scale_.data(), offset_sums_.data(), bias_.data(), n0, count,
                            out_, y + r * ldy, ldy, epilogue);
          continue;
        }
        for (int i = r; i < r + b; ++i) {
          gathered_row(xq, i, panel, step, run_bytes, scale_.data(), bias_.data(), n0, count, out_, y + i * ldy,
                       epilogue);
        }
      }
    }
  });
}

}  // namespace crossattn

#endif  // CROSSATTN_RELAXED_SIMD
