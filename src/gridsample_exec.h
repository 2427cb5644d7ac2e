// gridsample_exec.h: the planner and kernels of GridSample (internal to the library).
//
// Templates over the storage type T, the grid type G and the offset type Off, included by
// two translation units so that the build can optimise them differently:
// gridsample.cpp instantiates float32 (the fast 2-D path's type) for speed,
// gridsample_cold.cpp every other type for size (CMakeLists.txt compiles it with -Os).
// Same results either way.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "elem.h"
#include "gridsample.h"
#include "simd.h"  // <wasm_simd128.h>, or SIMDe in native builds (OSW_HAVE_SIMD)

namespace osw {
namespace gs_exec {

// Everything the plan and kernel need to know about the shapes.
struct Geometry {
  int r = 0;
  int64_t n = 0, c = 0;
  int64_t len[kMaxRank] = {};     // X's spatial lengths, outermost first
  int64_t stride[kMaxRank] = {};  // elements between neighbours along each spatial axis
  int64_t in_size = 0;            // elements of one (n, c) plane of X
  int64_t out_size = 0;           // output locations per batch item
  int64_t out_h = 1, out_w = 1;   // r = 2: the output's spatial lengths
};

// ---- kernel ----------------------------------------------------------------------------

// sum_k w[k] * x[off[k]] for k < n, in the Compute type C.
template <typename C, typename T, typename Off>
inline C gather_dot_scalar(const T* x, const Off* off, const C* w, int64_t n) {
  C s = C(0);
  for (int64_t k = 0; k < n; ++k) s += w[k] * static_cast<C>(ElemTraits<T>::load(x[off[k]]));
  return s;
}

#if OSW_HAVE_SIMD
// wasm SIMD (or SIMDe in native builds): one location's weights are contiguous, so they load as a vector; the values are
// gathered lane by lane (wasm has no gather). Besides the wider multiply, the 4 (2) partial
// sums break the dependency chain of the scalar loop's single accumulator.
template <typename C, typename T, typename Off>
inline C gather_dot(const T* x, const Off* off, const C* w, int64_t n) {
  if constexpr (std::is_same<C, float>::value) {
    if (n < 4) return gather_dot_scalar(x, off, w, n);  // nearest, or few taps
    v128_t acc = wasm_f32x4_splat(0.0f);
    int64_t k = 0;
    for (; k + 4 <= n; k += 4) {
      const v128_t xv = wasm_f32x4_make(static_cast<float>(ElemTraits<T>::load(x[off[k]])),
                                        static_cast<float>(ElemTraits<T>::load(x[off[k + 1]])),
                                        static_cast<float>(ElemTraits<T>::load(x[off[k + 2]])),
                                        static_cast<float>(ElemTraits<T>::load(x[off[k + 3]])));
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(w + k), xv));
    }
    // Horizontal sum: add the high half onto the low half, then lane 1 onto lane 0.
    acc = wasm_f32x4_add(acc, wasm_i32x4_shuffle(acc, acc, 2, 3, 2, 3));
    float s = wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1);
    for (; k < n; ++k) s += w[k] * static_cast<float>(ElemTraits<T>::load(x[off[k]]));
    return s;
  } else if constexpr (std::is_same<C, double>::value) {
    if (n < 2) return gather_dot_scalar(x, off, w, n);
    v128_t acc = wasm_f64x2_splat(0.0);
    int64_t k = 0;
    for (; k + 2 <= n; k += 2) {
      const v128_t xv = wasm_f64x2_make(static_cast<double>(ElemTraits<T>::load(x[off[k]])),
                                        static_cast<double>(ElemTraits<T>::load(x[off[k + 1]])));
      acc = wasm_f64x2_add(acc, wasm_f64x2_mul(wasm_v128_load(w + k), xv));
    }
    double s = wasm_f64x2_extract_lane(acc, 0) + wasm_f64x2_extract_lane(acc, 1);
    for (; k < n; ++k) s += w[k] * static_cast<double>(ElemTraits<T>::load(x[off[k]]));
    return s;
  } else {
    return gather_dot_scalar(x, off, w, n);
  }
}
#else
template <typename C, typename T, typename Off>
inline C gather_dot(const T* x, const Off* off, const C* w, int64_t n) {
  return gather_dot_scalar(x, off, w, n);
}
#endif

// One channel plane of one block: y[j] = dot(location j's taps, x). Location j's taps are
// off/w[j * stride .. j * stride + count[j]).
template <typename T, typename Off>
void gather_block(const T* x, const Off* off, const typename ElemTraits<T>::Compute* w,
                  const Off* count, int64_t stride, int64_t nb, T* y, int32_t rounding) {
  if constexpr (std::is_integral<T>::value) {
    if (rounding != 0) {
      // compat: ONNX Runtime truncates, PyTorch rounds half up; both saturate.
      for (int64_t j = 0; j < nb; ++j) {
        if (count[j] == 1 && w[j * stride] == 1) {
          y[j] = x[off[j * stride]];
          continue;
        }
        const double v = static_cast<double>(gather_dot(x, off + j * stride, w + j * stride,
                                                        static_cast<int64_t>(count[j])));
        y[j] = round_integer_output<T>(rounding, v);
      }
      return;
    }
  }
  using C = typename ElemTraits<T>::Compute;
  for (int64_t j = 0; j < nb; ++j) {
    // One tap of weight 1 (nearest, or a location exactly on a pixel) is a copy, bit-exact
    // for every type (int64 beyond 2^53 included), with no round trip through C.
    if (count[j] == 1 && w[j * stride] == C(1)) {
      y[j] = x[off[j * stride]];
      continue;
    }
    y[j] = ElemTraits<T>::store(gather_dot(x, off + j * stride, w + j * stride,
                                           static_cast<int64_t>(count[j])));
  }
}

// ---- plan ------------------------------------------------------------------------------

