// test_gs_exact.cpp: GridSample's integer outputs round as their exact value does
// (docs/semantics.md "integer outputs decided exactly").
//
// A reference of its own, in __int128: each grid value is the exact dyadic rational its
// float32 / float64 is, P / 2^s; the coordinate ((g + 1) L - 1) / 2 or (g + 1) (L - 1) / 2
// an exact fraction over 2^(s+1) (under compat 'onnxruntime': the double its float32
// formula gives, gs::axis_taps_ort's); border clamps it and reflection reflects it exactly
// (linear), or the integer taps are padded (cubic); linear weights (Q - t, t) / Q and
// Keys' cubic (a = -3/4) over 4 Q^3. Grid values are drawn on coarse dyadic steps (exact
// ties: weights like 1/2, 1/4), next to them by a few float32 ulps (values within float
// error of a boundary, on either side), or anywhere; every output of every integer type and
// compat rounding, ranks 1 and 2, must equal the exact rounding of its exact value. With
// the float values rounded as they came (before the exact decision), uint8 and 32-bit
// draws include misrounded outputs.
#include <catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "gridsample/gridsample.h"
#include "test_exact_ref.h"
#include "test_rng.h"

using namespace osw;

namespace {

using namespace exact_ref;

// p reflected into [lo, hi] (integers in units of 1 / Q).
i128 reflect_q(i128 p, i128 lo, i128 hi) {
  if (hi == lo) return lo;
  while (p < lo || p > hi) p = p < lo ? 2 * lo - p : 2 * hi - p;
  return p;
}

struct AxisRef {
  int n = 0;
  int64_t pos[4];
  i128 k[4];
  i128 den = 1;
};

// The exact taps of one axis of length L for grid value g.
AxisRef axis_ref(const GridSampleAttrs& at, int64_t L, double g, bool g_f32) {
  AxisRef r;
  i128 P, Q;
  if (at.ort) {
    // ONNX Runtime's coordinate, in its float32 arithmetic (the drawn grids are far from
    // its NaN / huge replacement)
    auto f = [g_f32](double v) { return g_f32 ? double(float(v)) : v; };
    const double x = at.align_corners ? f(f(f(g + 1.0) / 2.0) * f(double(L - 1)))
                                      : f(f(f(f(g + 1.0) * f(double(L))) - 1.0) / 2.0);
    dyadic(x, &P, &Q);
  } else {
    i128 gp, gq;
    dyadic(g, &gp, &gq);
    Q = 2 * gq;
    P = at.align_corners ? (gp + gq) * (L - 1) : (gp + gq) * L - gq;
  }
  const bool cubic = at.mode == GridMode::Cubic;
  if (!at.ort && !cubic && at.padding == PaddingMode::Border) {
    if (P < 0) P = 0;
    if (P > (L - 1) * Q) P = (L - 1) * Q;
  }
  if (!at.ort && !cubic && at.padding == PaddingMode::Reflection) {
    const i128 lo = at.align_corners ? 0 : -Q / 2, hi = at.align_corners ? (L - 1) * Q : L * Q - Q / 2;
    P = reflect_q(P, lo, hi);
  }
  const i128 f = fdiv(P, Q), t = P - f * Q;
  i128 k[4];
  int64_t first;
  int n;
  if (!cubic) {
    k[0] = Q - t;
    k[1] = t;
    first = int64_t(f);
    n = 2;
    r.den = Q;
  } else {
    const i128 u[4] = {t + Q, t, Q - t, 2 * Q - t};
    for (int i = 0; i < 4; ++i) k[i] = keys(u[i], Q, -3, 4);  // a = -3/4
    first = int64_t(f) - 1;
    n = 4;
    r.den = 4 * Q * Q * Q;
  }
  for (int i = 0; i < n; ++i) {
    if (k[i] == 0) continue;
    int64_t p = first + i;
    if (at.padding == PaddingMode::Zeros) {
      if (p < 0 || p >= L) continue;
    } else if (at.padding == PaddingMode::Border) {
      p = p < 0 ? 0 : (p >= L ? L - 1 : p);
    } else {  // an integer reflected about -1/2, L - 1/2 (or 0, L - 1): units of 1/2
      p = int64_t(reflect_q(2 * i128(p), at.align_corners ? 0 : -1, at.align_corners ? 2 * (L - 1) : 2 * L - 1) / 2);
    }
    int m = 0;
    while (m < r.n && r.pos[m] != p) ++m;
    if (m == r.n) {
      r.pos[m] = p;
      r.k[m] = 0;
      ++r.n;
    }
    r.k[m] += k[i];
  }
  return r;
}

// num / den rounded by the compat's rule (0 half to even, 1 toward zero, 2 half up); counts
// where it lies against its boundary.
i128 round_ref(i128 num, i128 den, int rule, Stats* st) {
  const i128 f = fdiv(num, den), r = num - f * den;
  const i128 d = rule == 1 ? (2 * r > den ? r - den : r) : 2 * r - den;  // distance * den (* 2)
  if (d == 0 && (rule != 1 || f != 0)) ++st->ties;
  else if (d > 0 && d * 512 < den) ++st->above;
  else if (d < 0 && -d * 512 < den) ++st->below;
  if (rule == 1) return (f < 0 && r != 0) ? f + 1 : f;
  if (rule == 2) return 2 * r >= den ? f + 1 : f;
  return 2 * r > den ? f + 1 : (2 * r < den ? f : f + (f & 1));
}

// A grid value on a coarse dyadic step 2^-m (m <= steps: coordinates on steps of L / 2^(m+1)
// of a pixel, so exact ties of linear or cubic weights now and then), a few units of
// 2^-fine beside one (values within float error of a boundary, on either side), or any
// multiple of 2^-fine in [-1.2, 1.2]. Every one is exact in float32, and the reference's
// denominators stay within __int128.
double draw_grid(Rng& rng, int fine, int steps, double span, int nudge) {
  const int m = int(rng.range(1, steps));
  const int64_t lim = int64_t(span * std::ldexp(1.0, m));
  double g = std::ldexp(double(rng.range(-lim, lim)), -m);
  const double unit = std::ldexp(1.0, -fine);
  const int kind = int(rng.range(0, 3));
  if (kind == 2) g += double(rng.range(-3, 3)) * std::ldexp(1.0, -nudge);
  if (kind == 3) g = double(rng.range(-int64_t(1.2 / unit), int64_t(1.2 / unit))) * unit;
  return g;
}

template <typename I>
void run_cases(DType type, uint64_t seed, int cases, Stats (*per)[2]) {
  Rng rng(seed);
  for (int c = 0; c < cases; ++c) {
    GridSampleAttrs at;
    const int rule = int(rng.range(0, 2));
    at.integer_rounding = rule;
    at.ort = rule == 1;
    at.mode = rng.coin() ? GridMode::Cubic : GridMode::Linear;
    at.padding = rng.pick({PaddingMode::Zeros, PaddingMode::Border, PaddingMode::Reflection});
    at.align_corners = rng.coin();
    const bool cubic = at.mode == GridMode::Cubic;
    const int r = int(rng.range(1, 2));
    const bool g_f32 = rng.range(0, 3) != 0;
    // cubic in two axes: steps of 2^-8 at the finest, so that the reference's (4 Q^3)^2 fits
    const int fine = cubic && r == 2 ? 8 : 22, steps = int(rng.range(1, 6));
    // float64 grids of one linear axis are nudged by 2^-50: values within double's error
    // of a boundary, which only the big integers decide
    const int nudge = !g_f32 && r == 1 && !cubic ? 50 : fine;
    // reflection: coordinates up to about 1.75 L, reflected once or twice
    const double span = at.padding == PaddingMode::Reflection ? 2.5 : 1.25;
    const int64_t C = rng.range(1, 3), out = rng.range(1, 12);
    int64_t len[2] = {rng.range(1, 9), rng.range(1, 9)};
    std::vector<int64_t> xd = {1, C}, gd = {1};
    for (int a = 0; a < r; ++a) xd.push_back(len[a]), gd.push_back(out);
    gd.push_back(r);
    const int64_t in_size = r == 1 ? len[0] : len[0] * len[1], out_size = r == 1 ? out : out * out;
    std::vector<I> x(size_t(C * in_size)), y(size_t(C * out_size), I(7));
    const int shape = int(rng.range(0, 2));
    for (I& v : x) {
      if (sizeof(I) <= 2 || shape == 0) {  // (64-bit: within 2^40, which the reference's products take)
        v = I(rng.range(sizeof(I) == 8 ? (std::is_signed<I>::value ? -(int64_t(1) << 40) : 0)
                                       : int64_t(std::numeric_limits<I>::min()),
                        sizeof(I) == 8 ? int64_t(1) << 40 : int64_t(std::numeric_limits<I>::max())));
      } else if (shape == 1) {  // magnitudes that make double's rounding visible
        const int64_t m = int64_t(1) << (sizeof(I) == 4 ? 31 : (cubic ? (r == 2 ? 30 : 48) : 52));
        v = I(std::is_signed<I>::value ? rng.range(-m + 1, m - 1) : rng.range(0, m - 1));
      } else {
        v = I(rng.range(0, 255));
      }
    }
    std::vector<float> gf(size_t(out_size * r));
    std::vector<double> gdb(size_t(out_size * r));
    for (int64_t j = 0; j < out_size; ++j)
      for (int k = 0; k < r; ++k) {  // component k is along spatial axis r - 1 - k
        const double g = draw_grid(rng, fine, steps, span, nudge);
        gf[size_t(j * r + k)] = float(g);
        gdb[size_t(j * r + k)] = g;
      }
    TensorView X, G, Y;
    X.type = Y.type = type;
    X.data = x.data();
    X.rank = int(xd.size());
    for (int i = 0; i < X.rank; ++i) X.dims[i] = xd[size_t(i)];
    G.type = g_f32 ? DType::Float32 : DType::Float64;
    G.data = g_f32 ? static_cast<void*>(gf.data()) : static_cast<void*>(gdb.data());
    G.rank = int(gd.size());
    for (int i = 0; i < G.rank; ++i) G.dims[i] = gd[size_t(i)];
    REQUIRE(gridsample_output_shape(X, G, &Y).ok());
    Y.type = type;
    Y.data = y.data();
    REQUIRE(gridsample(at, X, G, &Y).ok());
    Stats* st = &per[rule][cubic ? 1 : 0];
    for (int64_t j = 0; j < out_size; ++j) {
      AxisRef ax[2];
      i128 den = 1;
      for (int a = 0; a < r; ++a) {
        ax[a] = axis_ref(at, len[a], gdb[size_t(j * r + (r - 1 - a))], g_f32);
        den *= ax[a].den;
      }
      for (int64_t ch = 0; ch < C; ++ch) {
        const I* xc = x.data() + ch * in_size;
        i128 num = 0;
        if (r == 1) {
          for (int i = 0; i < ax[0].n; ++i) num += ax[0].k[i] * i128(xc[ax[0].pos[i]]);
        } else {
          for (int i = 0; i < ax[0].n; ++i)
            for (int k = 0; k < ax[1].n; ++k)
              num += ax[0].k[i] * ax[1].k[k] * i128(xc[ax[0].pos[i] * len[1] + ax[1].pos[k]]);
        }
        const I want = saturate<I>(round_ref(num, den, rule, st));
        const I got = y[size_t(ch * out_size + j)];
        ++st->outputs;
        if (got != want) {
          ++st->wrong;
          if (st->wrong <= 3)  // (on stderr: the case, for a reproduction)
            std::fprintf(stderr, "case %d r=%d rule=%d mode=%d pad=%d ac=%d f32=%d location %lld channel %lld: got %.17g, exact %.17g\n",
                         c, r, rule, int(at.mode), int(at.padding), int(at.align_corners), int(g_f32), (long long)j,
                         (long long)ch, double(got), double(want));
        }
      }
    }
  }
}

template <typename I>
void check_type(DType type, uint64_t seed, int cases) {
  Stats per[3][2];
  run_cases<I>(type, seed, cases, per);
  static const char* kRule[3] = {"half to even", "toward zero (onnxruntime)", "half up"};
  for (int c = 0; c < 3; ++c) {
    for (int m = 0; m < 2; ++m) {
      const Stats& st = per[c][m];
      INFO(dtype_name(type) << " " << kRule[c] << (m ? " cubic: " : " linear: ") << st.outputs
                            << " outputs, " << st.ties << " exactly at a boundary, " << st.below
                            << " just below (within 2^-9 of it), " << st.above << " just above");
      CHECK(st.wrong == 0);
      // The draw reaches the boundary often enough to mean something.
      CHECK(st.ties >= 20);
      CHECK(st.below >= 1);
      CHECK(st.above >= 1);
    }
  }
}

}  // namespace

TEST_CASE("exact: GridSample uint8 outputs round as their exact value", "[gridsample][exact]") {
  check_type<uint8_t>(DType::UInt8, 11, 3000);
}
TEST_CASE("exact: GridSample int8, uint16, int16 outputs round as their exact value", "[gridsample][exact]") {
  check_type<int8_t>(DType::Int8, 12, 1500);
  check_type<uint16_t>(DType::UInt16, 13, 1500);
  check_type<int16_t>(DType::Int16, 14, 1500);
}
TEST_CASE("exact: GridSample int32, uint32, int64, uint64 outputs round as their exact value", "[gridsample][exact]") {
  check_type<int32_t>(DType::Int32, 15, 1500);
  check_type<uint32_t>(DType::UInt32, 16, 1500);
  check_type<int64_t>(DType::Int64, 17, 2000);
  check_type<uint64_t>(DType::UInt64, 18, 2000);
}
