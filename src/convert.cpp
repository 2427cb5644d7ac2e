// convert.cpp: the row conversions of convert.h, scalar and SIMD, but those of float16 and
// bfloat16 (convert_half.cpp).
#include "convert.h"

#include <type_traits>

#include "simd.h"

namespace osw {

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
      store_halves(out + i, wasm_v128_load(x + i), [](v128_t v) __attribute__((always_inline)) {
        if constexpr (std::is_signed<I>::value) return wasm_f64x2_convert_low_i32x4(v);
        else return wasm_f64x2_convert_low_u32x4(v);
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
  if constexpr (std::is_signed<I>::value) return wasm_i32x4_trunc_sat_f64x2_zero(r);
  else return wasm_u32x4_trunc_sat_f64x2_zero(r);
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

// 8- and 16-bit integers that run in double (resize.cpp: where their float32 error bound is
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
      const v128_t hi = wasm_f64x2_splat(sig ? 32767.0 : 65535.0), lo = wasm_f64x2_splat(sig ? -32768.0 : 0.0);
      const auto conv = [&](const double* p) __attribute__((always_inline)) {
        const v128_t v = wasm_f64x2_pmax(wasm_f64x2_pmin(wasm_v128_load(p), hi), lo);
        return wasm_i32x4_trunc_sat_f64x2_zero(wasm_f64x2_nearest(v));
      };
      if constexpr (!sig) {
        // uint16: clamped with 0 first (pmax(0, NaN) is 0), then rounded by the float unit:
        // + 1.5 * 2^52 leaves the integer in the low 32 bits of the sum (half to even, as
        // f64x2.nearest; resize_exact_scan.cpp's narrow_fix does the same in float), no
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

void narrow_from_double(const double* in, int8_t* y, int64_t n, int mode) { narrow_small_double(in, y, n, mode); }
void narrow_from_double(const double* in, uint8_t* y, int64_t n, int mode) { narrow_small_double(in, y, n, mode); }
void narrow_from_double(const double* in, int16_t* y, int64_t n, int mode) { narrow_small_double(in, y, n, mode); }
void narrow_from_double(const double* in, uint16_t* y, int64_t n, int mode) { narrow_small_double(in, y, n, mode); }
void widen_to_double(const int32_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void widen_to_double(const uint32_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void narrow_from_double(const double* in, int32_t* y, int64_t n, int mode) { narrow_int(in, y, n, mode); }
void narrow_from_double(const double* in, uint32_t* y, int64_t n, int mode) { narrow_int(in, y, n, mode); }
void widen_to_double(const int64_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void widen_to_double(const uint64_t* x, double* out, int64_t n) { widen_int(x, out, n); }
void narrow_from_double(const double* in, int64_t* y, int64_t n, int mode) { narrow_int(in, y, n, mode); }
void narrow_from_double(const double* in, uint64_t* y, int64_t n, int mode) { narrow_int(in, y, n, mode); }

// 8- and 16-bit integers: widened exactly to float; stored rounded in float (half to even:
// f32x4.nearest; truncation: the saturating conversion itself) and narrowed with
// saturation, the int32 bounds first and then the type's, which is one clamp. Rounding half
// up (mode 2) adds 0.5 in double (in float a sum such as 0.49999997 + 0.5 would round up to
// 1): the scalar loop. 32-bit integers on the float32 steps (where those compute X exactly,
// resize.cpp) the same way: widened as static_cast<float>, int32 stored by the saturating
// conversion (NaN to 0), uint32 by the scalar loop.
namespace {
template <typename I>
void widen_small(const I* x, float* out, int64_t n) {
  int64_t i = 0;
#if OSW_HAVE_SIMD
  for (; i + 8 <= n; i += 8) {
    if constexpr (sizeof(I) == 4) {
      const bool sig = std::is_signed<I>::value;
      const v128_t a = wasm_v128_load(x + i), b = wasm_v128_load(x + i + 4);
      wasm_v128_store(out + i, sig ? wasm_f32x4_convert_i32x4(a) : wasm_f32x4_convert_u32x4(a));
      wasm_v128_store(out + i + 4, sig ? wasm_f32x4_convert_i32x4(b) : wasm_f32x4_convert_u32x4(b));
      continue;
    }
    v128_t v;
    if constexpr (std::is_same<I, uint8_t>::value) v = wasm_u16x8_extend_low_u8x16(wasm_v128_load64_zero(x + i));
    else if constexpr (sizeof(I) == 1) v = wasm_i16x8_extend_low_i8x16(wasm_v128_load64_zero(x + i));
    else v = wasm_v128_load(x + i);
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
        if constexpr (sizeof(I) == 2) wasm_v128_store(y + i, h);
        else if constexpr (std::is_same<I, uint8_t>::value) wasm_v128_store64_lane(y + i, wasm_u8x16_narrow_i16x8(h, h), 0);
        else wasm_v128_store64_lane(y + i, wasm_i8x16_narrow_i16x8(h, h), 0);
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
void narrow_from_float(const float* in, int8_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }
void narrow_from_float(const float* in, int16_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }
void narrow_from_float(const float* in, uint16_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }
void widen_to_float(const uint8_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const int32_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void widen_to_float(const uint32_t* x, float* out, int64_t n) { widen_small(x, out, n); }
void narrow_from_float(const float* in, int32_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }
void narrow_from_float(const float* in, uint32_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }
void narrow_from_float(const float* in, uint8_t* y, int64_t n, int mode) { narrow_small(in, y, n, mode); }

}  // namespace osw
