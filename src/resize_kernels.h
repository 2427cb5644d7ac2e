// resize_kernels.h: the loops of Resize. They see tables, never modes or scales.
//
// A linear/cubic/antialias resize is a sequence of separable passes, one per resized axis.
// A pass views its input as [outer, in, inner] and its output as [outer, out, inner]:
//   y[p, o, j] = sum_{k < count[o]} w[o, k] * x[p, index[o, k], j]
// Two shapes of loop cover every axis: inner == 1 (the innermost axis: a short dot product
// per output) and inner > 1 (whole contiguous rows are blended: the SIMD case).
// The scalar kernel is the reference and always builds; the SIMD kernel has the same
// signature, and tests compare the two in one binary.
#pragma once

#include <cstring>

#include "elem.h"
#include "resize_plan.h"
#include "simd.h"

namespace osw {

// Element conversions between a storage type T and a compute type F.
template <typename F, typename T>
inline F widen(T v) {
  return static_cast<F>(ElemTraits<T>::load(v));
}
template <typename T, typename F>
inline T narrow(F v) {
  return ElemTraits<T>::store(static_cast<typename ElemTraits<T>::Compute>(v));
}

template <typename Tin, typename Tout, typename F>
void resize_pass_scalar(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                        const AxisPlan& plan, const F* weights) {
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  for (int64_t p = 0; p < outer; ++p) {
    const Tin* xp = x + p * in * inner;
    Tout* yp = y + p * out * inner;
    for (int64_t o = 0; o < out; ++o) {
      const int32_t* idx = index + o * K;
      const F* w = weights + o * K;
      const int n = count[o];
      Tout* yo = yp + o * inner;
      for (int64_t j = 0; j < inner; ++j) {
        // Starts from the first product, not from 0, so that -0.0 survives as the SIMD
        // kernel keeps it.
        F acc = n > 0 ? w[0] * widen<F>(xp[idx[0] * inner + j]) : F(0);
        for (int k = 1; k < n; ++k) acc += w[k] * widen<F>(xp[idx[k] * inner + j]);
        yo[j] = narrow<Tout>(acc);
      }
    }
  }
}

#if OSW_HAVE_SIMD
// Vector loads and stores of kLanes elements of a storage type T, converted to and from the
// compute type F. Defined for the pairs the SIMD pass supports (kOk); the conversions equal
// ElemTraits' scalar ones: integers widen exactly, and narrow by rounding half to even
// (f32x4.nearest), converting with saturation (NaN -> 0) and narrowing with saturation.
template <typename T, typename F>
struct Lanes { static constexpr bool kOk = false; };

template <typename F>
struct Lanes<F, F> {
  static constexpr bool kOk = true;
  using V = typename Vec<F>::V;
  static inline V load(const F* p) { return Vec<F>::load(p); }
  static inline void store(F* p, V v) { Vec<F>::store(p, v); }
};

template <>
struct Lanes<uint8_t, float> {
  static constexpr bool kOk = true;
  static inline v128_t load(const uint8_t* p) {
    const v128_t b = wasm_v128_load32_zero(p);
    return wasm_f32x4_convert_u32x4(wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(b)));
  }
  static inline void store(uint8_t* p, v128_t v) {
    const v128_t i = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v));
    const v128_t h = wasm_i16x8_narrow_i32x4(i, i);
    wasm_v128_store32_lane(p, wasm_u8x16_narrow_i16x8(h, h), 0);
  }
};

template <>
struct Lanes<int8_t, float> {
  static constexpr bool kOk = true;
  static inline v128_t load(const int8_t* p) {
    const v128_t b = wasm_v128_load32_zero(p);
    return wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(wasm_i16x8_extend_low_i8x16(b)));
  }
  static inline void store(int8_t* p, v128_t v) {
    const v128_t i = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v));
    const v128_t h = wasm_i16x8_narrow_i32x4(i, i);
    wasm_v128_store32_lane(p, wasm_i8x16_narrow_i16x8(h, h), 0);
  }
};

