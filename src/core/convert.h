// core/convert.h: whole rows of float16 / bfloat16 / bool / 8- and 16-bit integers to float32,
// and of 32- and 64-bit integers to float64, and back (internal to the library).
//
// Resize runs every type but float32, uint8 and float64 through the float32 or float64
// kernels (resize/resize.cpp, RunLayout::convert): X is widened to the compute type, its steps
// run, Y is narrowed back. That is the arithmetic their own instantiation of the kernels
// did (core/elem.h: they compute in float, or in double for 32- and 64-bit integers, and round
// once on store), so the bytes do not change; only the speed and the download do.
// Each conversion has a scalar form (core/elem.h's per-element functions) and, with SIMD, a
// vector one of the same results for every input bit pattern (tests/cpp/test_convert.cpp
// checks all 2^16 halves and bfloat16s, and floats across every exponent, rounding ties,
// subnormals, overflow, infinities and NaNs).
#pragma once

#include <cstdint>

#include "core/elem.h"

namespace osw {

// n elements of X's type to float, and float back to Y's type (rounded as core/elem.h stores).
// In core/convert.cpp, compiled at -Os (CMakeLists.txt; at -Oz, with the cold code, the
// float16 resizes are markedly slower).
void widen_to_float(const Float16* x, float* out, int64_t n);
void narrow_from_float(const float* in, Float16* y, int64_t n);
void widen_to_float(const BFloat16* x, float* out, int64_t n);
void narrow_from_float(const float* in, BFloat16* y, int64_t n);
void widen_to_float(const Bool8* x, float* out, int64_t n);
void narrow_from_float(const float* in, Bool8* y, int64_t n);

// 32-bit integers run the float64 steps (their compute type, core/elem.h): exact widening, and
// the store of round_integer_output<T>(mode, v) (mode: Compat as an int; 0 is core/elem.h's own
// store, half to even), saturated, NaN to 0.
void widen_to_double(const int32_t* x, double* out, int64_t n);
void widen_to_double(const uint32_t* x, double* out, int64_t n);
void narrow_from_double(const double* in, int32_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, uint32_t* y, int64_t n, int mode);
// 8- and 16-bit integers whose float32 bound is large run the float64 steps: the same stores.
void narrow_from_double(const double* in, int8_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, uint8_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, int16_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, uint16_t* y, int64_t n, int mode);
// ... or the float32 steps where those compute X exactly (|X| below 2^22: resize/resize.cpp):
// widening as static_cast<float>, the same stores from float.
void widen_to_float(const int32_t* x, float* out, int64_t n);
void widen_to_float(const uint32_t* x, float* out, int64_t n);
void narrow_from_float(const float* in, int32_t* y, int64_t n, int mode);
void narrow_from_float(const float* in, uint32_t* y, int64_t n, int mode);
// 8- and 16-bit integers run the float32 steps (exact in float), 64-bit ones the float64
// steps (their compute type, core/elem.h): the same stores as round_integer_output<T>(mode, v).
void widen_to_float(const int8_t* x, float* out, int64_t n);
void widen_to_float(const int16_t* x, float* out, int64_t n);
void widen_to_float(const uint16_t* x, float* out, int64_t n);
void widen_to_float(const uint8_t* x, float* out, int64_t n);  // GridSample's, Resize's rows
void narrow_from_float(const float* in, int8_t* y, int64_t n, int mode);
void narrow_from_float(const float* in, int16_t* y, int64_t n, int mode);
void narrow_from_float(const float* in, uint16_t* y, int64_t n, int mode);
void narrow_from_float(const float* in, uint8_t* y, int64_t n, int mode);
void widen_to_double(const int64_t* x, double* out, int64_t n);
void widen_to_double(const uint64_t* x, double* out, int64_t n);
void narrow_from_double(const double* in, int64_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, uint64_t* y, int64_t n, int mode);

}  // namespace osw
