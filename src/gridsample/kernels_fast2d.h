// gridsample/kernels_fast2d.h: GridSample's 2-D fast path for float32 X, linear and cubic
// (internal to the library; gs::Tuning::generic turns it off): its rules, its order of
// summation, and its code.
//
// The same steps as the generic path, specialised. A block is whole rows of the output
// (gs_exec::kFastBlock, kFastBlockLinear, fewer under a small allocation limit; a longer
// row is cut into parts), so that one channel's pass over a block writes one contiguous run
// of Y. With more than one block in a range, two plans alternate (pipeline_blocks): the next
// block is planned a few rows after each channel of the current one, so that planning runs
// between the gathers. Reads in order (touch_in_order) bring X into cache before the
// gathers, which follow the grid in any direction: cubic reads X of at most kTouchMaxBytes
// per batch item once; linear, before each channel's pass over a block, the rows of that
// plane the block's fast locations reach, when they are at most kTouchBandBytes and the
// block's first output row crosses 3 or more rows of X (an output row that runs along a row
// of X is read in order by the gathers themselves).
//   plan:   classify_location() takes a location to the fast path when, on each axis, the
//           taps of the mode are all inside X and all of non-zero weight: linear, the
//           coordinate (after border's clamp or reflection's reflect, which leave such a
//           coordinate as it is) lies strictly between two pixels inside X; cubic,
//           floor(x) - 1 and floor(x) + 2 are inside X and none of the 4 cubic weights is
//           exactly 0. The generic planner gives such a location exactly the same taps and
//           weights (no tap is dropped or merged, so padding plays no part), and the fast
//           plan stores them as the footprint's top-left offset and its 2x2 / 4x4 weights,
//           each weight the double product wy * wx rounded to float, as plan_location()
//           computes it. Every other location (a NaN coordinate, a tap of weight exactly 0,
//           e.g. a whole-pixel coordinate, taps outside X or merged by padding) is planned
//           by plan_location() and computed by the generic kernel, with exactly the results
//           it always has. With linear and border padding, a location whose clamped
//           coordinate is a whole pixel on one axis and not on the other (along the edge of
//           X, where a warp or a rotation leaves it) has two taps; classify_edge() writes
//           them into the generic list as plan_location() would, without its general outer
//           product. With zeros padding, a location whose coordinate on one axis has every
//           tap outside X (linear: x < -1 or x >= L; cubic: x < -2 or x >= L + 1), and no
//           NaN coordinate, is given no taps (output +0) without plan_location(), which
//           would find the same; such locations are kept as runs of consecutive positions,
//           each one fill per channel.
//   kernel: per channel, the fast locations four at a time: linear reads each footprint
//           row as a 64-bit pair, cubic as a 4-float vector (the footprint is inside, so
//           the reads are too). The sum has one fixed order, with p[i][k] = x[i][k] * w[i][k]
//           for footprint row i and column k:
//             linear: a[k] = p[0][k] + p[1][k];                         y = (a[0] + a[1]) + 0
//             cubic:  a[k] = ((p[0][k] + p[1][k]) + p[2][k]) + p[3][k];
//                     y = ((a[0] + a[2]) + (a[1] + a[3])) + 0
//           The final "+ 0" turns a -0 sum into +0, as the generic kernel's sum, which
//           starts from +0, does. This is also the order of the generic wasm SIMD kernel
//           for 4 and 16 taps, so under wasm SIMD both paths agree bit for bit. The vector
//           code computes each location in its own lanes, and a last group of fewer than
//           four locations is padded with copies of a real one (whose lanes are not
//           stored), so no location's result depends on the grouping or the block size.
//           fast_block_scalar() computes the same order one location at a time (the
//           kernel without SIMD; a test compares the twins bit for bit).
//
// The code, in four parts, each on its own:
//   - classify_location(): a pure function of one grid vector: its location is a zeros run,
//     fast (top-left offset and weights), edge or generic. Scalar and SIMD twins of one
//     signature side by side; the scalar one always builds, so that a test compares them
//     bit for bit in one binary.
//   - FastPlanBuilder: owns the counters of one block's plan while its rows are classified,
//     in one call or in several parts.
//   - fast_block() / gather_list(): one channel plane of a planned block (kernel twins
//     again, scalar and SIMD).
//   - pipeline_blocks(): the order of the work, as an iterator over blocks: block k is
//     computed step by step (channel by channel) while block k + 1 is planned in as many
//     parts, into the other of two plan copies.
// run_fast2d() joins them over a range of the output, with a workspace.
#pragma once

#include "core/optimize.h"
#include "gridsample/kernels_generic.h"

