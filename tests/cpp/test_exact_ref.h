// test_exact_ref.h: the __int128 arithmetic of the exact references (test_exact.cpp for
// Resize, test_gs_exact.cpp for GridSample): floors, doubles as dyadic fractions, Keys'
// kernel over integers, saturation, and the counts of outputs near a boundary.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace exact_ref {

using i128 = __int128;

inline i128 fdiv(i128 p, i128 q) {  // floor(p / q), q > 0
  i128 f = p / q;
  if (f * q > p) --f;
  return f;
}

// Keys' kernel at u / q (u >= 0) times b q^3, a = an / b.
inline i128 keys(i128 u, i128 q, i128 an, i128 b) {
  if (u <= q) return (an + 2 * b) * u * u * u - (an + 3 * b) * u * u * q + b * q * q * q;
  if (u < 2 * q) return an * (u * u * u - 5 * u * u * q + 8 * u * q * q - 4 * q * q * q);
  return 0;
}

// A finite double as p / q, q = 2^k.
inline void dyadic(double v, i128* p, i128* q) {
  *q = 1;
  while (v != std::floor(v)) {
    v *= 2;
    *q *= 2;
  }
  *p = static_cast<i128>(v);
}

template <typename I>
I saturate(i128 v) {
  if (v < i128(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v > i128(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return I(v);
}

// Outputs compared, those exactly at a boundary, just below and just above one, and wrong.
struct Stats {
  int64_t outputs = 0, ties = 0, below = 0, above = 0, wrong = 0;
};

}  // namespace exact_ref
