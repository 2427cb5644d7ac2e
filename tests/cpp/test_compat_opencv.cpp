// test_compat_opencv.cpp: the OpenCV compat kernels (src/imaging/opencv.cpp) against the plain
// model of tests/cpp/reference_opencv.h on random cases, and single rules pinned with values
// cv2.resize (OpenCV 4.6) gave. The full comparison with cv2 itself is
// tests/compat/oracle_opencv.py + tests/compat/check_opencv.cpp.
#include <catch.hpp>

#include <cstdint>
#include <vector>

#include "imaging/imaging.h"
#include "imaging/opencv_rules.h"
#include "reference_opencv.h"
#include "test_rng.h"

using osw::compat::CvInterp;
using osw::compat::ImageBatch;

namespace {

const CvInterp kInterps[] = {CvInterp::Nearest, CvInterp::NearestExact, CvInterp::Linear,
                             CvInterp::Cubic, CvInterp::Area};

std::vector<uint8_t> run(const std::vector<uint8_t>& x, const ImageBatch& g, double isx, double isy,
                         CvInterp i) {
  std::vector<uint8_t> y(size_t(g.count * g.out_h * g.out_w * g.channels));
  REQUIRE(osw::compat::opencv_resize_u8(x.data(), y.data(), g, isx, isy, i) == osw::compat::kOk);
  return y;
}
std::vector<float> run(const std::vector<float>& x, const ImageBatch& g, double isx, double isy,
                       CvInterp i) {
  std::vector<float> y(size_t(g.count * g.out_h * g.out_w * g.channels));
  REQUIRE(osw::compat::opencv_resize_f32(x.data(), y.data(), g, isx, isy, i) == osw::compat::kOk);
  return y;
}

// A random target: dsize (inv_scale = out / in) or fx/fy (out = cvRound(in * f)).
struct Target {
  int oh, ow;
  double isx, isy;
  bool dsize;
};
Target pick_target(Rng& r, int h, int w) {
  for (;;) {
    Target t{};
    const int form = int(r.range(0, 9));
    if (form < 5) {
      t.dsize = true;
      const int k = int(r.range(1, 4));
      switch (r.range(0, 3)) {
        case 0: t.oh = h * k, t.ow = w * k; break;                      // integer up
        case 1: t.oh = std::max(1, h / k), t.ow = std::max(1, w / k); break;  // integer-ish down
        default: t.oh = int(r.range(1, 48)), t.ow = int(r.range(1, 48));
      }
      t.isx = double(t.ow) / w, t.isy = double(t.oh) / h;
    } else {
      t.dsize = false;
      auto f = [&]() {
        return r.coin() ? r.pick<double>({0.5, 0.25, 2.0, 3.0, 1.0 / 3, 1.5, 0.75}) : r.real(0.1, 4.0);
      };
      t.isx = f();
      t.isy = r.coin() ? t.isx : f();
      t.ow = osw::compat::cvrules::round_even(w * t.isx);
      t.oh = osw::compat::cvrules::round_even(h * t.isy);
    }
    if (t.oh >= 1 && t.ow >= 1 && t.oh <= 160 && t.ow <= 160) return t;
  }
}

template <typename T>
std::vector<T> image(Rng& r, size_t n) {
  std::vector<T> x(n);
  const int kind = int(r.range(0, 2));
  for (size_t i = 0; i < n; ++i) {
    double v = kind == 0 ? r.real(0, 1) : kind == 1 ? (r.coin() ? 1.0 : 0.0) : double(i % 7) / 6;
    if (std::is_same<T, uint8_t>::value)
      x[i] = T(std::nearbyint(v * 255));
    else
      x[i] = T(v * 200 - 50);
  }
  return x;
}

template <typename T>
void random_cases(uint64_t seed, int n) {
  Rng r(seed);
  for (int i = 0; i < n; ++i) {
    const int h = int(r.range(1, 40)), w = int(r.range(1, 40)), c = int(r.range(1, 4));
    const Target t = pick_target(r, h, w);
    const CvInterp interp = kInterps[r.range(0, 4)];
    const int count = int(r.range(1, 2));
    const ImageBatch g{count, h, w, c, t.oh, t.ow};
    const auto x = image<T>(r, size_t(count) * h * w * c);
    const auto y = run(x, g, t.isx, t.isy, interp);
    for (int n2 = 0; n2 < count; ++n2) {
      const std::vector<T> xi(x.begin() + size_t(n2) * h * w * c, x.begin() + size_t(n2 + 1) * h * w * c);
      const auto want = refcv::resize(xi, h, w, c, t.oh, t.ow, t.isx, t.isy, int(interp));
      const std::vector<T> got(y.begin() + size_t(n2) * t.oh * t.ow * c, y.begin() + size_t(n2 + 1) * t.oh * t.ow * c);
      INFO("case " << i << ": interp " << int(interp) << " in " << h << "x" << w << "x" << c << " out "
                   << t.oh << "x" << t.ow << (t.dsize ? " dsize" : " fx/fy") << " isx " << t.isx
                   << " isy " << t.isy);
      REQUIRE(got == want);
    }
  }
}

}  // namespace

