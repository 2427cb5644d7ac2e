// test_resize_kernels.cpp: the SIMD kernels of Resize against the scalar passes, bit for
// bit (innermost and channels-last passes, two- and three-phase upsampling, row blending).
// Compiled only where SIMD is (OSW_HAVE_SIMD).
#include "resize_cases.h"

#if OSW_HAVE_SIMD
namespace {
// The SIMD pass against the scalar one on random axes: inner in [inner_lo, inner_hi]; with
// `ranges`, each call computes one random range of outputs [o_begin, o_end) (as the streamed
// passes call it), nearest taken as cubic, and the outputs outside the range must stay as
// they were; without, all outputs, nearest taken as linear.
template <typename F, typename Tout = F>
void simd_matches_scalar(uint64_t seed, int64_t inner_lo = 1, int64_t inner_hi = 37, bool ranges = false) {
  Rng r(seed);
  for (int c = 0; c < (ranges ? 600 : 300); ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = ranges ? ResizeMode::Cubic : ResizeMode::Linear;
    AxisGeometry g = ranges ? axis_sizes(r.range(1, 20), r.range(1, 20)) : axis_sizes(r.range(1, 12), r.range(1, 12));
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    const int64_t outer = r.range(1, 3), inner = r.range(inner_lo, inner_hi);
    const int64_t o_begin = ranges ? r.range(0, g.out - 1) : 0;
    const int64_t o_end = ranges ? r.range(o_begin + 1, g.out) : -1;
    // Exactly the rows' elements: anything read past them would be outside the vector.
    std::vector<F> x(static_cast<size_t>(outer * g.in * inner));
    for (F& v : x) v = !ranges || r.coin() ? F(r.real(-100, 100)) : F(r.range(-3, 3));
    if constexpr (std::is_same<Tout, uint8_t>::value)  // saturation, rounding and its ties
      for (F& v : x) v = r.coin() ? F(r.real(-20, 280)) : F(double(r.range(-2, 257)) + 0.5);
    std::vector<Tout> ys(static_cast<size_t>(outer * g.out * inner), Tout(7)), yv(ys.size(), Tout(7));
    const F* w;
    if constexpr (std::is_same<F, float>::value) w = p.weight_f.data();
    else w = p.weight.data();
    resize_pass_scalar<F, Tout, F>(x.data(), ys.data(), outer, inner, p, w, o_begin, o_end);
    resize_pass_simd<F, Tout, F>(x.data(), yv.data(), outer, inner, p, w, o_begin, o_end);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (!ranges && p.outside[(i / size_t(inner)) % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(Tout)) == 0);
    }
  }
}
}  // namespace

TEST_CASE("resize kernel: innermost-axis SIMD pass equals the scalar pass bit for bit", "[resize][kernels]") {
  Rng r(6);
  int blocks_seen = 0;
  for (int c = 0; c < 400; ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = ResizeMode::Cubic;
    if (r.coin()) at.antialias = false;
    AxisGeometry g = r.coin() ? axis_sizes(r.range(8, 40), r.range(4, 90))
                              : axis_scale(r.range(8, 40), float(r.pick({1.0, 1.5, 2.0, 3.0, 0.9, 4.0})));
    g.roi_start = r.real(-0.1, 0.3);
    g.roi_end = r.real(0.7, 1.1);
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    if (p.blocks == 0) continue;
    for (int64_t b = 0; b < p.blocks; ++b) blocks_seen += p.blk_base[b] >= 0;
    const int64_t outer = r.range(1, 3);
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    // Specials: NaN, Inf and -0.0 must stay where the scalar loop puts them.
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = NAN;
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = INFINITY;
    x[size_t(r.range(0, int64_t(x.size()) - 1))] = -0.0f;
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    resize_pass_inner_simd(x.data(), yv.data(), outer, p);
    INFO("case " << c);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (p.outside[i % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
    }
  }
  CHECK(blocks_seen > 1000);  // the SIMD form was really exercised
}

TEST_CASE("resize kernel: dense innermost blocks equal the scalar pass bit for bit", "[resize][kernels]") {
  // Upsampling and mild downsampling, linear and cubic: mostly dense blocks.
  Rng r(61);
  int64_t dense_seen = 0, pairs_seen = 0;
  for (int c = 0; c < 300; ++c) {
    ResizeAttrs at;
    at.mode = r.coin() ? ResizeMode::Linear : ResizeMode::Cubic;
    at.coord = static_cast<CoordMode>(r.range(0, 4));
    at.cubic_a = r.pick({-0.75, -0.5});
    const int64_t in = r.range(8, 70);
    AxisGeometry g = r.coin() ? axis_sizes(in, r.range(in - in / 4, 3 * in))
                              : axis_scale(in, float(r.pick({1.0, 1.25, 2.0, 3.0, 0.8, 4.0})));
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    if (p.blocks == 0) continue;
    dense_seen += p.blocks_dense;
    pairs_seen += p.pairs;
    const int64_t outer = r.range(1, 3);
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    for (int s = 0; s < 3; ++s) x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f, 0.0f});
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    resize_pass_inner_simd(x.data(), yv.data(), outer, p);
    INFO("case " << c << " in " << g.in << " out " << g.out);
    for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
  }
  CHECK(dense_seen > 2000);
  CHECK(pairs_seen > 50);  // the two-phase form of 2x upsampling was reached
}

