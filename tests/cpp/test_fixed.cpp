// test_fixed.cpp: uint8 linear Resize in integers (src/resize/kernels_fixed.cpp) against the float path.
// Random plans of rank 1..4 with dyadic and other scales, every coordinate mode, crop
// boxes with extrapolation, antialias, channels after the resized axes; each runs with the
// fixed path off (float), on, and forced (blocks that do not vectorise run lane by lane),
// and the three outputs must be equal byte for byte. Named plans check which ones take
// the fixed path, and which form (1 narrow, 2 wide).
#include <catch.hpp>

#include <vector>

#include "resize/resize.h"
#include "resize/kernels_fixed.h"
#include "test_plan.h"
#include "test_rng.h"

using namespace osw;

namespace {

struct Case {
  ResizeAttrs at;
  ResizeInputs in;
  int rank = 0;
  int64_t dims[kMaxRank] = {};
};

std::vector<uint8_t> run(const Case& c, const std::vector<uint8_t>& x, bool disable, bool force,
                         int* state) {
  ResizeOptions opts;
  opts.fixed_disable = disable;
  opts.fixed_force = force;
  ResizePlan plan;
  REQUIRE(resize_plan(c.at, c.in, c.rank, c.dims, &plan, opts).ok());
  int64_t m = 1;
  for (int a = 0; a < plan.rank; ++a) m *= plan.out_dims[a];
  std::vector<uint8_t> y(size_t(m) + 16, 0xA5);
  REQUIRE(run_plan(plan, DType::UInt8, x.data(), y.data()).ok());
  for (size_t i = size_t(m); i < y.size(); ++i) REQUIRE(y[i] == 0xA5);  // nothing past Y
  y.resize(size_t(m));
  if (state) *state = plan.fixed.state == 1 && plan.fixed.wide ? 2 : plan.fixed.state;
  return y;
}

std::vector<uint8_t> random_x(Rng& r, const Case& c) {
  int64_t n = 1;
  for (int a = 0; a < c.rank; ++a) n *= c.dims[a];
  std::vector<uint8_t> x(static_cast<size_t>(n));
  const int style = int(r.range(0, 2));
  for (uint8_t& b : x) {
    // Uniform bytes, only extremes (ties and saturation), or a narrow band.
    b = style == 0 ? uint8_t(r.range(0, 255)) : style == 1 ? r.pick<uint8_t>({0, 1, 254, 255})
                                                           : uint8_t(r.range(120, 131));
  }
  return x;
}

// An image-like plan: [N, H, W, C] with C = 3 (RGB) or a multiple of 4 (RGBA), H and W
// resized by powers of two, often with antialias (the wide form's plans).
Case random_image_case(Rng& r) {
  Case c;
  c.rank = 4;
  c.at.mode = ResizeMode::Linear;
  c.at.coord = r.pick({CoordMode::HalfPixel, CoordMode::HalfPixel, CoordMode::PytorchHalfPixel,
                       CoordMode::Asymmetric, CoordMode::AlignCorners});
  c.at.antialias = r.coin();
  const int64_t dims[4] = {r.range(1, 2), r.pick<int64_t>({4, 8, 16, 33, 48}),
                           r.pick<int64_t>({3, 8, 16, 40, 64}), r.pick<int64_t>({3, 4, 4, 8, 12})};
  for (int a = 0; a < 4; ++a) c.dims[a] = dims[a];
  c.in.has_axes = true;
  c.in.has_scales = true;
  for (int a = 1; a <= 2; ++a) {
    if (a == 1 && r.range(0, 4) == 0) continue;  // sometimes W alone
    c.in.axes[c.in.n_axes] = a;
    c.in.scales[c.in.n_axes++] = r.pick({0.5, 0.25, 0.125, 2.0, 4.0, 16.0});
  }
  return c;
}

Case random_case(Rng& r) {
  if (r.range(0, 2) == 0) return random_image_case(r);
  Case c;
  c.rank = int(r.range(1, 4));
  c.at.mode = ResizeMode::Linear;
  c.at.coord = r.pick({CoordMode::HalfPixel, CoordMode::HalfPixel, CoordMode::PytorchHalfPixel,
                       CoordMode::AlignCorners, CoordMode::Asymmetric, CoordMode::HalfPixelSymmetric,
                       CoordMode::TfCropAndResize});
  c.at.antialias = r.range(0, 4) == 0;
  c.at.extrapolation_value = double(r.range(0, 255));
  // Channels after the resized axes (RGBA-like), sometimes 16 or more.
  const int trailing = c.rank > 1 ? int(r.range(0, 1)) : 0;
  if (trailing) c.dims[c.rank - 1] = r.pick<int64_t>({1, 2, 3, 4, 4, 5, 8, 16, 19});
  for (int a = 0; a < c.rank - trailing; ++a)
    c.dims[a] = r.pick<int64_t>({1, 2, 3, 5, 8, 13, 17, 24, 40});
  c.in.has_axes = true;
  for (int a = 0; a < c.rank; ++a) {
    const bool listed = a < c.rank - trailing ? r.range(0, 3) != 0 : r.range(0, 5) == 0;
    if (listed) c.in.axes[c.in.n_axes++] = a;
  }
  if (c.in.n_axes == 0) c.in.axes[c.in.n_axes++] = 0;
  const bool sizes = r.range(0, 2) == 0;
  c.in.has_sizes = sizes;
  c.in.has_scales = !sizes;
  for (int j = 0; j < c.in.n_axes; ++j) {
    const int64_t L = c.dims[c.in.axes[j]];
    if (sizes) {
      c.in.sizes[j] = r.pick<int64_t>({2 * L, 4 * L, 8 * L, std::max<int64_t>(1, L / 2), L, L + 1,
                                       r.range(1, 3 * L + 2)});
    } else {
      c.in.scales[j] = r.pick({2.0, 2.0, 4.0, 8.0, 0.5, 0.25, 1.0, 3.0, 1.5});
    }
  }
  if (c.at.coord == CoordMode::TfCropAndResize) {
    c.in.has_roi = true;
    for (int j = 0; j < c.in.n_axes; ++j) {
      double s = r.pick({0.0, 0.25, -0.25, 0.5}), e = r.pick({1.0, 0.75, 1.25});
      if (r.range(0, 3) == 0) std::swap(s, e);
      c.in.roi[j] = s;
      c.in.roi[c.in.n_axes + j] = e;
    }
  }
  return c;
}

}  // namespace

