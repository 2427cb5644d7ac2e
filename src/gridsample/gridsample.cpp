// gridsample/gridsample.cpp: GridSample on X of rank r+2 (r >= 1), any mode, padding and
// align_corners.
//
// What this file defines: the coordinate functions (coordinates.h), the parameter checks,
// the nearest fast path (kernels_nearest.h), the block plan, the workspace's methods, the
// run and the API. They share the file that instantiates the float32 kernels
// (gridsample_run_hot) on purpose: the per-location planner (plan_location) inlines the
// coordinate functions, and the generic kernel can inline the nearest fast path; separate
// files would lose that and cost download (docs/performance.md, "GridSample"). The kernels
// themselves are headers (below); exec_cold.cpp instantiates them for the other types.
//
// Three steps, then a run:
//   1. params: gridsample_output_shape() and gridsample_plan() validate shapes, types and
//              attributes.
//   2. plan:   gridsample_plan() decides once per shape the path and the blocks of the
//              output (GridSamplePlan, immutable); then, for a block of output locations of
//              one batch item, plan_location() turns each grid vector into taps: flat input
//              offsets and weights (product over the axes of gs::axis_taps), with padding
//              already resolved. Out-of-bounds taps of zeros padding are dropped rather than
//              given weight 0, so that a NaN or Inf pixel that no tap reaches cannot leak
//              into the output (0 * Inf = NaN).
//   3. kernel: for every channel, each output is a dot product of the location's weights
//              with the gathered input values. No mode or padding branch is left there.
// gridsample_run() does 2 and 3 over any range of the output (batch items x blocks x
// channels) with a GridSampleWorkspace, which holds the block tables.
// The kernel is a template over the storage type T (ElemTraits<T> gives its Compute type),
// the grid type G and the offset type Off (int32 while the spatial size allows):
// gridsample/kernels_generic.h, gridsample/kernels_fast2d.h, gridsample/exec.h.
//
// The 2-D fast path (float32 X, r = 2, linear or cubic; gs::Tuning::generic turns it off).
// The same three steps, specialised (gridsample/kernels_fast2d.h). A block is whole rows of the
// output (at most kFastBlock = 4096 locations for cubic, kFastBlockLinear = 65536 for
// linear, fewer under a small allocation limit; a longer row is cut into parts), so that
// one channel's pass over a block writes one contiguous run of Y. With more than one block
// in a range, two plans alternate (pipeline_blocks): the next block is planned a few rows
// after each channel of the current one, so that planning runs between the gathers. Reads
// in order (touch_in_order) bring X into cache before the gathers, which follow the grid in
// any direction: cubic reads X of at most 2 MiB per batch item once; linear, before each
// channel's pass over a block, the rows of that plane the block's fast locations reach,
// when they are at most 512 KB and the block's first output row crosses 3 or more rows of
// X (an output row that runs along a row of X is read in order by the gathers themselves).
//   plan:   classify_location() takes a location to the fast path when, on each axis, the
//           taps of the mode are all inside X and all of non-zero weight: linear, the coordinate
//           (after border's clamp or reflection's reflect, which leave such a coordinate
//           as it is) lies strictly between two pixels inside X; cubic, floor(x) - 1 and
//           floor(x) + 2 are inside X and none of the 4 cubic weights is exactly 0. The
//           generic planner gives such a location exactly the same taps and weights (no tap
//           is dropped or merged, so padding plays no part), and the fast plan stores them
//           as the footprint's top-left offset and its 2x2 / 4x4 weights, each weight the
//           double product wy * wx rounded to float, as plan_location() computes it. Every
//           other location (a NaN coordinate, a tap of weight exactly 0, e.g. a whole-pixel
//           coordinate, taps outside X or merged by padding) is planned by plan_location()
//           and computed by the generic kernel, with exactly the results it always had.
//           With linear and border padding, a location whose clamped coordinate is a whole
//           pixel on one axis and not on the other (along the edge of X, where a warp or a
//           rotation leaves it) has two taps; classify_edge() writes them into the generic
//           list as plan_location() would, without its general outer product.
//           With zeros padding, a location whose coordinate on one axis has every tap
//           outside X (linear: x < -1 or x >= L; cubic: x < -2 or x >= L + 1), and no NaN
//           coordinate, is given no taps (output +0) without plan_location(), which would
//           find the same; such locations are kept as runs of consecutive positions,
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
#include "gridsample/gridsample.h"
#include "gridsample/exec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/elem.h"
#include "core/optimize.h"
#include "core/simd.h"  // <wasm_simd128.h>, or SIMDe in native builds (OSW_HAVE_SIMD)

