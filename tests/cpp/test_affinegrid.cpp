// test_affinegrid.cpp: AffineGrid-20 (src/affinegrid/affinegrid.h), layer by layer:
//   - the base coordinates (ag::base_coordinate) against the spec's formulas, sizes of 1;
//   - the float16 rounding of a double (ag::half_from_double): once, to nearest even;
//   - known grids (identity theta, a hand-computed rotation), the (x, y[, z]) order;
//   - the operator against tests/cpp/reference_affinegrid.h on random thetas, 2-D and 3-D,
//     both align_corners, float32 / float64 / float16, sizes 0 and 1 included;
//   - shapes and errors (each message naming theta or size).
#include <catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "affinegrid/affinegrid.h"
#include "core/types.h"
#include "core/elem.h"
#include "reference_affinegrid.h"
#include "test_rng.h"

namespace {

using osw::DType;
using osw::Status;
using osw::TensorView;
using Dims = std::vector<int64_t>;

TensorView theta_view(DType t, const Dims& d, void* data) {
  TensorView v;
  v.type = t;
  v.rank = static_cast<int>(d.size());
  for (size_t i = 0; i < d.size(); ++i) v.dims[i] = d[i];
  v.data = data;
  return v;
}

// Runs AffineGrid on theta given as doubles (stored in `type`); returns the grid as doubles.
struct Run {
  Status status;
  TensorView grid;
  std::vector<double> values;
};
Run run(DType type, const Dims& tdims, const std::vector<double>& theta, const Dims& size,
        bool align_corners) {
  const size_t es = osw::dtype_size(type);
  std::vector<unsigned char> tb(theta.size() * es + 1);
  for (size_t i = 0; i < theta.size(); ++i) {
    if (type == DType::Float32) { float f = static_cast<float>(theta[i]); std::memcpy(&tb[i * 4], &f, 4); }
    else if (type == DType::Float64) std::memcpy(&tb[i * 8], &theta[i], 8);
    else if (type == DType::Float16) { uint16_t h = osw::half_from_float(static_cast<float>(theta[i])); std::memcpy(&tb[i * 2], &h, 2); }
  }
  TensorView t = theta_view(type, tdims, tb.data());
  Run r;
  r.status = osw::affinegrid_output_shape(t, size.data(), static_cast<int>(size.size()), &r.grid);
  if (!r.status.ok()) return r;
  const int64_t n = r.grid.elements();
  // Guard bytes after the grid: the kernel must not write past its end.
  std::vector<unsigned char> out(static_cast<size_t>(n) * es + 64, 0xA5);
  r.grid.data = out.data();
  osw::AffineGridAttrs attrs;
  attrs.align_corners = align_corners;
  r.status = osw::affinegrid(attrs, t, size.data(), static_cast<int>(size.size()), &r.grid);
  for (size_t i = static_cast<size_t>(n) * es; i < out.size(); ++i) REQUIRE(out[i] == 0xA5);
  if (!r.status.ok()) return r;
  for (int64_t i = 0; i < n; ++i) {
    if (type == DType::Float32) { float f; std::memcpy(&f, &out[i * 4], 4); r.values.push_back(f); }
    else if (type == DType::Float64) { double d; std::memcpy(&d, &out[i * 8], 8); r.values.push_back(d); }
    else { uint16_t h; std::memcpy(&h, &out[i * 2], 2); r.values.push_back(osw::half_to_float(h)); }
  }
  return r;
}

// Spacing of the type's values at |x| (the larger binade's, to be safe at a power of 2).
double spacing(DType t, long double x) {
  const int p = t == DType::Float32 ? 24 : t == DType::Float64 ? 53 : 11;
  const int emin = t == DType::Float32 ? -126 : t == DType::Float64 ? -1022 : -14;
  int ex;
  std::frexp(static_cast<double>(std::fabs(x)) * (1 + 0x1p-20), &ex);
  return std::ldexp(1.0, std::max(ex - 1, emin) - (p - 1));
}

}  // namespace

