// test_resize.cpp: Resize, layer by layer (STYLE habit 11): coordinate functions against
// the spec formulas, output shapes, plan invariants, SIMD against scalar kernels, and the
// whole operator against the slow reference in reference_resize.h on random cases.
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

AxisGeometry axis_sizes(int64_t in, int64_t out) {
  AxisGeometry g;
  g.in = in;
  g.out = out;
  g.scale_num = double(out);
  g.scale_den = double(in);
  return g;
}

AxisGeometry axis_scale(int64_t in, float scale) {
  AxisGeometry g;
  g.in = in;
  g.out = int64_t(std::floor(double(in) * double(scale)));
  g.scale_num = double(scale);
  g.scale_den = 1.0;
  return g;
}

}  // namespace

TEST_CASE("resize coord: each mode follows its spec formula", "[resize][coordinates]") {
  // half_pixel, sizes 4 -> 8: (x + 0.5) * 4 / 8 - 0.5
  CHECK(coord::half_pixel(0, axis_sizes(4, 8)) == -0.25);
  CHECK(coord::half_pixel(3, axis_sizes(4, 8)) == 1.25);
  // asymmetric, scale 2: x / 2
  CHECK(coord::asymmetric(3, axis_scale(4, 2.0f)) == 1.5);
  // tf_half_pixel_for_nn, scale 2: (x + 0.5) / 2
  CHECK(coord::tf_half_pixel_for_nn(0, axis_scale(4, 2.0f)) == 0.25);
  // align_corners, sizes 4 -> 8: x * 3 / 7
  CHECK(coord::align_corners(7, axis_sizes(4, 8)) == 3.0);
  CHECK(coord::align_corners(1, axis_sizes(4, 8)) == Approx(3.0 / 7.0).epsilon(1e-15));
  // align_corners with scales uses the unrounded length W = 5 * float(0.6) (row 3).
  {
    AxisGeometry g = axis_scale(5, 0.6f);
    REQUIRE(g.out == 3);
    const double W = 5.0 * double(0.6f);
    CHECK(coord::align_corners(1, g) == 1.0 * 4.0 / (W - 1.0));
    CHECK(coord::align_corners(1, g) != 2.0);
  }
  // align_corners with a single output: 0.
  CHECK(coord::align_corners(0, axis_sizes(5, 1)) == 0.0);
  // pytorch_half_pixel: 0 for one output (row 4), half_pixel otherwise.
  CHECK(coord::pytorch_half_pixel(0, axis_sizes(5, 1)) == 0.0);
  CHECK(coord::pytorch_half_pixel(2, axis_sizes(4, 8)) == coord::half_pixel(2, axis_sizes(4, 8)));
  // half_pixel_symmetric: offset + (x + 0.5) / s - 0.5, offset = in/2 * (1 - out/W).
  {
    AxisGeometry g = axis_scale(4, 0.6f);
    REQUIRE(g.out == 2);
    const double s = double(0.6f), W = 4.0 * s;
    const double offset = 2.0 * (1.0 - 2.0 / W);
    CHECK(coord::half_pixel_symmetric(1, g) == Approx(offset + 1.5 / s - 0.5).epsilon(1e-15));
    // With sizes, W == out and the offset vanishes.
    CHECK(coord::half_pixel_symmetric(3, axis_sizes(4, 8)) == coord::half_pixel(3, axis_sizes(4, 8)));
  }
  // tf_crop_and_resize: start*(in-1) + x*(end-start)*(in-1)/(out-1); one output: centre.
  {
    AxisGeometry g = axis_sizes(5, 3);
    g.roi_start = 0.4;
    g.roi_end = 0.6;
    CHECK(coord::tf_crop_and_resize(0, g) == Approx(1.6).epsilon(1e-15));
    CHECK(coord::tf_crop_and_resize(2, g) == Approx(2.4).epsilon(1e-15));
    AxisGeometry g1 = axis_sizes(5, 1);
    g1.roi_start = 0.2;
    g1.roi_end = 0.8;
    CHECK(coord::tf_crop_and_resize(0, g1) == Approx(2.0).epsilon(1e-15));
  }
}

TEST_CASE("resize coord: nearest modes decide exact ties", "[resize][coordinates]") {
  CHECK(nearest_index(14.5, NearestMode::RoundPreferFloor, 1) == 14);
  CHECK(nearest_index(14.5, NearestMode::RoundPreferCeil, 1) == 15);
  CHECK(nearest_index(14.4, NearestMode::RoundPreferCeil, 1) == 14);
  CHECK(nearest_index(14.6, NearestMode::RoundPreferFloor, 1) == 15);
  CHECK(nearest_index(14.999, NearestMode::Floor, 1) == 14);
  CHECK(nearest_index(14.001, NearestMode::Ceil, 1) == 15);
  for (NearestMode m : {NearestMode::RoundPreferFloor, NearestMode::RoundPreferCeil,
                        NearestMode::Floor, NearestMode::Ceil})
    CHECK(nearest_index(3.0, m, 1) == 3);
  CHECK(nearest_index(-0.5, NearestMode::RoundPreferFloor, 1) == -1);
  // Resize-10 (row 10): floor when upsampling, ceil when downsampling.
  CHECK(nearest_index(2.5, NearestMode::Opset10, 2.0) == 2);
  CHECK(nearest_index(2.5, NearestMode::Opset10, 0.5) == 3);
  CHECK(nearest_index(2.0, NearestMode::Opset10, 0.5) == 2);
  // Far-away coordinates do not overflow.
  CHECK(nearest_index(1e300, NearestMode::Floor, 1) > (int64_t(1) << 31));
  CHECK(nearest_index(-1e300, NearestMode::Floor, 1) < -(int64_t(1) << 31));
}

TEST_CASE("resize coord: sizes keep exact ties (row 2)", "[resize][coordinates]") {
  // 29 -> 2 with asymmetric: output 1 maps to exactly 14.5 = 1 * 29 / 2.
  ResizeAttrs at;
  at.mode = ResizeMode::Nearest;
  at.coord = CoordMode::Asymmetric;
  AxisPlan p;
  at.nearest = NearestMode::RoundPreferCeil;
  REQUIRE(build_axis_plan(at, axis_sizes(29, 2), &p).ok());
  CHECK(p.index[1] == 15);
  at.nearest = NearestMode::RoundPreferFloor;
  REQUIRE(build_axis_plan(at, axis_sizes(29, 2), &p).ok());
  CHECK(p.index[1] == 14);
}

TEST_CASE("resize cubic kernel values", "[resize][coordinates]") {
  CHECK(cubic_kernel(0, -0.75) == 1.0);
  CHECK(cubic_kernel(1, -0.75) == 0.0);
  CHECK(cubic_kernel(2, -0.75) == 0.0);
  CHECK(cubic_kernel(0.5, -0.75) == Approx(0.59375));
  CHECK(cubic_kernel(-0.5, -0.75) == Approx(0.59375));
  CHECK(cubic_kernel(1.5, -0.75) == Approx(-0.09375));
  CHECK(cubic_kernel(1.5, -0.5) == Approx(-0.0625));
  CHECK(cubic_kernel(2.5, -0.5) == 0.0);
}

namespace {

ResizeInputs with_sizes(std::initializer_list<int64_t> s) {
  ResizeInputs in;
  in.has_sizes = true;
  int i = 0;
  for (int64_t v : s) in.sizes[i++] = v;
  in.n_axes = i;
  return in;
}
ResizeInputs with_scales(std::initializer_list<double> s) {
  ResizeInputs in;
  in.has_scales = true;
  int i = 0;
  for (double v : s) in.scales[i++] = double(float(v));
  in.n_axes = i;
  return in;
}

}  // namespace

