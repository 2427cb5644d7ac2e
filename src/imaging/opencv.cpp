// imaging/opencv.cpp: cv2.resize of OpenCV 4.6 (Debian's python3-opencv, x86-64), reproduced
// bit for bit on uint8 and float32 images (see imaging/imaging.h for the interface).
//
// The rules below were read from OpenCV's modules/imgproc/src/resize.cpp and checked against
// cv2.resize case by case (tests/compat/oracle_opencv.py + tests/compat/check_opencv.cpp); this
// file is written from those facts, not from OpenCV's code. Notation: scale = 1 / inv_scale
// (double), W = out_w * channels (a row in elements), cvRound = round half to even.
//
//  * Same size in and out: a copy, whatever the interpolation.
//  * NEAREST: sx = min(floor(dx * scale_x), in_w - 1), all in double; same for y.
//  * NEAREST_EXACT: 16.16 fixed point: step = ((in << 16) + out / 2) / out,
//    s = (step * d + step / 2 - 1) >> 16, clamped to in - 1 (4.6; later OpenCV subtracts
//    in % 2 instead of 1).
//  * LINEAR with scale exactly 2 on both axes (|scale - cvRound(scale)| < DBL_EPSILON) is AREA.
//  * AREA with scale >= 1 on both axes:
//    - both scales integers ("fast"): each output averages a scale_x x scale_y cell. uint8 2x2
//      with 1, 3 or 4 channels: (sum + 2) >> 2. Other full cells: sum * (1.f / area), cvRound.
//      float32 2x2 with 1 or 4 channels: ((a + b) + (c + d)) * 0.25f where OpenCV's 4-lane loop
//      runs (elements [0, full & ~3)), else sum grouped by four (s += ((t0 + t1) + t2) + t3)
//      times 1.f / area. Cells cut by the right or bottom border: (float)sum / count.
//    - otherwise: per axis a table of (source, destination, float weight) from the cell
//      [d * scale, (d + 1) * scale) (weights of partial source pixels over 1e-3 only); rows are
//      accumulated in float in table order, buf += S * wx, sum += wy * buf, then cvRound.
//  * LINEAR, CUBIC, and AREA when a scale is < 1 (a bilinear variant), separable:
//    - coordinates per axis in float: f = (float)((d + 0.5) * scale - 0.5), s = floor(f),
//      f -= s; AREA: s = floor(d * scale), f = (float)((d + 1) - (s + 1) * inv_scale),
//      f = f <= 0 ? 0 : f - floor(f). Linear x: s < 0 gives s = 0, f = 0; s >= in - 1 gives
//      s = in - 1, f = 0 (y keeps f and clamps the rows only). Taps are clamped to the image.
//    - weights (1 - f, f); cubic A = -0.75: w0 = ((A(f+1) - 5A)(f+1) + 8A)(f+1) - 4A,
//      w1 = ((A+2)f - (A+3))f^2 + 1, w2 = same at 1 - f, w3 = 1 - w0 - w1 - w2 (float).
//      uint8: each weight saturate_cast<short>(w * 2048) on its own (no adjustment of the sum).
//    - horizontal pass into rows of int (uint8) or float, summing taps left to right; then
//      vertical over rows clamped to the image (y weights are not clamped):
//        uint8 linear, at every x (OpenCV 4.6's vector loop and scalar tail agree):
//                (((S0 >> 4) * b0 >> 16) + ((S1 >> 4) * b1 >> 16) + 2) >> 2;
//        uint8 cubic depends on x (OpenCV's 8-lane SSE2 loop vs its scalar tail): below
//                W & ~7 in float, cvRound(S0 B0 + (S1 B1 + (S2 B2 + S3 B3))), B = b / 2^22;
//                from there (sum S b + 2^21) >> 22; both saturated to [0, 255];
//        float32 linear S0 b0 + S1 b1; float32 cubic S0 b0 + (S1 b1 + (S2 b2 + S3 b3)) below
//                W & ~3 (OpenCV's 4-lane loop), ((S0 b0 + S1 b1) + S2 b2) + S3 b3 after.
//
// Results do not depend on OpenCV's run-time dispatch (SSE4.1/AVX2/AVX-512 off or on give the
// same bytes): these loops are in OpenCV's SSE2 baseline code. Reproducing OpenCV's vector/tail
// split is about which formula applies at each x; the SIMD code below and its scalar twin
// compute the same formulas and give the same bytes.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/simd.h"
#include "imaging/gather.h"
#include "imaging/imaging.h"
#include "imaging/opencv_rules.h"

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace osw {
namespace compat {

namespace {

using cvrules::Axis;

inline int round_even(float v) { return static_cast<int>(std::nearbyint(v)); }

// saturate_cast<uchar>(float): cvRound, then clamp (values outside int give 0, as cvRound's
// INT_MIN does).
inline uint8_t sat_u8(float v) {
  if (!(v > -2147483648.f && v < 2147483648.f)) return 0;
  const int r = round_even(v);
  return static_cast<uint8_t>(r < 0 ? 0 : r > 255 ? 255 : r);
}
inline uint8_t sat_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }
inline uint8_t to_out(float v, uint8_t*) { return sat_u8(v); }
inline float to_out(float v, float*) { return v; }

// ---------------------------------------------------------------------------------------
// Separable (linear, cubic, area upscaling): horizontal rows, then vertical.

// One horizontal row: out[dx * cn + c] = sum_k S[(tap_k) * cn + c] * w_k, left to right, for
// dx in [dx0, dx1); CN is the channel count (0: any, given by cn).
template <int CN, typename T, typename Acc, typename Wt>
void hrow_scalar(const T* s, Acc* out, int dx0, int dx1, int cn, int ks, const int* taps,
                 const Wt* w) {
  if (CN) cn = CN;
  out += dx0 * cn;
  if (ks == 2) {
    taps += dx0 * 2, w += dx0 * 2;
    for (int dx = dx0; dx < dx1; ++dx, taps += 2, w += 2) {
      const T* p0 = s + taps[0] * cn;
      const T* p1 = s + taps[1] * cn;
      const Acc w0 = w[0], w1 = w[1];
      for (int c = 0; c < cn; ++c) *out++ = Acc(p0[c]) * w0 + Acc(p1[c]) * w1;
    }
  } else {
    taps += dx0 * 4, w += dx0 * 4;
    for (int dx = dx0; dx < dx1; ++dx, taps += 4, w += 4) {
      const T* p0 = s + taps[0] * cn;
      const T* p1 = s + taps[1] * cn;
      const T* p2 = s + taps[2] * cn;
      const T* p3 = s + taps[3] * cn;
      const Acc w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
      for (int c = 0; c < cn; ++c)
        *out++ = Acc(p0[c]) * w0 + Acc(p1[c]) * w1 + Acc(p2[c]) * w2 + Acc(p3[c]) * w3;
    }
  }
}

#if OSW_HAVE_SIMD
// 3 or 4 channels, one pixel per vector: four lanes loaded at each tap (the fourth of a
// 3-channel pixel is the next pixel's first value, and its result lane is overwritten by the
// next pixel or falls in the row's padding). dx1: no tap of [0, dx1) reads past the row.
// uint8: the tap pixels' bytes, zero-extended and interleaved in pairs (S0 c, S1 c), times the
// pairs (w0, w1) with i32x4.dot_i16x8: the integer sums, exactly; then finished as
// u8_row_post does (ks 2: >> 4, ks 4: to float).
template <int CN>
void hrow_vec(const uint8_t* s, int* out, int dx1, int ks, const int* taps, const int16_t* w) {
  const v128_t lo = wasm_i8x16_make(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
  if (ks == 2) {
    // Adjacent taps (all but the clamped ones): both pixels in one 8-byte load (in the row:
    // 3 channels and t1 * 3 + 4 <= row give t0 * 3 + 8 <= row).
    const v128_t adj =
        CN == 4 ? lo : wasm_i8x16_make(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, 6, -1, 7, -1);
    for (int dx = 0; dx < dx1; ++dx, taps += 2, w += 2) {
      v128_t p;
      if (taps[1] == taps[0] + 1) {
        p = wasm_i8x16_swizzle(wasm_v128_load64_zero(s + taps[0] * CN), adj);
      } else {
        v128_t v = wasm_v128_load32_zero(s + taps[0] * CN);
        p = wasm_i8x16_swizzle(wasm_v128_load32_lane(s + taps[1] * CN, v, 1), lo);
      }
      wasm_v128_store(out + dx * CN,
                      wasm_i32x4_shr(wasm_i32x4_dot_i16x8(p, wasm_v128_load32_splat(w)), 4));
    }
  } else {
    const v128_t hi = wasm_i8x16_make(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1);
    for (int dx = 0; dx < dx1; ++dx, taps += 4, w += 4) {
      v128_t v = wasm_v128_load32_zero(s + taps[0] * CN);
      v = wasm_v128_load32_lane(s + taps[1] * CN, v, 1);
      v = wasm_v128_load32_lane(s + taps[2] * CN, v, 2);
      v = wasm_v128_load32_lane(s + taps[3] * CN, v, 3);
      const v128_t a = wasm_i32x4_dot_i16x8(wasm_i8x16_swizzle(v, lo), wasm_v128_load32_splat(w));
      const v128_t b =
          wasm_i32x4_dot_i16x8(wasm_i8x16_swizzle(v, hi), wasm_v128_load32_splat(w + 2));
      wasm_v128_store(out + dx * CN, wasm_f32x4_convert_i32x4(wasm_i32x4_add(a, b)));
    }
  }
}
// float32: f32x4 per tap, multiplied and summed left to right as the scalar code does.
template <int CN>
void hrow_vec(const float* s, float* out, int dx1, int ks, const int* taps, const float* w) {
  if (ks == 2) {
    for (int dx = 0; dx < dx1; ++dx, taps += 2, w += 2) {
      const v128_t a = wasm_f32x4_mul(wasm_v128_load(s + taps[0] * CN), wasm_f32x4_splat(w[0]));
      const v128_t b = wasm_f32x4_mul(wasm_v128_load(s + taps[1] * CN), wasm_f32x4_splat(w[1]));
      wasm_v128_store(out + dx * CN, wasm_f32x4_add(a, b));
    }
  } else {
    for (int dx = 0; dx < dx1; ++dx, taps += 4, w += 4) {
      v128_t t = wasm_f32x4_mul(wasm_v128_load(s + taps[0] * CN), wasm_f32x4_splat(w[0]));
      t = wasm_f32x4_add(t,
                         wasm_f32x4_mul(wasm_v128_load(s + taps[1] * CN), wasm_f32x4_splat(w[1])));
      t = wasm_f32x4_add(t,
                         wasm_f32x4_mul(wasm_v128_load(s + taps[2] * CN), wasm_f32x4_splat(w[2])));
      t = wasm_f32x4_add(t,
                         wasm_f32x4_mul(wasm_v128_load(s + taps[3] * CN), wasm_f32x4_splat(w[3])));
      wasm_v128_store(out + dx * CN, t);
    }
  }
}
#endif

// uint8 horizontal rows, finished once per source row for the vertical pass: linear keeps
// S >> 4 (all its vertical formula uses), cubic the float S (exact: |S| < 2^24), in place.
void u8_row_post(int* row, int w, int ks) {
  int x = 0;
  if (ks == 2) {
#if OSW_HAVE_SIMD
    for (; x + 4 <= w; x += 4) wasm_v128_store(row + x, wasm_i32x4_shr(wasm_v128_load(row + x), 4));
#endif
    for (; x < w; ++x) row[x] >>= 4;
  } else {
#if OSW_HAVE_SIMD
    for (; x + 4 <= w; x += 4)
      wasm_v128_store(row + x, wasm_f32x4_convert_i32x4(wasm_v128_load(row + x)));
#endif
    for (; x < w; ++x) {
      const float f = float(row[x]);
      std::memcpy(row + x, &f, sizeof f);
    }
  }
}

// A row: the vector form on [0, vec_end) (3 and 4 channels), the scalar form after.
template <typename T, typename Acc, typename Wt>
void hrow(const T* s, Acc* out, int out_w, int cn, int ks, const int* taps, const Wt* w,
          int vec_end) {
  int dx = 0;
#if OSW_HAVE_SIMD
  if (cn == 4) hrow_vec<4>(s, out, dx = vec_end, ks, taps, w);
  if (cn == 3) hrow_vec<3>(s, out, dx = vec_end, ks, taps, w);
#else
  (void)vec_end;
#endif
  switch (cn) {
    case 1: hrow_scalar<1>(s, out, dx, out_w, cn, ks, taps, w); break;
    case 2: hrow_scalar<2>(s, out, dx, out_w, cn, ks, taps, w); break;
    case 3: hrow_scalar<3>(s, out, dx, out_w, cn, ks, taps, w); break;
    default: hrow_scalar<4>(s, out, dx, out_w, cn, ks, taps, w); break;
  }
  if constexpr (std::is_same<T, uint8_t>::value) u8_row_post(out + dx * cn, (out_w - dx) * cn, ks);
}

// uint8 linear vertical: OpenCV's formula (the same in its vector loop and its scalar tail),
// on rows of S >> 4. Linear weights are in [0, 2048] and S in [0, 255 * 2049], so S >> 4 and
// b fit in the low 15 bits of their lanes: the product is i32x4.dot_i16x8 of the lanes (the
// high halves are zero), one pmaddwd where i32x4.mul is a slower pmulld.
void vlin_u8(const int* r0, const int* r1, uint8_t* d, int w, int b0, int b1) {
  int x = 0;
#if OSW_HAVE_SIMD
  // Each term ((S >> 4) b) >> 16 is in [0, 1020]: the terms are narrowed to i16 (exactly) and
  // added, rounded and shifted 8 lanes at a time.
  const v128_t vb0 = wasm_i32x4_splat(b0), vb1 = wasm_i32x4_splat(b1), two = wasm_i16x8_splat(2);
  auto term = [](const int* r, v128_t b) {
    return wasm_i32x4_shr(wasm_i32x4_dot_i16x8(wasm_v128_load(r), b), 16);
  };
  for (; x + 16 <= w; x += 16) {
    v128_t q[2];
    for (int j = 0; j < 2; ++j) {
      const int o = x + 8 * j;
      const v128_t a = wasm_i16x8_narrow_i32x4(term(r0 + o, vb0), term(r0 + o + 4, vb0));
      const v128_t b = wasm_i16x8_narrow_i32x4(term(r1 + o, vb1), term(r1 + o + 4, vb1));
      q[j] = wasm_i16x8_shr(wasm_i16x8_add(wasm_i16x8_add(a, b), two), 2);
    }
    wasm_v128_store(d + x, wasm_u8x16_narrow_i16x8(q[0], q[1]));
  }
#endif
  for (; x < w; ++x) d[x] = sat_u8((((r0[x] * b0) >> 16) + ((r1[x] * b1) >> 16) + 2) >> 2);
}

#if OSW_HAVE_SIMD
// cvRound of values that are then saturated to [0, 255]: clamped to [-1, 256] first (the same
// bytes after saturation), then rounded half to even by adding 1.5 * 2^23 (the sum's ulp is
// 1, and the addition rounds as cvRound does) and reading the low bits of the sum.
inline v128_t round_clamped(v128_t t) {
  t = wasm_f32x4_pmin(wasm_f32x4_pmax(t, wasm_f32x4_splat(-1.f)), wasm_f32x4_splat(256.f));
  return wasm_i32x4_sub(wasm_f32x4_add(t, wasm_f32x4_splat(12582912.f)),
                        wasm_i32x4_splat(0x4B400000));
}
#endif

// uint8 cubic vertical, OpenCV's vector formula (float) on [x0, x1), on float rows.
void vcub_u8_vec(const float* const* r, uint8_t* d, int x0, int x1, const int16_t* bi) {
  const float sc = 1.f / (2048 * 2048);
  const float b0 = bi[0] * sc, b1 = bi[1] * sc, b2 = bi[2] * sc, b3 = bi[3] * sc;
  const float *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
  int x = x0;
#if OSW_HAVE_SIMD
  const v128_t vb0 = wasm_f32x4_splat(b0), vb1 = wasm_f32x4_splat(b1);
  const v128_t vb2 = wasm_f32x4_splat(b2), vb3 = wasm_f32x4_splat(b3);
  for (; x + 16 <= x1; x += 16) {
    v128_t q[4];
    for (int j = 0; j < 4; ++j) {
      const int o = x + 4 * j;
      v128_t t = wasm_f32x4_mul(wasm_v128_load(r3 + o), vb3);
      t = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r2 + o), vb2), t);
      t = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r1 + o), vb1), t);
      t = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r0 + o), vb0), t);
      q[j] = round_clamped(t);
    }
    wasm_v128_store(d + x, wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q[0], q[1]),
                                                   wasm_i16x8_narrow_i32x4(q[2], q[3])));
  }