TEST_CASE("affinegrid base coordinates follow the spec formulas", "[affinegrid][coordinates]") {
  using osw::ag::base_coordinate;
  // align_corners=1: -1 and 1 are the end points' centres, linspace(-1, 1, n).
  const double ac5[] = {-1, -0.5, 0, 0.5, 1};
  for (int i = 0; i < 5; ++i) CHECK(base_coordinate(i, 5, true) == ac5[i]);
  // align_corners=0: pixel centres of [-1, 1] cut into n pixels, -1 + (2i + 1) / n.
  const double c4[] = {-0.75, -0.25, 0.25, 0.75};
  for (int i = 0; i < 4; ++i) CHECK(base_coordinate(i, 4, false) == c4[i]);
  CHECK(base_coordinate(1, 3, false) == 0.0);
  CHECK(base_coordinate(0, 3, false) == -2.0 / 3);
  CHECK(base_coordinate(2, 7, true) == -1.0 / 3);
  // An axis of one point is 0 for both settings (PyTorch's choice; the reference fails).
  CHECK(base_coordinate(0, 1, true) == 0.0);
  CHECK(base_coordinate(0, 1, false) == 0.0);
  CHECK_FALSE(std::signbit(base_coordinate(0, 1, true)));
  // One rounding each: symmetric about 0 and exact at the ends, for any n.
  Rng rng(20);
  for (int k = 0; k < 200; ++k) {
    const int64_t n = rng.range(2, 100000);
    const int64_t i = rng.range(0, n - 1);
    for (bool ac : {false, true}) {
      CHECK(base_coordinate(i, n, ac) == -base_coordinate(n - 1 - i, n, ac));
      const long double exact = ac ? -1.0L + 2.0L * i / (n - 1) : -1.0L + (2.0L * i + 1) / n;
      CHECK(std::fabs(static_cast<long double>(base_coordinate(i, n, ac)) - exact) <= 0x1p-53L * std::fabs(exact) + 1e-300L);
    }
    CHECK(base_coordinate(0, n, true) == -1.0);
    CHECK(base_coordinate(n - 1, n, true) == 1.0);
  }
}

TEST_CASE("affinegrid float16 rounds a double once, to nearest even", "[affinegrid][exec]") {
  using osw::ag::half_from_double;
  CHECK(half_from_double(1.0) == 0x3c00);
  CHECK(half_from_double(-2.0) == 0xc000);
  CHECK(half_from_double(-0.0) == 0x8000);
  CHECK(half_from_double(0.0) == 0x0000);
  CHECK(half_from_double(65504.0) == 0x7bff);
  CHECK(half_from_double(65519.99) == 0x7bff);
  CHECK(half_from_double(65520.0) == 0x7c00);
  CHECK(half_from_double(-1e300) == 0xfc00);
  CHECK(half_from_double(std::numeric_limits<double>::infinity()) == 0x7c00);
  const uint16_t nan = half_from_double(std::numeric_limits<double>::quiet_NaN());
  CHECK((nan & 0x7c00) == 0x7c00);
  CHECK((nan & 0x03ff) != 0);
  CHECK(half_from_double(0x1p-24) == 0x0001);
  CHECK(half_from_double(0x1p-25) == 0x0000);          // tie -> even (0)
  CHECK(half_from_double(3 * 0x1p-25) == 0x0002);      // tie -> even (2)
  CHECK(half_from_double(0x1p-14 - 0x1p-26) == 0x0400);  // rounds up into the smallest normal
  CHECK(half_from_double(1 + 0x1p-11) == 0x3c00);      // tie -> even
  CHECK(half_from_double(1 + 3 * 0x1p-11) == 0x3c02);  // tie -> even
  // Just above a tie: float32 would first round it onto the tie, then to even (0x3c00).
  CHECK(half_from_double(1 + 0x1p-11 + 0x1p-40) == 0x3c01);
  // On values a float holds exactly it agrees with the float32 conversion.
  Rng rng(16);
  for (int k = 0; k < 20000; ++k) {
    const float f = static_cast<float>(rng.real(-70000, 70000) * std::pow(2.0, -static_cast<double>(rng.range(0, 30))));
    REQUIRE(half_from_double(f) == osw::half_from_float(f));
  }
}

