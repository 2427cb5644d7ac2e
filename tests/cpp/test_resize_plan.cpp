// test_resize_plan.cpp: Resize plans: invariants on random axes, skipped identity and
// upsampling axes, the pass order of wide filters, regressions from the property tests.
#include "resize_cases.h"

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