TEST_CASE("resize shape: scales, sizes, axes, keep_aspect_ratio_policy", "[resize][params]") {
  ResizeAttrs at;
  ResizeGeometry geo;
  const int64_t d4[] = {1, 1, 2, 4};
  REQUIRE(resize_geometry(at, with_scales({1, 1, 0.6, 0.6}), 4, d4, &geo).ok());
  CHECK(geo.axis[2].out == 1);
  CHECK(geo.axis[3].out == 2);
  REQUIRE(resize_geometry(at, with_sizes({1, 1, 7, 8}), 4, d4, &geo).ok());
  CHECK(geo.axis[2].out == 7);
  CHECK(geo.axis[3].out == 8);
  CHECK(geo.axis[3].scale() == 2.0);

  // keep_aspect_ratio_policy on a 2x4 input, sizes 7x8: not_larger -> scale 2 -> 4x8;
  // not_smaller -> scale 3.5 -> 7x14.
  ResizeInputs in = with_sizes({7, 8});
  in.has_axes = true;
  in.axes[0] = 2;
  in.axes[1] = 3;
  at.policy = AspectPolicy::NotLarger;
  REQUIRE(resize_geometry(at, in, 4, d4, &geo).ok());
  CHECK(geo.axis[2].out == 4);
  CHECK(geo.axis[3].out == 8);
  at.policy = AspectPolicy::NotSmaller;
  REQUIRE(resize_geometry(at, in, 4, d4, &geo).ok());
  CHECK(geo.axis[2].out == 7);
  CHECK(geo.axis[3].out == 14);
  CHECK(geo.axis[0].out == 1);
  // Rounds half up: 3 -> scale 0.5 of 5 = 2.5 -> 3.
  const int64_t d2[] = {5, 4};
  ResizeInputs h = with_sizes({3, 2});
  at.policy = AspectPolicy::NotLarger;
  REQUIRE(resize_geometry(at, h, 2, d2, &geo).ok());
  CHECK(geo.axis[0].out == 3);
  CHECK(geo.axis[1].out == 2);
}

TEST_CASE("resize shape: errors name the input", "[resize][params]") {
  ResizeAttrs at;
  ResizeGeometry geo;
  const int64_t d[] = {2, 3};
  ResizeInputs both = with_scales({1, 1});
  both.has_sizes = true;
  Status st = resize_geometry(at, both, 2, d, &geo);
  CHECK(st.kind == ErrorKind::RangeError);
  CHECK(st.message.find("scales and sizes") != std::string::npos);
  ResizeInputs none;
  CHECK(!resize_geometry(at, none, 2, d, &geo).ok());
  st = resize_geometry(at, with_scales({1, 0}), 2, d, &geo);
  CHECK(st.message.find("scales") != std::string::npos);
  CHECK(!resize_geometry(at, with_scales({1, NAN}), 2, d, &geo).ok());
  CHECK(!resize_geometry(at, with_scales({1, INFINITY}), 2, d, &geo).ok());
  st = resize_geometry(at, with_sizes({1, -1}), 2, d, &geo);
  CHECK(st.message.find("sizes") != std::string::npos);
  ResizeInputs rep = with_sizes({1, 1});
  rep.has_axes = true;
  rep.axes[0] = 1;
  rep.axes[1] = 1;
  st = resize_geometry(at, rep, 2, d, &geo);
  CHECK(st.message.find("axes") != std::string::npos);
  rep.axes[0] = 2;
  CHECK(!resize_geometry(at, rep, 2, d, &geo).ok());
  // An enum value no name maps to is refused (the fuzzer's case: an unnamed coordinate
  // mode ran as the identity under compat 'onnxruntime' antialias, giving zeros).
  const ResizeInputs ok_in = with_scales({1.7, 2});
  REQUIRE(resize_geometry(at, ok_in, 2, d, &geo).ok());
  struct Bad { ResizeAttrs a; const char* name; };
  std::vector<Bad> bad(6, Bad{at, ""});
  bad[0].a.mode = ResizeMode(3), bad[0].name = "mode";
  bad[1].a.coord = CoordMode(INT32_MIN), bad[1].name = "coordinate_transformation_mode";
  bad[2].a.coord = CoordMode(7), bad[2].name = "coordinate_transformation_mode";
  bad[3].a.nearest = NearestMode(-1), bad[3].name = "nearest_mode";
  bad[4].a.policy = AspectPolicy(3), bad[4].name = "keep_aspect_ratio_policy";
  bad[5].a.compat = Compat(3), bad[5].name = "compat";
  for (const Bad& b : bad) {
    st = resize_geometry(b.a, ok_in, 2, d, &geo);
    CHECK(st.kind == ErrorKind::RangeError);
    CHECK(st.message.find(b.name) == 0);
    ResizePlan plan;
    CHECK(!resize_plan(b.a, ok_in, 2, d, &plan).ok());
  }
}