namespace osw {
namespace gs {

double unnormalize(double g, int64_t L, bool align_corners) {
  // An infinite g stays infinite (far out of bounds, docs/semantics.md row 11), also where the
  // formula would give Inf * 0 = NaN (L = 1 with align_corners=1).
  if (std::isinf(g)) return g;
  const double len = static_cast<double>(L);
  if (align_corners) return (g + 1.0) / 2.0 * (len - 1.0);
  return ((g + 1.0) * len - 1.0) / 2.0;
}

void reflection_bounds(int64_t L, bool align_corners, double* lo, double* hi) {
  const double len = static_cast<double>(L);
  if (align_corners) {
    *lo = 0.0;
    *hi = len - 1.0;
  } else {
    *lo = -0.5;
    *hi = len - 0.5;
  }
}

double reflect(double x, double lo, double hi) {
  if (!(x < lo) && !(x > hi)) return x;  // in range, or NaN
  const double range = hi - lo;
  if (!(range > 0.0)) return lo;  // a single point: everything reflects onto it
  if (std::isinf(x)) return x < lo ? lo : hi;
  if (std::fabs(x) >= 0x1p52) {
    // x is an integer, and x - hi would round: reduce x itself modulo the period (fmod is
    // exact; so are the small shifts below), into [lo, lo + period); then the half above hi
    // reflects about hi.
    const double p = 2.0 * range;
    double m = std::fmod(x, p);
    while (m < lo) m += p;
    while (m >= lo + p) m -= p;
    return m <= hi ? m : 2.0 * hi - m;
  }
  // Distance d beyond the border that x crossed. Reflections repeat with period 2 * range:
  // m = d mod 2*range (fmod is exact) says where x lands; m <= range is an even number of
  // bounces (lands at distance m from the crossed border), m > range an odd number (lands
  // at distance m - range from the other border).
  const bool below = x < lo;
  const double d = below ? lo - x : x - hi;
  const double m = std::fmod(d, 2.0 * range);
  double r;
  if (m <= range) {
    r = below ? lo + m : hi - m;
  } else {
    r = below ? hi - (m - range) : lo + (m - range);
  }
  return std::min(std::max(r, lo), hi);
}

static inline double cubic_kernel(double s) {
  const double A = -0.75;
  s = std::fabs(s);
  if (s <= 1.0) return ((A + 2.0) * s - (A + 3.0)) * s * s + 1.0;
  if (s < 2.0) return ((A * s - 5.0 * A) * s + 8.0 * A) * s - 4.0 * A;
  return 0.0;
}

void cubic_weights(double t, double w[4]) {
  w[0] = cubic_kernel(t + 1.0);
  w[1] = cubic_kernel(t);
  w[2] = cubic_kernel(1.0 - t);
  w[3] = cubic_kernel(2.0 - t);
}

static inline double clampd(double v, double lo, double hi) {
  return std::min(std::max(v, lo), hi);
}

static void pad_taps(PaddingMode padding, int64_t L, double lo, double hi, const double* idx,
                     const double* wt, int n, AxisTaps* out);

void axis_taps(GridMode mode, PaddingMode padding, bool align_corners, int64_t L, double x,
               AxisTaps* out) {
  out->count = 0;
  if (L <= 0 || std::isnan(x)) return;
  const double last = static_cast<double>(L - 1);
  double lo, hi;
  reflection_bounds(L, align_corners, &lo, &hi);

  // First make x safe to take the floor of and to add small integers to, without changing
  // the result:
  // - zeros: below -4 or above L + 3 (Inf included) every tap of every mode is outside.
  // - border: nearest and linear clamp x to [0, L-1] (for nearest the same as clamping the
  //   rounded index). Cubic pads only its taps: clamping x to [-4, L+3] keeps all 4 taps
  //   on the same side, where they all clamp to the same edge pixel.
  // - reflection: finite x of any size is fine (reflect() uses fmod; taps are reflected as
  //   doubles before any integer conversion). +-Inf has no reflected position: it is
  //   treated as border padding (the edge pixel), as docs/semantics.md row 11 allows.
  if (padding == PaddingMode::Zeros) {
    if (!(x >= -4.0 && x <= last + 4.0)) return;
  } else if (padding == PaddingMode::Border) {
    x = mode == GridMode::Cubic ? clampd(x, -4.0, last + 4.0) : clampd(x, 0.0, last);
  } else if (std::isinf(x)) {
    x = clampd(x, 0.0, last);
  }

  double idx[4];
  double wt[4];
  int n = 0;
  switch (mode) {
    case GridMode::Nearest:
      idx[0] = std::nearbyint(x);  // half to even in the default rounding mode
      wt[0] = 1.0;
      n = 1;
      break;
    case GridMode::Linear: {
      if (padding == PaddingMode::Reflection) x = reflect(x, lo, hi);
      const double x0 = std::floor(x);
      const double t = x - x0;
      idx[0] = x0;
      idx[1] = x0 + 1.0;
      wt[0] = 1.0 - t;
      wt[1] = t;
      n = 2;
      break;
    }
    case GridMode::Cubic: {
      const double x0 = std::floor(x);
      cubic_weights(x - x0, wt);
      for (int k = 0; k < 4; ++k) idx[k] = x0 + static_cast<double>(k - 1);
      n = 4;
      break;
    }
  }
  pad_taps(padding, L, lo, hi, idx, wt, n, out);
}

OSW_MINSIZE double ort_coordinate(bool ac, int64_t L, double g, bool g_f32) {
  auto r = [g_f32](double v) { return g_f32 ? static_cast<double>(static_cast<float>(v)) : v; };
  const double x = ac ? r(r(r(g + 1.0) / 2.0) * static_cast<double>(r(double(L - 1))))
                      : r(r(r(r(g + 1.0) * r(double(L))) - 1.0) / 2.0);
  if (std::fabs(x) <= 0x1p62) return x;
  return ac ? 0.0 : -0.5;  // NaN, +-Inf, huge: the lower reflection border
}

// compat 'onnxruntime' (gridsample/gridsample.h): ONNX Runtime's arithmetic in the grid's type,
// here in double with every result rounded to float32 when the grid is float32 (r): for +, -, * and
// / of two float32 values, the double result rounded to float32 is float32's own result (53 >= 2 *
// 24 + 2 bits), so one instantiation serves both types. Not a hot path (plan_location only):
// compiled for size.
OSW_MINSIZE void axis_taps_ort(GridMode mode, PaddingMode padding, bool ac, int64_t L, double g,
                               bool g_f32, AxisTaps* out) {
  out->count = 0;
  if (L <= 0) return;
  auto r = [g_f32](double v) { return g_f32 ? static_cast<double>(static_cast<float>(v)) : v; };
  const double x = ort_coordinate(ac, L, g, g_f32);
  double lo, hi;
  reflection_bounds(L, ac, &lo, &hi);
  const double f = std::floor(x);
  double idx[4], wt[4];
  int n = 1;
  idx[0] = std::nearbyint(x);  // nearest: half to even
  wt[0] = 1.0;
  if (mode == GridMode::Linear) {
    const double f1 = r(f + 1.0);
    idx[0] = f;
    idx[1] = f1;
    wt[0] = r(f1 - x);
    wt[1] = r(x - f);
    n = 2;
  } else if (mode == GridMode::Cubic) {
    const double x0 = r(f - 1.0);
    cubic_weights(std::fabs(r(r(x - x0) - 1.0)), wt);
    for (int k = 0; k < 4; ++k) idx[k] = (f - 1.0) + k;
    n = 4;
  }
  pad_taps(padding, L, lo, hi, idx, wt, n, out);
}

void grid_axis_taps(const GridSampleAttrs& a, int64_t L, double g, bool g_f32, AxisTaps* out) {
  if (a.ort) return axis_taps_ort(a.mode, a.padding, a.align_corners, L, g, g_f32, out);
  axis_taps(a.mode, a.padding, a.align_corners, L, unnormalize(g, L, a.align_corners), out);
}

// The taps idx[k] (integers, finite) with weights wt[k], padded (axis_taps) into out.
static void pad_taps(PaddingMode padding, int64_t L, double lo, double hi, const double* idx,
                     const double* wt, int n, AxisTaps* out) {
  const double last = static_cast<double>(L - 1);
  for (int k = 0; k < n; ++k) {
    // A tap of weight exactly 0 is not read (docs/semantics.md): a NaN or Inf there must
    // not reach the output.
    if (wt[k] == 0.0) continue;
    double i = idx[k];
    switch (padding) {
      case PaddingMode::Zeros:
        if (i < 0.0 || i > last) continue;
        break;
      case PaddingMode::Border: i = clampd(i, 0.0, last); break;
      case PaddingMode::Reflection:
        // An integer reflected about -0.5 / L - 0.5 or 0 / L - 1 is again an integer;
        // rounding and clamping only guard against inexact doubles of huge magnitude.
        i = clampd(std::nearbyint(reflect(i, lo, hi)), 0.0, last);
        break;
    }
    const int64_t ii = static_cast<int64_t>(i);
    int m = 0;
    while (m < out->count && out->index[m] != ii) ++m;
    if (m == out->count) {
      out->index[m] = ii;
      out->weight[m] = wt[k];
      ++out->count;
    } else {
      out->weight[m] += wt[k];
    }
  }
}

}  // namespace gs

namespace {

// ---- params ----------------------------------------------------------------------------

std::string shape_str(const TensorView& t) {
  std::string s = "(";
  for (int i = 0; i < t.rank; ++i) {
    if (i) s += ", ";
    s += int_text(t.dims[i]);
  }
  return s + ")";
}

Status check_dims(const char* name, const TensorView& t) {
  if (t.rank < 0 || t.rank > kMaxRank) {
    return Status::Range(std::string(name) + ": rank must be at most " + int_text(kMaxRank) +
                         ", got " + int_text(t.rank));
  }
  // The product of the non-zero dims bounds every stride, so it must fit too even when
  // another dim is 0 and the tensor holds no element.
  int64_t n = 1;
  for (int i = 0; i < t.rank; ++i) {
    if (t.dims[i] < 0) {
      return Status::Range(std::string(name) + ": dimension " + int_text(i) +
                           " must not be negative, got " + int_text(t.dims[i]));
    }
    if (t.dims[i] != 0 && !checked_mul(n, t.dims[i], &n)) {
      return Status::Range(std::string(name) + ": element count of shape " + shape_str(t) +
                           " overflows int64");
    }
  }
  return Status::Ok();
}

bool is_float_type(DType t) { return t == DType::Float32 || t == DType::Float64; }

void make_geometry(const TensorView& x, const TensorView& y, GridSampleGeometry* geo) {
  GridSampleGeometry& g = *geo;
  g.r = x.rank - 2;
  g.n = x.dims[0];
  g.c = x.dims[1];
  int64_t s = 1;
  for (int a = g.r - 1; a >= 0; --a) {
    g.len[a] = x.dims[a + 2];
    g.stride[a] = s;
    s *= g.len[a];  // cannot overflow: check_dims bounded the whole of X
  }
  g.in_size = s;
  int64_t o = 1;
  for (int a = 0; a < g.r; ++a) o *= y.dims[a + 2];
  g.out_size = o;
  g.out_h = g.r == 2 ? y.dims[2] : 1;
  g.out_w = g.r == 2 ? y.dims[3] : 1;
}

}  // namespace

Status gridsample_output_shape(const TensorView& x, const TensorView& grid, TensorView* y) {
  OSW_RETURN_IF_ERROR(check_dims("X", x));
  OSW_RETURN_IF_ERROR(check_dims("grid", grid));
  if (x.rank < 3) {
    return Status::Range(
        "X: rank must be at least 3 (N, C and one or more spatial dimensions), got " +
        int_text(x.rank));
  }
  const int r = x.rank - 2;
  if (grid.rank != x.rank) {
    return Status::Range("grid: rank must be " + int_text(x.rank) +
                         " (the rank of X: N, the output's spatial dimensions and r), got " +
                         int_text(grid.rank));
  }
  if (grid.dims[0] != x.dims[0]) {
    return Status::Range("grid: dimension 0 must be " + int_text(x.dims[0]) +
                         " (the batch size N of X), got " + int_text(grid.dims[0]));
  }
  if (grid.dims[grid.rank - 1] != r) {
    return Status::Range("grid: last dimension must be " + int_text(r) +
                         " (the spatial rank of X), got " + int_text(grid.dims[grid.rank - 1]));
  }
  TensorView out;
  out.rank = x.rank;
  out.dims[0] = x.dims[0];
  out.dims[1] = x.dims[1];
  for (int a = 0; a < r; ++a) out.dims[a + 2] = grid.dims[a + 1];
  int64_t n = 1;
  for (int i = 0; i < out.rank; ++i) {
    if (!checked_mul(n, out.dims[i], &n)) {
      return Status::Range("Y: element count of shape " + shape_str(out) + " overflows int64");
    }
  }
  y->rank = out.rank;
  for (int i = 0; i < kMaxRank; ++i) y->dims[i] = i < out.rank ? out.dims[i] : 0;
  return Status::Ok();
}

// Planning and the bookkeeping of a run happen once per call, not per element: compiled for
// size (OSW_MINSIZE), in this file that is otherwise compiled for speed.

namespace gs_exec {

namespace {
// nearest_block (gridsample/kernels_generic.h) for either offset type. Large blocks, the
// in-order read and this loop together make nearest on many channels about three times
// faster than gather_block with blocks of 256 locations, where each channel's gathers meet
// its plane out of cache again for every block (docs/performance.md, "GridSample").
// y = x[off] (or +0.0 where off is -1) for every channel of the range, each plane read in
// order first when the block has at least as many locations as the plane has cache lines.
// The element's bits, as gather_block copies a tap of weight 1.
template <typename Off>
__attribute__((noinline)) void gather_codes(const GridSamplePlan& plan,
                                            const GridSampleRange& range, int64_t n, int64_t j0,
                                            int64_t nb, const float* x, float* y, const Off* off,
                                            GridSampleWorkspace* ws) {
  const GridSampleGeometry& geo = plan.geo;
  const int64_t plane_bytes = geo.in_size * int64_t(sizeof(float));
  const bool touch = nb >= plane_bytes / 64 && plane_bytes <= (int64_t(2) << 20);
  for (int64_t c = range.c_begin; c < range.c_end; ++c) {
    const int64_t plane = n * geo.c + c;
    const float* xp = x + plane * geo.in_size;
    float* yp = y + plane * geo.out_size + j0;
    if (touch) ws->touch_sink = touch_in_order(xp, geo.in_size);
    for (int64_t j = 0; j < nb; ++j) {
      const Off o = off[j];
      yp[j] = o >= 0 ? xp[o] : 0.0f;
    }
  }
}

template <typename Off>
bool nearest_codes(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0,
                   int64_t nb, const float* x, float* y, Off* off, const float* w, const Off* count,
                   GridSampleWorkspace* ws) {
  if (plan.attrs.mode != GridMode::Nearest || plan.max_taps != 1) return false;
  for (int64_t j = 0; j < nb; ++j)
    if (count[j] != 0 && !(w[j] == 1.0f)) return false;  // a NaN coordinate's tap
  for (int64_t j = 0; j < nb; ++j) off[j] = count[j] == 0 ? Off(-1) : off[j];
  gather_codes(plan, range, n, j0, nb, x, y, off, ws);
  return true;
}

// One axis of a nearest location under zeros or border padding, as gs::axis_taps decides
// it: the pixel index, or -1 for no tap.
inline int64_t nearest_index(double v, double last, bool zeros) {
  if (zeros) {
    if (!(v >= -4.0 && v <= last + 4.0)) return -1;
  } else {
    v = std::min(std::max(v, 0.0), last);
  }
  const double i = std::nearbyint(v);  // half to even
  if (zeros && (i < 0.0 || i > last)) return -1;
  return static_cast<int64_t>(i);
}

// 2-D nearest with a float32 grid: each location's offset (or -1) straight from its grid
// vector, the arithmetic of plan_location and axis_taps without their general taps and
// weights (reflection: axis_taps itself, one location at a time). false (nothing done) when
// a coordinate in the block is NaN, or reflects to no single tap of weight 1:
// plan_location's taps then apply.
template <typename Off>
bool nearest_grid_codes(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n,
                        int64_t j0, int64_t nb, const float* g, const float* x, float* y, Off* off,
                        GridSampleWorkspace* ws) {
  const GridSampleGeometry& geo = plan.geo;
  if (plan.attrs.mode != GridMode::Nearest || geo.r != 2 || plan.attrs.ort) return false;
  const bool ac = plan.attrs.align_corners, zeros = plan.attrs.padding == PaddingMode::Zeros;
  const bool refl = plan.attrs.padding == PaddingMode::Reflection;
  const int64_t h = geo.len[0], w = geo.len[1];
  const double last_h = static_cast<double>(h - 1), last_w = static_cast<double>(w - 1);
  auto index = [&](double gv, int64_t len, double last) -> int64_t {
    if (!refl) return nearest_index(gs::unnormalize(gv, len, ac), last, zeros);
    gs::AxisTaps t;
    gs::axis_taps(GridMode::Nearest, PaddingMode::Reflection, ac, len, gs::unnormalize(gv, len, ac),
                  &t);
    return t.count == 1 && t.weight[0] == 1.0 ? t.index[0] : -2;
  };
  auto one_location = [&](int64_t j) {
    const double gx = static_cast<double>(g[2 * j]), gy = static_cast<double>(g[2 * j + 1]);
    if (gx != gx || gy != gy) return false;
    const int64_t ix = index(gx, w, last_w), iy = index(gy, h, last_h);
    if (ix < -1 || iy < -1) return false;
    off[j] = ix < 0 || iy < 0 ? Off(-1) : static_cast<Off>(iy * geo.stride[0] + ix * geo.stride[1]);
    return true;
  };
#if OSW_HAVE_SIMD
  // Two locations at a time, x and y each in f64x2 lanes: unnormalize()'s formula in the
  // same order (x / 2 is x * 0.5 exactly), f64x2.nearest (half to even, as nearbyint).
  // Zeros: a tap where 0 <= index <= last, which is nearest_index's test (its [-4, last +
  // 4] window only spares the rounding of far coordinates). Border: clamping the rounded
  // index equals rounding the clamped coordinate (0 and last are integers). A NaN or
  // infinite coordinate (unnormalize() keeps an infinity, where Inf * 0 would be NaN here)
  // takes the scalar rules, as does the last location of an odd block. Only for the int32
  // table (the offsets fit it).
  const bool kPairs = std::is_same<Off, int32_t>::value && !refl;
  const v128_t one = wasm_f64x2_splat(1.0), half = wasm_f64x2_splat(0.5);
  const v128_t zero = wasm_f64x2_splat(0.0), lw = wasm_f64x2_splat(last_w),
               lh = wasm_f64x2_splat(last_h);
  const v128_t len_w = wasm_f64x2_splat(double(w)), len_h = wasm_f64x2_splat(double(h));
  const v128_t s0 = wasm_i32x4_splat(int32_t(geo.stride[0])),
               s1 = wasm_i32x4_splat(int32_t(geo.stride[1]));
  auto unnormalize2 = [&](v128_t gg, v128_t len, v128_t last) {
    const v128_t g1 = wasm_f64x2_add(gg, one);
    return ac ? wasm_f64x2_mul(wasm_f64x2_mul(g1, half), last)
              : wasm_f64x2_mul(wasm_f64x2_sub(wasm_f64x2_mul(g1, len), one), half);
  };
#endif
  for (int64_t j = 0; j < nb;) {
#if OSW_HAVE_SIMD
    if (kPairs && j + 2 <= nb) {
      const v128_t v = wasm_v128_load(g + 2 * j);
      const v128_t mag = wasm_v128_and(v, wasm_i32x4_splat(0x7FFFFFFF));
      if (!wasm_v128_any_true(wasm_i32x4_ge(mag, wasm_i32x4_splat(0x7F800000)))) {
        v128_t rx = wasm_f64x2_nearest(unnormalize2(
            wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 0, 2, 0, 2)), len_w, lw));
        v128_t ry = wasm_f64x2_nearest(unnormalize2(
            wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 1, 3, 1, 3)), len_h, lh));
        v128_t inside = wasm_i32x4_splat(-1);
        if (zeros) {
          inside = wasm_v128_and(wasm_v128_and(wasm_f64x2_ge(rx, zero), wasm_f64x2_le(rx, lw)),
                                 wasm_v128_and(wasm_f64x2_ge(ry, zero), wasm_f64x2_le(ry, lh)));
        } else {
          rx = wasm_f64x2_pmin(wasm_f64x2_pmax(rx, zero), lw);
          ry = wasm_f64x2_pmin(wasm_f64x2_pmax(ry, zero), lh);
        }
        const v128_t o = wasm_i32x4_add(wasm_i32x4_mul(wasm_i32x4_trunc_sat_f64x2_zero(ry), s0),
                                        wasm_i32x4_mul(wasm_i32x4_trunc_sat_f64x2_zero(rx), s1));
        // (an index outside gives any offset: replaced by -1)
        const v128_t keep = wasm_i32x4_shuffle(inside, inside, 0, 2, 0, 2);
        wasm_v128_store64_lane(off + j, wasm_v128_bitselect(o, wasm_i32x4_splat(-1), keep), 0);
        j += 2;
        continue;
      }
    }
#endif
    if (!one_location(j)) return false;
    ++j;
  }
  gather_codes(plan, range, n, j0, nb, x, y, off, ws);
  return true;
}
}  // namespace

