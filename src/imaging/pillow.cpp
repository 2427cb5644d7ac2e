// imaging/pillow.cpp: PIL.Image.resize (Pillow 9.4) reproduced bit for bit.
//
// The algorithm, as checked against Pillow itself (tests/compat/oracle_pillow.py):
// - A resize to the same size is a copy (for LA/RGBA too: no premultiply round trip).
// - NEAREST is an affine map: the source coordinate of output column x is the double
//   in_w / out_w * 0.5, plus in_w / out_w once per column (accumulated, not multiplied);
//   the index is its integer part. Rows the same way. Alpha is never premultiplied.
// - Every other filter: two separable passes, horizontal first; a pass whose axis keeps its
//   length is skipped. Per axis: scale = in / out, filterscale = max(scale, 1), support =
//   filter support * filterscale; output i has centre (i + 0.5) * scale, taps from
//   int(centre - support + 0.5) to int(centre + support + 0.5) (exclusive), clamped to the
//   image, weights filter((tap - centre + 0.5) / filterscale) divided by their sum.
//   Filters: box (-0.5, 0.5], triangle, Hamming (0.54f/0.46f float constants), Keys
//   bicubic a = -0.5, Lanczos 3 (sinc * sinc/3).
// - uint8: weights become 22-bit fixed point (round half away from zero), each sum starts
//   at 2^21, the result is sum >> 22 (arithmetic) clamped to [0, 255], after each pass.
// - float32 ("F"): sums in double, in tap order, stored as float after each pass.
// - premultiply (LA/RGBA): c' = (t + (t >> 8)) >> 8 with t = c * a + 128 before, and
//   c = min(255, 255 * c' / a) after unless a is 0 or 255.
// SIMD (OSW_HAVE_SIMD): uint8 sums use i32x4.dot_i16x8 with each 22-bit weight split into
// two int16 halves (exact, see kSplit); the horizontal pass takes 8 source bytes per group
// (2 RGBA or RGB pixels, 4 LA, 8 L) swizzled into channel pairs, the vertical pass two rows
// at a time, 16 bytes along the row; unpremultiply divides in float32 (exact, see there),
// a row at a time right after it is made. float32: the horizontal pass runs 4 rows at once
// (a row per double lane), the vertical pass 4 floats along the row; every sum keeps
// Pillow's order. Integer sums are exact, so the scalar twin gives the same bytes.
#include "imaging/gather.h"
#include "imaging/imaging.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/simd.h"