TEST_CASE("resize kernel: 2x upsampling takes the two-phase pairs, equal to the scalar pass", "[resize][kernels]") {
  // Fixed plans (the random draws above differ between standard libraries): every 2x
  // half_pixel / pytorch_half_pixel / asymmetric axis of 16 or more inputs has pairs in its
  // interior (all but one pair at the start and two at the end, whose 8-input loads or
  // windows would leave the input). Asymmetric: the even outputs are copies of x[m] (one
  // tap: pair_k0 = 1), the odd ones start at m (linear) or m - 1 (cubic). Innermost rows
  // and channels-last pixels of 3 and 4 floats.
  Rng r(62);
  for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
    for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric}) {
      for (int64_t in = 16; in <= 49; ++in) {
        ResizeAttrs at;
        at.mode = m;
        at.coord = cm;
        AxisPlan p;
        REQUIRE(build_axis_plan(at, axis_sizes(in, 2 * in), &p).ok());
        INFO("mode " << int(m) << " coord " << int(cm) << " in " << in);
        CHECK(p.pairs >= p.blocks / 2 - 3);
        const bool asym = cm == CoordMode::Asymmetric;
        CHECK(p.pair_k0 == (asym ? 1 : p.taps));
        CHECK(p.pair_dt == (!asym ? 1 : m == ResizeMode::Linear ? 0 : -1));
        std::vector<float> x(static_cast<size_t>(2 * in));
        for (float& v : x) v = float(r.real(-100, 100));
        x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        std::vector<float> ys(static_cast<size_t>(2 * p.out)), yv(ys.size());
        resize_pass_scalar<float, float, float>(x.data(), ys.data(), 2, 1, p, p.weight_f.data());
        resize_pass_inner_simd(x.data(), yv.data(), 2, p);
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
        // channels-last pixels of 3 and 4 floats (resize_pass_channels' pairs)
        for (int64_t C = 3; C <= 4; ++C) {
          std::vector<float> xc(static_cast<size_t>(in * C));
          for (float& v : xc) v = float(r.real(-100, 100));
          xc[size_t(r.range(0, int64_t(xc.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
          std::vector<float> yc(static_cast<size_t>(p.out * C), 7.0f), ycv(yc.size(), 7.0f);
          resize_pass_scalar<float, float, float>(xc.data(), yc.data(), 1, C, p, p.weight_f.data());
          resize_pass_simd<float, float, float>(xc.data(), ycv.data(), 1, C, p, p.weight_f.data());
          INFO("C " << C);
          for (size_t i = 0; i < yc.size(); ++i) REQUIRE(std::memcmp(&yc[i], &ycv[i], sizeof(float)) == 0);
        }
      }
    }
  }
}

TEST_CASE("resize kernel: 1.5x linear upsampling takes the three-phase triples (innermost and channels-last), equal to the scalar pass", "[resize][kernels]") {
  // Every 1.5x half_pixel / pytorch_half_pixel axis of 18 or more inputs has triples in its
  // interior (whose windows, counts and weights repeat every 12 outputs and 8 inputs); the
  // other modes keep the blocks (asymmetric: every third output is one input, one tap).
  // Bytes equal to the scalar pass with NaN, Inf and -0.0 in X, on rows whose last element
  // is the input's last (a load past it would leave the vector: ASan).
  Rng r(63);
  int64_t tris = 0;
  for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::Asymmetric,
                       CoordMode::AlignCorners}) {
    for (int64_t in = 8; in <= 61; ++in) {
      ResizeAttrs at;
      at.mode = ResizeMode::Linear;
      at.coord = cm;
      const bool sizes = in % 2 == 0;
      AxisPlan p;
      REQUIRE(build_axis_plan(at, sizes ? axis_sizes(in, 3 * in / 2) : axis_scale(in, 1.5f), &p).ok());
      INFO("coord " << int(cm) << " in " << in << " out " << p.out << " triples " << p.tris << " of " << p.blocks / 3);
      if (in >= 18 && (cm == CoordMode::HalfPixel || cm == CoordMode::PytorchHalfPixel)) {
        // all but the first (its first output is clamped) and perhaps the last (whose loads
        // of 8 inputs from every phase's start would pass the input's end)
        CHECK(p.tris >= p.blocks / 3 - 2);
        CHECK(p.tri_t[1] == 1);
        CHECK(p.tri_t[2] == 2);
      }
      tris += p.tris;
      for (int rep = 0; rep < 2; ++rep) {
        std::vector<float> x(static_cast<size_t>(in));
        for (float& v : x) v = float(r.real(-100, 100));
        for (int s = 0; s < 2; ++s) x[size_t(r.range(0, in - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        std::vector<float> ys(static_cast<size_t>(p.out)), yv(ys.size());
        resize_pass_scalar<float, float, float>(x.data(), ys.data(), 1, 1, p, p.weight_f.data());
        resize_pass_inner_simd(x.data(), yv.data(), 1, p);
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
      }
      // Channels-last rows (C = 3, 4: the triples of resize_pass_channels), whole and in
      // output ranges [o0, o1) as threads split them: every element of the range equal to
      // the scalar pass's, none outside it written (a C = 3 triple ending at o1 would write
      // the 4th lane of its last 16-byte store into output o1).
      for (int C : {3, 4}) {
        std::vector<float> x(static_cast<size_t>(in * C));
        for (float& v : x) v = float(r.real(-100, 100));
        for (int s = 0; s < 2; ++s) x[size_t(r.range(0, in * C - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f});
        for (int rep = 0; rep < 4; ++rep) {
          const int64_t o0 = rep == 0 ? 0 : r.range(0, p.out - 1);
          const int64_t o1 = rep == 0 ? p.out : r.range(o0 + 1, p.out);
          std::vector<float> ys(static_cast<size_t>(p.out * C), 7.0f), yv(ys.size(), 7.0f);
          Buffer<float> strip;
          resize_pass_scalar<float, float, float>(x.data(), ys.data(), 1, C, p, p.weight_f.data(), o0, o1);
          resize_pass<float, float, float>(x.data(), yv.data(), 1, C, p, p.weight_f.data(), &strip,
                                           kDefaultMaxBytes, o0, o1);
          INFO("C " << C << " outputs " << o0 << " .. " << o1);
          for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
        }
      }
    }
  }
  CHECK(tris > 250);
}

TEST_CASE("resize kernel: float64 2x upsampling's two-phase pairs equal the scalar pass, in output ranges", "[resize][kernels]") {
  // The double inner pass (float64 X, and the integer types that compute in double) takes
  // the pairs where their double weights match (pairs_d; asymmetric: even outputs of one
  // tap, pair_k0 = 1); resize_pass picks it, and its bytes, NaN, Inf and -0 included, are
  // the scalar loop's, for whole rows and for the output ranges a threaded split gives it.
  Rng r(63);
  int64_t pairs_seen = 0;
  Buffer<float> strip;
  for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
    for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::PytorchHalfPixel, CoordMode::AlignCorners,
                         CoordMode::Asymmetric}) {
      for (int64_t in = 8; in <= 41; ++in) {
        ResizeAttrs at;
        at.mode = m;
        at.coord = cm;
        at.cubic_a = r.pick({-0.75, -0.5});
        AxisPlan p;
        REQUIRE(build_axis_plan(at, axis_sizes(in, 2 * in), &p).ok());
        if (cm != CoordMode::AlignCorners && in >= 16) CHECK(p.pairs_d >= p.blocks / 2 - 3);
        pairs_seen += p.pairs_d;
        const int64_t outer = r.range(1, 3);
        std::vector<double> x(static_cast<size_t>(outer * in));
        for (double& v : x) v = r.real(-100, 100);
        for (int k = 0; k < 3; ++k)
          x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({double(NAN), double(INFINITY), -0.0, 0.0});
        int64_t ob = 0, oe = p.out;
        if (r.coin()) {
          ob = r.range(0, p.out - 1);
          oe = r.range(ob + 1, p.out);
        }
        std::vector<double> ys(static_cast<size_t>(outer * p.out), 7.0), yv(ys.size(), 7.0);
        resize_pass_scalar<double, double, double>(x.data(), ys.data(), outer, 1, p, p.weight.data(), ob, oe);
        resize_pass<double, double, double>(x.data(), yv.data(), outer, 1, p, p.weight.data(), &strip, kDefaultMaxBytes, ob, oe);
        INFO("mode " << int(m) << " coord " << int(cm) << " in " << in << " outputs [" << ob << ", " << oe << ")");
        for (size_t i = 0; i < ys.size(); ++i) REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(double)) == 0);
      }
    }
  }
  CHECK(pairs_seen > 200);
}

