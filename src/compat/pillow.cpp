// pillow.cpp: PIL.Image.resize (Pillow 9.4) reproduced bit for bit (issue 18).
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
// SIMD (OSW_HAVE_SIMD): the horizontal pass takes 4 source bytes per vector (1 RGBA or RGB
// pixel, 2 LA pixels, 4 L pixels) against int32x4 weights laid out to match; the vertical
// pass runs along the row, 16 bytes (or 4 floats) at a time. Integer sums are exact, so
// the scalar twin gives the same bytes; float sums keep Pillow's order in both.
#include "compat/compat.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "simd.h"

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
    case PillowFilter::Bilinear:
      x = std::fabs(x);
      return x < 1.0 ? 1.0 - x : 0.0;
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
  Scratch mem;
};

bool build_axis(int in, int out, PillowFilter f, bool fixed, Axis* a) {
  double scale = double(float(in)) / out;
  double filterscale = scale < 1.0 ? 1.0 : scale;
  double support = filter_support(f) * filterscale;
  int ksize = int(std::ceil(support)) * 2 + 1;
  a->ksize = ksize;
  size_t n = size_t(out) * size_t(ksize);
  char* m = a->mem.alloc<char>(n * sizeof(double) + n * sizeof(int32_t) +
                               2 * size_t(out) * sizeof(int));
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
  return true;
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
  size_t in_row = size_t(in_w) * px, out_row = size_t(out_w) * px;
  for (int64_t n = 0; n < g.count; ++n) {
    const uint8_t* src = x + size_t(n) * size_t(in_h) * in_row;
    uint8_t* dst = y + size_t(n) * size_t(out_h) * out_row;
    for (int r = 0; r < out_h; ++r, dst += out_row) {
      if (ys[r] < 0) {
        std::memset(dst, 0, out_row);
        continue;
      }
      const uint8_t* s = src + size_t(ys[r]) * in_row;
      for (int i = 0; i < out_w; ++i) {
        if (xs[i] < 0)
          std::memset(dst + i * px, 0, px);
        else
          std::memcpy(dst + i * px, s + size_t(xs[i]) * px, px);
      }
    }
  }
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
  const v128_t alpha_of = c == 4 ? wasm_i8x16_make(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15)
                                 : wasm_i8x16_make(1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15);
  const v128_t is_alpha = c == 4 ? wasm_i32x4_splat(int32_t(0xFF000000u)) : wasm_i16x8_splat(int16_t(0xFF00));
  const v128_t half = wasm_i16x8_splat(128);
  const int per = 16 / c;
  for (; i + per <= pixels; i += per) {
    v128_t v = wasm_v128_load(s + size_t(i) * c);
    v128_t a = wasm_i8x16_swizzle(v, alpha_of);
    v128_t lo = wasm_i16x8_add(wasm_i16x8_mul(wasm_u16x8_extend_low_u8x16(v), wasm_u16x8_extend_low_u8x16(a)), half);
    v128_t hi = wasm_i16x8_add(wasm_i16x8_mul(wasm_u16x8_extend_high_u8x16(v), wasm_u16x8_extend_high_u8x16(a)), half);
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
void unpremultiply(uint8_t* p, size_t pixels, int c) {
  uint64_t recip[256];  // m_1 = 2^32 needs 33 bits
  for (unsigned a = 1; a < 256; ++a) recip[a] = ((uint64_t(1) << 32) + a - 1) / a;
  for (size_t i = 0; i < pixels; ++i, p += c) {
    unsigned a = p[c - 1];
    if (a == 0 || a == 255) continue;
    for (int j = 0; j < c - 1; ++j) {
      uint64_t v = (uint64_t(255u * p[j]) * recip[a]) >> 32;
      p[j] = uint8_t(v > 255 ? 255 : v);
    }
  }
}

// Horizontal weights as the SIMD pass reads them: per output, `vecs` int32x4 (4 bytes of
// source each: taps t*T + l/C in lane l, T = 4/C pixels per vector; RGB: one pixel, lane 3
// zero). Returns the vectors per output (the stride of the table).
int horizontal_vectors(int c, int ksize) { return c == 3 ? ksize : (ksize * c + 3) / 4; }

void layout_horizontal(const Axis& a, int out, int c, int32_t* table, int* vecs) {
  int stride = horizontal_vectors(c, a.ksize);
  int per = c == 3 ? 1 : 4 / c;
  for (int i = 0; i < out; ++i) {
    const int32_t* k = a.k + size_t(i) * a.ksize;
    int cnt = a.count[i];
    int32_t* v = table + size_t(i) * stride * 4;
    int nv = c == 3 ? cnt : (cnt * c + 3) / 4;
    for (int j = 0; j < nv; ++j)
      for (int l = 0; l < 4; ++l) {
        int t = j * per + l / c;
        v[j * 4 + l] = (l < c * per && t < cnt) ? k[t] : 0;
      }
    vecs[i] = nv;
  }
}

// One source row (with at least 3 readable bytes after its last pixel for the SIMD form)
// resampled into `out` pixels of `c` channels.
void horizontal_row_u8(const uint8_t* s, uint8_t* d, int out, int c, const Axis& a,
                       const int32_t* table, const int* vecs) {
#if OSW_HAVE_SIMD
  int stride = horizontal_vectors(c, a.ksize) * 4;
  const v128_t zero = wasm_i32x4_splat(0);
  for (int i = 0; i < out; ++i, d += c) {
    const uint8_t* p = s + size_t(a.start[i]) * c;
    const int32_t* k = table + size_t(i) * stride;
    v128_t acc = zero, acc2 = zero;
    int nv = vecs[i], j = 0;
    if (c != 3) {
      // Vectors j and j + 1 are 8 contiguous bytes: one load, widened twice.
      for (; j + 2 <= nv; j += 2, p += 8, k += 8) {
        v128_t b = wasm_u16x8_extend_low_u8x16(wasm_v128_load64_zero(p));
        acc = wasm_i32x4_add(acc, wasm_i32x4_mul(wasm_u32x4_extend_low_u16x8(b), wasm_v128_load(k)));
        acc2 = wasm_i32x4_add(acc2, wasm_i32x4_mul(wasm_u32x4_extend_high_u16x8(b), wasm_v128_load(k + 4)));
      }
    } else {
      for (; j + 2 <= nv; j += 2, p += 6, k += 8) {
        v128_t b0 = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p)));
        v128_t b1 = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p + 3)));
        acc = wasm_i32x4_add(acc, wasm_i32x4_mul(b0, wasm_v128_load(k)));
        acc2 = wasm_i32x4_add(acc2, wasm_i32x4_mul(b1, wasm_v128_load(k + 4)));
      }
    }
    if (j < nv) {
      v128_t b0 = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p)));
      acc = wasm_i32x4_add(acc, wasm_i32x4_mul(b0, wasm_v128_load(k)));
    }
    acc = wasm_i32x4_add(acc, acc2);
    // Fold the lanes of one channel together: L has 4 per vector, LA 2 (lanes c and c + 2).
    if (c <= 2) acc = wasm_i32x4_add(acc, wasm_i32x4_shuffle(acc, acc, 2, 3, 0, 1));
    if (c == 1) acc = wasm_i32x4_add(acc, wasm_i32x4_shuffle(acc, acc, 1, 0, 3, 2));
    int32_t r[4];
    wasm_v128_store(r, acc);
    for (int ch = 0; ch < c; ++ch) d[ch] = clip8(r[ch] + (1 << (kPrecisionBits - 1)));
  }