namespace osw {
namespace compat {
namespace {

constexpr int kPrecisionBits = 22;
constexpr int64_t kMaxSide = int64_t(1) << 24;  // sizes Pillow's float box holds exactly

// Frees what it holds when it goes out of scope.
struct Scratch {
  void* p = nullptr;
  ~Scratch() { std::free(p); }
  template <typename T>
  T* alloc(size_t n) {
    p = std::malloc(n * sizeof(T) + 1);
    return static_cast<T*>(p);
  }
};

double filter_support(PillowFilter f) {
  switch (f) {
    case PillowFilter::Box: return 0.5;
    case PillowFilter::Bilinear:
    case PillowFilter::Hamming: return 1.0;
    case PillowFilter::Bicubic: return 2.0;
    default: return 3.0;  // Lanczos
  }
}

double sinc_pi(double x) {
  if (x == 0.0) return 1.0;
  x = x * 3.14159265358979323846;
  return std::sin(x) / x;
}

double filter_weight(PillowFilter f, double x) {
  switch (f) {
    case PillowFilter::Box: return (x > -0.5 && x <= 0.5) ? 1.0 : 0.0;
    case PillowFilter::Bilinear: x = std::fabs(x); return x < 1.0 ? 1.0 - x : 0.0;
    case PillowFilter::Hamming:
      x = std::fabs(x);
      if (x == 0.0) return 1.0;
      if (x >= 1.0) return 0.0;
      x = x * 3.14159265358979323846;
      return std::sin(x) / x * (double(0.54f) + double(0.46f) * std::cos(x));
    case PillowFilter::Bicubic:
      x = std::fabs(x);
      if (x < 1.0) return (1.5 * x - 2.5) * x * x + 1.0;
      if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * -0.5;
      return 0.0;
    default:  // Lanczos
      if (-3.0 <= x && x < 3.0) return sinc_pi(x) * sinc_pi(x / 3.0);
      return 0.0;
  }
}

// The taps of one axis: output i reads `count[i]` source positions from `start[i]`, with
// weights w[i * ksize ...] (double) or k[i * ksize ...] (22-bit fixed point).
struct Axis {
  int ksize = 0;
  int* start = nullptr;
  int* count = nullptr;
  double* w = nullptr;
  int32_t* k = nullptr;
  // Fixed point, when every weight is a multiple of 2^kNarrow: the SIMD passes sum
  // k >> kNarrow in int16 lanes (narrow), or k >> kSmall in uint16 sums (small). See
  // classify().
  bool narrow = false, small = false;
  int max_count = 0;
  Scratch mem;
};

void classify(Axis* a, int out);

bool build_axis(int in, int out, PillowFilter f, bool fixed, Axis* a) {
  double scale = double(float(in)) / out;
  double filterscale = scale < 1.0 ? 1.0 : scale;
  double support = filter_support(f) * filterscale;
  int ksize = int(std::ceil(support)) * 2 + 1;
  a->ksize = ksize;
  size_t n = size_t(out) * size_t(ksize);
  char* m =
      a->mem.alloc<char>(n * sizeof(double) + n * sizeof(int32_t) + 2 * size_t(out) * sizeof(int));
  if (!m) return false;
  a->w = reinterpret_cast<double*>(m);
  a->k = reinterpret_cast<int32_t*>(m + n * sizeof(double));
  a->start = reinterpret_cast<int*>(m + n * (sizeof(double) + sizeof(int32_t)));
  a->count = a->start + out;
  double inv = 1.0 / filterscale;
  for (int i = 0; i < out; ++i) {
    double centre = (i + 0.5) * scale;
    int lo = int(centre - support + 0.5);
    int hi = int(centre + support + 0.5);
    if (lo < 0) lo = 0;
    if (hi > in) hi = in;
    int cnt = hi - lo;
    double* w = a->w + size_t(i) * ksize;
    double sum = 0.0;
    for (int t = 0; t < cnt; ++t) {
      w[t] = filter_weight(f, (double(t + lo) - centre + 0.5) * inv);
      sum += w[t];
    }
    if (sum != 0.0)
      for (int t = 0; t < cnt; ++t) w[t] /= sum;
    for (int t = cnt; t < ksize; ++t) w[t] = 0.0;
    if (fixed) {
      // Taps whose 22-bit weight is 0 at either end add nothing to an integer sum: dropped
      // (bilinear and bicubic upscaling have such taps; the float path keeps them, since
      // 0 * inf is NaN there).
      int32_t* k = a->k + size_t(i) * ksize;
      int32_t tmp;
      int skip = 0, kept = 0;
      for (int t = 0; t < cnt; ++t) {
        tmp = w[t] < 0 ? int32_t(-0.5 + w[t] * (1 << kPrecisionBits))
                       : int32_t(0.5 + w[t] * (1 << kPrecisionBits));
        if (kept == 0 && tmp == 0) {
          ++skip;
          continue;
        }
        k[kept++] = tmp;
      }
      while (kept > 0 && k[kept - 1] == 0) --kept;
      for (int t = kept; t < ksize; ++t) k[t] = 0;
      if (kept > 0) lo += skip;
      cnt = kept;
    }
    a->start[i] = lo;
    a->count[i] = cnt;
  }
  if (fixed) classify(a, out);
  return true;
}

// The sums of an axis whose weights k are all multiples of 2^m (m <= 21): Pillow's
// (sum x k + 2^21) >> 22 equals (sum x k' + 2^(21 - m)) >> (22 - m) with k' = k >> m, since
// the sum is 2^m times the second one's. Dyadic scales (2x, 4x up or down) give such weights
// (bilinear 2x: multiples of 2^20), so the SIMD passes take fewer or narrower products:
// - narrow (m >= kNarrow): k >> 8 fits an int16, one dot product per pair of taps where
//   split weights take two; the sum is shifted by 14;
// - small (m >= kSmall, no negative weight, sum of k >> 14 at most (65535 - 128) / 255 per
//   output): uint16 sums of byte times weight, exact, whose high byte is the result.
// The shifts are constants: V8 compiles a SIMD shift by a variable amount to slow code.
constexpr int kNarrow = 8, kSmall = 14;

void classify(Axis* a, int out) {
  bool nonneg = true, narrow = true;
  for (int i = 0; i < out; ++i) {
    const int32_t* k = a->k + size_t(i) * a->ksize;
    int64_t sum = 0;
    for (int t = 0; t < a->count[i]; ++t) {
      narrow = narrow && (k[t] & ((1 << kNarrow) - 1)) == 0 && (k[t] >> kNarrow) >= -32768 &&
               (k[t] >> kNarrow) <= 32767;
      nonneg = nonneg && k[t] >= 0 && (k[t] & ((1 << kSmall) - 1)) == 0;
      sum += k[t] >> kSmall;
    }
    nonneg = nonneg && sum * 255 + (1 << (kPrecisionBits - 1 - kSmall)) <= 65535;
    a->max_count = a->count[i] > a->max_count ? a->count[i] : a->max_count;
  }
  a->narrow = narrow;
  a->small = narrow && nonneg;
}

int check(const uint8_t* x, const void* y, const ImageBatch& g, PillowFilter filter) {
  if (g.count < 0 || g.channels < 1 || g.channels > 4) return kBadArgs;
  if (g.in_h < 1 || g.in_w < 1 || g.out_h < 1 || g.out_w < 1) return kBadArgs;
  if (g.in_h > kMaxSide || g.in_w > kMaxSide || g.out_h > kMaxSide || g.out_w > kMaxSide)
    return kBadArgs;
  // Whole images must be addressable with size_t (the wasm32 build) and int64_t.
  const double lim = double(SIZE_MAX) / 8;
  if (double(g.in_h) * double(g.in_w) * double(g.channels) * double(g.count) > lim ||
      double(g.out_h) * double(g.out_w) * double(g.channels) * double(g.count) > lim)
    return kBadArgs;
  int fi = static_cast<int>(filter);
  if (fi < 0 || fi > 5) return kBadArgs;
  if (g.count > 0 && (!x || !y)) return kBadArgs;
  return kOk;
}

// NEAREST: pixels of `px` bytes copied along Pillow's accumulated affine coordinates;
// outputs that fall outside the source stay zero.
int nearest(const uint8_t* x, uint8_t* y, const ImageBatch& g, size_t px) {
  int in_w = int(g.in_w), in_h = int(g.in_h), out_w = int(g.out_w), out_h = int(g.out_h);
  Scratch mem;
  int* xs = mem.alloc<int>(size_t(out_w) + size_t(out_h));
  if (!xs) return kNoMemory;
  int* ys = xs + out_w;
  double ax = double(float(in_w)) / out_w, ay = double(float(in_h)) / out_h;
  double xo = ax * 0.5, yo = ay * 0.5;
  for (int i = 0; i < out_w; ++i, xo += ax) {
    int v = xo < 0.0 ? -1 : int(xo);
    xs[i] = v < in_w ? v : -1;
  }
  for (int i = 0; i < out_h; ++i, yo += ay) {
    int v = yo < 0.0 ? -1 : int(yo);
    ys[i] = v < in_h ? v : -1;
  }
  gather_images(x, y, g.count, in_h, in_w, out_w, out_h, px, xs, ys);
  return kOk;
}

// ---- uint8 ----------------------------------------------------------------------------

inline uint8_t clip8(int32_t s) {
  s >>= kPrecisionBits;
  return uint8_t(s < 0 ? 0 : s > 255 ? 255 : s);
}

void premultiply_row(const uint8_t* s, uint8_t* d, int pixels, int c) {
  int i = 0;
#if OSW_HAVE_SIMD
  // 16 bytes (whole pixels for c = 2 or 4) at a time: every byte times its pixel's alpha in
  // 16 bits (c * a + 128 <= 65153, plus t >> 8 still below 2^16), alpha bytes kept.
  const v128_t alpha_of =
      c == 4 ? wasm_i8x16_make(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15)
             : wasm_i8x16_make(1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15);
  const v128_t is_alpha =
      c == 4 ? wasm_i32x4_splat(int32_t(0xFF000000u)) : wasm_i16x8_splat(int16_t(0xFF00));
  const v128_t half = wasm_i16x8_splat(128);
  const int per = 16 / c;
  for (; i + per <= pixels; i += per) {
    v128_t v = wasm_v128_load(s + size_t(i) * c);
    v128_t a = wasm_i8x16_swizzle(v, alpha_of);
    if (wasm_i8x16_all_true(
            wasm_i8x16_eq(a, wasm_i8x16_splat(-1)))) {  // opaque: c * 255 rounds back to c
      wasm_v128_store(d + size_t(i) * c, v);
      continue;
    }
    v128_t lo = wasm_i16x8_add(
        wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(v), wasm_u16x8_extend_low_u8x16(a)), half);
    v128_t hi = wasm_i16x8_add(
        wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(v), wasm_u16x8_extend_high_u8x16(a)), half);
    lo = wasm_u16x8_shr(wasm_i16x8_add(lo, wasm_u16x8_shr(lo, 8)), 8);
    hi = wasm_u16x8_shr(wasm_i16x8_add(hi, wasm_u16x8_shr(hi, 8)), 8);
    v128_t r = wasm_u8x16_narrow_i16x8(lo, hi);
    wasm_v128_store(d + size_t(i) * c, wasm_v128_bitselect(v, r, is_alpha));
  }
#endif
  s += size_t(i) * c;
  d += size_t(i) * c;
  for (; i < pixels; ++i, s += c, d += c) {
    unsigned a = s[c - 1];
    for (int j = 0; j < c - 1; ++j) {
      unsigned t = s[j] * a + 128;
      d[j] = uint8_t(((t >> 8) + t) >> 8);
    }
    d[c - 1] = uint8_t(a);
  }
}

// 255 * v / a (truncated) as (255 * v * m_a) >> 32 with m_a = ceil(2^32 / a): exact, since
// 255 * v * (m_a * a - 2^32) < 65025 * 254 < 2^32. Alpha 0 and 255 leave the pixel alone.
struct Reciprocals {
  uint64_t m[256];  // m_1 = 2^32 needs 33 bits
  Reciprocals() {
    m[0] = 0;
    for (unsigned a = 1; a < 256; ++a) m[a] = ((uint64_t(1) << 32) + a - 1) / a;
  }
};

// One row of `pixels` premultiplied pixels back to straight alpha, in place.
void unpremultiply_row(uint8_t* p, int pixels, int c, const Reciprocals& r) {
  int i = 0;
#if OSW_HAVE_SIMD
  if (c == 4) {
    // 4 RGBA pixels a vector, one per int32 lane: floor(255 * v / a) as floor(v * r + 2^-10)
    // with r = 255 / a in float32 (one division per pixel, not three). Exact: v * r is within
    // 3 * 2^-24 relative of 255 v / a, at most 255 * 3 * 2^-24 < 2^-14 off; a quotient that is
    // an integer q gives [q - 2^-14, q + 2^-14] + 2^-10, whose floor is q; one that is not lies
    // at least 1 / a >= 1 / 255 below the next integer, more than 2^-10 + 2^-14 below it.
    // (tests: every (colour, alpha) pair.) Clamped to 255 (v > a), then made an integer in the
    // low byte of the float by adding 2^23 (exact: an integer below 2^23), the three channels'
    // low bytes gathered by two shuffles: no float-to-int conversion (slow in V8).
    const v128_t f255 = wasm_f32x4_splat(255.0f), eps = wasm_f32x4_splat(1.0f / 1024);
    const v128_t magic = wasm_f32x4_splat(8388608.0f), low = wasm_i32x4_splat(0xFF);
    const v128_t i255 = wasm_i32x4_splat(255), alpha = wasm_i32x4_splat(int32_t(0xFF000000u));
    for (; i + 4 <= pixels; i += 4) {
      uint8_t* q = p + size_t(i) * 4;
      // 16 opaque pixels at once (their alpha bytes and-ed together are 255): nothing to do
      if ((i & 15) == 0 && i + 16 <= pixels) {
        const v128_t all =
            wasm_v128_and(wasm_v128_and(wasm_v128_load(q), wasm_v128_load(q + 16)),
                          wasm_v128_and(wasm_v128_load(q + 32), wasm_v128_load(q + 48)));
        if (wasm_i32x4_all_true(wasm_i32x4_eq(wasm_v128_and(all, alpha), alpha))) {
          i += 12;
          continue;
        }
      }
      const v128_t v = wasm_v128_load(q);
      const v128_t a = wasm_u32x4_shr(v, 24);
      // alpha 0 and 255, and the alpha byte of every pixel, stay as they are
      const v128_t keep = wasm_v128_or(
          wasm_v128_or(wasm_i32x4_eq(a, wasm_i32x4_splat(0)), wasm_i32x4_eq(a, i255)), alpha);
      if (wasm_i32x4_all_true(wasm_i32x4_eq(keep, wasm_i32x4_splat(-1))))
        continue;  // opaque (or clear) pixels
      const v128_t r = wasm_f32x4_div(f255, wasm_f32x4_convert_i32x4(a));
      v128_t ch[3];
      for (int j = 0; j < 3; ++j) {
        const v128_t c =
            wasm_f32x4_convert_i32x4(wasm_v128_and(j ? wasm_u32x4_shr(v, 8 * j) : v, low));
        const v128_t qf = wasm_f32x4_pmin(wasm_f32x4_add(wasm_f32x4_mul(c, r), eps), f255);
        ch[j] = wasm_f32x4_add(wasm_f32x4_floor(qf), magic);
      }
      const v128_t rg =
          wasm_i8x16_shuffle(ch[0], ch[1], 0, 16, 2, 3, 4, 20, 6, 7, 8, 24, 10, 11, 12, 28, 14, 15);
      const v128_t out =
          wasm_i8x16_shuffle(rg, ch[2], 0, 1, 16, 3, 4, 5, 20, 7, 8, 9, 24, 11, 12, 13, 28, 15);
      wasm_v128_store(q, wasm_v128_bitselect(v, out, keep));
    }
  }
#endif
  p += size_t(i) * c;
  for (; i < pixels; ++i, p += c) {
    unsigned a = p[c - 1];
    if (a == 0 || a == 255) continue;
    for (int j = 0; j < c - 1; ++j) {
      uint64_t v = (uint64_t(255u * p[j]) * r.m[a]) >> 32;
      p[j] = uint8_t(v > 255 ? 255 : v);
    }
  }
}

#if OSW_HAVE_SIMD
// The SIMD passes multiply bytes by weights with i32x4.dot_i16x8 (two products a lane): each
// 22-bit weight k is split as k = kh * 2^15 + kl with kh = k >> 15 and kl = k & 0x7FFF, both
// int16, and a sum is (sum of x * kh) * 2^15 + sum of x * kl. Exact: every dot lane is at most
// 2 * 255 * 32767 in magnitude, and the int32 adds wrap modulo 2^32 like the shift, so the
// result is Pillow's sum modulo 2^32, which is Pillow's sum since that fits in an int32.
constexpr int kSplit = 15;
inline int16_t weight_hi(int32_t k) { return int16_t(k >> kSplit); }
inline int16_t weight_lo(int32_t k) { return int16_t(k & ((1 << kSplit) - 1)); }
inline v128_t split_sum(v128_t hi, v128_t lo) {
  return wasm_i32x4_add(wasm_i32x4_shl(hi, kSplit), lo);
}

// Horizontal pass: 8 source bytes per group (RGBA, LA, L: 2, 4, 8 pixels; RGB: 2 pixels, 6
// bytes), swizzled into uint16 lanes so that each dot pair holds one channel of two pixels.
// The table holds per group int16 (kh, kh') and (kl, kl') for RGB/RGBA (splat across the
// vector), the full 8 lanes of kh then of kl for L and LA.
inline int h_pixels(int c) { return c == 3 ? 2 : 8 / c; }
inline int h_group_i16(int c) { return c >= 3 ? 4 : 16; }
#endif

// Per output: the table entries of its taps (int16 groups for SIMD) or nothing (scalar).
size_t horizontal_table_i16(int c, int ksize) {
#if OSW_HAVE_SIMD
  return size_t((ksize + h_pixels(c) - 1) / h_pixels(c)) * h_group_i16(c);
#else
  (void)c;
  (void)ksize;
  return 0;
#endif
}

void layout_horizontal(const Axis& a, int out, int c, int16_t* table, int* groups) {
#if OSW_HAVE_SIMD
  const int per = h_pixels(c), gs = h_group_i16(c);
  const size_t stride = horizontal_table_i16(c, a.ksize);
  for (int i = 0; i < out; ++i) {
    const int32_t* k = a.k + size_t(i) * a.ksize;
    const int cnt = a.count[i], ng = (cnt + per - 1) / per;
    int16_t* v = table + size_t(i) * stride;
    std::memset(v, 0, stride * sizeof(int16_t));
    for (int t = 0; t < ng * per; ++t) {
      const int32_t kk = t < cnt ? k[t] : 0;
      const int g = t / per, m = t % per;
      int16_t* gv = v + size_t(g) * gs;
      // narrow: the whole weight k >> kNarrow in the kh slots (the kl ones stay 0, unread)
      const int16_t kh = a.narrow ? int16_t(kk >> kNarrow) : weight_hi(kk);
      const int16_t kl = a.narrow ? 0 : weight_lo(kk);
      if (c >= 3) {  // (kh0, kh1, kl0, kl1)
        gv[m] = kh;
        gv[2 + m] = kl;
      } else {
        // L: lane m; LA: pixel m's two channels in lanes (m / 2) * 4 + m % 2 and that + 2.
        const int l0 = c == 1 ? m : (m / 2) * 4 + m % 2;
        gv[l0] = kh;
        gv[8 + l0] = kl;
        if (c == 2) {
          gv[l0 + 2] = kh;
          gv[8 + l0 + 2] = kl;
        }
      }
    }
    groups[i] = ng;
  }
#else
  (void)a;
  (void)out;
  (void)c;
  (void)table;
  (void)groups;
#endif
}

#if OSW_HAVE_SIMD
// Outputs [i0, i1) of a row of `out`, one pixel at a time (d: the row). Split: the weights'
// kh and kl halves; else (narrow) kh is the whole weight k >> kNarrow.
template <int C, bool Split>
void horizontal_pixels(const uint8_t* s, uint8_t* d, int i0, int i1, int out, const Axis& a,
                       const int16_t* table, const int* groups) {
  constexpr int per = C == 3 ? 2 : 8 / C, gs = C >= 3 ? 4 : 16, step = per * C;
  const size_t stride = horizontal_table_i16(C, a.ksize);
  // Source byte of each uint16 lane (Z: zero; 0x80 rather than 16 so that
  // engines can use the index as is).
  constexpr int8_t Z = -128;
  const v128_t mask = C == 4   ? wasm_i8x16_make(0, Z, 4, Z, 1, Z, 5, Z, 2, Z, 6, Z, 3, Z, 7, Z)
                      : C == 3 ? wasm_i8x16_make(0, Z, 3, Z, 1, Z, 4, Z, 2, Z, 5, Z, Z, Z, Z, Z)
                      : C == 2 ? wasm_i8x16_make(0, Z, 2, Z, 1, Z, 3, Z, 4, Z, 6, Z, 5, Z, 7, Z)
                               : wasm_i8x16_make(0, Z, 1, Z, 2, Z, 3, Z, 4, Z, 5, Z, 6, Z, 7, Z);
  constexpr int shift = Split ? kPrecisionBits : kPrecisionBits - kNarrow;
  const v128_t zero = wasm_i32x4_splat(0), half = wasm_i32x4_splat(1 << (shift - 1));
  d += size_t(i0) * C;
  for (int i = i0; i < i1; ++i, d += C) {
    const uint8_t* p = s + size_t(a.start[i]) * C;
    const int16_t* k = table + size_t(i) * stride;
    v128_t hi = zero, lo = zero;
    for (int g = groups[i]; g > 0; --g, p += step, k += gs) {
      const v128_t b = wasm_i8x16_swizzle(wasm_v128_load64_zero(p), mask);
      if (C >= 3) {
        hi = wasm_i32x4_add(hi, wasm_i32x4_dot_i16x8(b, wasm_v128_load32_splat(k)));
        if (Split) lo = wasm_i32x4_add(lo, wasm_i32x4_dot_i16x8(b, wasm_v128_load32_splat(k + 2)));
      } else {
        hi = wasm_i32x4_add(hi, wasm_i32x4_dot_i16x8(b, wasm_v128_load(k)));
        if (Split) lo = wasm_i32x4_add(lo, wasm_i32x4_dot_i16x8(b, wasm_v128_load(k + 8)));
      }
    }
    v128_t acc = Split ? split_sum(hi, lo) : hi;
    // Fold the lanes of one channel together: L has 4 per vector, LA 2 (lanes c and c + 2).
    if (C <= 2) acc = wasm_i32x4_add(acc, wasm_i32x4_shuffle(acc, acc, 2, 3, 0, 1));
    if (C == 1) acc = wasm_i32x4_add(acc, wasm_i32x4_shuffle(acc, acc, 1, 0, 3, 2));
    acc = wasm_i32x4_shr(wasm_i32x4_add(acc, half), shift);
    const v128_t w = wasm_i16x8_narrow_i32x4(acc, acc);
    const v128_t r = wasm_u8x16_narrow_i16x8(w, w);  // the clamp to [0, 255]
    if (C == 4) {
      wasm_v128_store32_lane(d, r, 0);
    } else if (C == 3) {
      if (i + 1 < out) {
        wasm_v128_store32_lane(d, r, 0);  // its fourth byte is the next pixel's, written next
      } else {
        wasm_v128_store16_lane(d, r, 0);
        wasm_v128_store8_lane(d + 2, r, 2);
      }
    } else if (C == 2) {
      wasm_v128_store16_lane(d, r, 0);
    } else {
      wasm_v128_store8_lane(d, r, 0);
    }
  }
}

// Windows (small axes): a group of G outputs (16 bytes; 5 RGB pixels, 15 bytes) whose taps
// lie in 16 bytes of the source row is one load, then per tap a swizzle of the tap's bytes
// into the output lanes and a multiply by the lanes' weights k >> kSmall, summed in uint16
// (exact, as in vertical16_small). Per group: the window's byte offset in the row, or -1
// where the group cannot (taps farther apart, past the row's end, a store past the output
// row's end); then per tap (max_count of them, missing taps with weight 0) 16 lane indices
// and 16 int16 weights.
// The high bytes of the uint16 lanes of lo, then of hi: (sum + 128) >> 8 of small sums.
inline v128_t high_bytes(v128_t lo, v128_t hi) {
  return wasm_i8x16_shuffle(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}

struct HWindows {
  int32_t* off = nullptr;
  uint8_t* lanes = nullptr;
  int groups = 0;
};

inline int hw_pixels(int c) { return c == 3 ? 5 : 16 / c; }
inline size_t hw_bytes(const Axis& a, int out, int c) {
  return a.small ? size_t(out / hw_pixels(c)) * (sizeof(int32_t) + 48 * size_t(a.max_count)) : 0;
}

// mem: hw_bytes(a, out, c) bytes (int32-aligned).
void layout_windows(const Axis& a, int in, int out, int c, uint8_t* mem, HWindows* w) {
  const int G = hw_pixels(c), T = a.max_count;
  w->groups = a.small ? out / G : 0;
  w->off = reinterpret_cast<int32_t*>(mem);
  w->lanes = mem + size_t(w->groups) * sizeof(int32_t);
  const int64_t in_row = int64_t(in) * c, out_row = int64_t(out) * c;
  for (int g = 0; g < w->groups; ++g) {
    const int i = g * G;
    int lo = in, hi = 0;
    for (int j = i; j < i + G; ++j) {
      if (a.count[j] == 0) continue;
      lo = a.start[j] < lo ? a.start[j] : lo;
      hi = a.start[j] + a.count[j] > hi ? a.start[j] + a.count[j] : hi;
    }
    if (lo > hi) lo = hi = 0;  // no taps at all: zeros
    const bool ok = int64_t(hi - lo) * c <= 16 && int64_t(lo) * c + 16 <= in_row &&
                    int64_t(i) * c + 16 <= out_row;
    w->off[g] = ok ? lo * c : -1;
    uint8_t* l = w->lanes + size_t(g) * T * 48;
    std::memset(l, 0, size_t(T) * 48);
    if (!ok) continue;
    for (int t = 0; t < T; ++t, l += 48) {
      for (int b = 0; b < 16; ++b) {
        const int j = i + b / c, ch = b % c;
        const bool tap = b < G * c && t < a.count[j];
        l[b] = tap ? uint8_t((a.start[j] + t - lo) * c + ch) : 0x80;
        const int16_t k = tap ? int16_t(a.k[size_t(j) * a.ksize + t] >> kSmall) : 0;
        std::memcpy(l + 16 + 2 * b, &k, 2);
      }
    }
  }
}

// T: the axis's max_count (0: any, read from the axis).
template <int C, int T0>
void horizontal_windows(const uint8_t* s, uint8_t* d, int out, const Axis& a, const int16_t* table,
                        const int* groups, const HWindows& w) {
  constexpr int G = C == 3 ? 5 : 16 / C;
  const int T = T0 > 0 ? T0 : a.max_count;
  const v128_t half = wasm_i16x8_splat(1 << (kPrecisionBits - 1 - kSmall));
  int i = 0;
  for (int g = 0; g < w.groups; ++g, i += G) {
    const int32_t o = w.off[g];
    if (o < 0) {
      horizontal_pixels<C, false>(s, d, i, i + G, out, a, table, groups);
      continue;
    }
    const v128_t v = wasm_v128_load(s + o);
    const uint8_t* l = w.lanes + size_t(g) * T * 48;
    v128_t lo = half, hi = half;
    for (int t = 0; t < T; ++t, l += 48) {
      const v128_t x = wasm_i8x16_swizzle(v, wasm_v128_load(l));
      lo = wasm_i16x8_add(lo,
                          wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(x), wasm_v128_load(l + 16)));
      hi = wasm_i16x8_add(hi,
                          wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(x), wasm_v128_load(l + 32)));
    }
    wasm_v128_store(d + size_t(i) * C, high_bytes(lo, hi));
  }
  horizontal_pixels<C, false>(s, d, i, out, out, a, table, groups);
}