TEST_CASE("resize kernel: the 4-row transposed innermost pass equals the scalar pass bit for bit", "[resize][kernels]") {
  Rng r(62);
  int64_t unrolled_seen = 0;  // groups of 4 outputs that take the unrolled consecutive form
  bool k_seen[9] = {};  // by the fixed cases below
  bool fixed = false;
  Buffer<float> strip;  // the kernel's strip, kept between calls as a workspace keeps it
  auto check = [&](const ResizeAttrs& at, const AxisGeometry& g, int64_t outer) {
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    std::vector<float> x(static_cast<size_t>(outer * g.in));
    for (float& v : x) v = float(r.real(-100, 100));
    for (int s = 0; s < 3 && !x.empty(); ++s)
      x[size_t(r.range(0, int64_t(x.size()) - 1))] = r.pick({float(NAN), float(INFINITY), -0.0f, 0.0f});
    std::vector<float> ys(static_cast<size_t>(outer * g.out)), yv(ys.size());
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, 1, p, p.weight_f.data());
    REQUIRE(resize_pass_inner_rows4(x.data(), yv.data(), outer, p, &strip, kDefaultMaxBytes));
    INFO("in " << g.in << " out " << g.out << " outer " << outer << " taps " << p.taps);
    for (size_t i = 0; i < ys.size(); ++i) {
      if (p.outside[i % size_t(g.out)]) continue;  // filled later
      REQUIRE(std::memcmp(&ys[i], &yv[i], sizeof(float)) == 0);
    }
    if (p.consecutive.size() > 0 && outer >= 4 && p.taps <= 8) {
      for (int64_t o = 0; o + 4 <= g.out; o += 4) {
        const int K = p.taps;  // (the unrolled form: all four outputs of K consecutive taps)
        if (p.consecutive[o] == K && p.consecutive[o + 1] == K && p.consecutive[o + 2] == K &&
            p.consecutive[o + 3] == K) {
          ++unrolled_seen;
          if (fixed) k_seen[p.taps] = true;
        }
      }
    }
  };
  for (int c = 0; c < 400; ++c) {
    ResizeAttrs at = random_attrs(r);
    if (at.mode == ResizeMode::Nearest) at.mode = r.coin() ? ResizeMode::Linear : ResizeMode::Cubic;
    AxisGeometry g = r.coin() ? axis_sizes(r.range(1, 40), r.range(1, 90))
                              : axis_scale(r.range(1, 40), float(r.pick({1.0, 1.5, 2.0, 0.3, 0.9, 0.25})));
    g.roi_start = r.real(-0.1, 0.3);
    g.roi_end = r.real(0.7, 1.1);
    if (r.range(0, 9) == 0) std::swap(g.roi_start, g.roi_end);  // a flipped crop box
    INFO("case " << c);
    check(at, g, r.range(1, 11));
  }
  fixed = true;
  // Plans with 2 to 8 taps (linear and cubic at 0.6, antialias downsampling), whatever the
  // random cases drew (the standard library's distributions differ between the wasm and
  // native builds).
  for (double scale : {0.6, 0.5, 0.34, 0.3, 0.25}) {
    for (ResizeMode m : {ResizeMode::Linear, ResizeMode::Cubic}) {
      ResizeAttrs at;
      at.mode = m;
      at.antialias = scale < 0.6;
      INFO("scale " << scale << " antialias " << at.antialias);
      check(at, axis_scale(64, float(scale)), 7);
    }
  }
  CHECK(unrolled_seen > 100);
  for (int k : {2, 4, 6, 8}) {
    INFO("taps " << k);
    CHECK(k_seen[k]);
  }
}

