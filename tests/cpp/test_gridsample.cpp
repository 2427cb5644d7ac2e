// test_gridsample.cpp: GridSample, layer by layer (STYLE habit 11):
//   - the coordinate helpers (unnormalize, reflect, cubic weights) against the spec formulas;
//   - the per-axis plan (gs::axis_taps): indices in range, weights summing to 1;
//   - the ONNX spec examples (seeds/000), values copied from the spec text;
//   - the kernel against tests/cpp/reference_gridsample.h on random N-D inputs;
//   - properties (identity grid, whole-pixel shifts), NaN/Inf/huge grids, shapes, errors;
//   - the 2-D fast path: its documented sums, its classifier and kernel twins (scalar and
//     SIMD, bit for bit);
//   - plan, workspace and ranges: a run split into parts, each with its own workspace,
//     gives the bytes of one whole run, and a part writes only its own outputs.
#include <catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/types.h"
#include "gridsample/gridsample.h"
#include "gridsample/exec.h"  // the fast path's twins, for the tests that compare them
#include "reference_gridsample.h"
#include "core/simd.h"  // OSW_HAVE_SIMD: the one guard macro of the SIMD paths

namespace {

using osw::DType;
using osw::GridMode;
using osw::GridSampleAttrs;
using osw::PaddingMode;
using Dims = std::vector<int64_t>;
using Vals = std::vector<double>;

const GridMode kModes[] = {GridMode::Nearest, GridMode::Linear, GridMode::Cubic};
const PaddingMode kPads[] = {PaddingMode::Zeros, PaddingMode::Border, PaddingMode::Reflection};
const DType kFloatTypes[] = {DType::Float32, DType::Float64};

const char* mode_name(GridMode m) {
  return m == GridMode::Nearest ? "nearest" : m == GridMode::Linear ? "linear" : "cubic";
}
const char* pad_name(PaddingMode p) {
  return p == PaddingMode::Zeros ? "zeros" : p == PaddingMode::Border ? "border" : "reflection";
}

GridSampleAttrs attrs_of(GridMode m, PaddingMode p, bool align) {
  GridSampleAttrs a;
  a.mode = m;
  a.padding = p;
  a.align_corners = align;
  return a;
}

// Deterministic on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (next() >> 11) * 0x1.0p-53; }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % (hi - lo + 1)); }
};

int64_t count_of(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Values as the tensor type holds them (float32 rounds).
Vals as_type(DType t, Vals v) {
  if (t == DType::Float32)
    for (double& e : v) e = static_cast<double>(static_cast<float>(e));
  return v;
}

std::vector<unsigned char> encode(DType t, const Vals& v) {
  std::vector<unsigned char> b(v.size() * (t == DType::Float32 ? 4 : 8));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == DType::Float32) {
      const float f = static_cast<float>(v[i]);
      std::memcpy(&b[i * 4], &f, 4);
    } else {
      std::memcpy(&b[i * 8], &v[i], 8);
    }
  }
  return b;
}

Vals decode(DType t, const std::vector<unsigned char>& b) {
  const size_t n = b.size() / (t == DType::Float32 ? 4 : 8);
  Vals v(n);
  for (size_t i = 0; i < n; ++i) {
    if (t == DType::Float32) {
      float f;
      std::memcpy(&f, &b[i * 4], 4);
      v[i] = f;
    } else {
      std::memcpy(&v[i], &b[i * 8], 8);
    }
  }
  return v;
}

osw::TensorView view_of(DType t, const Dims& d, void* data) {
  osw::TensorView v;
  v.type = t;
  v.rank = static_cast<int>(d.size());
  for (size_t i = 0; i < d.size(); ++i) v.dims[i] = d[i];
  v.data = data;
  return v;
}

struct Result {
  osw::Status status;
  Dims dims;
  Vals y;
};

// Runs the operator on exactly sized heap copies (so that ASan sees any overrun).
Result run_gs(const GridSampleAttrs& a, DType xt, const Dims& xd, const Vals& xv, DType gt,
              const Dims& gd, const Vals& gv, const osw::gs::Tuning& tuning = osw::gs::Tuning()) {
  Result res;
  std::vector<unsigned char> xb = encode(xt, xv), gb = encode(gt, gv);
  osw::TensorView x = view_of(xt, xd, xb.empty() ? nullptr : xb.data());
  osw::TensorView g = view_of(gt, gd, gb.empty() ? nullptr : gb.data());
  osw::TensorView y;
  res.status = osw::gridsample_output_shape(x, g, &y);
  if (!res.status.ok()) return res;
  y.type = xt;
  res.dims.assign(y.dims, y.dims + y.rank);
  // Y starts as a poison pattern (0xA5 bytes: a tiny negative number), not zeros, so that
  // an output the kernels never write shows.
  std::vector<unsigned char> yb(static_cast<size_t>(y.elements()) * (xt == DType::Float32 ? 4 : 8), 0xA5);
  y.data = yb.empty() ? nullptr : yb.data();
  res.status = osw::gs::gridsample_tuned(a, x, g, &y, tuning);
  if (res.status.ok()) res.y = decode(xt, yb);
  return res;
}

// The 2-D float32 X through the fast path and through the generic one (gs::Tuning::generic).
struct FastAndGeneric {
  Result fast, gen;
};
FastAndGeneric run_fast_and_generic(const GridSampleAttrs& a, const Dims& xd, const Vals& x,
                                    DType gt, const Dims& gd, const Vals& g) {
  osw::gs::Tuning generic;
  generic.generic = true;
  FastAndGeneric r{run_gs(a, DType::Float32, xd, x, gt, gd, g),
                   run_gs(a, DType::Float32, xd, x, gt, gd, g, generic)};
  REQUIRE(r.fast.status.ok());
  REQUIRE(r.gen.status.ok());
  return r;
}

bool close(double got, double want, double abs_tol, double rel_tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= abs_tol + rel_tol * std::fabs(want);
}

// Index of the first element that differs, or -1.
int64_t first_mismatch(const Vals& got, const Vals& want, double abs_tol, double rel_tol) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!close(got[i], want[i], abs_tol, rel_tol)) return static_cast<int64_t>(i);
  return -1;
}

std::string dims_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + ")";
}

// Grid value that unnormalizes to pixel coordinate x on an axis of length L.
double grid_for(double x, int64_t L, bool align) {
  if (align) return L > 1 ? 2.0 * x / static_cast<double>(L - 1) - 1.0 : 0.0;
  return (2.0 * x + 1.0) / static_cast<double>(L) - 1.0;
}

}  // namespace

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

// ---- spec examples ----------------------------------------------------------------------