namespace osw {
namespace gs_exec {

// Linear: the rows of X that a block's fast locations reach are read in order before each
// channel's pass when they are at most this many bytes (larger bands would not stay in
// cache until the gathers reach them).
constexpr int64_t kTouchBandBytes = int64_t(512) << 10;
// Cubic: X of at most this many bytes per batch item is read once in order before the
// gathers (a larger X would not stay in cache until the gathers reach it).
constexpr int64_t kTouchMaxBytes = int64_t(2) << 20;

// ---- per-axis rules --------------------------------------------------------------------

// Linear taps of coordinate x on an axis of length L, when both are inside and of non-zero
// weight: first = floor(x), w = {1 - t, t}. The same arithmetic as gs::axis_taps (border's
// clamp and reflection's reflect leave such an x unchanged, so they are skipped, except that
// reflection first reflects an x outside [lo, hi], as axis_taps does).
inline bool fast_axis_linear(double x, double last, bool reflect, double lo, double hi,
                             int64_t* first, double w[2]) {
  if (reflect) x = gs::reflect(x, lo, hi);   // identity in [lo, hi]; NaN stays NaN
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
  if (!wasm_i64x2_all_true(
          wasm_v128_and(wasm_f64x2_gt(u, wasm_f64x2_splat(0.0)), wasm_f64x2_lt(u, last))))
    return false;
  const v128_t f = wasm_f64x2_floor(u);
  const v128_t t = wasm_f64x2_sub(u, f);
  if (wasm_v128_any_true(wasm_f64x2_eq(t, wasm_f64x2_splat(0.0)))) return false;
  const v128_t t1 = wasm_f64x2_sub(wasm_f64x2_splat(1.0), t);  // [1 - tx, 1 - ty]
  const v128_t wx = wasm_i64x2_shuffle(t1, t, 0, 2);           // [1 - tx, tx]
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
    v128_t a =
        wasm_f64x2_sub(wasm_f64x2_mul(wasm_f64x2_splat(A + 2.0), s), wasm_f64x2_splat(A + 3.0));
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
  const v128_t any0 =
      wasm_v128_or(wasm_v128_or(wasm_f64x2_eq(wk[0], zero), wasm_f64x2_eq(wk[1], zero)),
                   wasm_v128_or(wasm_f64x2_eq(wk[2], zero), wasm_f64x2_eq(wk[3], zero)));
  if (wasm_v128_any_true(any0)) return false;
  *ix = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 0)) - 1;
  *iy = static_cast<int64_t>(wasm_f64x2_extract_lane(f, 1)) - 1;
  return true;
}
#endif

// ---- the classifier --------------------------------------------------------------------

// What the classifier needs of one plan: the mode, the padding and X's two lengths.
struct FastAxes {
  bool cubic = false, refl = false, zeros = false, align = false;
  bool edges = false;  // linear with border padding: classify_edge() applies
  int64_t W = 0;
  double len_w = 0, len_h = 0;    // W, H
  double last_w = 0, last_h = 0;  // W - 1, H - 1
  // Zeros padding: a coordinate below out_lo, or at or above out_w (out_h), has every tap
  // of the mode outside X (linear: x < -1 or x >= L; cubic: x < -2 or x >= L + 1).
  double out_lo = 0, out_w = 0, out_h = 0;
  double lo_w = 0, hi_w = 0, lo_h = 0, hi_h = 0;  // reflection bounds
  // Weights of footprint row i start at w[i * w_row] (the layout of FastPlan::w).
  int64_t w_row = 0;

  FastAxes(const GridSampleAttrs& attrs, const Geometry& geo) {
    cubic = attrs.mode == GridMode::Cubic;
    refl = attrs.padding == PaddingMode::Reflection;
    zeros = attrs.padding == PaddingMode::Zeros;
    edges = !cubic && attrs.padding == PaddingMode::Border;
    align = attrs.align_corners;
    const int64_t H = geo.len[0];
    W = geo.len[1];
    len_w = static_cast<double>(W);
    len_h = static_cast<double>(H);
    last_w = static_cast<double>(W - 1);
    last_h = static_cast<double>(H - 1);
    out_lo = cubic ? -2.0 : -1.0;
    out_w = len_w + (cubic ? 1.0 : 0.0);
    out_h = len_h + (cubic ? 1.0 : 0.0);
    gs::reflection_bounds(W, align, &lo_w, &hi_w);
    gs::reflection_bounds(H, align, &lo_h, &hi_h);
    w_row = cubic ? 4 : 8;
  }