// Taps of one output location from its grid vector gv (gv[0] is x, the innermost axis).
// Writes count taps to off/w and returns count. A NaN coordinate gives one tap of weight NaN
// at offset 0 (the caller guarantees in_size > 0), so the output is NaN for floating-point
// X and, through saturate_round, 0 for integer X.
template <typename G, typename C, typename Off>
Off plan_location(const GridSampleAttrs& attrs, const Geometry& geo, const G* gv, Off* off,
                  C* w, double* wd) {
  const int r = geo.r;
  for (int k = 0; k < r; ++k) {
    if (std::isnan(static_cast<double>(gv[k]))) {
      off[0] = 0;
      w[0] = std::numeric_limits<C>::quiet_NaN();
      return 1;
    }
  }
  // Outer product over the axes, outermost first, so that the innermost axis varies
  // fastest and offsets ascend. Expanded in place from the back: entry i of m becomes
  // entries i*c .. i*c + c - 1, which never overwrite an entry still to be read.
  int64_t m = 1;
  off[0] = 0;
  wd[0] = 1.0;
  gs::AxisTaps t;
  for (int a = 0; a < r; ++a) {
    gs::axis_taps(attrs.mode, attrs.padding, attrs.align_corners, geo.len[a],
                  gs::unnormalize(static_cast<double>(gv[r - 1 - a]), geo.len[a],
                                  attrs.align_corners),
                  &t);
    const int c = t.count;
    if (c == 0) return 0;  // zeros padding: every tap out of bounds
    for (int64_t i = m - 1; i >= 0; --i) {
      const Off base = off[i];
      const double bw = wd[i];
      for (int k = c - 1; k >= 0; --k) {
        off[i * c + k] = static_cast<Off>(base + t.index[k] * geo.stride[a]);
        wd[i * c + k] = bw * t.weight[k];
      }
    }
    m *= c;
  }
  for (int64_t k = 0; k < m; ++k) w[k] = static_cast<C>(wd[k]);
  return static_cast<Off>(m);
}

// X has a spatial dimension of length 0 (only reached with zeros padding): no pixel
// exists, every output is 0, or NaN where the grid vector has a NaN. Written as bytes (zero
// and nan: the es bytes of T's 0 and of NaN stored as T; grid float64 or float32), so that
// every element type shares one copy of the loop (gridsample_cold.cpp).
void fill_empty_input(const Geometry& geo, const void* grid, bool grid_f64, size_t es,
                      const void* zero, const void* nan, void* y);

constexpr int64_t kMaxBlock = 256;          // output locations planned at a time
constexpr int64_t kTableEntries = 16384;    // preferred cap on block * taps per location
// 2-D fast path: output locations per block. A block is whole output rows (or one part of a
// row longer than this). Measured on W5 of bench/ (32 channels, a rotated grid) under the
// benchmark's conditions (other libraries run in between, so X and Y start out of cache):
// 4096 took 0.75-0.85x the time of the 8 x 32 tiles used before, whose channel planes were
// written 128 bytes at a time; 2048 and 16384 were slower than 4096, and so were 4096
// locations as 32 x 128 or 64 x 64 tiles.
constexpr int64_t kFastBlock = 4096;
// Linear takes blocks of up to 65536 locations (28 bytes of fast plan each), and before each
// channel's pass over a block reads the rows of X that the block's fast locations reach
// (when they are at most kTouchBandBytes) in order, so that the gathers find them in cache:
// the plane is then streamed once per block rather than met line by line along the grid.
// Measured on W5 of bench/ (AMD EPYC, 256 KB planes): 0.55x the time of 4096-location
// blocks; 16384 and 32768 took 0.73x and 0.62x. Cubic keeps 4096 (its 76 bytes of plan per
// location, streamed again for every channel, made 65536 slower on W6).
constexpr int64_t kFastBlockLinear = 65536;
constexpr int64_t kTouchBandBytes = int64_t(512) << 10;

// ---- the 2-D fast path (float32 X; see the top of the file) ----------------------------

// Linear taps of coordinate x on an axis of length L, when both are inside and of non-zero
// weight: first = floor(x), w = {1 - t, t}. The same arithmetic as gs::axis_taps (border's
// clamp and reflection's reflect leave such an x unchanged, so they are skipped, except that
// reflection first reflects an x outside [lo, hi], as axis_taps does).
inline bool fast_axis_linear(double x, double last, bool reflect, double lo, double hi,
                             int64_t* first, double w[2]) {
  if (reflect) x = gs::reflect(x, lo, hi);  // identity in [lo, hi]; NaN stays NaN
  if (!(x > 0.0 && x < last)) return false;  // NaN and +-Inf too
  const double x0 = std::floor(x);
  const double t = x - x0;
  if (t == 0.0) return false;  // tap floor(x) + 1 has weight 0: generic path
  *first = static_cast<int64_t>(x0);
  w[0] = 1.0 - t;
  w[1] = t;
  return true;
}

// Cubic taps floor(x) - 1 .. floor(x) + 2, when all are inside and of non-zero weight (the
// coordinate itself is never padded in cubic mode, so padding plays no part).
inline bool fast_axis_cubic(double x, double last, int64_t* first, double w[4]) {
  if (!(x >= 1.0 && x < last - 1.0)) return false;  // NaN and +-Inf too
  const double x0 = std::floor(x);
  gs::cubic_weights(x - x0, w);
  if (w[0] == 0.0 || w[1] == 0.0 || w[2] == 0.0 || w[3] == 0.0) return false;
  *first = static_cast<int64_t>(x0) - 1;
  return true;
}