bool nearest_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0,
                   int64_t nb, const float* x, float* y, int32_t* off, const float* w,
                   const int32_t* count, GridSampleWorkspace* ws) {
  return nearest_codes(plan, range, n, j0, nb, x, y, off, w, count, ws);
}
bool nearest_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0,
                   int64_t nb, const float* x, float* y, int64_t* off, const float* w,
                   const int64_t* count, GridSampleWorkspace* ws) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  return nearest_codes(plan, range, n, j0, nb, x, y, off, w, count, ws);
#else
  // wasm32: float32 planes always take int32 offsets (gridsample/exec.h, dispatch_offsets).
  (void)plan, (void)range, (void)n, (void)j0, (void)nb, (void)x, (void)y, (void)off, (void)w,
      (void)count, (void)ws;
  return false;
#endif
}

OSW_MINSIZE __attribute__((noinline)) bool nearest_grid_block(
    const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0, int64_t nb,
    const float* g, const float* x, float* y, int32_t* off, GridSampleWorkspace* ws) {
  return nearest_grid_codes(plan, range, n, j0, nb, g, x, y, off, ws);
}
bool nearest_grid_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n,
                        int64_t j0, int64_t nb, const float* g, const float* x, float* y,
                        int64_t* off, GridSampleWorkspace* ws) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  return nearest_grid_codes(plan, range, n, j0, nb, g, x, y, off, ws);
