// test_gridsample_params.cpp: GridSample's coordinate helpers (unnormalize, reflect,
// cubic weights, axis taps) against the spec formulas, and its shape and type errors.
#include "gridsample_cases.h"

// ---- coordinate helpers -------------------------------------------------------------------

TEST_CASE("gridsample: unnormalize follows the spec formulas", "[gridsample][coordinates]") {
  using osw::gs::unnormalize;
  // align_corners=1: -1 and 1 are the centres of pixels 0 and L-1.
  CHECK(unnormalize(-1.0, 5, true) == 0.0);
  CHECK(unnormalize(1.0, 5, true) == 4.0);
  CHECK(unnormalize(0.0, 5, true) == 2.0);
  CHECK(unnormalize(0.5, 3, true) == 1.5);
  CHECK(unnormalize(0.3, 1, true) == 0.0);
  // align_corners=0: -1 and 1 are the outer edges, -0.5 and L-0.5.
  CHECK(unnormalize(-1.0, 4, false) == -0.5);
  CHECK(unnormalize(1.0, 4, false) == 3.5);
  CHECK(unnormalize(0.0, 4, false) == 1.5);
  CHECK(unnormalize(0.5, 2, false) == 1.0);
  CHECK(unnormalize(0.0, 1, false) == 0.0);
  Rng rng(1);
  for (int i = 0; i < 200; ++i) {
    const double g = rng.uniform(-3, 3);
    const int64_t L = rng.range(1, 40);
    CHECK(unnormalize(g, L, true) == Approx((g + 1) / 2 * (L - 1)).margin(1e-12));
    CHECK(unnormalize(g, L, false) == Approx(((g + 1) * L - 1) / 2).margin(1e-12));
  }
}

TEST_CASE("gridsample: reflect keeps reflecting until in bound", "[gridsample][coordinates]") {
  using osw::gs::reflect;
  // The spec's example: -3.5 reflects at -1 to 1.5, then at 1 to 0.5.
  CHECK(reflect(-3.5, -1.0, 1.0) == 0.5);
  CHECK(reflect(1.5, -1.0, 1.0) == 0.5);
  // "the reflected value at index -1 will be the same as the value at index 1"
  CHECK(reflect(-1.0, 0.0, 4.0) == 1.0);
  CHECK(reflect(5.0, 0.0, 4.0) == 3.0);
  CHECK(reflect(-1.0, -0.5, 3.5) == 0.0);
  CHECK(reflect(4.0, -0.5, 3.5) == 3.0);
  CHECK(reflect(0.25, -1.0, 1.0) == 0.25);
  CHECK(reflect(-1.0, -1.0, 1.0) == -1.0);
  CHECK(reflect(1.0, -1.0, 1.0) == 1.0);
  // Whole periods.
  CHECK(reflect(-5.0, -1.0, 1.0) == -1.0);  // -5 -> 3 -> -1
  CHECK(reflect(-3.0, -1.0, 1.0) == 1.0);   // -3 -> 1
  CHECK(reflect(7.0, -1.0, 1.0) == -1.0);
  CHECK(reflect(9.0, -1.0, 1.0) == 1.0);
  // Degenerate range, infinities, NaN.
  CHECK(reflect(7.0, 0.0, 0.0) == 0.0);
  CHECK(reflect(-7.0, 0.0, 0.0) == 0.0);
  CHECK(reflect(INFINITY, -0.5, 2.5) == 2.5);
  CHECK(reflect(-INFINITY, -0.5, 2.5) == -0.5);
  CHECK(std::isnan(reflect(NAN, -0.5, 2.5)));
  // Far away: O(1) and in range.
  const double far = reflect(1e300, -0.5, 2.5);
  CHECK(far >= -0.5);
  CHECK(far <= 2.5);
  // Against the literal bounce loop.
  Rng rng(2);
  for (int i = 0; i < 2000; ++i) {
    const double lo = std::floor(rng.uniform(-3, 3)) - (rng.range(0, 1) ? 0.5 : 0.0);
    const double hi = lo + static_cast<double>(rng.range(1, 6));
    const double x = rng.uniform(-60, 60);
    INFO("x " << x << " lo " << lo << " hi " << hi);
    CHECK(reflect(x, lo, hi) == Approx(ref::reflect_loop(x, lo, hi)).margin(1e-9));
  }
}