namespace {

ResizeAttrs random_attrs(Rng& r) {
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
ResizeInputs random_inputs(Rng& r, const ResizeAttrs& at, int rank, const int64_t* dims) {
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

TEST_CASE("resize op: float32 matches the slow reference on random cases", "[resize][exec]") {
  check_against_reference<float>(1, 400);
}

TEST_CASE("resize op: float64 matches the slow reference on random cases", "[resize][exec]") {
  check_against_reference<double>(2, 400);
}

TEST_CASE("resize plan: invariants on random axes", "[resize][plan]") {
  Rng r(3);
  for (int c = 0; c < 2000; ++c) {
    ResizeAttrs at = random_attrs(r);
    AxisGeometry g;
    g.in = r.range(1, 40);
    if (r.coin()) {
      g.out = r.range(1, 60);
      g.scale_num = double(g.out);
      g.scale_den = double(g.in);
    } else {
      g.scale_num = double(float(r.real(0.05, 4.0)));
      g.out = int64_t(std::floor(double(g.in) * g.scale_num));
    }
    g.roi_start = r.real(-0.2, 0.5);
    g.roi_end = r.real(0.5, 1.2);
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    INFO("case " << c);
    for (int64_t o = 0; o < g.out; ++o) {
      const int n = p.count[o];
      REQUIRE(n <= p.taps);
      if (p.outside[o]) {
        CHECK(n == 0);
        continue;
      }
      REQUIRE(n >= 1);
      if (std::isnan(p.weight[o * p.taps])) {
        // exclude_outside with every tap outside the input: 0/0 (one NaN tap).
        REQUIRE(at.exclude_outside);
        REQUIRE(n == 1);
        continue;
      }
      double sum = 0;
      for (int k = 0; k < n; ++k) {
        REQUIRE(p.index[o * p.taps + k] >= 0);
        REQUIRE(p.index[o * p.taps + k] < g.in);
        REQUIRE(p.weight[o * p.taps + k] != 0.0);
        REQUIRE(p.weight_f[o * p.taps + k] == float(p.weight[o * p.taps + k]));
        sum += p.weight[o * p.taps + k];
      }
      REQUIRE(sum == Approx(1.0).epsilon(1e-12));
      for (int k = n; k < p.taps; ++k) REQUIRE(p.weight[o * p.taps + k] == 0.0);
    }
    if (p.identity) CHECK(g.out == g.in);
  }
}

TEST_CASE("resize plan: antialias has no effect on an upsampling axis (row 9)", "[resize][plan]") {
  ResizeAttrs a, b;
  a.mode = b.mode = ResizeMode::Cubic;
  b.antialias = true;
  AxisPlan pa, pb;
  AxisGeometry g = axis_scale(7, 1.7f);
  REQUIRE(build_axis_plan(a, g, &pa).ok());
  REQUIRE(build_axis_plan(b, g, &pb).ok());
  REQUIRE(pa.taps == pb.taps);
  for (int64_t i = 0; i < g.out * pa.taps; ++i) {
    CHECK(pa.index[i] == pb.index[i]);
    CHECK(pa.weight[i] == Approx(pb.weight[i]).margin(1e-15));
  }
  // Downsampling by 3 widens the linear window to 6 taps (support 1/scale each side).
  ResizeAttrs l;
  l.mode = ResizeMode::Linear;
  l.antialias = true;
  AxisPlan pl;
  REQUIRE(build_axis_plan(l, axis_sizes(9, 3), &pl).ok());
  CHECK(pl.taps == 6);
}

TEST_CASE("resize plan: an identity axis is detected and skipped", "[resize][plan]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Cubic;
  AxisPlan p;
  REQUIRE(build_axis_plan(at, axis_sizes(5, 5), &p).ok());
  CHECK(p.identity);
  at.coord = CoordMode::AlignCorners;
  REQUIRE(build_axis_plan(at, axis_scale(5, 1.0f), &p).ok());
  CHECK(p.identity);
  at.coord = CoordMode::HalfPixel;
  REQUIRE(build_axis_plan(at, axis_sizes(5, 6), &p).ok());
  CHECK(!p.identity);
}

#if OSW_HAVE_SIMD
namespace {
// The SIMD pass against the scalar one on random axes: inner in [inner_lo, inner_hi]; with
// `ranges`, each call computes one random range of outputs [o_begin, o_end) (as the streamed
// passes call it), nearest taken as cubic, and the outputs outside the range must stay as
// they were; without, all outputs, nearest taken as linear.
template <typename F, typename Tout = F>
void simd_matches_scalar(uint64_t seed, int64_t inner_lo = 1, int64_t inner_hi = 37, bool ranges = false) {
  Rng r(seed);
  for (int c = 0; c < (ranges ? 600 : 300); ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = ranges ? ResizeMode::Cubic : ResizeMode::Linear;
    AxisGeometry g = ranges ? axis_sizes(r.range(1, 20), r.range(1, 20)) : axis_sizes(r.range(1, 12), r.range(1, 12));
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    const int64_t outer = r.range(1, 3), inner = r.range(inner_lo, inner_hi);
    const int64_t o_begin = ranges ? r.range(0, g.out - 1) : 0;
    const int64_t o_end = ranges ? r.range(o_begin + 1, g.out) : -1;
    // Exactly the rows' elements: anything read past them would be outside the vector.
    std::vector<F> x(static_cast<size_t>(outer * g.in * inner));
    for (F& v : x) v = !ranges || r.coin() ? F(r.real(-100, 100)) : F(r.range(-3, 3));
    if constexpr (std::is_same<Tout, uint8_t>::value)  // saturation, rounding and its ties
      for (F& v : x) v = r.coin() ? F(r.real(-20, 280)) : F(double(r.range(-2, 257)) + 0.5);
    std::vector<Tout> ys(static_cast<size_t>(outer * g.out * inner), Tout(7)), yv(ys.size(), Tout(7));
    const F* w;
    if constexpr (std::is_same<F, float>::value) w = p.weight_f.data();
    else w = p.weight.data();
    resize_pass_scalar<F, Tout, F>(x.data(), ys.data(), outer, inner, p, w, o_begin, o_end);
    resize_pass_simd<F, Tout, F>(x.data(), yv.data(), outer, inner, p, w, o_begin, o_end);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (!ranges && p.outside[(i / size_t(inner)) % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(Tout)) == 0);
    }
  }
}
}  // namespace

TEST_CASE("resize kernel: innermost-axis SIMD pass equals the scalar pass bit for bit", "[resize][kernels]") {
  Rng r(6);
  int blocks_seen = 0;
  for (int c = 0; c < 400; ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = ResizeMode::Cubic;
    if (r.coin()) at.antialias = false;
    AxisGeometry g = r.coin() ? axis_sizes(r.range(8, 40), r.range(4, 90))
                              : axis_scale(r.range(8, 40), float(r.pick({1.0, 1.5, 2.0, 3.0, 0.9, 4.0})));
    g.roi_start = r.real(-0.1, 0.3);
    g.roi_end = r.real(0.7, 1.1);
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    if (p.blocks == 0) continue;
    for (int64_t b = 0; b < p.blocks; ++b) blocks_seen += p.blk_base[b] >= 0;
    const int64_t outer = r.range(1, 3);
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    // Specials: NaN, Inf and -0.0 must stay where the scalar loop puts them.
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = NAN;
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = INFINITY;
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = -0.0f;
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    resize_pass_inner_simd(x.data(), yv.data(), outer, p);
    INFO("case " << c);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (p.outside[i % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
    }
  }
  CHECK(blocks_seen > 1000);  // the SIMD form was really exercised
}

TEST_CASE("resize kernel: dense innermost blocks equal the scalar pass bit for bit", "[resize][kernels]") {
  // Upsampling and mild downsampling, linear and cubic: mostly dense blocks.
  Rng r(61);
  int64_t dense_seen = 0, pairs_seen = 0;
  for (int c = 0; c < 300; ++c) {
    ResizeAttrs at;
    at.mode = r.coin() ? ResizeMode::Linear : ResizeMode::Cubic;
    at.coord = static_cast<CoordMode>(r.range(0, 4));
    at.cubic_a = r.pick({-0.75, -0.5});
    const int64_t in = r.range(8, 70);
    AxisGeometry g = r.coin() ? axis_sizes(in, r.range(in - in / 4, 3 * in))
                              : axis_scale(in, float(r.pick({1.0, 1.25, 2.0, 3.0, 0.8, 4.0})));
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    if (p.blocks == 0) continue;
    dense_seen += p.blocks_dense;
    pairs_seen += p.pairs;
    const int64_t outer = r.range(1, 3);
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    for (int s = 0; s < 3; ++s) x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f, 0.0f});
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    resize_pass_inner_simd(x.data(), yv.data(), outer, p);
    INFO("case " << c << " in " << g.in << " out " << g.out);
    for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
  }
  CHECK(dense_seen > 2000);
  CHECK(pairs_seen > 50);  // the two-phase form of 2x upsampling was reached
}

TEST_CASE("resize kernel: 2x upsampling takes the two-phase pairs, equal to the scalar pass", "[resize][kernels]") {
  // Fixed plans (the random draws above differ between standard libraries): every 2x
  // half_pixel / pytorch_half_pixel / asymmetric axis of 16 or more inputs has pairs in its
  // interior (all but one pair at the start and two at the end, whose 8-input loads or
  // windows would leave the input). Asymmetric: the even outputs are copies of x[m] (one
  // tap: pair_k0 = 1), the odd ones start at m (linear) or m - 1 (cubic). Innermost rows
  // and channels-last pixels of 3 and 4 floats.
  Rng r(62);
  for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
    for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric}) {
      for (int64_t in = 16; in <= 49; ++in) {
        ResizeAttrs at;
        at.mode = m;
        at.coord = cm;
        AxisPlan p;
        REQUIRE(build_axis_plan(at, axis_sizes(in, 2 * in), &p).ok());
        INFO("mode " << int(m) << " coord " << int(cm) << " in " << in);
        CHECK(p.pairs >= p.blocks / 2 - 3);
        const bool asym = cm == CoordMode::Asymmetric;
        CHECK(p.pair_k0 == (asym ? 1 : p.taps));
        CHECK(p.pair_dt == (!asym ? 1 : m == ResizeMode::Linear ? 0 : -1));
        std::vector<float> x(static_cast<size_t>(2 * in));
        for (float& v : x) v = float(r.real(-100, 100));
        x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        std::vector<float> ys(static_cast<size_t>(2 * p.out)), yv(ys.size());
        resize_pass_scalar<float, float, float>(x.data(), ys.data(), 2, 1, p, p.weight_f.data());
        resize_pass_inner_simd(x.data(), yv.data(), 2, p);
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
        // channels-last pixels of 3 and 4 floats (resize_pass_channels' pairs)
        for (int64_t C = 3; C <= 4; ++C) {
          std::vector<float> xc(static_cast<size_t>(in * C));
          for (float& v : xc) v = float(r.real(-100, 100));
          xc[size_t(r.range(0, int64_t(xc.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
          std::vector<float> yc(static_cast<size_t>(p.out * C), 7.0f), ycv(yc.size(), 7.0f);
          resize_pass_scalar<float, float, float>(xc.data(), yc.data(), 1, C, p, p.weight_f.data());
          resize_pass_simd<float, float, float>(xc.data(), ycv.data(), 1, C, p, p.weight_f.data());
          INFO("C " << C);
          for (size_t i = 0; i < yc.size(); ++i) REQUIRE(std::memcmp(&yc[i], &ycv[i], sizeof(float)) == 0);
        }
      }
    }
  }
}

TEST_CASE("resize kernel: 1.5x linear upsampling takes the three-phase triples (innermost and channels-last), equal to the scalar pass", "[resize][kernels]") {
  // Every 1.5x half_pixel / pytorch_half_pixel axis of 18 or more inputs has triples in its
  // interior (whose windows, counts and weights repeat every 12 outputs and 8 inputs); the
  // other modes keep the blocks (asymmetric: every third output is one input, one tap).
  // Bytes equal to the scalar pass with NaN, Inf and -0.0 in X, on rows whose last element
  // is the input's last (a load past it would leave the vector: ASan).
  Rng r(63);
  int64_t tris = 0;
  for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric,
                       CoordMode::AlignCorners}) {
    for (int64_t in = 8; in <= 61; ++in) {
      ResizeAttrs at;
      at.mode = ResizeMode::Linear;
      at.coord = cm;
      const bool sizes = in % 2 == 0;
      AxisPlan p;
      REQUIRE(build_axis_plan(at, sizes ? axis_sizes(in, 3 * in / 2) : axis_scale(in, 1.5f), &p).ok());
      INFO("coord " << int(cm) << " in " << in << " out " << p.out << " triples " << p.tris << " of " << p.blocks / 3);
      if (in >= 18 && (cm == CoordMode::HalfPixel || cm == CoordMode::PytorchHalfPixel)) {
        // all but the first (its first output is clamped) and perhaps the last (whose loads
        // of 8 inputs from every phase's start would pass the input's end)
        CHECK(p.tris >= p.blocks / 3 - 2);
        CHECK(p.tri_t[1] == 1);
        CHECK(p.tri_t[2] == 2);
      }
      tris += p.tris;
      for (int rep = 0; rep < 2; ++rep) {
        std::vector<float> x(static_cast<size_t>(in));
        for (float& v : x) v = float(r.real(-100, 100));
        for (int s = 0; s < 2; ++s) x[size_t(r.range(0, in - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        std::vector<float> ys(static_cast<size_t>(p.out)), yv(ys.size());
        resize_pass_scalar<float, float, float>(x.data(), ys.data(), 1, 1, p, p.weight_f.data());
        resize_pass_inner_simd(x.data(), yv.data(), 1, p);
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
      }
      // Channels-last rows (C = 3, 4: the triples of resize_pass_channels), whole and in
      // output ranges [o0, o1) as threads split them: every element of the range equal to
      // the scalar pass's, none outside it written (a C = 3 triple ending at o1 would write
      // the 4th lane of its last 16-byte store into output o1).
      for (int C : {3, 4}) {
        std::vector<float> x(static_cast<size_t>(in * C));
        for (float& v : x) v = float(r.real(-100, 100));
        for (int s = 0; s < 2; ++s) x[size_t(r.range(0, in * C - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        for (int rep = 0; rep < 4; ++rep) {
          const int64_t o0 = rep == 0 ? 0 : r.range(0, p.out - 1);
          const int64_t o1 = rep == 0 ? p.out : r.range(o0 + 1, p.out);
          std::vector<float> ys(static_cast<size_t>(p.out * C), 7.0f), yv(ys.size(), 7.0f);
          Buffer<float> strip;
          resize_pass_scalar<float, float, float>(x.data(), ys.data(), 1, C, p, p.weight_f.data(), o0, o1);
          resize_pass<float, float, float>(x.data(), yv.data(), 1, C, p, p.weight_f.data(), &strip,
                                           kDefaultMaxBytes, o0, o1);
          INFO("C " << C << " outputs " << o0 << " .. " << o1);
          for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
        }
      }
    }
  }
  CHECK(tris > 250);
}

TEST_CASE("resize kernel: float64 2x upsampling's two-phase pairs equal the scalar pass, in output ranges", "[resize][kernels]") {
  // The double inner pass (float64 X, and the integer types that compute in double) takes
  // the pairs where their double weights match (pairs_d; asymmetric: even outputs of one
  // tap, pair_k0 = 1); resize_pass picks it, and its bytes, NaN, Inf and -0 included, are
  // the scalar loop's, for whole rows and for the output ranges a threaded split gives it.
  Rng r(63);
  int64_t pairs_seen = 0;
  Buffer<float> strip;
  for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
    for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::AlignCorners,
                         CoordMode::Asymmetric}) {
      for (int64_t in = 8; in <= 41; ++in) {
        ResizeAttrs at;
        at.mode = m;
        at.coord = cm;
        at.cubic_a = r.pick({-0.75, -0.5});
        AxisPlan p;
        REQUIRE(build_axis_plan(at, axis_sizes(in, 2 * in), &p).ok());
        if (cm != CoordMode::AlignCorners && in >= 16) CHECK(p.pairs_d >= p.blocks / 2 - 3);
        pairs_seen += p.pairs_d;
        const int64_t outer = r.range(1, 3);
        std::vector<double> x(static_cast<size_t>(outer * in));
        for (double& v : x) v = r.real(-100, 100);
        for (int k = 0; k < 3; ++k)
          x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({double(NAN), double(INFINITY), -0.0, 0.0});
        int64_t ob = 0, oe = p.out;
        if (r.coin()) {
          ob = r.range(0, p.out - 1);
          oe = r.range(ob + 1, p.out);
        }
        std::vector<double> ys(static_cast<size_t>(outer * p.out), 7.0), yv(ys.size(), 7.0);
        resize_pass_scalar<double, double, double>(x.data(), ys.data(), outer, 1, p, p.weight.data(), ob, oe);
        resize_pass<double, double, double>(x.data(), yv.data(), outer, 1, p, p.weight.data(), &strip, kDefaultMaxBytes, ob, oe);
        INFO("mode " << int(m) << " coord " << int(cm) << " in " << in << " outputs [" << ob << ", " << oe << ")");
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(double)) == 0);
      }
    }
  }
  CHECK(pairs_seen > 200);
}

TEST_CASE("resize kernel: the 4-row transposed innermost pass equals the scalar pass bit for bit", "[resize][kernels]") {
  Rng r(62);
  int64_t unrolled_seen = 0;  // groups of 4 outputs that take the unrolled consecutive form
  bool k_seen[9] = {};  // by the fixed cases below
  bool fixed = false;
  Buffer<float> strip;  // the kernel's strip, kept between calls as a workspace keeps it
  auto check = [&](const ResizeAttrs& at, const AxisGeometry& g, int64_t outer) {
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    for (int s = 0; s < 3 && !x.empty(); ++s)
      x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f, 0.0f});
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    REQUIRE(resize_pass_inner_rows4(x.data(), yv.data(), outer, p, &strip, kDefaultMaxBytes));
    INFO("in " << g.in << " out " << g.out << " outer " << outer << " taps " << p.taps);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (p.outside[i % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
    }
    if (p.consecutive.size() > 0 && outer >= 4 && p.taps <= 8) {
      for (int64_t o = 0; o + 4 <= g.out; o += 4) {
        const int K = p.taps;  // (the unrolled form: all four outputs of K consecutive taps)
        if (p.consecutive[o] == K && p.consecutive[o + 1] == K && p.consecutive[o + 2] == K &&
            p.consecutive[o + 3] == K) {
          ++unrolled_seen;
          if (fixed) k_seen[p.taps] = true;
        }
      }
    }
  };
  for (int c = 0; c < 400; ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = r.coin() ? ResizeMode::Linear : ResizeMode::Cubic;
    AxisGeometry g = r.coin() ? axis_sizes(r.range(1, 40), r.range(1, 90))
                              : axis_scale(r.range(1, 40), float(r.pick({1.0, 1.5, 2.0, 0.3, 0.9, 0.25})));
    g.roi_start = r.real(-0.1, 0.3);
    g.roi_end = r.real(0.7, 1.1);
    if (r.range(0, 9) == 0) std::swap(g.roi_start, g.roi_end);  // a flipped crop box
    INFO("case " << c);
    check(at, g, r.range(1, 11));
  }
  fixed = true;
  // Plans with 2 to 8 taps (linear and cubic at 0.6, antialias downsampling), whatever the
  // random cases drew (the standard library's distributions differ between the wasm and
  // native builds).
  for (double scale : {0.6, 0.5, 0.34, 0.3, 0.25}) {
    for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
      ResizeAttrs at;
      at.mode = m;
      at.antialias = scale < 0.6;
      INFO("scale " << scale << " antialias " << at.antialias);
      check(at, axis_scale(64, float(scale)), 7);
    }
  }
  CHECK(unrolled_seen > 100);
  for (int k : {2, 4, 6, 8}) {
    INFO("taps " << k);
    CHECK(k_seen[k]);
  }
}