TEST_CASE("uint8 linear in integers equals the float path, random plans", "[resize][kernels][fixed]") {
  Rng r(0x5EED0F1Aull);
  int taken = 0, wide = 0, cases = 0;
  for (int t = 0; t < 1500; ++t) {
    Case c = random_case(r);
    ResizePlan probe;
    if (!resize_plan(c.at, c.in, c.rank, c.dims, &probe).ok()) continue;
    int64_t m = 1;
    for (int a = 0; a < probe.rank; ++a) m *= probe.out_dims[a];
    if (m == 0 || m > 200000) continue;
    const std::vector<uint8_t> x = random_x(r, c);
    int on = 0, forced = 0;
    const std::vector<uint8_t> want = run(c, x, true, false, nullptr);
    const std::vector<uint8_t> got = run(c, x, false, false, &on);
    const std::vector<uint8_t> got_forced = run(c, x, false, true, &forced);
    INFO("case " << t << " rank " << c.rank << " coord " << int(c.at.coord) << " antialias "
                 << c.at.antialias << " fixed " << on << " forced " << forced);
    REQUIRE(got == want);
    REQUIRE(got_forced == want);
    ++cases;
    taken += forced >= 1;
    wide += forced == 2;
  }
  // The generator must reach the fixed path often, or this test shows nothing.
  INFO("fixed path taken in " << taken << " of " << cases << ", the wide form in " << wide);
  REQUIRE(cases > 1000);
  REQUIRE(taken * 4 > cases);
  REQUIRE(wide * 50 > cases);
}

TEST_CASE("uint8 linear in integers: which plans take it", "[resize][kernels][fixed]") {
  Rng r(7);
  auto check = [&](std::vector<int64_t> dims, std::vector<int64_t> axes, std::vector<int64_t> sizes,
                   bool antialias, int expect_state) {
    Case c;
    c.rank = int(dims.size());
    for (int a = 0; a < c.rank; ++a) c.dims[a] = dims[size_t(a)];
    c.at.mode = ResizeMode::Linear;
    c.at.antialias = antialias;
    c.in.has_axes = true;
    c.in.has_sizes = true;
    for (size_t j = 0; j < axes.size(); ++j) {
      c.in.axes[c.in.n_axes++] = int(axes[j]);
      c.in.sizes[j] = sizes[j];
    }
    const std::vector<uint8_t> x = random_x(r, c);
    int state = 0;
    const std::vector<uint8_t> want = run(c, x, true, false, nullptr);
    REQUIRE(run(c, x, false, false, &state) == want);
    CHECK(state == expect_state);
  };
  // RGBA 2x up (1/4, 3/4: 2 + 2 bits), NHWC and NCHW, 4x up, 2x down (1/2, 1/2).
  check({1, 27, 41, 4}, {1, 2}, {54, 82}, false, 1);
  check({1, 3, 33, 50}, {2, 3}, {66, 100}, false, 1);
  check({1, 3, 20, 30}, {2, 3}, {80, 120}, false, 1);
  check({1, 40, 64, 4}, {1, 2}, {20, 32}, false, 1);
  check({2, 50, 3}, {1}, {100}, false, 1);      // one axis, 3 channels: shuffle blocks
  check({2, 30, 70}, {1}, {60}, false, 1);      // one outer axis: whole rows
  check({1, 40, 64, 20}, {1, 2}, {80, 128}, false, 1);  // 20 channels: contiguous runs
  // The wide form: RGBA 4x antialias down (7/32 ... 1/32: 5 + 5 bits), 4x down without
  // antialias (taps 4 pixels apart: no 32-byte window), 16x up (1/32 ... : 5 + 5 bits), and
  // one axis of 8 channels, 4x antialias down (8 taps: no 32-byte window).
  check({1, 64, 48, 4}, {1, 2}, {16, 12}, true, 2);
  check({1, 64, 48, 4}, {1, 2}, {16, 12}, false, 2);
  check({1, 5, 6, 4}, {1, 2}, {80, 96}, false, 2);
  check({2, 40, 8}, {1}, {10}, true, 2);
  // Not exact: 3x (thirds); antialias down in NCHW (4x: 5 + 5 bits, and no groups of 4
  // elements); 6x antialias (twelfths); three axes.
  check({1, 3, 20, 30}, {2, 3}, {60, 90}, false, -1);
  check({1, 4, 64, 64}, {2, 3}, {16, 16}, true, -1);
  check({1, 48, 48, 4}, {1, 2}, {8, 8}, true, -1);
  check({4, 6, 8}, {0, 1, 2}, {8, 12, 16}, false, -1);
}
