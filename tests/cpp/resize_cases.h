// resize_cases.h: what the test_resize_*.cpp files share: axis geometries, attributes and
// inputs by sizes or scales, random attributes and inputs, and the check of the operator
// against the slow reference (reference_resize.h).
#pragma once
#include <catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "reference_resize.h"
#include "resize/resize.h"
#include "resize/exact.h"
#include "resize/kernels_fixed.h"
#include "resize/kernels.h"
#include "test_plan.h"
#include "test_rng.h"

using namespace osw;

namespace {

inline AxisGeometry axis_sizes(int64_t in, int64_t out) {
  AxisGeometry g;
  g.in = in;
  g.out = out;
  g.scale_num = double(out);
  g.scale_den = double(in);
  return g;
}

inline AxisGeometry axis_scale(int64_t in, float scale) {
  AxisGeometry g;
  g.in = in;
  g.out = int64_t(std::floor(double(in) * double(scale)));
  g.scale_num = double(scale);
  g.scale_den = 1.0;
  return g;
}

}  // namespace

namespace {

inline ResizeInputs with_sizes(std::initializer_list<int64_t> s) {
  ResizeInputs in;
  in.has_sizes = true;
  int i = 0;
  for (int64_t v : s) in.sizes[i++] = v;
  in.n_axes = i;
  return in;
}
inline ResizeInputs with_scales(std::initializer_list<double> s) {
  ResizeInputs in;
  in.has_scales = true;
  int i = 0;
  for (double v : s) in.scales[i++] = double(float(v));
  in.n_axes = i;
  return in;
}

}  // namespace

namespace {

inline ResizeAttrs random_attrs(Rng& r) {
  ResizeAttrs at;
  at.mode = r.pick({ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic});
  at.coord = r.pick({CoordMode::HalfPixel, CoordMode::HalfPixelSymmetric, CoordMode::PytorchHalfPixel,
                     CoordMode::AlignCorners, CoordMode::Asymmetric, CoordMode::TfHalfPixelForNN,
                     CoordMode::TfCropAndResize});
  at.nearest = r.pick({NearestMode::RoundPreferFloor, NearestMode::RoundPreferCeil, NearestMode::Floor,
                       NearestMode::Ceil, NearestMode::Opset10});
  at.cubic_a = r.pick({-0.75, -0.5});
  at.exclude_outside = r.coin();
  at.antialias = r.coin();
  at.extrapolation_value = r.pick({0.0, -7.5, 10.0});
  return at;
}

// Random inputs for a tensor of the given rank: scales or sizes, sometimes a roi.
inline ResizeInputs random_inputs(Rng& r, const ResizeAttrs& at, int rank, const int64_t* dims) {
  ResizeInputs in;
  in.n_axes = rank;
  if (r.coin()) {
    in.has_scales = true;
    for (int i = 0; i < rank; ++i)
      in.scales[i] = double(float(r.pick({0.5, 0.6, 0.75, 1.0, 1.0, 1.5, 1.7, 2.0, 3.0})));
  } else {
    in.has_sizes = true;
    for (int i = 0; i < rank; ++i) in.sizes[i] = r.range(1, std::max<int64_t>(1, dims[i] * 3));
  }
  if (at.coord == CoordMode::TfCropAndResize) {
    in.has_roi = true;
    for (int i = 0; i < rank; ++i) {
      double a = r.real(-0.3, 0.6), b = r.real(0.4, 1.3);
      in.roi[i] = a;
      in.roi[rank + i] = b;
    }
  }
  return in;
}

template <typename T>
void check_against_reference(uint64_t seed, int cases) {
  Rng r(seed);
  for (int c = 0; c < cases; ++c) {
    const int rank = int(r.range(1, 4));
    int64_t dims[kMaxRank];
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) {
      dims[i] = r.range(1, rank <= 2 ? 9 : 5);
      n *= dims[i];
    }
    ResizeAttrs at = random_attrs(r);
    ResizeInputs in = random_inputs(r, at, rank, dims);
    ResizePlan plan;
    Status st = resize_plan(at, in, rank, dims, &plan);
    REQUIRE(st.ok());
    std::vector<T> x(static_cast<size_t>(n));
    std::vector<double> xd(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      x[size_t(i)] = T(r.real(-10, 10));
      xd[size_t(i)] = double(x[size_t(i)]);
    }
    int64_t m = 1;
    std::vector<ref::Axis> axes;
    for (int i = 0; i < rank; ++i) {
      const AxisGeometry& g = plan.geo.axis[i];
      axes.push_back({g.in, g.out, g.scale_num, g.scale_den, g.roi_start, g.roi_end});
      m *= g.out;
    }
    std::vector<T> y(static_cast<size_t>(m) + 1);
    REQUIRE(run_plan(plan, ElemTraits<T>::kType, x.data(), y.data()).ok());
    std::vector<double> expect = ref::resize(at, axes, xd);
    const double tol = std::is_same<T, float>::value ? 1e-5 : 1e-12;
    INFO("seed " << seed << " case " << c << " rank " << rank << " mode " << int(at.mode)
                 << " coord " << int(at.coord) << " nearest " << int(at.nearest)
                 << " antialias " << at.antialias << " exclude " << at.exclude_outside);
    for (int64_t i = 0; i < m; ++i) {
      const double e = expect[size_t(i)], a = double(y[size_t(i)]);
      if (at.mode == ResizeMode::Nearest) {
        REQUIRE(a == double(T(e)));
      } else if (!(std::fabs(a - e) <= tol * (1 + std::fabs(e)) * 4)) {
        FAIL("element " << i << ": got " << a << ", expected " << e);
      }
    }
  }
}

}  // namespace