namespace {

struct SpecCase {
  const char* name;
  GridMode mode;
  PaddingMode padding;
  bool align;
  Dims xd;
  Vals x;
  Dims gd;
  Vals g;
  Dims yd;
  Vals y;
};

const Vals kX32 = {0, 1, 2, 3, 4, 5};  // shape (1, 1, 3, 2)
const Vals kG1 = {-1, -1, -0.5, -0.5, -0.2, -0.2, 0, 0, 0, 0, -0.2, -0.2, 0.5, 0.5, 1, 1};
const Vals kG2 = {-1, -0.8, -0.6, -0.5, -0.1, -0.2, 0.7, 0, 0, 0.4, 0.2, -0.2, -0.3, 0.5, -1, 1};
const Vals kG3 = {-10, -10, -5, -5, -0.2, -0.2, 10, 10, 10, 10, -0.2, -0.2, 5, 5, 10, 10};
const Vals kXv = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // shape (1, 1, 3, 2, 2)
const Vals kGv = {-1,   -1,   -1,   -1,  -0.5, 0.3,  -0.5, -0.5, -0.5, 1,    -0.6, -1,
                  -0.2, -0.2, -0.2, 0.4, 0.2,  0.6,  0,    0,    0,    -1,   0,    0,
                  0,    0,    0,    -1,  1,    0,    -0.2, -0.2, -0.2, 1,    0.4,  -0.2,
                  0.5,  0.5,  0.5,  -1,  -0.8, 0.8,  1,    1,    1,    0.4,  0.6,  -0.3};

std::vector<SpecCase> spec_cases() {
  const Dims xd{1, 1, 3, 2}, gd{1, 2, 4, 2}, yd{1, 1, 2, 4};
  const Dims xvd{1, 1, 3, 2, 2}, gvd{1, 2, 4, 2, 3}, yvd{1, 1, 2, 4, 2};
  const GridMode N = GridMode::Nearest, L = GridMode::Linear, C = GridMode::Cubic;
  const PaddingMode Z = PaddingMode::Zeros, B = PaddingMode::Border, R = PaddingMode::Reflection;
  std::vector<SpecCase> v;
  v.push_back({"test_gridsample", L, Z, false, {1, 1, 4, 4},
               {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {1, 6, 6, 2},
               {-1,  -1,   -0.6, -1,   -0.2, -1,   0.2,  -1,   0.6,  -1,   1,    -1,
                -1,  -0.6, -0.6, -0.6, -0.2, -0.6, 0.2,  -0.6, 0.6,  -0.6, 1,    -0.6,
                -1,  -0.2, -0.6, -0.2, -0.2, -0.2, 0.2,  -0.2, 0.6,  -0.2, 1,    -0.2,
                -1,  0.2,  -0.6, 0.2,  -0.2, 0.2,  0.2,  0.2,  0.6,  0.2,  1,    0.2,
                -1,  0.6,  -0.6, 0.6,  -0.2, 0.6,  0.2,  0.6,  0.6,  0.6,  1,    0.6,
                -1,  1,    -0.6, 1,    -0.2, 1,    0.2,  1,    0.6,  1,    1,    1},
               {1, 1, 6, 6},
               {0.,  0.14999998, 0.55,       0.95,      1.35,       0.75,
                0.5999999, 1.4999998, 2.2999997, 3.1, 3.8999999, 2.1,
                2.2, 4.7, 5.5, 6.3, 7.1, 3.7,
                3.8, 7.9, 8.7, 9.5, 10.3, 5.3,
                5.4, 11.1, 11.900001, 12.7, 13.5, 6.9,
                3., 6.15, 6.55, 6.95, 7.35, 3.75}});
  v.push_back({"test_gridsample_aligncorners_true", L, Z, true, xd, kX32, gd, kG1, yd,
               {0, 1.25, 2, 2.5, 2.5, 2, 3.75, 5}});
  v.push_back({"test_gridsample_bicubic", C, Z, false, xd, kX32, gd, kG1, yd,
               {-0.140625, 0.3828125, 1.7555516, 2.96875, 2.96875, 1.7555516, 5.1445312, 1.390625}});
  v.push_back({"test_gridsample_bicubic_align_corners_0_additional_1", C, Z, false, xd, kX32, gd,
               kG2, yd, {-0.17325, 0.28426462, 1.923105, 2.568, 5.170375, 2.2844129, 4.7448435, 1.046875}});
  v.push_back({"test_gridsample_bicubic_align_corners_1_additional_1", C, Z, true, xd, kX32, gd,
               kG2, yd, {0.304, 1.12875, 2.26627, 3.1448438, 4.5315, 2.45536, 4.599819, 4.}});
  v.push_back({"test_gridsample_bilinear", L, Z, false, xd, kX32, gd, kG1, yd,
               {0, 0.5, 1.7, 2.5, 2.5, 1.7, 4.5, 1.25}});
  v.push_back({"test_gridsample_bilinear_align_corners_0_additional_1", L, Z, false, xd, kX32, gd,
               kG2, yd, {0, 0.45, 1.8, 2.4, 3.7, 2.1, 3.7, 1.}});
  v.push_back({"test_gridsample_bilinear_align_corners_1_additional_1", L, Z, true, xd, kX32, gd,
               kG2, yd, {0.39999998, 1.2, 2.05, 2.85, 3.3, 2.2, 3.35, 4.}});
  v.push_back({"test_gridsample_border_padding", L, B, false, xd, kX32, gd, kG3, yd,
               {0, 0, 1.7, 5, 5, 1.7, 5, 5}});
  v.push_back({"test_gridsample_nearest", N, Z, false, xd, kX32, gd, kG1, yd,
               {0, 0, 2, 2, 2, 2, 5, 0}});
  v.push_back({"test_gridsample_nearest_align_corners_0_additional_1", N, Z, false, xd, kX32, gd,
               kG2, yd, {0, 0, 2, 3, 4, 3, 4, 4}});
  v.push_back({"test_gridsample_nearest_align_corners_1_additional_1", N, Z, true, xd, kX32, gd,
               kG2, yd, {0, 0, 2, 3, 2, 3, 4, 4}});
  v.push_back({"test_gridsample_reflection_padding", L, R, false, xd, kX32, gd, kG3, yd,
               {2.5, 0, 1.7, 2.5, 2.5, 1.7, 5, 2.5}});
  v.push_back({"test_gridsample_volumetric_bilinear_align_corners_0", L, Z, false, xvd, kXv, gvd,
               kGv, yvd, {0.125, 3.4, 2, 0.45, 4.7, 10.900001, 6.5, 3, 6.5, 1.75, 4.7, 3.3, 11, 2.52, 1.5, 5.49}});
  v.push_back({"test_gridsample_volumetric_bilinear_align_corners_1", L, Z, true, xvd, kXv, gvd,
               kGv, yvd, {1, 6.7, 3.75, 2.4, 5.4, 9.3, 6.5, 6, 6.5, 7, 5.4, 6.6, 9.25, 8.4, 12, 6.1}});
  v.push_back({"test_gridsample_volumetric_nearest_align_corners_0", N, Z, false, xvd, kXv, gvd,
               kGv, yvd, {1, 5, 1, 0, 5, 12, 5, 5, 5, 0, 5, 0, 12, 9, 0, 8}});
  v.push_back({"test_gridsample_volumetric_nearest_align_corners_1", N, Z, true, xvd, kXv, gvd,
               kGv, yvd, {1, 5, 1, 2, 5, 12, 5, 5, 5, 7, 5, 8, 12, 9, 12, 8}});
  v.push_back({"test_gridsample_zeros_padding", L, Z, false, xd, kX32, gd, kG3, yd,
               {0, 0, 1.7, 0, 0, 1.7, 0, 0}});
  return v;
}

}  // namespace

TEST_CASE("gridsample: ONNX spec examples", "[gridsample][exec]") {
  for (const SpecCase& sc : spec_cases()) {
    REQUIRE(static_cast<int64_t>(sc.x.size()) == count_of(sc.xd));
    REQUIRE(static_cast<int64_t>(sc.g.size()) == count_of(sc.gd));
    REQUIRE(static_cast<int64_t>(sc.y.size()) == count_of(sc.yd));
    for (DType xt : kFloatTypes) {
      for (DType gt : kFloatTypes) {
        INFO(sc.name << " X " << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
        Result r = run_gs(attrs_of(sc.mode, sc.padding, sc.align), xt, sc.xd, sc.x, gt, sc.gd, sc.g);
        REQUIRE(r.status.ok());
        CHECK(r.dims == sc.yd);
        const int64_t bad = first_mismatch(r.y, sc.y, 1e-7, 1e-3);
        INFO("first mismatch at " << bad << ": got " << (bad >= 0 ? r.y[bad] : 0.0) << " want "
                                  << (bad >= 0 ? sc.y[bad] : 0.0));
        CHECK(bad == -1);
      }
    }
  }
}

// ---- kernel against the reference -------------------------------------------------------

namespace {

// Grid values for one axis: mostly in [-1.3, 1.3], some far out, some exactly on half
// pixels (nearest ties) and whole pixels (t = 0).
double random_grid_value(Rng& rng, int64_t L, bool align) {
  const int64_t kind = rng.range(0, 19);
  if (kind == 0) return rng.range(0, 1) ? 5.0 : -5.0;
  if (kind == 1) return rng.range(0, 1) ? 50.0 : -50.0;
  if (kind == 2) return rng.uniform(-60, 60);
  if (kind <= 4) return grid_for(static_cast<double>(rng.range(-2, L + 1)) + 0.5, L, align);
  if (kind == 5) return grid_for(static_cast<double>(rng.range(-2, L + 1)), L, align);
  return rng.uniform(-1.3, 1.3);
}

struct Case {
  Dims xd, gd;
  Vals x, g;
};

Case random_case(Rng& rng, int r, int64_t max_in, int64_t max_out, bool align) {
  Case c;
  const int64_t N = rng.range(1, 3), C = rng.range(1, 3);
  c.xd = {N, C};
  c.gd = {N};
  for (int a = 0; a < r; ++a) c.xd.push_back(rng.range(1, max_in));
  for (int a = 0; a < r; ++a) c.gd.push_back(rng.range(1, max_out));
  c.gd.push_back(r);
  c.x.resize(static_cast<size_t>(count_of(c.xd)));
  for (double& v : c.x) v = rng.uniform(-2, 2);
  c.g.resize(static_cast<size_t>(count_of(c.gd)));
  for (size_t i = 0; i < c.g.size(); ++i) {
    const int k = static_cast<int>(i % r);  // grid entry k belongs to X axis r - 1 - k
    c.g[i] = random_grid_value(rng, c.xd[2 + (r - 1 - k)], align);
  }
  return c;
}

// Checks the kernel against the reference for one case, all four type combinations.
void check_against_reference(const GridSampleAttrs& a, const Case& c, const osw::gs::Tuning& tuning = {}) {
  for (DType xt : kFloatTypes) {
    for (DType gt : kFloatTypes) {
      const Vals x = as_type(xt, c.x), g = as_type(gt, c.g);
      const Vals want = ref::gridsample(c.xd, x, c.gd, g, a.mode, a.padding, a.align_corners);
      Result r = run_gs(a, xt, c.xd, x, gt, c.gd, g, tuning);
      INFO(mode_name(a.mode) << " " << pad_name(a.padding) << " align " << a.align_corners << " X "
                             << osw::dtype_name(xt) << dims_str(c.xd) << " grid "
                             << osw::dtype_name(gt) << dims_str(c.gd));
      REQUIRE(r.status.ok());
      const double tol = xt == DType::Float32 ? 1e-5 : 1e-12;
      const int64_t bad = first_mismatch(r.y, want, tol, tol);
      INFO("first mismatch at " << bad << ": got " << (bad >= 0 ? r.y[bad] : 0.0) << " want "
                                << (bad >= 0 ? want[bad] : 0.0));
      CHECK(bad == -1);
    }
  }
}

}  // namespace

TEST_CASE("gridsample: kernel matches the reference, every rank, mode and padding", "[gridsample][kernels]") {
  Rng rng(5);
  for (int r = 1; r <= 4; ++r) {
    const int64_t max_in = r == 1 ? 9 : r == 2 ? 6 : r == 3 ? 4 : 3;
    const int64_t max_out = r == 1 ? 12 : r == 2 ? 6 : r == 3 ? 4 : 3;
    const int repeats = r <= 2 ? 4 : 2;
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        for (int align = 0; align < 2; ++align) {
          for (int rep = 0; rep < repeats; ++rep) {
            check_against_reference(attrs_of(m, p, align != 0), random_case(rng, r, max_in, max_out, align != 0));
          }
        }
      }
    }
  }
}

TEST_CASE("gridsample: many locations cross block boundaries", "[gridsample][plan]") {
  Rng rng(6);
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      // The default blocks are whole rows. Cubic (kFastBlock, 4096 locations): 80 x 61 is
      // one block of 67 rows and one of 13; a row of 4099 is cut into 4096 + 3. Linear
      // (kFastBlockLinear, 65536): 300 x 250 is one block of 262 rows and one of 38; a row
      // of 65539 is cut into 65536 + 3.
      for (const std::vector<int64_t>& gd :
           {std::vector<int64_t>{2, 80, 61, 2}, std::vector<int64_t>{1, 2, 4099, 2},
            std::vector<int64_t>{1, 300, 250, 2}, std::vector<int64_t>{1, 1, 65539, 2}}) {
        Case c;
        c.xd = {gd[0], 3, 7, 9};
        c.gd = gd;
        c.x.resize(static_cast<size_t>(count_of(c.xd)));
        for (double& v : c.x) v = rng.uniform(-2, 2);
        c.g.resize(static_cast<size_t>(count_of(c.gd)));
        for (size_t i = 0; i < c.g.size(); ++i)
          c.g[i] = random_grid_value(rng, i % 2 ? 7 : 9, false);
        INFO(mode_name(m) << " " << pad_name(p) << " grid " << gd[1] << " x " << gd[2]);
        check_against_reference(attrs_of(m, p, false), c);
      }
    }
  }
}

TEST_CASE("gridsample: zeros padding at the edges of the all-outside ranges", "[gridsample][plan]") {
  // The 2-D fast path gives a location no taps, without planning it, when one axis's
  // coordinate x has every tap outside X (linear: x < -1 or x >= L; cubic: x < -2 or
  // x >= L + 1). Coordinates at and just around those edges, on each axis, with the other
  // axis inside or outside too, must give what the generic planner gives (a tap of tiny
  // weight at the edge included: the pixels are in [1, 2], so a lost tap is a relative
  // error of 1, far above the 1e-6 allowed for the sums' order, which differs between the
  // paths where no wasm SIMD kernel fixes it), and match the reference.
  const int64_t H = 5, W = 9;  // align_corners=1: x = (g + 1) / 2 * (L - 1), exact here
  auto coords = [](int64_t L) {
    Vals v{0.5 * static_cast<double>(L - 1) + 0.25};
    const double l = static_cast<double>(L);
    for (double b : {-2.0, -1.0, 0.0, l - 1.0, l, l + 1.0})
      for (double d : {-1.0 / 64, -std::ldexp(1.0, -20), 0.0, std::ldexp(1.0, -20), 1.0 / 64})
        v.push_back(b + d);
    return v;
  };
  const Vals cy = coords(H), cx = coords(W);
  const int64_t Ho = static_cast<int64_t>(cy.size()), Wo = static_cast<int64_t>(cx.size());
  const Dims xd{1, 2, H, W}, gd{1, Ho, Wo, 2};
  Rng rng(61);
  Vals x(static_cast<size_t>(count_of(xd)));
  for (double& v : x) v = rng.uniform(1, 2);  // no zero pixel: a lost tap shows
  Vals g;
  for (double yv : cy) {
    for (double xv : cx) {
      g.push_back(grid_for(xv, W, true));
      g.push_back(grid_for(yv, H, true));
    }
  }
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    const GridSampleAttrs a = attrs_of(m, PaddingMode::Zeros, true);
    for (DType gt : kFloatTypes) {
      const Vals xx = as_type(DType::Float32, x), gg = as_type(gt, g);
      INFO(mode_name(m) << " grid " << osw::dtype_name(gt));
      const auto [fast, gen] = run_fast_and_generic(a, xd, xx, gt, gd, gg);
      const int64_t bad = first_mismatch(fast.y, gen.y, 0.0, 1e-6);
      INFO("first mismatch at " << bad << ": fast path " << (bad >= 0 ? fast.y[bad] : 0.0)
                                << ", generic " << (bad >= 0 ? gen.y[bad] : 0.0));
      CHECK(bad == -1);
      const Vals want = ref::gridsample(xd, xx, gd, gg, a.mode, a.padding, true);
      CHECK(first_mismatch(fast.y, want, 1e-5, 1e-5) == -1);
    }
  }
}

