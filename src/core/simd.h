// core/simd.h: a thin vector wrapper over wasm SIMD128, so kernels read as arithmetic.
//
// OSW_HAVE_SIMD is the one switch between the SIMD kernels and their scalar twins: every
// kernel with a vector path tests it (never __wasm_simd128__ or OSW_USE_SIMDE directly).
// Under Emscripten with -msimd128 the intrinsics come from <wasm_simd128.h>. A native
// build (tests under sanitizers, the fuzzer) defines OSW_USE_SIMDE and gets the same
// intrinsics from SIMDe, implemented with SSE. Without either, or with -DOSW_SCALAR=1,
// OSW_HAVE_SIMD is 0 and only the scalar kernels exist: tests/native builds that
// configuration (osw-tests-scalar) and compares its results with the SIMD build's bit for
// bit. Helpers are named vec_* so they are not mistaken for intrinsics. Loads and stores
// are unaligned and never touch memory past the lanes used.
#pragma once

#if defined(OSW_SCALAR) && OSW_SCALAR
#define OSW_HAVE_SIMD 0
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define OSW_HAVE_SIMD 1
#elif defined(OSW_USE_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#define OSW_HAVE_SIMD 1
#else
#define OSW_HAVE_SIMD 0
#endif

namespace osw {

#if OSW_HAVE_SIMD
template <typename F>
struct Vec;

template <>
struct Vec<float> {
  static constexpr int kLanes = 4;
  using V = v128_t;
  static inline V load(const float* p) { return wasm_v128_load(p); }
  static inline void store(float* p, V v) { wasm_v128_store(p, v); }
  static inline V splat(float s) { return wasm_f32x4_splat(s); }
  static inline V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static inline V mul(V a, V b) { return wasm_f32x4_mul(a, b); }
  // a + b * c (two roundings: wasm SIMD128 has no fused multiply-add)
  static inline V madd(V a, V b, V c) { return wasm_f32x4_add(a, wasm_f32x4_mul(b, c)); }
};

template <>
struct Vec<double> {
  static constexpr int kLanes = 2;
  using V = v128_t;
  static inline V load(const double* p) { return wasm_v128_load(p); }
  static inline void store(double* p, V v) { wasm_v128_store(p, v); }
  static inline V splat(double s) { return wasm_f64x2_splat(s); }
  static inline V add(V a, V b) { return wasm_f64x2_add(a, b); }
  static inline V mul(V a, V b) { return wasm_f64x2_mul(a, b); }
  static inline V madd(V a, V b, V c) { return wasm_f64x2_add(a, wasm_f64x2_mul(b, c)); }
};
#endif

}  // namespace osw
