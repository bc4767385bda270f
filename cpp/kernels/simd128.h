// The 128-bit SIMD operations our kernels are written in, with one implementation for WebAssembly
// SIMD128 (wasm_simd128.h, -msimd128) and one for x86 SSE4.1 (the native build), so that the native
// build runs the same kernels at the same vector width and measures what WebAssembly costs.
// Every operation maps to one instruction on both targets (WebAssembly has no FMA without relaxed
// SIMD, so neither build fuses multiply and add). Loads and stores are unaligned.
//
// With relaxed SIMD (-mrelaxed-simd, the engine build crossattn-relaxed.wasm) two operations more
// (WebAssembly relaxed SIMD proposal, phase 5, in Chrome 114+, Firefox 145+, Node 21+):
//   madd(a, b, c) = a b + c as f32x4.relaxed_madd, fused or not as the hardware does it;
//   dot_i8_add(w, x, acc) as i32x4.relaxed_dot_i8x16_i7x16_add_s, the int8 dot product of four
//     bytes per lane, whose result is the same on every engine when x's bytes are in [0, 127]
//     (the operand whose top bit an engine may read as unsigned; x86's pmaddubsw then never
//     saturates: 2 x 127 x 128 < 2^15). gemm_int8_dot.cc keeps it there.
// CROSSATTN_EMULATE_RELAXED_SIMD gives the native build the same two on SSE4.1 (madd unfused), so
// that the native tests check the relaxed kernels; CROSSATTN_RELAXED_SIMD is then set either way.
// Its dot product is V8's without AVX-VNNI (saturating pairs), or with CROSSATTN_EMULATE_AVX_VNNI
// V8's with it (exact unsigned sums): gemm_int8_dot.cc takes a different form on each.
#pragma once

#include <cstdint>

#if defined(__wasm_relaxed_simd__) || defined(CROSSATTN_EMULATE_RELAXED_SIMD)
#define CROSSATTN_RELAXED_SIMD 1
#endif

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE4_1__)
#include <smmintrin.h>
#else
#error "crossattn's kernels need WebAssembly SIMD128 (-msimd128) or x86 SSE4.1 (-msse4.1)"
#endif

namespace crossattn::simd {

#if defined(__wasm_simd128__)

using f32x4 = v128_t;
using i32x4 = v128_t;
using i16x8 = v128_t;
using i8x16 = v128_t;

inline f32x4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, f32x4 v) { wasm_v128_store(p, v); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return wasm_f32x4_pmin(a, b); }
inline f32x4 abs(f32x4 a) { return wasm_f32x4_abs(a); }
inline bool any_greater(f32x4 a, f32x4 b) { return wasm_v128_any_true(wasm_f32x4_gt(a, b)); }
/// Bit i set where lane i of a is not zero (NaN included).
inline int nonzero_lanes(f32x4 a) { return wasm_i32x4_bitmask(wasm_f32x4_ne(a, wasm_f32x4_const_splat(0.0f))); }
inline f32x4 round_nearest(f32x4 a) { return wasm_f32x4_nearest(a); }
/// Truncating float -> int32 conversion of values already known to be in range.
inline i32x4 to_i32(f32x4 a) { return wasm_i32x4_trunc_sat_f32x4(a); }
/// to_i32 of values known to be finite and in range: with relaxed SIMD its conversion, which gives
/// the same there (one instruction on x86, against trunc_sat's five in V8).
#if defined(__wasm_relaxed_simd__)
inline i32x4 to_i32_finite(f32x4 a) { return wasm_i32x4_relaxed_trunc_f32x4(a); }
#else
inline i32x4 to_i32_finite(f32x4 a) { return to_i32(a); }
#endif
inline f32x4 to_f32(i32x4 a) { return wasm_f32x4_convert_i32x4(a); }
inline i32x4 add_i32(i32x4 a, i32x4 b) { return wasm_i32x4_add(a, b); }
inline i32x4 shift_left_i32(i32x4 a, int bits) { return wasm_i32x4_shl(a, bits); }
inline f32x4 reinterpret_f32(i32x4 a) { return a; }
inline i32x4 splat_i32(int32_t x) { return wasm_i32x4_splat(x); }
/// Pairwise int16 products summed into int32 lanes: lane i = a[2i] b[2i] + a[2i+1] b[2i+1].
inline i32x4 dot_i16(i16x8 a, i16x8 b) { return wasm_i32x4_dot_i16x8(a, b); }
inline i32x4 zero_i32() { return wasm_i32x4_const_splat(0); }
inline i32x4 sub_i32(i32x4 a, i32x4 b) { return wasm_i32x4_sub(a, b); }
/// Sixteen bytes at p, as eight int16 lanes (each lane: byte 2i low, byte 2i+1 high).
inline i16x8 load_i16x8(const int8_t* p) { return wasm_v128_load(p); }
inline void store_i8x16(int8_t* p, i16x8 v) { wasm_v128_store(p, v); }
inline void store_i32(int32_t* p, i32x4 v) { wasm_v128_store(p, v); }
inline i32x4 load_i32(const int32_t* p) { return wasm_v128_load(p); }
/// Lanes {a0, a2} stored at p and {a1, a3} at q, 8 bytes each.
inline void store_even_odd_i32(int32_t* p, int32_t* q, i32x4 a) {
  const i32x4 v = wasm_i32x4_shuffle(a, a, 0, 2, 1, 3);
  wasm_v128_store64_lane(p, v, 0);
  wasm_v128_store64_lane(q, v, 1);
}
/// Each int16 lane's high byte, sign-extended: an arithmetic shift right by 8.
inline i16x8 high_bytes_i16(i16x8 a) { return wasm_i16x8_shr(a, 8); }
/// Every byte's top bit flipped: int8 w becomes the uint8 w + 128, and back.
inline i16x8 flip_sign_bits(i16x8 a) { return wasm_v128_xor(a, wasm_i8x16_const_splat(-128)); }
/// Bytes {a0, b0, a1, b1, ..., a7, b7} and {a8, b8, ..., a15, b15}.
inline i16x8 interleave_low_i8(i16x8 a, i16x8 b) {
  return wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}