TEST_CASE("gridsample: block size and offset width do not change results", "[gridsample][plan]") {
  Rng rng(7);
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      const Case c = random_case(rng, 2, 6, 9, true);
      const GridSampleAttrs a = attrs_of(m, p, true);
      for (DType xt : kFloatTypes) {
        const Result base = run_gs(a, xt, c.xd, c.x, DType::Float32, c.gd, c.g);
        REQUIRE(base.status.ok());
        for (int64_t block : {1, 3, 7, 1000}) {
          for (bool wide : {false, true}) {
            osw::gs::Tuning t;
            t.block = block;
            t.wide_offsets = wide;
            const Result r = run_gs(a, xt, c.xd, c.x, DType::Float32, c.gd, c.g, t);
            INFO(mode_name(m) << " " << pad_name(p) << " block " << block << " wide " << wide);
            REQUIRE(r.status.ok());
            CHECK(first_mismatch(r.y, base.y, 0.0, 0.0) == -1);
          }
        }
      }
      osw::gs::Tuning t;
      t.block = 5;
      t.wide_offsets = true;
      check_against_reference(a, c, t);
    }
  }
}

TEST_CASE("gridsample: each batch item uses its own grid", "[gridsample][exec]") {
  // X (2, 2, 1, 3): batch 0 = [[1,2,3],[4,5,6]], batch 1 = [[7,8,9],[10,11,12]].
  const Dims xd{2, 2, 1, 3}, gd{2, 1, 1, 2};
  const Vals x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Vals g{-1, 0, 1, 0};  // batch 0 samples column 0, batch 1 column 2 (align_corners=1)
  for (GridMode m : kModes) {
    const Result r = run_gs(attrs_of(m, PaddingMode::Zeros, true), DType::Float32, xd, x,
                            DType::Float32, gd, g);
    REQUIRE(r.status.ok());
    CHECK(r.dims == Dims{2, 2, 1, 1});
    CHECK(first_mismatch(r.y, Vals{1, 4, 9, 12}, 1e-6, 0) == -1);
  }
}

// ---- special grid values ----------------------------------------------------------------

TEST_CASE("gridsample: NaN and Inf in the grid", "[gridsample][exec]") {
  const Dims xd{1, 1, 3};
  const Vals x{1, 2, 3};
  const Dims gd{1, 3, 1};
  const Vals g{INFINITY, -INFINITY, NAN};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType xt : kFloatTypes) {
          for (DType gt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " X "
                              << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
            const Result r = run_gs(attrs_of(m, p, align != 0), xt, xd, x, gt, gd, g);
            REQUIRE(r.status.ok());
            REQUIRE(r.y.size() == 3);
            // +Inf: zeros -> 0, border and reflection -> the last pixel; -Inf: the first.
            CHECK(r.y[0] == (p == PaddingMode::Zeros ? 0.0 : 3.0));
            CHECK(r.y[1] == (p == PaddingMode::Zeros ? 0.0 : 1.0));
            CHECK(std::isnan(r.y[2]));
          }
        }
      }
    }
  }
  // 2-D and 3-D with NaN/Inf in one coordinate only, against the reference.
  Rng rng(8);
  const double specials[] = {NAN, INFINITY, -INFINITY};
  for (int r = 2; r <= 3; ++r) {
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        for (int align = 0; align < 2; ++align) {
          Case c = random_case(rng, r, 4, 4, align != 0);
          for (size_t i = 0; i < c.g.size(); ++i)
            if (rng.range(0, 3) == 0) c.g[i] = specials[rng.range(0, 2)];
          check_against_reference(attrs_of(m, p, align != 0), c);
        }
      }
    }
  }
}

TEST_CASE("gridsample: huge finite grid values stay in bounds", "[gridsample][exec]") {
  const Dims xd{1, 2, 3, 4};
  Vals x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i + 1);
  const double huge[] = {1e30, -1e30, 3.0e38, -3.0e38, 2147483648.0, -2147483649.0, 9.3e18, 1e300};
  Vals g;
  for (double a : huge)
    for (double b : huge) {
      g.push_back(a);
      g.push_back(b);
    }
  const int64_t locs = static_cast<int64_t>(g.size() / 2);
  const Dims gd{1, 1, locs, 2};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType gt : kFloatTypes) {
          INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " grid "
                            << osw::dtype_name(gt));
          const Vals gg = gt == DType::Float32 ? as_type(gt, g) : g;  // 1e300 -> inf in float32
          const Result r = run_gs(attrs_of(m, p, align != 0), DType::Float64, xd, x, gt, gd, gg);
          REQUIRE(r.status.ok());
          for (int64_t c = 0; c < 2; ++c) {
            for (int64_t j = 0; j < locs; ++j) {
              const double v = r.y[c * locs + j];
              const double gx = gg[j * 2], gy = gg[j * 2 + 1];
              if (p == PaddingMode::Zeros) {
                CHECK(v == 0.0);
              } else if (p == PaddingMode::Border) {
                // Far beyond the edges: the corner pixel.
                const int64_t col = gx > 0 ? 3 : 0, row = gy > 0 ? 2 : 0;
                CHECK(v == Approx(x[c * 12 + row * 4 + col]).margin(1e-9));
              } else {
                // Reflected somewhere inside: within the channel's range (cubic can overshoot a
                // little between pixels).
                CHECK(std::isfinite(v));
                CHECK(v >= c * 12 + 1 - 3.0);
                CHECK(v <= c * 12 + 12 + 3.0);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("gridsample: nearest rounds exact halves to even", "[gridsample][exec]") {
  // L = 4, align_corners=0: x = 2g + 1.5. g = -0.5 -> 0.5 -> 0; g = 0 -> 1.5 -> 2;
  // g = 0.5 -> 2.5 -> 2; g = -0.75 -> 0 exactly; g = 1 -> 3.5 -> 4 (outside).
  const Dims xd{1, 1, 4}, gd{1, 5, 1};
  const Vals x{10, 11, 12, 13}, g{-0.5, 0, 0.5, -0.75, 1};
  Result r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Zeros, false), DType::Float32, xd, x,
                    DType::Float32, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 0}, 0, 0) == -1);
  r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Border, false), DType::Float64, xd, x,
             DType::Float64, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 13}, 0, 0) == -1);
  // Reflection pads the rounded index: 4 reflected about 3.5 is 3.
  r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Reflection, false), DType::Float64, xd, x,
             DType::Float64, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 13}, 0, 0) == -1);
}

TEST_CASE("gridsample: 2-D nearest on a float32 grid decides every location as plan_location", "[gridsample][kernels]") {
  // A float32 grid takes nearest_grid_codes (gridsample.cpp: with zeros or border padding
  // two locations at a time in f64x2 lanes where SIMD is built; reflection through
  // axis_taps); a float64 grid of the same values takes plan_location(). Every half and
  // whole pixel from -3 to L + 3 on both axes (the ties), far and huge values, infinities
  // and NaN, odd counts of locations, axes of length 1: the same bytes.
  Rng rng(31);
  for (const Dims& sp : {Dims{1, 1}, Dims{1, 6}, Dims{5, 1}, Dims{4, 7}, Dims{9, 3}}) {
    for (PaddingMode p : {PaddingMode::Zeros, PaddingMode::Border, PaddingMode::Reflection}) {
      for (int align = 0; align < 2; ++align) {
        const Dims xd{1, 2, sp[0], sp[1]};
        Vals x(static_cast<size_t>(count_of(xd)));
        for (double& v : x) v = rng.uniform(-2, 2);
        Vals g;
        for (int rep = 0; rep < 3; ++rep) {
          for (int64_t kh = -6; kh <= 2 * sp[0] + 6; ++kh) {
            for (int64_t kw = -6; kw <= 2 * sp[1] + 6; ++kw) {
              g.push_back(grid_for(0.5 * double(kw), sp[1], align != 0));
              g.push_back(grid_for(0.5 * double(kh), sp[0], align != 0));
            }
          }
          const double far[] = {1.0000001, -1.0000001, 3e9, -3e9, 1e30, -1e30, 5.5, -7.25, INFINITY, -INFINITY};
          for (int i = 0; i < 24; ++i) {
            g.push_back(rng.range(0, 2) == 0 ? far[rng.range(0, 9)] : rng.uniform(-1.5, 1.5));
            g.push_back(rng.range(0, 2) == 0 ? far[rng.range(0, 9)] : rng.uniform(-1.5, 1.5));
          }
        }
        if ((g.size() / 2) % 2 == 0) g.push_back(0.25), g.push_back(-0.75);  // an odd count
        for (double& v : g) v = static_cast<float>(v);  // the same values in both grids
        const Dims gd{1, 1, int64_t(g.size() / 2), 2};
        INFO(pad_name(p) << " align " << align << " X " << dims_str(xd));
        const GridSampleAttrs a = attrs_of(GridMode::Nearest, p, align != 0);
        const Result r32 = run_gs(a, DType::Float32, xd, x, DType::Float32, gd, g);
        const Result r64 = run_gs(a, DType::Float32, xd, x, DType::Float64, gd, g);
        REQUIRE(r32.status.ok());
        REQUIRE(r64.status.ok());
        CHECK(first_mismatch(r32.y, r64.y, 0, 0) == -1);
        // and a NaN anywhere: the whole block goes to plan_location (NaN outputs there)
        g[g.size() / 2 + 1] = NAN;
        const Result n32 = run_gs(a, DType::Float32, xd, x, DType::Float32, gd, g);
        const Result n64 = run_gs(a, DType::Float32, xd, x, DType::Float64, gd, g);
        REQUIRE(n32.status.ok());
        REQUIRE(n64.status.ok());
        int nans = 0;
        for (size_t i = 0; i < n32.y.size(); ++i) {
          nans += std::isnan(n32.y[i]);
          CHECK((std::isnan(n32.y[i]) ? std::isnan(n64.y[i]) : n32.y[i] == n64.y[i]));
        }
        CHECK(nans == 2);  // one location, both channels
      }
    }
  }
}

// ---- properties -------------------------------------------------------------------------

