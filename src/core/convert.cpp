// core/convert.cpp: the row conversions of core/convert.h, scalar and SIMD.
#include "core/convert.h"

#include <type_traits>

#include "core/simd.h"

namespace osw {

namespace {

#if OSW_HAVE_SIMD
// f of v's low 64 bits, then of its high 64 bits, stored one after the other: the widening
// loops' two results per input vector.
template <typename T, typename Fn>
__attribute__((always_inline)) inline void store_halves(T* out, v128_t v, Fn f) {
  wasm_v128_store(out, f(v));
  wasm_v128_store(out + 16 / sizeof(T), f(wasm_i64x2_shuffle(v, v, 1, 0)));
}

// The 16-bit lanes 4 * hi .. 4 * hi + 3 of v in the top halves of four 32-bit lanes, the
// low halves 0 (a swizzle index of -1 gives 0): a bfloat16's float bits, or a half moved up
// by 16 (widen_to_float).
__attribute__((always_inline)) inline v128_t high_halves(v128_t v, int hi) {
  return hi ? wasm_i8x16_swizzle(
                  v, wasm_i8x16_const(-1, -1, 8, 9, -1, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15))
            : wasm_i8x16_swizzle(
                  v, wasm_i8x16_const(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7));
}

// Four halves (the low 64 bits of h16, as uint16 lanes) to four floats: half_to_float(),
// every half, without arithmetic on denormal floats (x86 takes a microcode assist for each
// such operand). Normal halves by integer arithmetic alone (exponent + 112, and + 112
// again for exponent 31: 31 + 224 = 255); subnormal ones, m * 2^-24, as
// (0.5 + m * 2^-24) - 0.5, whose first term the bits 0x3F000000 | m hold: an exact
// subtraction of normal floats. widen_to_float's groups of finite normal halves and zeros
// take a shorter form.
__attribute__((always_inline)) inline v128_t vec_subnormal_half_to_float(v128_t h16) {
  const v128_t h = wasm_u32x4_extend_low_u16x8(h16);
  const v128_t em = wasm_v128_and(h, wasm_i32x4_splat(0x7FFF));
  const v128_t rebias = wasm_i32x4_splat(112 << 23);
  const v128_t is_special = wasm_i32x4_gt(em, wasm_i32x4_splat(0x7BFF));
  const v128_t normal = wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_shl(em, 13), rebias),
                                       wasm_v128_and(is_special, rebias));
  const v128_t sub =
      wasm_f32x4_sub(wasm_v128_or(em, wasm_i32x4_splat(0x3F000000)), wasm_f32x4_splat(0.5f));
  const v128_t is_sub = wasm_i32x4_gt(wasm_i32x4_splat(0x0400), em);
  const v128_t sign = wasm_i32x4_shl(wasm_v128_xor(h, em), 16);
  return wasm_v128_or(wasm_v128_bitselect(sub, normal, is_sub), sign);
}