template <int C>
void horizontal_row_c(const uint8_t* s, uint8_t* d, int out, const Axis& a, const int16_t* table,
                      const int* groups, const HWindows& w) {
  if (w.groups > 0) {
    switch (a.max_count) {
      case 2: return horizontal_windows<C, 2>(s, d, out, a, table, groups, w);
      case 4: return horizontal_windows<C, 4>(s, d, out, a, table, groups, w);
      default: return horizontal_windows<C, 0>(s, d, out, a, table, groups, w);
    }
  }
  if (a.narrow) return horizontal_pixels<C, false>(s, d, 0, out, out, a, table, groups);
  horizontal_pixels<C, true>(s, d, 0, out, out, a, table, groups);
}
#else
struct HWindows {
  int groups = 0;
};
inline size_t hw_bytes(const Axis&, int, int) { return 0; }
inline void layout_windows(const Axis&, int, int, int, uint8_t*, HWindows*) {}
#endif

// One source row (with at least 7 readable bytes after its last pixel for the SIMD form)
// resampled into `out` pixels of `c` channels.
void horizontal_row_u8(const uint8_t* s, uint8_t* d, int out, int c, const Axis& a,
                       const int16_t* table, const int* groups, const HWindows& w) {
#if OSW_HAVE_SIMD
  switch (c) {
    case 1: return horizontal_row_c<1>(s, d, out, a, table, groups, w);
    case 2: return horizontal_row_c<2>(s, d, out, a, table, groups, w);
    case 3: return horizontal_row_c<3>(s, d, out, a, table, groups, w);
    default: return horizontal_row_c<4>(s, d, out, a, table, groups, w);
  }
#else
  (void)table;
  (void)groups;
  (void)w;
  for (int i = 0; i < out; ++i, d += c) {
    const uint8_t* p = s + size_t(a.start[i]) * c;
    const int32_t* k = a.k + size_t(i) * a.ksize;
    int cnt = a.count[i];
    for (int ch = 0; ch < c; ++ch) {
      int32_t sum = 1 << (kPrecisionBits - 1);
      for (int t = 0; t < cnt; ++t) sum += int32_t(p[t * c + ch]) * k[t];
      d[ch] = clip8(sum);
    }
  }
#endif
}