namespace {

// Grid (N, D1..Dr, r) that samples every pixel centre of X's spatial shape, shifted by
// `shift` pixels along each axis (shift[a] for X axis a), with align_corners=1.
Vals shifted_identity_grid(const Dims& spatial, int64_t N, const std::vector<int64_t>& shift) {
  const int r = static_cast<int>(spatial.size());
  const int64_t locs = count_of(spatial);
  Vals g;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t j = 0; j < locs; ++j) {
      int64_t rem = j;
      std::vector<int64_t> idx(r);
      for (int a = r - 1; a >= 0; --a) {
        idx[a] = rem % spatial[a];
        rem /= spatial[a];
      }
      for (int k = 0; k < r; ++k) {
        const int a = r - 1 - k;
        const int64_t L = spatial[a];
        g.push_back(L > 1 ? -1.0 + 2.0 * static_cast<double>(idx[a] + shift[a]) / static_cast<double>(L - 1) : 0.0);
      }
    }
  }
  return g;
}

}  // namespace

TEST_CASE("gridsample: identity grid with align_corners=1 reproduces X", "[gridsample][exec]") {
  Rng rng(9);
  const std::vector<Dims> spatials = {{7}, {5, 6}, {3, 1, 4}, {2, 3, 2, 3}};
  for (const Dims& sp : spatials) {
    const int r = static_cast<int>(sp.size());
    Dims xd{2, 3}, gd{2};
    for (int64_t v : sp) {
      xd.push_back(v);
      gd.push_back(v);
    }
    gd.push_back(r);
    Vals x(static_cast<size_t>(count_of(xd)));
    for (double& v : x) v = rng.uniform(-5, 5);
    const Vals g = shifted_identity_grid(sp, 2, std::vector<int64_t>(r, 0));
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        for (DType xt : kFloatTypes) {
          for (DType gt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " X " << dims_str(xd) << " "
                              << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
            const Vals xx = as_type(xt, x);
            const Result res = run_gs(attrs_of(m, p, true), xt, xd, xx, gt, gd, g);
            REQUIRE(res.status.ok());
            CHECK(first_mismatch(res.y, xx, 1e-6, 0) == -1);
          }
        }
      }
    }
  }
}

TEST_CASE("gridsample: a whole-pixel grid shift shifts X", "[gridsample][exec]") {
  Rng rng(10);
  const Dims sp{6, 7};
  const Dims xd{1, 2, 6, 7}, gd{1, 6, 7, 2};
  Vals x(static_cast<size_t>(count_of(xd)));
  for (double& v : x) v = rng.uniform(-5, 5);
  const std::vector<std::vector<int64_t>> shifts = {{0, 1}, {0, -2}, {1, 0}, {-1, 2}, {2, -3}};
  for (const auto& s : shifts) {
    const Vals g = shifted_identity_grid(sp, 1, s);
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        INFO(mode_name(m) << " " << pad_name(p) << " shift " << s[0] << "," << s[1]);
        const Result res = run_gs(attrs_of(m, p, true), DType::Float64, xd, x, DType::Float64, gd, g);
        REQUIRE(res.status.ok());
        int checked = 0, bad = 0;
        for (int64_t c = 0; c < 2; ++c)
          for (int64_t i = 0; i < 6; ++i)
            for (int64_t j = 0; j < 7; ++j) {
              const int64_t si = i + s[0], sj = j + s[1];
              if (si < 0 || si >= 6 || sj < 0 || sj >= 7) continue;
              ++checked;
              if (!close(res.y[(c * 6 + i) * 7 + j], x[(c * 6 + si) * 7 + sj], 1e-9, 0)) ++bad;
            }
        CHECK(checked > 0);
        CHECK(bad == 0);
      }
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

TEST_CASE("gridsample: empty tensors", "[gridsample][exec]") {
  for (PaddingMode p : kPads) {
    const GridSampleAttrs a = attrs_of(GridMode::Linear, p, false);
    INFO(pad_name(p));
    // No batch items, no channels, no output locations: nothing to compute.
    Result r = run_gs(a, DType::Float32, {0, 2, 3, 3}, {}, DType::Float32, {0, 4, 4, 2}, {});
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{0, 2, 4, 4});
    r = run_gs(a, DType::Float32, {1, 0, 0, 3}, {}, DType::Float32, {1, 2, 2, 2}, Vals(8, 0.0));
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{1, 0, 2, 2});
    r = run_gs(a, DType::Float64, {1, 2, 3, 3}, Vals(18, 1.0), DType::Float32, {1, 0, 4, 2}, {});
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{1, 2, 0, 4});
    // X without pixels but with outputs to fill.
    r = run_gs(a, DType::Float32, {1, 2, 0, 3}, {}, DType::Float64, {1, 1, 3, 2},
               {0, 0, NAN, 0.5, 7, -7});
    if (p == PaddingMode::Zeros) {
      REQUIRE(r.status.ok());
      CHECK(r.dims == Dims{1, 2, 1, 3});
      REQUIRE(r.y.size() == 6);
      for (int c = 0; c < 2; ++c) {
        CHECK(r.y[c * 3 + 0] == 0.0);
        CHECK(std::isnan(r.y[c * 3 + 1]));
        CHECK(r.y[c * 3 + 2] == 0.0);
      }
    } else {
      CHECK(r.status.kind == osw::ErrorKind::RangeError);
      CHECK(r.status.message.rfind("X: spatial dimension 2 has length 0", 0) == 0);
    }
  }
}

TEST_CASE("gridsample: a tap of weight 0 is not read; huge dims beside a 0 do not overflow", "[gridsample][exec]") {
  // X = [1, Inf] along W; a grid point exactly on pixel 0 weighs pixel 1 by 0.
  float x[2] = {1.0f, INFINITY};
  float g[2] = {-1.0f, 0.0f};
  float y[1] = {0};
  osw::TensorView X, G, Y;
  X.type = Y.type = osw::DType::Float32;
  X.rank = 4;
  X.dims[0] = X.dims[1] = X.dims[2] = 1;
  X.dims[3] = 2;
  X.data = x;
  G.type = osw::DType::Float32;
  G.rank = 4;
  G.dims[0] = G.dims[1] = G.dims[2] = 1;
  G.dims[3] = 2;
  G.data = g;
  REQUIRE(osw::gridsample_output_shape(X, G, &Y).ok());
  Y.data = y;
  osw::GridSampleAttrs a;
  a.align_corners = true;
  REQUIRE(osw::gridsample(a, X, G, &Y).ok());
  CHECK(y[0] == 1.0f);
  // (1, 1, 0, 2^40, 2^40): no element, but the strides would overflow int64.
  osw::TensorView H = X;
  H.rank = 5;
  H.dims[2] = 0;
  H.dims[3] = int64_t(1) << 40;
  H.dims[4] = int64_t(1) << 40;
  osw::TensorView G3 = G;
  G3.rank = 5;
  G3.dims[3] = 1;
  G3.dims[4] = 3;
  osw::TensorView Y3;
  const osw::Status st = osw::gridsample_output_shape(H, G3, &Y3);
  CHECK(st.kind == osw::ErrorKind::RangeError);
}

// ---- the 2-D fast path of float32 X (linear and cubic) ---------------------------------

namespace {

// The fast path's rule for one axis, restated from gridsample.cpp: with the coordinate as
// the mode pads it (linear: border clamps, reflection reflects; cubic: not at all), every
// tap of the mode lies inside the axis and has a non-zero weight. Sets the first tap and
// the weights (in double, as gs::axis_taps computes them).
bool fast_axis(GridMode m, PaddingMode p, bool align, int64_t L, double g, int64_t* first,
               double w[4]) {
  double x = osw::gs::unnormalize(g, L, align);
  const double last = static_cast<double>(L - 1);
  if (m == GridMode::Linear) {
    if (p == PaddingMode::Border && !std::isnan(x)) x = std::min(std::max(x, 0.0), last);
    if (p == PaddingMode::Reflection) {
      double lo, hi;
      osw::gs::reflection_bounds(L, align, &lo, &hi);
      x = osw::gs::reflect(x, lo, hi);
    }
    if (!(x >= 0.0 && x <= last)) return false;
    const double x0 = std::floor(x);
    if (x == x0 || x0 + 1.0 > last) return false;
    *first = static_cast<int64_t>(x0);
    w[0] = 1.0 - (x - x0);
    w[1] = x - x0;
    return true;
  }
  if (!std::isfinite(x)) return false;
  const double x0 = std::floor(x);
  if (x0 - 1.0 < 0.0 || x0 + 2.0 > last) return false;
  osw::gs::cubic_weights(x - x0, w);
  for (int k = 0; k < 4; ++k)
    if (w[k] == 0.0) return false;
  *first = static_cast<int64_t>(x0) - 1;
  return true;
}

// The fast path's documented sum, one location, in float:
//   linear: a[k] = p[0][k] + p[1][k];                         y = (a[0] + a[1]) + 0
//   cubic:  a[k] = ((p[0][k] + p[1][k]) + p[2][k]) + p[3][k];  y = ((a[0] + a[2]) + (a[1] + a[3])) + 0
// with p[i][k] = x[row i][column k] * float(wy[i] * wx[k]).
float canonical_sum(int n, const float* x, int64_t W, const double* wy, const double* wx) {
  float a[4];
  for (int k = 0; k < n; ++k) {
    float s = 0;
    for (int i = 0; i < n; ++i) {
      const float p = x[i * W + k] * static_cast<float>(wy[i] * wx[k]);
      s = i == 0 ? p : s + p;
    }
    a[k] = s;
  }
  if (n == 2) return (a[0] + a[1]) + 0.0f;
  return ((a[0] + a[2]) + (a[1] + a[3])) + 0.0f;
}

// Equal as float32 values, NaN equal to NaN, and +0 different from -0.
bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Grid values for the fast-path test: the general mix plus exact pixels, half pixels,
// points just inside and outside the edges, points a hair off a pixel, and NaN / Inf.
double fast_grid_value(Rng& rng, int64_t L, bool align) {
  const int64_t kind = rng.range(0, 15);
  if (kind == 0) {
    const double specials[] = {NAN, INFINITY, -INFINITY};
    return specials[rng.range(0, 2)];
  }
  if (kind == 1) return grid_for(static_cast<double>(rng.range(-1, L)), L, align);
  if (kind == 2) return grid_for(static_cast<double>(rng.range(-1, L)) + 0.5, L, align);
  if (kind == 3) {
    const double edges[] = {0.0, 1.0, static_cast<double>(L - 2), static_cast<double>(L - 1),
                            -0.5, static_cast<double>(L) - 0.5};
    return grid_for(edges[rng.range(0, 5)] + rng.uniform(-1e-3, 1e-3), L, align);
  }
  if (kind == 4) {  // a pixel +- 2^-20 .. 2^-50: t close to 0 or to 1
    const double d = std::ldexp(1.0, -static_cast<int>(rng.range(20, 50)));
    return grid_for(static_cast<double>(rng.range(-1, L)) + (rng.range(0, 1) ? d : -d), L, align);
  }
  if (kind <= 5) return random_grid_value(rng, L, align);
  return grid_for(rng.uniform(-1.5, static_cast<double>(L) + 0.5), L, align);
}

}  // namespace

