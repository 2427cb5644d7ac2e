// test_exact.cpp: integer outputs round as their exact value does (docs/
// semantics.md "integer outputs decided exactly").
//
// A reference of its own, in __int128 rationals: sizes-based geometry (scale = out / in),
// half_pixel / pytorch_half_pixel / asymmetric / align_corners coordinates as exact
// fractions P / Q, linear and cubic taps (a = -3/4 and -1/2) as integers over one
// denominator, linear antialias and exclude_outside renormalised by their exact sums,
// compat 'onnxruntime' from the double coordinate its float32 formula gives. Random small
// cases of every integer type, every compat rounding, ranks 1 and 2, are drawn until many
// outputs lie exactly at a boundary and many within 2^-8 of one (below and above), and
// every output must equal the exact rounding of its exact value. Before the exact decision
// (float values rounded as they came) the drawn cases include misrounded outputs.
#include <catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "core/exact_int.h"
#include "resize/resize.h"
#include "resize/exact.h"
#include "test_plan.h"
#include "test_exact_ref.h"
#include "test_rng.h"

using namespace osw;

namespace {

using namespace exact_ref;

struct Tap {
  int64_t pos;
  i128 k;
};

struct AxisRef {
  std::vector<Tap> taps;
  i128 den = 1;
  bool ok = true;
};

AxisRef axis_ref(const ResizePlan& plan, int a, int64_t o) {
  const ResizeAttrs& at = plan.attrs;
  const AxisGeometry& g = plan.geo.axis[a];
  const int64_t in = g.in, out = g.out;
  AxisRef r;
  if (plan.axis[a].identity) {
    r.taps.push_back({o, 1});
    return r;
  }
  i128 P, Q;
  if (at.compat == Compat::OnnxRuntime) {
    dyadic(coord::onnxruntime(at.coord, double(o), g), &P, &Q);
  } else {
    switch (at.coord) {
      case CoordMode::PytorchHalfPixel:
        if (out == 1) { P = 0; Q = 1; break; }
        // fallthrough
      case CoordMode::HalfPixel: P = i128(2 * o + 1) * in - out; Q = 2 * out; break;
      case CoordMode::Asymmetric: P = i128(o) * in; Q = out; break;
      default:  // align_corners, W = out
        if (out == 1) { P = 0; Q = 1; } else { P = i128(o) * (in - 1); Q = out - 1; }
        break;
    }
  }
  const bool cubic = at.mode == ResizeMode::Cubic;
  const i128 an = at.cubic_a == -0.5 ? -1 : -3, b = at.cubic_a == -0.5 ? 2 : 4;
  int64_t first;
  std::vector<i128> k;
  if (at.antialias && out < in) {  // linear only here
    const i128 base = fdiv(P - 1, Q), rr = P - base * Q;  // ceil(x) - 1, remainder in (0, Q]
    const int64_t start = int64_t(fdiv(i128(-in), i128(out))) + 1, end = start + (2 - 2 * start);
    const i128 R = Q * in;
    i128 sum = 0;
    for (int64_t i = start; i < end; ++i) {
      i128 u = (i128(i) * Q - rr) * out;
      if (u < 0) u = -u;
      k.push_back(R - u > 0 ? R - u : 0);
      sum += k.back();
    }
    first = int64_t(base) + start;
    r.den = sum;
  } else {
    const i128 f = fdiv(P, Q), t = P - f * Q;
    if (!cubic) {
      k = {Q - t, t};
      first = int64_t(f);
      r.den = Q;
    } else {
      for (i128 u : {t + Q, t, Q - t, 2 * Q - t}) k.push_back(keys(u, Q, an, b));
      first = int64_t(f) - 1;
      r.den = b * Q * Q * Q;
    }
  }
  if (at.exclude_outside) {
    i128 sum = 0;
    for (size_t i = 0; i < k.size(); ++i) {
      const int64_t p = first + int64_t(i);
      if (p < 0 || p >= in) k[i] = 0;
      sum += k[i];
    }
    if (sum == 0) r.ok = false;
    r.den = sum;
  }
  for (size_t i = 0; i < k.size(); ++i) {
    int64_t p = first + int64_t(i);
    p = p < 0 ? 0 : (p >= in ? in - 1 : p);
    r.taps.push_back({p, k[i]});
  }
  return r;
}

// Exact value of output i of plan on X (rank 1 or 2), rounded by the compat's rule.
template <typename I>
bool exact_ref(const ResizePlan& plan, const std::vector<I>& x, int64_t i, I* out, Stats* st) {
  int64_t idx[2], stride[2];
  const int rank = plan.rank;
  int64_t rest = i;
  for (int a = rank - 1; a >= 0; --a) {
    idx[a] = rest % plan.out_dims[a];
    rest /= plan.out_dims[a];
  }
  stride[rank - 1] = 1;
  if (rank == 2) stride[0] = plan.in_dims[1];
  AxisRef ax[2];
  i128 den = 1;
  for (int a = 0; a < rank; ++a) {
    ax[a] = axis_ref(plan, a, idx[a]);
    if (!ax[a].ok) return false;
    den *= ax[a].den;
  }
  i128 num = 0;
  if (rank == 1) {
    for (const Tap& t : ax[0].taps) num += t.k * i128(x[t.pos]);
  } else {
    for (const Tap& t0 : ax[0].taps)
      for (const Tap& t1 : ax[1].taps) num += t0.k * t1.k * i128(x[t0.pos * stride[0] + t1.pos]);
  }
  if (den < 0) { num = -num; den = -den; }
  const i128 f = fdiv(num, den), r = num - f * den;
  i128 v;
  switch (plan.attrs.compat) {
    case Compat::OnnxRuntime:
      v = (f < 0 && r != 0) ? f + 1 : f;
      if (r == 0) ++st->ties;
      else if (r * 256 < den) ++st->above;
      else if ((den - r) * 256 < den) ++st->below;
      break;
    case Compat::PyTorch: v = 2 * r >= den ? f + 1 : f; break;
    default: v = 2 * r > den ? f + 1 : (2 * r < den ? f : f + (f & 1)); break;
  }
  if (plan.attrs.compat != Compat::OnnxRuntime) {
    const i128 d = 2 * r - den;  // 2 * (fraction - 1/2) * den
    if (d == 0) ++st->ties;
    else if (d > 0 && d * 128 < den) ++st->above;
    else if (d < 0 && -d * 128 < den) ++st->below;
  }
  *out = saturate<I>(v);
  return true;
}

// Stats per compat (Onnx, OnnxRuntime, PyTorch) and mode (linear, cubic).
template <typename I>
void run_cases(DType type, uint64_t seed, int cases, Stats (*per)[2]) {
  Rng rng(seed);
  for (int c = 0; c < cases; ++c) {
    ResizeAttrs at;
    at.compat = rng.pick({Compat::Onnx, Compat::OnnxRuntime, Compat::PyTorch});
    const bool ort = at.compat == Compat::OnnxRuntime;
    at.mode = ort ? ResizeMode::Linear : rng.pick({ResizeMode::Linear, ResizeMode::Cubic});
    at.coord = rng.pick({CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric,
                         CoordMode::AlignCorners});
    at.cubic_a = rng.coin() ? -0.75 : -0.5;
    at.exclude_outside = rng.range(0, 3) == 0;
    at.antialias = !ort && at.mode == ResizeMode::Linear && rng.range(0, 2) == 0;
    const int rank = int(rng.range(1, 2));
    int64_t in_dims[2];
    ResizeInputs inputs;
    inputs.has_sizes = true;
    inputs.n_axes = rank;
    // Mostly small; now and then longer axes, whose denominators (2 out, products of two
    // axes) are large enough for linear values to come within 2^-12 of a boundary.
    const bool big = rng.range(0, 7) == 0;
    for (int a = 0; a < rank; ++a) {
      in_dims[a] = big ? rng.range(10, 40) : rng.range(2, 9);
      inputs.sizes[a] = big ? rng.range(30, 100) : rng.range(1, 24);
    }
    ResizePlan plan;
    ResizeOptions opts;
    opts.type = type;
    REQUIRE(resize_plan(at, inputs, rank, in_dims, &plan, opts).ok());
    if (plan.attrs.compat == Compat::PyTorch && at.antialias) continue;  // (a = -0.5, exclude: drawn above anyway)
    const int64_t nx = rank == 1 ? in_dims[0] : in_dims[0] * in_dims[1];
    std::vector<I> x(size_t(nx), 0), y(size_t(plan.out_elems), 0);
    // Values: the type's range, or for 32/64-bit types magnitudes that make double's
    // rounding visible (2^40 .. 2^56), or small ones, or one value everywhere.
    const int shape = int(rng.range(0, 3));
    for (I& v : x) {
      if (shape == 3) {  // flat: the exact value is the input's (truncation's trap)
        v = x[0] = I(x[0] == 0 ? rng.range(1, 100) : x[0]);
        continue;
      }
      if (sizeof(I) <= 2 || shape == 0) {
        v = I(rng.range(int64_t(std::numeric_limits<I>::min()),
                        std::is_same<I, uint64_t>::value || std::is_same<I, int64_t>::value
                            ? int64_t(1) << 20 : int64_t(std::numeric_limits<I>::max())));
      } else if (shape == 1) {
        const int64_t m = int64_t(1) << (sizeof(I) == 4 ? 31 : rng.range(40, 56));
        v = I(std::is_signed<I>::value ? rng.range(-m + 1, m - 1) : rng.range(0, m - 1));
      } else {
        v = I(rng.range(0, 255));
      }
    }
    REQUIRE(run_plan(plan, type, x.data(), y.data()).ok());
    Stats* st = &per[int(at.compat)][at.mode == ResizeMode::Cubic ? 1 : 0];
    for (int64_t i = 0; i < plan.out_elems; ++i) {
      I want;
      if (!exact_ref(plan, x, i, &want, st)) continue;
      ++st->outputs;
      if (y[size_t(i)] != want) {
        ++st->wrong;
        if (st->wrong <= 3)
          UNSCOPED_INFO("case " << c << " output " << i << ": got " << double(y[size_t(i)])
                                << ", exact " << double(want));
      }
    }
  }
}

template <typename I>
void check_type(DType type, uint64_t seed, int cases) {
  Stats per[3][2];
  run_cases<I>(type, seed, cases, per);
  static const char* kCompat[3] = {"onnx", "onnxruntime", "pytorch"};
  int64_t ties = 0;
  for (int c = 0; c < 3; ++c) {
    for (int m = 0; m < 2; ++m) {
      const Stats& st = per[c][m];
      if (c == 1 && m == 1) continue;  // (compat 'onnxruntime' drawn linear only)
      INFO(dtype_name(type) << " " << kCompat[c] << (m ? " cubic: " : " linear: ") << st.outputs
                            << " outputs, " << st.ties << " exactly at a boundary, " << st.below
                            << " just below (within 2^-8), " << st.above << " just above");
      CHECK(st.wrong == 0);
      // The draw reaches the boundary often enough to mean something.
      CHECK(st.ties >= 1);
      CHECK(st.below >= 1);
      CHECK(st.above >= 1);
      ties += st.ties;
    }
  }
  CHECK(ties >= 50);
}

}  // namespace

