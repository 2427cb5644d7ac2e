// The Pillow compat kernels (src/imaging/pillow.cpp) against reference_pillow.h, a slow model
// written from the same rules: random cases (sizes 1..40, 1-4 channels, every filter,
// premultiplied alpha on and off, batches), uint8 bit for bit and float32 exactly; then
// tests that pin single rules with values worked out by hand or with the model's rule
// switched off. The comparison with Pillow itself is tests/compat (oracle + checker).
#include <catch.hpp>

#include <cstring>
#include <vector>

#include "imaging/imaging.h"
#include "reference_pillow.h"
#include "test_rng.h"

using osw::compat::ImageBatch;
using osw::compat::PillowFilter;

namespace {

const char* kFilterNames[] = {"nearest", "box", "bilinear", "hamming", "bicubic", "lanczos"};

int pick_size(Rng& rng, int n) {
  switch (rng.range(0, 5)) {
    case 0: return n;                                  // axis kept
    case 1: return 1;                                  // down to one
    case 2: return int(std::min<int64_t>(40, n * rng.range(2, 3)));  // integer up
    case 3: return std::max(1, n / int(rng.range(2, 4)));            // integer down
    default: return int(rng.range(1, 40));
  }
}

uint8_t random_byte(Rng& rng, int kind) {
  if (kind == 0) return uint8_t(rng.range(0, 255));
  if (kind == 1) return rng.coin() ? 255 : 0;  // hard edges: the overshoot of the lobes
  return uint8_t(rng.pick({0, 1, 2, 3, 127, 128, 253, 254, 255}));
}

std::vector<uint8_t> run_u8(const std::vector<uint8_t>& x, const ImageBatch& g, int f,
                            bool premul, int* rc) {
  std::vector<uint8_t> y(size_t(g.count * g.out_h * g.out_w * g.channels), 0xCD);
  *rc = osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter(f), premul);
  return y;
}

}  // namespace

TEST_CASE("pillow u8: random cases equal the reference model", "[imaging][pillow]") {
  Rng rng(18);
  int cases = 0;
  for (int it = 0; it < 900; ++it) {
    const int f = it % 6;
    const int c = int(rng.range(1, 4));
    const bool premul = (c == 2 || c == 4) && rng.range(0, 3) != 0;
    const int h = int(rng.range(1, 40)), w = int(rng.range(1, 40));
    const int oh = pick_size(rng, h), ow = pick_size(rng, w);
    const int count = int(rng.range(1, 2));
    const int kind = int(rng.range(0, 2));
    const size_t plane = size_t(h) * w * c;
    std::vector<uint8_t> x(plane * count);
    for (auto& v : x) v = random_byte(rng, kind);
    if (premul && rng.coin())  // low alphas, where the 8-bit premultiply rounds the most
      for (size_t p = c - 1; p < x.size(); p += c) x[p] = uint8_t(rng.range(0, 4));
    ImageBatch g{count, h, w, c, oh, ow};
    int rc;
    std::vector<uint8_t> y = run_u8(x, g, f, premul, &rc);
    REQUIRE(rc == osw::compat::kOk);
    const size_t oplane = size_t(oh) * ow * c;
    for (int n = 0; n < count; ++n) {
      std::vector<uint8_t> xi(x.begin() + n * plane, x.begin() + (n + 1) * plane);
      std::vector<uint8_t> want = refpil::resize_u8(xi, h, w, c, oh, ow, f, premul);
      std::vector<uint8_t> got(y.begin() + n * oplane, y.begin() + (n + 1) * oplane);
      if (got != want) {
        size_t i = 0;
        while (got[i] == want[i]) ++i;
        INFO(kFilterNames[f] << " " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow
                             << " premultiply " << premul << " image " << n << ": value " << i
                             << " got " << int(got[i]) << " want " << int(want[i]));
        CHECK(got == want);
      }
      ++cases;
    }
  }
  CHECK(cases >= 900);
}