#endif
  for (; x < x1; ++x) {
    const float t = r0[x] * b0 + (r1[x] * b1 + (r2[x] * b2 + r3[x] * b3));
    d[x] = sat_u8(t);
  }
}

// uint8 cubic vertical, OpenCV's scalar formula on [x0, x1) (float rows of integers).
void vcub_u8_tail(const float* const* r, uint8_t* d, int x0, int x1, const int16_t* bi) {
  const int b0 = bi[0], b1 = bi[1], b2 = bi[2], b3 = bi[3];
  const float *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
  for (int x = x0; x < x1; ++x)
    d[x] = sat_u8(
        (int(r0[x]) * b0 + int(r1[x]) * b1 + int(r2[x]) * b2 + int(r3[x]) * b3 + (1 << 21)) >> 22);
}

// float32 vertical: linear (both forms the same), cubic right-associated (vector) or left.
void vlin_f32(const float* r0, const float* r1, float* d, int w, float b0, float b1) {
  int x = 0;
#if OSW_HAVE_SIMD
  const v128_t vb0 = wasm_f32x4_splat(b0), vb1 = wasm_f32x4_splat(b1);
  for (; x + 4 <= w; x += 4)
    wasm_v128_store(d + x, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r0 + x), vb0),
                                          wasm_f32x4_mul(wasm_v128_load(r1 + x), vb1)));
