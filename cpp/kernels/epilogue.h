// The last step of the matrix products' micro-kernels (gemm_f32.cc, gemm_int8.cc): 4 output features
// of one row of y, x W^T + b already in a vector, stored as the Epilogue asks (gemm.h).
#pragma once

#include "kernels/gemm.h"
#include "kernels/simd128.h"

namespace crossattn::kernels {

/// y[0, valid) = epilogue(v[0, valid)) for the `valid` (1..3) features that exist at a matrix's
/// right edge. Kept out of line: inlined, its lane loop made the micro-kernels' epilogue loops too
/// large for clang to unroll, and their accumulators then lived in linear memory (a memset and
/// stores per block, read from the wasm with wasm-dis) instead of in registers.
[[gnu::noinline]] inline void store_partial(simd::f32x4 v, float* y, int valid, Epilogue epilogue) {
  alignas(16) float lanes[4];
  simd::store(lanes, v);
  for (int i = 0; i < valid; ++i) y[i] = epilogue == Epilogue::kAccumulate ? y[i] + lanes[i] : lanes[i];
}

/// y[0, valid) = epilogue(v) for 4 features n .. n+3 of one row, of which `valid` (1..4) exist in y:
/// v itself (kStore), max(v, 0) (kRelu) or y + v (kAccumulate, a residual).
inline void finish(simd::f32x4 v, float* y, int valid, Epilogue epilogue) {
  if (epilogue == Epilogue::kRelu) v = simd::max(v, simd::splat(0.0f));
  if (valid < 4) return store_partial(v, y, valid, epilogue);
  if (epilogue == Epilogue::kAccumulate) v = simd::add(v, simd::load(y));
  simd::store(y, v);
}

}  // namespace crossattn::kernels