inline i16x8 interleave_high_i8(i16x8 a, i16x8 b) {
  return wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}
/// Packs two int32x4 into int16x8 with signed saturation.
inline i16x8 narrow_i32(i32x4 a, i32x4 b) { return wasm_i16x8_narrow_i32x4(a, b); }
inline void store_i16(int16_t* p, i16x8 v) { wasm_v128_store(p, v); }
/// Lanes {a0, a2, b0, b2} and {a1, a3, b1, b3}: the even and odd lanes of a and b.
inline f32x4 even_lanes(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 0, 2, 4, 6); }
inline f32x4 odd_lanes(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 1, 3, 5, 7); }
/// Transposes the 4 x 4 matrix whose rows are a, b, c, d in place.
inline void transpose4(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
  const f32x4 ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
  const f32x4 cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
  a = wasm_i32x4_shuffle(ab_lo, cd_lo, 0, 1, 4, 5);
  b = wasm_i32x4_shuffle(ab_lo, cd_lo, 2, 3, 6, 7);
  c = wasm_i32x4_shuffle(ab_hi, cd_hi, 0, 1, 4, 5);
  d = wasm_i32x4_shuffle(ab_hi, cd_hi, 2, 3, 6, 7);
}
/// Bytes {0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15} of a: four byte pairs and the four
/// that follow them 8 bytes on, as four quads.
inline i8x16 pairs_to_quads(i8x16 a) { return wasm_i8x16_shuffle(a, a, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15); }
inline i16x8 max_i16(i16x8 a, i16x8 b) { return wasm_i16x8_max(a, b); }
inline i16x8 neg_i16(i16x8 a) { return wasm_i16x8_neg(a); }
/// Packs two int16x8 into int8x16 with signed saturation.
inline i8x16 narrow_i16(i16x8 a, i16x8 b) { return wasm_i8x16_narrow_i16x8(a, b); }
/// Packs two int16x8 into uint8x16 with unsigned saturation.
inline i8x16 narrow_u8(i16x8 a, i16x8 b) { return wasm_u8x16_narrow_i16x8(a, b); }
inline i16x8 add_i16(i16x8 a, i16x8 b) { return wasm_i16x8_add(a, b); }
inline i16x8 splat_i16(int16_t x) { return wasm_i16x8_splat(x); }
inline i16x8 load_i16(const int16_t* p) { return wasm_v128_load(p); }
inline bool any_nonzero(i16x8 a) { return wasm_v128_any_true(a); }
template <int kLane>
inline int32_t lane_i32(i32x4 a) { return wasm_i32x4_extract_lane(a, kLane); }

#if defined(__wasm_relaxed_simd__)
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return wasm_f32x4_relaxed_madd(a, b, c); }
inline i32x4 dot_i8_add(i8x16 w, i8x16 x, i32x4 acc) { return wasm_i32x4_relaxed_dot_i8x16_i7x16_add(w, x, acc); }
#endif

#else

using f32x4 = __m128;
using i32x4 = __m128i;
using i16x8 = __m128i;
using i8x16 = __m128i;