#endif
  for (; x < w; ++x) d[x] = r0[x] * b0 + r1[x] * b1;
}

void vcub_f32(const float* const* r, float* d, int w, const float* b) {
  const float *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
  const int vend = w & ~3;
  int x = 0;
#if OSW_HAVE_SIMD
  const v128_t vb0 = wasm_f32x4_splat(b[0]), vb1 = wasm_f32x4_splat(b[1]);
  const v128_t vb2 = wasm_f32x4_splat(b[2]), vb3 = wasm_f32x4_splat(b[3]);
  for (; x < vend; x += 4) {
    v128_t t = wasm_f32x4_mul(wasm_v128_load(r3 + x), vb3);
    t = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r2 + x), vb2), t);
    t = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r1 + x), vb1), t);
    wasm_v128_store(d + x, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(r0 + x), vb0), t));
  }
#endif
  for (; x < vend; ++x) d[x] = r0[x] * b[0] + (r1[x] * b[1] + (r2[x] * b[2] + r3[x] * b[3]));
  for (; x < w; ++x) d[x] = r0[x] * b[0] + r1[x] * b[1] + r2[x] * b[2] + r3[x] * b[3];
}

void vertical(const int* const* r, uint8_t* d, int w, int ks, const float*, const int16_t* bi) {
  if (ks == 2) {
    vlin_u8(r[0], r[1], d, w, bi[0], bi[1]);
  } else {
    const int vend = w & ~7;
    const float* const* f = reinterpret_cast<const float* const*>(r);
    vcub_u8_vec(f, d, 0, vend, bi);
    vcub_u8_tail(f, d, vend, w, bi);
  }
}
void vertical(const float* const* r, float* d, int w, int ks, const float* b, const int16_t*) {
  if (ks == 2)
    vlin_f32(r[0], r[1], d, w, b[0], b[1]);
  else
    vcub_f32(r, d, w, b);
}