TEST_CASE("opencv compat: uint8 kernels equal the reference model", "[imaging][opencv]") {
  random_cases<uint8_t>(101, 1500);
}

TEST_CASE("opencv compat: float32 kernels equal the reference model", "[imaging][opencv]") {
  random_cases<float>(202, 1500);
}

// Wide rows (up to 300 pixels) for the vector forms of opencv.cpp: the horizontal pass per
// pixel (3 and 4 channels; adjacent or clamped linear taps; the scalar tail where a 4-lane load
// would pass the row's end), uint8 area with integer scales (2x2 cells of 1, 3, 4 channels by
// pairs, other cells by column sums; rows and columns cut by the border), the vertical passes
// (cubic's clamped rounding; values at 0 and 255 overshoot).
template <typename T>
void wide_cases(uint64_t seed, int n) {
  Rng r(seed);
  for (int i = 0; i < n; ++i) {
    const int c = int(r.range(1, 4));
    const int w = int(r.range(1, 300)), h = int(r.range(1, 9));
    int ow, oh;
    double isx, isy;
    CvInterp interp;
    if (r.range(0, 2) == 0) {  // area with integer scales, sizes not always multiples
      interp = r.coin() ? CvInterp::Area : CvInterp::Linear;  // LINEAR 2x down is AREA
      const int kx = interp == CvInterp::Linear ? 2 : int(r.range(1, 5));
      const int ky = interp == CvInterp::Linear ? 2 : r.coin() ? kx : int(r.range(1, 5));
      isx = 1.0 / kx, isy = 1.0 / ky;
      ow = osw::compat::cvrules::round_even(w * isx), oh = osw::compat::cvrules::round_even(h * isy);
    } else {
      interp = r.coin() ? CvInterp::Linear : r.coin() ? CvInterp::Cubic : CvInterp::Area;
      ow = int(r.range(1, 400)), oh = int(r.range(1, 12));
      isx = double(ow) / w, isy = double(oh) / h;
    }
    if (ow < 1 || oh < 1) continue;
    const ImageBatch g{1, h, w, c, oh, ow};
    const auto x = image<T>(r, size_t(h) * w * c);
    INFO("wide case " << i << ": interp " << int(interp) << " in " << h << "x" << w << "x" << c << " out "
                      << oh << "x" << ow << " isx " << isx << " isy " << isy);
    REQUIRE(run(x, g, isx, isy, interp) == refcv::resize(x, h, w, c, oh, ow, isx, isy, int(interp)));
  }
}

TEST_CASE("opencv compat: vector forms on wide rows equal the reference model", "[imaging][opencv]") {
  wide_cases<uint8_t>(303, 700);
  wide_cases<float>(404, 300);
}