TEST_CASE("gridsample: cubic weights are the A=-0.75 convolution", "[gridsample][coordinates]") {
  double w[4];
  osw::gs::cubic_weights(0.0, w);
  CHECK(w[0] == 0.0);
  CHECK(w[1] == 1.0);
  CHECK(w[2] == 0.0);
  CHECK(w[3] == 0.0);
  osw::gs::cubic_weights(0.5, w);
  // k(0.5) = 1.25/8 - 2.25/4 + 1 = 0.59375; k(1.5) = -0.75 * (3.375 - 11.25 + 12 - 4) = -0.09375
  CHECK(w[0] == Approx(-0.09375).margin(1e-15));
  CHECK(w[1] == Approx(0.59375).margin(1e-15));
  CHECK(w[2] == Approx(0.59375).margin(1e-15));
  CHECK(w[3] == Approx(-0.09375).margin(1e-15));
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const double t = rng.uniform(0, 1);
    osw::gs::cubic_weights(t, w);
    CHECK(w[0] + w[1] + w[2] + w[3] == Approx(1.0).margin(1e-12));
    CHECK(w[0] == Approx(ref::cubic_k(t + 1)).margin(1e-12));
    CHECK(w[1] == Approx(ref::cubic_k(t)).margin(1e-12));
    CHECK(w[2] == Approx(ref::cubic_k(1 - t)).margin(1e-12));
    CHECK(w[3] == Approx(ref::cubic_k(2 - t)).margin(1e-12));
  }
}

TEST_CASE("gridsample: axis taps resolve padding", "[gridsample][coordinates]") {
  Rng rng(4);
  osw::gs::AxisTaps t;
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (int i = 0; i < 300; ++i) {
          const int64_t L = rng.range(1, 7);
          double x = rng.uniform(-12, L + 12);
          if (i % 10 == 0) x = std::floor(x) + 0.5;
          if (i % 10 == 1) x = std::floor(x);
          osw::gs::axis_taps(m, p, align != 0, L, x, &t);
          INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " L " << L << " x " << x);
          const int mode_taps = m == GridMode::Nearest ? 1 : m == GridMode::Linear ? 2 : 4;
          REQUIRE(t.count >= 0);
          REQUIRE(t.count <= std::min<int64_t>(mode_taps, L));
          double sum = 0;
          for (int k = 0; k < t.count; ++k) {
            CHECK(t.index[k] >= 0);
            CHECK(t.index[k] < L);
            for (int k2 = 0; k2 < k; ++k2) CHECK(t.index[k2] != t.index[k]);
            sum += t.weight[k];
          }
          if (p != PaddingMode::Zeros) {
            CHECK(t.count >= 1);
            CHECK(sum == Approx(1.0).margin(1e-12));
          }
        }
      }
    }
  }
  // Nearest rounds half to even, then pads.
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Zeros, false, 4, 0.5, &t);
  REQUIRE(t.count == 1);
  CHECK(t.index[0] == 0);
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Zeros, false, 4, 1.5, &t);
  REQUIRE(t.count == 1);
  CHECK(t.index[0] == 2);
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Zeros, false, 4, 3.5, &t);
  CHECK(t.count == 0);  // rounds to 4: outside
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Border, false, 4, 3.5, &t);
  REQUIRE(t.count == 1);
  CHECK(t.index[0] == 3);
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Reflection, true, 4, -2.0, &t);
  REQUIRE(t.count == 1);
  CHECK(t.index[0] == 2);
  osw::gs::axis_taps(GridMode::Nearest, PaddingMode::Reflection, false, 4, -2.0, &t);
  REQUIRE(t.count == 1);
  CHECK(t.index[0] == 1);  // -2 reflected about -0.5
  // Huge, infinite and NaN coordinates never produce an index out of range.
  const double odd[] = {1e300, -1e300, 3e38, -3e38, 2147483648.0, -2147483649.0, 9.3e18,
                        INFINITY, -INFINITY};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (double x : odd) {
        osw::gs::axis_taps(m, p, false, 5, x, &t);
        INFO(mode_name(m) << " " << pad_name(p) << " x " << x);
        if (p == PaddingMode::Zeros) CHECK(t.count == 0);
        else CHECK(t.count >= 1);
        for (int k = 0; k < t.count; ++k) {
          CHECK(t.index[k] >= 0);
          CHECK(t.index[k] < 5);
        }
        if (p != PaddingMode::Zeros && std::isinf(x)) {
          // The edge pixel, with weight 1.
          double w_edge = 0;
          for (int k = 0; k < t.count; ++k)
            if (t.index[k] == (x > 0 ? 4 : 0)) w_edge += t.weight[k];
          CHECK(w_edge == Approx(1.0).margin(1e-12));
        }
      }
      osw::gs::axis_taps(m, p, true, 5, NAN, &t);
      CHECK(t.count == 0);
    }
  }
}