TEST_CASE("gridsample: the 2-D float32 fast path sums in its documented order", "[gridsample][kernels]") {
  Rng rng(11);
  const int64_t sizes[] = {1, 2, 3, 5, 4, 7, 9};
  int64_t fast_seen = 0, generic_seen = 0;
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (int rep = 0; rep < 6; ++rep) {
          const GridSampleAttrs a = attrs_of(m, p, align != 0);
          const int64_t N = rng.range(1, 2), C = rng.range(1, 3);
          const int64_t H = sizes[rng.range(0, 6)], W = sizes[rng.range(0, 6)];
          const int64_t Ho = rng.range(1, 9), Wo = rng.range(1, 11);
          const Dims xd{N, C, H, W}, gd{N, Ho, Wo, 2};
          Vals x(static_cast<size_t>(count_of(xd)));
          // Finite values, then specials: NaN, +-Inf, -0 and +0 in some pixels, or (rep 5)
          // -0 everywhere (a fast sum of -0 products is +0, as the generic sum is).
          for (double& v : x) v = rng.uniform(-2, 2);
          Vals xs = x;
          const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0};
          for (double& v : xs) {
            if (rep == 5) v = -0.0;
            else if (rng.range(0, 5) == 0) v = specials[rng.range(0, 4)];
          }
          Vals g(static_cast<size_t>(count_of(gd)));
          for (size_t i = 0; i < g.size(); ++i) g[i] = fast_grid_value(rng, i % 2 ? H : W, align != 0);
          for (DType gt : kFloatTypes) {
            const Vals gg = as_type(gt, g);
            for (const Vals* xv : {&x, &xs}) {
              const Vals xx = as_type(DType::Float32, *xv);
              INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " X "
                                << dims_str(xd) << " grid " << osw::dtype_name(gt) << dims_str(gd)
                                << (xv == &xs ? " with special pixels" : ""));
              const auto [fast, gen] = run_fast_and_generic(a, xd, xx, gt, gd, gg);
              // Expected: the documented sum where the fast path applies, the generic
              // path's result everywhere else.
              for (int64_t n = 0; n < N; ++n) {
                for (int64_t j = 0; j < Ho * Wo; ++j) {
                  const double gx = gg[static_cast<size_t>((n * Ho * Wo + j) * 2)];
                  const double gy = gg[static_cast<size_t>((n * Ho * Wo + j) * 2 + 1)];
                  int64_t iy = 0, ix = 0;
                  double wy[4], wx[4];
                  const bool is_fast = fast_axis(m, p, align != 0, H, gy, &iy, wy) &&
                                       fast_axis(m, p, align != 0, W, gx, &ix, wx);
                  const int taps = m == GridMode::Linear ? 2 : 4;
                  if (is_fast) {
                    // The generic planner gives such a location exactly these taps.
                    osw::gs::AxisTaps ty, tx;
                    osw::gs::axis_taps(m, p, align != 0, H, osw::gs::unnormalize(gy, H, align != 0), &ty);
                    osw::gs::axis_taps(m, p, align != 0, W, osw::gs::unnormalize(gx, W, align != 0), &tx);
                    REQUIRE(ty.count == taps);
                    REQUIRE(tx.count == taps);
                    for (int k = 0; k < taps; ++k) {
                      CHECK(ty.index[k] == iy + k);
                      CHECK(tx.index[k] == ix + k);
                      CHECK(ty.weight[k] == wy[k]);
                      CHECK(tx.weight[k] == wx[k]);
                    }
                  }
                  for (int64_t c = 0; c < C; ++c) {
                    const size_t o = static_cast<size_t>((n * C + c) * Ho * Wo + j);
                    double want = gen.y[o];
                    if (is_fast) {
                      std::vector<float> plane(static_cast<size_t>(H * W));
                      for (int64_t i = 0; i < H * W; ++i)
                        plane[static_cast<size_t>(i)] =
                            static_cast<float>(xx[static_cast<size_t>((n * C + c) * H * W + i)]);
                      want = canonical_sum(taps, plane.data() + iy * W + ix, W, wy, wx);
                      ++fast_seen;
                    } else {
                      ++generic_seen;
                    }
                    INFO("location " << j << " of batch " << n << ", channel " << c << (is_fast ? " (fast)" : " (generic)")
                                     << ": got " << fast.y[o] << " want " << want);
                    REQUIRE(same_value(fast.y[o], want));
                    // The generic kernel (gather_dot, SIMD or its scalar twin) sums 4 and 16
                    // taps in this order too.
                    REQUIRE(same_value(fast.y[o], gen.y[o]));
                  }
                }
              }
              // Blocks (tiles) of any size, and wide offsets, give the same bits.
              for (int64_t block : {1, 2, 3, 5, 6, 7, 9, 13, 1000}) {
                for (bool wide : {false, true}) {
                  osw::gs::Tuning t;
                  t.block = block;
                  t.wide_offsets = wide;
                  const Result r = run_gs(a, DType::Float32, xd, xx, gt, gd, gg, t);
                  INFO("block " << block << " wide " << wide);
                  REQUIRE(r.status.ok());
                  int64_t bad = -1;
                  for (size_t i = 0; i < r.y.size() && bad < 0; ++i)
                    if (!same_value(r.y[i], fast.y[i])) bad = static_cast<int64_t>(i);
                  CHECK(bad == -1);
                }
              }
            }
          }
          // And against the slow reference, on finite pixels.
          check_against_reference(a, Case{xd, gd, x, g});
        }
      }
    }
  }
  CHECK(fast_seen > 1000);
  CHECK(generic_seen > 1000);
}

TEST_CASE("gridsample: the fast path reads no tap of weight 0 and no pixel outside", "[gridsample][kernels]") {
  // X 1x1x7x7 of 1s with Inf in row 4 and column 4. A location exactly on column 3 gives
  // column 4 weight 0 (linear: taps 3, 4; cubic: taps 2..5 weigh 0, 1, 0, 0), so its
  // output must stay finite; the same for row 3. Such locations are not the fast path's.
  const int64_t S = 7;
  Vals x(static_cast<size_t>(S * S), 1.0);
  for (int64_t i = 0; i < S; ++i) {
    x[static_cast<size_t>(4 * S + i)] = INFINITY;
    x[static_cast<size_t>(i * S + 4)] = INFINITY;
  }
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        INFO(mode_name(m) << " " << pad_name(p) << " align " << align);
        // (x, y) pixel coordinates; rows and columns up to 3 only (cubic reads 0..3 for
        // 1.25 and 1.5).
        const double pts[][2] = {{3.0, 1.25}, {1.25, 3.0}, {3.0, 3.0}, {3.0, 1.5}};
        Vals g;
        for (const auto& pt : pts) {
          g.push_back(grid_for(pt[0], S, align != 0));
          g.push_back(grid_for(pt[1], S, align != 0));
        }
        const Dims gd{1, 1, 4, 2};
        const Result r = run_gs(attrs_of(m, p, align != 0), DType::Float32, {1, 1, S, S}, x,
                                DType::Float64, gd, g);
        REQUIRE(r.status.ok());
        for (double v : r.y) CHECK(std::isfinite(v));
        CHECK(r.y[2] == 1.0);  // a whole pixel: a copy
      }
    }
  }
  // Zeros padding: a location whose footprint is partly outside reads no pixel outside
  // (X 1x1x3x3 of 1s; the nearby outside would be 0 anyway, so check the exact sum).
  const Vals ones(9, 1.0);
  Vals g{grid_for(2.25, 3, false), grid_for(1.5, 3, false)};
  const Result r = run_gs(attrs_of(GridMode::Linear, PaddingMode::Zeros, false), DType::Float32,
                          {1, 1, 3, 3}, ones, DType::Float64, {1, 1, 1, 2}, g);
  REQUIRE(r.status.ok());
  CHECK(r.y[0] == Approx(0.75).margin(1e-6));  // column 3 (outside) weighs 0.25
}

// ---- the fast path's twins: classifier and kernel ----------------------------------------

namespace {

using osw::gs_exec::LocationKind;

// The classifier's kind for one location, restated from its contract: with zeros padding,
// a coordinate (unnormalize's formula without its Inf exception, Inf * 0 = NaN) below -1 or
// at or above L (cubic: -2, L + 1) on one axis, and no NaN, is Zeros (and then, as the
// contract promises, the generic planner finds no taps on that axis); fast_axis() on both
// axes is Fast; anything else Generic.
LocationKind expected_kind(GridMode m, PaddingMode p, bool align, int64_t H, int64_t W, double gx,
                           double gy, int64_t* off, std::vector<float>* w) {
  auto coord = [&](double g, int64_t L) {
    const double l = static_cast<double>(L);
    return align ? (g + 1.0) * 0.5 * (l - 1.0) : ((g + 1.0) * l - 1.0) * 0.5;
  };
  const double xw = coord(gx, W), xh = coord(gy, H);
  const double lo = m == GridMode::Cubic ? -2.0 : -1.0, extra = m == GridMode::Cubic ? 1.0 : 0.0;
  auto outside = [&](double x, int64_t L) { return x < lo || x >= static_cast<double>(L) + extra; };
  if (p == PaddingMode::Zeros && !std::isnan(xw) && !std::isnan(xh) &&
      (outside(xw, W) || outside(xh, H))) {
    osw::gs::AxisTaps tw, th;
    osw::gs::axis_taps(m, p, align, W, osw::gs::unnormalize(gx, W, align), &tw);
    osw::gs::axis_taps(m, p, align, H, osw::gs::unnormalize(gy, H, align), &th);
    CHECK((tw.count == 0 || th.count == 0));
    return LocationKind::Zeros;
  }
  int64_t iy = 0, ix = 0;
  double wy[4], wx[4];
  if (!(fast_axis(m, p, align, H, gy, &iy, wy) && fast_axis(m, p, align, W, gx, &ix, wx))) {
    // Edge (linear, border): the generic rules give one axis one tap of weight 1 and the
    // other two taps; the location's taps are then those two, along the second axis.
    if (m != GridMode::Linear || p != PaddingMode::Border) return LocationKind::Generic;
    // (The classifier's coordinate is NaN for an infinite g with align_corners=1 and L = 1,
    // where unnormalize() gives +-Inf: that location stays Generic, as any NaN does.)
    if (std::isnan(xw) || std::isnan(xh)) return LocationKind::Generic;
    osw::gs::AxisTaps tw, th;
    osw::gs::axis_taps(m, p, align, W, osw::gs::unnormalize(gx, W, align), &tw);
    osw::gs::axis_taps(m, p, align, H, osw::gs::unnormalize(gy, H, align), &th);
    const bool one_w = tw.count == 1 && tw.weight[0] == 1.0, one_h = th.count == 1 && th.weight[0] == 1.0;
    if (!((one_w && th.count == 2) || (one_h && tw.count == 2))) return LocationKind::Generic;
    const osw::gs::AxisTaps& two = one_w ? th : tw;
    const int64_t step = one_w ? W : 1;
    off[0] = th.index[0] * W + tw.index[0];
    off[1] = off[0] + (two.index[1] - two.index[0]) * step;
    w->assign({static_cast<float>(two.weight[0]), static_cast<float>(two.weight[1])});
    return LocationKind::Edge;
  }
  *off = iy * W + ix;
  const int n = m == GridMode::Cubic ? 4 : 2;
  w->assign(static_cast<size_t>(n * n), 0.0f);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) (*w)[static_cast<size_t>(i * n + k)] = static_cast<float>(wy[i] * wx[k]);
  return LocationKind::Fast;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <typename G>
void check_classifier(Rng& rng, GridMode m, PaddingMode p, bool align, int64_t H, int64_t W,
                      int64_t counts[4]) {
  const GridSampleAttrs a = attrs_of(m, p, align);
  osw::GridSampleGeometry geo;
  geo.r = 2;
  geo.len[0] = H;
  geo.len[1] = W;
  const osw::gs_exec::FastAxes ax(a, geo);
  const int n = m == GridMode::Cubic ? 4 : 2;
  for (int rep = 0; rep < 300; ++rep) {
    const G gv[2] = {static_cast<G>(fast_grid_value(rng, W, align)),
                     static_cast<G>(fast_grid_value(rng, H, align))};
    int64_t want_off[2] = {-1, -1};
    std::vector<float> want_w;
    const LocationKind want = expected_kind(m, p, align, H, W, gv[0], gv[1], want_off, &want_w);
    // 16 weights with the rows ax.w_row apart; the rest of the array is never written.
    float ws[2][32];
    int64_t off[2][2] = {{-1, -1}, {-1, -1}};
    std::memset(ws, 0xA5, sizeof ws);
    LocationKind got[2];
    got[0] = osw::gs_exec::classify_location_scalar(ax, gv, off[0], ws[0]);
#if OSW_HAVE_SIMD
    got[1] = osw::gs_exec::classify_location_simd(ax, gv, off[1], ws[1]);
    const int twins = 2;
#else
    const int twins = 1;  // the SIMD twin exists only in SIMD builds
#endif
    INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " H " << H << " W " << W
                      << " grid (" << static_cast<double>(gv[0]) << ", "
                      << static_cast<double>(gv[1]) << ")");
    for (int t = 0; t < twins; ++t) {
      INFO((t == 0 ? "scalar twin" : "SIMD twin"));
      REQUIRE(got[t] == want);
      if (want == LocationKind::Edge) {
        CHECK(off[t][0] == want_off[0]);
        CHECK(off[t][1] == want_off[1]);
        CHECK(same_bits(ws[t][0], want_w[0]));
        CHECK(same_bits(ws[t][1], want_w[1]));
      }
      if (want != LocationKind::Fast) continue;
      CHECK(off[t][0] == want_off[0]);
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
          CHECK(same_bits(ws[t][i * ax.w_row + k], want_w[static_cast<size_t>(i * n + k)]));
    }
    // Bit for bit, the whole arrays (the bytes the classifier must leave alone included).
    if (twins == 2) {
      CHECK(std::memcmp(off[0], off[1], sizeof off[0]) == 0);
      CHECK(std::memcmp(ws[0], ws[1], sizeof ws[0]) == 0);
    }
    ++counts[static_cast<int>(want)];
  }
}

}  // namespace