namespace {
template <typename T>
void blend_matches_scalar(uint64_t seed) {
  Rng r(seed);
  for (int c = 0; c < 300; ++c) {
    const int n = int(r.range(0, 4));
    const int64_t len = r.range(0, 70);
    std::vector<std::vector<float>> rows(4, std::vector<float>(size_t(len) + 1));
    const float* rp[4];
    float w[4];
    for (int k = 0; k < 4; ++k) {
      for (float& v : rows[k]) v = r.coin() ? float(r.range(-40, 300)) + 0.5f : float(r.real(-300, 70000));
      if (len > 0) rows[k][size_t(r.range(0, len - 1))] = r.pick({float(NAN), float(INFINITY), -float(INFINITY), -0.0f});
      rp[k] = rows[k].data();
      w[k] = float(r.pick({0.25, 0.75, 0.5, 1.0, -0.125, 1.125}));
    }
    // One spare element: data() is never null, even for len 0.
    std::vector<T> got(static_cast<size_t>(len) + 1), want(static_cast<size_t>(len) + 1);
    blend_rows_into<T, float>(rp, w, n, got.data(), len);
    for (int64_t j = 0; j < len; ++j) {
      float acc = n > 0 ? w[0] * rp[0][j] : 0.0f;
      for (int k = 1; k < n; ++k) acc += w[k] * rp[k][j];
      want[size_t(j)] = n > 0 ? narrow<T>(acc) : T(0);
    }
    INFO("case " << c << " n " << n << " len " << len);
    REQUIRE(std::memcmp(got.data(), want.data(), sizeof(T) * size_t(len)) == 0);
  }
}

// Rows of uint8 (X itself, streamed by stream_outer_then_inner) blended into T.
template <typename T>
void blend_u8_rows_matches_scalar(uint64_t seed) {
  Rng r(seed);
  for (int c = 0; c < 300; ++c) {
    const int n = int(r.range(0, 4));
    const int64_t len = r.range(0, 70);
    std::vector<std::vector<uint8_t>> rows(4, std::vector<uint8_t>(size_t(len) + 1));
    const uint8_t* rp[4];
    float w[4];
    for (int k = 0; k < 4; ++k) {
      for (uint8_t& v : rows[k]) v = uint8_t(r.range(0, 255));
      rp[k] = rows[k].data();
      w[k] = float(r.pick({0.25, 0.75, 0.5, 1.0, -0.125, 1.125, 0.3}));
    }
    std::vector<T> got(static_cast<size_t>(len) + 1), want(static_cast<size_t>(len) + 1);
    blend_rows_into<T, float>(rp, w, n, got.data(), len);
    for (int64_t j = 0; j < len; ++j) {
      float acc = n > 0 ? w[0] * float(rp[0][j]) : 0.0f;
      for (int k = 1; k < n; ++k) acc += w[k] * float(rp[k][j]);
      want[size_t(j)] = n > 0 ? narrow<T>(acc) : T(0);
    }
    INFO("case " << c << " n " << n << " len " << len);
    REQUIRE(std::memcmp(got.data(), want.data(), sizeof(T) * size_t(len)) == 0);
  }
}
}  // namespace