template <>
struct Lanes<uint16_t, float> {
  static constexpr bool kOk = true;
  static inline v128_t load(const uint16_t* p) {
    return wasm_f32x4_convert_u32x4(wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(p)));
  }
  static inline void store(uint16_t* p, v128_t v) {
    const v128_t i = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v));
    wasm_v128_store64_lane(p, wasm_u16x8_narrow_i32x4(i, i), 0);
  }
};

template <>
struct Lanes<int16_t, float> {
  static constexpr bool kOk = true;
  static inline v128_t load(const int16_t* p) {
    return wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(wasm_v128_load64_zero(p)));
  }
  static inline void store(int16_t* p, v128_t v) {
    const v128_t i = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v));
    wasm_v128_store64_lane(p, wasm_i16x8_narrow_i32x4(i, i), 0);
  }
};

// Same result as resize_pass_scalar<Tin, Tout, F> (same order of operations per element).
// Rows (inner > 1) are blended kLanes at a time; the last partial vector and the innermost
// axis (inner == 1) run the scalar loop, so nothing is read or written past an end.
template <typename Tin, typename Tout, typename F>
void resize_pass_simd(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                      const AxisPlan& plan, const F* weights) {
  using VF = Vec<F>;
  using LI = Lanes<Tin, F>;
  using LO = Lanes<Tout, F>;
  constexpr int L = VF::kLanes;
  if (inner < L) {
    resize_pass_scalar<Tin, Tout, F>(x, y, outer, inner, plan, weights);
    return;
  }
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const int64_t vec_end = inner - inner % L;
  for (int64_t p = 0; p < outer; ++p) {
    const Tin* xp = x + p * in * inner;
    Tout* yp = y + p * out * inner;
    for (int64_t o = 0; o < out; ++o) {
      const int32_t* idx = index + o * K;
      const F* w = weights + o * K;
      const int n = count[o];
      Tout* yo = yp + o * inner;
      if (n == 0) {
        std::memset(static_cast<void*>(yo), 0, sizeof(Tout) * inner);
        continue;
      }
      const Tin* r0 = xp + idx[0] * inner;
      const typename VF::V w0 = VF::splat(w[0]);
      if (n == 1) {
        for (int64_t j = 0; j < vec_end; j += L) LO::store(yo + j, VF::mul(w0, LI::load(r0 + j)));
      } else if (n == 2) {
        // Two taps (linear): the common case, kept free of the generic tap loop.
        const Tin* r1 = xp + idx[1] * inner;
        const typename VF::V w1 = VF::splat(w[1]);
        for (int64_t j = 0; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, LI::load(r0 + j));
          LO::store(yo + j, VF::madd(acc, w1, LI::load(r1 + j)));
        }
      } else {
        for (int64_t j = 0; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, LI::load(r0 + j));
          for (int k = 1; k < n; ++k)
            acc = VF::madd(acc, VF::splat(w[k]), LI::load(xp + idx[k] * inner + j));
          LO::store(yo + j, acc);
        }
      }
      for (int64_t j = vec_end; j < inner; ++j) {
        F acc = w[0] * widen<F>(xp[idx[0] * inner + j]);
        for (int k = 1; k < n; ++k) acc += w[k] * widen<F>(xp[idx[k] * inner + j]);
        yo[j] = narrow<Tout>(acc);
      }
    }
  }
}
#endif

// The pass the executor uses: SIMD where the types allow, scalar otherwise.
template <typename Tin, typename Tout, typename F>
inline void resize_pass(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                        const AxisPlan& plan, const F* weights) {
#if OSW_HAVE_SIMD
  if constexpr (Lanes<Tin, F>::kOk && Lanes<Tout, F>::kOk) {
    resize_pass_simd<Tin, Tout, F>(x, y, outer, inner, plan, weights);
    return;
  }
#endif
  resize_pass_scalar<Tin, Tout, F>(x, y, outer, inner, plan, weights);
}

}  // namespace osw