TEST_CASE("opencv compat: uint8 cubic vertical formula depends on x (vector loop vs tail)", "[imaging][opencv]") {
  // cv2.resize(x, (4, 4), INTER_CUBIC) of a 2x1 image: rows of 4 elements are all OpenCV's
  // scalar tail ((sum S b + 2^21) >> 22); its float vector formula would differ.
  const std::vector<uint8_t> a = {242, 178};
  const std::vector<uint8_t> a_cv = {249, 249, 249, 249, 228, 228, 228, 228,
                                     193, 193, 193, 193, 171, 171, 171, 171};
  CHECK(run(a, ImageBatch{1, 2, 1, 1, 4, 4}, 4.0, 2.0, CvInterp::Cubic) == a_cv);
  refcv::Options no_split;
  no_split.cubic_split = false;
  const auto tail_only = refcv::resize(a, 2, 1, 1, 4, 4, 4.0, 2.0, refcv::kCubic);
  CHECK(tail_only == a_cv);
  // 2x4 -> 11x12: elements 0..7 of each row are in the 8-lane float loop, 8..11 in the tail.
  const std::vector<uint8_t> b = {214, 48, 127, 20, 198, 76, 42, 42};
  const std::vector<uint8_t> b_cv = {
      235, 216, 157, 89,  45,  61,  111, 136, 109, 60,  18,  4,   235, 216, 157, 89,  45,  61,  111,
      136, 109, 60,  18,  5,   233, 214, 157, 91,  47,  61,  107, 130, 104, 59,  19,  7,   230, 212,
      158, 95,  51,  59,  98,  117, 95,  56,  23,  12,  226, 209, 159, 99,  56,  58,  87,  102, 83,
      53,  27,  18,  222, 206, 159, 105, 62,  56,  75,  84,  70,  49,  31,  25,  218, 203, 160, 110,
      68,  54,  63,  67,  57,  45,  35,  32,  214, 200, 161, 115, 73,  53,  53,  52,  46,  42,  39,
      38,  211, 198, 162, 119, 77,  51,  44,  39,  36,  40,  43,  43,  210, 196, 162, 121, 79,  51,
      40,  33,  32,  38,  44,  45,  209, 196, 162, 121, 79,  51,  40,  33,  31,  38,  44,  46};
  CHECK(run(b, ImageBatch{1, 2, 4, 1, 11, 12}, 3.0, 5.5, CvInterp::Cubic) == b_cv);
  CHECK(refcv::resize(b, 2, 4, 1, 11, 12, 3.0, 5.5, refcv::kCubic) == b_cv);
  CHECK(refcv::resize(b, 2, 4, 1, 11, 12, 3.0, 5.5, refcv::kCubic, no_split) != b_cv);
}

TEST_CASE("opencv compat: float32 cubic vertical sums right to left in the vector loop", "[imaging][opencv]") {
  // Rows of 4k + r elements: the split changes some low bits; the model with the split is exact.
  Rng r(7);
  int differing = 0;
  for (int i = 0; i < 200; ++i) {
    const int w = int(r.range(2, 9)), h = int(r.range(2, 6));
    const int ow = int(r.range(5, 23)), oh = int(r.range(5, 17));
    const auto x = image<float>(r, size_t(h) * w);
    const double isx = double(ow) / w, isy = double(oh) / h;
    const auto got = run(x, ImageBatch{1, h, w, 1, oh, ow}, isx, isy, CvInterp::Cubic);
    REQUIRE(got == refcv::resize(x, h, w, 1, oh, ow, isx, isy, refcv::kCubic));
    refcv::Options no_split;
    no_split.cubic_split = false;
    differing += got != refcv::resize(x, h, w, 1, oh, ow, isx, isy, refcv::kCubic, no_split);
  }
  CHECK(differing > 0);
}