TEST_CASE("affinegrid known grids: identity, a rotation, (x, y, z) order", "[affinegrid][exec]") {
  // Identity 2-D, H = 2, W = 3, align_corners=0: x = -2/3, 0, 2/3 along W; y = -1/2, 1/2.
  Run r = run(DType::Float64, {1, 2, 3}, {1, 0, 0, 0, 1, 0}, {1, 5, 2, 3}, false);
  REQUIRE(r.status.ok());
  REQUIRE(r.grid.rank == 4);
  CHECK(r.grid.dims[0] == 1);
  CHECK(r.grid.dims[1] == 2);
  CHECK(r.grid.dims[2] == 3);
  CHECK(r.grid.dims[3] == 2);
  const double want[] = {-2.0 / 3, -0.5, 0, -0.5, 2.0 / 3, -0.5, -2.0 / 3, 0.5, 0, 0.5, 2.0 / 3, 0.5};
  for (int i = 0; i < 12; ++i) CHECK(r.values[i] == want[i]);
  // A rotation-like matrix (PyTorch's documented example): values computed by hand.
  r = run(DType::Float32, {1, 2, 3}, {0.8, 0.5, 0, -0.5, 0.8, 0}, {1, 3, 2, 3}, false);
  REQUIRE(r.status.ok());
  const float t[] = {0.8f, 0.5f, 0.0f, -0.5f, 0.8f, 0.0f};
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w) {
      const double x = (2 * w + 1 - 3) / 3.0, y = (2 * h + 1 - 2) / 2.0;
      CHECK(r.values[(h * 3 + w) * 2] == static_cast<float>(double(t[0]) * x + double(t[1]) * y));
      CHECK(r.values[(h * 3 + w) * 2 + 1] == static_cast<float>(double(t[3]) * x + double(t[4]) * y));
    }
  CHECK(std::fabs(r.values[0] - -0.78333336) < 1e-7);
  CHECK(std::fabs(r.values[1] - -0.06666666) < 1e-7);
  // 3-D identity plus a translation of (0.25, 0, -0.5), align_corners=1, D = 2, H = 3, W = 2.
  r = run(DType::Float64, {1, 3, 4}, {1, 0, 0, 0.25, 0, 1, 0, 0, 0, 0, 1, -0.5}, {1, 1, 2, 3, 2}, true);
  REQUIRE(r.status.ok());
  REQUIRE(r.grid.rank == 5);
  CHECK(r.grid.dims[4] == 3);
  for (int d = 0; d < 2; ++d)
    for (int h = 0; h < 3; ++h)
      for (int w = 0; w < 2; ++w) {
        const size_t k = static_cast<size_t>(((d * 3 + h) * 2 + w) * 3);
        CHECK(r.values[k] == (w == 0 ? -1.0 : 1.0) + 0.25);
        CHECK(r.values[k + 1] == h - 1.0);
        CHECK(r.values[k + 2] == (d == 0 ? -1.0 : 1.0) - 0.5);
      }
}