TEST_CASE("resize kernel: uint8 rows blended into float or uint8 equal the scalar loop", "[resize][kernels]") {
  blend_u8_rows_matches_scalar<float>(75);
  blend_u8_rows_matches_scalar<uint8_t>(76);
}

TEST_CASE("resize kernel: row blending (16-lane uint8 stores included) equals the scalar loop", "[resize][kernels]") {
  blend_matches_scalar<uint8_t>(71);
  blend_matches_scalar<float>(74);
  Rng r(75);
  for (int c = 0; c < 50; ++c) {
    const int64_t len = r.range(0, 100);
    std::vector<uint8_t> x(static_cast<size_t>(len));
    for (uint8_t& v : x) v = uint8_t(r.range(0, 255));
    std::vector<float> y(static_cast<size_t>(len));
    widen_row<uint8_t, float>(x.data(), y.data(), len);
    for (int64_t j = 0; j < len; ++j) REQUIRE(y[size_t(j)] == float(x[size_t(j)]));
  }
}

TEST_CASE("resize kernel: SIMD pass equals the scalar pass bit for bit", "[resize][kernels]") {
  simd_matches_scalar<float>(4);
  simd_matches_scalar<double>(5);
}

TEST_CASE("resize kernel: channels-last rows of 3 and 4 floats equal the scalar pass, in output ranges", "[resize][kernels]") {
  simd_matches_scalar<float>(41, 3, 4, true);
  // Wide antialias windows (K > 8, as 1080p -> 270p cubic has 16 taps): the run loop
  // (channels_runs) for outputs whose taps are consecutive, the general loop for the rest
  // (taps of weight 0 dropped at integer scales), in output ranges.
  Rng r(42);
  int64_t long_runs = 0, gaps = 0;
  for (int c = 0; c < 200; ++c) {
    ResizeAttrs at = random_attrs(r);
    at.mode = r.coin() ? ResizeMode::Cubic : ResizeMode::Linear;
    at.antialias = true;
    const int64_t out = r.range(2, 12);
    const AxisGeometry g = r.coin() ? axis_sizes(out * r.range(3, 8), out) : axis_sizes(r.range(30, 120), out);
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    for (int64_t o = 0; o < p.out && p.consecutive.size() > 0; ++o) {
      long_runs += p.consecutive[o] > 8;
      gaps += p.consecutive[o] == 0 && p.count[o] > 8;
    }
    const int64_t C = r.range(3, 4), outer = r.range(1, 3);
    const int64_t o_begin = r.range(0, g.out - 1), o_end = r.range(o_begin + 1, g.out);
    std::vector<float> x(static_cast<size_t>(outer * g.in * C));  // nothing past the rows
    for (float& v : x) v = float(r.real(-100, 100));
    std::vector<float> ys(static_cast<size_t>(outer * g.out * C), 7.0f), yv(ys.size(), 7.0f);
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, C, p, p.weight_f.data(), o_begin, o_end);
    resize_pass_simd<float, float, float>(x.data(), yv.data(), outer, C, p, p.weight_f.data(), o_begin, o_end);
    INFO("case " << c << " in " << g.in << " out " << g.out << " K " << p.taps << " C " << C);
    REQUIRE(std::memcmp(ys.data(), yv.data(), sizeof(float) * ys.size()) == 0);
  }
  CHECK(long_runs > 500);  // runs of more than 8 taps were taken
  CHECK(gaps > 50);        // and windows with gaps, at integer scales
}

TEST_CASE("resize kernel: float rows of 3 channels stored as uint8 equal the scalar pass, in output ranges", "[resize][kernels]") {
  simd_matches_scalar<float, uint8_t>(43, 3, 3, true);
  simd_matches_scalar<float, uint8_t>(44, 1, 9, true);
}
#endif

TEST_CASE("resize op: NaN and Inf stay local; -0.0 survives", "[resize][exec]") {
  // Asymmetric 2x linear: even outputs sit exactly on an input (one tap of weight 1).
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::Asymmetric;
  ResizeInputs in = with_scales({2});
  float x[4] = {1, NAN, 3, -0.0f};
  float y[8];
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 1;
  xv.dims[0] = 4;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(y[0] == 1.0f);
  CHECK(std::isnan(y[1]));
  CHECK(std::isnan(y[2]));
  CHECK(std::isnan(y[3]));
  CHECK(y[4] == 3.0f);
  CHECK(y[5] == 1.5f);
  CHECK(y[6] == 0.0f);
  CHECK(std::signbit(y[6]));
  x[1] = INFINITY;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(y[2] == INFINITY);
  CHECK(y[0] == 1.0f);
  CHECK(y[4] == 3.0f);
}