#else
  (void)plan, (void)range, (void)n, (void)j0, (void)nb, (void)g, (void)x, (void)y, (void)off,
      (void)ws;
  return false;
#endif
}

}  // namespace gs_exec

namespace {

// Decides the path and the blocks of one batch item's output (see GridSamplePlan).
OSW_MINSIZE Status plan_blocks(const gs::Tuning& tuning, GridSamplePlan* plan) {
  const GridSampleGeometry& geo = plan->geo;
  const GridMode mode = plan->attrs.mode;
  if (geo.in_size == 0) {
    plan->path = GridSamplePlan::Path::EmptyInput;
    plan->block = std::min(gs_exec::kMaxBlock, geo.out_size);
    plan->blocks = (geo.out_size + plan->block - 1) / plan->block;
    return Status::Ok();
  }
  // Most taps a location can have: per axis min(taps of the mode, L), since merged taps
  // are distinct pixels. At most in_size, so it never overflows.
  const int64_t mode_taps = mode == GridMode::Nearest ? 1 : mode == GridMode::Linear ? 2 : 4;
  int64_t max_taps = 1;
  for (int a = 0; a < geo.r; ++a) max_taps *= std::min(mode_taps, geo.len[a]);
  plan->max_taps = max_taps;
  if (plan->x_type == DType::Float32 && geo.r == 2 && mode != GridMode::Nearest &&
      !tuning.generic && !plan->attrs.ort) {
    plan->path = GridSamplePlan::Path::Fast2d;
    const bool cubic = mode == GridMode::Cubic;
    int64_t b = tuning.block > 0 ? tuning.block
                : cubic          ? gs_exec::kFastBlock
                                 : gs_exec::kFastBlockLinear;
    // Fast weights per location: 16 (cubic) or 4 (linear, in groups of 4 locations).
    const int64_t fast_weights = cubic ? 16 : 4;
    // Under a small allocation limit (createSampler({ maxBytes })), smaller blocks rather
    // than a failed call: a block's largest table holds the fast weights or max_taps
    // offsets per location.
    const int64_t offset_bytes = plan->wide_offsets ? 8 : 4;
    const int64_t per_location = std::max<int64_t>(fast_weights * int64_t(sizeof(float)),
                                                   max_taps * std::max<int64_t>(offset_bytes, 4));
    while (b > 1 && b * per_location > plan->max_bytes) b /= 2;
    // Blocks are th x tw output locations: th whole rows (tw = out_w), or one part of a row
    // (th = 1) when a row is longer than the block size. Each channel's pass over a block
    // then writes one contiguous run of Y. th * tw <= b (out_h and out_w >= 1).
    plan->tw = std::min(geo.out_w, b);
    plan->th = std::max<int64_t>(1, std::min(geo.out_h, b / plan->tw));
    plan->block = plan->th * plan->tw;  // <= b, and <= out_size
    plan->blocks_h = (geo.out_h + plan->th - 1) / plan->th;
    plan->blocks_w = (geo.out_w + plan->tw - 1) / plan->tw;
    plan->blocks = plan->blocks_h * plan->blocks_w;
  } else {
    plan->path = GridSamplePlan::Path::Generic;
    int64_t block =
        tuning.block > 0
            ? tuning.block
            : std::max<int64_t>(1, std::min(gs_exec::kMaxBlock, gs_exec::kTableEntries / max_taps));
    if (tuning.block <= 0 && max_taps == 1) {
      // Nearest (one tap per location): every channel's pass reads its plane where the grid
      // points, so blocks as large as the fast path's keep each plane in cache for one long
      // pass, instead of meeting every plane again for every 256 locations
      // (docs/performance.md, "GridSample"). Its table (an offset,
      // a weight and a count per location) stays within the allocation limit.
      const int64_t per_location = 3 * 8;
      block = gs_exec::kFastBlockLinear;
      while (block > gs_exec::kMaxBlock && block * per_location > plan->max_bytes) block /= 2;
    }
    plan->block = std::min(block, geo.out_size);
    plan->blocks = (geo.out_size + plan->block - 1) / plan->block;
  }
  if (!checked_mul(plan->block, max_taps, &plan->table))
    return Status::Range("GridSample: tap table size overflows int64");
  return Status::Ok();
}

}  // namespace