// Four floats to four halves in the low 16 bits of each lane: half_from_float(). The
// float unit rounds: |f| is scaled by 2^2 through 2^112 (overflowing to infinity from
// 65520 up), then added to a power of two chosen so that the sum's last kept bit is the
// half's last mantissa bit (2^-24 for results below 2^-14): the addition rounds to nearest
// even exactly where the half does, and the sum's bits hold the half's exponent and
// mantissa. NaN (2|f| above 0xFF000000 as integers) gives 0x7E00. 17 operations instead of
// the 24 of the integer form.
__attribute__((always_inline)) inline v128_t vec_float_to_half(v128_t f) {
  const v128_t a = wasm_v128_and(f, wasm_i32x4_splat(0x7FFFFFFF));
  const v128_t scaled =
      wasm_f32x4_mul(wasm_f32x4_mul(a, wasm_f32x4_splat(0x1p112f)), wasm_f32x4_splat(0x1p-110f));
  const v128_t twice = wasm_i32x4_add(f, f);  // the exponent and mantissa, one bit up
  const v128_t bias = wasm_u32x4_max(wasm_v128_and(twice, wasm_i32x4_splat(int32_t(0xFF000000u))),
                                     wasm_i32x4_splat(0x71000000));
  const v128_t sum =
      wasm_f32x4_add(wasm_i32x4_add(wasm_u32x4_shr(bias, 1), wasm_i32x4_splat(0x07800000)), scaled);
  const v128_t bits =
      wasm_i32x4_add(wasm_v128_and(wasm_u32x4_shr(sum, 13), wasm_i32x4_splat(0x7C00)),
                     wasm_v128_and(sum, wasm_i32x4_splat(0x0FFF)));
  const v128_t is_nan = wasm_u32x4_gt(twice, wasm_i32x4_splat(int32_t(0xFF000000u)));
  const v128_t sign = wasm_u32x4_shr(wasm_v128_and(f, wasm_i32x4_splat(int32_t(0x80000000u))), 16);
  return wasm_v128_or(wasm_v128_bitselect(wasm_i32x4_splat(0x7E00), bits, is_nan), sign);
}

// Four floats to four bfloat16 in the low 16 bits of each lane: bfloat16_from_float().
__attribute__((always_inline)) inline v128_t vec_float_to_bfloat16(v128_t f) {
  const v128_t a = wasm_v128_and(f, wasm_i32x4_splat(0x7FFFFFFF));
  const v128_t is_nan = wasm_i32x4_gt(a, wasm_i32x4_splat(0x7F800000));
  const v128_t nan = wasm_v128_or(wasm_u32x4_shr(f, 16), wasm_i32x4_splat(0x0040));
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(f, 16), wasm_i32x4_splat(1));
  const v128_t rounded =
      wasm_u32x4_shr(wasm_i32x4_add(f, wasm_i32x4_add(wasm_i32x4_splat(0x7FFF), odd)), 16);
  return wasm_v128_bitselect(nan, rounded, is_nan);
}
#endif

}  // namespace

#if OSW_HAVE_SIMD
namespace {
// Eight halves to floats by vec_subnormal_half_to_float: widen_to_float's groups holding a
// subnormal half, an infinity or a NaN (out of line, as narrow_half_group).
__attribute__((noinline)) void widen_half_group(const uint16_t* h, float* out) {
  store_halves(
      out, wasm_v128_load(h),
      [](v128_t a) __attribute__((always_inline)) { return vec_subnormal_half_to_float(a); });
}
}  // namespace
#endif

void widen_to_float(const Float16* x, float* out, int64_t n) {
  const uint16_t* h = reinterpret_cast<const uint16_t*>(x);
  int64_t i = 0;
#if OSW_HAVE_SIMD
  // Groups of 8 finite halves none of which is subnormal (the common case): each half to the
  // top of a 32-bit lane (high_halves); an arithmetic shift by 3 puts its exponent and
  // mantissa at bit 13 with copies of the sign above, of which the mask keeps the top one:
  // a float 2^-112 times the half (zero stays zero), which one exact multiply rescales.
  // (In V8 more than twice as fast as vec_subnormal_half_to_float's form.)
  const v128_t keep = wasm_i32x4_splat(int32_t(0x8FFFE000u)), scale = wasm_f32x4_splat(0x1p112f);
  const v128_t mag = wasm_i16x8_splat(0x7FFF);
  for (; i + 8 <= n; i += 8) {
    const v128_t v = wasm_v128_load(h + i), a = wasm_v128_and(v, mag);
    // an infinity or NaN (exponent 31), or a subnormal half (exponent 0, not zero)
    const v128_t special = wasm_v128_or(wasm_i16x8_gt(a, wasm_i16x8_splat(0x7BFF)),
                                        wasm_v128_andnot(wasm_i16x8_lt(a, wasm_i16x8_splat(0x0400)),
                                                         wasm_i16x8_eq(a, wasm_i16x8_splat(0))));
    if (wasm_v128_any_true(special)) {
      widen_half_group(h + i, out + i);
      continue;
    }
    wasm_v128_store(
        out + i, wasm_f32x4_mul(wasm_v128_and(wasm_i32x4_shr(high_halves(v, 0), 3), keep), scale));
    wasm_v128_store(
        out + i + 4,
        wasm_f32x4_mul(wasm_v128_and(wasm_i32x4_shr(high_halves(v, 1), 3), keep), scale));
  }
#endif
  for (; i < n; ++i) out[i] = half_to_float(h[i]);
}