  // Zeros padding, every tap of an axis outside X (+-Inf too): plan_location() would
  // return no taps, so the output is +0 without planning. A NaN on either axis is not (its
  // taps are one NaN tap).
  bool zeros_outside(double xw, double xh) const {
    return zeros && !std::isnan(xh) && !std::isnan(xw) &&
           (xh < out_lo || xh >= out_h || xw < out_lo || xw >= out_w);
  }
};

enum class LocationKind : int32_t {
  Zeros,    // no taps: output +0
  Fast,     // *offset and the weights written
  Generic,  // for plan_location() and the generic kernel
  Edge,     // two taps, offset[0 .. 1] and w[0 .. 1] written (classify_edge)
};

// Linear with border padding, a location that is not fast: border clamps each coordinate
// to [0, L - 1]; when one axis's clamped coordinate is a whole pixel (gs::axis_taps gives
// it one tap, of weight 1) and the other's is not (two taps, 1 - t and t), the location has
// two taps along the second axis: Edge, with offset[0] < offset[1] and w[0], w[1] exactly
// what plan_location() gives it (each product with the whole axis's weight 1 is exact,
// rounded to float), so the generic kernel computes it as before; only planning it is
// cheaper. A grid that leaves X on one side (a warp, a rotation) meets this along the
// whole edge. Anything else (NaN, a pixel on both axes) stays Generic.
OSW_MINSIZE __attribute__((noinline)) inline LocationKind classify_edge(const FastAxes& ax,
                                                                        double xw, double xh,
                                                                        int64_t* offset, float* w) {
  if (std::isnan(xw) || std::isnan(xh)) return LocationKind::Generic;
  xw = std::min(std::max(xw, 0.0), ax.last_w);
  xh = std::min(std::max(xh, 0.0), ax.last_h);
  const double fw = std::floor(xw), fh = std::floor(xh);
  const double tw = xw - fw, th = xh - fh;
  if ((tw == 0.0) == (th == 0.0)) return LocationKind::Generic;
  const double t = tw + th;  // the fractional axis's (the other's is 0)
  offset[0] = static_cast<int64_t>(fh) * ax.W + static_cast<int64_t>(fw);
  offset[1] = offset[0] + (tw != 0.0 ? 1 : ax.W);
  w[0] = static_cast<float>(1.0 - t);
  w[1] = static_cast<float>(t);
  return LocationKind::Edge;
}

// One location, from its grid vector gv (gv[0] along W, gv[1] along H). Always inlined
// into the builder's row loop, where the constants of ax stay in registers. Fast: *offset is
// the footprint's top-left offset in the plane, and footprint row i's weights, the double
// product wy[i] * wx[k] rounded to float as plan_location() computes them, are at
// w[i * ax.w_row + k] (k < 2 linear, < 4 cubic); Edge: classify_edge(); nothing is
// written otherwise.
// The coordinates are gs::unnormalize()'s formula in f64x2 arithmetic (x / 2 is x * 0.5
// exactly), without its one exception: an infinite g with align_corners=1 and L = 1
// (Inf * 0) gives NaN here instead of Inf. Both send the location to plan_location(),
// which starts again from the grid value, and neither is fast (no fast location on an axis
// of length 1).
__attribute__((always_inline)) inline LocationKind classify_scalar(const FastAxes& ax, double gw,
                                                                   double gh, int64_t* offset,
                                                                   float* w) {
  const double g1w = gw + 1.0, g1h = gh + 1.0;
  const double xw = ax.align ? g1w * 0.5 * ax.last_w : (g1w * ax.len_w - 1.0) * 0.5;
  const double xh = ax.align ? g1h * 0.5 * ax.last_h : (g1h * ax.len_h - 1.0) * 0.5;
  if (ax.zeros_outside(xw, xh)) return LocationKind::Zeros;
  int64_t iy, ix;
  double wy[4], wx[4];
  const bool fast =
      ax.cubic ? fast_axis_cubic(xh, ax.last_h, &iy, wy) && fast_axis_cubic(xw, ax.last_w, &ix, wx)
               : fast_axis_linear(xh, ax.last_h, ax.refl, ax.lo_h, ax.hi_h, &iy, wy) &&
                     fast_axis_linear(xw, ax.last_w, ax.refl, ax.lo_w, ax.hi_w, &ix, wx);
  if (!fast) return ax.edges ? classify_edge(ax, xw, xh, offset, w) : LocationKind::Generic;
  *offset = iy * ax.W + ix;
  const int n = ax.cubic ? 4 : 2;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) w[i * ax.w_row + k] = static_cast<float>(wy[i] * wx[k]);
  return LocationKind::Fast;
}