OSW_MINSIZE Status gridsample_plan(const GridSampleAttrs& attrs, const TensorView& x,
                                   const TensorView& grid, const TensorView& y,
                                   const gs::Tuning& tuning, GridSamplePlan* plan) {
  if (dtype_size(x.type) == 0) {
    return Status::Type(std::string("X: element type ") + dtype_name(x.type) +
                        " is not supported by GridSample");
  }
  if (!is_float_type(grid.type)) {
    return Status::Type(std::string("grid: element type must be float32 or float64, got ") +
                        dtype_name(grid.type));
  }
  if (y.type != x.type) {
    return Status::Type(std::string("Y: element type must be X's (") + dtype_name(x.type) +
                        "), got " + dtype_name(y.type));
  }
  if (static_cast<uint32_t>(attrs.mode) > 2u) {
    return Status::Range("mode: must be nearest, linear or cubic, got " +
                         int_text(static_cast<int32_t>(attrs.mode)));
  }
  if (static_cast<uint32_t>(attrs.padding) > 2u) {
    return Status::Range("padding_mode: must be zeros, border or reflection, got " +
                         int_text(static_cast<int32_t>(attrs.padding)));
  }
  TensorView expect;
  OSW_RETURN_IF_ERROR(gridsample_output_shape(x, grid, &expect));
  bool same = y.rank == expect.rank;
  for (int i = 0; same && i < expect.rank; ++i) same = y.dims[i] == expect.dims[i];
  if (!same) {
    return Status::Range("Y: shape must be " + shape_str(expect) + ", got " + shape_str(y));
  }
  plan->attrs = attrs;
  plan->x_type = x.type;
  plan->grid_type = grid.type;
  // Every field is written (a plan may be planned again), without building a whole new
  // GridSamplePlan: this runs on every call.
  plan->path = GridSamplePlan::Path::Nothing;
  plan->wide_offsets = false;
  plan->max_taps = plan->table = 0;
  plan->block = plan->blocks = plan->blocks_h = plan->blocks_w = 0;
  plan->max_bytes = tuning.max_bytes;
  plan->th = plan->tw = 1;
  if (attrs.ort) {
    // ONNX Runtime rejects an X with a spatial axis of length 0, whatever the padding and
    // even when Y has no element (docs/ort-compat-findings.md); without the compat, zeros
    // padding gives zeros (docs/semantics.md).
    for (int a = 2; a < x.rank; ++a)
      if (x.dims[a] == 0)
        return Status::Range("X: spatial dimension " + int_text(a) +
                             " has length 0; compat 'onnxruntime' rejects it, as ONNX Runtime "
                             "does (there is no pixel to sample)");
  }
  if (expect.elements() == 0) {  // docs/semantics.md row 12: nothing to compute
    plan->geo = GridSampleGeometry();
    return Status::Ok();
  }

  make_geometry(x, y, &plan->geo);
  const GridSampleGeometry& geo = plan->geo;
  if (geo.in_size == 0 && attrs.padding != PaddingMode::Zeros) {
    int a = 0;
    while (geo.len[a] != 0) ++a;
    return Status::Range("X: spatial dimension " + int_text(a + 2) +
                         " has length 0; padding_mode " +
                         (attrs.padding == PaddingMode::Border ? "border" : "reflection") +
                         " needs at least one pixel to sample");
  }
  plan->wide_offsets = gs_exec::has_wide_offsets(dtype_size(x.type)) &&
                       (tuning.wide_offsets || geo.in_size > std::numeric_limits<int32_t>::max());
  return plan_blocks(tuning, plan);
}