#if OSW_HAVE_SIMD
// fast_axis_linear() on both axes at once (not for reflection, whose reflect() comes
// first), in f64x2 lanes u = [x (along W), y (along H)], last = [W - 1, H - 1]: the first
// taps, and the rows of the 2 x 2 weights wy[i] * wx[k] in double, rounded to float, in
// lanes 0 and 1 of r0 (i = 0) and r1 (i = 1): the same numbers as the scalar path.
inline bool fast_linear_pair(v128_t u, v128_t last, int64_t* ix, int64_t* iy, v128_t* r0,
                             v128_t* r1) {
  // 0 < x < L - 1 on both axes (false for NaN and +-Inf).
  if (!wasm_i64x2_all_true(wasm_v128_and(wasm_f64x2_gt(u, wasm_f64x2_splat(0.0)),
                                         wasm_f64x2_lt(u, last))))
    return false;
  const v128_t f = wasm_f64x2_floor(u);
  const v128_t t = wasm_f64x2_sub(u, f);
  if (wasm_v128_any_true(wasm_f64x2_eq(t, wasm_f64x2_splat(0.0)))) return false;
  const v128_t t1 = wasm_f64x2_sub(wasm_f64x2_splat(1.0), t);  // [1 - tx, 1 - ty]
  const v128_t wx = wasm_i64x2_shuffle(t1, t, 0, 2);             // [1 - tx, tx]
  *r0 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(wasm_i64x2_shuffle(t1, t1, 1, 1), wx));
  *r1 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(wasm_i64x2_shuffle(t, t, 1, 1), wx));
  *ix = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 0));
  *iy = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 1));
  return true;
}

// fast_axis_cubic() on both axes at once, in f64x2 lanes [x (along W), y (along H)]:
// last1 = [W - 2, H - 2]. Gives the first taps and the weight vectors wk[k] = [wx[k], wy[k]],
// the same doubles as gs::cubic_weights(): for t = x - floor(x) in (0, 1), the kernel's
// arguments t + 1, t, 1 - t and 2 - t are exact and lie in (1, 2), (0, 1), (0, 1) and
// (1, 2), where cubic_kernel() evaluates the polynomial written here, in the same order.
// t = 0 gives a weight 0 in both (the location then takes the generic path).
inline bool fast_cubic_pair(double xw, double xh, v128_t last1, int64_t* ix, int64_t* iy,
                            v128_t wk[4]) {
  constexpr double A = -0.75;
  const v128_t v = wasm_f64x2_make(xw, xh);
  const v128_t one = wasm_f64x2_splat(1.0);
  // x >= 1 and x < L - 2 on both axes (false for NaN and +-Inf).
  if (!wasm_i64x2_all_true(wasm_v128_and(wasm_f64x2_ge(v, one), wasm_f64x2_lt(v, last1))))
    return false;
  const v128_t f = wasm_f64x2_floor(v);
  const v128_t t = wasm_f64x2_sub(v, f);
  // |s| <= 1: ((A + 2) s - (A + 3)) s s + 1;  1 < |s| < 2: ((A s - 5A) s + 8A) s - 4A.
  auto near = [&](v128_t s) {
    v128_t a = wasm_f64x2_sub(wasm_f64x2_mul(wasm_f64x2_splat(A + 2.0), s), wasm_f64x2_splat(A + 3.0));
    a = wasm_f64x2_mul(wasm_f64x2_mul(a, s), s);
    return wasm_f64x2_add(a, one);
  };
  auto far = [&](v128_t s) {
    v128_t a = wasm_f64x2_sub(wasm_f64x2_mul(wasm_f64x2_splat(A), s), wasm_f64x2_splat(5.0 * A));
    a = wasm_f64x2_add(wasm_f64x2_mul(a, s), wasm_f64x2_splat(8.0 * A));
    return wasm_f64x2_sub(wasm_f64x2_mul(a, s), wasm_f64x2_splat(4.0 * A));
  };
  wk[0] = far(wasm_f64x2_add(t, one));
  wk[1] = near(t);
  wk[2] = near(wasm_f64x2_sub(one, t));
  wk[3] = far(wasm_f64x2_sub(wasm_f64x2_splat(2.0), t));
  const v128_t zero = wasm_f64x2_splat(0.0);
  const v128_t any0 = wasm_v128_or(wasm_v128_or(wasm_f64x2_eq(wk[0], zero), wasm_f64x2_eq(wk[1], zero)),
                                   wasm_v128_or(wasm_f64x2_eq(wk[2], zero), wasm_f64x2_eq(wk[3], zero)));
  if (wasm_v128_any_true(any0)) return false;
  *ix = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 0)) - 1;
  *iy = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 1)) - 1;
  return true;
}
#endif

// The fast plan of one block of the output: nf locations at positions idx[f]
// (relative to the block's first location) with top-left offsets off[f] and weights w. Linear weights are laid out for the vector kernel, per group of four
// locations q = 0..3: 8 top-row weights (w00 w01 of q = 0, then q = 1, 2, 3), then 8
// bottom-row weights; so location f's row i, column k is w[(f / 4) * 16 + i * 8 +
// (f % 4) * 2 + k] = w[f * 4 - (f % 4) * 2 + i * 8 + k]. Cubic: 16 weights per location, row
// by row. The arrays hold nf rounded up to a multiple of 4; the padding repeats the last
// location.
inline int64_t lin_w(int64_t f) { return (f / 4) * 16 + (f % 4) * 2; }

template <typename Off>
struct FastPlan {
  int64_t* idx = nullptr;
  Off* off = nullptr;
  float* w = nullptr;
  int64_t nf = 0;
  // The other locations, for the generic kernel: location k is at position gen[k], its
  // taps (plan_location) in slot k of the generic table.
  int64_t* gen = nullptr;
  int64_t ng = 0;
  // Runs of consecutive locations with no taps (zeros padding, every tap outside X, found
  // without plan_location): run k is positions [zr[2k], zr[2k] + zr[2k + 1]), output +0.
  int64_t* zr = nullptr;
  int64_t nz = 0;
  // The smallest and largest off[] of the fast locations (lo > hi when there are none).
  int64_t lo = 0, hi = -1;
  // The fast locations of the block's first row reach 3 or more rows of X: the rows of the
  // output cross the rows of X, so the gathers do not read X in order.
  bool across = false;
};