template <typename G>
__attribute__((always_inline)) inline LocationKind classify_location_scalar(const FastAxes& ax,
                                                                            const G* gv,
                                                                            int64_t* offset,
                                                                            float* w) {
  return classify_scalar(ax, static_cast<double>(gv[0]), static_cast<double>(gv[1]), offset, w);
}

#if OSW_HAVE_SIMD
// The same, both axes in f64x2 lanes [x (along W), y (along H)] where the arithmetic
// allows (linear reflection reflects each axis first, so it takes the scalar rules).
// (g2: the grid vector in f64x2 lanes.)
__attribute__((always_inline)) inline LocationKind classify_simd(const FastAxes& ax, v128_t g2,
                                                                 int64_t* offset, float* w) {
  const v128_t one = wasm_f64x2_splat(1.0), half = wasm_f64x2_splat(0.5);
  const v128_t len_1 = wasm_f64x2_make(ax.last_w, ax.last_h);
  const v128_t len = wasm_f64x2_make(ax.len_w, ax.len_h);
  const v128_t g1 = wasm_f64x2_add(g2, one);
  const v128_t u = ax.align ? wasm_f64x2_mul(wasm_f64x2_mul(g1, half), len_1)
                            : wasm_f64x2_mul(wasm_f64x2_sub(wasm_f64x2_mul(g1, len), one), half);
  const double xw = wasm_f64x2_extract_lane(u, 0), xh = wasm_f64x2_extract_lane(u, 1);
  if (ax.zeros_outside(xw, xh)) return LocationKind::Zeros;
  int64_t iy, ix;
  if (ax.cubic) {
    v128_t wk[4];
    if (!fast_cubic_pair(xw, xh, wasm_f64x2_make(ax.last_w - 1.0, ax.last_h - 1.0), &ix, &iy, wk))
      return LocationKind::Generic;
    // The double products wy[i] * wx[k] and their roundings to float, two at a time.
    const v128_t x01 = wasm_i64x2_shuffle(wk[0], wk[1], 0, 2);
    const v128_t x23 = wasm_i64x2_shuffle(wk[2], wk[3], 0, 2);
    for (int i = 0; i < 4; ++i) {
      const v128_t yi = wasm_i64x2_shuffle(wk[i], wk[i], 1, 1);
      const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(yi, x01));
      const v128_t hi = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(yi, x23));
      wasm_v128_store(w + i * ax.w_row, wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5));
    }
  } else if (!ax.refl) {
    v128_t r0, r1;
    if (!fast_linear_pair(u, len_1, &ix, &iy, &r0, &r1))
      return ax.edges ? classify_edge(ax, xw, xh, offset, w) : LocationKind::Generic;
    wasm_v128_store64_lane(w, r0, 0);
    wasm_v128_store64_lane(w + ax.w_row, r1, 0);
  } else {
    double wy[2], wx[2];
    if (!(fast_axis_linear(xh, ax.last_h, true, ax.lo_h, ax.hi_h, &iy, wy) &&
          fast_axis_linear(xw, ax.last_w, true, ax.lo_w, ax.hi_w, &ix, wx)))
      return LocationKind::Generic;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 2; ++k) w[i * ax.w_row + k] = static_cast<float>(wy[i] * wx[k]);
  }
  *offset = iy * ax.W + ix;
  return LocationKind::Fast;
}

// The grid vector at gv (float32 when g_f32, else float64) in f64x2 lanes.
__attribute__((always_inline)) inline v128_t load_grid2(const void* gv, bool g_f32) {
  return g_f32 ? wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(gv)) : wasm_v128_load(gv);
}

template <typename G>
__attribute__((always_inline)) inline LocationKind classify_location_simd(const FastAxes& ax,
                                                                          const G* gv,
                                                                          int64_t* offset,
                                                                          float* w) {
  return classify_simd(ax, load_grid2(gv, std::is_same<G, float>::value), offset, w);
}
#endif

// The location whose grid vector is at gv (float32 when g_f32, else float64): one copy of
// the classification for both grid types, which differ only in this load.
__attribute__((always_inline)) inline LocationKind classify_location(const FastAxes& ax,
                                                                     const void* gv, bool g_f32,
                                                                     int64_t* offset, float* w) {
#if OSW_HAVE_SIMD
  return classify_simd(ax, load_grid2(gv, g_f32), offset, w);
#else
  const float* f = static_cast<const float*>(gv);
  const double* d = static_cast<const double*>(gv);
  return classify_scalar(ax, g_f32 ? double(f[0]) : d[0], g_f32 ? double(f[1]) : d[1], offset, w);
#endif
}