TEST_CASE("exact: uint8 outputs round as their exact value", "[resize][exact]") {
  check_type<uint8_t>(DType::UInt8, 1, 3000);
}
TEST_CASE("exact: int8, uint16, int16 outputs round as their exact value", "[resize][exact]") {
  check_type<int8_t>(DType::Int8, 2, 1500);
  check_type<uint16_t>(DType::UInt16, 3, 1500);
  check_type<int16_t>(DType::Int16, 4, 1500);
}
TEST_CASE("exact: int32, uint32 outputs round as their exact value", "[resize][exact]") {
  check_type<int32_t>(DType::Int32, 5, 1500);
  check_type<uint32_t>(DType::UInt32, 6, 1500);
}
TEST_CASE("exact: int64, uint64 outputs round as their exact value", "[resize][exact]") {
  check_type<int64_t>(DType::Int64, 7, 700);
  check_type<uint64_t>(DType::UInt64, 8, 700);
}

// Truncation (compat 'onnxruntime') skips values near 0 only while the error bound is below
// 1/4 (the exact value is then in (-1, 1), which truncates to 0). int64 values near 2^60
// have a bound of hundreds: (2^60 + 3 - 2^60) / 2 is computed as 0 in double, and its exact
// value 1.5 truncates to 1.
// M of the error bound (src/resize/exact.cpp): the type's range for 8- and 16-bit types, the
// largest |X| of the call for 32- and 64-bit ones, never below it (INT32_MIN is 2^31), and
// only over the n elements the call reads.
TEST_CASE("exact: the bound's largest magnitude reads 32- and 64-bit X", "[resize][exact]") {
  auto M = [](osw::DType t, const void* data, int64_t n) {
    osw::TensorView v;
    v.type = t;
    v.data = const_cast<void*>(data);
    return osw::exact::magnitude(v, n);
  };
  const uint8_t b[2] = {0, 1};
  CHECK(M(osw::DType::UInt8, b, 2) == 255);
  CHECK(M(osw::DType::Int16, b, 1) == 32768);
  const int32_t i32[5] = {3, -70000, 12, std::numeric_limits<int32_t>::min(), 5};
  CHECK(M(osw::DType::Int32, i32, 3) == 70000);
  CHECK(M(osw::DType::Int32, i32, 5) == 2147483648.0);
  CHECK(M(osw::DType::Int32, i32, 0) == 0);
  const uint32_t u32[3] = {7, 4294967295u, 9};
  CHECK(M(osw::DType::UInt32, u32, 1) == 7);
  CHECK(M(osw::DType::UInt32, u32, 3) == 4294967295.0);
  const int64_t i64[2] = {-5, 4};
  CHECK(M(osw::DType::Int64, i64, 2) == 5);
}