// Plans rows [r_begin, r_end) of the block of nh x nw output locations whose first
// location's grid vector is grid, after the rows before r_begin (planned by earlier calls;
// r_begin == 0 starts the block afresh). The call that reaches r_end == nh pads the last
// group of four.
template <typename G, typename Off>
void plan_block_2d(const GridSampleAttrs& attrs, const Geometry& geo, const G* grid, int64_t nh,
                   int64_t nw, int64_t r_begin, int64_t r_end, FastPlan<Off>* fp, Off* goff,
                   float* gw, Off* gcount, int64_t max_taps, double* wd) {
  const bool cubic = attrs.mode == GridMode::Cubic;
  const bool refl = attrs.padding == PaddingMode::Reflection;
  const bool zeros = attrs.padding == PaddingMode::Zeros;
  const int64_t H = geo.len[0], W = geo.len[1];
  const double out_lo = cubic ? -2.0 : -1.0;
  const double out_h = static_cast<double>(H) + (cubic ? 1.0 : 0.0);
  const double out_w = static_cast<double>(W) + (cubic ? 1.0 : 0.0);
  const double last_h = static_cast<double>(H - 1), last_w = static_cast<double>(W - 1);
#if OSW_HAVE_SIMD
  const v128_t last1 = wasm_f64x2_make(last_w - 1.0, last_h - 1.0);
  const v128_t len = wasm_f64x2_make(static_cast<double>(W), static_cast<double>(H));
  const v128_t len_1 = wasm_f64x2_make(last_w, last_h);
#endif
  double lo_h, hi_h, lo_w, hi_w;
  gs::reflection_bounds(H, attrs.align_corners, &lo_h, &hi_h);
  gs::reflection_bounds(W, attrs.align_corners, &lo_w, &hi_w);
  int64_t nf = r_begin == 0 ? 0 : fp->nf, ng = r_begin == 0 ? 0 : fp->ng;
  int64_t nz = r_begin == 0 ? 0 : fp->nz;
  if (r_begin == 0) fp->across = false;
  int64_t lo = r_begin == 0 ? std::numeric_limits<int64_t>::max() : fp->lo;
  int64_t hi = r_begin == 0 ? -1 : fp->hi;
  for (int64_t r = r_begin; r < r_end; ++r) {
    if (r == 1 && nf > 0) {  // row 0 planned: its fast locations are off[0 .. nf)
      const auto mm = std::minmax_element(fp->off, fp->off + nf);
      fp->across = *mm.second / W - *mm.first / W >= 2;
    }
    for (int64_t c = 0; c < nw; ++c) {
      const int64_t j = r * geo.out_w + c;
      const G* gv = grid + j * 2;  // gv[0] is x (along W), gv[1] is y (along H)
#if OSW_HAVE_SIMD
      // gs::unnormalize() of both, in one f64x2 (x / 2 is x * 0.5 exactly). Its one
      // exception, an infinite g with align_corners=1 and L = 1 (Inf * 0), gives NaN here
      // instead of Inf; both send the location to plan_location(), which starts again
      // from the grid value, and neither is fast (no fast location on an axis of length 1).
      const v128_t g2 = std::is_same<G, float>::value
                            ? wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(gv))
                            : wasm_v128_load(gv);
      const v128_t one = wasm_f64x2_splat(1.0), half = wasm_f64x2_splat(0.5);
      const v128_t g1 = wasm_f64x2_add(g2, one);
      const v128_t u = attrs.align_corners
                           ? wasm_f64x2_mul(wasm_f64x2_mul(g1, half), len_1)
                           : wasm_f64x2_mul(wasm_f64x2_sub(wasm_f64x2_mul(g1, len), one), half);
      const double xw = wasm_f64x2_extract_lane(u, 0), xh = wasm_f64x2_extract_lane(u, 1);
#else
      const double xw = gs::unnormalize(static_cast<double>(gv[0]), W, attrs.align_corners);
      const double xh = gs::unnormalize(static_cast<double>(gv[1]), H, attrs.align_corners);
#endif
      // Zeros padding, every tap of an axis outside X (linear: x < -1 or x >= L; cubic:
      // x < -2 or x >= L + 1; +-Inf too): plan_location() would return no taps, so the
      // output is +0 without planning. A NaN on either axis goes there (a NaN tap).
      if (zeros && !std::isnan(xh) && !std::isnan(xw) &&
          (xh < out_lo || xh >= out_h || xw < out_lo || xw >= out_w)) {
        if (nz > 0 && fp->zr[2 * nz - 2] + fp->zr[2 * nz - 1] == j) {
          ++fp->zr[2 * nz - 1];
        } else {
          fp->zr[2 * nz] = j;
          fp->zr[2 * nz + 1] = 1;
          ++nz;
        }
        continue;
      }
      int64_t iy, ix;
      double wy[4], wx[4];
      bool fast;
#if OSW_HAVE_SIMD
      v128_t wk[4];
      if (cubic) {
        fast = fast_cubic_pair(xw, xh, last1, &ix, &iy, wk);
      } else if (!refl) {
        fast = fast_linear_pair(u, len_1, &ix, &iy, &wk[0], &wk[1]);
      } else {
#else
      if (cubic) {
        fast = fast_axis_cubic(xh, last_h, &iy, wy) && fast_axis_cubic(xw, last_w, &ix, wx);
      } else {
#endif
        fast = fast_axis_linear(xh, last_h, refl, lo_h, hi_h, &iy, wy) &&
               fast_axis_linear(xw, last_w, refl, lo_w, hi_w, &ix, wx);
      }
      if (!fast) {
        gcount[ng] = plan_location<G, float, Off>(attrs, geo, gv, goff + ng * max_taps,
                                                  gw + ng * max_taps, wd);
        fp->gen[ng++] = j;
        continue;
      }
      fp->idx[nf] = j;
      const int64_t o = iy * W + ix;
      fp->off[nf] = static_cast<Off>(o);
      lo = std::min(lo, o);
      hi = std::max(hi, o);
      // plan_location's weights: the product over the axes, outermost first, in double.
      if (cubic) {
        float* w = fp->w + nf * 16;
#if OSW_HAVE_SIMD
        // The same double products and roundings to float, two at a time.
        const v128_t x01 = wasm_i64x2_shuffle(wk[0], wk[1], 0, 2);
        const v128_t x23 = wasm_i64x2_shuffle(wk[2], wk[3], 0, 2);
        for (int i = 0; i < 4; ++i) {
          const v128_t yi = wasm_i64x2_shuffle(wk[i], wk[i], 1, 1);
          const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(yi, x01));
          const v128_t hi = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(yi, x23));
          wasm_v128_store(w + i * 4, wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5));
        }
#else
        for (int i = 0; i < 4; ++i)
          for (int k = 0; k < 4; ++k) w[i * 4 + k] = static_cast<float>(wy[i] * wx[k]);
#endif
      } else {
        float* w = fp->w + lin_w(nf);
#if OSW_HAVE_SIMD
        if (!refl) {  // fast_linear_pair's rows
          wasm_v128_store64_lane(w, wk[0], 0);
          wasm_v128_store64_lane(w + 8, wk[1], 0);
        } else
#endif
        {
          w[0] = static_cast<float>(wy[0] * wx[0]);
          w[1] = static_cast<float>(wy[0] * wx[1]);
          w[8] = static_cast<float>(wy[1] * wx[0]);
          w[9] = static_cast<float>(wy[1] * wx[1]);
        }
      }
      ++nf;
    }
  }
  // Pad the last group of four with copies of the last fast location.
  for (int64_t f = nf; r_end == nh && nf > 0 && f % 4 != 0; ++f) {
    fp->idx[f] = fp->idx[nf - 1];
    fp->off[f] = fp->off[nf - 1];
    if (cubic) {
      std::memcpy(fp->w + f * 16, fp->w + (nf - 1) * 16, 16 * sizeof(float));
    } else {
      float* d = fp->w + lin_w(f);
      const float* s = fp->w + lin_w(nf - 1);
      d[0] = s[0];
      d[1] = s[1];
      d[8] = s[8];
      d[9] = s[9];
    }
  }
  fp->nf = nf;
  fp->ng = ng;
  fp->nz = nz;
  fp->lo = lo;
  fp->hi = hi;
}

