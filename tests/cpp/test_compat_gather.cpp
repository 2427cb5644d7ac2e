// The nearest-neighbour gather of the compat modes (src/imaging/gather.h): its SIMD windows
// (one or two 16-byte loads and swizzles per group of output pixels, runs of repeating
// groups with their lanes in registers) against a plain loop,
// on index tables of every kind (upscaling, downscaling to 2x and beyond, repeated rows,
// indices out of order and outside), pixels of 1 to 16 bytes, row widths that leave tails;
// then both libraries' NEAREST on wide rows against their reference models.
#include <catch.hpp>

#include <vector>

#include "imaging/imaging.h"
#include "imaging/gather.h"
#include "reference_opencv.h"
#include "reference_pillow.h"
#include "test_rng.h"

namespace {

// Output pixel (r, i) = source pixel (ys[r], xs[i]), zeros for a negative index: the plain
// loop the windows must equal.
std::vector<uint8_t> plain(const std::vector<uint8_t>& x, int count, int in_h, int in_w, int out_h,
                           int out_w, size_t px, const std::vector<int>& xs, const std::vector<int>& ys) {
  std::vector<uint8_t> y(size_t(count) * out_h * out_w * px);
  for (int n = 0; n < count; ++n)
    for (int r = 0; r < out_h; ++r)
      for (int i = 0; i < out_w; ++i)
        for (size_t k = 0; k < px; ++k)
          y[((size_t(n) * out_h + r) * out_w + i) * px + k] =
              ys[r] < 0 || xs[i] < 0 ? 0 : x[((size_t(n) * in_h + ys[r]) * in_w + xs[i]) * px + k];
  return y;
}

// An index table of `out` entries into [0, in): a scale's floor((i + 0.5) * in / out), with
// variations (offset, reversed runs, random entries, -1s, clamped to the last index).
std::vector<int> table(Rng& r, int in, int out) {
  std::vector<int> t(out);
  const double off = r.pick({0.0, 0.5, r.real(0, 1)});
  for (int i = 0; i < out; ++i) t[i] = std::min(in - 1, int((i + off) * in / out));
  switch (r.range(0, 5)) {
    case 0:  // some entries anywhere
      for (int k = int(r.range(1, 4)); k > 0; --k) t[r.range(0, out - 1)] = int(r.range(0, in - 1));
      break;
    case 1:  // some outside
      for (int k = int(r.range(1, 3)); k > 0; --k) t[r.range(0, out - 1)] = -1;
      break;
    case 2:  // a run reversed
      if (out > 2) {
        const int a = int(r.range(0, out - 2)), b = int(r.range(a + 1, out - 1));
        for (int i = a, j = b; i < j; ++i, --j) std::swap(t[i], t[j]);
      }
      break;
    case 3:  // the right edge repeated (Pillow and OpenCV clamp there)
      for (int i = out - int(r.range(0, std::min(out, 20))); i < out; ++i) t[i] = in - 1;
      break;
    default: break;
  }
  return t;
}

}  // namespace

TEST_CASE("compat gather: the SIMD windows equal the plain loop", "[imaging][gather]") {
  Rng r(2018);
  const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 5};
#if OSW_HAVE_SIMD
  int windows = 0, periodic[3] = {0, 0, 0};
#endif
  for (int it = 0; it < 1500; ++it) {
    const size_t px = sizes[r.range(0, 7)];
    const int in_w = int(r.range(1, 300)), in_h = int(r.range(1, 6));
    // scales from 1/3 to 4, often exactly 2x up or down (one- and two-load windows)
    const int out_w = r.coin() ? int(r.range(1, 400)) : r.coin() ? in_w * 2 : std::max(1, in_w / 2);
    const int out_h = int(r.range(1, 8)), count = int(r.range(1, 2));
    const std::vector<int> xs = table(r, in_w, out_w), ys = table(r, in_h, out_h);
    std::vector<uint8_t> x(size_t(count) * in_h * in_w * px);
    for (auto& v : x) v = uint8_t(r.range(1, 255));  // no zeros: a missed write shows
    std::vector<uint8_t> y(size_t(count) * out_h * out_w * px, 0xCD);
    osw::compat::gather_images(x.data(), y.data(), count, in_h, in_w, out_w, out_h, px, xs.data(), ys.data());
    INFO("case " << it << ": px " << px << " in " << in_h << "x" << in_w << " out " << out_h << "x" << out_w);
    REQUIRE(y == plain(x, count, in_h, in_w, out_h, out_w, px, xs, ys));
#if OSW_HAVE_SIMD
    if (px <= 4) {
      osw::compat::gather_detail::Windows w;
      REQUIRE(osw::compat::gather_detail::make_windows(&w, in_w, out_w, px, xs.data()));
      for (int g = 0; g < w.groups; ++g) windows += w.off[g] >= 0;
      ++periodic[w.period];
    }
#endif
  }
#if OSW_HAVE_SIMD
  CHECK(windows > 5000);  // the cases reach the windows, not only the per-pixel loop
  CHECK(periodic[1] > 50);  // and the runs of repeating groups (2x up: period 1 or 2)
  CHECK(periodic[2] > 20);
#endif
}

TEST_CASE("compat gather: NEAREST of both libraries on wide rows equals the reference models", "[imaging][gather]") {
  Rng r(2019);
  for (int it = 0; it < 300; ++it) {
    const int c = int(r.range(1, 4)), w = int(r.range(1, 320)), h = int(r.range(1, 5));
    const int ow = r.coin() ? int(r.range(1, 640)) : r.coin() ? 2 * w : std::max(1, w / 2);
    const int oh = int(r.range(1, 9));
    std::vector<uint8_t> x(size_t(h) * w * c);
    for (auto& v : x) v = uint8_t(r.range(0, 255));
    const osw::compat::ImageBatch g{1, h, w, c, oh, ow};
    std::vector<uint8_t> y(size_t(oh) * ow * c);
    INFO("case " << it << ": " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow);
    REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, osw::compat::PillowFilter::Nearest, false) ==
            osw::compat::kOk);
    CHECK(y == refpil::resize_u8(x, h, w, c, oh, ow, 0, false));
    for (const auto interp : {osw::compat::CvInterp::Nearest, osw::compat::CvInterp::NearestExact}) {
      const double isx = double(ow) / w, isy = double(oh) / h;
      REQUIRE(osw::compat::opencv_resize_u8(x.data(), y.data(), g, isx, isy, interp) == osw::compat::kOk);
      CHECK(y == refcv::resize(x, h, w, c, oh, ow, isx, isy, int(interp)));
    }
  }
}