// ---- the block plan --------------------------------------------------------------------

// A block of the output: its first location (index into the batch item's output), its rows
// and columns.
struct Block {
  int64_t first, nh, nw;
};

// Block k of a batch item (the plan's tiling, Fast2d).
inline Block fast_block_at(const GridSamplePlan& plan, int64_t k) {
  const int64_t r0 = (k / plan.blocks_w) * plan.th, c0 = (k % plan.blocks_w) * plan.tw;
  return Block{r0 * plan.geo.out_w + c0, std::min(plan.th, plan.geo.out_h - r0),
               std::min(plan.tw, plan.geo.out_w - c0)};
}

// The plan of one block, in workspace arrays. Positions are relative to the block's first
// location (row r, column c is r * out_w + c).
//   Fast locations: position idx[f], top-left offset off[f], weights w. Linear weights are
//     laid out for the vector kernel, per group of four locations q = 0..3: 8 top-row
//     weights (w00 w01 of q = 0, then q = 1, 2, 3), then 8 bottom-row weights; so location
//     f's row i, column k is w[lin_w(f) + i * 8 + k]. Cubic: 16 weights per location, row
//     by row. The arrays hold nf rounded up to a multiple of 4; the padding repeats the
//     last location.
//   Generic locations: location k at position gen[k], its taps (plan_location) in slot k
//     of goff / gw (stride max_taps), gcount[k] of them.
//   Runs of consecutive locations with no taps (zeros padding, every tap outside X, found
//     without plan_location): run k is positions [zr[2k], zr[2k] + zr[2k + 1]), output +0.
inline int64_t lin_w(int64_t f) { return (f / 4) * 16 + (f % 4) * 2; }

template <typename Off>
struct FastPlan {
  int64_t* idx = nullptr;
  Off* off = nullptr;
  float* w = nullptr;
  int64_t nf = 0;
  int64_t* gen = nullptr;
  Off* goff = nullptr;
  float* gw = nullptr;
  Off* gcount = nullptr;
  int64_t ng = 0;
  int64_t* zr = nullptr;
  int64_t nz = 0;
  // The smallest and largest off[] of the fast locations (lo > hi when there are none).
  int64_t lo = 0, hi = -1;
  // The fast locations of the block's first row reach 3 or more rows of X: the rows of the
  // output cross the rows of X, so the gathers do not read X in order.
  bool across = false;
};

// Gives fp the arrays of workspace tables tb, for blocks of the plan's size. copies: plan
// copies the run uses (the byte counts of the messages are for all of them). Once per run:
// compiled for size.
template <typename Off>
OSW_MINSIZE Status bind_fast_plan(const GridSamplePlan& plan, int copies,
                                  GridSampleWorkspace::Tables* tb, FastPlan<Off>* fp) {
  const int64_t block = plan.block, table = plan.table;
  const int64_t block4 = (block + 3) / 4 * 4;  // the padded last group
  const int64_t fast_weights = plan.attrs.mode == GridMode::Cubic ? 16 : 4;
  const int64_t limit = plan.max_bytes;
  fp->idx = workspace_array<int64_t>(tb->fast_pos, block4, limit);
  fp->gen = workspace_array<int64_t>(tb->gen_pos, block, limit);
  fp->zr = workspace_array<int64_t>(tb->zero_runs, block + 1, limit);
  if (!fp->idx || !fp->gen || !fp->zr)
    return out_of_memory("GridSample location lists", copies * (block4 + 2 * block + 1) * 8, limit);
  fp->off = workspace_array<Off>(tb->fast_off, block4, limit);
  fp->goff = workspace_array<Off>(tb->gen_off, table, limit);
  fp->gcount = workspace_array<Off>(tb->gen_count, block, limit);
  if (!fp->off || !fp->goff || !fp->gcount)
    return out_of_memory("GridSample tap offsets",
                         copies * (block4 + table + block) * int64_t(sizeof(Off)), limit);
  fp->w = workspace_array<float>(tb->fast_w, block4 * fast_weights, limit);
  fp->gw = workspace_array<float>(tb->gen_w, table, limit);
  if (!fp->w || !fp->gw)
    return out_of_memory("GridSample tap weights", copies * (block4 * fast_weights + table) * 4,
                         limit);
  return Status::Ok();
}

// Builds one block's plan into a FastPlan, row by row: begin(), then add_rows() over the
// rows in one call or in several parts (the pipeline plans a block between the steps of
// the previous one), then finish(). Owns the counters in between; the plan's own counts
// are written by finish().
template <typename Off>
class FastPlanBuilder {
 public:
  FastPlanBuilder(const FastAxes& ax, const GridSampleAttrs& attrs, const Geometry& geo,
                  int64_t max_taps, double* wd, FastPlan<Off>* out)
      : ax_(ax), attrs_(attrs), geo_(geo), max_taps_(max_taps), wd_(wd), out_(out) {}