// Vertical weights for SIMD, per output row: split (the axis neither narrow nor small), per
// pair of taps (t, t + 1), int32 (kh_t | kh_t1 << 16) and (kl_t | kl_t1 << 16), splat into
// int16 lane pairs (an odd last tap pairs with 0); narrow, per pair (k'_t | k'_t1 << 16);
// small, per tap k_t >> kSmall.
size_t vertical_table_i32(int ksize) {
#if OSW_HAVE_SIMD
  return size_t((ksize + 1) / 2) * 2;
#else
  (void)ksize;
  return 0;
#endif
}

#if OSW_HAVE_SIMD
inline int32_t pair16(int32_t a, int32_t b) {
  return int32_t(uint32_t(uint16_t(a)) | uint32_t(uint16_t(b)) << 16);
}
#endif

void layout_vertical(const Axis& a, int out, int32_t* table) {
#if OSW_HAVE_SIMD
  const size_t stride = vertical_table_i32(a.ksize);
  for (int i = 0; i < out; ++i) {
    const int32_t* k = a.k + size_t(i) * a.ksize;
    const int cnt = a.count[i];
    int32_t* v = table + size_t(i) * stride;
    for (int t = 0; t < cnt; t += 2) {
      const int32_t k0 = k[t], k1 = t + 1 < cnt ? k[t + 1] : 0;
      if (a.small) {
        v[t] = k0 >> kSmall;
        v[t + 1] = k1 >> kSmall;
      } else if (a.narrow) {
        v[t / 2] = pair16(k0 >> kNarrow, k1 >> kNarrow);
      } else {
        v[t] = pair16(weight_hi(k0), weight_hi(k1));
        v[t + 1] = pair16(weight_lo(k0), weight_lo(k1));
      }
    }
  }
#else
  (void)a;
  (void)out;
  (void)table;
#endif
}