// The pass order (pass_order_cost): channels-last pixels of 4 (the channels kernel, one
// vector per pixel) with 4 or more taps run the outer axis first where both axes shrink by
// the same factor (RGBA antialias and cubic downscaling: 1.2-1.4x faster that way in V8);
// 2-tap plans keep the inner axis first (2x downscaling's own pass over two rows), and
// so do upscaling plans, which write fewer elements that way.
TEST_CASE("resize plan: RGBA downscaling with wide filters runs the outer axis first", "[resize][plan]") {
  struct Case { int64_t h, w, c, oh, ow; ResizeMode mode; bool aa; bool outer_first; };
  const Case cases[] = {
      {1080, 1920, 4, 360, 640, ResizeMode::Linear, true, true},
      {1080, 1920, 4, 540, 960, ResizeMode::Cubic, true, true},
      {1024, 1024, 4, 512, 512, ResizeMode::Cubic, false, true},
      {1080, 1920, 4, 720, 1280, ResizeMode::Linear, true, true},
      {1024, 1024, 4, 512, 512, ResizeMode::Linear, false, false},
      {1024, 1024, 4, 256, 256, ResizeMode::Linear, false, false},
      {512, 512, 4, 768, 768, ResizeMode::Cubic, false, false},
      {512, 512, 4, 1024, 1024, ResizeMode::Linear, false, false},
  };
  for (const Case& k : cases) {
    ResizeAttrs at;
    at.mode = k.mode;
    at.antialias = k.aa;
    const int64_t dims[4] = {1, k.h, k.w, k.c};
    ResizePlan plan;
    REQUIRE(resize_plan(at, with_sizes({1, k.oh, k.ow, k.c}), 4, dims, &plan).ok());
    INFO(k.h << "x" << k.w << " -> " << k.oh << "x" << k.ow << " mode " << int(k.mode) << " aa " << k.aa);
    REQUIRE(plan.n_passes == 2);
    CHECK((plan.order[0] == 1) == k.outer_first);
    // the hot schedule streams the pair in that order
    CHECK(plan.schedule[1].step[plan.schedule[1].n - 1].kind ==
          (k.outer_first ? ResizeStep::StreamGroup : ResizeStep::StreamLast));
  }
}

TEST_CASE("resize op: a filter too wide to stream runs as whole passes, in either pass order", "[resize][exec]") {
  // Antialias downsampling by 600 on one axis: over 512 taps, more than the streamed pairs
  // hold, on an axis that runs before (W first) or after (H first) the other one.
  for (int flip = 0; flip < 2; ++flip) {
    const int64_t dims[3] = {1, flip ? 8 : 1200, flip ? 1200 : 8};
    const int64_t outs[3] = {1, flip ? 4 : 2, flip ? 2 : 4};
    ResizeAttrs at;
    at.mode = ResizeMode::Linear;
    at.antialias = true;
    ResizeInputs in = with_sizes({outs[0], outs[1], outs[2]});
    ResizePlan plan;
    REQUIRE(resize_plan(at, in, 3, dims, &plan).ok());
    CHECK(plan.axis[flip ? 2 : 1].taps > 512);
    std::vector<float> x(static_cast<size_t>(dims[1] * dims[2]));
    std::vector<double> xd(x.size());
    for (size_t i = 0; i < x.size(); ++i) xd[i] = x[i] = float(std::sin(double(i) * 0.37));
    std::vector<float> y(static_cast<size_t>(outs[1] * outs[2]));
    TensorView xv, yv;
    xv.type = yv.type = DType::Float32;
    xv.rank = yv.rank = 3;
    for (int i = 0; i < 3; ++i) {
      xv.dims[i] = dims[i];
      yv.dims[i] = outs[i];
    }
    xv.data = x.data();
    yv.data = y.data();
    INFO("flip " << flip);
    REQUIRE(resize_execute(plan, xv, &yv).ok());
    std::vector<ref::Axis> axes;
    for (int i = 0; i < 3; ++i) {
      const AxisGeometry& g = plan.geo.axis[i];
      axes.push_back({g.in, g.out, g.scale_num, g.scale_den, g.roi_start, g.roi_end});
    }
    const std::vector<double> expect = ref::resize(at, axes, xd);
    for (size_t i = 0; i < y.size(); ++i) CHECK(std::fabs(double(y[i]) - expect[i]) <= 1e-5);
  }
}

TEST_CASE("resize op: empty tensors (row 12)", "[resize][exec]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  float x[1] = {0}, y[1] = {0};
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 2;
  xv.dims[0] = 0;
  xv.dims[1] = 3;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, with_sizes({0, 6}), xv, &yv).ok());
  CHECK(yv.dims[0] == 0);
  CHECK(yv.dims[1] == 6);
  // No source to fill a non-empty output from.
  Status st = resize(at, with_sizes({2, 6}), xv, &yv);
  CHECK(st.kind == ErrorKind::RangeError);
  CHECK(st.message.find("X") != std::string::npos);
}

TEST_CASE("resize op: tf_crop_and_resize fills outside the box on every axis (row 15)", "[resize][exec]") {
  // 1x1x3x3 input, roi that extends past the input on axis 0 (N) too.
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::TfCropAndResize;
  at.extrapolation_value = 10.0;
  ResizeInputs in = with_sizes({3, 3});
  in.has_roi = true;
  in.roi[0] = -1.0;  // axis 0: from -1 to 1 over 3 outputs -> coords -1, 0, 1 (in=2)
  in.roi[1] = 0.0;
  in.roi[2] = 1.0;
  in.roi[3] = 1.0;
  float x[6] = {1, 2, 3, 4, 5, 6};  // 2x3
  float y[9];
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 2;
  xv.dims[0] = 2;
  xv.dims[1] = 3;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  // Row 0 is outside (coordinate -1): all 10. Rows 1 and 2 are inputs rows 0 and 1.
  for (int j = 0; j < 3; ++j) CHECK(y[j] == 10.0f);
  CHECK(y[3] == 1.0f);
  CHECK(y[5] == 3.0f);
  CHECK(y[8] == 6.0f);
}

TEST_CASE("resize plan: regressions from the property tests", "[resize][plan]") {
  // An output length of 0 with antialias plans nothing (the scale 0 has no filter width).
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.antialias = true;
  AxisPlan p;
  CHECK(build_axis_plan(at, axis_sizes(7, 0), &p).ok());
  // half_pixel_symmetric keeps exact integers: 5 inputs, scale 1.25 -> output 0 sits on 0.
  {
    AxisGeometry g = axis_scale(5, 1.25f);
    REQUIRE(g.out == 6);
    CHECK(coord::half_pixel_symmetric(0, g) == 0.0);
    ResizeAttrs n;
    n.mode = ResizeMode::Nearest;
    n.coord = CoordMode::HalfPixelSymmetric;
    n.nearest = NearestMode::Ceil;
    REQUIRE(build_axis_plan(n, g, &p).ok());
    CHECK(p.index[0] == 0);
  }
  // tf_crop_and_resize with roi end 1 ends exactly on the last pixel.
  {
    AxisGeometry g = axis_scale(8, 0.75f);
    g.roi_start = 0.4141267667524516;
    g.roi_end = 1.0;
    CHECK(coord::tf_crop_and_resize(double(g.out - 1), g) == 7.0);
  }
  // exclude_outside with every tap outside gives NaN.
  {
    ResizeAttrs e;
    e.mode = ResizeMode::Linear;
    e.coord = CoordMode::Asymmetric;
    e.exclude_outside = true;
    AxisGeometry g = axis_scale(3, 0.4f);  // out 1, coordinate 0: inside
    REQUIRE(build_axis_plan(e, g, &p).ok());
    CHECK(!std::isnan(p.weight[0]));
    AxisGeometry far = axis_sizes(3, 5);
    far.scale_num = 1.0;  // scale 1/3 on a 5-long output: output 4 maps to 12, far outside
    far.scale_den = 3.0;
    REQUIRE(build_axis_plan(e, far, &p).ok());
    CHECK(std::isnan(p.weight[4 * p.taps]));
  }
}

// The streamed-pass tests' random case: linear or cubic attributes, a rank of 2 to 4 and
// small dims.
static ResizeAttrs random_stream_case(Rng& r, int* rank, int64_t dims[kMaxRank]) {
  ResizeAttrs at;
  at.mode = r.pick({ResizeMode::Linear, ResizeMode::Cubic});
  at.coord = r.pick({CoordMode::HalfPixel, CoordMode::AlignCorners, CoordMode::Asymmetric,
                     CoordMode::PytorchHalfPixel});
  at.antialias = r.coin();
  *rank = int(r.range(2, 4));
  for (int a = 0; a < *rank; ++a) dims[a] = r.pick<int64_t>({1, 3, 4, 7, 12, 19, 33});
  return at;
}