TEST_CASE("gridsample: the fast path's classifier twins agree bit for bit with its rules", "[gridsample][kernels]") {
  Rng rng(21);
  int64_t counts[4] = {0, 0, 0, 0};
  const int64_t sizes[] = {1, 2, 3, 4, 5, 8, 13};
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (int64_t H : sizes) {
          const int64_t W = sizes[rng.range(0, 6)];
          check_classifier<float>(rng, m, p, align != 0, H, W, counts);
          check_classifier<double>(rng, m, p, align != 0, H, W, counts);
        }
      }
    }
  }
  CHECK(counts[static_cast<int>(LocationKind::Zeros)] > 1000);
  CHECK(counts[static_cast<int>(LocationKind::Fast)] > 5000);
  CHECK(counts[static_cast<int>(LocationKind::Generic)] > 10000);
  CHECK(counts[static_cast<int>(LocationKind::Edge)] > 1000);
}

TEST_CASE("gridsample: the fast path's kernel twins agree bit for bit", "[gridsample][kernels]") {
  // Blocks planned by the builder from random grids, then one channel plane computed by
  // both kernels (and, where there is no SIMD twin, against the documented sums).
  Rng rng(22);
  int64_t fast_seen = 0;
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    for (PaddingMode p : kPads) {
      for (int rep = 0; rep < 8; ++rep) {
        const bool align = rng.range(0, 1) != 0;
        const int64_t H = rng.range(4, 12), W = rng.range(4, 12);
        const int64_t Ho = rng.range(1, 9), Wo = rng.range(1, 13);
        const Dims xd{1, 1, H, W}, gd{1, Ho, Wo, 2};
        Vals g(static_cast<size_t>(count_of(gd)));
        for (size_t i = 0; i < g.size(); ++i) g[i] = fast_grid_value(rng, i % 2 ? H : W, align);
        const GridSampleAttrs a = attrs_of(m, p, align);
        std::vector<float> x(static_cast<size_t>(H * W));
        for (float& v : x) v = static_cast<float>(rng.uniform(-2, 2));
        osw::TensorView X = view_of(DType::Float32, xd, x.data());
        osw::TensorView G = view_of(DType::Float64, gd, g.data());
        osw::TensorView Y;
        REQUIRE(osw::gridsample_output_shape(X, G, &Y).ok());
        Y.type = DType::Float32;
        osw::GridSamplePlan plan;
        REQUIRE(osw::gridsample_plan(a, X, G, Y, osw::gs::Tuning(), &plan).ok());
        REQUIRE(plan.path == osw::GridSamplePlan::Path::Fast2d);
        REQUIRE(plan.blocks == 1);
        osw::GridSampleWorkspace ws;
        osw::gs_exec::FastPlan<int32_t> fp;
        REQUIRE(osw::gs_exec::bind_fast_plan<int32_t>(plan, 1, &ws.tables[0], &fp).ok());
        std::vector<double> wd(static_cast<size_t>(plan.max_taps));
        const osw::gs_exec::FastAxes ax(a, plan.geo);
        osw::gs_exec::FastPlanBuilder<int32_t> builder(ax, a, plan.geo, plan.max_taps, wd.data(), &fp);
        const osw::gs_exec::Block b = osw::gs_exec::fast_block_at(plan, 0);
        builder.begin();
        builder.add_rows(g.data(), false, b, 0, b.nh);
        builder.finish();
        fast_seen += fp.nf;
        const float poison = -1234.5f;
        std::vector<float> y_scalar(static_cast<size_t>(Ho * Wo), poison), y_simd = y_scalar;
        osw::gs_exec::fast_block_scalar<int32_t>(m == GridMode::Cubic, x.data(), fp, W, y_scalar.data());
#if OSW_HAVE_SIMD
        osw::gs_exec::fast_block_simd<int32_t>(m == GridMode::Cubic, x.data(), fp, W, y_simd.data());
        CHECK(std::memcmp(y_scalar.data(), y_simd.data(), y_simd.size() * sizeof(float)) == 0);
#endif
        // Each fast location's documented sum, and nothing else written.
        std::vector<bool> is_fast(y_scalar.size(), false);
        for (int64_t f = 0; f < fp.nf; ++f) is_fast[static_cast<size_t>(fp.idx[f])] = true;
        for (int64_t j = 0; j < Ho * Wo; ++j) {
          const double gx = g[static_cast<size_t>(2 * j)], gy = g[static_cast<size_t>(2 * j + 1)];
          int64_t iy = 0, ix = 0;
          double wy[4], wx[4];
          const bool fast = fast_axis(m, p, align, H, gy, &iy, wy) && fast_axis(m, p, align, W, gx, &ix, wx);
          REQUIRE(fast == is_fast[static_cast<size_t>(j)]);
          const float want = fast ? canonical_sum(m == GridMode::Linear ? 2 : 4, x.data() + iy * W + ix, W, wy, wx) : poison;
          CHECK(same_bits(y_scalar[static_cast<size_t>(j)], want));
        }
      }
    }
  }
  CHECK(fast_seen > 300);
}

TEST_CASE("gridsample: the generic kernel's dot product twins agree bit for bit", "[gridsample][kernels]") {
  // gather_dot_lanes is the scalar twin of gather_dot_simd: the same partial sums. Random
  // taps (1..40 of them, so whole groups and tails), float and double weights, several X
  // types, specials among the values; every result compared as bits, and against a sum
  // restated here from the contract.
  Rng rng(24);
  [[maybe_unused]] int64_t compared = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const int64_t n = rng.range(1, 40);
    std::vector<int32_t> off(static_cast<size_t>(n));
    for (int32_t& o : off) o = static_cast<int32_t>(rng.range(0, 63));
    std::vector<float> xf(64), wf(static_cast<size_t>(n));
    std::vector<double> xd(64), wdv(static_cast<size_t>(n));
    std::vector<uint8_t> xu(64);
    const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0};
    for (size_t i = 0; i < 64; ++i) {
      xd[i] = rng.range(0, 30) == 0 ? specials[rng.range(0, 4)] : rng.uniform(-3, 3);
      xf[i] = static_cast<float>(xd[i]);
      xu[i] = static_cast<uint8_t>(rng.next());
    }
    for (int64_t k = 0; k < n; ++k) {
      wdv[static_cast<size_t>(k)] = rng.uniform(-1, 1);
      wf[static_cast<size_t>(k)] = static_cast<float>(wdv[static_cast<size_t>(k)]);
    }
    // The contract, restated: L partial sums from +0, combined, then the tail.
    auto restated = [&](auto tag, const auto* x, const auto* w) {
      using C = decltype(tag);
      const int L = std::is_same<C, float>::value ? 4 : 2;
      C s = 0;
      if (n < L) {
        for (int64_t k = 0; k < n; ++k) s += w[k] * static_cast<C>(x[off[static_cast<size_t>(k)]]);
        return s;
      }
      C acc[4] = {0, 0, 0, 0};
      const int64_t whole = n / L * L;
      for (int64_t k = 0; k < whole; ++k) acc[k % L] = acc[k % L] + w[k] * static_cast<C>(x[off[static_cast<size_t>(k)]]);
      s = L == 4 ? (acc[0] + acc[2]) + (acc[1] + acc[3]) : acc[0] + acc[1];
      for (int64_t k = whole; k < n; ++k) s += w[k] * static_cast<C>(x[off[static_cast<size_t>(k)]]);
      return s;
    };
    const float f_lanes = osw::gs_exec::gather_dot_lanes(xf.data(), off.data(), wf.data(), n);
    const double d_lanes = osw::gs_exec::gather_dot_lanes(xd.data(), off.data(), wdv.data(), n);
    const float u_lanes = osw::gs_exec::gather_dot_lanes(xu.data(), off.data(), wf.data(), n);
    INFO(n << " taps");
    // Bits, except that a NaN's sign and payload are not specified (wasm, SSE and the
    // compiler's operand order may each pick another): any NaN matches any NaN.
    auto same = [](double a, double b) {
      return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
    };
    CHECK(same(f_lanes, restated(0.0f, xf.data(), wf.data())));
    CHECK(same(d_lanes, restated(0.0, xd.data(), wdv.data())));
    CHECK(same(u_lanes, restated(0.0f, xu.data(), wf.data())));
#if OSW_HAVE_SIMD
    const float f_simd = osw::gs_exec::gather_dot_simd(xf.data(), off.data(), wf.data(), n);
    const double d_simd = osw::gs_exec::gather_dot_simd(xd.data(), off.data(), wdv.data(), n);
    const float u_simd = osw::gs_exec::gather_dot_simd(xu.data(), off.data(), wf.data(), n);
    CHECK(same(f_lanes, f_simd));
    CHECK(same(d_lanes, d_simd));
    CHECK(same(u_lanes, u_simd));
    ++compared;