#if OSW_HAVE_SIMD
// 16 output bytes of a vertical pass, from 16 bytes of each tap's row at offset i: split or
// narrow (the int32 sums of dot products of row pairs), small (uint16 sums of bytes times
// weights, exact: see classify).
template <bool Split>
inline v128_t vertical16_dot(const uint8_t* const* rows, int cnt, const int32_t* kv, size_t i) {
  constexpr int s = Split ? kPrecisionBits : kPrecisionBits - kNarrow;
  const v128_t zero = wasm_i32x4_splat(0), half = wasm_i32x4_splat(1 << (s - 1));
  v128_t h0 = zero, h1 = zero, h2 = zero, h3 = zero;
  v128_t l0 = half, l1 = half, l2 = half, l3 = half;
  for (int t = 0; t < cnt; t += 2) {
    // Rows t and t + 1 interleaved byte by byte: uint16 lane pairs (x_t, x_t1).
    const v128_t v0 = wasm_v128_load(rows[t] + i);
    const v128_t v1 = t + 1 < cnt ? wasm_v128_load(rows[t + 1] + i) : v0;  // weight 0
    const v128_t a =
        wasm_i8x16_shuffle(v0, v1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const v128_t b =
        wasm_i8x16_shuffle(v0, v1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const v128_t e0 = wasm_u16x8_extend_low_u8x16(a), e1 = wasm_u16x8_extend_high_u8x16(a);
    const v128_t e2 = wasm_u16x8_extend_low_u8x16(b), e3 = wasm_u16x8_extend_high_u8x16(b);
    if (Split) {
      const v128_t kh = wasm_v128_load32_splat(kv + t), kl = wasm_v128_load32_splat(kv + t + 1);
      h0 = wasm_i32x4_add(h0, wasm_i32x4_dot_i16x8(e0, kh));
      l0 = wasm_i32x4_add(l0, wasm_i32x4_dot_i16x8(e0, kl));
      h1 = wasm_i32x4_add(h1, wasm_i32x4_dot_i16x8(e1, kh));
      l1 = wasm_i32x4_add(l1, wasm_i32x4_dot_i16x8(e1, kl));
      h2 = wasm_i32x4_add(h2, wasm_i32x4_dot_i16x8(e2, kh));
      l2 = wasm_i32x4_add(l2, wasm_i32x4_dot_i16x8(e2, kl));
      h3 = wasm_i32x4_add(h3, wasm_i32x4_dot_i16x8(e3, kh));
      l3 = wasm_i32x4_add(l3, wasm_i32x4_dot_i16x8(e3, kl));
    } else {
      const v128_t k = wasm_v128_load32_splat(kv + t / 2);
      l0 = wasm_i32x4_add(l0, wasm_i32x4_dot_i16x8(e0, k));
      l1 = wasm_i32x4_add(l1, wasm_i32x4_dot_i16x8(e1, k));
      l2 = wasm_i32x4_add(l2, wasm_i32x4_dot_i16x8(e2, k));
      l3 = wasm_i32x4_add(l3, wasm_i32x4_dot_i16x8(e3, k));
    }
  }
  const v128_t a0 = wasm_i32x4_shr(Split ? split_sum(h0, l0) : l0, s);
  const v128_t a1 = wasm_i32x4_shr(Split ? split_sum(h1, l1) : l1, s);
  const v128_t a2 = wasm_i32x4_shr(Split ? split_sum(h2, l2) : l2, s);
  const v128_t a3 = wasm_i32x4_shr(Split ? split_sum(h3, l3) : l3, s);
  // Signed saturation to int16, then unsigned saturation to [0, 255]: the clamp.
  return wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(a0, a1), wasm_i16x8_narrow_i32x4(a2, a3));
}

inline v128_t vertical16_small(const uint8_t* const* rows, int cnt, const int32_t* kv, size_t i) {
  const v128_t half = wasm_i16x8_splat(1 << (kPrecisionBits - 1 - kSmall));
  v128_t lo = half, hi = half;
  for (int t = 0; t < cnt; ++t) {
    const v128_t v = wasm_v128_load(rows[t] + i), k = wasm_i16x8_splat(int16_t(kv[t]));
    lo = wasm_i16x8_add(lo, wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(v), k));
    hi = wasm_i16x8_add(hi, wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(v), k));
  }
  return high_bytes(lo, hi);
}