  void begin() { n_ = Counts(); }

  // Classifies rows [r_begin, r_end) of block b, whose locations' grid vectors start at
  // grid + 2 * b.first (float32 elements when g_f32, else float64). (Out of line: inlined
  // into the pipeline it is slower, docs/performance.md.)
  [[gnu::noinline]] void add_rows(const void* grid, bool g_f32, const Block& b, int64_t r_begin,
                                  int64_t r_end);

  // Pads the last group of four with copies of the last fast location; writes the counts.
  // (Once per block: compiled for size.)
  OSW_MINSIZE void finish();

 private:
  struct Counts {
    int64_t nf = 0, ng = 0, nz = 0;
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = -1;
    bool across = false;
  };
  FastAxes ax_;
  const GridSampleAttrs& attrs_;
  const Geometry& geo_;
  int64_t max_taps_;
  double* wd_;
  FastPlan<Off>* out_;
  Counts n_;
};

template <typename Off>
void FastPlanBuilder<Off>::add_rows(const void* grid, bool g_f32, const Block& b, int64_t r_begin,
                                    int64_t r_end) {
  // Locals, so that the counters and constants stay in registers while the plan's arrays
  // are written.
  const FastAxes ax = ax_;
  Counts n = n_;
  const FastPlan<Off> p = *out_;
  const int64_t out_w = geo_.out_w, W = ax.W;
  // Where the next fast location's weights go (lin_w for linear), moved on per fast one.
  float* w_next = p.w + (ax.cubic ? n.nf * 16 : lin_w(n.nf));
  for (int64_t r = r_begin; r < r_end; ++r) {
    if (r == 1 && n.nf > 0) {  // row 0 planned: its fast locations are off[0 .. nf)
      const auto mm = std::minmax_element(p.off, p.off + n.nf);
      n.across = *mm.second / W - *mm.first / W >= 2;
    }
    for (int64_t c = 0; c < b.nw; ++c) {
      const int64_t j = r * out_w + c;
      const void* gv = static_cast<const char*>(grid) + (b.first + j) * (g_f32 ? 8 : 16);
      int64_t o[2];
      switch (classify_location(ax, gv, g_f32, o, w_next)) {
        case LocationKind::Zeros:
          if (n.nz > 0 && p.zr[2 * n.nz - 2] + p.zr[2 * n.nz - 1] == j) {
            ++p.zr[2 * n.nz - 1];
          } else {
            p.zr[2 * n.nz] = j;
            p.zr[2 * n.nz + 1] = 1;
            ++n.nz;
          }
          break;
        case LocationKind::Generic:
          p.gcount[n.ng] = plan_location_of<float, Off>(
              attrs_, geo_, gv, g_f32, p.goff + n.ng * max_taps_, p.gw + n.ng * max_taps_, wd_);
          p.gen[n.ng++] = j;
          break;
        case LocationKind::Edge: {  // the generic list's taps, as plan_location would write them
          Off* go = p.goff + n.ng * max_taps_;
          float* gw = p.gw + n.ng * max_taps_;
          go[0] = static_cast<Off>(o[0]);
          go[1] = static_cast<Off>(o[1]);
          gw[0] = w_next[0];
          gw[1] = w_next[1];
          p.gcount[n.ng] = 2;
          p.gen[n.ng++] = j;
          break;
        }
        case LocationKind::Fast:
          p.idx[n.nf] = j;
          p.off[n.nf] = static_cast<Off>(o[0]);
          n.lo = std::min(n.lo, o[0]);
          n.hi = std::max(n.hi, o[0]);
          ++n.nf;
          w_next = p.w + (ax.cubic ? n.nf * 16 : lin_w(n.nf));
          break;
      }
    }
  }
  n_ = n;
}

template <typename Off>
void FastPlanBuilder<Off>::finish() {
  FastPlan<Off>& p = *out_;
  const int64_t nf = n_.nf;
  for (int64_t f = nf; nf > 0 && f % 4 != 0; ++f) {
    p.idx[f] = p.idx[nf - 1];
    p.off[f] = p.off[nf - 1];
    if (ax_.cubic) {
      std::memcpy(p.w + f * 16, p.w + (nf - 1) * 16, 16 * sizeof(float));
    } else {
      float* d = p.w + lin_w(f);
      const float* s = p.w + lin_w(nf - 1);
      d[0] = s[0];
      d[1] = s[1];
      d[8] = s[8];
      d[9] = s[9];
    }
  }
  p.nf = nf;
  p.ng = n_.ng;
  p.nz = n_.nz;
  p.lo = n_.lo;
  p.hi = n_.hi;
  p.across = n_.across;
}