GridSampleRange gridsample_whole(const GridSamplePlan& plan) {
  GridSampleRange r;
  r.n_end = plan.geo.n;
  r.block_end = plan.blocks;
  r.c_end = plan.geo.c;
  return r;
}

OSW_MINSIZE Status gridsample_run(const GridSamplePlan& plan, const GridSampleRange& range,
                                  const TensorView& x, const TensorView& grid, TensorView* y,
                                  GridSampleWorkspace* ws) {
  if (plan.path == GridSamplePlan::Path::Nothing) return Status::Ok();
  if (!y || !y->data) return Status::Range("Y: data is null");
  if (!grid.data) return Status::Range("grid: data is null");
  if (plan.geo.in_size > 0 && !x.data) return Status::Range("X: data is null");
  if (!(0 <= range.n_begin && range.n_begin <= range.n_end && range.n_end <= plan.geo.n &&
        0 <= range.block_begin && range.block_begin <= range.block_end &&
        range.block_end <= plan.blocks && 0 <= range.c_begin && range.c_begin <= range.c_end &&
        range.c_end <= plan.geo.c))
    return Status::Range("GridSample: the range is not a part of the plan's output");
  if (range.n_begin == range.n_end || range.block_begin == range.block_end ||
      range.c_begin == range.c_end)
    return Status::Ok();
  if (plan.x_type == DType::Float32) return gridsample_run_hot(plan, range, x, grid, y, ws);
  return gridsample_run_cold(plan, range, x, grid, y, ws);
}