// ---------------------------------------------------------------------------------------
// uint8 linear (and area upscaling) at dyadic scales, in 16-bit lanes. When every x weight
// is a multiple of 2^ex and every y weight of 2^ey with ex + ey >= 16 (2x up: both 2^9),
// OpenCV's formula needs no wide product: the horizontal sum S is a multiple of 2^ex, so
// S >> 4 = S'' 2^(ex - 4) with S'' = sum x (w >> ex) <= 255 * 2^(11 - ex), and with
// b' = b >> (16 - ex), ((S >> 4) b) >> 16 = (S'' b') >> 4, where S'' b' <= 255 * 64. So
// rows of S'' are uint16 (made by windows: one load, then per tap a swizzle and a multiply),
// and the vertical terms are uint16 products shifted by a constant 4.
#if OSW_HAVE_SIMD
// Largest e <= 11 such that every weight is a multiple of 2^e.
int weight_shift(const int16_t* w, size_t n) {
  int e = 11;
  for (size_t i = 0; i < n; ++i)
    while (e > 0 && (w[i] & ((1 << e) - 1)) != 0) --e;
  return e;
}

// Per group of output elements (16; 15 for 3 channels) whose taps lie in 16 bytes of the
// source row: the window's byte offset (or -1: the group is summed element by element), then
// per tap 16 lane indices and 16 int16 weights w >> ex.
struct LinWindows {
  int32_t* off = nullptr;
  uint8_t* lanes = nullptr;
  int groups = 0, per = 0;
};

void layout_lin_windows(const int* xt, const int16_t* xw, int ex, int in_w, int out_w, int cn,
                        LinWindows* w) {
  const int G = cn == 3 ? 5 : 16 / cn;
  w->per = G;
  w->groups = out_w / G;
  const int64_t in_row = int64_t(in_w) * cn, out_row = int64_t(out_w) * cn;
  for (int g = 0; g < w->groups; ++g) {
    const int i = g * G;
    int lo = xt[size_t(i) * 2], hi = lo;
    for (int j = i; j < i + G; ++j)
      for (int t = 0; t < 2; ++t) {
        lo = std::min(lo, xt[size_t(j) * 2 + t]);
        hi = std::max(hi, xt[size_t(j) * 2 + t]);
      }
    const bool ok = int64_t(hi - lo + 1) * cn <= 16 && int64_t(lo) * cn + 16 <= in_row &&
                    int64_t(i) * cn + 16 <= out_row;
    w->off[g] = ok ? lo * cn : -1;
    uint8_t* l = w->lanes + size_t(g) * 96;
    std::memset(l, 0, 96);
    if (!ok) continue;
    for (int t = 0; t < 2; ++t, l += 48)
      for (int b = 0; b < 16; ++b) {
        const int j = i + b / cn, c = b % cn;
        const bool in = b < G * cn;
        l[b] = in ? uint8_t((xt[size_t(j) * 2 + t] - lo) * cn + c) : 0x80;
        const int16_t k = in ? int16_t(xw[size_t(j) * 2 + t] >> ex) : 0;
        std::memcpy(l + 16 + 2 * b, &k, 2);
      }
  }
}

// One source row into uint16 S'' (out: out_w * cn values, and 1 more of padding).
void lin_row16(const uint8_t* s, uint16_t* out, int out_w, int cn, const int* xt, const int16_t* xw,
               int ex, const LinWindows& w) {
  int dx = 0;
  for (int g = 0; g < w.groups; ++g, dx += w.per) {
    const int32_t o = w.off[g];
    if (o >= 0) {
      const v128_t v = wasm_v128_load(s + o);
      const uint8_t* l = w.lanes + size_t(g) * 96;
      const v128_t a = wasm_i8x16_swizzle(v, wasm_v128_load(l));
      const v128_t b = wasm_i8x16_swizzle(v, wasm_v128_load(l + 48));
      const v128_t lo =
          wasm_i16x8_add(wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(a), wasm_v128_load(l + 16)),
                         wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(b), wasm_v128_load(l + 64)));
      const v128_t hi =
          wasm_i16x8_add(wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(a), wasm_v128_load(l + 32)),
                         wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(b), wasm_v128_load(l + 80)));
      wasm_v128_store(out + size_t(dx) * cn, lo);
      wasm_v128_store(out + size_t(dx) * cn + 8, hi);
      continue;
    }
    for (int j = dx; j < dx + w.per; ++j)
      for (int c = 0; c < cn; ++c)
        out[size_t(j) * cn + c] =
            uint16_t(s[size_t(xt[2 * j]) * cn + c] * (xw[2 * j] >> ex) +
                     s[size_t(xt[2 * j + 1]) * cn + c] * (xw[2 * j + 1] >> ex));
  }
  for (int j = dx; j < out_w; ++j)
    for (int c = 0; c < cn; ++c)
      out[size_t(j) * cn + c] = uint16_t(s[size_t(xt[2 * j]) * cn + c] * (xw[2 * j] >> ex) +
                                         s[size_t(xt[2 * j + 1]) * cn + c] * (xw[2 * j + 1] >> ex));
}