TEST_CASE("affinegrid matches the slow reference on random thetas", "[affinegrid][exec]") {
  Rng rng(2020);
  const DType types[] = {DType::Float32, DType::Float64, DType::Float16};
  int cases = 0, ones = 0;
  for (int k = 0; k < 600; ++k) {
    const int r = rng.coin() ? 2 : 3;
    const bool ac = rng.coin();
    const DType type = types[rng.range(0, 2)];
    const int64_t N = rng.range(0, 3);
    Dims sp;
    for (int i = 0; i < r; ++i) sp.push_back(rng.range(0, 9) == 0 ? 1 : rng.range(0, 7));
    Dims size = {N, rng.range(0, 4)};
    size.insert(size.end(), sp.begin(), sp.end());
    std::vector<double> theta(static_cast<size_t>(N * r * (r + 1)));
    for (double& v : theta) {
      v = rng.real(-2, 2);
      // The reference reads the values theta really holds.
      if (type == DType::Float32) v = static_cast<float>(v);
      if (type == DType::Float16) v = osw::half_to_float(osw::half_from_float(static_cast<float>(v)));
    }
    Run got = run(type, {N, r, r + 1}, theta, size, ac);
    INFO("case " << k << ": r " << r << " align_corners " << ac << " type " << osw::dtype_name(type));
    REQUIRE(got.status.ok());
    std::vector<long double> mag;
    const std::vector<long double> want = ref::affine_grid(theta, N, sp, ac, &mag);
    REQUIRE(got.values.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      // Computed in double, rounded once to the type: half a spacing of the type, plus the
      // double arithmetic's few roundings.
      const double tol = 0.5 * spacing(type, want[i]) * (1 + 0x1p-10) + 4 * DBL_EPSILON * static_cast<double>(mag[i]);
      INFO("element " << i << ": got " << got.values[i] << ", want " << static_cast<double>(want[i]));
      REQUIRE(std::fabs(static_cast<long double>(got.values[i]) - want[i]) <= tol);
    }
    ++cases;
    for (int64_t s : sp) ones += s == 1;
  }
  CHECK(cases == 600);
  CHECK(ones > 50);  // sizes of 1 were drawn
}

TEST_CASE("affinegrid float16 grids are rounded once, not through float32", "[affinegrid][exec]") {
  // x = 2/3 (W = 3, w = 2), y = 1/2 (H = 2, h = 1), theta row 0 = [2^-24, 2^-10, 1] (all
  // float16): x' = 1 + 2^-11 + (2/3) 2^-24, just above the tie between 1 and 1 + 2^-10 by
  // less than float32 resolves. Float32 first would give the tie, then 1 (even); the
  // nearest float16 is 1 + 2^-10.
  const std::vector<double> theta = {0x1p-24, 0x1p-10, 1, 0, 0, 0};
  Run r = run(DType::Float16, {1, 2, 3}, theta, {1, 1, 2, 3}, false);
  REQUIRE(r.status.ok());
  const double exact = 1 + 0x1p-11 + 0x1p-24 * 2 / 3;
  REQUIRE(static_cast<float>(exact) == 1 + 0x1p-11f);  // float32 lands on the tie
  CHECK(r.values[(1 * 3 + 2) * 2] == 1 + 0x1p-10);
  CHECK(r.values[(1 * 3 + 2) * 2 + 1] == 0);
}

TEST_CASE("affinegrid NaN in theta stays in its own outputs", "[affinegrid][exec]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Run r = run(DType::Float32, {2, 2, 3}, {1, 0, 0, 0, nan, 0, 1, 0, 0, 0, 1, 0}, {2, 1, 2, 2}, false);
  REQUIRE(r.status.ok());
  for (int i = 0; i < 8; ++i) CHECK(std::isnan(r.values[i]) == (i % 2 == 1));  // y of matrix 0
  for (int i = 8; i < 16; ++i) CHECK_FALSE(std::isnan(r.values[i]));
}

TEST_CASE("affinegrid shapes: zero sizes give an empty grid", "[affinegrid][params]") {
  Run r = run(DType::Float32, {2, 2, 3}, std::vector<double>(12, 0.5), {2, 0, 0, 4}, false);
  REQUIRE(r.status.ok());
  CHECK(r.grid.dims[1] == 0);
  CHECK(r.grid.dims[2] == 4);
  CHECK(r.values.empty());
  r = run(DType::Float64, {0, 3, 4}, {}, {0, 3, 2, 2, 2}, true);
  REQUIRE(r.status.ok());
  CHECK(r.grid.rank == 5);
  CHECK(r.grid.dims[0] == 0);
  CHECK(r.values.empty());
}