#else
  (void)table;
  (void)vecs;
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

// Output row = sum over taps t of rows[t] * k[t], `len` bytes.
void vertical_row_u8(const uint8_t* src, size_t row_bytes, int first, int cnt,
                     const int32_t* k, uint8_t* d, size_t len) {
  const uint8_t* base = src + size_t(first) * row_bytes;
  size_t i = 0;
#if OSW_HAVE_SIMD
  for (; i + 16 <= len; i += 16) {
    v128_t a0 = wasm_i32x4_splat(1 << (kPrecisionBits - 1));
    v128_t a1 = a0, a2 = a0, a3 = a0;
    const uint8_t* p = base + i;
    for (int t = 0; t < cnt; ++t, p += row_bytes) {
      v128_t v = wasm_v128_load(p);
      v128_t kv = wasm_i32x4_splat(k[t]);
      v128_t lo = wasm_u16x8_extend_low_u8x16(v), hi = wasm_u16x8_extend_high_u8x16(v);
      a0 = wasm_i32x4_add(a0, wasm_i32x4_mul(wasm_u32x4_extend_low_u16x8(lo), kv));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_mul(wasm_u32x4_extend_high_u16x8(lo), kv));
      a2 = wasm_i32x4_add(a2, wasm_i32x4_mul(wasm_u32x4_extend_low_u16x8(hi), kv));
      a3 = wasm_i32x4_add(a3, wasm_i32x4_mul(wasm_u32x4_extend_high_u16x8(hi), kv));
    }
    a0 = wasm_i32x4_shr(a0, kPrecisionBits);
    a1 = wasm_i32x4_shr(a1, kPrecisionBits);
    a2 = wasm_i32x4_shr(a2, kPrecisionBits);
    a3 = wasm_i32x4_shr(a3, kPrecisionBits);
    // Signed saturation to int16, then unsigned saturation to [0, 255]: the clamp.
    v128_t r = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(a0, a1),
                                       wasm_i16x8_narrow_i32x4(a2, a3));
    wasm_v128_store(d + i, r);
  }