// Output row from two uint16 rows: (((r0 b0) >> 4) + ((r1 b1) >> 4) + 2) >> 2, saturated.
void lin_vertical16(const uint16_t* r0, const uint16_t* r1, uint8_t* d, int w, int b0, int b1) {
  const v128_t k0 = wasm_i16x8_splat(int16_t(b0)), k1 = wasm_i16x8_splat(int16_t(b1));
  const v128_t two = wasm_i16x8_splat(2);
  auto half = [&](int o) {
    const v128_t t0 = wasm_u16x8_shr(wasm_i16x8_mul(wasm_v128_load(r0 + o), k0), 4);
    const v128_t t1 = wasm_u16x8_shr(wasm_i16x8_mul(wasm_v128_load(r1 + o), k1), 4);
    return wasm_u16x8_shr(wasm_i16x8_add(wasm_i16x8_add(t0, t1), two), 2);
  };
  int x = 0;
  for (; x + 16 <= w; x += 16)
    wasm_v128_store(d + x, wasm_u8x16_narrow_i16x8(half(x), half(x + 8)));
  for (; x < w; ++x) d[x] = sat_u8((((r0[x] * b0) >> 4) + ((r1[x] * b1) >> 4) + 2) >> 2);
}

// The whole resize when the weights allow it (see above) and windows make most of the rows;
// false (nothing written) otherwise.
bool linear_dyadic_u8(const uint8_t* x, uint8_t* y, const ImageBatch& g, const int* xt,
                      const int16_t* xw, const int* yt, const int16_t* yw, int* status) {
  const int in_h = int(g.in_h), in_w = int(g.in_w), cn = int(g.channels);
  const int out_h = int(g.out_h), out_w = int(g.out_w), W = out_w * cn;
  const int ex = weight_shift(xw, size_t(out_w) * 2), ey = weight_shift(yw, size_t(out_h) * 2);
  if (ex < 4 || ex + ey < 16) return false;
  const int qy = 16 - ex;
  LinWindows win;
  const int G = cn == 3 ? 5 : 16 / cn, groups = out_w / G;
  const size_t row = size_t(W) + 8;  // uint16 values, padded
  char* mem = static_cast<char*>(
      std::malloc(size_t(groups) * (sizeof(int32_t) + 96) + 2 * row * sizeof(uint16_t) + 16));
  if (!mem) {
    *status = kNoMemory;
    return true;
  }
  uint16_t* rows[2] = {reinterpret_cast<uint16_t*>(mem), reinterpret_cast<uint16_t*>(mem) + row};
  win.off = reinterpret_cast<int32_t*>(rows[1] + row);
  win.lanes = reinterpret_cast<uint8_t*>(win.off + groups);
  layout_lin_windows(xt, xw, ex, in_w, out_w, cn, &win);
  // Worth it where windows make the rows (upscaling); elsewhere (2.5x down: taps too far
  // apart) the general path's per-pixel vectors are faster than this one's scalar fallback.
  int windowed = 0;
  for (int k = 0; k < groups; ++k) windowed += win.off[k] >= 0;
  if (windowed * 8 < groups * 7) {
    std::free(mem);
    return false;
  }
  const size_t in_img = size_t(in_h) * in_w * cn, out_img = size_t(out_h) * W;
  for (int64_t n = 0; n < g.count; ++n) {
    const uint8_t* src = x + n * in_img;
    uint8_t* dst = y + n * out_img;
    int tag[2] = {-1, -1};
    for (int dy = 0; dy < out_h; ++dy) {
      const int r0 = yt[2 * dy], r1 = yt[2 * dy + 1];
      // slot of r0, then of r1 (a slot that holds neither is refilled)
      int s0 = tag[0] == r0 ? 0 : tag[1] == r0 ? 1 : -1;
      if (s0 < 0) {
        s0 = tag[0] == r1 ? 1 : 0;
        lin_row16(src + size_t(r0) * in_w * cn, rows[s0], out_w, cn, xt, xw, ex, win);
        tag[s0] = r0;
      }
      int s1 = tag[s0] == r1 ? s0 : tag[1 - s0] == r1 ? 1 - s0 : -1;
      if (s1 < 0) {
        s1 = 1 - s0;
        lin_row16(src + size_t(r1) * in_w * cn, rows[s1], out_w, cn, xt, xw, ex, win);
        tag[s1] = r1;
      }
      lin_vertical16(rows[s0], rows[s1], dst + size_t(dy) * W, W, yw[2 * dy] >> qy,
                     yw[2 * dy + 1] >> qy);
    }
  }
  std::free(mem);
  *status = kOk;
  return true;
}
#endif

// Accumulator and weight types per element type.
template <typename T>
struct Sep;
template <>
struct Sep<uint8_t> {
  using Acc = int;
  using Wt = int16_t;
};
template <>
struct Sep<float> {
  using Acc = float;
  using Wt = float;
};