TEST_CASE("pillow f32: random cases equal the reference model exactly", "[imaging][pillow]") {
  Rng rng(19);
  for (int it = 0; it < 600; ++it) {
    const int f = it % 6;
    const int c = int(rng.range(1, 4));
    const int h = int(rng.range(1, 40)), w = int(rng.range(1, 40));
    const int oh = pick_size(rng, h), ow = pick_size(rng, w);
    const int count = int(rng.range(1, 2));
    const double mag = rng.pick({1.0, 255.0, 1e5});
    const size_t plane = size_t(h) * w * c, oplane = size_t(oh) * ow * c;
    std::vector<float> x(plane * count);
    for (auto& v : x) v = float(rng.real(-mag, mag));
    ImageBatch g{count, h, w, c, oh, ow};
    std::vector<float> y(oplane * count, -1.0f);
    REQUIRE(osw::compat::pillow_resize_f32(x.data(), y.data(), g, PillowFilter(f)) ==
            osw::compat::kOk);
    for (int n = 0; n < count; ++n) {
      std::vector<float> xi(x.begin() + n * plane, x.begin() + (n + 1) * plane);
      std::vector<float> want = refpil::resize_f32(xi, h, w, c, oh, ow, f);
      INFO(kFilterNames[f] << " " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow);
      CHECK(std::memcmp(want.data(), y.data() + n * oplane, oplane * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("pillow u8: sums start at 2^21 (round half up), weights are 22-bit", "[imaging][pillow]") {
  // BOX 4 -> 1: four weights of 2^20; 255 * 2^20 + 2^21 = 64.25 * 2^22 -> 64 (63 from 0).
  std::vector<uint8_t> x = {0, 0, 0, 255}, y(1);
  ImageBatch g{1, 1, 4, 1, 1, 1};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Box, false) == 0);
  CHECK(int(y[0]) == 64);
  // 1 x 2 -> 1 x 1 BOX: (1 + 2) / 2 = 1.5 rounds up to 2; (2 + 3) / 2 = 2.5 to 3.
  x = {1, 2};
  g = ImageBatch{1, 1, 2, 1, 1, 1};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Box, false) == 0);
  CHECK(int(y[0]) == 2);
  x = {2, 3};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Box, false) == 0);
  CHECK(int(y[0]) == 3);
}

TEST_CASE("pillow u8: sizes of 1 average the whole axis", "[imaging][pillow]") {
  // 3 x 1 -> 1 x 1 with BILINEAR: support 3 (1 x scale 3) around centre 1.5 covers rows
  // 0..2 with weights tri(-1/3), tri(0), tri(1/3) = (2/3, 1, 2/3) / (7/3) = 2/7, 3/7, 2/7:
  // (10 * 2 + 20 * 3 + 90 * 2) / 7 = 37.14 -> 37.
  std::vector<uint8_t> x = {10, 20, 90}, y(1);
  ImageBatch g{1, 3, 1, 1, 1, 1};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Bilinear, false) == 0);
  CHECK(int(y[0]) == 37);
  // 1 x 1 -> 3 x 5: every tap is the one pixel.
  x = {77};
  std::vector<uint8_t> y2(15);
  g = ImageBatch{1, 1, 1, 1, 3, 5};
  for (int f = 1; f <= 5; ++f) {
    REQUIRE(osw::compat::pillow_resize_u8(x.data(), y2.data(), g, PillowFilter(f), false) == 0);
    for (uint8_t v : y2) CHECK(int(v) == 77);
  }
}

TEST_CASE("pillow: a same-size resize is a copy, also with premultiplied alpha", "[imaging][pillow]") {
  // The premultiply round trip would turn (200, 100, 50, 3) into (170, 85, 85, 3).
  std::vector<uint8_t> x = {200, 100, 50, 3, 9, 8, 7, 1}, y(8);
  ImageBatch g{1, 1, 2, 4, 1, 2};
  for (int f = 0; f <= 5; ++f) {
    REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter(f), true) == 0);
    CHECK(y == x);
  }
}