inline f32x4 load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, f32x4 v) { _mm_storeu_ps(p, v); }
inline f32x4 splat(float x) { return _mm_set1_ps(x); }
inline f32x4 add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return _mm_max_ps(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return _mm_min_ps(a, b); }
inline f32x4 abs(f32x4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
inline bool any_greater(f32x4 a, f32x4 b) { return _mm_movemask_ps(_mm_cmpgt_ps(a, b)) != 0; }
inline int nonzero_lanes(f32x4 a) { return _mm_movemask_ps(_mm_cmpneq_ps(a, _mm_setzero_ps())); }
inline f32x4 round_nearest(f32x4 a) { return _mm_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline i32x4 to_i32(f32x4 a) { return _mm_cvttps_epi32(a); }
inline i32x4 to_i32_finite(f32x4 a) { return _mm_cvttps_epi32(a); }
inline f32x4 to_f32(i32x4 a) { return _mm_cvtepi32_ps(a); }
inline i32x4 add_i32(i32x4 a, i32x4 b) { return _mm_add_epi32(a, b); }
inline i32x4 shift_left_i32(i32x4 a, int bits) { return _mm_slli_epi32(a, bits); }
inline f32x4 reinterpret_f32(i32x4 a) { return _mm_castsi128_ps(a); }
inline i32x4 splat_i32(int32_t x) { return _mm_set1_epi32(x); }
inline i32x4 dot_i16(i16x8 a, i16x8 b) { return _mm_madd_epi16(a, b); }
inline i32x4 zero_i32() { return _mm_setzero_si128(); }
inline i32x4 sub_i32(i32x4 a, i32x4 b) { return _mm_sub_epi32(a, b); }
inline i16x8 load_i16x8(const int8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store_i8x16(int8_t* p, i16x8 v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline void store_i32(int32_t* p, i32x4 v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline i32x4 load_i32(const int32_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store_even_odd_i32(int32_t* p, int32_t* q, i32x4 a) {
  const __m128i v = _mm_shuffle_epi32(a, _MM_SHUFFLE(3, 1, 2, 0));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), v);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(q), _mm_unpackhi_epi64(v, v));
}
inline i16x8 high_bytes_i16(i16x8 a) { return _mm_srai_epi16(a, 8); }
inline i16x8 flip_sign_bits(i16x8 a) { return _mm_xor_si128(a, _mm_set1_epi8(-128)); }
inline i16x8 interleave_low_i8(i16x8 a, i16x8 b) { return _mm_unpacklo_epi8(a, b); }
inline i16x8 interleave_high_i8(i16x8 a, i16x8 b) { return _mm_unpackhi_epi8(a, b); }
inline i16x8 narrow_i32(i32x4 a, i32x4 b) { return _mm_packs_epi32(a, b); }
inline void store_i16(int16_t* p, i16x8 v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline f32x4 even_lanes(f32x4 a, f32x4 b) { return _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)); }
inline f32x4 odd_lanes(f32x4 a, f32x4 b) { return _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)); }
inline void transpose4(f32x4& a, f32x4& b, f32x4& c, f32x4& d) { _MM_TRANSPOSE4_PS(a, b, c, d); }
inline i8x16 pairs_to_quads(i8x16 a) {
  return _mm_shuffle_epi8(a, _mm_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15));
}
inline i16x8 max_i16(i16x8 a, i16x8 b) { return _mm_max_epi16(a, b); }
inline i16x8 neg_i16(i16x8 a) { return _mm_sub_epi16(_mm_setzero_si128(), a); }
inline i8x16 narrow_i16(i16x8 a, i16x8 b) { return _mm_packs_epi16(a, b); }
inline i8x16 narrow_u8(i16x8 a, i16x8 b) { return _mm_packus_epi16(a, b); }
inline i16x8 add_i16(i16x8 a, i16x8 b) { return _mm_add_epi16(a, b); }
inline i16x8 splat_i16(int16_t x) { return _mm_set1_epi16(x); }
inline i16x8 load_i16(const int16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline bool any_nonzero(i16x8 a) { return _mm_testz_si128(a, a) == 0; }
template <int kLane>
inline int32_t lane_i32(i32x4 a) { return _mm_extract_epi32(a, kLane); }

#if defined(CROSSATTN_EMULATE_RELAXED_SIMD)
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
#if defined(CROSSATTN_EMULATE_AVX_VNNI)
/// As V8 lowers i32x4.relaxed_dot_i8x16_i7x16_add_s with AVX-VNNI (vpdpbusd): x's bytes unsigned,
/// w's signed, exact int32 sums (widened to int16, multiplied in pairs, the pairs added).
inline i32x4 dot_i8_add(i8x16 w, i8x16 x, i32x4 acc) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i low = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), _mm_cvtepi8_epi16(w));
  const __m128i high = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), _mm_cvtepi8_epi16(_mm_srli_si128(w, 8)));
  return _mm_add_epi32(acc, _mm_hadd_epi32(low, high));
}
#else
/// As V8 lowers i32x4.relaxed_dot_i8x16_i7x16_add_s without AVX-VNNI: pmaddubsw, pmaddwd by ones, paddd.
inline i32x4 dot_i8_add(i8x16 w, i8x16 x, i32x4 acc) {
  return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(x, w), _mm_set1_epi16(1)));
}
#endif
#endif