#if OSW_HAVE_SIMD
// [x[a], x[a + 1], x[b], x[b + 1]]: two 64-bit loads.
inline v128_t load_pairs(const float* a, const float* b) {
  return wasm_v128_load64_lane(b, wasm_v128_load64_zero(a), 1);
}

// [a0 a1 b0 b1], [c0 c1 d0 d1] -> [a0 + a1, b0 + b1, c0 + c1, d0 + d1] + 0.
inline v128_t pair_sums(v128_t ab, v128_t cd) {
  const v128_t even = wasm_i32x4_shuffle(ab, cd, 0, 2, 4, 6);
  const v128_t odd = wasm_i32x4_shuffle(ab, cd, 1, 3, 5, 7);
  return wasm_f32x4_add(wasm_f32x4_add(even, odd), wasm_f32x4_splat(0.0f));
}

// Linear, fast locations f .. f + 3 (w = the group's 16 weights), one per lane.
template <typename Off>
inline v128_t fast_linear4(const float* x, const Off* off, const float* w, int64_t W) {
  const float* p0 = x + off[0];
  const float* p1 = x + off[1];
  const float* p2 = x + off[2];
  const float* p3 = x + off[3];
  // Lanes [row 0 of locations 0 and 1], ...; a[k] = p[0][k] + p[1][k] per location.
  const v128_t a01 = wasm_f32x4_add(wasm_f32x4_mul(load_pairs(p0, p1), wasm_v128_load(w)),
                                    wasm_f32x4_mul(load_pairs(p0 + W, p1 + W), wasm_v128_load(w + 8)));
  const v128_t a23 = wasm_f32x4_add(wasm_f32x4_mul(load_pairs(p2, p3), wasm_v128_load(w + 4)),
                                    wasm_f32x4_mul(load_pairs(p2 + W, p3 + W), wasm_v128_load(w + 12)));
  return pair_sums(a01, a23);
}

// Cubic, one location: the column sums a[k] = ((p[0][k] + p[1][k]) + p[2][k]) + p[3][k].
inline v128_t cubic_columns(const float* p, const float* w, int64_t W) {
  v128_t a = wasm_f32x4_mul(wasm_v128_load(p), wasm_v128_load(w));
  a = wasm_f32x4_add(a, wasm_f32x4_mul(wasm_v128_load(p + W), wasm_v128_load(w + 4)));
  a = wasm_f32x4_add(a, wasm_f32x4_mul(wasm_v128_load(p + 2 * W), wasm_v128_load(w + 8)));
  a = wasm_f32x4_add(a, wasm_f32x4_mul(wasm_v128_load(p + 3 * W), wasm_v128_load(w + 12)));
  return a;
}