// The same for a whole row of N taps (the common counts of dyadic scales), the weights and
// row pointers held in registers.
template <int N>
size_t vertical_small_n(const uint8_t* const* rows, const int32_t* kv, uint8_t* d, size_t len) {
  const v128_t half = wasm_i16x8_splat(1 << (kPrecisionBits - 1 - kSmall));
  v128_t k[N];
  const uint8_t* r[N];
  for (int t = 0; t < N; ++t) k[t] = wasm_i16x8_splat(int16_t(kv[t])), r[t] = rows[t];
  size_t i = 0;
  for (; i + 16 <= len; i += 16) {
    v128_t lo = half, hi = half;
    for (int t = 0; t < N; ++t) {
      const v128_t v = wasm_v128_load(r[t] + i);
      lo = wasm_i16x8_add(lo, wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(v), k[t]));
      hi = wasm_i16x8_add(hi, wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(v), k[t]));
    }
    wasm_v128_store(d + i, high_bytes(lo, hi));
  }
  return i;
}
#endif

// Output row = sum over taps t of rows[t] * k[t], `len` bytes (kv: the SIMD weights of
// axis a's tier).
void vertical_row_u8(const uint8_t* const* rows, int cnt, const int32_t* k, const int32_t* kv,
                     const Axis& a, uint8_t* d, size_t len) {
  size_t i = 0;
#if OSW_HAVE_SIMD
  if (a.small && cnt >= 1 && cnt <= 4)
    i = cnt == 1   ? vertical_small_n<1>(rows, kv, d, len)
        : cnt == 2 ? vertical_small_n<2>(rows, kv, d, len)
        : cnt == 3 ? vertical_small_n<3>(rows, kv, d, len)
                   : vertical_small_n<4>(rows, kv, d, len);
  else if (a.small)
    for (; i + 16 <= len; i += 16) wasm_v128_store(d + i, vertical16_small(rows, cnt, kv, i));
  else if (a.narrow)
    for (; i + 16 <= len; i += 16) wasm_v128_store(d + i, vertical16_dot<false>(rows, cnt, kv, i));
  else
    for (; i + 16 <= len; i += 16) wasm_v128_store(d + i, vertical16_dot<true>(rows, cnt, kv, i));
#else
  (void)kv;
  (void)a;
#endif
  for (; i < len; ++i) {
    int32_t sum = 1 << (kPrecisionBits - 1);
    for (int t = 0; t < cnt; ++t) sum += int32_t(rows[t][i]) * k[t];
    d[i] = clip8(sum);
  }
}

// ---- float32 --------------------------------------------------------------------------

#if !OSW_HAVE_SIMD
void horizontal_row_f32(const float* s, float* d, int out, int c, const Axis& a) {
  for (int i = 0; i < out; ++i, d += c) {
    const float* p = s + size_t(a.start[i]) * c;
    const double* w = a.w + size_t(i) * a.ksize;
    int cnt = a.count[i];
    for (int ch = 0; ch < c; ++ch) {
      double sum = 0.0;
      for (int t = 0; t < cnt; ++t) sum += double(p[t * c + ch]) * w[t];
      d[ch] = float(sum);
    }
  }
}

#endif