template <typename T>
int separable(const T* x, T* y, const ImageBatch& g, double isx, double isy, cvrules::Kind kind) {
  using Acc = typename Sep<T>::Acc;
  using Wt = typename Sep<T>::Wt;
  const int in_h = int(g.in_h), in_w = int(g.in_w), cn = int(g.channels);
  const int out_h = int(g.out_h), out_w = int(g.out_w);
  const int ks = kind == cvrules::Kind::Cubic ? 4 : 2;
  const int W = out_w * cn;
  // Scratch: x taps and weights (float and fixed), y rows and weights, ks rows of Acc.
  const size_t nx = size_t(out_w) * ks, ny = size_t(out_h) * ks;
  // Rows of Acc have 4 elements of padding (the vector rows of 3 channels write one past).
  const size_t RW = size_t(W) + 4;
  const size_t bytes = (nx + ny) * (sizeof(int) + sizeof(float) + sizeof(int16_t)) +
                       size_t(ks) * RW * sizeof(Acc) + 64;
  char* mem = static_cast<char*>(std::malloc(bytes));
  if (!mem) return kNoMemory;
  Acc* rows_mem = reinterpret_cast<Acc*>(mem);
  float* xwf = reinterpret_cast<float*>(rows_mem + size_t(ks) * RW);
  float* ywf = xwf + nx;
  int* xt = reinterpret_cast<int*>(ywf + ny);
  int* yt = xt + nx;
  int16_t* xwi = reinterpret_cast<int16_t*>(yt + ny);
  int16_t* ywi = xwi + nx;
  cvrules::axis_taps(Axis::X, kind, isx, in_w, out_w, xt, xwf, xwi);
  cvrules::axis_taps(Axis::Y, kind, isy, in_h, out_h, yt, ywf, ywi);
  const Wt* xw = nullptr;
  const Wt* yw = nullptr;
  if constexpr (sizeof(Wt) == 2)
    xw = xwi, yw = ywi;
  else
    xw = xwf, yw = ywf;
#if OSW_HAVE_SIMD
  if constexpr (std::is_same<T, uint8_t>::value) {
    int status;
    if (ks == 2 && linear_dyadic_u8(x, y, g, xt, xwi, yt, ywi, &status)) {
      std::free(mem);
      return status;
    }
  }
#endif
  (void)yw;
  // The vector form loads 4 values at each tap: it stops at the first pixel whose last (and
  // largest) tap would read past the row (taps grow with dx).
  int vec_end = 0;
  while (vec_end < out_w && xt[size_t(vec_end) * ks + ks - 1] * cn + 4 <= in_w * cn) ++vec_end;

  Acc* rows[4];
  int tag[4];
  const size_t in_img = size_t(in_h) * in_w * cn, out_img = size_t(out_h) * W;
  for (int64_t n = 0; n < g.count; ++n) {
    const T* src = x + n * in_img;
    T* dst = y + n * out_img;
    for (int k = 0; k < ks; ++k) rows[k] = rows_mem + size_t(k) * RW, tag[k] = -1;
    for (int dy = 0; dy < out_h; ++dy) {
      const int* need = yt + dy * ks;
      // Keep rows already computed (moved into their slot), compute the others.
      Acc* slot[4];
      bool have[4];
      bool used[4] = {false, false, false, false};
      for (int k = 0; k < ks; ++k) {
        have[k] = false;
        for (int j = 0; j < ks; ++j)
          if (!used[j] && tag[j] == need[k]) {
            slot[k] = rows[j], used[j] = true, have[k] = true;
            break;
          }
      }
      for (int k = 0; k < ks; ++k) {
        if (have[k]) continue;
        // A repeated source row (clamped at the border) shares the computed one.
        bool dup = false;
        for (int j = 0; j < k; ++j)
          if (need[j] == need[k]) {
            slot[k] = slot[j], dup = true;
            break;
          }
        if (dup) continue;
        for (int j = 0; j < ks; ++j)
          if (!used[j]) {
            slot[k] = rows[j], used[j] = true;
            break;
          }
        hrow(src + size_t(need[k]) * in_w * cn, slot[k], out_w, cn, ks, xt, xw, vec_end);
        have[k] = true;
      }
      // Rebuild the slot table: distinct buffers keep their tags.
      int ntag[4];
      Acc* nrows[4];
      int m = 0;
      for (int k = 0; k < ks; ++k) {
        bool seen = false;
        for (int j = 0; j < m; ++j) seen = seen || nrows[j] == slot[k];
        if (!seen) nrows[m] = slot[k], ntag[m++] = need[k];
      }
      for (int j = 0; j < ks && m < ks; ++j) {
        bool seen = false;
        for (int i = 0; i < m; ++i) seen = seen || nrows[i] == rows[j];
        if (!seen) nrows[m] = rows[j], ntag[m++] = -1;
      }
      for (int k = 0; k < ks; ++k) rows[k] = nrows[k], tag[k] = ntag[k];
      vertical(slot, dst + size_t(dy) * W, W, ks, ywf + dy * ks, ywi + dy * ks);
    }
  }
  std::free(mem);
  return kOk;
}

// ---------------------------------------------------------------------------------------
// Area, integer scales.

// Cells cut by the right or bottom border, elements [i, W) of a row: (float)sum / count.
template <typename T>
void area_border(const T* S, T* D, int i, int W, int cn, int sx, int sy, int rows, int64_t step) {
  using Sum = typename std::conditional<std::is_same<T, uint8_t>::value, int, float>::type;
  for (; i < W; ++i) {
    const int x0 = (i / cn) * sx * cn + i % cn;
    Sum sum = 0;
    int count = 0;
    for (int a = 0; a < sy && a < rows; ++a)
      for (int b = 0; b < sx && x0 + b * cn < step; ++b) sum += S[a * step + x0 + b * cn], ++count;
    D[i] = count ? to_out(float(sum) / float(count), D) : T(0);
  }
}

#if OSW_HAVE_SIMD
// uint8 2x2 cells of 1, 3 or 4 channels, (sum + 2) >> 2: the two values of a cell's row made
// adjacent by a swizzle, summed by extadd_pairwise. Returns the elements done (whole pixels).
template <int CN>
int area2_u8_vec(const uint8_t* S0, const uint8_t* S1, uint8_t* D, int full) {
  // Output elements per vector: 8 (1 and 4 channels), 6 (3: 12 of the 16 bytes loaded).
  constexpr int kOut = CN == 3 ? 6 : 8;
  const v128_t m = CN == 4 ? wasm_i8x16_make(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15)
                           : wasm_i8x16_make(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1);
  const v128_t two = wasm_i16x8_splat(2);
  int i = 0;
  // 16 bytes read from 2i, 8 written from i (3 channels: the last 2 are the next pixel's,
  // rewritten by the next step, so i + 8 <= full keeps them in the row's whole cells).
  for (; i + 8 <= full; i += kOut) {
    v128_t a = wasm_v128_load(S0 + 2 * i), b = wasm_v128_load(S1 + 2 * i);
    if (CN != 1) a = wasm_i8x16_swizzle(a, m), b = wasm_i8x16_swizzle(b, m);
    v128_t t =
        wasm_i16x8_add(wasm_u16x8_extadd_pairwise_u8x16(a), wasm_u16x8_extadd_pairwise_u8x16(b));
    t = wasm_u16x8_shr(wasm_i16x8_add(t, two), 2);
    wasm_v128_store64_lane(D + i, wasm_u8x16_narrow_i16x8(t, t), 0);
  }
  return i;
}
#endif