TEST_CASE("exact: truncation near 0 with a large error bound is still decided", "[resize][exact]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::AlignCorners;
  at.compat = Compat::OnnxRuntime;
  ResizeInputs in;
  in.has_sizes = true;
  in.n_axes = 1;
  in.sizes[0] = 3;  // output 1 at x = 0.5: weights 1/2, 1/2
  const int64_t dims[1] = {2};
  ResizePlan plan;
  ResizeOptions opts;
  opts.type = DType::Int64;
  REQUIRE(resize_plan(at, in, 1, dims, &plan, opts).ok());
  const int64_t big = int64_t(1) << 60;
  std::vector<int64_t> x = {big, 3 - big}, y(3, 7);
  REQUIRE(run_plan(plan, DType::Int64, x.data(), y.data()).ok());
  CHECK(y[0] == big);
  CHECK(y[1] == 1);
  CHECK(y[2] == 3 - big);
}

// Plans whose weights are all dyadic with few bits (2x and 4x linear under half_pixel) are
// computed exactly for 16-bit values in float32, and for 32-bit ones in double: their error
// bound is 0 (no output is decided again; 16-bit 2x linear ran in double with a recheck
// before, 36x the float32 time). The bound stays where the arithmetic can round (too many
// bits for the significand, non-dyadic weights, X itself beyond double's integers), and
// the outputs of the exact plans equal the exact rounding of the exact value, ties included.
namespace {
template <typename I>
bool exact_value(const ResizePlan& plan, const std::vector<I>& x, int64_t i, I* out, Stats* st) {
  return exact_ref(plan, x, i, out, st);
}
}  // namespace