#if OSW_HAVE_SIMD
// Four source rows at once, one per double lane (two f64x2): each lane sums its own row in
// tap order, as the scalar pass does. `rows` has 4 pointers (the last repeated when fewer
// than 4 rows remain: their lanes are computed and not stored); tb holds `n` = in_w * c
// values of each row as doubles, interleaved: tb[e * 4 + j] = row j's value e.
void horizontal_rows4_f32(const float* const* rows, int nrows, size_t n, double* tb,
                          float* const* d, int out, int c, const Axis& a) {
  size_t e = 0;
  for (; e + 4 <= n; e += 4) {
    const v128_t v0 = wasm_v128_load(rows[0] + e), v1 = wasm_v128_load(rows[1] + e);
    const v128_t v2 = wasm_v128_load(rows[2] + e), v3 = wasm_v128_load(rows[3] + e);
    const v128_t t0 = wasm_i32x4_shuffle(v0, v1, 0, 4, 1, 5),
                 t1 = wasm_i32x4_shuffle(v0, v1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(v2, v3, 0, 4, 1, 5),
                 t3 = wasm_i32x4_shuffle(v2, v3, 2, 6, 3, 7);
    double* q = tb + e * 4;
    wasm_v128_store(q, wasm_f64x2_promote_low_f32x4(t0));
    wasm_v128_store(q + 2, wasm_f64x2_promote_low_f32x4(t2));
    wasm_v128_store(q + 4, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(t0, t0, 2, 3, 2, 3)));
    wasm_v128_store(q + 6, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(t2, t2, 2, 3, 2, 3)));
    wasm_v128_store(q + 8, wasm_f64x2_promote_low_f32x4(t1));
    wasm_v128_store(q + 10, wasm_f64x2_promote_low_f32x4(t3));
    wasm_v128_store(q + 12, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(t1, t1, 2, 3, 2, 3)));
    wasm_v128_store(q + 14, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(t3, t3, 2, 3, 2, 3)));
  }
  for (; e < n; ++e)
    for (int j = 0; j < 4; ++j) tb[e * 4 + j] = double(rows[j][e]);
  const size_t step = size_t(c) * 4;
  const v128_t zero = wasm_f64x2_splat(0.0);
  // Rows 0-3 of value o of the output, from the four double sums.
  auto put = [&](size_t o, v128_t s01, v128_t s23) {
    const v128_t f = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(s01),
                                        wasm_f32x4_demote_f64x2_zero(s23), 0, 1, 4, 5);
    wasm_v128_store32_lane(d[0] + o, f, 0);
    if (nrows > 1) wasm_v128_store32_lane(d[1] + o, f, 1);
    if (nrows > 2) wasm_v128_store32_lane(d[2] + o, f, 2);
    if (nrows > 3) wasm_v128_store32_lane(d[3] + o, f, 3);
  };
  // Sums from `from` to `to` of one output's taps, added in order (p, w at tap `from`).
  auto taps = [&](const double* p, const double* w, int from, int to, v128_t* s01, v128_t* s23) {
    for (int t = from; t < to; ++t, p += step) {
      const v128_t wv = wasm_f64x2_splat(w[t]);
      *s01 = wasm_f64x2_add(*s01, wasm_f64x2_mul(wasm_v128_load(p), wv));
      *s23 = wasm_f64x2_add(*s23, wasm_f64x2_mul(wasm_v128_load(p + 2), wv));
    }
  };
  int i = 0;
  // Two outputs at a time, their taps side by side (four independent chains of adds).
  for (; i + 2 <= out; i += 2) {
    const double* w0 = a.w + size_t(i) * a.ksize;
    const double* w1 = w0 + a.ksize;
    const int n0 = a.count[i], n1 = a.count[i + 1], both = n0 < n1 ? n0 : n1;
    for (int ch = 0; ch < c; ++ch) {
      const double* p0 = tb + (size_t(a.start[i]) * c + ch) * 4;
      const double* p1 = tb + (size_t(a.start[i + 1]) * c + ch) * 4;
      v128_t a01 = zero, a23 = zero, b01 = zero, b23 = zero;
      for (int t = 0; t < both; ++t, p0 += step, p1 += step) {
        const v128_t wv0 = wasm_f64x2_splat(w0[t]), wv1 = wasm_f64x2_splat(w1[t]);
        a01 = wasm_f64x2_add(a01, wasm_f64x2_mul(wasm_v128_load(p0), wv0));
        a23 = wasm_f64x2_add(a23, wasm_f64x2_mul(wasm_v128_load(p0 + 2), wv0));
        b01 = wasm_f64x2_add(b01, wasm_f64x2_mul(wasm_v128_load(p1), wv1));
        b23 = wasm_f64x2_add(b23, wasm_f64x2_mul(wasm_v128_load(p1 + 2), wv1));
      }
      taps(p0, w0, both, n0, &a01, &a23);
      taps(p1, w1, both, n1, &b01, &b23);
      put(size_t(i) * c + ch, a01, a23);
      put(size_t(i + 1) * c + ch, b01, b23);
    }
  }
  for (; i < out; ++i) {
    const double* w = a.w + size_t(i) * a.ksize;
    for (int ch = 0; ch < c; ++ch) {
      v128_t s01 = zero, s23 = zero;
      taps(tb + (size_t(a.start[i]) * c + ch) * 4, w, 0, a.count[i], &s01, &s23);
      put(size_t(i) * c + ch, s01, s23);
    }
  }
}
#endif

void vertical_row_f32(const float* src, size_t row_elems, int first, int cnt, const double* w,
                      float* d, size_t len) {
  const float* base = src + size_t(first) * row_elems;
  size_t i = 0;
#if OSW_HAVE_SIMD
  for (; i + 4 <= len; i += 4) {
    v128_t a0 = wasm_f64x2_splat(0.0), a1 = a0;
    const float* p = base + i;
    for (int t = 0; t < cnt; ++t, p += row_elems) {
      v128_t v = wasm_v128_load(p);
      v128_t wv = wasm_f64x2_splat(w[t]);
      a0 = wasm_f64x2_add(a0, wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(v), wv));
      a1 = wasm_f64x2_add(
          a1,
          wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 0, 1)), wv));
    }
    v128_t lo = wasm_f32x4_demote_f64x2_zero(a0), hi = wasm_f32x4_demote_f64x2_zero(a1);
    wasm_v128_store(d + i, wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5));
  }
#endif
  for (; i < len; ++i) {
    double sum = 0.0;
    const float* p = base + i;
    for (int t = 0; t < cnt; ++t, p += row_elems) sum += double(*p) * w[t];
    d[i] = float(sum);
  }
}

// Rows [first, last) of the source that the vertical pass reads (all rows without one).
void used_rows(const Axis& v, bool need_v, int in_h, int out_h, int* first, int* last) {
  if (!need_v) {
    *first = 0;
    *last = in_h;
    return;
  }
  *first = in_h;
  *last = 0;
  for (int i = 0; i < out_h; ++i) {
    if (v.count[i] == 0) continue;
    if (v.start[i] < *first) *first = v.start[i];
    if (v.start[i] + v.count[i] > *last) *last = v.start[i] + v.count[i];
  }
  if (*first > *last) *first = *last = 0;
}

}  // namespace