// X through the plan's passes one after the other as whole scalar passes: float
// intermediates, the last pass narrowed to Tout (X itself when there is no pass).
template <typename Tout, typename Tin>
std::vector<Tout> whole_scalar_passes(const ResizePlan& plan, const int64_t* dims,
                                      const std::vector<Tin>& x) {
  if (plan.n_passes == 0) return std::vector<Tout>(x.begin(), x.end());
  std::vector<float> cur(x.begin(), x.end());
  int64_t d[kMaxRank];
  for (int a = 0; a < plan.rank; ++a) d[a] = dims[a];
  std::vector<Tout> want;
  for (int i = 0; i < plan.n_passes; ++i) {
    const int a = plan.order[i];
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= d[j];
    for (int j = a + 1; j < plan.rank; ++j) inner *= d[j];
    const AxisPlan& ap = plan.axis[a];
    if (i + 1 < plan.n_passes) {
      std::vector<float> next(size_t(outer * ap.out * inner));
      resize_pass_scalar<float, float, float>(cur.data(), next.data(), outer, inner, ap, ap.weight_f.data());
      cur.swap(next);
    } else {
      want.resize(size_t(outer * ap.out * inner));
      resize_pass_scalar<float, Tout, float>(cur.data(), want.data(), outer, inner, ap, ap.weight_f.data());
    }
    d[a] = ap.out;
  }
  return want;
}

// uint8 on the float path (the fixed-point path off), any pass order: the streamed pairs
// (rows of X blended in groups, stream_outer_then_inner; or cached rows, stream_last_two)
// must give exactly what the plan's passes give one after the other as whole scalar passes.
TEST_CASE("resize op: uint8 streamed passes equal whole scalar passes in the plan's order", "[resize][exec]") {
  ResizeOptions float_path;
  float_path.fixed_disable = true;
  Rng r(0xB17E5);
  int pairs = 0, outer_first = 0;
  for (int c = 0; c < 300; ++c) {
    int rank = 0;
    int64_t dims[kMaxRank];
    const ResizeAttrs at = random_stream_case(r, &rank, dims);
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a)
      in.sizes[a] = r.coin() ? dims[a] : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2 / 3 + 1, dims[a] + 3, dims[a] * 2});
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan, float_path).ok()) continue;
    int64_t n = 1, m = 1;
    for (int a = 0; a < rank; ++a) {
      n *= dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0) continue;
    std::vector<uint8_t> x(static_cast<size_t>(n)), y(static_cast<size_t>(m));
    for (uint8_t& v : x) v = uint8_t(r.range(0, 255));
    REQUIRE(run_plan(plan, DType::UInt8, x.data(), y.data()).ok());
    // The passes one by one: float intermediates, the last one narrowed to uint8, then the
    // values near a rounding boundary decided exactly, as the run does (resize_exact.h).
    const std::vector<float> wide = whole_scalar_passes<float>(plan, dims, x);
    std::vector<uint8_t> want(wide.size());
    for (size_t i = 0; i < wide.size(); ++i) want[i] = narrow<uint8_t>(wide[i]);
    TensorView xv = osw_test::view(DType::UInt8, rank, dims, x.data());
    TensorView wv = osw_test::view(DType::UInt8, rank, plan.out_dims, want.data());
    double eps_d = 0;
    const double eps = resize_exact_eps(plan, xv, &eps_d);
    ExactTaps* cache = nullptr;
    resize_exact_fix(plan, xv, wide.data(), false, &wv, 0, int64_t(wide.size()), eps, eps_d, &cache, resize_exact_dmax(plan));
    resize_exact_taps_free(cache);
    pairs += plan.n_passes >= 2;
    outer_first += plan.n_passes == 2 && plan.order[0] < plan.order[1];
    INFO("case " << c << " rank " << rank << " passes " << plan.n_passes);
    REQUIRE(want == y);
  }
  INFO("pairs " << pairs << ", outer axis first " << outer_first);
  REQUIRE(pairs > 100);
  REQUIRE(outer_first > 30);
}

// float32, any pass order: the streamed pairs must give exactly what the plan's passes give
// one after the other as whole scalar passes. Covers the overlapped form of
// stream_outer_then_inner (the last two axes, the inner one on the 4-row kernel: the next
// group's v blend cut into parts between parts of this group's h pass), with rows long
// enough to be cut (>= 512) and group counts that leave 0 to 3 rows over.
TEST_CASE("resize op: float32 streamed passes equal whole scalar passes in the plan's order", "[resize][exec]") {
  Rng r(0xF10A7);
  int pairs = 0, overlapped = 0, overlapped_split = 0;
  for (int c = 0; c < 300; ++c) {
    int rank = 0;
    int64_t dims[kMaxRank];
    const ResizeAttrs at = random_stream_case(r, &rank, dims);
    dims[rank - 1] = r.pick<int64_t>({7, 33, 300, 600, 1100});
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a)
      in.sizes[a] = r.coin() ? dims[a] : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2 / 3 + 1, dims[a] / 4 + 1, dims[a] + 3, dims[a] * 2});
    if (r.coin()) {  // downsampling the last two axes: the outer one first, group counts
      dims[rank - 2] = r.pick<int64_t>({33, 40, 64});
      in.sizes[rank - 2] = r.pick<int64_t>({8, 9, 10, 11, 17, 30});
      in.sizes[rank - 1] = r.pick<int64_t>({dims[rank - 1] / 2 + 1, dims[rank - 1] / 4 + 1, dims[rank - 1] * 2 / 3 + 1});
    }
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan).ok()) continue;
    int64_t n = 1, m = 1;
    for (int a = 0; a < rank; ++a) {
      n *= dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0 || n > (int64_t(1) << 21) || m > (int64_t(1) << 21)) continue;
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(m));
    for (float& v : x) v = float(r.real(-100, 100));
    REQUIRE(run_plan(plan, DType::Float32, x.data(), y.data()).ok());
    const std::vector<float> want = whole_scalar_passes<float>(plan, dims, x);
    pairs += plan.n_passes >= 2;
    if (plan.n_passes >= 2 && plan.order[plan.n_passes - 2] == rank - 2 &&
        plan.order[plan.n_passes - 1] == rank - 1) {
      const AxisPlan& pv = plan.axis[rank - 2];
      const AxisPlan& ph = plan.axis[rank - 1];
      const bool dense = ph.blocks > 0 && ph.blocks_dense * 4 >= ph.blocks * 3;
      if (!dense && pv.out >= 8 && plan.n_passes == 2) {
        ++overlapped;
        overlapped_split += ph.in >= 512;
      }
    }
    INFO("case " << c << " rank " << rank << " passes " << plan.n_passes);
    REQUIRE(want.size() == y.size());
    REQUIRE(std::memcmp(want.data(), y.data(), y.size() * sizeof(float)) == 0);
  }
  INFO("pairs " << pairs << ", overlapped " << overlapped << " (split " << overlapped_split << ")");
  REQUIRE(pairs > 100);
  REQUIRE(overlapped > 20);
  REQUIRE(overlapped_split > 5);
}