OSW_MINSIZE void GridSampleWorkspace::reset() {
  for (Tables& t : tables) {
    for (Buffer<unsigned char>* b : {&t.fast_pos, &t.fast_off, &t.fast_w, &t.gen_pos, &t.gen_off,
                                     &t.gen_w, &t.gen_count, &t.zero_runs})
      *b = Buffer<unsigned char>();
  }
  weights_f64 = Buffer<unsigned char>();
  conv_x = Buffer<unsigned char>();
  conv_y = Buffer<unsigned char>();
}

OSW_MINSIZE int64_t GridSampleWorkspace::bytes() const {
  int64_t n = weights_f64.size() + conv_x.size() + conv_y.size();
  for (const Tables& t : tables) {
    for (const Buffer<unsigned char>* b : {&t.fast_pos, &t.fast_off, &t.fast_w, &t.gen_pos,
                                           &t.gen_off, &t.gen_w, &t.gen_count, &t.zero_runs})
      n += b->size();
  }
  return n;
}

namespace gs {

OSW_MINSIZE Status gridsample_tuned(const GridSampleAttrs& attrs, const TensorView& x,
                                    const TensorView& grid, TensorView* y, const Tuning& tuning) {
  if (!y) return Status::Type("Y: output tensor is missing");
  GridSamplePlan plan;
  OSW_RETURN_IF_ERROR(gridsample_plan(attrs, x, grid, *y, tuning, &plan));
  GridSampleWorkspace ws;
  return gridsample_run(plan, gridsample_whole(plan), x, grid, y, &ws);
}

}  // namespace gs

Status gridsample(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                  TensorView* y) {
  return gs::gridsample_tuned(attrs, x, grid, y, gs::Tuning());
}

Status gridsample_run_hot(const GridSamplePlan& plan, const GridSampleRange& range,
                          const TensorView& x, const TensorView& grid, TensorView* y,
                          GridSampleWorkspace* ws) {
  return gs_exec::dispatch_grid<float>(plan, range, x, grid, y, ws);
}

}  // namespace osw