// ---- shapes, types, errors --------------------------------------------------------------

TEST_CASE("gridsample: shape and type errors name the input", "[gridsample][params]") {
  const GridSampleAttrs a;
  auto run_shapes = [&](const Dims& xd, const Dims& gd, DType xt = DType::Float32,
                        DType gt = DType::Float32) {
    return run_gs(a, xt, xd, Vals(static_cast<size_t>(std::max<int64_t>(0, count_of(xd))), 0.0), gt,
                  gd, Vals(static_cast<size_t>(std::max<int64_t>(0, count_of(gd))), 0.0));
  };
  Result r = run_shapes({1, 1, 3, 2}, {1, 2, 4, 3});
  CHECK(r.status.kind == osw::ErrorKind::RangeError);
  CHECK(r.status.message == "grid: last dimension must be 2 (the spatial rank of X), got 3");

  r = run_shapes({1, 1}, {1, 2});
  CHECK(r.status.kind == osw::ErrorKind::RangeError);
  CHECK(r.status.message.rfind("X:", 0) == 0);

  r = run_shapes({1, 1, 3, 2}, {1, 2, 2});
  CHECK(r.status.kind == osw::ErrorKind::RangeError);
  CHECK(r.status.message.rfind("grid: rank must be 4", 0) == 0);

  r = run_shapes({2, 1, 3, 2}, {1, 2, 4, 2});
  CHECK(r.status.kind == osw::ErrorKind::RangeError);
  CHECK(r.status.message.rfind("grid: dimension 0 must be 2", 0) == 0);

  r = run_shapes({1, 1, 3}, {1, 2, 1, 1});
  CHECK(r.status.kind == osw::ErrorKind::RangeError);
  CHECK(r.status.message.rfind("grid:", 0) == 0);

  {
    osw::TensorView x = view_of(DType::Float32, {1, 1, -3, 2}, nullptr);
    osw::TensorView g = view_of(DType::Float32, {1, 2, 2, 2}, nullptr);
    osw::TensorView y;
    const osw::Status s = osw::gridsample_output_shape(x, g, &y);
    CHECK(s.kind == osw::ErrorKind::RangeError);
    CHECK(s.message.rfind("X: dimension 2 must not be negative", 0) == 0);
  }

  // Every ONNX numeric type is supported (test_types.cpp); an unknown type code is not.
  r = run_shapes({1, 1, 3, 2}, {1, 2, 4, 2}, static_cast<DType>(8), DType::Float32);
  CHECK(r.status.kind == osw::ErrorKind::TypeError);
  CHECK(r.status.message.rfind("X:", 0) == 0);

  r = run_shapes({1, 1, 3, 2}, {1, 2, 4, 2}, DType::Float32, DType::Float16);
  CHECK(r.status.kind == osw::ErrorKind::TypeError);
  CHECK(r.status.message.rfind("grid:", 0) == 0);

  {
    std::vector<float> xb(6), gb(16), yb(8);
    osw::TensorView x = view_of(DType::Float32, {1, 1, 3, 2}, xb.data());
    osw::TensorView g = view_of(DType::Float32, {1, 2, 4, 2}, gb.data());
    osw::TensorView y = view_of(DType::Float64, {1, 1, 2, 4}, yb.data());
    osw::Status s = osw::gridsample(a, x, g, &y);
    CHECK(s.kind == osw::ErrorKind::TypeError);
    CHECK(s.message.rfind("Y:", 0) == 0);
    y = view_of(DType::Float32, {1, 1, 4, 2}, yb.data());
    s = osw::gridsample(a, x, g, &y);
    CHECK(s.kind == osw::ErrorKind::RangeError);
    CHECK(s.message.rfind("Y: shape must be (1, 1, 2, 4)", 0) == 0);
    y = view_of(DType::Float32, {1, 1, 2, 4}, yb.data());
    GridSampleAttrs bad;
    bad.mode = static_cast<GridMode>(7);
    s = osw::gridsample(bad, x, g, &y);
    CHECK(s.kind == osw::ErrorKind::RangeError);
    CHECK(s.message.rfind("mode:", 0) == 0);
    bad = GridSampleAttrs();
    bad.padding = static_cast<PaddingMode>(-1);
    s = osw::gridsample(bad, x, g, &y);
    CHECK(s.kind == osw::ErrorKind::RangeError);
    CHECK(s.message.rfind("padding_mode:", 0) == 0);
    s = osw::gridsample(a, x, g, &y);
    CHECK(s.ok());
  }
}