// *plan: attributes at over 2-D in_dims, sizes out, for elements of type t.
static void plan_2d(const ResizeAttrs& at, DType t, const int64_t* in_dims, const int64_t* out, ResizePlan* plan) {
  ResizeInputs in;
  in.has_sizes = true;
  in.n_axes = 2;
  in.sizes[0] = out[0];
  in.sizes[1] = out[1];
  ResizeOptions opts;
  opts.type = t;
  REQUIRE(resize_plan(at, in, 2, in_dims, plan, opts).ok());
}

TEST_CASE("exact: dyadic plans have no error bound and are exact", "[resize][exact]") {
  struct Case {
    DType type;
    ResizeMode mode;
    int64_t in[2], out[2];
    int64_t magnitude;  // of X (0: the type's range)
    bool float_exact, double_exact;
    bool antialias = false;
    bool ramp = false;  // X a ramp (each row 0, 1, 2, ...): exact ties at every output
  };
  const int64_t big = int64_t(1) << 60;
  const Case cases[] = {
      {DType::UInt16, ResizeMode::Linear, {6, 5}, {12, 10}, 0, true, true},    // 2x
      {DType::Int16, ResizeMode::Linear, {5, 4}, {20, 16}, 0, true, true},     // 4x
      {DType::UInt16, ResizeMode::Linear, {1, 7}, {1, 56}, 0, true, true},     // 8x, one axis
      {DType::UInt16, ResizeMode::Linear, {3, 3}, {24, 24}, 0, false, true},   // 8x8: 2^26 > 2^24
      {DType::UInt16, ResizeMode::Linear, {4, 6}, {6, 9}, 0, false, false},    // 1.5x
      {DType::Int16, ResizeMode::Cubic, {6, 5}, {12, 10}, 0, false, true},     // 2^16 weights
      {DType::Int32, ResizeMode::Linear, {6, 5}, {12, 10}, 1 << 19, true, true},
      {DType::UInt32, ResizeMode::Linear, {3, 7}, {12, 28}, 1 << 17, true, true},     // 4x
      {DType::UInt32, ResizeMode::Linear, {3, 7}, {12, 28}, 1 << 18, false, true},    // 2^25
      {DType::Int32, ResizeMode::Linear, {6, 5}, {12, 10}, 1 << 21, false, true},     // 2^26 > 2^24
      {DType::Int32, ResizeMode::Cubic, {6, 5}, {12, 10}, 0, false, true},
      {DType::Int64, ResizeMode::Linear, {6, 5}, {12, 10}, big, false, false},  // X above 2^53
      {DType::Int64, ResizeMode::Linear, {6, 5}, {6, 5}, big, false, false},    // no pass at all
      // Antialias: no common denominator per axis (each output renormalised by its own
      // sum), found dyadic from every output's exact taps (a cache given): 2x linear has
      // weights in eighths, the edges' clamped taps merged (1/2, 3/8, 1/8); 4x in 32nds
      {DType::UInt8, ResizeMode::Linear, {12, 10}, {6, 5}, 0, true, true, true},
      {DType::Int8, ResizeMode::Linear, {13, 8}, {6, 4}, 0, false, false, true},    // 13 -> 6
      {DType::UInt8, ResizeMode::Linear, {16, 12}, {4, 3}, 0, true, true, true},    // 4x
      {DType::UInt16, ResizeMode::Linear, {16, 12}, {4, 3}, 0, false, true, true},  // 2^27
      {DType::Int16, ResizeMode::Linear, {12, 9}, {4, 3}, 0, false, false, true},   // 3x
      {DType::UInt8, ResizeMode::Cubic, {12, 10}, {6, 5}, 0, false, true, true},   // 2x: a = -3/4
      {DType::Int16, ResizeMode::Cubic, {12, 10}, {6, 5}, 0, false, true, true},   // (run in double)
      {DType::UInt8, ResizeMode::Cubic, {15, 10}, {6, 4}, 0, false, false, true},  // 2.5x
      // 2x of 960-wide rows, a ramp (exact ties): the exact rationals in lowest terms
      // (unreduced, the taps' denominator 4 (1920 * 960)^3 passed 64 bits: no bound known,
      // and every tie was decided in big integers)
      {DType::UInt8, ResizeMode::Cubic, {2, 960}, {1, 480}, 0, false, true, true, true},
      {DType::Int32, ResizeMode::Linear, {12, 10}, {6, 5}, 1 << 17, true, true, true},
  };
  Rng rng(41);
  for (const Case& c : cases) {
    ResizeAttrs at;
    at.mode = c.mode;
    at.antialias = c.antialias;
    ResizePlan plan;
    plan_2d(at, c.type, c.in, c.out, &plan);
    const int64_t n = c.in[0] * c.in[1];
    INFO(dtype_name(c.type) << (c.mode == ResizeMode::Cubic ? " cubic " : " linear ")
                            << (c.antialias ? "antialias " : "") << c.in[0] << "x" << c.in[1]
                            << " -> " << c.out[0] << "x" << c.out[1]);
    auto check = [&](auto zero) {
      using I = decltype(zero);
      const int64_t m = c.magnitude ? c.magnitude : int64_t(std::numeric_limits<I>::max());
      std::vector<I> x(static_cast<size_t>(n)), y(static_cast<size_t>(plan.out_elems));
      for (I& v : x) v = I(rng.range(std::is_signed<I>::value ? -m : 0, m));
      x[0] = I(m);  // (the largest magnitude present)
      if (c.ramp)
        for (int64_t i = 0; i < n; ++i) x[size_t(i)] = I(i % c.in[1] % 256);
      TensorView xv;
      xv.type = c.type;
      xv.data = x.data();
      xv.rank = 2;
      xv.dims[0] = c.in[0];
      xv.dims[1] = c.in[1];
      double eps_d = -1;
      ExactTaps* cache = nullptr;
      const double eps = resize_exact_eps(plan, xv, &eps_d, nullptr, &cache);
      const bool in_double = dtype_size(c.type) >= 4;
      CHECK((eps == 0) == (in_double ? c.double_exact : c.float_exact));
      if (!in_double) CHECK((eps_d == 0) == c.double_exact);
      // (without the cache an antialias axis has no known denominator: a bound)
      double eps_d2 = -1;
      const double eps2 = resize_exact_eps(plan, xv, &eps_d2);
      CHECK((eps2 == 0) == (!c.antialias && (in_double ? c.double_exact : c.float_exact)));
      // a cache made for another plan is not used: made again
      ResizePlan other;
      ResizeAttrs at2 = at;
      at2.antialias = !at.antialias;
      plan_2d(at2, c.type, c.in, c.out, &other);
      resize_exact_taps_check(plan, &cache);
      if (c.antialias && c.double_exact) CHECK(cache != nullptr);  // (the exact taps were made)

      resize_exact_taps_check(other, &cache);
      CHECK(cache == nullptr);
      resize_exact_taps_free(cache);
      // 32-bit X computed exactly in float32 runs the float32 steps (resize.cpp): decided
      // once per run, in the shared workspace, whose cache then serves the plan's runs
      ResizeWorkspace shared;
      REQUIRE(resize_prepare_shared(plan, xv, &shared).ok());
      const bool int32 = c.type == DType::Int32 || c.type == DType::UInt32;
      CHECK((shared.int_compute == DType::Float32) == (int32 && c.float_exact));
      const bool fixed = c.type == DType::UInt8 && plan.fixed.state == 1;  // (no bound: the integer form)
      if (!fixed) CHECK(shared.eps == eps);
      REQUIRE(run_plan(plan, c.type, x.data(), y.data()).ok());
      // Cubic antialias, which the __int128 reference does not model: every output decided
      // in the library's big-integer rationals from its exact taps (resize_exact_slow:
      // independent of the double weights and of every bound), into a copy of Y whose
      // elements all start off by one (an output it did not decide stays wrong).
      std::vector<I> slow(y.size());
      if (c.mode == ResizeMode::Cubic && c.antialias) {
        for (size_t i = 0; i < y.size(); ++i) slow[i] = I(y[i] + 1);
        TensorView sv = osw_test::view(c.type, 2, plan.out_dims, slow.data());
        for (int64_t i = 0; i < plan.out_elems; ++i) resize_exact_slow(plan, xv, &sv, i, double(y[size_t(i)]), nullptr);
      }
      Stats st;
      int64_t wrong = 0, decided = 0;
      for (int64_t i = 0; i < plan.out_elems; ++i) {
        I want;
        if (c.mode == ResizeMode::Cubic && c.antialias) want = slow[size_t(i)];
        else if (!exact_value(plan, x, i, &want, &st)) continue;
        ++decided;
        if (y[size_t(i)] != want) ++wrong;
      }
      CHECK(wrong == 0);
      CHECK(decided == plan.out_elems);
    };
    switch (c.type) {
      case DType::UInt8: check(uint8_t{}); break;
      case DType::Int8: check(int8_t{}); break;
      case DType::UInt16: check(uint16_t{}); break;
      case DType::Int16: check(int16_t{}); break;
      case DType::Int32: check(int32_t{}); break;
      case DType::UInt32: check(uint32_t{}); break;
      default: check(int64_t{}); break;
    }
  }
}