TEST_CASE("pillow: premultiply rounds in 8 bits and divides back with truncation", "[imaging][pillow]") {
  // (200, 100, 50) at alpha 3: premultiplied (2, 1, 1), back 255 * 2 / 3 = 170, 85, 85.
  std::vector<uint8_t> x = {200, 100, 50, 3, 200, 100, 50, 3}, y(12);
  ImageBatch g{1, 1, 2, 4, 1, 3};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Bilinear, true) == 0);
  for (int p = 0; p < 3; ++p) {
    CHECK(int(y[p * 4 + 0]) == 170);
    CHECK(int(y[p * 4 + 1]) == 85);
    CHECK(int(y[p * 4 + 2]) == 85);
    CHECK(int(y[p * 4 + 3]) == 3);
  }
  // Without premultiply the channels are independent: a constant image stays constant.
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Bilinear, false) == 0);
  CHECK(int(y[0]) == 200);
  // Alpha 0 after resampling keeps the premultiplied colour (0 here); NEAREST never
  // premultiplies.
  x = {200, 100, 50, 0, 200, 100, 50, 0};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Bilinear, true) == 0);
  CHECK(int(y[0]) == 0);
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Nearest, true) == 0);
  CHECK(int(y[0]) == 200);
  // LA: the same rule on channel 0.
  std::vector<uint8_t> la = {200, 3, 200, 3}, yla(6);
  g = ImageBatch{1, 1, 2, 2, 1, 3};
  REQUIRE(osw::compat::pillow_resize_u8(la.data(), yla.data(), g, PillowFilter::Lanczos, true) == 0);
  CHECK(int(yla[0]) == 170);
  CHECK(int(yla[1]) == 3);
}

TEST_CASE("pillow u8: the horizontal pass is clamped to 8 bits before the vertical one", "[imaging][pillow]") {
  // A checkerboard of 0/255 upscaled with LANCZOS overshoots in the horizontal pass; the
  // model with that clamp removed must differ, the kernel must equal the model with it.
  const int h = 6, w = 6, oh = 13, ow = 13;
  std::vector<uint8_t> x(h * w);
  for (int r = 0; r < h; ++r)
    for (int q = 0; q < w; ++q) x[r * w + q] = ((r + q) % 2) ? 255 : 0;
  ImageBatch g{1, h, w, 1, oh, ow};
  int rc;
  std::vector<uint8_t> y = run_u8(x, g, refpil::Lanczos, false, &rc);
  REQUIRE(rc == 0);
  CHECK(y == refpil::resize_u8(x, h, w, 1, oh, ow, refpil::Lanczos, false, true));
  CHECK(y != refpil::resize_u8(x, h, w, 1, oh, ow, refpil::Lanczos, false, false));
}

TEST_CASE("pillow u8: hundreds of taps per output (split 16-bit weight sums wrap)", "[imaging][pillow]") {
  // The SIMD passes sum x * (k & 0x7FFF) apart from x * (k >> 15); with more than 257 taps
  // of bright pixels the low sums pass 2^31 and must wrap back into the right total. Every
  // channel count, both axes, all-255 and noisy rows, a filter with negative lobes too.
  Rng rng(1800);
  for (int c = 1; c <= 4; ++c)
    for (int f : {int(PillowFilter::Box), int(PillowFilter::Lanczos)})
      for (int kind = 0; kind < 2; ++kind) {
        const bool premul = c == 2 || c == 4;
        for (int axis = 0; axis < 2; ++axis) {
          const int h = axis ? 1200 : 3, w = axis ? 5 : 1200, oh = axis ? 2 : 3, ow = axis ? 5 : 3;
          std::vector<uint8_t> x(size_t(h) * w * c);
          for (auto& v : x) v = kind ? uint8_t(rng.range(200, 255)) : 255;
          ImageBatch g{1, h, w, c, oh, ow};
          int rc;
          std::vector<uint8_t> y = run_u8(x, g, f, premul, &rc);
          REQUIRE(rc == 0);
          INFO(kFilterNames[f] << " " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow);
          CHECK(y == refpil::resize_u8(x, h, w, c, oh, ow, f, premul));
        }
      }
}

