// reference_gridsample.h: a slow GridSample written straight from the spec text and the
// project's decided semantics (docs/semantics.md rows 1, 7, 8, 11), for tests only.
//
// One output element at a time, one channel at a time, everything in double, no tables
// and nothing shared with src/gridsample/: the reflection is the spec's literal "keep
// reflecting until in bound" loop, the taps are enumerated with an odometer over all
// K^r combinations. It is only meant for moderate coordinates (|x| < 1e6 pixels) plus
// +-Inf and NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gridsample/gridsample.h"

namespace ref {

// Spec: "use values at locations reflected by the border ... For location far away from
// the border, it will keep being reflected until becoming in bound."
inline double reflect_loop(double x, double lo, double hi) {
  if (hi <= lo) return lo;
  if (std::fabs(x) > 1e6) return std::numeric_limits<double>::quiet_NaN();  // not for this
  while (x < lo || x > hi) {
    if (x < lo) x = lo + (lo - x);
    else x = hi - (x - hi);
  }
  return x;
}

inline double unnormalize(double g, int64_t L, bool align_corners) {
  // align_corners=1: -1 and 1 are the centres of the corner pixels, 0 and L-1.
  // align_corners=0: -1 and 1 are the outer edges of the corner pixels, -0.5 and L-0.5.
  const double len = static_cast<double>(L);
  return align_corners ? (g + 1.0) / 2.0 * (len - 1.0) : ((g + 1.0) * len - 1.0) / 2.0;
}

// Cubic convolution kernel with A = -0.75.
inline double cubic_k(double s) {
  const double A = -0.75;
  s = std::fabs(s);
  if (s <= 1.0) return (A + 2.0) * s * s * s - (A + 3.0) * s * s + 1.0;
  if (s < 2.0) return A * s * s * s - 5.0 * A * s * s + 8.0 * A * s - 4.0 * A;
  return 0.0;
}

// Pads an integer-valued tap index (as a double). Returns false when zeros padding says
// the tap is outside (it then contributes 0).
inline bool pad_index(osw::PaddingMode padding, bool align_corners, int64_t L, double i,
                      int64_t* out) {
  const double last = static_cast<double>(L - 1);
  if (padding == osw::PaddingMode::Zeros) {
    if (i < 0.0 || i > last) return false;
  } else if (padding == osw::PaddingMode::Border) {
    i = i < 0.0 ? 0.0 : (i > last ? last : i);
  } else {
    const double lo = align_corners ? 0.0 : -0.5;
    const double hi = align_corners ? last : static_cast<double>(L) - 0.5;
    i = reflect_loop(i, lo, hi);
    i = std::nearbyint(i);
    i = i < 0.0 ? 0.0 : (i > last ? last : i);
  }
  *out = static_cast<int64_t>(i);
  return true;
}

// x: shape xdims = (N, C, D1..Dr); grid: shape gdims = (N, O1..Or, r); returns Y with shape
// (N, C, O1..Or), row-major.
inline std::vector<double> gridsample(const std::vector<int64_t>& xdims,
                                      const std::vector<double>& x,
                                      const std::vector<int64_t>& gdims,
                                      const std::vector<double>& grid, osw::GridMode mode,
                                      osw::PaddingMode padding, bool align_corners) {
  const int r = static_cast<int>(xdims.size()) - 2;
  const int64_t N = xdims[0], C = xdims[1];
  int64_t in_size = 1, out_size = 1;
  for (int a = 0; a < r; ++a) in_size *= xdims[2 + a];
  for (int a = 0; a < r; ++a) out_size *= gdims[1 + a];
  std::vector<double> y(static_cast<size_t>(N * C * out_size), 0.0);
  const int K = mode == osw::GridMode::Nearest ? 1 : mode == osw::GridMode::Linear ? 2 : 4;

  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t o = 0; o < out_size; ++o) {
        // grid[n, o, :]: entry 0 is the innermost axis of X (the last one).
        const double* gv = &grid[static_cast<size_t>((n * out_size + o) * r)];
        bool has_nan = false;
        for (int k = 0; k < r; ++k) has_nan = has_nan || std::isnan(gv[k]);
        double& out = y[static_cast<size_t>((n * C + c) * out_size + o)];
        if (has_nan) {
          out = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        if (in_size == 0) {  // no pixel: zeros padding gives 0
          out = 0.0;
          continue;
        }
        // Per axis (axis a = X dimension 2 + a): the K candidate tap positions and weights.
        std::vector<double> pos(static_cast<size_t>(r * K)), wt(static_cast<size_t>(r * K));
        for (int a = 0; a < r; ++a) {
          const int64_t L = xdims[2 + a];
          const double last = static_cast<double>(L - 1);
          // An infinite grid value is an infinitely far location (docs/semantics.md row 11), also
          // where the formula would give Inf * 0 (L = 1 with align_corners=1).
          const double ga = gv[r - 1 - a];
          double xa = std::isinf(ga) ? ga : unnormalize(ga, L, align_corners);
          if (std::isinf(xa)) {
            // Far out of bounds. Reflection has no reflected position for it: treated as
            // border. Zeros and border behave as for any huge value.
            if (padding == osw::PaddingMode::Reflection) xa = xa < 0 ? 0.0 : last;
            else xa = xa < 0 ? -1e300 : 1e300;
          }
          if (mode == osw::GridMode::Nearest) {
            pos[a * K] = std::nearbyint(xa);  // half to even
            wt[a * K] = 1.0;
          } else if (mode == osw::GridMode::Linear) {
            if (padding == osw::PaddingMode::Border) {
              xa = xa < 0.0 ? 0.0 : (xa > last ? last : xa);
            } else if (padding == osw::PaddingMode::Reflection) {
              const double lo = align_corners ? 0.0 : -0.5;
              const double hi = align_corners ? last : static_cast<double>(L) - 0.5;
              xa = reflect_loop(xa, lo, hi);
            }
            const double x0 = std::floor(xa);
            const double t = xa - x0;
            pos[a * K] = x0;
            pos[a * K + 1] = x0 + 1.0;
            wt[a * K] = 1.0 - t;
            wt[a * K + 1] = t;
          } else {
            const double x0 = std::floor(xa);
            const double t = xa - x0;
            for (int k = 0; k < 4; ++k) pos[a * K + k] = x0 - 1.0 + k;
            wt[a * K + 0] = cubic_k(t + 1.0);
            wt[a * K + 1] = cubic_k(t);
            wt[a * K + 2] = cubic_k(1.0 - t);
            wt[a * K + 3] = cubic_k(2.0 - t);
          }
        }
        // Sum over all K^r tap combinations.
        std::vector<int> odo(static_cast<size_t>(r), 0);
        double sum = 0.0;
        for (;;) {
          double w = 1.0;
          int64_t offset = 0;
          bool inside = true;
          for (int a = 0; a < r && inside; ++a) {
            int64_t idx = 0;
            inside = pad_index(padding, align_corners, xdims[2 + a], pos[a * K + odo[a]], &idx);
            int64_t stride = 1;
            for (int b = a + 1; b < r; ++b) stride *= xdims[2 + b];
            offset += idx * stride;
            w *= wt[a * K + odo[a]];
          }
          if (inside) sum += w * x[static_cast<size_t>((n * C + c) * in_size + offset)];
          int a = r - 1;
          while (a >= 0 && ++odo[a] == K) odo[a--] = 0;
          if (a < 0) break;
        }
        out = sum;
      }
    }
  }
  return y;
}

}  // namespace ref
