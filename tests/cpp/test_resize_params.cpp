// test_resize_params.cpp: Resize's coordinate functions against the spec formulas, its
// cubic kernel, and the output shapes and argument errors of its params layer.
#include "resize_cases.h"

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