TEST_CASE("opencv compat: uint8 linear uses the >>4 formula at every x", "[imaging][opencv]") {
  // OpenCV 4.6's scalar tail of the uint8 linear vertical pass computes what its vector loop
  // does: (((S0 >> 4) b0 >> 16) + ((S1 >> 4) b1 >> 16) + 2) >> 2, even where
  // (S0 b0 + S1 b1 + 2^21) >> 22 would differ (a 3-element row is all tail).
  const std::vector<uint8_t> x = {255, 1, 255, 0, 254, 0};
  const ImageBatch g{1, 2, 3, 1, 3, 3};
  const auto y = run(x, g, 1.0, 1.5, CvInterp::Linear);
  // Rows h = S * 2048 (x unchanged); row 1 of 3: fy = 0.5 - ... computed by the rules.
  for (int oy = 0; oy < 3; ++oy)
    for (int ox = 0; ox < 3; ++ox) {
      int s;
      float f = osw::compat::cvrules::frac_coord(osw::compat::cvrules::Kind::Linear,
                                                 osw::compat::cvrules::Axis::Y, 1.5, 2, oy, &s);
      const int b0 = osw::compat::cvrules::fixed_weight(1.f - f), b1 = osw::compat::cvrules::fixed_weight(f);
      const int r0 = std::min(std::max(s, 0), 1), r1 = std::min(std::max(s + 1, 0), 1);
      const int h0 = x[r0 * 3 + ox] * 2048, h1 = x[r1 * 3 + ox] * 2048;
      const int want = ((((h0 >> 4) * b0) >> 16) + (((h1 >> 4) * b1) >> 16) + 2) >> 2;
      CHECK(int(y[oy * 3 + ox]) == want);
    }
  // Somewhere in random rows the two formulas differ, and the >>4 one is what the kernel does.
  Rng r(3);
  int differ = 0;
  for (int i = 0; i < 2000 && differ == 0; ++i) {
    const int h0 = int(r.range(0, 255)) * 2048, h1 = int(r.range(0, 255)) * 2048;
    const int b1 = int(r.range(0, 2048)), b0 = 2048 - b1;
    differ += ((((h0 >> 4) * b0) >> 16) + (((h1 >> 4) * b1) >> 16) + 2) >> 2 !=
              (h0 * b0 + h1 * b1 + (1 << 21)) >> 22;
  }
  CHECK(differ > 0);
}

TEST_CASE("opencv compat: LINEAR at exactly 2x down is AREA", "[imaging][opencv]") {
  // cv2.resize of [[0, 0], [1, 1]] to 1x1 with INTER_LINEAR: 1 channel (and 3) give
  // (0 + 0 + 1 + 1 + 2) >> 2 = 1; 2 channels take the float area path, cvRound(0.5) = 0;
  // bilinear would give 1 for both.
  const std::vector<uint8_t> x1 = {0, 0, 1, 1};
  const std::vector<uint8_t> x2 = {0, 0, 0, 0, 1, 1, 1, 1};
  CHECK(run(x1, ImageBatch{1, 2, 2, 1, 1, 1}, 0.5, 0.5, CvInterp::Linear) == std::vector<uint8_t>{1});
  CHECK(run(x2, ImageBatch{1, 2, 2, 2, 1, 1}, 0.5, 0.5, CvInterp::Linear) == std::vector<uint8_t>{0, 0});
  refcv::Options bilinear;
  bilinear.linear2x_is_area = false;
  CHECK(refcv::resize(x2, 2, 2, 2, 1, 1, 0.5, 0.5, refcv::kLinear, bilinear) == std::vector<uint8_t>{1, 1});
  // fx = fy = 0.5 on a 2x3 image: out 1x2 (cvRound(1.5) = 2), the last cell cut by the border.
  const std::vector<uint8_t> x3 = {0, 0, 0, 0, 6, 6, 1, 1, 1, 1, 6, 6};
  CHECK(run(x3, ImageBatch{1, 2, 3, 2, 1, 2}, 0.5, 0.5, CvInterp::Linear) == std::vector<uint8_t>{0, 0, 6, 6});
  // Not exactly 2 (0.5 + 1e-9): bilinear.
  const auto p = osw::compat::cvrules::choose(4, 4, 2, 2, 0.5 + 1e-9, 0.5, CvInterp::Linear);
  CHECK(p.kind == osw::compat::cvrules::Kind::Linear);
  CHECK(osw::compat::cvrules::choose(4, 4, 2, 2, 0.5, 0.5, CvInterp::Linear).kind ==
        osw::compat::cvrules::Kind::AreaFast);
}

TEST_CASE("opencv compat: NEAREST takes floor(d * (1 / scale)) in double", "[imaging][opencv]") {
  // 6 -> 34: 1 / (34 / 6) = 0.17647058823529413 in double, 17 times that is 2.9999999999999996,
  // so cv2 picks pixel 2 where the exact 17 * 6 / 34 = 3 would pick 3.
  std::vector<uint8_t> x = {0, 1, 2, 3, 4, 5};
  const auto y = run(x, ImageBatch{1, 1, 6, 1, 1, 34}, 34.0 / 6, 1.0, CvInterp::Nearest);
  CHECK(y[17] == 2);
  CHECK(y[16] == 2);
  CHECK(y[18] == 3);
}