// Cubic, fast locations f .. f + 3 (w = their 64 weights), one per lane.
template <typename Off>
inline v128_t fast_cubic4(const float* x, const Off* off, const float* w, int64_t W) {
  const v128_t a = cubic_columns(x + off[0], w, W);
  const v128_t b = cubic_columns(x + off[1], w + 16, W);
  const v128_t c = cubic_columns(x + off[2], w + 32, W);
  const v128_t d = cubic_columns(x + off[3], w + 48, W);
  // [a0 + a2, a1 + a3, b0 + b2, b1 + b3], then the same for c and d.
  const v128_t ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 1, 4, 5),
                                   wasm_i32x4_shuffle(a, b, 2, 3, 6, 7));
  const v128_t cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 1, 4, 5),
                                   wasm_i32x4_shuffle(c, d, 2, 3, 6, 7));
  return pair_sums(ab, cd);
}

// Stores lanes 0 .. n - 1 of v at y[idx[0]], ..., one vector store when they are adjacent.
inline void store_lanes(float* y, const int64_t* idx, int64_t n, v128_t v) {
  if (n == 4 && idx[3] - idx[0] == 3) {  // idx ascends, so the four are adjacent
    wasm_v128_store(y + idx[0], v);
    return;
  }
  y[idx[0]] = wasm_f32x4_extract_lane(v, 0);
  if (n > 1) y[idx[1]] = wasm_f32x4_extract_lane(v, 1);
  if (n > 2) y[idx[2]] = wasm_f32x4_extract_lane(v, 2);
  if (n > 3) y[idx[3]] = wasm_f32x4_extract_lane(v, 3);
}
#else
// The same sums, one location at a time (builds without SIMD).
inline float fast_scalar_linear(const float* p, const float* w, int64_t W) {
  const float a0 = p[0] * w[0] + p[W] * w[8];
  const float a1 = p[1] * w[1] + p[W + 1] * w[9];
  return (a0 + a1) + 0.0f;
}

inline float fast_scalar_cubic(const float* p, const float* w, int64_t W) {
  float a[4];
  for (int k = 0; k < 4; ++k) {
    const float s01 = p[k] * w[k] + p[W + k] * w[4 + k];
    const float s012 = s01 + p[2 * W + k] * w[8 + k];
    a[k] = s012 + p[3 * W + k] * w[12 + k];
  }
  return ((a[0] + a[2]) + (a[1] + a[3])) + 0.0f;
}
#endif

// One channel plane of one block: the fast locations.
template <typename Off>
void fast_block(bool cubic, const float* x, const FastPlan<Off>& fp, int64_t W, float* y) {
  const int64_t nf = fp.nf;
  const int64_t* idx = fp.idx;
  const Off* off = fp.off;
  const float* w = fp.w;
#if OSW_HAVE_SIMD
  if (cubic) {
    for (int64_t f = 0; f < nf; f += 4)
      store_lanes(y, idx + f, std::min<int64_t>(4, nf - f), fast_cubic4(x, off + f, w + f * 16, W));
  } else {
    for (int64_t f = 0; f < nf; f += 4)
      store_lanes(y, idx + f, std::min<int64_t>(4, nf - f), fast_linear4(x, off + f, w + f * 4, W));
  }
#else
  for (int64_t f = 0; f < nf; ++f) {
    y[idx[f]] = cubic ? fast_scalar_cubic(x + off[f], w + f * 16, W)
                      : fast_scalar_linear(x + off[f], w + lin_w(f), W);
  }
#endif
}

// One channel plane of one block: the generic locations, exactly as gather_block computes
// them for float. Location k's taps are in slot k, its output at y[pos[k]].
template <typename Off>
void gather_list(const float* x, const Off* off, const float* w, const Off* count,
                 int64_t stride, const int64_t* pos, int64_t n, float* y) {
  for (int64_t k = 0; k < n; ++k) {
    if (count[k] == 0) {  // zeros padding, every tap outside: the sum of no taps, +0
      // A run of such locations at consecutive positions (the part of a row that the grid
      // sends outside X) is one fill.
      int64_t e = k + 1;
      while (e < n && count[e] == 0 && pos[e] == pos[k] + (e - k)) ++e;
      std::memset(y + pos[k], 0, sizeof(float) * static_cast<size_t>(e - k));
      k = e - 1;
      continue;
    }
    if (count[k] == 1 && w[k * stride] == 1.0f) {
      y[pos[k]] = x[off[k * stride]];
      continue;
    }
    y[pos[k]] = gather_dot(x, off + k * stride, w + k * stride, static_cast<int64_t>(count[k]));
  }
}

// X of at most this many bytes per batch item is read once in order before the gathers.
constexpr int64_t kTouchMaxBytes = int64_t(2) << 20;

// Reads 4 bytes of every 64 of x[0 .. n), in order, so that the memory system streams X into
// the cache at full speed, rather than the gathers (which follow the grid in any direction)
// meeting each line cold, one at a time. Measured on W6 of bench/ (X 2 MiB): 0.8x the time
// when X starts out of cache, 1.03x when it is in cache already. A larger X would not stay
// in cache until the gathers reach it (W5, 8 MiB, was slower with it).
inline void touch_in_order(const float* x, int64_t n) {
  uint32_t acc = 0;
  for (int64_t i = 0; i < n; i += 16) {
    uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    acc |= bits;
  }
  [[maybe_unused]] static volatile uint32_t sink;  // keeps the reads; the value means nothing
  sink = acc;
}