// uint8, whole cells of a row: sums of sy rows per column (cs), then of sx columns per output.
void area_u8_row(const uint8_t* S, uint8_t* D, int full, int cn, int sx, int sy, int64_t step,
                 int* cs) {
  const int n = full * sx;  // input elements of the whole cells
  int i = 0;
  if (sx == 2 && sy == 2 && cn != 2) {
#if OSW_HAVE_SIMD
    if (cn == 4) i = area2_u8_vec<4>(S, S + step, D, full);
    if (cn == 3) i = area2_u8_vec<3>(S, S + step, D, full);
    if (cn == 1) i = area2_u8_vec<1>(S, S + step, D, full);
#endif
    for (; i < full; ++i) {
      const int p = i + (i / cn) * cn;
      D[i] =
          uint8_t((int(S[p]) + int(S[p + cn]) + int(S[p + step]) + int(S[p + step + cn]) + 2) >> 2);
    }
    return;
  }
  int j = 0;
#if OSW_HAVE_SIMD
  for (; j + 16 <= n; j += 16) {
    v128_t q0 = wasm_i32x4_splat(0), q1 = q0, q2 = q0, q3 = q0;
    for (int a = 0; a < sy; ++a) {
      const v128_t v = wasm_v128_load(S + a * step + j);
      const v128_t lo = wasm_u16x8_extend_low_u8x16(v), hi = wasm_u16x8_extend_high_u8x16(v);
      q0 = wasm_i32x4_add(q0, wasm_u32x4_extend_low_u16x8(lo));
      q1 = wasm_i32x4_add(q1, wasm_u32x4_extend_high_u16x8(lo));
      q2 = wasm_i32x4_add(q2, wasm_u32x4_extend_low_u16x8(hi));
      q3 = wasm_i32x4_add(q3, wasm_u32x4_extend_high_u16x8(hi));
    }
    wasm_v128_store(cs + j, q0), wasm_v128_store(cs + j + 4, q1);
    wasm_v128_store(cs + j + 8, q2), wasm_v128_store(cs + j + 12, q3);
  }
#endif
  for (; j < n; ++j) {
    int t = 0;
    for (int a = 0; a < sy; ++a) t += S[a * step + j];
    cs[j] = t;
  }
  const float scale = 1.f / float(sx * sy);
  const int pixels = full / cn;
  int ox = 0;
#if OSW_HAVE_SIMD
  // 3 and 4 channels: one pixel per vector (cs has padding; a 3-channel pixel's fourth byte
  // is rewritten by the next pixel, so the last one is left to the scalar loop).
  if (cn >= 3) {
    const v128_t vs = wasm_f32x4_splat(scale);
    const int end = cn == 4 ? pixels : pixels - 1;
    for (; ox < end; ++ox) {
      const int* c = cs + ox * sx * cn;
      v128_t t = wasm_v128_load(c);
      for (int b = 1; b < sx; ++b) t = wasm_i32x4_add(t, wasm_v128_load(c + b * cn));
      t = wasm_i32x4_trunc_sat_f32x4(
          wasm_f32x4_nearest(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(t), vs)));
      t = wasm_i16x8_narrow_i32x4(t, t);
      wasm_v128_store32_lane(D + ox * cn, wasm_u8x16_narrow_i16x8(t, t), 0);
    }
  }
#endif
  for (; ox < pixels; ++ox)
    for (int c = 0; c < cn; ++c) {
      int t = 0;
      for (int b = 0; b < sx; ++b) t += cs[(ox * sx + b) * cn + c];
      D[ox * cn + c] = sat_u8(float(t) * scale);
    }
}

int area_fast(const uint8_t* s, uint8_t* d, int in_h, int in_w, int cn, int out_h, int out_w,
              int sx, int sy) {
  const int full_w = (in_w / sx) * cn;  // elements of the row made of whole cells
  const int W = out_w * cn;
  const int64_t step = int64_t(in_w) * cn;
  int* cs = static_cast<int*>(std::malloc((size_t(full_w) * sx + 4) * sizeof(int)));
  if (!cs) return kNoMemory;
  for (int dy = 0; dy < out_h; ++dy) {
    uint8_t* D = d + int64_t(dy) * W;
    const int y0 = dy * sy;
    if (y0 >= in_h) {
      std::memset(D, 0, size_t(W));
      continue;
    }
    const uint8_t* S = s + int64_t(y0) * step;
    const int full = y0 + sy <= in_h ? full_w : 0;
    if (full) area_u8_row(S, D, full, cn, sx, sy, step, cs);
    area_border(S, D, full, W, cn, sx, sy, in_h - y0, step);
  }
  std::free(cs);
  return kOk;
}

int area_fast(const float* s, float* d, int in_h, int in_w, int cn, int out_h, int out_w, int sx,
              int sy) {
  const int area = sx * sy;
  const float scale = 1.f / float(area);
  const int full_w = (in_w / sx) * cn;  // elements of the row made of whole cells
  const int W = out_w * cn;
  const int64_t step = int64_t(in_w) * cn;
  const bool two = sx == 2 && sy == 2;
  for (int dy = 0; dy < out_h; ++dy) {
    float* D = d + int64_t(dy) * W;
    const int y0 = dy * sy;
    if (y0 >= in_h) {
      for (int i = 0; i < W; ++i) D[i] = 0.f;
      continue;
    }
    const int full = y0 + sy <= in_h ? full_w : 0;
    const float* S = s + int64_t(y0) * step;
    int i = 0;
    if (two && (cn == 1 || cn == 4)) {
      const int vend = full & ~3;
      for (; i < vend; ++i) {
        const int p = (i / cn) * 2 * cn + i % cn;
        D[i] = ((S[p] + S[p + cn]) + (S[p + step] + S[p + step + cn])) * 0.25f;
      }
    }
    for (; i < full; ++i) {
      const int p = (i / cn) * sx * cn + i % cn;
      float sum = 0.f;
      int k = 0;
      float t[4];
      for (int a = 0; a < sy; ++a)
        for (int b = 0; b < sx; ++b) {
          t[k++] = S[p + a * step + b * cn];
          if (k == 4) sum += ((t[0] + t[1]) + t[2]) + t[3], k = 0;
        }
      for (int j = 0; j < k; ++j) sum += t[j];
      D[i] = sum * scale;
    }
    area_border(S, D, i, W, cn, sx, sy, in_h - y0, step);
  }
  return kOk;
}