TEST_CASE("pillow u8: unpremultiply of every (colour, alpha) pair", "[imaging][pillow]") {
  // Two equal rows of 65536 RGBA pixels (colour c, alpha a for all c, a; LA likewise) boxed
  // to one row: the vertical pass returns the premultiplied pixels unchanged, so the output
  // is premultiply then unpremultiply of each pair (the SIMD division and the scalar tail).
  for (int c : {2, 4}) {
    const int w = 65536 + 3;  // 3 more: a tail after the 4-pixel vectors
    std::vector<uint8_t> x(size_t(2) * w * c);
    for (int q = 0; q < w; ++q)
      for (int ch = 0; ch < c; ++ch) {
        const int v = ch == c - 1 ? (q >> 8) & 255 : (q + 37 * ch) & 255;
        x[size_t(q) * c + ch] = x[(size_t(w) + q) * c + ch] = uint8_t(v);
      }
    ImageBatch g{1, 2, w, c, 1, w};
    int rc;
    std::vector<uint8_t> y = run_u8(x, g, int(PillowFilter::Box), true, &rc);
    REQUIRE(rc == 0);
    CHECK(y == refpil::resize_u8(x, 2, w, c, 1, w, int(PillowFilter::Box), true));
  }
}

TEST_CASE("pillow f32: every row count mod 4, each row its own sums", "[imaging][pillow]") {
  // The SIMD horizontal pass runs 4 rows at once (a row per double lane): 1 to 9 rows,
  // horizontal only and both passes, rows that differ in magnitude.
  Rng rng(1900);
  for (int h = 1; h <= 9; ++h)
    for (int oh : {h, h + 2}) {
      const int w = 23, c = int(rng.range(1, 3)), ow = 10;
      std::vector<float> x(size_t(h) * w * c);
      for (size_t i = 0; i < x.size(); ++i) x[i] = float(rng.real(-1, 1) * (1 + i / (w * c)) * 1e3);
      ImageBatch g{1, h, w, c, oh, ow};
      std::vector<float> y(size_t(oh) * ow * c, -1.0f);
      REQUIRE(osw::compat::pillow_resize_f32(x.data(), y.data(), g, PillowFilter::Bicubic) == 0);
      std::vector<float> want = refpil::resize_f32(x, h, w, c, oh, ow, int(PillowFilter::Bicubic));
      INFO(h << "x" << w << "x" << c << " -> " << oh << "x" << ow);
      CHECK(std::memcmp(want.data(), y.data(), y.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("pillow f32: an axis that keeps its length is not resampled", "[imaging][pillow]") {
  // LANCZOS at scale 1 has weights sinc(n) ~ 4e-17, not 0, at the neighbours: a pass run
  // over a kept axis would leak 1e6 * 4e-17 into the zero row. Pillow skips that pass.
  const int h = 3, w = 4, oh = 3, ow = 7;
  std::vector<float> x = {1e6f, 1e6f, 1e6f, 1e6f, 0, 0, 0, 0, 1e6f, 1e6f, 1e6f, 1e6f};
  std::vector<float> y(oh * ow, -1.0f);
  ImageBatch g{1, h, w, 1, oh, ow};
  REQUIRE(osw::compat::pillow_resize_f32(x.data(), y.data(), g, PillowFilter::Lanczos) == 0);
  for (int q = 0; q < ow; ++q) CHECK(y[ow + q] == 0.0f);
  // The same for the width: 4 x 3 -> 7 x 3, the middle column stays exactly zero.
  std::vector<float> xt = {1e6f, 0, 1e6f, 1e6f, 0, 1e6f, 1e6f, 0, 1e6f, 1e6f, 0, 1e6f};
  std::vector<float> yt(7 * 3, -1.0f);
  g = ImageBatch{1, 4, 3, 1, 7, 3};
  REQUIRE(osw::compat::pillow_resize_f32(xt.data(), yt.data(), g, PillowFilter::Lanczos) == 0);
  for (int r = 0; r < 7; ++r) CHECK(yt[r * 3 + 1] == 0.0f);
}

TEST_CASE("pillow: NEAREST takes the pixel under the accumulated centre", "[imaging][pillow]") {
  // 5 -> 3: step 5/3, centres 0.833, 2.5, 4.167 -> columns 0, 2, 4.
  std::vector<uint8_t> x = {10, 20, 30, 40, 50}, y(3);
  ImageBatch g{1, 1, 5, 1, 1, 3};
  REQUIRE(osw::compat::pillow_resize_u8(x.data(), y.data(), g, PillowFilter::Nearest, false) == 0);
  CHECK(y == std::vector<uint8_t>{10, 30, 50});
  // 3 -> 7, RGB: pixels repeat 0,0,1,1,1,2,2 (centres 0.21, 0.64, 1.07, 1.5, 1.93, 2.36, 2.79).
  std::vector<uint8_t> rgb = {1, 2, 3, 4, 5, 6, 7, 8, 9}, y7(21);
  g = ImageBatch{1, 1, 3, 3, 1, 7};
  REQUIRE(osw::compat::pillow_resize_u8(rgb.data(), y7.data(), g, PillowFilter::Nearest, false) == 0);
  const int want[] = {0, 0, 1, 1, 1, 2, 2};
  for (int q = 0; q < 7; ++q)
    for (int k = 0; k < 3; ++k) CHECK(int(y7[q * 3 + k]) == rgb[want[q] * 3 + k]);
}

TEST_CASE("pillow: arguments", "[imaging][pillow]") {
  uint8_t b[16] = {};
  float fb[16] = {};
  using osw::compat::kBadArgs;
  ImageBatch g{1, 2, 2, 3, 1, 1};
  CHECK(osw::compat::pillow_resize_u8(b, b + 8, g, PillowFilter::Box, true) == kBadArgs);
  g.channels = 5;
  CHECK(osw::compat::pillow_resize_u8(b, b + 8, g, PillowFilter::Box, false) == kBadArgs);
  CHECK(osw::compat::pillow_resize_f32(fb, fb + 8, g, PillowFilter::Box) == kBadArgs);
  g.channels = 1;
  CHECK(osw::compat::pillow_resize_u8(b, b + 8, g, PillowFilter(6), false) == kBadArgs);
  g.out_w = 0;
  CHECK(osw::compat::pillow_resize_u8(b, b + 8, g, PillowFilter::Box, false) == kBadArgs);
  g = ImageBatch{0, 2, 2, 1, 3, 3};
  CHECK(osw::compat::pillow_resize_u8(nullptr, nullptr, g, PillowFilter::Box, false) ==
        osw::compat::kOk);
}

TEST_CASE("pillow u8: mostly opaque images (the premultiply passes skip opaque groups) equal the reference model", "[imaging][pillow]") {
  // Photos with an alpha channel are opaque almost everywhere: groups of 4 (RGBA) or 8 (LA)
  // opaque pixels are copied by premultiply and left alone by unpremultiply. Here opaque
  // runs, fully clear runs and scattered translucent pixels, on wide rows (the SIMD forms),
  // at dyadic and other scales, must give the model's bytes.
  Rng rng(1804);
  for (int it = 0; it < 120; ++it) {
    const int c = rng.coin() ? 4 : 2;
    const int h = int(rng.range(1, 12)), w = int(rng.range(8, 90));
    const int oh = int(rng.pick<int64_t>({h, 2 * h, std::max(1, h / 2), rng.range(1, 20)}));
    const int ow = int(rng.pick<int64_t>({w, 2 * w, std::max(1, w / 2), rng.range(1, 120)}));
    std::vector<uint8_t> x(size_t(h) * w * c);
    for (auto& v : x) v = uint8_t(rng.range(0, 255));
    for (size_t p = 0; p < x.size() / c; ++p) {
      const int64_t k = rng.range(0, 19);
      x[p * c + c - 1] = k < 15 ? 255 : k < 17 ? 0 : uint8_t(rng.range(1, 254));  // mostly opaque
    }
    const int f = int(rng.range(1, 5));
    ImageBatch g{1, h, w, c, oh, ow};
    int rc;
    const std::vector<uint8_t> y = run_u8(x, g, f, true, &rc);
    REQUIRE(rc == osw::compat::kOk);
    INFO(kFilterNames[f] << " " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow);
    CHECK(y == refpil::resize_u8(x, h, w, c, oh, ow, f, true));
  }
}