template <typename G, typename Off>
Status run_fast2d(const GridSampleAttrs& attrs, const Geometry& geo, const float* x,
                  const G* grid, float* y, const gs::Tuning& tuning) {
  const bool cubic = attrs.mode == GridMode::Cubic;
  // Taps of a generic location: at most 2 (4) per axis, and at most L.
  const int64_t mode_taps = cubic ? 4 : 2;
  const int64_t max_taps = std::min(mode_taps, geo.len[0]) * std::min(mode_taps, geo.len[1]);
  // Blocks are th x tw output locations: th whole rows (tw = out_w), or one part of a row
  // (th = 1) when a row is longer than the block size. Each channel's pass over a block
  // then writes one contiguous run of Y. th * tw <= the block size (out_h and out_w >= 1).
  int64_t b = tuning.block > 0 ? tuning.block : cubic ? kFastBlock : kFastBlockLinear;
  // Fast weights per location: 16 (cubic) or 4 (linear, in groups of 4 locations).
  const int64_t fast_weights = cubic ? 16 : 4;
  // Under a small allocation limit (createSampler({ maxBytes })), smaller blocks rather than
  // a failed call: a block's largest table holds the fast weights or max_taps offsets per
  // location.
  const int64_t per_location =
      std::max<int64_t>(fast_weights * int64_t(sizeof(float)),
                        max_taps * int64_t(std::max(sizeof(Off), sizeof(float))));
  while (b > 1 && b * per_location > allocation_limit()) b /= 2;
  const int64_t tw = std::min(geo.out_w, b);
  const int64_t th = std::max<int64_t>(1, std::min(geo.out_h, b / tw));
  const int64_t block = th * tw;  // <= b, and <= out_size
  // The fast arrays hold block rounded up to a multiple of 4 (the padded last group).
  const int64_t block4 = (block + 3) / 4 * 4;
  int64_t table = 0;
  if (!checked_mul(block, max_taps, &table)) {
    return Status::Range("GridSample: tap table size overflows int64");
  }
  // Two plans: while one block is computed, channel by channel, the next is planned a few
  // rows after each channel, so that its arithmetic (which reads only the grid, in order)
  // runs between the gathers (which read X where the grid points, often out of cache).
  // Measured on bench/ (two runs): W5 0.55x ORT on arrays (was 0.58-0.59x), W6 0.42x OpenCV
  // remap in memory (was 0.44-0.45x), W5 in memory unchanged; 3-5% faster in cache too.
  // One plan when one block covers the output.
  const int64_t blocks_h = (geo.out_h + th - 1) / th, blocks_w = (geo.out_w + tw - 1) / tw;
  const int64_t nb = blocks_h * blocks_w;
  const int plans = nb > 1 ? 2 : 1;
  Buffer<int64_t> idx[2], gen[2], zr[2];
  Buffer<Off> foff[2], goff[2], gcount[2];
  Buffer<float> fw[2], gw[2];
  Buffer<double> wd;
  FastPlan<Off> fp[2];
  for (int i = 0; i < plans; ++i) {
    if (!idx[i].allocate(block4) || !gen[i].allocate(block) || !zr[i].allocate(block + 1))
      return out_of_memory("GridSample location lists", plans * (block4 + 2 * block + 1) * 8);
    if (!foff[i].allocate(block4) || !goff[i].allocate(table) || !gcount[i].allocate(block))
      return out_of_memory("GridSample tap offsets",
                           plans * (block4 + table + block) * int64_t(sizeof(Off)));
    if (!fw[i].allocate(block4 * fast_weights) || !gw[i].allocate(table))
      return out_of_memory("GridSample tap weights", plans * (block4 * fast_weights + table) * 4);
    fp[i].idx = idx[i].data();
    fp[i].off = foff[i].data();
    fp[i].w = fw[i].data();
    fp[i].gen = gen[i].data();
    fp[i].zr = zr[i].data();
  }
  if (!wd.allocate(max_taps)) return out_of_memory("GridSample scratch", max_taps * 8);

  const int64_t W = geo.len[1];
  const int64_t plane_set = geo.c * geo.in_size;  // X of one batch item, floats
  // Rows of X a fast location reads from its top-left offset on: 2 (linear) or 4 (cubic).
  const int64_t foot = cubic ? 3 * W + 4 : W + 2;
  struct Block {
    int64_t first, nh, nw;
  };
  auto block_at = [&](int64_t k) {
    const int64_t r0 = (k / blocks_w) * th, c0 = (k % blocks_w) * tw;
    return Block{r0 * geo.out_w + c0, std::min(th, geo.out_h - r0), std::min(tw, geo.out_w - c0)};
  };
  for (int64_t n = 0; n < geo.n; ++n) {
    if (cubic && plane_set <= kTouchMaxBytes / int64_t(sizeof(float)))
      touch_in_order(x + n * plane_set, plane_set);
    const G* grid_n = grid + n * geo.out_size * 2;
    // Step k = -1 plans block 0; step k >= 0 computes block k channel by channel and plans
    // block k + 1 in as many parts. (plan_block_2d stays out of line: inlined, measured 4%
    // slower on W5 and W6, though 0.35 KB smaller gzipped.)
    Block cur = block_at(0);
    for (int64_t k = -1; k < nb; ++k) {
      // Block b's plan is fp[b % plans]: i for block k, inext for block k + 1.
      const int i = k < 0 ? 0 : static_cast<int>(k % plans);
      const int inext = static_cast<int>((k + 1) % plans);
      const bool more = k + 1 < nb;
      const Block next = k < 0 ? cur : (more ? block_at(k + 1) : cur);
      const int64_t steps = k < 0 ? 1 : geo.c;
      for (int64_t c = 0; c < steps; ++c) {
        if (k >= 0) {
          const int64_t plane = n * geo.c + c;
          const float* xc = x + plane * geo.in_size;
          float* yb = y + plane * geo.out_size + cur.first;
          const int64_t band = fp[i].hi - fp[i].lo + foot;  // <= 0 without fast locations
          if (!cubic && fp[i].across && band > 0 && band <= kTouchBandBytes / int64_t(sizeof(float)))
            touch_in_order(xc + fp[i].lo, band);
          fast_block<Off>(cubic, xc, fp[i], W, yb);
          for (int64_t z = 0; z < fp[i].nz; ++z) {
            const int64_t* run = fp[i].zr + 2 * z;
            std::memset(yb + run[0], 0, sizeof(float) * static_cast<size_t>(run[1]));
          }
          gather_list<Off>(xc, goff[i].data(), gw[i].data(), gcount[i].data(), max_taps,
                           fp[i].gen, fp[i].ng, yb);
        }
        const int64_t r_begin = next.nh * c / steps, r_end = next.nh * (c + 1) / steps;
        if (more && r_end > r_begin) {
          plan_block_2d<G, Off>(attrs, geo, grid_n + next.first * 2, next.nh, next.nw, r_begin,
                                r_end, &fp[inext], goff[inext].data(), gw[inext].data(),
                                gcount[inext].data(), max_taps, wd.data());
        }
      }
      if (k >= 0) cur = next;
    }
  }
  return Status::Ok();
}