#if OSW_HAVE_SIMD
namespace {
// Eight floats to halves by vec_float_to_half: narrow_from_float's groups that hold a value
// outside the normal halves. (Out of line: inline, clang computes it for every group and
// selects, which more than doubles the time of the common case.)
__attribute__((noinline)) void narrow_half_group(const float* in, uint16_t* h) {
  wasm_v128_store(h, wasm_u16x8_narrow_i32x4(vec_float_to_half(wasm_v128_load(in)),
                                             vec_float_to_half(wasm_v128_load(in + 4))));
}
}  // namespace
#endif

void narrow_from_float(const float* in, Float16* y, int64_t n) {
  uint16_t* h = reinterpret_cast<uint16_t*>(y);
  int64_t i = 0;
#if OSW_HAVE_SIMD
  // Eight floats whose magnitudes all give normal halves (the common case) take
  // half_from_float's own rounding in integers: + 0xFFF + the kept lowest bit, the exponent
  // rebiased by -112 in the same addition, shifted down by 13. Whether they were normal is
  // read from the 8 results packed to 16 bits: each in [0x0400, 0x7BFF] (smaller magnitudes
  // wrap below 0 and saturate the pack to 0xFFFF, or land under 0x0400; from 65520 up,
  // including infinities and NaN, they reach 0x7C00 or saturate). The sign comes from the
  // floats' high halves.
  const v128_t mag = wasm_i32x4_splat(0x7FFFFFFF), one = wasm_i32x4_splat(1);
  const v128_t rebias = wasm_i32x4_splat(0xFFF - (112 << 23));
  const auto round = [&](v128_t a) __attribute__((always_inline)) {
    return wasm_u32x4_shr(
        wasm_i32x4_add(wasm_i32x4_add(a, wasm_v128_and(wasm_u32x4_shr(a, 13), one)), rebias), 13);
  };
  for (; i + 8 <= n; i += 8) {
    const v128_t f0 = wasm_v128_load(in + i), f1 = wasm_v128_load(in + i + 4);
    const v128_t a0 = wasm_v128_and(f0, mag), a1 = wasm_v128_and(f1, mag);
    v128_t t = wasm_u16x8_narrow_i32x4(round(a0), round(a1));
    // t in [0x0400, 0x7BFF] (a normal half): t + 0x0400 in [0x0800, 0x7FFF]; every other t
    // wraps to [0, 0x07FF] or lands on the negative int16 from 0x8000
    const v128_t normal =
        wasm_i16x8_gt(wasm_i16x8_add(t, wasm_i16x8_splat(0x0400)), wasm_i16x8_splat(0x07FF));
    if (!wasm_i16x8_all_true(normal)) {
      // Zeros (a ReLU's feature maps hold many) and magnitudes up to 2^-25, which round to
      // a zero half (2^-25 is the tie between 0 and 2^-24, and goes to the even one), in a
      // group whose other values are normal halves: their lanes cleared. Anything else
      // takes the general form.
      const v128_t tiny = wasm_i16x8_narrow_i32x4(wasm_i32x4_le(a0, wasm_i32x4_splat(0x33000000)),
                                                  wasm_i32x4_le(a1, wasm_i32x4_splat(0x33000000)));
      if (!wasm_i16x8_all_true(wasm_v128_or(normal, tiny))) {
        narrow_half_group(in + i, h + i);
        continue;
      }
      t = wasm_v128_andnot(t, tiny);
    }
    const v128_t sign =
        wasm_i8x16_shuffle(f0, f1, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
    wasm_v128_store(h + i, wasm_v128_or(t, wasm_v128_and(sign, wasm_i16x8_splat(int16_t(0x8000)))));
  }
#endif
  for (; i < n; ++i) h[i] = half_from_float(in[i]);
}

void widen_to_float(const BFloat16* x, float* out, int64_t n) {
  const uint16_t* b = reinterpret_cast<const uint16_t*>(x);
  int64_t i = 0;
#if OSW_HAVE_SIMD
  for (; i + 8 <= n; i += 8) {
    const v128_t v = wasm_v128_load(b + i);
    wasm_v128_store(out + i, high_halves(v, 0));
    wasm_v128_store(out + i + 4, high_halves(v, 1));
  }
#endif
  for (; i < n; ++i) out[i] = bfloat16_to_float(b[i]);
}

void narrow_from_float(const float* in, BFloat16* y, int64_t n) {
  uint16_t* b = reinterpret_cast<uint16_t*>(y);
  int64_t i = 0;
#if OSW_HAVE_SIMD
  for (; i + 8 <= n; i += 8) {
    const v128_t f0 = wasm_v128_load(in + i), f1 = wasm_v128_load(in + i + 4);
    const v128_t inf = wasm_i32x4_splat(0x7F800000), mag = wasm_i32x4_splat(0x7FFFFFFF);
    if (!wasm_v128_any_true(wasm_v128_or(wasm_i32x4_gt(wasm_v128_and(f0, mag), inf),
                                         wasm_i32x4_gt(wasm_v128_and(f1, mag), inf)))) {
      // No NaN among the 8 (the common case): the rounding add alone, and the high halves
      // kept by the shuffle (no lane wraps: only NaN bits are that close to 2^32)
      const auto round = [](v128_t f) __attribute__((always_inline)) {
        return wasm_i32x4_add(
            f, wasm_i32x4_add(wasm_v128_and(wasm_u32x4_shr(f, 16), wasm_i32x4_splat(1)),
                              wasm_i32x4_splat(0x7FFF)));
      };
      wasm_v128_store(b + i, wasm_i8x16_shuffle(round(f0), round(f1), 2, 3, 6, 7, 10, 11, 14, 15,
                                                18, 19, 22, 23, 26, 27, 30, 31));
      continue;
    }
    const v128_t lo = vec_float_to_bfloat16(f0), hi = vec_float_to_bfloat16(f1);
    // Keep the low 16 bits of each lane (a saturating narrow would clamp them).
    wasm_v128_store(b + i, wasm_i8x16_shuffle(lo, hi, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24,
                                              25, 28, 29));
  }
#endif
  for (; i < n; ++i) b[i] = bfloat16_from_float(in[i]);
}

void widen_to_float(const Bool8* x, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = ElemTraits<Bool8>::load(x[i]);
}

// ElemTraits<Bool8>::store rounds half to even and saturates to [0, 255], then takes
// non-zero as 1: exactly v > 0.5 (0.5 rounds to 0; NaN and negatives give 0).
void narrow_from_float(const float* in, Bool8* y, int64_t n) {
  uint8_t* b = reinterpret_cast<uint8_t*>(y);
  for (int64_t i = 0; i < n; ++i) b[i] = in[i] > 0.5f ? 1 : 0;
}

// 32- and 64-bit integers (computed in double). The vector forms, for 32-bit ones, take the
// same steps as round_integer_output: round in double (f64x2.nearest is half to even, as
// nearbyint in the default rounding mode),
// then a saturating truncation, which leaves an integral value in range as it is, takes
// the bounds beyond it and gives 0 for NaN: saturate_round's cases.
namespace {
template <typename I>
void widen_int(const I* x, double* out, int64_t n) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  if constexpr (sizeof(I) == 4) {
    for (; i + 4 <= n; i += 4) {
      store_halves(
          out + i, wasm_v128_load(x + i), [](v128_t v) __attribute__((always_inline)) {
            if constexpr (std::is_signed<I>::value)
              return wasm_f64x2_convert_low_i32x4(v);
            else
              return wasm_f64x2_convert_low_u32x4(v);
          });
    }
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<double>(x[i]);
}

#if OSW_HAVE_SIMD
template <typename I>
__attribute__((always_inline)) inline v128_t vec_round_int(v128_t v, int mode) {
  const v128_t r = mode == 1   ? wasm_f64x2_trunc(v)
                   : mode == 2 ? wasm_f64x2_floor(wasm_f64x2_add(v, wasm_f64x2_splat(0.5)))
                               : wasm_f64x2_nearest(v);
  if constexpr (std::is_signed<I>::value)
    return wasm_i32x4_trunc_sat_f64x2_zero(r);
  else
    return wasm_u32x4_trunc_sat_f64x2_zero(r);
}
#endif

template <typename I>
void narrow_int(const double* in, I* y, int64_t n, int mode) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  if constexpr (sizeof(I) == 4) {
    for (; i + 4 <= n; i += 4) {
      const v128_t lo = vec_round_int<I>(wasm_v128_load(in + i), mode);
      const v128_t hi = vec_round_int<I>(wasm_v128_load(in + i + 2), mode);
      wasm_v128_store(y + i, wasm_i64x2_shuffle(lo, hi, 0, 2));
    }
  }
#endif
  for (; i < n; ++i) y[i] = round_integer_output<I>(mode, in[i]);
}
}  // namespace