#endif
  }
#if OSW_HAVE_SIMD
  CHECK(compared == 3000);
#endif
}

// ---- plan, workspace and ranges -----------------------------------------------------------

namespace {

const DType kAllTypes[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                           DType::Int8,    DType::UInt8,   DType::Int16,   DType::UInt16,
                           DType::Int32,   DType::UInt32,  DType::Int64,   DType::UInt64,
                           DType::Bool};

// X of any type as bytes: float32 and float64 values in [-2, 2], random bytes otherwise
// (any bytes are a value of an integer type; float16 and bfloat16 get NaNs and Infs too;
// bool, any non-zero byte reads as 1).
std::vector<unsigned char> random_x(Rng& rng, DType t, int64_t n) {
  const size_t es = osw::dtype_size(t);
  std::vector<unsigned char> b(static_cast<size_t>(n) * es);
  if (t == DType::Float32 || t == DType::Float64) {
    Vals v(static_cast<size_t>(n));
    for (double& e : v) e = rng.uniform(-2, 2);
    return encode(t, v);
  }
  for (unsigned char& c : b) c = static_cast<unsigned char>(rng.next());
  return b;
}

// [0, S) cut into 1 to 4 random parts: the boundaries, 0 first and S last.
std::vector<int64_t> random_cuts(Rng& rng, int64_t S) {
  std::vector<int64_t> c{0, S};
  const int64_t parts = std::min<int64_t>(S, rng.range(1, 4));
  while (static_cast<int64_t>(c.size()) < parts + 1) {
    const int64_t v = rng.range(1, std::max<int64_t>(1, S - 1));
    if (std::find(c.begin(), c.end(), v) == c.end() && v < S) c.push_back(v);
  }
  std::sort(c.begin(), c.end());
  return c;
}

// Whether output location j of a batch item lies in block k of the plan (GridSamplePlan's
// description of its blocks).
bool in_block(const osw::GridSamplePlan& plan, int64_t k, int64_t j) {
  if (plan.path != osw::GridSamplePlan::Path::Fast2d) return j / plan.block == k;
  const int64_t r = j / plan.geo.out_w, c = j % plan.geo.out_w;
  return r / plan.th == k / plan.blocks_w && c / plan.tw == k % plan.blocks_w;
}

struct RangeCase {
  GridSampleAttrs attrs;
  DType xt, gt;
  Dims xd, gd;
  std::vector<unsigned char> x, g;
  osw::gs::Tuning tuning;
};

// The case's X and grid (copies a run reads) with their views, and Y's view (no data yet).
struct CaseTensors {
  std::vector<unsigned char> xb, gb;
  osw::TensorView X, G, Y;
};
CaseTensors tensors_of(const RangeCase& c) {
  CaseTensors t{c.x, c.g, {}, {}, {}};
  t.X = view_of(c.xt, c.xd, t.xb.empty() ? nullptr : t.xb.data());
  t.G = view_of(c.gt, c.gd, t.gb.empty() ? nullptr : t.gb.data());
  REQUIRE(osw::gridsample_output_shape(t.X, t.G, &t.Y).ok());
  t.Y.type = c.xt;
  return t;
}

// Y of the case, poisoned (0xA5 bytes), then the part `range` of it run with ws.
osw::Status run_part(const RangeCase& c, const osw::GridSamplePlan& plan,
                     const osw::GridSampleRange& range, osw::GridSampleWorkspace* ws,
                     std::vector<unsigned char>* yb) {
  CaseTensors t = tensors_of(c);
  t.Y.data = yb->empty() ? nullptr : yb->data();
  return osw::gridsample_run(plan, range, t.X, t.G, &t.Y, ws);
}

// Runs the case whole (gridsample_tuned) and as random parts, each with its own workspace
// and in reverse order, and once more as the same parts through one workspace that earlier
// (other) runs left dirty; all three must give the same bytes. Then one random part alone
// must write exactly its own elements. Returns the plan's path.
osw::GridSamplePlan::Path check_ranges(Rng& rng, const RangeCase& c, osw::GridSampleWorkspace* dirty) {
  CaseTensors t = tensors_of(c);
  const osw::TensorView &X = t.X, &G = t.G;
  osw::TensorView& Y = t.Y;
  const size_t es = osw::dtype_size(c.xt);
  const size_t y_bytes = static_cast<size_t>(Y.elements()) * es;
  std::vector<unsigned char> whole(y_bytes, 0xA5);
  Y.data = whole.empty() ? nullptr : whole.data();
  REQUIRE(osw::gs::gridsample_tuned(c.attrs, X, G, &Y, c.tuning).ok());

  osw::GridSamplePlan plan;
  REQUIRE(osw::gridsample_plan(c.attrs, X, G, Y, c.tuning, &plan).ok());
  const osw::GridSampleRange all = osw::gridsample_whole(plan);
  CHECK(all.n_end == plan.geo.n);
  CHECK(all.c_end == plan.geo.c);
  CHECK(all.block_end == plan.blocks);
  const std::vector<int64_t> nc = random_cuts(rng, plan.geo.n), bc = random_cuts(rng, plan.blocks),
                             cc = random_cuts(rng, plan.geo.c);
  std::vector<osw::GridSampleRange> parts;
  for (size_t i = 0; i + 1 < nc.size(); ++i)
    for (size_t k = 0; k + 1 < bc.size(); ++k)
      for (size_t h = 0; h + 1 < cc.size(); ++h)
        parts.push_back(osw::GridSampleRange{nc[i], nc[i + 1], bc[k], bc[k + 1], cc[h], cc[h + 1]});
  INFO("X " << osw::dtype_name(c.xt) << dims_str(c.xd) << " grid " << osw::dtype_name(c.gt)
            << dims_str(c.gd) << " " << mode_name(c.attrs.mode) << " " << pad_name(c.attrs.padding)
            << " align " << c.attrs.align_corners << " rounding " << c.attrs.integer_rounding
            << " tuning block " << c.tuning.block << " path " << static_cast<int>(plan.path)
            << ", " << plan.blocks << " blocks, " << parts.size() << " parts");

  std::vector<unsigned char> split(y_bytes, 0xA5), shared(y_bytes, 0xA5);
  std::vector<osw::GridSampleWorkspace> own(parts.size());
  for (size_t i = parts.size(); i-- > 0;) REQUIRE(run_part(c, plan, parts[i], &own[i], &split).ok());
  CHECK(split == whole);
  for (const osw::GridSampleRange& r : parts) REQUIRE(run_part(c, plan, r, dirty, &shared).ok());
  CHECK(shared == whole);

  // One part alone: its elements as in the whole run, every other byte still poison.
  const osw::GridSampleRange one = parts[static_cast<size_t>(rng.range(0, static_cast<int64_t>(parts.size()) - 1))];
  std::vector<unsigned char> alone(y_bytes, 0xA5);
  osw::GridSampleWorkspace ws;
  REQUIRE(run_part(c, plan, one, &ws, &alone).ok());
  const int64_t out_size = plan.geo.out_size;
  int64_t bad = -1;
  for (int64_t e = 0; e < static_cast<int64_t>(y_bytes / es) && bad < 0; ++e) {
    const int64_t j = e % out_size, ch = (e / out_size) % plan.geo.c, n = e / out_size / plan.geo.c;
    bool inside = n >= one.n_begin && n < one.n_end && ch >= one.c_begin && ch < one.c_end;
    bool in_some_block = false;
    for (int64_t k = one.block_begin; inside && k < one.block_end && !in_some_block; ++k)
      in_some_block = in_block(plan, k, j);
    inside = inside && in_some_block;
    const size_t at = static_cast<size_t>(e) * es;
    for (size_t i = 0; i < es; ++i) {
      if (alone[at + i] != (inside ? whole[at + i] : 0xA5)) bad = e;
    }
  }
  INFO("one part: n [" << one.n_begin << ", " << one.n_end << ") blocks [" << one.block_begin
                       << ", " << one.block_end << ") channels [" << one.c_begin << ", "
                       << one.c_end << "): first wrong element " << bad);
  CHECK(bad == -1);
  return plan.path;
}

}  // namespace

TEST_CASE("gridsample: a run split into ranges, each with its own workspace, gives the whole run's bytes", "[gridsample][exec]") {
  Rng rng(23);
  osw::GridSampleWorkspace dirty;  // shared by every case: left dirty by the one before
  int64_t paths[4] = {0, 0, 0, 0};
  for (int r = 1; r <= 4; ++r) {
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        const int reps = r == 2 ? 6 : 2;
        for (int rep = 0; rep < reps; ++rep) {
          RangeCase c;
          c.attrs = attrs_of(m, p, rng.range(0, 1) != 0);
          // 2-D: float32 X half the time (the fast path), else any type.
          c.xt = r == 2 && rep % 2 == 0 ? DType::Float32 : kAllTypes[rng.range(0, 12)];
          c.gt = rng.range(0, 1) ? DType::Float32 : DType::Float64;
          if (c.xt != DType::Float32 && c.xt != DType::Float64)
            c.attrs.integer_rounding = static_cast<int32_t>(rng.range(0, 2));
          const int64_t max_in = r <= 2 ? 7 : 3, max_out = r == 1 ? 40 : r == 2 ? 13 : 4;
          c.xd = {rng.range(1, 3), rng.range(1, 4)};
          c.gd = {c.xd[0]};
          for (int a = 0; a < r; ++a) c.xd.push_back(rng.range(1, max_in));
          for (int a = 0; a < r; ++a) c.gd.push_back(rng.range(1, max_out));
          c.gd.push_back(r);
          // Sometimes X with a spatial length 0 (zeros padding only).
          if (p == PaddingMode::Zeros && rep == 1) c.xd[2] = 0;
          c.x = random_x(rng, c.xt, count_of(c.xd));
          Vals g(static_cast<size_t>(count_of(c.gd)));
          for (size_t i = 0; i < g.size(); ++i) {
            const int64_t L = std::max<int64_t>(1, c.xd[2 + (r - 1 - static_cast<int>(i % r))]);
            g[i] = r == 2 ? fast_grid_value(rng, L, c.attrs.align_corners)
                          : random_grid_value(rng, L, c.attrs.align_corners);
          }
          c.g = encode(c.gt, as_type(c.gt, g));
          // Blocks of a few locations, so that there are many (and default blocks too).
          const int64_t blocks[] = {0, 1, 2, 3, 5, 7, 16};
          c.tuning.block = blocks[rng.range(0, 6)];
          c.tuning.wide_offsets = rng.range(0, 3) == 0;
          ++paths[static_cast<int>(check_ranges(rng, c, &dirty))];
        }
      }
    }
  }
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::EmptyInput)] > 0);
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::Generic)] > 20);
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::Fast2d)] > 10);
  CHECK(dirty.bytes() > 0);
  dirty.reset();
  CHECK(dirty.bytes() == 0);
}

