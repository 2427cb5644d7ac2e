// convert.h: whole rows of float16 / bfloat16 / bool to float32, and of 32-bit integers to
// float64, and back (internal to the library).
//
// Resize runs float16, bfloat16 and bool through the float32 kernels (resize.cpp,
// RunLayout::convert): X is widened to float32, the float32 steps run, Y is narrowed back.
// That is the arithmetic their own instantiation of the kernels did (elem.h: they compute
// in float and round once on store), so the bytes do not change; only the speed does.
// Each conversion has a scalar form (elem.h's per-element functions) and, with SIMD, a
// vector one of the same results for every input bit pattern (tests/cpp/test_convert.cpp
// checks all 2^16 halves and bfloat16s, and floats across every exponent, rounding ties,
// subnormals, overflow, infinities and NaNs).
#pragma once

#include <cstdint>

#include "elem.h"

namespace osw {

// n elements of X's type to float, and float back to Y's type (rounded as elem.h stores).
// In convert.cpp, compiled for speed (the cold code around them is compiled for size).
void widen_to_float(const Float16* x, float* out, int64_t n);
void narrow_from_float(const float* in, Float16* y, int64_t n);
void widen_to_float(const BFloat16* x, float* out, int64_t n);
void narrow_from_float(const float* in, BFloat16* y, int64_t n);
void widen_to_float(const Bool8* x, float* out, int64_t n);
void narrow_from_float(const float* in, Bool8* y, int64_t n);

// 32-bit integers run the float64 steps (their compute type, elem.h): exact widening, and
// the store of round_integer_output<T>(mode, v) (mode: Compat as an int; 0 is elem.h's own
// store, half to even), saturated, NaN to 0.
void widen_to_double(const int32_t* x, double* out, int64_t n);
void widen_to_double(const uint32_t* x, double* out, int64_t n);
void narrow_from_double(const double* in, int32_t* y, int64_t n, int mode);
void narrow_from_double(const double* in, uint32_t* y, int64_t n, int mode);

}  // namespace osw
