// elem.h: per-element-type traits used by every kernel.
//
// A kernel is written once as a template over the storage type T. ElemTraits<T> says which
// floating-point type it computes in (Compute), how an element widens to it (load) and how
// a computed value narrows back (store). Integer outputs are rounded half to even and
// saturated to the type's range (SEMANTICS.md row 7); NaN becomes 0 for integers.
// Kernels never branch on the type at run time: dispatch happens once per call, through
// dispatch_dtype() below.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common.h"

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

}  // namespace osw