// ---- kernels ---------------------------------------------------------------------------

// The fast sums, one location at a time (the order the header documents). w: the
// location's weights, row i at w + i * (8 linear, 4 cubic).
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

// One channel plane of one block: the fast locations, one at a time.
template <typename Off>
void fast_block_scalar(bool cubic, const float* x, const FastPlan<Off>& fp, int64_t W, float* y) {
  for (int64_t f = 0; f < fp.nf; ++f) {
    y[fp.idx[f]] = cubic ? fast_scalar_cubic(x + fp.off[f], fp.w + f * 16, W)
                         : fast_scalar_linear(x + fp.off[f], fp.w + lin_w(f), W);
  }
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
  const v128_t a01 =
      wasm_f32x4_add(wasm_f32x4_mul(load_pairs(p0, p1), wasm_v128_load(w)),
                     wasm_f32x4_mul(load_pairs(p0 + W, p1 + W), wasm_v128_load(w + 8)));
  const v128_t a23 =
      wasm_f32x4_add(wasm_f32x4_mul(load_pairs(p2, p3), wasm_v128_load(w + 4)),
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
  const v128_t ab =
      wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 1, 4, 5), wasm_i32x4_shuffle(a, b, 2, 3, 6, 7));
  const v128_t cd =
      wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 1, 4, 5), wasm_i32x4_shuffle(c, d, 2, 3, 6, 7));
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

// One channel plane of one block: the fast locations four at a time, each in its own lane
// (the same sums as fast_block_scalar; a last group of fewer than four is padded with
// copies of a real location, whose lanes are not stored).
template <typename Off>
void fast_block_simd(bool cubic, const float* x, const FastPlan<Off>& fp, int64_t W, float* y) {
  const int64_t nf = fp.nf;
  const int64_t* idx = fp.idx;
  const Off* off = fp.off;
  const float* w = fp.w;
  if (cubic) {
    for (int64_t f = 0; f < nf; f += 4)
      store_lanes(y, idx + f, std::min<int64_t>(4, nf - f), fast_cubic4(x, off + f, w + f * 16, W));
  } else {
    for (int64_t f = 0; f < nf; f += 4)
      store_lanes(y, idx + f, std::min<int64_t>(4, nf - f), fast_linear4(x, off + f, w + f * 4, W));
  }
}
#endif

template <typename Off>
inline void fast_block(bool cubic, const float* x, const FastPlan<Off>& fp, int64_t W, float* y) {
#if OSW_HAVE_SIMD
  fast_block_simd<Off>(cubic, x, fp, W, y);
#else
  fast_block_scalar<Off>(cubic, x, fp, W, y);
#endif
}

// One channel plane of one block: the generic locations, exactly as gather_block computes
// them for float. Location k's taps are in slot k, its output at y[pos[k]].
template <typename Off>
void gather_list(const float* x, const Off* off, const float* w, const Off* count, int64_t stride,
                 const int64_t* pos, int64_t n, float* y) {
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
    if (count[k] == 4) {  // (a cubic window along one axis: border padding past X's edge,
      // common on a rotated grid; gather_dot's loop unrolled for it)
      y[pos[k]] = gather_dot(x, off + k * stride, w + k * stride, 4);
      continue;
    }
    if (count[k] == 2) {  // (linear's edge locations: gather_dot's loop with its count known)
      y[pos[k]] = gather_dot_scalar(x, off + k * stride, w + k * stride, 2);
      continue;
    }
    y[pos[k]] = gather_dot(x, off + k * stride, w + k * stride, static_cast<int64_t>(count[k]));
  }
}

// ---- the pipeline ----------------------------------------------------------------------