// Exact 2x downscaling of the last two axes (every output 0.5 * x[2o] + 0.5 * x[2o + 1])
// runs in one pass (resize_kernels.h, down2x2_row) where SIMD exists. Its bytes must be the
// streamed pair's: outer axis first, then inner, each a product and a sum in that order,
// which differs from (a + b) * 0.5 only near the float range's ends: so the inputs mix
// values near FLT_MAX (whose sums overflow), subnormals (whose halves round), -0.0,
// infinities and NaN with ordinary values; widths give every tail length; and each run is
// also made in parts (a threaded run's ranges). Bits must be equal, except that a NaN only
// has to be a NaN: which NaN an operation on two NaNs (or on Inf - Inf) gives depends on
// the operand order inside an instruction, which wasm leaves open and x86 fixes.
namespace {
bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("resize op: exact 2x float32 downscaling equals whole scalar passes, extremes included", "[resize][exec]") {
  Rng r(0x2D0);
  const float specials[] = {3.0e38f, -3.0e38f, 3.4e38f, 1e-45f, 3e-45f, -1e-45f, 1.2e-38f, -0.0f,
                            0.0f, INFINITY, -INFINITY, NAN};
  int cases = 0;
  for (int c = 0; c < 160; ++c) {
    // The last two axes resized, or (c >= 120) the two before a last axis of 1, 3 or 4
    // channels (channels-last images; 3 and 4 take the RGB and RGBA form).
    const bool nhwc = c >= 120;
    const int rank = nhwc ? 4 : 2 + c % 3;
    const int v = nhwc ? 1 : rank - 2, hh = v + 1;
    int64_t dims[kMaxRank];
    for (int a = 0; a < rank; ++a) dims[a] = 1 + r.range(0, 2);
    if (nhwc) dims[3] = r.pick<int64_t>({1, 3, 4, 4});
    const int64_t out_h = 1 + r.range(0, 8), out_w = r.pick<int64_t>({1, 2, 3, 4, 5, 7, 8, 9, 17, 33, 64});
    dims[v] = 2 * out_h;
    dims[hh] = 2 * out_w;
    ResizeAttrs at;
    at.mode = ResizeMode::Linear;
    at.coord = r.coin() ? CoordMode::HalfPixel : CoordMode::PytorchHalfPixel;
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a) in.sizes[a] = dims[a];
    in.sizes[v] = out_h;
    in.sizes[hh] = out_w;
    ResizePlan plan;
    REQUIRE(resize_plan(at, in, rank, dims, &plan).ok());
    int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= dims[a];
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = r.range(0, 2) == 0 ? specials[r.range(0, 11)] : float(r.real(-100, 100));
    std::vector<float> y(static_cast<size_t>(plan.out_elems));
    REQUIRE(run_plan(plan, DType::Float32, x.data(), y.data()).ok());
    const std::vector<float> want = whole_scalar_passes<float>(plan, dims, x);
    INFO("case " << c << " rank " << rank << " out " << out_h << " x " << out_w << " last " << dims[rank - 1]);
    REQUIRE(same_floats(want, y));
    // The same in parts: every step cut into three ranges.
    TensorView xv = osw_test::view(DType::Float32, rank, plan.in_dims, x.data());
    ResizeWorkspace shared, ws;
    REQUIRE(resize_prepare_shared(plan, xv, &shared).ok());
    ResizeStepInfo info;
    REQUIRE(resize_steps(plan, DType::Float32, &info, &shared).ok());
    std::vector<float> yp(y.size(), 7.0f);
    TensorView yv = osw_test::view(DType::Float32, rank, plan.out_dims, yp.data());
    for (int s = 0; s < info.n; ++s) {
      const int64_t u = info.units[s], cut1 = u / 3, cut2 = 2 * u / 3;
      REQUIRE(resize_execute_range(plan, s, 0, cut1, xv, &yv, &shared, &ws).ok());
      REQUIRE(resize_execute_range(plan, s, cut1, cut2, xv, &yv, &shared, &ws).ok());
      REQUIRE(resize_execute_range(plan, s, cut2, u, xv, &yv, &shared, &ws).ok());
    }
    REQUIRE(same_floats(want, yp));
    ++cases;
  }
  REQUIRE(cases == 160);
}

namespace {

// uint8 X on a plain pass (a step that reads X whole: one resized axis, the first of three)
// has no pass of its own: rows of the innermost axis are widened a batch at a time, an
// outer axis blends its rows (resize_exec.h, pass_range). Its outputs, whole and run in
// three uneven ranges per step (as threads split them), must be the float32 run's on the
// same values rounded half to even wherever that value is not within 2^-10 of a tie (the
// float sum's error is far smaller; the exact decisions settle the others).
void check_u8_plain(const std::vector<int64_t>& in, const std::vector<int64_t>& out, ResizeMode mode,
                    bool aa, int64_t* compared, int64_t max_bytes = 0) {
  const int rank = int(in.size());
  ResizeAttrs at;
  at.mode = mode;
  at.antialias = aa;
  ResizeInputs inputs;
  inputs.has_sizes = true;
  inputs.n_axes = rank;
  int64_t n = 1, m = 1;
  for (int a = 0; a < rank; ++a) {
    inputs.sizes[a] = out[size_t(a)];
    n *= in[size_t(a)];
    m *= out[size_t(a)];
  }
  std::vector<uint8_t> x(static_cast<size_t>(n));
  std::vector<float> xf(static_cast<size_t>(n));
  std::mt19937 g(uint32_t(n + m));
  for (int64_t i = 0; i < n; ++i) xf[size_t(i)] = x[size_t(i)] = uint8_t(g() >> 13);
  ResizePlan pf, pu;
  ResizeOptions ou;
  ou.type = DType::UInt8;
  if (max_bytes > 0) ou.max_bytes = max_bytes;  // (batches of fewer rows)
  REQUIRE(resize_plan(at, inputs, rank, in.data(), &pf).ok());
  REQUIRE(resize_plan(at, inputs, rank, in.data(), &pu, ou).ok());
  REQUIRE(pu.schedule[1].step[0].kind == ResizeStep::Pass);  // a plain pass reads X
  std::vector<float> yf(static_cast<size_t>(m));
  REQUIRE(run_plan(pf, DType::Float32, xf.data(), yf.data()).ok());
  std::vector<uint8_t> whole(static_cast<size_t>(m)), split(static_cast<size_t>(m), 7);
  REQUIRE(run_plan(pu, DType::UInt8, x.data(), whole.data()).ok());
  TensorView xv = osw_test::view(DType::UInt8, rank, in.data(), x.data());
  TensorView yv = osw_test::view(DType::UInt8, rank, out.data(), split.data());
  ResizeWorkspace shared, ws;
  REQUIRE(resize_prepare_shared(pu, xv, &shared).ok());
  ResizeStepInfo info;
  REQUIRE(resize_steps(pu, DType::UInt8, &info, &shared).ok());
  for (int s = 0; s < info.n; ++s) {
    const int64_t u = info.units[s], c1 = u / 3 + 1, c2 = std::max(c1, u - u / 5);
    for (const auto& r : {std::make_pair(int64_t(0), std::min(c1, u)), std::make_pair(std::min(c1, u), std::min(c2, u)),
                          std::make_pair(std::min(c2, u), u)})
      REQUIRE(resize_execute_range(pu, s, r.first, r.second, xv, &yv, &shared, &ws).ok());
  }
  REQUIRE(resize_finish(pu, &yv).ok());
  CHECK(std::memcmp(whole.data(), split.data(), size_t(m)) == 0);
  int64_t bad = 0;
  for (int64_t i = 0; i < m; ++i) {
    const float v = yf[size_t(i)];
    if (std::fabs(v - std::floor(v) - 0.5f) < 0x1p-10f) continue;
    const uint8_t want = uint8_t(std::min(255.0f, std::max(0.0f, std::nearbyint(v))));
    if (whole[size_t(i)] != want && bad++ < 3)
      UNSCOPED_INFO("output " << i << ": " << int(whole[size_t(i)]) << ", float32 " << v);
    ++*compared;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("resize: uint8 plain passes equal the float32 run rounded", "[resize][exec]") {
  int64_t compared = 0;
  for (const ResizeMode mode : {ResizeMode::Linear, ResizeMode::Cubic}) {
    INFO("mode " << int(mode));
    // innermost axis only: 555 rows of 301, in batches of 54 rows
    check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 517}, mode, false, &compared);
    check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 97}, mode, true, &compared);
    // an outer axis only (rows of 29 blended)
    check_u8_plain({2, 3, 41, 29}, {2, 3, 67, 29}, mode, false, &compared);
    // three axes: the first pass reads X
    check_u8_plain({5, 7, 9}, {9, 4, 13}, mode, false, &compared);
    check_u8_plain({6, 11, 10}, {3, 17, 4}, mode, true, &compared);
  }
  // under a maxBytes of 20,000 (the plan's tables fit): batches of 16 rows, not 54
  check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 517}, ResizeMode::Cubic, false, &compared, 20000);
  // antialias windows of more than 512 taps along an outer axis (1400 -> 2: 1400 taps)
  check_u8_plain({2, 1400, 3}, {2, 2, 3}, ResizeMode::Linear, true, &compared);
  check_u8_plain({1400, 5}, {3, 5}, ResizeMode::Cubic, true, &compared);
  CHECK(compared > 400000);
}