template <typename T, typename G, typename Off>
Status run(const GridSampleAttrs& attrs, const Geometry& geo, const T* x, const G* grid, T* y,
           const gs::Tuning& tuning) {
  using C = typename ElemTraits<T>::Compute;
  if (geo.in_size == 0) {
    const T zero = ElemTraits<T>::store(C(0));
    const T nan = ElemTraits<T>::store(std::numeric_limits<C>::quiet_NaN());
    fill_empty_input(geo, grid, std::is_same<G, double>::value, sizeof(T), &zero, &nan, y);
    return Status::Ok();
  }
  if constexpr (std::is_same<T, float>::value) {
    if (geo.r == 2 && attrs.mode != GridMode::Nearest && !tuning.generic) {
      return run_fast2d<G, Off>(attrs, geo, x, grid, y, tuning);
    }
  }
  // Most taps a location can have: per axis min(taps of the mode, L), since merged taps
  // are distinct pixels. At most in_size, so it never overflows.
  const int64_t mode_taps =
      attrs.mode == GridMode::Nearest ? 1 : attrs.mode == GridMode::Linear ? 2 : 4;
  int64_t max_taps = 1;
  for (int a = 0; a < geo.r; ++a) max_taps *= std::min(mode_taps, geo.len[a]);

  int64_t block = tuning.block > 0 ? tuning.block
                                   : std::max<int64_t>(1, std::min(kMaxBlock, kTableEntries / max_taps));
  block = std::min(block, geo.out_size);

  int64_t table = 0;
  if (!checked_mul(block, max_taps, &table)) {
    return Status::Range("GridSample: tap table size overflows int64");
  }
  Buffer<Off> off, count;
  Buffer<C> w;
  Buffer<double> wd;
  if (!off.allocate(table)) return out_of_memory("GridSample tap offsets", table * int64_t(sizeof(Off)));
  if (!w.allocate(table)) return out_of_memory("GridSample tap weights", table * int64_t(sizeof(C)));
  if (!count.allocate(block)) return out_of_memory("GridSample tap counts", block * int64_t(sizeof(Off)));
  if (!wd.allocate(max_taps)) return out_of_memory("GridSample scratch", max_taps * 8);

  const int r = geo.r;
  for (int64_t n = 0; n < geo.n; ++n) {
    const G* grid_n = grid + n * geo.out_size * r;
    for (int64_t j0 = 0; j0 < geo.out_size; j0 += block) {
      const int64_t nb = std::min(block, geo.out_size - j0);
      for (int64_t j = 0; j < nb; ++j) {
        count[j] = plan_location<G, C, Off>(attrs, geo, grid_n + (j0 + j) * r,
                                            off.data() + j * max_taps, w.data() + j * max_taps,
                                            wd.data());
      }
      for (int64_t c = 0; c < geo.c; ++c) {
        const int64_t plane = n * geo.c + c;
        gather_block<T, Off>(x + plane * geo.in_size, off.data(), w.data(), count.data(),
                             max_taps, nb, y + plane * geo.out_size + j0,
                             attrs.integer_rounding);
      }
    }
  }
  return Status::Ok();
}

template <typename T, typename G>
Status dispatch_offsets(const GridSampleAttrs& attrs, const Geometry& geo, const TensorView& x,
                        const TensorView& grid, TensorView* y, const gs::Tuning& tuning) {
  const T* xp = static_cast<const T*>(x.data);
  const G* gp = static_cast<const G*>(grid.data);
  T* yp = static_cast<T*>(y->data);
  // In wasm32 a plane of elements of 2 bytes or more has fewer than 2^31 of them (memory
  // is at most 4 GiB), so int32 offsets always do there and the int64 kernels are not
  // built for those types (tuning.wide_offsets changes nothing; native builds run them).
  constexpr bool kNarrowOnly = sizeof(void*) == 4 && sizeof(T) >= 2;
  if constexpr (kNarrowOnly) {
    if (geo.in_size > std::numeric_limits<int32_t>::max())
      return Status::Range("GridSample: an X plane too large for this build");
  } else {
    if (tuning.wide_offsets || geo.in_size > std::numeric_limits<int32_t>::max()) {
      return run<T, G, int64_t>(attrs, geo, xp, gp, yp, tuning);
    }
  }
  return run<T, G, int32_t>(attrs, geo, xp, gp, yp, tuning);
}

template <typename T>
Status dispatch_grid(const GridSampleAttrs& attrs, const Geometry& geo, const TensorView& x,
                     const TensorView& grid, TensorView* y, const gs::Tuning& tuning) {
  if (grid.type == DType::Float32) return dispatch_offsets<T, float>(attrs, geo, x, grid, y, tuning);
  return dispatch_offsets<T, double>(attrs, geo, x, grid, y, tuning);
}

}  // namespace gs_exec

// float32 X (gridsample.cpp).
Status gridsample_run_hot(const GridSampleAttrs& attrs, const gs_exec::Geometry& geo,
                          const TensorView& x, const TensorView& grid, TensorView* y,
                          const gs::Tuning& tuning);
// Every other X type (gridsample_cold.cpp).
Status gridsample_run_cold(const GridSampleAttrs& attrs, const gs_exec::Geometry& geo,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           const gs::Tuning& tuning);

}  // namespace osw
