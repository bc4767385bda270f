// Matrix products of the model's linear layers, y = x W^T + b, on weights packed once at load into
// the layout the SIMD128 micro-kernels stream through. Two weight formats:
//   fp32: panels of 8 output features, [ceil(out/8)][in][8];
//   int8: symmetric per-output-row quantization W ~ scale[j] * Wq[j, :] (done by models/quantize.py),
//         panels of 8 output features in 16-byte chunks, one per input pair, each int16 lane holding
//         two features' weights for one input (gemm_int8.cc), so that one i32x4.dot_i16x8_s
//         multiplies 16 weights without widening them first. Activations are quantized per row on
//         the fly (dynamic quantization, Jacob et al. 2018 with symmetric scales). A model file may
//         store the 4 x 4 panels of docs/model-format.md ("int8 kernel layout"): they are converted
//         at load, two byte shuffles per 32 bytes, with no unpacking to rows (in place when the
//         file's bytes are the engine's own).
// Legend: M rows of x, K = in features, N = out features.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace crossattn {

/// What the product does after x W^T + b: store it, store relu of it, or add it to y (a residual).
enum class Epilogue { kStore, kRelu, kAccumulate };

/// What a product may assume of its input x. kSkip: x is mostly exact zeros (a ReLU's output, as
/// the second matrix of a ReLU feed-forward block reads: 86-89% zeros in the bench model's encoder,
/// 66-69% in its decoder, by tools/relu-zeros.py); the fp32 product then skips the inputs that are
/// zero in every row of a block (4 rows, or one leftover row). Exact: a skipped input adds nothing,
/// and the others are summed in the same order, so y is bit for bit the product without skipping
/// (for finite weights: a skipped input's weights are never read).
/// The int8 product skips input pairs (k, k+1) zero in both, row by row, when every row has at
/// most half of its pairs nonzero (gemm_int8.cc); the relaxed build's skips zero quads, row by row,
/// in each block of rows with at most 3/4 of its quads nonzero (gemm_int8_dot.cc); int32 sums make
/// both exact too.
enum class InputZeros { kKeep, kSkip };

/// Whether this engine's int8 products multiply a row with negative values by one dot product per
/// 16 weights (the offset form: the relaxed build, where the engine's
/// i32x4.relaxed_dot_i8x16_i7x16_add_s reads bytes above 127 as unsigned with exact sums, as V8
/// does on x86 with AVX-VNNI) rather than two (the split by sign, the relaxed build elsewhere).
/// Both give the same outputs (gemm_int8_dot.cc). False in the SIMD128 build, which has no such product.
bool int8_dot_offset_form();

/// One linear layer's weights in kernel layout. Immutable after packing.
class PackedLinear {
 public:
  PackedLinear() = default;

  /// Packs fp32 weights w [out, in] (PyTorch's nn.Linear layout) and bias [out] (null for none).
  static PackedLinear from_f32(const float* w, int out, int in, const float* bias);

  /// Packs int8 weights wq [out, in] with per-row scales [out]: W[j, k] = scale[j] * wq[j, k].
  static PackedLinear from_int8(const int8_t* wq, const float* scale, int out, int in, const float* bias);

  /// Packs int8 weights stored in the file's kernel layout, `file_panels` [ceil(out/4)][ceil(in/4)][16]
  /// (docs/model-format.md, "int8 kernel layout"; zero in the padding), with scales [out] and bias
  /// [out] (null for none): the same function as from_int8 of their rows, converted without unpacking.
  static PackedLinear from_int8_panels(const int8_t* file_panels, const float* scale, int out, int in,
                                       const float* bias);
  /// The same, converted where the file's panels lie (the bytes are the same size in both layouts
  /// when `out` is a multiple of 8, which it must be): `file_panels` is overwritten and kept alive,
  /// and no memory is taken for the weights. For a model file whose bytes the caller gives up
  /// (ModelFile::parse_owned).
  static PackedLinear from_int8_panels_in_place(std::shared_ptr<int8_t> file_panels, const float* scale, int out,
                                                int in, const float* bias);

  /// The layer restricted to the output features `rows` (each in [0, out)), in that order:
  /// y[:, i] of the result is y[:, rows[i]] of this one, bit for bit. For the output layer's lexical
  /// shortlist (cpp/model/shortlist.h); costs one repacking of rows.size() x in weights.
  PackedLinear select_rows(const std::vector<int>& rows) const;

  /// Row j of the int8 weights, Wq[j, :] [in], read back out of the panels (quantized() only).
  void int8_row(int j, int8_t* out) const;
  /// out [in] = row j of W times `factor`, scale[j] * Wq[j, :] * factor (quantized() only); j in [0, out).
  void dequantize_row(int j, float factor, float* out) const;

  int in() const { return in_; }
  int out() const { return out_; }
  bool quantized() const { return !scale_.empty(); }

  /// y [M, out] (row stride ldy) = epilogue(x [M, in] (row stride ldx) W^T + b). No allocation once
  /// the activation buffers have grown to the largest M * in seen.
  void apply(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue,
             InputZeros zeros = InputZeros::kKeep) const;

 private:
  void apply_f32(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue, InputZeros zeros) const;
  void apply_int8(const float* x, int m, int ldx, float* y, int ldy, Epilogue epilogue, InputZeros zeros) const;
  // select_rows of the int8 format: copies each row's bytes from panel to panel (gemm_int8.cc).
  PackedLinear select_int8_rows(const std::vector<int>& rows) const;
  // A layer over int8 panels already in our layout (ceil(out/8) * ceil(in/4) * 32 bytes, gemm_int8.cc).
  static PackedLinear from_packed(std::shared_ptr<const int8_t> panels, const float* scale, int out, int in,
                                  const float* bias);
  // `l` with offset_sums_ where int8_dot_offset_form() (the relaxed build's panels, gemm_int8_dot.cc).
  static PackedLinear with_offset_sums(PackedLinear l);

  int in_ = 0, out_ = 0;
  std::vector<float> panels_;   // fp32 panels, or empty
  std::shared_ptr<const int8_t> qpanels_;  // int8 panels, or null
  std::vector<float> scale_;    // [out] per-row weight scales of the int8 format
  std::vector<float> bias_;     // [out], or empty
  std::vector<int32_t> offset_sums_;  // [ceil(out/8) * 8] 128 sum_k Wq[j, k], zero past out; empty
                                      // unless int8_dot_offset_form()
};

}  // namespace crossattn