// The order of the work over the blocks of `range` in one batch item: block k is computed
// in `steps` steps, work(block, copy, step), and between those steps the next block is
// planned in as many parts, plan_rows(block, r_begin, r_end, copy), into the other of two
// plan copies (copy: 0 or 1; one copy when the range is one block). So the planner's
// arithmetic, which reads only the grid, in order, runs between the gathers, which read X
// where the grid points, often out of cache. The first block is planned whole before any
// work.
// The blocks come from next_block(): in order, or in a threaded run each one taken from the
// range's shared counter when its planning starts (at most one block is held ahead of the
// one being computed).
template <typename PlanRows, typename Work>
inline void pipeline_blocks(const GridSamplePlan& plan, const GridSampleRange& range, int64_t steps,
                            PlanRows&& plan_rows, Work&& work) {
  const int64_t b_end = range.block_end;
  int64_t k = next_block(range, range.block_begin - 1);
  if (k >= b_end || steps <= 0) return;
  int now = 0;  // the plan copy of block k; the next block's goes into the other
  Block cur = fast_block_at(plan, k);
  plan_rows(cur, int64_t(0), cur.nh, now);
  for (;;) {
    const int64_t k2 = next_block(range, k);
    const bool more = k2 < b_end;
    const Block next = more ? fast_block_at(plan, k2) : cur;
    for (int64_t s = 0; s < steps; ++s) {
      work(cur, now, s);
      const int64_t r_begin = next.nh * s / steps, r_end = next.nh * (s + 1) / steps;
      if (more && r_end > r_begin) plan_rows(next, r_begin, r_end, 1 - now);
    }
    if (!more) break;
    cur = next;
    k = k2;
    now = 1 - now;
  }
}

// ---- run -------------------------------------------------------------------------------

// The fast path over `range`: per batch item, the pipeline over the range's blocks, one
// step per channel of the range.
template <typename Off>
Status run_fast2d(const GridSamplePlan& plan, const GridSampleRange& range, const float* x,
                  const void* grid, bool g_f32, float* y, GridSampleWorkspace* ws) {
  const Geometry& geo = plan.geo;
  const bool cubic = plan.attrs.mode == GridMode::Cubic;
  const int64_t max_taps = plan.max_taps;
  const int copies = range.block_end - range.block_begin > 1 ? 2 : 1;
  FastPlan<Off> fp[2];
  for (int i = 0; i < copies; ++i)
    OSW_RETURN_IF_ERROR(bind_fast_plan<Off>(plan, copies, &ws->tables[i], &fp[i]));
  double* wd = workspace_array<double>(ws->weights_f64, max_taps, plan.max_bytes);
  if (!wd) return out_of_memory("GridSample scratch", max_taps * 8, plan.max_bytes);

  const FastAxes ax(plan.attrs, geo);
  FastPlanBuilder<Off> builders[2] = {{ax, plan.attrs, geo, max_taps, wd, &fp[0]},
                                      {ax, plan.attrs, geo, max_taps, wd, &fp[1]}};
  const int64_t W = geo.len[1];
  // Rows of X a fast location reads from its top-left offset on: 2 (linear) or 4 (cubic).
  const int64_t foot = cubic ? 3 * W + 4 : W + 2;
  const int64_t c0 = range.c_begin, planes = range.c_end - range.c_begin;
  for (int64_t n = range.n_begin; n < range.n_end; ++n) {
    const float* x_n = x + n * geo.c * geo.in_size;
    if (cubic && planes * geo.in_size <= kTouchMaxBytes / int64_t(sizeof(float)))
      ws->touch_sink = touch_in_order(x_n + c0 * geo.in_size, planes * geo.in_size);
    const void* grid_n = static_cast<const char*>(grid) + n * geo.out_size * (g_f32 ? 8 : 16);
    auto plan_rows = [&](const Block& b, int64_t r_begin, int64_t r_end, int copy) {
      FastPlanBuilder<Off>& builder = builders[copy];
      if (r_begin == 0) builder.begin();
      builder.add_rows(grid_n, g_f32, b, r_begin, r_end);
      if (r_end == b.nh) builder.finish();
    };
    auto work = [&](const Block& b, int copy, int64_t step) {
      const FastPlan<Off>& p = fp[copy];
      const int64_t plane = n * geo.c + c0 + step;
      const float* xc = x + plane * geo.in_size;
      float* yb = y + plane * geo.out_size + b.first;
      const int64_t band = p.hi - p.lo + foot;  // <= 0 without fast locations
      if (!cubic && p.across && band > 0 && band <= kTouchBandBytes / int64_t(sizeof(float)))
        ws->touch_sink = touch_in_order(xc + p.lo, band);
      fast_block<Off>(cubic, xc, p, W, yb);
      for (int64_t z = 0; z < p.nz; ++z) {
        const int64_t* run = p.zr + 2 * z;
        std::memset(yb + run[0], 0, sizeof(float) * static_cast<size_t>(run[1]));
      }
      gather_list<Off>(xc, p.goff, p.gw, p.gcount, max_taps, p.gen, p.ng, yb);
    };
    pipeline_blocks(plan, range, planes, plan_rows, work);
  }
  return Status::Ok();
}

}  // namespace gs_exec
}  // namespace osw