namespace {
template <typename T>
void blend_matches_scalar(uint64_t seed) {
  Rng r(seed);
  for (int c = 0; c < 300; ++c) {
    const int n = int(r.range(0, 4));
    const int64_t len = r.range(0, 70);
    std::vector<std::vector<float>> rows(4, std::vector<float>(size_t(len) + 1));
    const float* rp[4];
    float w[4];
    for (int k = 0; k < 4; ++k) {
      for (float& v : rows[k]) v = r.coin() ? float(r.range(-40, 300)) + 0.5f : float(r.real(-300, 70000));
      if (len > 0) rows[k][size_t(r.range(0, len - 1))] = r.pick({float(NAN), float(INFINITY), -float(INFINITY), -0.0f});
      rp[k] = rows[k].data();
      w[k] = float(r.pick({0.25, 0.75, 0.5, 1.0, -0.125, 1.125}));
    }
    // One spare element: data() is never null, even for len 0.
    std::vector<T> got(static_cast<size_t>(len) + 1), want(static_cast<size_t>(len) + 1);
    blend_rows_into<T, float>(rp, w, n, got.data(), len);
    for (int64_t j = 0; j < len; ++j) {
      float acc = n > 0 ? w[0] * rp[0][j] : 0.0f;
      for (int k = 1; k < n; ++k) acc += w[k] * rp[k][j];
      want[size_t(j)] = n > 0 ? narrow<T>(acc) : T(0);
    }
    INFO("case " << c << " n " << n << " len " << len);
    REQUIRE(std::memcmp(got.data(), want.data(), sizeof(T) * size_t(len)) == 0);
  }
}

// Rows of uint8 (X itself, streamed by stream_outer_then_inner) blended into T.
template <typename T>
void blend_u8_rows_matches_scalar(uint64_t seed) {
  Rng r(seed);
  for (int c = 0; c < 300; ++c) {
    const int n = int(r.range(0, 4));
    const int64_t len = r.range(0, 70);
    std::vector<std::vector<uint8_t>> rows(4, std::vector<uint8_t>(size_t(len) + 1));
    const uint8_t* rp[4];
    float w[4];
    for (int k = 0; k < 4; ++k) {
      for (uint8_t& v : rows[k]) v = uint8_t(r.range(0, 255));
      rp[k] = rows[k].data();
      w[k] = float(r.pick({0.25, 0.75, 0.5, 1.0, -0.125, 1.125, 0.3}));
    }
    std::vector<T> got(static_cast<size_t>(len) + 1), want(static_cast<size_t>(len) + 1);
    blend_rows_into<T, float>(rp, w, n, got.data(), len);
    for (int64_t j = 0; j < len; ++j) {
      float acc = n > 0 ? w[0] * float(rp[0][j]) : 0.0f;
      for (int k = 1; k < n; ++k) acc += w[k] * float(rp[k][j]);
      want[size_t(j)] = n > 0 ? narrow<T>(acc) : T(0);
    }
    INFO("case " << c << " n " << n << " len " << len);
    REQUIRE(std::memcmp(got.data(), want.data(), sizeof(T) * size_t(len)) == 0);
  }
}
}  // namespace