#endif

#if !defined(CROSSATTN_RELAXED_SIMD)
/// a b + c, unfused (SIMD128 has no fused multiply-add).
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return add(mul(a, b), c); }
#endif

/// Sum of the four lanes.
inline float sum(f32x4 v) {
  alignas(16) float lanes[4];
  store(lanes, v);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

/// {sum(a), sum(b), sum(c), sum(d)}: four horizontal sums at once, in 6 shuffles and 3 adds.
inline f32x4 sums(f32x4 a, f32x4 b, f32x4 c, f32x4 d) {
  const f32x4 ab = add(even_lanes(a, b), odd_lanes(a, b));  // {a0+a1, a2+a3, b0+b1, b2+b3}
  const f32x4 cd = add(even_lanes(c, d), odd_lanes(c, d));
  return add(even_lanes(ab, cd), odd_lanes(ab, cd));
}

/// Largest of the four lanes.
inline float max_lane(f32x4 v) {
  alignas(16) float lanes[4];
  store(lanes, v);
  const float a = lanes[0] > lanes[1] ? lanes[0] : lanes[1], b = lanes[2] > lanes[3] ? lanes[2] : lanes[3];
  return a > b ? a : b;
}

/// exp's constants, as values loaded before a loop. V8 builds each v128 constant anew where it is
/// used, three instructions a constant (Node 26's code for log_sum_exp, 2026-11-30: 13 constants, 39
/// of the loop's 75 instructions); a value loaded once stays in a register or is reloaded by one.
struct ExpConstants {
  f32x4 low, high, log2e, ln2_high, ln2_low, p0, p1, p2, p3, p4, p5, one;
  i32x4 exponent_bias;
};

/// The constants, read through a pointer the compiler cannot see through (so that it keeps them as
/// loads, not constants at each use).
inline ExpConstants exp_constants() {
  alignas(16) static const float kSplats[12][4] = {
#define CROSSATTN_SPLAT(v) {v, v, v, v}
      CROSSATTN_SPLAT(-87.3f),           CROSSATTN_SPLAT(88.0f),           CROSSATTN_SPLAT(1.44269504088896341f),
      CROSSATTN_SPLAT(0.693359375f),     CROSSATTN_SPLAT(-2.12194440e-4f), CROSSATTN_SPLAT(1.9875691500e-4f),
      CROSSATTN_SPLAT(1.3981999507e-3f), CROSSATTN_SPLAT(8.3334519073e-3f), CROSSATTN_SPLAT(4.1665795894e-2f),
      CROSSATTN_SPLAT(1.6666665459e-1f), CROSSATTN_SPLAT(5.0000001201e-1f), CROSSATTN_SPLAT(1.0f),
#undef CROSSATTN_SPLAT
  };
  alignas(16) static const int32_t kExponentBias[4] = {127, 127, 127, 127};
  const float(*volatile opaque)[4] = kSplats;
  const int32_t* volatile opaque_bias = kExponentBias;
  const float(*t)[4] = opaque;
  return {load(t[0]), load(t[1]), load(t[2]), load(t[3]), load(t[4]),  load(t[5]), load(t[6]),
          load(t[7]), load(t[8]), load(t[9]), load(t[10]), load(t[11]), load_i32(opaque_bias)};
}

/// exp(x) for every lane, to about 2 ulp on [-87.3, 88], inputs outside clamped to that range: Cephes' expf, as in Eigen's
/// pexp. x = n ln2 + r with |r| <= ln2 / 2; exp(r) by a degree-5 polynomial; 2^n by the exponent bits.
/// `c`: exp_constants(), loaded once outside the loop.
inline f32x4 exp(f32x4 x, const ExpConstants& c) {
  x = min(max(x, c.low), c.high);
  const f32x4 n = round_nearest(mul(x, c.log2e));
  // r = x - n ln2, with ln2 split in two for precision (Cody-Waite).
  f32x4 r = sub(x, mul(n, c.ln2_high));
  r = sub(r, mul(n, c.ln2_low));
  f32x4 p = c.p0;
  p = add(mul(p, r), c.p1);
  p = add(mul(p, r), c.p2);
  p = add(mul(p, r), c.p3);
  p = add(mul(p, r), c.p4);
  p = add(mul(p, r), c.p5);
  p = add(add(mul(mul(p, r), r), r), c.one);
  // n is an integer in [-126, 127], or NaN with x (then so is p, and the result).
  const f32x4 two_n = reinterpret_f32(shift_left_i32(add_i32(to_i32_finite(n), c.exponent_bias), 23));
  return mul(p, two_n);
}

}  // namespace crossattn::simd