// Area, general: OpenCV's decimation tables.
template <typename T>
int area_general(const T* x, T* y, const ImageBatch& g, double scale_x, double scale_y) {
  const int in_h = int(g.in_h), in_w = int(g.in_w), cn = int(g.channels);
  const int out_h = int(g.out_h), out_w = int(g.out_w);
  const int W = out_w * cn;
  const size_t nxt = size_t(in_w) * 2 + 2, nyt = size_t(in_h) * 2 + 2;
  const size_t bytes = (nxt + nyt) * sizeof(cvrules::AreaTap) + (size_t(out_h) + 1) * sizeof(int) +
                       size_t(W) * 2 * sizeof(float);
  char* mem = static_cast<char*>(std::malloc(bytes));
  if (!mem) return kNoMemory;
  float* buf = reinterpret_cast<float*>(mem);
  float* sum = buf + W;
  cvrules::AreaTap* xtab = reinterpret_cast<cvrules::AreaTap*>(sum + W);
  cvrules::AreaTap* ytab = xtab + nxt;
  int* yfirst = reinterpret_cast<int*>(ytab + nyt);
  const int nx = cvrules::area_table(in_w, out_w, scale_x, xtab);
  const int ny = cvrules::area_table(in_h, out_h, scale_y, ytab);
  for (int k = 0, dy = 0; k < ny; ++k)
    if (k == 0 || ytab[k].d != ytab[k - 1].d) yfirst[dy++] = k;
  yfirst[out_h] = ny;
  const size_t in_img = size_t(in_h) * in_w * cn, out_img = size_t(out_h) * W;
  for (int64_t n = 0; n < g.count; ++n) {
    const T* src = x + n * in_img;
    T* dst = y + n * out_img;
    for (int dy = 0; dy < out_h; ++dy) {
      for (int j = yfirst[dy]; j < yfirst[dy + 1]; ++j) {
        const T* S = src + size_t(ytab[j].s) * in_w * cn;
        for (int i = 0; i < W; ++i) buf[i] = 0.f;
        for (int k = 0; k < nx; ++k) {
          const T* p = S + xtab[k].s * cn;
          float* b = buf + xtab[k].d * cn;
          const float a = xtab[k].w;
          for (int c = 0; c < cn; ++c) b[c] += float(p[c]) * a;
        }
        const float beta = ytab[j].w;
        int i = 0;
        if (j == yfirst[dy]) {
#if OSW_HAVE_SIMD
          const v128_t vb = wasm_f32x4_splat(beta);
          for (; i + 4 <= W; i += 4)
            wasm_v128_store(sum + i, wasm_f32x4_mul(vb, wasm_v128_load(buf + i)));
#endif
          for (; i < W; ++i) sum[i] = beta * buf[i];
        } else {
#if OSW_HAVE_SIMD
          const v128_t vb = wasm_f32x4_splat(beta);
          for (; i + 4 <= W; i += 4)
            wasm_v128_store(sum + i, wasm_f32x4_add(wasm_v128_load(sum + i),
                                                    wasm_f32x4_mul(vb, wasm_v128_load(buf + i))));
#endif
          for (; i < W; ++i) sum[i] += beta * buf[i];
        }
      }
      T* D = dst + size_t(dy) * W;
      for (int i = 0; i < W; ++i) D[i] = to_out(sum[i], D);
    }
  }
  std::free(mem);
  return kOk;
}

// ---------------------------------------------------------------------------------------
template <typename T>
int resize(const T* x, T* y, const ImageBatch& g, double isx, double isy, CvInterp interp) {
  if (!cvrules::valid(g, isx, isy, int(interp))) return kBadArgs;
  if (g.count == 0) return kOk;
  const int in_h = int(g.in_h), in_w = int(g.in_w), cn = int(g.channels);
  const int out_h = int(g.out_h), out_w = int(g.out_w);
  if (in_h == out_h && in_w == out_w) {
    std::memcpy(y, x, size_t(g.count) * in_h * in_w * cn * sizeof(T));
    return kOk;
  }
  const cvrules::Path p = cvrules::choose(in_h, in_w, out_h, out_w, isx, isy, interp);
  if (p.kind == cvrules::Kind::Nearest || p.kind == cvrules::Kind::NearestExact) {
    int* t = static_cast<int*>(std::malloc((size_t(out_w) + out_h) * sizeof(int)));
    if (!t) return kNoMemory;
    const bool exact = p.kind == cvrules::Kind::NearestExact;
    cvrules::nearest_table(exact, isx, in_w, out_w, t);
    cvrules::nearest_table(exact, isy, in_h, out_h, t + out_w);
    gather_images(reinterpret_cast<const uint8_t*>(x), reinterpret_cast<uint8_t*>(y), g.count, in_h,
                  in_w, out_w, out_h, sizeof(T) * cn, t, t + out_w);
    std::free(t);
    return kOk;
  }
  if (p.kind == cvrules::Kind::AreaFast) {
    for (int64_t n = 0; n < g.count; ++n)
      if (area_fast(x + n * in_h * in_w * cn, y + n * out_h * out_w * cn, in_h, in_w, cn, out_h,
                    out_w, p.iscale_x, p.iscale_y) != kOk)
        return kNoMemory;
    return kOk;
  }
  if (p.kind == cvrules::Kind::AreaGeneral) return area_general(x, y, g, 1. / isx, 1. / isy);
  return separable(x, y, g, isx, isy, p.kind);
}

}  // namespace

int opencv_resize_u8(const uint8_t* x, uint8_t* y, const ImageBatch& g, double inv_scale_x,
                     double inv_scale_y, CvInterp interp) {
  return resize(x, y, g, inv_scale_x, inv_scale_y, interp);
}

int opencv_resize_f32(const float* x, float* y, const ImageBatch& g, double inv_scale_x,
                      double inv_scale_y, CvInterp interp) {
  return resize(x, y, g, inv_scale_x, inv_scale_y, interp);
}

}  // namespace compat
}  // namespace osw
