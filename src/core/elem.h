// core/elem.h: per-element-type traits used by every kernel.
//
// A kernel is written once as a template over the storage type T. ElemTraits<T> says which
// floating-point type it computes in (Compute), how an element widens to it (load) and how
// a computed value narrows back (store). Integer outputs are rounded half to even and
// saturated to the type's range (docs/semantics.md row 7); NaN becomes 0 for integers.
// Kernels never branch on the type at run time: dispatch happens once per call, through
// dispatch_dtype() below.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/types.h"

namespace osw {

template <typename T, typename Enable = void>
struct ElemTraits;

template <>
struct ElemTraits<float> {
  using Compute = float;
  static constexpr DType kType = DType::Float32;
  static inline float load(float v) { return v; }
  static inline float store(float v) { return v; }
};

template <>
struct ElemTraits<double> {
  using Compute = double;
  static constexpr DType kType = DType::Float64;
  static inline double load(double v) { return v; }
  static inline double store(double v) { return v; }
};

// Storage types that C++ has no arithmetic type for. They are only ever converted.
struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
struct Bool8 {
  uint8_t value;
};  // ONNX bool: one byte, 0 or 1 (any non-zero reads as 1)

// IEEE binary16 <-> binary32. half_from_float rounds to nearest even, overflows to
// infinity, keeps the sign of zero and turns NaN into a quiet NaN.
inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  uint32_t bits;
  if (e == 0) {
    // Zero or subnormal: m * 2^-24, exact in float.
    float f = static_cast<float>(m) * (1.0f / 16777216.0f);
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  } else if (e == 31) {
    bits = sign | 0x7F800000u | (m << 13);
  } else {
    bits = sign | ((e + 112u) << 23) | (m << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

inline uint16_t half_from_float(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return sign | (a > 0x7F800000u ? 0x7E00u : 0x7C00u);  // NaN, Inf
  if (a >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520 rounds to infinity
  if (a < 0x38800000u) {
    // Below the smallest normal half (2^-14): a multiple of 2^-24, rounded half to even.
    float af;
    std::memcpy(&af, &a, 4);
    return sign | static_cast<uint16_t>(std::nearbyint(af * 16777216.0f));
  }
  uint32_t h = (a >> 13) - (112u << 10);  // rebias the exponent, keep 10 mantissa bits
  const uint32_t rest = a & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // carries into the exponent
  return sign | static_cast<uint16_t>(h);
}

// bfloat16 is the top half of a float32: rounding to nearest even on the dropped bits.
inline float bfloat16_to_float(uint16_t b) {
  const uint32_t bits = uint32_t(b) << 16;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}
inline uint16_t bfloat16_from_float(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
  x += 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

// Rounds half to even and saturates to the range of integer type I. NaN -> 0.
template <typename I, typename F>
inline I saturate_round(F v) {
  static_assert(std::is_integral<I>::value, "integer target");
  if (!(v == v)) return I(0);
  // nearbyint uses the current rounding mode, which is round-half-to-even by default.
  F r = std::nearbyint(v);
  // Compare in double: the bounds of 64-bit types are not exact in float, so compare
  // against 2^63 / 2^64, which are.
  const double lo = static_cast<double>(std::numeric_limits<I>::min());
  const double hi_excl = std::is_signed<I>::value
                             ? -lo
                             : 2.0 * (static_cast<double>(std::numeric_limits<I>::max() / 2) + 1.0);
  double d = static_cast<double>(r);
  if (d < lo) return std::numeric_limits<I>::min();
  if (d >= hi_excl) return std::numeric_limits<I>::max();
  return static_cast<I>(d);
}

template <>
struct ElemTraits<Float16> {
  using Compute = float;
  static constexpr DType kType = DType::Float16;
  static inline float load(Float16 v) { return half_to_float(v.bits); }
  static inline Float16 store(float v) { return Float16{half_from_float(v)}; }
};

template <>
struct ElemTraits<BFloat16> {
  using Compute = float;
  static constexpr DType kType = DType::BFloat16;
  static inline float load(BFloat16 v) { return bfloat16_to_float(v.bits); }
  static inline BFloat16 store(float v) { return BFloat16{bfloat16_from_float(v)}; }
};

// bool: interpolated like a 0/1 number, then rounded half to even and saturated to [0, 1].
template <>
struct ElemTraits<Bool8> {
  using Compute = float;
  static constexpr DType kType = DType::Bool;
  static inline float load(Bool8 v) { return v.value != 0 ? 1.0f : 0.0f; }
  static inline Bool8 store(float v) {
    return Bool8{static_cast<uint8_t>(saturate_round<uint8_t>(v) != 0 ? 1 : 0)};
  }
};

// Integers: computed in float when every value is exact in float (8 and 16 bits), in
// double otherwise (32 and 64 bits); stored rounded half to even and saturated (row 7).
template <typename I>
struct ElemTraits<I, typename std::enable_if<std::is_integral<I>::value>::type> {
  using Compute = typename std::conditional<(sizeof(I) <= 2), float, double>::type;
  static constexpr DType kType =
      sizeof(I) == 1   ? (std::is_signed<I>::value ? DType::Int8 : DType::UInt8)
      : sizeof(I) == 2 ? (std::is_signed<I>::value ? DType::Int16 : DType::UInt16)
      : sizeof(I) == 4 ? (std::is_signed<I>::value ? DType::Int32 : DType::UInt32)
                       : (std::is_signed<I>::value ? DType::Int64 : DType::UInt64);
  static inline Compute load(I v) { return static_cast<Compute>(v); }
  static inline I store(Compute v) { return saturate_round<I>(v); }
};

// Integer outputs under the compat option (docs/semantics.md row 7): 0 rounds half to even
// (ONNX), 1 truncates toward zero (ONNX Runtime), 2 rounds half up (PyTorch); all
// saturate, NaN gives 0. Used by Resize and GridSample alike.
template <typename I>
inline I round_integer_output(int mode, double v) {
  if (mode == 1) return saturate_round<I>(std::trunc(v));
  if (mode == 2) return saturate_round<I>(std::floor(v + 0.5));
  return saturate_round<I>(v);
}

// Calls fn(T{}) with the storage type of t; an unknown type is a TypeError naming `what`.
template <typename Fn>
Status dispatch_dtype(DType t, const char* what, Fn&& fn) {
  switch (t) {
    case DType::Float32: return fn(float{});
    case DType::Float64: return fn(double{});
    case DType::Float16: return fn(Float16{});
    case DType::BFloat16: return fn(BFloat16{});
    case DType::Int8: return fn(int8_t{});
    case DType::UInt8: return fn(uint8_t{});
    case DType::Int16: return fn(int16_t{});
    case DType::UInt16: return fn(uint16_t{});
    case DType::Int32: return fn(int32_t{});
    case DType::UInt32: return fn(uint32_t{});
    case DType::Int64: return fn(int64_t{});
    case DType::UInt64: return fn(uint64_t{});
    case DType::Bool: return fn(Bool8{});
    default:
      return Status::Type(std::string(what) + ": element type " + dtype_name(t) +
                          " is not supported");
  }
}

}  // namespace osw