// 8- and 16-bit integers that run in double (resize/resize.cpp: where their float32 error bound is
// large): the same stores. 16-bit under half to even (the rounding and types that run in
// double at scale) 8 at a time: clamped to the type's range first (for integer bounds and a
// non-decreasing rounding, rounding the clamped value equals saturating the rounded one;
// NaN passes both and converts to 0), rounded, converted and narrowed; the rest scalar.
namespace {
template <typename I>
void narrow_small_double(const double* in, I* y, int64_t n, int mode) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  if constexpr (sizeof(I) == 2) {
    if (mode == 0) {
      constexpr bool sig = std::is_signed<I>::value;
      const v128_t hi = wasm_f64x2_splat(sig ? 32767.0 : 65535.0),
                   lo = wasm_f64x2_splat(sig ? -32768.0 : 0.0);
      const auto conv = [&](const double* p) __attribute__((always_inline)) {
        const v128_t v = wasm_f64x2_pmax(wasm_f64x2_pmin(wasm_v128_load(p), hi), lo);
        return wasm_i32x4_trunc_sat_f64x2_zero(wasm_f64x2_nearest(v));
      };
      if constexpr (!sig) {
        // uint16: clamped with 0 first (pmax(0, NaN) is 0), then rounded by the float unit:
        // + 1.5 * 2^52 leaves the integer in the low 32 bits of the sum (half to even, as
        // f64x2.nearest; resize/exact_scan.cpp's narrow_fix does the same in float), no
        // saturating conversion (several instructions each in V8).
        const v128_t magic = wasm_f64x2_splat(0x1.8p52);
        const auto sum = [&](const double* p) __attribute__((always_inline)) {
          return wasm_f64x2_add(wasm_f64x2_pmin(wasm_f64x2_pmax(lo, wasm_v128_load(p)), hi), magic);
        };
        for (; i + 8 <= n; i += 8) {
          const v128_t a = wasm_i32x4_shuffle(sum(in + i), sum(in + i + 2), 0, 2, 4, 6);
          const v128_t b = wasm_i32x4_shuffle(sum(in + i + 4), sum(in + i + 6), 0, 2, 4, 6);
          wasm_v128_store(y + i, wasm_u16x8_narrow_i32x4(a, b));
        }
      }
      for (; i + 8 <= n; i += 8) {
        const v128_t a = wasm_i32x4_shuffle(conv(in + i), conv(in + i + 2), 0, 1, 4, 5);
        const v128_t b = wasm_i32x4_shuffle(conv(in + i + 4), conv(in + i + 6), 0, 1, 4, 5);
        wasm_v128_store(y + i, sig ? wasm_i16x8_narrow_i32x4(a, b) : wasm_u16x8_narrow_i32x4(a, b));
      }
    }
  }
#endif
  for (; i < n; ++i) y[i] = round_integer_output<I>(mode, in[i]);
}
}  // namespace