TEST_CASE("affinegrid errors name theta or size", "[affinegrid][params]") {
  auto shape = [](DType type, const Dims& tdims, const Dims& size) {
    std::vector<float> data(64);
    TensorView t = theta_view(type, tdims, data.data());
    TensorView g;
    return osw::affinegrid_output_shape(t, size.data(), static_cast<int>(size.size()), &g);
  };
  auto expect = [](const Status& st, osw::ErrorKind kind, const std::string& text) {
    INFO(st.message);
    CHECK(st.kind == kind);
    CHECK(st.message.find(text) != std::string::npos);
  };
  using osw::ErrorKind;
  expect(shape(DType::Int32, {1, 2, 3}, {1, 1, 2, 2}), ErrorKind::TypeError, "theta: expected a tensor of type float32, float64 or float16, got 'int32'");
  expect(shape(DType::BFloat16, {1, 2, 3}, {1, 1, 2, 2}), ErrorKind::TypeError, "'bfloat16'");
  expect(shape(DType::Float32, {1, 2, 3}, {1, 1, 2}), ErrorKind::RangeError, "size: expected 4 values [N, C, H, W] (2-D) or 5 values [N, C, D, H, W] (3-D), got 3");
  expect(shape(DType::Float32, {1, 2, 3}, {1, 1, 2, 2, 2, 2}), ErrorKind::RangeError, "got 6");
  expect(shape(DType::Float32, {1, 2, 3}, {1, 1, -2, 2}), ErrorKind::RangeError, "size[2]: must be non-negative, got -2");
  expect(shape(DType::Float32, {1, 2, 3}, {1, -1, 2, 2}), ErrorKind::RangeError, "size[1]: must be non-negative");
  expect(shape(DType::Float32, {1, 2, 3}, {1, 1, 2, 2, 2}), ErrorKind::RangeError, "theta: expected dims [N, 3, 4] for 5 size values (3-D), got [1, 2, 3]");
  expect(shape(DType::Float32, {1, 3, 4}, {1, 1, 2, 2}), ErrorKind::RangeError, "theta: expected dims [N, 2, 3] for 4 size values (2-D), got [1, 3, 4]");
  expect(shape(DType::Float32, {6}, {1, 1, 2, 2}), ErrorKind::RangeError, "got [6]");
  expect(shape(DType::Float32, {1, 1, 2, 3}, {1, 1, 2, 2}), ErrorKind::RangeError, "got [1, 1, 2, 3]");
  expect(shape(DType::Float32, {2, 2, 3}, {3, 1, 2, 2}), ErrorKind::RangeError, "size[0]: N is 3 but theta holds 2 matrices (theta.dims[0])");
  expect(shape(DType::Float32, {1, 2, 3}, {1, 1, int64_t(1) << 40, int64_t(1) << 40}), ErrorKind::RangeError, "size: the grid would have more than 2^63 elements");
  expect(shape(DType::Float64, {1, 2, 3}, {1, 1, int64_t(1) << 30, int64_t(1) << 30}), ErrorKind::RangeError, "size: the grid would take more than 2^63 bytes");
  // affinegrid() re-checks: a grid view of other dims is refused before anything is written.
  std::vector<float> theta(6, 1.0f), out(4, 7.0f);
  TensorView t = theta_view(DType::Float32, {1, 2, 3}, theta.data());
  TensorView g;
  g.type = DType::Float32;
  g.rank = 4;
  g.dims[0] = 1; g.dims[1] = 1; g.dims[2] = 1; g.dims[3] = 2;
  g.data = out.data();
  const int64_t size[] = {1, 1, 2, 2};
  Status st = osw::affinegrid(osw::AffineGridAttrs(), t, size, 4, &g);
  CHECK(st.kind == ErrorKind::RangeError);
  for (float v : out) CHECK(v == 7.0f);
}