#endif
  for (; i < len; ++i) {
    int32_t sum = 1 << (kPrecisionBits - 1);
    const uint8_t* p = base + i;
    for (int t = 0; t < cnt; ++t, p += row_bytes) sum += int32_t(*p) * k[t];
    d[i] = clip8(sum);
  }
}

// ---- float32 --------------------------------------------------------------------------

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
          a1, wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 0, 1)), wv));
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
  int first, last;
  used_rows(av, need_v, in_h, out_h, &first, &last);

  // Scratch: the horizontal weight table, a staged source row (premultiplied, or with
  // readable bytes after it), the rows between the passes, a premultiplied source for a
  // vertical pass alone.
  const size_t in_row = size_t(in_w) * c, mid_row = size_t(need_h ? out_w : in_w) * c;
  size_t table_n = need_h ? size_t(out_w) * horizontal_vectors(c, ah.ksize) * 4 : 0;
  size_t vecs_n = need_h ? size_t(out_w) : 0;
  size_t stage_n = need_h ? in_row + 4 : 0;
  size_t mid_n = (need_h && need_v) ? size_t(last - first) * mid_row : 0;
  size_t pre_n = (!need_h && premultiply) ? in_plane : 0;
  Scratch mem;
  char* m = mem.alloc<char>(table_n * 4 + vecs_n * sizeof(int) + stage_n + mid_n + pre_n + 16);
  if (!m) return kNoMemory;
  int32_t* table = reinterpret_cast<int32_t*>(m);
  int* vecs = reinterpret_cast<int*>(table + table_n);
  uint8_t* stage = reinterpret_cast<uint8_t*>(vecs + vecs_n);
  uint8_t* mid = stage + stage_n;
  uint8_t* pre = mid + mid_n;
  if (need_h) {
    layout_horizontal(ah, out_w, c, table, vecs);
    std::memset(stage + in_row, 0, 4);
  }
  const uint8_t* x_end = x + in_plane * size_t(g.count);

  for (int64_t n = 0; n < g.count; ++n) {
    const uint8_t* src = x + size_t(n) * in_plane;
    uint8_t* dst = y + size_t(n) * out_plane;
    const uint8_t* vsrc = src;  // what the vertical pass reads, from row `first` on
    int vfirst_shift = 0;
    if (need_h) {
      uint8_t* hdst = need_v ? mid : dst;
      for (int r = first; r < last; ++r, hdst += mid_row) {
        const uint8_t* s = src + size_t(r) * in_row;
        if (premultiply) {
          premultiply_row(s, stage, in_w, c);
          s = stage;
        } else if (x_end - (s + in_row) < 4) {
          std::memcpy(stage, s, in_row);
          s = stage;
        }
        horizontal_row_u8(s, hdst, out_w, c, ah, table, vecs);
      }
      vsrc = mid;
      vfirst_shift = first;
    } else if (premultiply) {
      for (int r = first; r < last; ++r)
        premultiply_row(src + size_t(r) * in_row, pre + size_t(r) * in_row, in_w, c);
      vsrc = pre;
    }
    if (need_v) {
      for (int r = 0; r < out_h; ++r)
        vertical_row_u8(vsrc, mid_row, av.count[r] ? av.start[r] - vfirst_shift : 0, av.count[r],
                        av.k + size_t(r) * av.ksize, dst + size_t(r) * mid_row, mid_row);
    }
    if (premultiply) unpremultiply(dst, size_t(out_h) * out_w, c);
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
  if (need_h && need_v) {
    mid = mem.alloc<float>(size_t(last - first) * mid_row);
    if (!mid) return kNoMemory;
  }
  for (int64_t n = 0; n < g.count; ++n) {
    const float* src = x + size_t(n) * in_plane;
    float* dst = y + size_t(n) * out_plane;
    const float* vsrc = src;
    int shift = 0;
    if (need_h) {
      float* hdst = need_v ? mid : dst;
      for (int r = first; r < last; ++r, hdst += mid_row)
        horizontal_row_f32(src + size_t(r) * in_row, hdst, out_w, c, ah);
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