TEST_CASE("gridsample: a range outside the plan is refused; an empty one writes nothing", "[gridsample][exec]") {
  const Dims xd{2, 3, 4, 5}, gd{2, 3, 3, 2};
  Vals x(static_cast<size_t>(count_of(xd)), 1.0), g(static_cast<size_t>(count_of(gd)), 0.25);
  std::vector<unsigned char> xb = encode(DType::Float32, x), gb = encode(DType::Float32, g);
  osw::TensorView X = view_of(DType::Float32, xd, xb.data()), G = view_of(DType::Float32, gd, gb.data());
  osw::TensorView Y;
  REQUIRE(osw::gridsample_output_shape(X, G, &Y).ok());
  Y.type = DType::Float32;
  std::vector<unsigned char> yb(static_cast<size_t>(Y.elements()) * 4, 0xA5);
  Y.data = yb.data();
  osw::GridSamplePlan plan;
  REQUIRE(osw::gridsample_plan(attrs_of(GridMode::Linear, PaddingMode::Zeros, false), X, G, Y,
                               osw::gs::Tuning(), &plan).ok());
  osw::GridSampleWorkspace ws;
  const osw::GridSampleRange all = osw::gridsample_whole(plan);
  for (int field = 0; field < 6; ++field) {
    for (int64_t delta : {-1, 1}) {
      osw::GridSampleRange r = all;
      int64_t* f[] = {&r.n_begin, &r.n_end, &r.block_begin, &r.block_end, &r.c_begin, &r.c_end};
      // begin - 1 or end + 1: outside; begin + 1 past end, or end - 1 below begin where
      // the part is one long: a negative length.
      *f[field] += (field % 2 == 0) ? (delta < 0 ? -1 : all.n_end + all.block_end + all.c_end)
                                    : (delta > 0 ? 1 : -(all.n_end + all.block_end + all.c_end));
      const osw::Status st = osw::gridsample_run(plan, r, X, G, &Y, &ws);
      INFO("field " << field << " delta " << delta);
      CHECK(st.kind == osw::ErrorKind::RangeError);
    }
  }
  osw::GridSampleRange empty = all;
  empty.c_end = empty.c_begin;
  REQUIRE(osw::gridsample_run(plan, empty, X, G, &Y, &ws).ok());
  CHECK(std::all_of(yb.begin(), yb.end(), [](unsigned char b) { return b == 0xA5; }));
  CHECK(ws.bytes() == 0);
}

// ---- compat 'onnxruntime' and exact reflection (issue 18) ---------------------------------

namespace {

GridSampleAttrs ort_attrs(GridMode m, PaddingMode p, bool align) {
  GridSampleAttrs a = attrs_of(m, p, align);
  a.ort = true;
  a.integer_rounding = 1;
  return a;
}

// Reflection of the integer i about -0.5 / L - 0.5 (align 0) or 0 / L - 1 (align 1), in
// exact integer arithmetic (|i| < 2^62).
int64_t reflect_index_exact(int64_t i, int64_t L, bool align) {
  if (align && L == 1) return 0;
  const int64_t p = align ? 2 * (L - 1) : 2 * L;
  int64_t m = i % p;
  if (m < 0) m += p;
  const int64_t hi = align ? L - 1 : L;  // first index past the border's half
  if (align) return m <= hi ? m : p - m;
  return m < hi ? m : p - 1 - m;
}

}  // namespace

TEST_CASE("gridsample: reflection beyond 2^52 is exact (issue 18, item 5)", "[gridsample][exec]") {
  using osw::gs::reflect;
  Rng rng(18);
  for (int align = 0; align < 2; ++align) {
    for (int64_t L : {1, 2, 3, 5, 7, 100, 1000003}) {
      double lo, hi;
      osw::gs::reflection_bounds(L, align != 0, &lo, &hi);
      for (int i = 0; i < 400; ++i) {
        // integers of 53 to 62 bits, both signs, every one a double
        const int bits = static_cast<int>(rng.range(53, 62));
        const int64_t step = int64_t(1) << (bits - 52);
        int64_t v = (int64_t(1) << (bits - 1)) + static_cast<int64_t>(rng.range(0, 1 << 20)) * step;
        if (rng.range(0, 1)) v = -v;
        const int64_t want = reflect_index_exact(v, L, align != 0);
        INFO("L " << L << " align " << align << " x " << v);
        CHECK(reflect(static_cast<double>(v), lo, hi) == static_cast<double>(want));
        // and through GridSample's taps (nearest, linear and cubic take that one pixel)
        for (GridMode m : kModes) {
          osw::gs::AxisTaps t;
          osw::gs::axis_taps(m, PaddingMode::Reflection, align != 0, L, static_cast<double>(v), &t);
          REQUIRE(t.count == 1);
          CHECK(t.index[0] == want);
          CHECK(t.weight[0] == 1.0);
        }
      }
    }
  }
  // Below 2^52 nothing changed: the literal bounce loop still agrees.
  CHECK(reflect(4503599627370495.0, -0.5, 2.5) == static_cast<double>(reflect_index_exact(4503599627370495, 3, false)));
}

TEST_CASE("gridsample: compat onnxruntime replaces NaN, Inf and |x| > 2^62 by the lower border", "[gridsample][exec]") {
  // X 1x1x2x3 = 1..6; each special value on x (y = 0.2) and on y (x = 0.3); ONNX Runtime
  // 1.30 gives for each exactly what the grid value -1 gives (measured).
  const Dims xd{1, 1, 2, 3};
  const Vals x{1, 2, 3, 4, 5, 6};
  const double specials[] = {NAN, INFINITY, -INFINITY, 1e20, -1e20, 3e38};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType gt : kFloatTypes) {
          for (DType xt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " grid "
                              << osw::dtype_name(gt) << " X " << osw::dtype_name(xt));
            const GridSampleAttrs a = ort_attrs(m, p, align != 0);
            const Result ref = run_gs(a, xt, xd, x, gt, {1, 1, 2, 2}, {-1, 0.2, 0.3, -1});
            REQUIRE(ref.status.ok());
            for (double s : specials) {
              if (gt == DType::Float32 && s == 3e38) continue;  // (x is finite in double only)
              const Result r = run_gs(a, xt, xd, x, gt, {1, 1, 2, 2}, {s, 0.2, 0.3, s});
              REQUIRE(r.status.ok());
              CHECK(r.y == ref.y);
            }
          }
        }
      }
    }
  }
  // 2^62 itself is kept (border: the last pixel), the next float32 above it is replaced.
  const Dims xd2{1, 1, 1, 2};
  const Vals x2{1, 2};
  const double g62 = std::ldexp(1.0, 62) - 0.5;                 // x = g + 0.5 = 2^62
  const double g62n = static_cast<double>(std::nextafter(std::ldexp(1.0f, 62), INFINITY));
  Result r = run_gs(ort_attrs(GridMode::Nearest, PaddingMode::Border, false), DType::Float32, xd2,
                    x2, DType::Float64, {1, 1, 2, 2}, {g62, 0, g62n, 0});
  REQUIRE(r.status.ok());
  CHECK(r.y == Vals{2, 1});
  // Without the compat: NaN -> NaN, +Inf -> the last pixel (docs/semantics.md row 11).
  r = run_gs(attrs_of(GridMode::Linear, PaddingMode::Border, false), DType::Float32, xd, x,
             DType::Float32, {1, 1, 2, 2}, {NAN, 0.2, INFINITY, 0.2});
  REQUIRE(r.status.ok());
  CHECK(std::isnan(r.y[0]));
  CHECK(r.y[1] == Approx(5.1).margin(1e-6));  // the last column: 3 * 0.3 + 6 * 0.7
}

TEST_CASE("gridsample: compat onnxruntime computes coordinates in the grid's float32", "[gridsample][exec]") {
  // W = 5, align 0, g = float32(-0.2): ((g + 1) * 5 - 1) / 2 is 1.5 exactly in float32 (ONNX
  // Runtime: a tie, to even -> 2), 1.4999999925 in double (ours by default -> 1). g =
  // float32(0.2): 2.5 in float32 (-> 2), 2.5000000075 in double (-> 3). Measured in ORT 1.30.
  const Dims xd{1, 1, 1, 5};
  const Vals x{10, 11, 12, 13, 14};
  const Vals g{static_cast<float>(-0.2), 0, static_cast<float>(0.2), 0};
  for (PaddingMode p : kPads) {
    Result ort = run_gs(ort_attrs(GridMode::Nearest, p, false), DType::Float32, xd, x,
                        DType::Float32, {1, 1, 2, 2}, g);
    Result dflt = run_gs(attrs_of(GridMode::Nearest, p, false), DType::Float32, xd, x,
                         DType::Float32, {1, 1, 2, 2}, g);
    REQUIRE(ort.status.ok());
    REQUIRE(dflt.status.ok());
    CHECK(ort.y == Vals{12, 12});
    CHECK(dflt.y == Vals{11, 13});
  }
  // Linear far out (x = 4.5e9 > 2^24): ONNX Runtime's float32 weights (x2 - x, x - x1) are
  // both 0 -> 0 in every padding (measured); ours by default: the edge pixel.
  for (PaddingMode p : kPads) {
    Result ort = run_gs(ort_attrs(GridMode::Linear, p, false), DType::Float32, {1, 1, 1, 3},
                        {1, 2, 3}, DType::Float32, {1, 1, 1, 2}, {3e9, 0});
    REQUIRE(ort.status.ok());
    CHECK(ort.y == Vals{0});
  }
  // Random grids: the ORT path equals the default one wherever float32 and double agree on
  // the taps (a tolerance for the weights' float32 rounding).
  Rng rng(1818);
  for (int i = 0; i < 300; ++i) {
    const GridMode m = kModes[rng.range(0, 2)];
    const PaddingMode p = kPads[rng.range(0, 2)];
    const bool align = rng.range(0, 1) != 0;
    Case c = random_case(rng, 2, 5, 5, align);
    for (double& v : c.g) v = static_cast<float>(v);
    const Result a = run_gs(ort_attrs(m, p, align), DType::Float64, c.xd, c.x, DType::Float64, c.gd, c.g);
    const Result b = run_gs(attrs_of(m, p, align), DType::Float64, c.xd, c.x, DType::Float64, c.gd, c.g);
    REQUIRE(a.status.ok());
    REQUIRE(b.y.size() == a.y.size());
    for (size_t k = 0; k < a.y.size(); ++k) {
      INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " k " << k);
      CHECK(a.y[k] == Approx(b.y[k]).margin(1e-9));
    }
  }
}

TEST_CASE("gridsample: compat onnxruntime rejects an X with an empty spatial axis", "[gridsample][exec]") {
  for (PaddingMode p : kPads) {
    INFO(pad_name(p));
    // with outputs to fill, and with none (ONNX Runtime checks X first)
    for (const Dims& gd : {Dims{1, 1, 3, 2}, Dims{1, 0, 3, 2}}) {
      const Result r = run_gs(ort_attrs(GridMode::Linear, p, false), DType::Float32, {1, 2, 0, 3},
                              {}, DType::Float32, gd, Vals(gd[1] * 6, 0.0));
      CHECK(r.status.kind == osw::ErrorKind::RangeError);
      CHECK(r.status.message.rfind("X: spatial dimension 2 has length 0; compat 'onnxruntime' rejects it", 0) == 0);
    }
  }
  // X with pixels and no channels or batch items: an empty Y, as in ONNX Runtime.
  const Result r = run_gs(ort_attrs(GridMode::Linear, PaddingMode::Zeros, false), DType::Float32,
                          {1, 0, 2, 3}, {}, DType::Float32, {1, 1, 1, 2}, {0, 0});
  CHECK(r.status.ok());
}