// Cubic antialias plans of long axes (480 outputs of 16 taps). Where the plan is exact in
// double (4x and 2x: a = -3/4 and the half_pixel centres give multiples of 2^-13 and 2^-10)
// resize_exact_eps finds it up front from one period of each axis's outputs (one output
// here: output_period), so its bound in double is 0 and the recheck's sum decides the exact
// ties; with exclude_outside the edge outputs differ, the axes have no period and are past
// that test's limit, so the bound stays and resize_exact_in_double tests the plan once 16
// outputs were left undecided; elsewhere (2.5x; 6/5, whose outputs 2, 7, 12, ... are centred
// between two inputs: exact ties in thirds, which a double sum misses by its rounding, so
// that deciding them from it fails the case) the big integers decide. X: columns of 5
// alternating between two values 101 apart, so that outputs centred on an edge are exact
// ties, and noise in the last row. Every output against resize_exact_slow's big integers.
TEST_CASE("exact: ties of long cubic antialias plans are decided in double where it is exact", "[resize][exact]") {
  struct Case {
    int64_t in[2], out[2];
    bool dyadic, exclude;
  };
  const Case cases[] = {{{16, 1920}, {4, 480}, true, false}, {{8, 2048}, {4, 1024}, true, false},
                        {{10, 1920}, {4, 768}, false, false}, {{10, 1920}, {4, 1600}, false, false},
                        {{16, 1920}, {4, 480}, false, true}, {{8, 2048}, {4, 1024}, false, true}};
  Rng rng(59);
  for (const Case& c : cases) {
    ResizeAttrs at;
    at.mode = ResizeMode::Cubic;
    at.antialias = true;
    at.exclude_outside = c.exclude;
    ResizePlan plan;
    plan_2d(at, DType::UInt8, c.in, c.out, &plan);
    INFO(c.in[0] << "x" << c.in[1] << " -> " << c.out[0] << "x" << c.out[1]);
    std::vector<uint8_t> x(size_t(c.in[0] * c.in[1])), y(size_t(plan.out_elems));
    for (int64_t r = 0; r < c.in[0]; ++r)
      for (int64_t j = 0; j < c.in[1]; ++j)
        x[size_t(r * c.in[1] + j)] = r + 1 == c.in[0] ? uint8_t(rng.range(0, 255)) : uint8_t(((j / 5) % 2) * 101 + 3);
    TensorView xv = osw_test::view(DType::UInt8, 2, c.in, x.data());
    double eps_d = 0;
    ExactTaps* cache = nullptr;
    resize_exact_eps(plan, xv, &eps_d, nullptr, &cache);
    resize_exact_taps_free(cache);
    INFO("exclude_outside " << c.exclude << ", eps_d " << eps_d);
    if (c.dyadic) CHECK(eps_d == 0);  // (exact in double: found from one output per axis)
    else CHECK(eps_d > 0);            // (each tie decided on its own)
    REQUIRE(run_plan(plan, DType::UInt8, x.data(), y.data()).ok());
    // the plan's double sums (exact where dyadic), to count the ties the case holds
    int64_t ties = 0;
    const AxisPlan &a0 = plan.axis[0], &a1 = plan.axis[1];
    for (int64_t o0 = 0; o0 < plan.out_dims[0]; ++o0)
      for (int64_t o1 = 0; o1 < plan.out_dims[1]; ++o1) {
        double s = 0;
        for (int k = 0; k < a0.count[o0]; ++k)
          for (int j = 0; j < a1.count[o1]; ++j)
            s += a0.weight[o0 * a0.taps + k] * a1.weight[o1 * a1.taps + j] *
                 x[size_t(a0.index[o0 * a0.taps + k] * c.in[1] + a1.index[o1 * a1.taps + j])];
        if (s - std::floor(s) == 0.5) ++ties;
      }
    if (c.dyadic) CHECK(ties >= plan.out_elems / 20);
    std::vector<uint8_t> slow(y.size());
    for (size_t i = 0; i < y.size(); ++i) slow[i] = uint8_t(y[i] + 1);
    TensorView sv = osw_test::view(DType::UInt8, 2, plan.out_dims, slow.data());
    for (int64_t i = 0; i < plan.out_elems; ++i) resize_exact_slow(plan, xv, &sv, i, double(y[size_t(i)]), nullptr);
    int64_t wrong = 0;
    for (size_t i = 0; i < y.size(); ++i) wrong += y[i] != slow[i];
    CHECK(wrong == 0);
  }
}

