// reference_resize.h: a slow Resize written straight from the spec, for tests only.
//
// It shares nothing with the library's plan or kernels: every output element is computed
// by nested 1-D interpolation (the outermost axis last), with the coordinate formulas
// written out again here, in double. Inputs: attributes, the per-axis geometry the spec
// defines (input length, output length, the scale as a ratio, roi), and the data.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "resize/params.h"

namespace ref {

using osw::CoordMode;
using osw::NearestMode;
using osw::ResizeAttrs;
using osw::ResizeMode;

struct Axis {
  int64_t in, out;
  double num, den;  // scale = num / den
  double roi_start = 0, roi_end = 1;
};

inline double keys(double s, double a) {
  s = std::fabs(s);
  if (s <= 1) return (a + 2) * s * s * s - (a + 3) * s * s + 1;
  if (s < 2) return a * s * s * s - 5 * a * s * s + 8 * a * s - 4 * a;
  return 0;
}

// Input coordinate of output index x (spec formulas), evaluated in long double (binary128
// under Emscripten, x87 extended natively) so that exact integers and ties come out exact
// whatever the order of operations; the library must match it in double.
inline double source(const ResizeAttrs& at, const Axis& g, double xd) {
  using LD = long double;
  const LD x = xd, num = g.num, den = g.den;
  const LD in = LD(g.in), out = LD(g.out);
  const LD s = num / den;
  const LD W = in * num / den;  // unrounded output length
  switch (at.coord) {
    case CoordMode::HalfPixel: return double((x + 0.5L) / s - 0.5L);
    case CoordMode::HalfPixelSymmetric:
      return double(in / 2 * (1 - out / W) + (x + 0.5L) / s - 0.5L);
    case CoordMode::PytorchHalfPixel: return g.out > 1 ? double((x + 0.5L) / s - 0.5L) : 0.0;
    case CoordMode::AlignCorners: return W == 1 ? 0.0 : double(x * (in - 1) / (W - 1));
    case CoordMode::Asymmetric: return double(x / s);
    case CoordMode::TfHalfPixelForNN: return double((x + 0.5L) / s);
    case CoordMode::TfCropAndResize: {
      const LD a = g.roi_start, b = g.roi_end;
      return g.out > 1 ? double(a * (in - 1) + x * (b - a) * (in - 1) / (out - 1))
                       : double(0.5L * (a + b) * (in - 1));
    }
  }
  return 0;
}

// 1-D interpolation of v (length g.in) at output index x. Sets *outside for crop boxes.
inline double interp1d(const ResizeAttrs& at, const Axis& g, const std::vector<double>& v,
                       int64_t xo, bool* outside) {
  const double x = source(at, g, double(xo));
  const int64_t L = g.in;
  *outside = at.coord == CoordMode::TfCropAndResize && (x < 0 || x > double(L - 1));
  if (*outside) return at.extrapolation_value;
  auto clampi = [&](int64_t i) { return i < 0 ? 0 : (i >= L ? L - 1 : i); };
  const double scale = g.num / g.den;
  if (at.mode == ResizeMode::Nearest) {
    double f = std::floor(x), r = x - f, idx;
    switch (at.nearest) {
      case NearestMode::RoundPreferFloor: idx = r <= 0.5 ? f : f + 1; break;
      case NearestMode::RoundPreferCeil: idx = r < 0.5 ? f : f + 1; break;
      case NearestMode::Floor: idx = f; break;
      case NearestMode::Ceil: idx = std::ceil(x); break;
      default: idx = scale >= 1 ? f : std::ceil(x); break;
    }
    return v[clampi(int64_t(idx))];
  }
  // Taps: positions and weights.
  std::vector<int64_t> pos;
  std::vector<double> w;
  const bool cubic = at.mode == ResizeMode::Cubic;
  if (at.antialias && scale < 1) {
    const double base = std::ceil(x) - 1, ratio = x - base;
    int64_t s0 = cubic ? int64_t(std::floor(-2 / scale) + 1) : int64_t(std::floor(-1 / scale) + 1);
    int64_t s1 = cubic ? 2 - s0 : s0 + 2 - 2 * s0;
    double sum = 0;
    for (int64_t i = s0; i < s1; ++i) {
      double arg = (double(i) - ratio) * scale;
      double wi = cubic ? keys(arg, at.cubic_a) : std::fmax(0.0, 1 - std::fabs(arg));
      pos.push_back(int64_t(base) + i);
      w.push_back(wi);
      sum += wi;
    }
    for (double& wi : w) wi /= sum;
  } else {
    const double f = std::floor(x), t = x - f;
    if (!cubic) {
      pos = {int64_t(f), int64_t(f) + 1};
      w = {1 - t, t};
    } else {
      pos = {int64_t(f) - 1, int64_t(f), int64_t(f) + 1, int64_t(f) + 2};
      w = {keys(t + 1, at.cubic_a), keys(t, at.cubic_a), keys(1 - t, at.cubic_a), keys(2 - t, at.cubic_a)};
    }
  }
  if (at.exclude_outside) {
    double sum = 0;
    for (size_t k = 0; k < pos.size(); ++k) {
      if (pos[k] < 0 || pos[k] >= L) w[k] = 0;
      sum += w[k];
    }
    if (sum == 0) return std::numeric_limits<double>::quiet_NaN();  // 0/0: every tap outside
    for (double& wi : w) wi /= sum;
  }
  double acc = 0;
  for (size_t k = 0; k < pos.size(); ++k)
    if (w[k] != 0) acc += w[k] * v[clampi(pos[k])];
  return acc;
}

// Resizes data (dims of axes[0..]) into out (row-major), recursively: the sub-tensors
// along the inner axes are resized first, then the outermost axis is interpolated.
inline void resize_nd(const ResizeAttrs& at, const std::vector<Axis>& axes, size_t first,
                      const std::vector<double>& data, std::vector<double>* out, char* any_outside) {
  const Axis& g = axes[first];
  if (first + 1 == axes.size()) {
    out->resize(size_t(g.out));
    for (int64_t o = 0; o < g.out; ++o) {
      bool outside;
      (*out)[size_t(o)] = interp1d(at, g, data, o, &outside);
      any_outside[o] = outside;
    }
    return;
  }
  int64_t in_inner = 1, out_inner = 1;
  for (size_t a = first + 1; a < axes.size(); ++a) { in_inner *= axes[a].in; out_inner *= axes[a].out; }
  // Resize every inner slice.
  std::vector<std::vector<double>> slices(size_t(g.in));
  std::vector<std::vector<char>> slice_outside(size_t(g.in));
  for (int64_t i = 0; i < g.in; ++i) {
    std::vector<double> sub(data.begin() + i * in_inner, data.begin() + (i + 1) * in_inner);
    slice_outside[size_t(i)].assign(size_t(out_inner), 0);
    std::vector<char> flags(size_t(out_inner) + 1, 0);
    resize_nd(at, axes, first + 1, sub, &slices[size_t(i)], flags.data());
    for (int64_t j = 0; j < out_inner; ++j) slice_outside[size_t(i)][size_t(j)] = flags[size_t(j)];
  }
  out->assign(size_t(g.out * out_inner), 0.0);
  std::vector<double> col(size_t(g.in));
  for (int64_t j = 0; j < out_inner; ++j) {
    bool inner_out = g.in > 0 && slice_outside[0][size_t(j)];
    for (int64_t i = 0; i < g.in; ++i) col[size_t(i)] = slices[size_t(i)][size_t(j)];
    for (int64_t o = 0; o < g.out; ++o) {
      bool outside;
      double v = interp1d(at, g, col, o, &outside);
      // An element outside the crop box on any axis takes extrapolation_value.
      (*out)[size_t(o * out_inner + j)] = (outside || inner_out) ? at.extrapolation_value : v;
      any_outside[o * out_inner + j] = outside || inner_out;
    }
  }
}

inline std::vector<double> resize(const ResizeAttrs& at, const std::vector<Axis>& axes,
                                  const std::vector<double>& data) {
  std::vector<double> out;
  int64_t n = 1;
  for (const Axis& g : axes) n *= g.out;
  std::vector<char> flags(size_t(n) + 1, 0);
  resize_nd(at, axes, 0, data, &out, flags.data());
  return out;
}

}  // namespace ref