TEST_CASE("resize kernel: uint8 rows blended into float or uint8 equal the scalar loop", "[resize][kernels]") {
  blend_u8_rows_matches_scalar<float>(75);
  blend_u8_rows_matches_scalar<uint8_t>(76);
}

TEST_CASE("resize kernel: row blending (16-lane uint8 stores included) equals the scalar loop", "[resize][kernels]") {
  blend_matches_scalar<uint8_t>(71);
  blend_matches_scalar<float>(74);
  Rng r(75);
  for (int c = 0; c < 50; ++c) {
    const int64_t len = r.range(0, 100);
    std::vector<uint8_t> x(static_cast<size_t>(len));
    for (uint8_t& v : x) v = uint8_t(r.range(0, 255));
    std::vector<float> y(static_cast<size_t>(len));
    widen_row<uint8_t, float>(x.data(), y.data(), len);
    for (int64_t j = 0; j < len; ++j) REQUIRE(y[size_t(j)] == float(x[size_t(j)]));
  }
}

TEST_CASE("resize kernel: SIMD pass equals the scalar pass bit for bit", "[resize][kernels]") {
  simd_matches_scalar<float>(4);
  simd_matches_scalar<double>(5);
}

TEST_CASE("resize kernel: channels-last rows of 3 and 4 floats equal the scalar pass, in output ranges", "[resize][kernels]") {
  simd_matches_scalar<float>(41, 3, 4, true);
  // Wide antialias windows (K > 8, as 1080p -> 270p cubic has 16 taps): the run loop
  // (channels_runs) for outputs whose taps are consecutive, the general loop for the rest
  // (taps of weight 0 dropped at integer scales), in output ranges.
  Rng r(42);
  int64_t long_runs = 0, gaps = 0;
  for (int c = 0; c < 200; ++c) {
    ResizeAttrs at = random_attrs(r);
    at.mode = r.coin() ? ResizeMode::Cubic : ResizeMode::Linear;
    at.antialias = true;
    const int64_t out = r.range(2, 12);
    const AxisGeometry g = r.coin() ? axis_sizes(out * r.range(3, 8), out) : axis_sizes(r.range(30, 120), out);
    AxisPlan p;
    REQUIRE(build_axis_plan(at, g, &p).ok());
    for (int64_t o = 0; o < p.out && p.consecutive.size() > 0; ++o) {
      long_runs += p.consecutive[o] > 8;
      gaps += p.consecutive[o] == 0 && p.count[o] > 8;
    }
    const int64_t C = r.range(3, 4), outer = r.range(1, 3);
    const int64_t o_begin = r.range(0, g.out - 1), o_end = r.range(o_begin + 1, g.out);
    std::vector<float> x(static_cast<size_t>(outer * g.in * C));  // nothing past the rows
    for (float& v : x) v = float(r.real(-100, 100));
    std::vector<float> ys(static_cast<size_t>(outer * g.out * C), 7.0f), yv(ys.size(), 7.0f);
    resize_pass_scalar<float, float, float>(x.data(), ys.data(), outer, C, p, p.weight_f.data(), o_begin, o_end);
    resize_pass_simd<float, float, float>(x.data(), yv.data(), outer, C, p, p.weight_f.data(), o_begin, o_end);
    INFO("case " << c << " in " << g.in << " out " << g.out << " K " << p.taps << " C " << C);
    REQUIRE(std::memcmp(ys.data(), yv.data(), sizeof(float) * ys.size()) == 0);
  }
  CHECK(long_runs > 500);  // runs of more than 8 taps were taken
  CHECK(gaps > 50);        // and windows with gaps, at integer scales
}

TEST_CASE("resize kernel: float rows of 3 channels stored as uint8 equal the scalar pass, in output ranges", "[resize][kernels]") {
  simd_matches_scalar<float, uint8_t>(43, 3, 3, true);
  simd_matches_scalar<float, uint8_t>(44, 1, 9, true);
}
#endif
