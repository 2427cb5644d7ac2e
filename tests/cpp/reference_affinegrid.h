// reference_affinegrid.h: a slow AffineGrid written from the ONNX text (opset 20) and the
// project's decisions (docs/semantics.md, "AffineGrid"), for tests only.
//
// Nothing is shared with src/affinegrid.cpp: the base coordinates are the reference's
// linspace, -1 + i * step with step = 2 / (n - 1) (align_corners=1), or -1 + step / 2 +
// i * step with step = 2 / n (align_corners=0); an axis of one point is 0. The product
// theta . (x, y[, z], 1) is taken in long double with the grid in index order
// (n, [d,] h, w, component). The result is the exact value to within long double rounding,
// before any rounding to the output type; the tests allow that rounding.
#pragma once

#include <cstdint>
#include <vector>

namespace ref {

// One point of an axis of n points, as the reference's linspace builds it.
inline long double affine_base(int64_t i, int64_t n, bool align_corners) {
  if (n == 1) return 0.0L;
  if (align_corners) {
    const long double step = 2.0L / static_cast<long double>(n - 1);
    return -1.0L + static_cast<long double>(i) * step;
  }
  const long double step = 2.0L / static_cast<long double>(n);
  return -1.0L + step / 2 + static_cast<long double>(i) * step;
}

// theta: N matrices of r x (r + 1) values, row-major; sp: the r spatial sizes of `size`
// (H, W or D, H, W). Returns the grid in row-major order, (N, sp..., r). Also returns, per
// element, the sum of the absolute values of the product's terms (for the error bound).
inline std::vector<long double> affine_grid(const std::vector<double>& theta, int64_t N,
                                            const std::vector<int64_t>& sp, bool align_corners,
                                            std::vector<long double>* magnitude = nullptr) {
  const int r = static_cast<int>(sp.size());
  const int64_t D = r == 3 ? sp[0] : 1, H = sp[r - 2], W = sp[r - 1];
  std::vector<long double> out;
  if (magnitude) magnitude->clear();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < D; ++d)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          // (x, y, z, 1): x along W, y along H, z along D.
          long double p[4] = {affine_base(w, W, align_corners), affine_base(h, H, align_corners),
                              r == 3 ? affine_base(d, D, align_corners) : 0.0L, 1.0L};
          if (r == 2) p[2] = 1.0L;
          for (int row = 0; row < r; ++row) {
            long double s = 0, m = 0;
            for (int k = 0; k <= r; ++k) {
              const long double term = static_cast<long double>(theta[(n * r + row) * (r + 1) + k]) * p[k];
              s += term;
              m += term < 0 ? -term : term;
            }
            out.push_back(s);
            if (magnitude) magnitude->push_back(m);
          }
        }
  return out;
}

}  // namespace ref