TEST_CASE("opencv compat: NEAREST_EXACT is OpenCV 4.6's 16.16 rule", "[imaging][opencv]") {
  // cv2 4.6: 4 -> 2 gives [0, 2], 7 -> 2 gives [1, 5], 40 -> 1 gives [19], 3 -> 5 gives [0, 0, 1, 2, 2].
  auto row = [](int in, int out) {
    std::vector<uint8_t> x(static_cast<size_t>(in), 0);
    for (int i = 0; i < in; ++i) x[size_t(i)] = uint8_t(i);
    return run(x, ImageBatch{1, 1, in, 1, 1, out}, double(out) / in, 1.0, CvInterp::NearestExact);
  };
  CHECK(row(4, 2) == std::vector<uint8_t>{0, 2});
  CHECK(row(7, 2) == std::vector<uint8_t>{1, 5});
  CHECK(row(40, 1) == std::vector<uint8_t>{19});
  CHECK(row(3, 5) == std::vector<uint8_t>{0, 0, 1, 2, 2});
}

TEST_CASE("opencv compat: uint8 cubic weights are rounded one by one, not adjusted to 2048", "[imaging][opencv]") {
  // Some coordinates give fixed-point weights summing to 2047 or 2049.
  int off = 0;
  for (int i = 0; i < 1000; ++i) {
    float w[4];
    osw::compat::cvrules::cubic_weights(float(i) / 1000.f, w);
    int sum = 0;
    for (float v : w) sum += osw::compat::cvrules::fixed_weight(v);
    off += sum != 2048;
  }
  CHECK(off > 0);
  // cv2.resize of this 4x3 image to 5x7 (INTER_CUBIC): matches only without an adjustment.
  const std::vector<uint8_t> x = {131, 247, 87, 84, 73, 224, 127, 39, 171, 62, 46, 36};
  const std::vector<uint8_t> cv = {123, 199, 255, 157, 55,  105, 146, 190, 163, 132, 85, 75,
                                   84,  167, 231, 114, 68,  39,  147, 241, 134, 83,  38, 107,
                                   173, 91,  67,  42,  61,  82,  56,  54,  47,  31,  20};
  CHECK(run(x, ImageBatch{1, 4, 3, 1, 7, 5}, 5.0 / 3, 7.0 / 4, CvInterp::Cubic) == cv);
}

TEST_CASE("opencv compat: arguments, copies and batches", "[imaging][opencv]") {
  std::vector<uint8_t> x(2 * 3 * 5 * 2), y(2 * 3 * 5 * 2);
  for (size_t i = 0; i < x.size(); ++i) x[i] = uint8_t(i * 7);
  // Same size: a copy whatever the interpolation and scale.
  CHECK(osw::compat::opencv_resize_u8(x.data(), y.data(), ImageBatch{2, 3, 5, 2, 3, 5}, 1.05, 1.05,
                                      CvInterp::Cubic) == osw::compat::kOk);
  CHECK(x == y);
  // Sizes that OpenCV would not derive from the scales, bad channels and interpolations.
  CHECK(osw::compat::opencv_resize_u8(x.data(), y.data(), ImageBatch{1, 3, 5, 2, 3, 4}, 1.0, 1.0,
                                      CvInterp::Linear) == osw::compat::kBadArgs);
  CHECK(osw::compat::opencv_resize_u8(x.data(), y.data(), ImageBatch{1, 3, 5, 5, 6, 10}, 2.0, 2.0,
                                      CvInterp::Linear) == osw::compat::kBadArgs);
  CHECK(osw::compat::opencv_resize_u8(x.data(), y.data(), ImageBatch{1, 3, 5, 2, 6, 10}, 2.0, 2.0,
                                      CvInterp(4)) == osw::compat::kBadArgs);
  CHECK(osw::compat::opencv_resize_u8(x.data(), y.data(), ImageBatch{0, 3, 5, 2, 6, 10}, 2.0, 2.0,
                                      CvInterp::Linear) == osw::compat::kOk);
}
