// test_types.cpp: element types. Conversions (float16, bfloat16, rounding and saturation)
// and Resize on every type against the slow reference, computed in double and then
// stored with the same rule (round half to even, saturate).
#include <algorithm>
#include <catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/elem.h"
#include "gridsample/gridsample.h"
#include "reference_gridsample.h"
#include "reference_resize.h"
#include "resize/resize.h"
#include "test_plan.h"

using namespace osw;

TEST_CASE("types: float16 conversions", "[core][types]") {
  // Every half converts to float and back to itself (NaNs stay NaN).
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = half_to_float(uint16_t(h));
    const uint16_t back = half_from_float(f);
    if (std::isnan(f)) {
      REQUIRE((back & 0x7C00u) == 0x7C00u);
      REQUIRE((back & 0x03FFu) != 0);
    } else {
      REQUIRE(back == h);
    }
  }
  CHECK(half_to_float(0x3C00) == 1.0f);
  CHECK(half_to_float(0x7BFF) == 65504.0f);
  CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(half_from_float(65519.0f) == 0x7BFF);
  CHECK(half_from_float(65520.0f) == 0x7C00);            // ties to even: infinity
  CHECK(half_from_float(1e9f) == 0x7C00);
  CHECK(half_from_float(-1e9f) == 0xFC00);
  CHECK(half_from_float(std::ldexp(1.0f, -25)) == 0x0000);   // tie to even: 0
  CHECK(half_from_float(std::ldexp(3.0f, -25)) == 0x0002);   // 1.5 units: tie to even 2
  CHECK(half_from_float(-0.0f) == 0x8000);
  CHECK(half_from_float(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);  // tie: even mantissa
  CHECK(half_from_float(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
}

TEST_CASE("types: bfloat16 conversions", "[core][types]") {
  CHECK(bfloat16_to_float(0x3F80) == 1.0f);
  CHECK(bfloat16_from_float(1.0f) == 0x3F80);
  uint32_t bits = 0x3F808000u;  // exactly between 0x3F80 and 0x3F81: ties to even
  float f;
  std::memcpy(&f, &bits, 4);
  CHECK(bfloat16_from_float(f) == 0x3F80);
  bits = 0x3F818000u;
  std::memcpy(&f, &bits, 4);
  CHECK(bfloat16_from_float(f) == 0x3F82);
  CHECK(std::isnan(bfloat16_to_float(bfloat16_from_float(NAN))));
  CHECK(bfloat16_from_float(INFINITY) == 0x7F80);
}

TEST_CASE("types: integer stores round half to even and saturate (row 7)", "[core][types]") {
  CHECK(saturate_round<uint8_t>(2.5f) == 2);
  CHECK(saturate_round<uint8_t>(3.5f) == 4);
  CHECK(saturate_round<uint8_t>(-0.5f) == 0);
  CHECK(saturate_round<uint8_t>(-3.0f) == 0);
  CHECK(saturate_round<uint8_t>(255.4f) == 255);
  CHECK(saturate_round<uint8_t>(300.0f) == 255);
  CHECK(saturate_round<uint8_t>(NAN) == 0);
  CHECK(saturate_round<int8_t>(-128.6f) == -128);
  CHECK(saturate_round<int8_t>(-127.5f) == -128);
  CHECK(saturate_round<int32_t>(2147483647.6) == 2147483647);
  CHECK(saturate_round<int32_t>(-1e20) == std::numeric_limits<int32_t>::min());
  CHECK(saturate_round<int64_t>(9.3e18) == std::numeric_limits<int64_t>::max());
  CHECK(saturate_round<int64_t>(-9.3e18) == std::numeric_limits<int64_t>::min());
  CHECK(saturate_round<uint64_t>(1.9e19) == std::numeric_limits<uint64_t>::max());
  CHECK(saturate_round<uint64_t>(-1.0) == 0);
  CHECK(saturate_round<uint32_t>(INFINITY) == std::numeric_limits<uint32_t>::max());
  CHECK(ElemTraits<Bool8>::store(0.5f).value == 0);
  CHECK(ElemTraits<Bool8>::store(0.51f).value == 1);
  CHECK(ElemTraits<Bool8>::store(1.7f).value == 1);
  CHECK(ElemTraits<Bool8>::load(Bool8{7}) == 1.0f);
}

namespace {

template <typename T>
double to_double(T v) {
  return static_cast<double>(ElemTraits<T>::load(v));
}

template <typename T>
T random_value(std::mt19937_64& g) {
  using L = std::numeric_limits<T>;
  std::uniform_int_distribution<int> pick(0, 9);
  const int k = pick(g);
  if constexpr (std::is_integral<T>::value) {
    if (k == 0) return L::min();
    if (k == 1) return L::max();
    // Half the range, so that converting back can never overflow.
    std::uniform_real_distribution<double> d(static_cast<double>(L::min() / 2),
                                             static_cast<double>(L::max() / 2));
    if (k < 5) return static_cast<T>(d(g));
    return T(std::uniform_int_distribution<int>(0, 100)(g));
  } else {
    std::uniform_real_distribution<float> d(-100.0f, 100.0f);
    return ElemTraits<T>::store(d(g));
  }
}

template <typename T>
void check_type(uint64_t seed) {
  std::mt19937_64 g(seed);
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  for (int c = 0; c < 120; ++c) {
    const int rank = rnd(1, 3);
    int64_t dims[kMaxRank];
    int64_t n = 1;
    ResizeInputs in;
    in.has_sizes = true;
    in.n_axes = rank;
    for (int i = 0; i < rank; ++i) {
      dims[i] = rnd(1, 6);
      n *= dims[i];
      in.sizes[i] = rnd(1, 9);
    }
    ResizeAttrs at;
    at.mode = static_cast<ResizeMode>(rnd(0, 2));
    at.coord = static_cast<CoordMode>(rnd(0, 6));
    at.antialias = rnd(0, 1) == 1;
    at.extrapolation_value = rnd(0, 1) ? 1e30 : -3.5;  // saturates for integers (row 16)
    if (at.coord == CoordMode::TfCropAndResize) {
      in.has_roi = true;
      for (int i = 0; i < rank; ++i) {
        in.roi[i] = -0.2;
        in.roi[rank + i] = 1.1;
      }
    }
    ResizePlan plan;
    REQUIRE(resize_plan(at, in, rank, dims, &plan).ok());
    std::vector<T> x(static_cast<size_t>(n));
    std::vector<double> xd(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      x[size_t(i)] = random_value<T>(g);
      xd[size_t(i)] = to_double(x[size_t(i)]);
    }
    std::vector<ref::Axis> axes;
    int64_t m = 1;
    for (int i = 0; i < rank; ++i) {
      const AxisGeometry& ge = plan.geo.axis[i];
      axes.push_back({ge.in, ge.out, ge.scale_num, ge.scale_den, ge.roi_start, ge.roi_end});
      m *= ge.out;
    }
    std::vector<T> y(static_cast<size_t>(m));
    REQUIRE(run_plan(plan, ElemTraits<T>::kType, x.data(), y.data()).ok());
    const std::vector<double> e = ref::resize(at, axes, xd);
    using C = typename ElemTraits<T>::Compute;
    // The Compute-type sum carries an absolute error of a few units in the last place of
    // the largest input (cancellation in cubic lobes): within that, any answer is right.
    double max_abs = 0;
    for (double v : xd) max_abs = std::max(max_abs, std::fabs(v));
    const double eps = std::is_same<C, float>::value ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
    const double tol = max_abs * eps * 64;
    INFO("type " << dtype_name(ElemTraits<T>::kType) << " case " << c << " mode " << int(at.mode)
                 << " coord " << int(at.coord));
    for (int64_t i = 0; i < m; ++i) {
      const T want = ElemTraits<T>::store(static_cast<C>(e[size_t(i)]));
      const T got = y[size_t(i)];
      if (at.mode == ResizeMode::Nearest) {
        // Bit-exact copies (or the saturated extrapolation value).
        REQUIRE(std::memcmp(&want, &got, sizeof(T)) == 0);
        continue;
      }
      const double dw = to_double(want), dg = to_double(got);
      if (std::is_integral<T>::value || std::is_same<T, Bool8>::value) {
        // The library sums in Compute; a sum that lands within a hair of a .5 tie may
        // round either way. Anything else must match exactly.
        const double ev = e[size_t(i)];
        const double frac = std::fabs(ev - std::floor(ev) - 0.5);
        if (frac < 1e-3 + tol) REQUIRE(std::fabs(dw - dg) <= 1 + tol);
        else REQUIRE(std::fabs(dw - dg) <= tol);
      } else {
        // float16/bfloat16: one unit in the last place of the narrow type.
        const double ulp = std::is_same<T, Float16>::value ? 1.0 / 1024 : 1.0 / 128;
        REQUIRE((dw == dg || std::fabs(dw - dg) <= ulp * std::fabs(dw) + 1e-4));
      }
    }
  }
}

}  // namespace

TEST_CASE("types: Resize on every type matches the reference", "[resize][exec]") {
  check_type<uint8_t>(11);
  check_type<int8_t>(12);
  check_type<uint16_t>(13);
  check_type<int16_t>(14);
  check_type<int32_t>(15);
  check_type<uint32_t>(16);
  check_type<int64_t>(17);
  check_type<uint64_t>(18);
  check_type<Float16>(19);
  check_type<BFloat16>(20);
}

namespace {

// A float16/bfloat16 run is the float32 run of the widened values, each output narrowed
// once (resize.cpp's run_converted): its last step writes Y in parts of up to 2^17
// elements, under a small maxBytes smaller ones. Outputs of several parts (and with
// small_limit > 0, under that limit too) must equal the float32 run narrowed, bit for bit.
template <typename T>
void check_parts(const int64_t* dims, const int64_t* out, int rank, ResizeMode mode, bool aa,
                 int64_t small_limit = 0) {
  ResizeAttrs at;
  at.mode = mode;
  at.antialias = aa;
  ResizeInputs in;
  in.has_sizes = true;
  in.n_axes = rank;
  int64_t n = 1, m = 1;
  for (int a = 0; a < rank; ++a) {
    in.sizes[a] = out[a];
    n *= dims[a];
    m *= out[a];
  }
  REQUIRE(m > (int64_t(1) << 18));  // three parts of 2^17 or more
  std::mt19937_64 g(static_cast<uint64_t>(m + n));
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<T> x(static_cast<size_t>(n));
  std::vector<float> xf(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = ElemTraits<T>::store(d(g));
    xf[i] = ElemTraits<T>::load(x[i]);  // exact
  }
  ResizePlan pf;
  REQUIRE(resize_plan(at, in, rank, dims, &pf).ok());
  std::vector<float> yf(static_cast<size_t>(m));
  REQUIRE(run_plan(pf, DType::Float32, xf.data(), yf.data()).ok());
  for (const int64_t limit : {kDefaultMaxBytes, small_limit}) {
    if (limit == 0) continue;
    ResizeOptions o;
    o.max_bytes = limit;
    o.type = ElemTraits<T>::kType;
    ResizePlan p;
    REQUIRE(resize_plan(at, in, rank, dims, &p, o).ok());
    std::vector<T> y(static_cast<size_t>(m), ElemTraits<T>::store(12345.0f));
    TensorView xv = osw_test::view(o.type, rank, dims, x.data());
    TensorView yv = osw_test::view(o.type, rank, out, y.data());
    ResizeWorkspace ws;
    INFO(dtype_name(o.type) << " mode " << int(mode) << " antialias " << aa << " limit " << limit);
    const Status st = resize_execute(p, xv, &yv, &ws);
    INFO(st.message);
    REQUIRE(st.ok());
    CHECK(ws.wide.size() <= limit);
    if (limit == small_limit) CHECK(ws.wide.size() > limit / 2);  // the parts cut to the limit
    int64_t bad = 0;
    for (int64_t i = 0; i < m; ++i) {
      const T want = ElemTraits<T>::store(yf[size_t(i)]);
      if (std::memcmp(&want, &y[size_t(i)], sizeof(T)) != 0 && bad++ == 0) {
        INFO("first difference at element " << i);
        CHECK(false);
      }
    }
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("types: float16 and bfloat16 runs in parts equal the float32 run narrowed", "[resize][exec][types]") {
  const int64_t planes[4] = {1, 2, 260, 300}, up[4] = {1, 2, 521, 700};
  const int64_t big[4] = {1, 2, 800, 900}, down[4] = {1, 2, 400, 367};
  const int64_t hwc[3] = {200, 150, 3}, hwc_up[3] = {480, 377, 3};
  check_parts<Float16>(planes, up, 4, ResizeMode::Linear, false);
  check_parts<Float16>(planes, up, 4, ResizeMode::Cubic, false);
  check_parts<BFloat16>(planes, up, 4, ResizeMode::Cubic, false);
  check_parts<Float16>(big, down, 4, ResizeMode::Cubic, true);
  check_parts<BFloat16>(hwc, hwc_up, 3, ResizeMode::Linear, false);
  // A small X to a large Y: X as float and the tables fit in 256 kB, a part of 2^17 floats
  // does not; it is cut to fewer rows.
  const int64_t small[4] = {1, 1, 64, 64}, large[4] = {1, 1, 600, 700};
  check_parts<Float16>(small, large, 4, ResizeMode::Cubic, false, int64_t(1) << 18);
}

TEST_CASE("types: bool resize", "[resize][exec]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::AlignCorners;
  ResizeInputs in;
  in.has_sizes = true;
  in.n_axes = 1;
  in.sizes[0] = 7;
  Bool8 x[3] = {{0}, {1}, {0}};
  Bool8 y[7];
  TensorView xv, yv;
  xv.type = yv.type = DType::Bool;
  xv.rank = 1;
  xv.dims[0] = 3;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  // Coordinates 0, 1/3, 2/3, 1, 4/3, 5/3, 2 -> 0, 1/3, 2/3, 1, 2/3, 1/3, 0.
  const uint8_t want[7] = {0, 0, 1, 1, 1, 0, 0};
  for (int i = 0; i < 7; ++i) CHECK(y[i].value == want[i]);
}

TEST_CASE("types: cubic overshoot saturates uint8; int64 extremes stay exact in nearest", "[resize][exec]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Cubic;
  ResizeInputs in;
  in.has_sizes = true;
  in.n_axes = 1;
  in.sizes[0] = 8;
  uint8_t x[4] = {0, 255, 255, 0};
  uint8_t y[8];
  TensorView xv, yv;
  xv.type = yv.type = DType::UInt8;
  xv.rank = 1;
  xv.dims[0] = 4;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(y[3] == 255);  // cubic overshoots above 255 between the two 255s
  CHECK(y[0] == 0);    // and below 0 next to the edge
  at.mode = ResizeMode::Nearest;
  int64_t xi[2] = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min() + 1};
  int64_t yi[8];
  xv.type = yv.type = DType::Int64;
  xv.dims[0] = 2;
  xv.data = xi;
  yv.data = yi;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(yi[0] == std::numeric_limits<int64_t>::max());
  CHECK(yi[7] == std::numeric_limits<int64_t>::min() + 1);
}

namespace {

template <typename T>
void check_gridsample_type(uint64_t seed) {
  std::mt19937_64 g(seed);
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  std::uniform_real_distribution<double> coord(-1.3, 1.3);
  for (int c = 0; c < 60; ++c) {
    const int r = rnd(1, 3);
    std::vector<int64_t> xd = {rnd(1, 2), rnd(1, 2)}, gd = {xd[0]};
    for (int a = 0; a < r; ++a) xd.push_back(rnd(1, 5));
    for (int a = 0; a < r; ++a) gd.push_back(rnd(1, 4));
    gd.push_back(r);
    int64_t nx = 1, ng = 1, ny = xd[0] * xd[1];
    for (int64_t v : xd) nx *= v;
    for (int64_t v : gd) ng *= v;
    for (int a = 0; a < r; ++a) ny *= gd[1 + a];
    std::vector<T> x(static_cast<size_t>(nx));
    std::vector<double> xv(static_cast<size_t>(nx)), gv(static_cast<size_t>(ng));
    for (int64_t i = 0; i < nx; ++i) {
      x[size_t(i)] = random_value<T>(g);
      xv[size_t(i)] = to_double(x[size_t(i)]);
    }
    std::vector<double> grid(static_cast<size_t>(ng));
    for (int64_t i = 0; i < ng; ++i) grid[size_t(i)] = gv[size_t(i)] = coord(g);
    GridSampleAttrs at;
    at.mode = static_cast<GridMode>(rnd(0, 2));
    at.padding = static_cast<PaddingMode>(rnd(0, 2));
    at.align_corners = rnd(0, 1) == 1;
    TensorView X, G, Y;
    X.type = Y.type = ElemTraits<T>::kType;
    X.rank = int(xd.size());
    for (size_t i = 0; i < xd.size(); ++i) X.dims[i] = xd[i];
    X.data = x.data();
    G.type = DType::Float64;
    G.rank = int(gd.size());
    for (size_t i = 0; i < gd.size(); ++i) G.dims[i] = gd[i];
    G.data = grid.data();
    REQUIRE(gridsample_output_shape(X, G, &Y).ok());
    std::vector<T> y(static_cast<size_t>(ny));
    Y.data = y.data();
    REQUIRE(gridsample(at, X, G, &Y).ok());
    const std::vector<double> e = ref::gridsample(xd, xv, gd, gv, at.mode, at.padding, at.align_corners);
    using C = typename ElemTraits<T>::Compute;
    double max_abs = 0;
    for (double v : xv) max_abs = std::max(max_abs, std::fabs(v));
    const double eps = std::is_same<C, float>::value ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
    const double tol = max_abs * eps * 256;
    INFO("type " << dtype_name(ElemTraits<T>::kType) << " case " << c << " mode " << int(at.mode)
                 << " padding " << int(at.padding) << " align " << at.align_corners);
    for (int64_t i = 0; i < ny; ++i) {
      const T want = ElemTraits<T>::store(static_cast<C>(e[size_t(i)]));
      if (at.mode == GridMode::Nearest) {
        REQUIRE(std::memcmp(&want, &y[size_t(i)], sizeof(T)) == 0);  // bit-exact copies
        continue;
      }
      const double dw = to_double(want), dg = to_double(y[size_t(i)]);
      if (std::is_integral<T>::value) {
        const double ev = e[size_t(i)];
        const double frac = std::fabs(ev - std::floor(ev) - 0.5);
        if (frac < 1e-3 + tol) REQUIRE(std::fabs(dw - dg) <= 1 + tol);
        else REQUIRE(std::fabs(dw - dg) <= tol);
      } else {
        const double ulp = std::is_same<T, Float16>::value ? 1.0 / 1024 : 1.0 / 128;
        REQUIRE((dw == dg || std::fabs(dw - dg) <= ulp * std::fabs(dw) + 1e-3));
      }
    }
  }
}

}  // namespace

TEST_CASE("types: GridSample on every type matches the reference", "[gridsample][exec]") {
  check_gridsample_type<uint8_t>(31);
  check_gridsample_type<int8_t>(32);
  check_gridsample_type<uint16_t>(33);
  check_gridsample_type<int16_t>(34);
  check_gridsample_type<int32_t>(35);
  check_gridsample_type<uint32_t>(36);
  check_gridsample_type<int64_t>(37);
  check_gridsample_type<uint64_t>(38);
  check_gridsample_type<Float16>(39);
  check_gridsample_type<BFloat16>(40);
}

// compat 'onnxruntime', antialias on integers: one pass per resized
// axis, innermost first, each rounded and stored as the type before the next (uint8/int8:
// ONNX Runtime's 2^-22 fixed point, clamped to [0, 255], int8 keeping the low byte; int32:
// float32 sums rounded half away from zero). Expected values: ONNX Runtime 1.30 (wasm),
// docs/ort-compat-findings.md row 7.
namespace {

template <typename T>
std::vector<T> ort_antialias(ResizeMode mode, const std::vector<int64_t>& dims,
                             const std::vector<T>& x, const std::vector<double>& scales,
                             double cubic_a = -0.75, Compat compat = Compat::OnnxRuntime) {
  ResizeAttrs at;
  at.mode = mode;
  at.antialias = true;
  at.cubic_a = cubic_a;
  at.compat = compat;
  ResizeInputs in;
  in.has_scales = true;
  in.n_axes = static_cast<int>(dims.size());
  for (size_t i = 0; i < scales.size(); ++i) in.scales[i] = static_cast<float>(scales[i]);
  TensorView xv, yv;
  xv.type = yv.type = ElemTraits<T>::kType;
  xv.rank = static_cast<int>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) xv.dims[i] = dims[i];
  xv.data = const_cast<T*>(x.data());
  std::vector<T> y(x.size() * 4 + 16);
  yv.data = y.data();
  const Status s = resize(at, in, xv, &yv);
  REQUIRE(s.ok());
  y.resize(static_cast<size_t>(yv.elements()));
  return y;
}

}  // namespace

TEST_CASE("types: compat onnxruntime rounds each antialias pass of an integer type (row 7)", "[resize][exec]") {
  using V8 = std::vector<uint8_t>;
  using I8 = std::vector<int8_t>;
  using I32 = std::vector<int32_t>;
  const ResizeMode L = ResizeMode::Linear, C = ResizeMode::Cubic;
  CHECK(ort_antialias<uint8_t>(L, {1, 8}, {0, 1, 0, 1, 0, 1, 0, 1}, {1, 0.5}) == V8{0, 1, 1, 1});
  CHECK(ort_antialias<int32_t>(L, {1, 8}, {0, -1, 0, -1, 0, -1, 0, -1}, {1, 0.5}) == I32{0, -1, -1, -1});
  // int8: a negative pass result is clamped to 0
  CHECK(ort_antialias<int8_t>(L, {1, 8}, {-100, -120, -1, -2, -50, 50, -7, 9}, {1, 0.6}) == I8{0, 0, 0, 16});
  // int8: the first pass's 140.9 -> 141 is stored as -115, which the second pass reads
  std::vector<int8_t> rows;
  for (int r = 0; r < 4; ++r) for (int8_t v : {0, 0, 127, 127, 127, 127, 0, 0}) rows.push_back(v);
  CHECK(ort_antialias<int8_t>(C, {4, 8}, rows, {0.5, 0.75}, -1.0) == I8{0, 64, 0, 0, 64, 0, 0, 64, 0, 0, 64, 0});
  // uint8 cubic 3x3 -> 2x2: per-pass rounding gives 233 and 179 (one rounding: 234, 178)
  CHECK(ort_antialias<uint8_t>(C, {3, 3}, {20, 231, 229, 25, 150, 218, 220, 135, 196}, {0.67, 0.67}) == V8{70, 233, 144, 179});
  // the default ('onnx') rounds once, half to even: 0.375, 0.5, 0.5, 0.625 -> 0, 0, 0, 1
  CHECK(ort_antialias<uint8_t>(L, {1, 8}, {0, 1, 0, 1, 0, 1, 0, 1}, {1, 0.5}, -0.75, Compat::Onnx) == V8{0, 0, 0, 1});
  // NCHW 1x1x3x3 and NHWC 1x3x3x1 give the same as the 2-D case
  CHECK(ort_antialias<uint8_t>(C, {1, 1, 3, 3}, {20, 231, 229, 25, 150, 218, 220, 135, 196}, {1, 1, 0.67, 0.67}) == V8{70, 233, 144, 179});
  CHECK(ort_antialias<uint8_t>(C, {1, 3, 3, 1}, {20, 231, 229, 25, 150, 218, 220, 135, 196}, {1, 0.67, 0.67, 1}) == V8{70, 233, 144, 179});
}

// The types ONNX Runtime does not resize keep the rule: each pass is stored as the type,
// saturated to its range, before the next reads it. So two axes resized at once equal the
// inner axis resized alone, then the outer one (cubic overshoots past both ends).
template <typename T>
void check_ort_passes_compose(T lo, T hi) {
  const ResizeMode C = ResizeMode::Cubic;
  std::vector<T> x;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) x.push_back((c >= 2 && c < 6) != (r == 1) ? hi : lo);
  const std::vector<T> both = ort_antialias<T>(C, {4, 8}, x, {0.5, 0.75}, -1.0);
  const std::vector<T> inner = ort_antialias<T>(C, {4, 8}, x, {1, 0.75}, -1.0);
  const std::vector<T> outer = ort_antialias<T>(C, {4, 6}, inner, {0.5, 1}, -1.0);
  INFO("type " << dtype_name(ElemTraits<T>::kType));
  CHECK(both == outer);
  CHECK(std::find(inner.begin(), inner.end(), hi) != inner.end());  // the overshoot saturated
  CHECK(std::find(inner.begin(), inner.end(), lo) != inner.end());
}

TEST_CASE("types: compat onnxruntime antialias passes of other integer types saturate to the type", "[resize][exec]") {
  check_ort_passes_compose<uint16_t>(0, 65535);
  check_ort_passes_compose<int16_t>(-32768, 32767);
  check_ort_passes_compose<uint32_t>(0, 4294967295u);
  check_ort_passes_compose<int32_t>(-2147483647 - 1, 2147483647);
  // uint64 elements of 2^64 - 1 stay near it (float32 sums: within 2^-24), not saturated at
  // int64's 2^63 - 1 as they were
  const std::vector<uint64_t> big(16, ~uint64_t(0));
  for (uint64_t v : ort_antialias<uint64_t>(ResizeMode::Linear, {16}, big, {0.3}))
    CHECK(v >= ~uint64_t(0) - (~uint64_t(0) >> 23));
}