int pillow_resize_u8(const uint8_t* x, uint8_t* y, const ImageBatch& g, PillowFilter filter,
                     bool premultiply) {
  int rc = check(x, y, g, filter);
  if (rc != kOk) return rc;
  const int c = int(g.channels);
  if (premultiply && c != 2 && c != 4) return kBadArgs;
  if (g.count == 0) return kOk;
  const int in_w = int(g.in_w), in_h = int(g.in_h), out_w = int(g.out_w), out_h = int(g.out_h);
  const size_t in_plane = size_t(in_h) * in_w * c, out_plane = size_t(out_h) * out_w * c;
  if (in_w == out_w && in_h == out_h) {
    std::memcpy(y, x, in_plane * size_t(g.count));
    return kOk;
  }
  if (filter == PillowFilter::Nearest) return nearest(x, y, g, size_t(c));

  const bool need_h = in_w != out_w, need_v = in_h != out_h;
  Axis ah, av;
  if (need_h && !build_axis(in_w, out_w, filter, true, &ah)) return kNoMemory;
  if (need_v && !build_axis(in_h, out_h, filter, true, &av)) return kNoMemory;
  // The rows the vertical pass reads (horizontally resampled and/or premultiplied) are made
  // in order from the first one it reads, as it first needs them, into a ring of `ring`
  // rows: enough for every output row's taps beside the rows made up to then (the taps'
  // first row only grows, except where a tap of weight 0 was dropped, which `ring` allows
  // for). Without a vertical pass, each row is made into the output.
  const bool make_rows = need_h || premultiply;
  int ring = 0, first = in_h;
  if (need_v && make_rows) {
    for (int r = 0; r < out_h; ++r)
      if (av.count[r] > 0 && av.start[r] < first) first = av.start[r];
    int made = first;
    for (int r = 0; r < out_h; ++r) {
      if (av.count[r] == 0) continue;
      if (av.start[r] + av.count[r] > made) made = av.start[r] + av.count[r];
      if (made - av.start[r] > ring) ring = made - av.start[r];
    }
  }
  // Scratch: the weight tables of the SIMD passes, the row pointers of one vertical output,
  // a staged source row (premultiplied, or with readable bytes after it), the ring.
  const size_t in_row = size_t(in_w) * c, mid_row = size_t(need_h ? out_w : in_w) * c;
  const size_t vtable_n = need_v ? size_t(out_h) * vertical_table_i32(av.ksize) : 0;
  const size_t ptrs_n = need_v ? size_t(av.ksize) : 0;
  const size_t groups_n = need_h ? size_t(out_w) : 0;
  const size_t htable_n = need_h ? size_t(out_w) * horizontal_table_i16(c, ah.ksize) : 0;
  const size_t stage_n = need_h ? in_row + 8 : 0;
  const size_t ring_n = size_t(ring) * mid_row;
  const size_t hw_n =
      need_h ? (hw_bytes(ah, out_w, c) + 15) / 16 * 16 : 0;  // (keeps what follows aligned)
  Scratch mem;
  char* m =
      mem.alloc<char>(hw_n + ptrs_n * sizeof(void*) + vtable_n * sizeof(int32_t) +
                      groups_n * sizeof(int) + htable_n * sizeof(int16_t) + stage_n + ring_n + 16);
  if (!m) return kNoMemory;
  HWindows windows;
  if (need_h) layout_windows(ah, in_w, out_w, c, reinterpret_cast<uint8_t*>(m), &windows);
  m += hw_n;
  const uint8_t** ptrs = reinterpret_cast<const uint8_t**>(m);
  int32_t* vtable = reinterpret_cast<int32_t*>(ptrs + ptrs_n);
  int* groups = reinterpret_cast<int*>(vtable + vtable_n);
  int16_t* htable = reinterpret_cast<int16_t*>(groups + groups_n);
  uint8_t* stage = reinterpret_cast<uint8_t*>(htable + htable_n);
  uint8_t* rows = stage + stage_n;
  if (need_h) {
    layout_horizontal(ah, out_w, c, htable, groups);
    std::memset(stage + in_row, 0, 8);
  }
  if (need_v) layout_vertical(av, out_h, vtable);
  const Reciprocals* recip = nullptr;
  Reciprocals recip_mem;  // (256 divisions)
  if (premultiply) recip = &recip_mem;
  const uint8_t* x_end = x + in_plane * size_t(g.count);
  const size_t vstride = vertical_table_i32(av.ksize);

  for (int64_t n = 0; n < g.count; ++n) {
    const uint8_t* src = x + size_t(n) * in_plane;
    uint8_t* dst = y + size_t(n) * out_plane;
    // Source row r, horizontally resampled and/or premultiplied, into d.
    auto make_row = [&](int r, uint8_t* d) {
      const uint8_t* s = src + size_t(r) * in_row;
      if (!need_h) {
        premultiply_row(s, d, in_w, c);
        return;
      }
      if (premultiply) {
        premultiply_row(s, stage, in_w, c);
        s = stage;
      } else if (x_end - (s + in_row) < 8) {
        std::memcpy(stage, s, in_row);
        s = stage;
      }
      horizontal_row_u8(s, d, out_w, c, ah, htable, groups, windows);
    };
    if (!need_v) {
      for (int r = 0; r < out_h; ++r) {
        uint8_t* d = dst + size_t(r) * mid_row;
        make_row(r, d);
        if (premultiply) unpremultiply_row(d, out_w, c, *recip);
      }
      continue;
    }
    int made = first;  // rows [made - ring, made) are in the ring (made one after another)
    for (int r = 0; r < out_h; ++r) {
      const int start = av.start[r], cnt = av.count[r];
      if (make_rows) {
        for (; made < start + cnt; ++made) make_row(made, rows + size_t(made % ring) * mid_row);
        for (int t = 0; t < cnt; ++t) ptrs[t] = rows + size_t((start + t) % ring) * mid_row;
      } else {
        for (int t = 0; t < cnt; ++t) ptrs[t] = src + size_t(start + t) * in_row;
      }
      uint8_t* d = dst + size_t(r) * mid_row;
      vertical_row_u8(ptrs, cnt, av.k + size_t(r) * av.ksize, vtable + size_t(r) * vstride, av, d,
                      mid_row);
      // Straight alpha again while the row is in the cache.
      if (premultiply) unpremultiply_row(d, int(mid_row / c), c, *recip);
    }
  }
  return kOk;
}

int pillow_resize_f32(const float* x, float* y, const ImageBatch& g, PillowFilter filter) {
  int rc = check(reinterpret_cast<const uint8_t*>(x), y, g, filter);
  if (rc != kOk) return rc;
  if (g.count == 0) return kOk;
  const int c = int(g.channels);
  const int in_w = int(g.in_w), in_h = int(g.in_h), out_w = int(g.out_w), out_h = int(g.out_h);
  const size_t in_plane = size_t(in_h) * in_w * c, out_plane = size_t(out_h) * out_w * c;
  if (in_w == out_w && in_h == out_h) {
    std::memcpy(y, x, in_plane * size_t(g.count) * sizeof(float));
    return kOk;
  }
  if (filter == PillowFilter::Nearest)
    return nearest(reinterpret_cast<const uint8_t*>(x), reinterpret_cast<uint8_t*>(y), g,
                   sizeof(float) * size_t(c));

  const bool need_h = in_w != out_w, need_v = in_h != out_h;
  Axis ah, av;
  if (need_h && !build_axis(in_w, out_w, filter, false, &ah)) return kNoMemory;
  if (need_v && !build_axis(in_h, out_h, filter, false, &av)) return kNoMemory;
  int first, last;
  used_rows(av, need_v, in_h, out_h, &first, &last);
  const size_t in_row = size_t(in_w) * c, mid_row = size_t(need_h ? out_w : in_w) * c;
  Scratch mem;
  float* mid = nullptr;
  double* tb = nullptr;
  const size_t mid_n = (need_h && need_v) ? size_t(last - first) * mid_row : 0;
  const size_t tb_n = OSW_HAVE_SIMD && need_h ? in_row * 4 : 0;  // 4 rows as doubles
  if (mid_n + tb_n > 0) {
    tb = mem.alloc<double>(tb_n + (mid_n + 1) / 2);
    if (!tb) return kNoMemory;
    mid = reinterpret_cast<float*>(tb + tb_n);
  }
  for (int64_t n = 0; n < g.count; ++n) {
    const float* src = x + size_t(n) * in_plane;
    float* dst = y + size_t(n) * out_plane;
    const float* vsrc = src;
    int shift = 0;
    if (need_h) {
      float* hdst = need_v ? mid : dst;
#if OSW_HAVE_SIMD
      for (int r = first; r < last; r += 4, hdst += 4 * mid_row) {
        const int nr = last - r < 4 ? last - r : 4;
        const float* rows[4];
        float* d[4];
        for (int j = 0; j < 4; ++j) {
          rows[j] = src + size_t(r + (j < nr ? j : nr - 1)) * in_row;
          d[j] = hdst + size_t(j < nr ? j : 0) * mid_row;
        }
        horizontal_rows4_f32(rows, nr, in_row, tb, d, out_w, c, ah);
      }
#else
      (void)tb;
      for (int r = first; r < last; ++r, hdst += mid_row)
        horizontal_row_f32(src + size_t(r) * in_row, hdst, out_w, c, ah);
#endif
      vsrc = mid;
      shift = first;
    }
    if (need_v) {
      for (int r = 0; r < out_h; ++r)
        vertical_row_f32(vsrc, mid_row, av.start[r] - shift, av.count[r],
                         av.w + size_t(r) * av.ksize, dst + size_t(r) * mid_row, mid_row);
    }
  }
  return kOk;
}

}  // namespace compat
}  // namespace osw
