// test_gridsample_kernels.cpp: GridSample kernels against the reference on random N-D
// inputs, the 2-D nearest and float32 fast paths (documented sums, taps read), and their
// scalar and SIMD twins bit for bit.
#include "gridsample_cases.h"

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