// Each output's exact denominator (resize_exact_den, reduced by the gcd of its numerators)
// against the reference's, on every output of linear antialias axes of random lengths:
// the library computes one period of the outputs (their exact coordinates repeat their
// fractional parts every q outputs, q the reduced step of the coordinate) and the reference
// each output on its own. exclude_outside (no period: edge outputs drop taps) is drawn too.
TEST_CASE("exact: output denominators repeat with the coordinate's period", "[resize][exact]") {
  Rng rng(41);
  int64_t checked = 0, periodic = 0;
  for (int c = 0; c < 600; ++c) {
    ResizeAttrs at;
    at.mode = ResizeMode::Linear;
    at.antialias = true;
    at.exclude_outside = rng.range(0, 4) == 0;
    at.coord = rng.pick({CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric,
                         CoordMode::AlignCorners});
    const int64_t in = rng.range(3, 400);
    ResizeInputs inputs;
    inputs.has_sizes = true;
    inputs.n_axes = 1;
    inputs.sizes[0] = rng.range(2, in - 1);
    ResizePlan plan;
    ResizeOptions opts;
    opts.type = DType::UInt8;
    REQUIRE(resize_plan(at, inputs, 1, &in, &plan, opts).ok());
    ExactTaps* cache = resize_exact_taps_new(plan);
    REQUIRE(cache != nullptr);
    const int64_t out = plan.out_dims[0];
    for (int64_t o = 0; o < out; ++o) {
      const AxisRef r = axis_ref(plan, 0, o);
      if (!r.ok) continue;
      i128 g = r.den < 0 ? -r.den : r.den;
      for (const Tap& t : r.taps)
        for (i128 b = t.k < 0 ? -t.k : t.k; b != 0;) {
          const i128 m = g % b;
          g = b;
          b = m;
        }
      const i128 want = (r.den < 0 ? -r.den : r.den) / g;
      const int64_t idx[1] = {o};
      const double d = resize_exact_den(plan, idx, cache);
      if (!(d < 0x1p62)) continue;
      INFO("case " << c << ": " << in << " -> " << out << " coord " << int(at.coord) << " exclude_outside "
                   << at.exclude_outside << ", output " << o);
      CHECK(double(want) == std::nearbyint(d / (1 + 0x1p-40)));
      ++checked;
    }
    // (a period shorter than the axis: half_pixel and asymmetric steps in / out)
    int64_t ga = in, gb = out;
    while (gb != 0) { const int64_t m = ga % gb; ga = gb; gb = m; }
    periodic += !at.exclude_outside && ga > 1 && at.coord != CoordMode::AlignCorners;
    resize_exact_taps_free(cache);
  }
  CHECK(checked > 20000);
  INFO("periodic cases " << periodic);
  CHECK(periodic > 100);
}