void narrow_from_double(const double* in, int8_t* y, int64_t n, int mode) {
  narrow_small_double(in, y, n, mode);
}
void narrow_from_double(const double* in, uint8_t* y, int64_t n, int mode) {
  narrow_small_double(in, y, n, mode);
}
void narrow_from_double(const double* in, int16_t* y, int64_t n, int mode) {
  narrow_small_double(in, y, n, mode);
}
void narrow_from_double(const double* in, uint16_t* y, int64_t n, int mode) {
  narrow_small_double(in, y, n, mode);
}
void widen_to_double(const int32_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void widen_to_double(const uint32_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void narrow_from_double(const double* in, int32_t* y, int64_t n, int mode) {
  narrow_int(in, y, n, mode);
}
void narrow_from_double(const double* in, uint32_t* y, int64_t n, int mode) {
  narrow_int(in, y, n, mode);
}
void widen_to_double(const int64_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void widen_to_double(const uint64_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void narrow_from_double(const double* in, int64_t* y, int64_t n, int mode) {
  narrow_int(in, y, n, mode);
}
void narrow_from_double(const double* in, uint64_t* y, int64_t n, int mode) {
  narrow_int(in, y, n, mode);
}

// 8- and 16-bit integers: widened exactly to float; stored rounded in float (half to even:
// f32x4.nearest; truncation: the saturating conversion itself) and narrowed with
// saturation, the int32 bounds first and then the type's, which is one clamp. Rounding half
// up (mode 2) adds 0.5 in double (in float a sum such as 0.49999997 + 0.5 would round up to
// 1): the scalar loop. 32-bit integers on the float32 steps (where those compute X exactly,
// resize/resize.cpp) the same way: widened as static_cast<float>, int32 stored by the saturating
// conversion (NaN to 0), uint32 by the scalar loop.
namespace {
template <typename I>
void widen_small(const I* x, float* out, int64_t n) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  if constexpr (std::is_same<I, uint8_t>::value) {
    // uint8 (every row Resize reads from uint8 X, resize/kernels.h's widen_row, and
    // GridSample's): each group of 4 bytes into 32-bit lanes by one swizzle (an index of -1
    // gives 0), then converted as signed (exact below 2^24). In V8 the two-step extends (a
    // high half takes more than one instruction) are about three times slower.
    const v128_t m0 = wasm_i8x16_const(0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1);
    const v128_t four = wasm_i32x4_splat(4);
    const v128_t m1 = wasm_i32x4_add(m0, four), m2 = wasm_i32x4_add(m1, four),
                 m3 = wasm_i32x4_add(m2, four);
    for (; i + 16 <= n; i += 16) {
      const v128_t b = wasm_v128_load(x + i);
      wasm_v128_store(out + i, wasm_f32x4_convert_i32x4(wasm_i8x16_swizzle(b, m0)));
      wasm_v128_store(out + i + 4, wasm_f32x4_convert_i32x4(wasm_i8x16_swizzle(b, m1)));
      wasm_v128_store(out + i + 8, wasm_f32x4_convert_i32x4(wasm_i8x16_swizzle(b, m2)));
      wasm_v128_store(out + i + 12, wasm_f32x4_convert_i32x4(wasm_i8x16_swizzle(b, m3)));
    }
  }
  for (; i + 8 <= n; i += 8) {
    if constexpr (sizeof(I) == 4) {
      const bool sig = std::is_signed<I>::value;
      const v128_t a = wasm_v128_load(x + i), b = wasm_v128_load(x + i + 4);
      wasm_v128_store(out + i, sig ? wasm_f32x4_convert_i32x4(a) : wasm_f32x4_convert_u32x4(a));
      wasm_v128_store(out + i + 4, sig ? wasm_f32x4_convert_i32x4(b) : wasm_f32x4_convert_u32x4(b));
      continue;
    }
    v128_t v;
    if constexpr (std::is_same<I, uint8_t>::value)
      v = wasm_u16x8_extend_low_u8x16(wasm_v128_load64_zero(x + i));
    else if constexpr (sizeof(I) == 1)
      v = wasm_i16x8_extend_low_i8x16(wasm_v128_load64_zero(x + i));
    else
      v = wasm_v128_load(x + i);
    v128_t lo, hi;
    if constexpr (std::is_same<I, uint16_t>::value) {
      lo = wasm_u32x4_extend_low_u16x8(v);
      hi = wasm_u32x4_extend_high_u16x8(v);
    } else {
      lo = wasm_i32x4_extend_low_i16x8(v);
      hi = wasm_i32x4_extend_high_i16x8(v);
    }
    wasm_v128_store(out + i, wasm_f32x4_convert_i32x4(lo));
    wasm_v128_store(out + i + 4, wasm_f32x4_convert_i32x4(hi));
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<float>(x[i]);
}

template <typename I>
void narrow_small(const float* in, I* y, int64_t n, int mode) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  // (uint32: the scalar loop, a rare type; SIMDe's u32x4.trunc_sat_f32x4 on x86 without
  // AVX-512 gives 2^31 for values in [2^31, 2^32), which the native tests would meet)
  if (mode != 2 && !std::is_same<I, uint32_t>::value) {
    for (; i + 8 <= n; i += 8) {
      v128_t a = wasm_v128_load(in + i), b = wasm_v128_load(in + i + 4);
      if (mode == 0) {
        a = wasm_f32x4_nearest(a);
        b = wasm_f32x4_nearest(b);
      }
      a = wasm_i32x4_trunc_sat_f32x4(a);
      b = wasm_i32x4_trunc_sat_f32x4(b);
      if constexpr (std::is_same<I, int32_t>::value) {
        wasm_v128_store(y + i, a);
        wasm_v128_store(y + i + 4, b);
      } else if constexpr (std::is_same<I, uint16_t>::value) {
        wasm_v128_store(y + i, wasm_u16x8_narrow_i32x4(a, b));
      } else {
        const v128_t h = wasm_i16x8_narrow_i32x4(a, b);
        if constexpr (sizeof(I) == 2)
          wasm_v128_store(y + i, h);
        else if constexpr (std::is_same<I, uint8_t>::value)
          wasm_v128_store64_lane(y + i, wasm_u8x16_narrow_i16x8(h, h), 0);
        else
          wasm_v128_store64_lane(y + i, wasm_i8x16_narrow_i16x8(h, h), 0);
      }
    }
  }
#endif
  for (; i < n; ++i) y[i] = round_integer_output<I>(mode, static_cast<double>(in[i]));
}

}  // namespace

void widen_to_float(const int8_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const int16_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const uint16_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void narrow_from_float(const float* in, int8_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}
void narrow_from_float(const float* in, int16_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}
void narrow_from_float(const float* in, uint16_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}
void widen_to_float(const uint8_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const int32_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const uint32_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void narrow_from_float(const float* in, int32_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}
void narrow_from_float(const float* in, uint32_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}
void narrow_from_float(const float* in, uint8_t* y, int64_t n, int mode) {
  narrow_small(in, y, n, mode);
}

}  // namespace osw
