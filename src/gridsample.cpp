// gridsample.cpp: GridSample on X of rank r+2 (r >= 1), any mode, padding and align_corners.
//
// Three steps, as STYLE.md asks:
//   1. params: gridsample_output_shape() and gs::gridsample_tuned() validate shapes, types
//              and attributes.
//   2. plan:   for a block of output locations of one batch item, plan_location() turns each
//              grid vector into taps: flat input offsets and weights (product over the axes
//              of gs::axis_taps), with padding already resolved. Out-of-bounds taps of zeros
//              padding are dropped rather than given weight 0, so that a NaN or Inf pixel
//              that no tap reaches cannot leak into the output (0 * Inf = NaN).
//   3. kernel: for every channel, each output is a dot product of the location's weights
//              with the gathered input values. No mode or padding branch is left there.
// The kernel is a template over the storage type T (ElemTraits<T> gives its Compute type),
// the grid type G and the offset type Off (int32 while the spatial size allows).
#include "gridsample.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "elem.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace osw {
namespace gs {

double unnormalize(double g, int64_t L, bool align_corners) {
  // An infinite g stays infinite (far out of bounds, SEMANTICS row 11), also where the
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
  if (!(range > 0.0)) return lo;          // a single point: everything reflects onto it
  if (std::isinf(x)) return x < lo ? lo : hi;
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

static inline double clampd(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

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
  //   treated as border padding (the edge pixel), as SEMANTICS row 11 allows.
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

  for (int k = 0; k < n; ++k) {
    // A tap of weight exactly 0 is not read (docs/semantics.md): a NaN or Inf there must
    // not reach the output.
    if (wt[k] == 0.0) continue;
    double i = idx[k];
    switch (padding) {
      case PaddingMode::Zeros:
        if (i < 0.0 || i > last) continue;
        break;
      case PaddingMode::Border:
        i = clampd(i, 0.0, last);
        break;
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
    s += std::to_string(t.dims[i]);
  }
  return s + ")";
}

Status check_dims(const char* name, const TensorView& t) {
  if (t.rank < 0 || t.rank > kMaxRank) {
    return Status::Range(std::string(name) + ": rank must be at most " + std::to_string(kMaxRank) +
                         ", got " + std::to_string(t.rank));
  }
  // The product of the non-zero dims bounds every stride, so it must fit too even when
  // another dim is 0 and the tensor holds no element.
  int64_t n = 1;
  for (int i = 0; i < t.rank; ++i) {
    if (t.dims[i] < 0) {
      return Status::Range(std::string(name) + ": dimension " + std::to_string(i) +
                           " must not be negative, got " + std::to_string(t.dims[i]));
    }
    if (t.dims[i] != 0 && !checked_mul(n, t.dims[i], &n)) {
      return Status::Range(std::string(name) + ": element count of shape " + shape_str(t) +
                           " overflows int64");
    }
  }
  return Status::Ok();
}

bool is_float_type(DType t) { return t == DType::Float32 || t == DType::Float64; }

// Everything the plan and kernel need to know about the shapes.
struct Geometry {
  int r = 0;
  int64_t n = 0, c = 0;
  int64_t len[kMaxRank] = {};     // X's spatial lengths, outermost first
  int64_t stride[kMaxRank] = {};  // elements between neighbours along each spatial axis
  int64_t in_size = 0;            // elements of one (n, c) plane of X
  int64_t out_size = 0;           // output locations per batch item
};

Geometry make_geometry(const TensorView& x, const TensorView& y) {
  Geometry g;
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
  return g;
}

// ---- kernel ----------------------------------------------------------------------------

// sum_k w[k] * x[off[k]] for k < n, in the Compute type C.
template <typename C, typename T, typename Off>
inline C gather_dot_scalar(const T* x, const Off* off, const C* w, int64_t n) {
  C s = C(0);
  for (int64_t k = 0; k < n; ++k) s += w[k] * static_cast<C>(ElemTraits<T>::load(x[off[k]]));
  return s;
}

#if defined(__wasm_simd128__)
// wasm SIMD: one location's weights are contiguous, so they load as a vector; the values are
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
// exists, every output is 0, or NaN where the grid vector has a NaN.
template <typename T, typename G>
void fill_empty_input(const Geometry& geo, const G* grid, T* y) {
  using C = typename ElemTraits<T>::Compute;
  const int r = geo.r;
  for (int64_t n = 0; n < geo.n; ++n) {
    for (int64_t j = 0; j < geo.out_size; ++j) {
      const G* gv = grid + (n * geo.out_size + j) * r;
      bool nan = false;
      for (int a = 0; a < r; ++a) nan = nan || std::isnan(static_cast<double>(gv[a]));
      const T v = ElemTraits<T>::store(nan ? std::numeric_limits<C>::quiet_NaN() : C(0));
      for (int64_t c = 0; c < geo.c; ++c) y[(n * geo.c + c) * geo.out_size + j] = v;
    }
  }
}

constexpr int64_t kMaxBlock = 256;          // output locations planned at a time
constexpr int64_t kTableEntries = 16384;    // preferred cap on block * taps per location

template <typename T, typename G, typename Off>
Status run(const GridSampleAttrs& attrs, const Geometry& geo, const T* x, const G* grid, T* y,
           const gs::Tuning& tuning) {
  using C = typename ElemTraits<T>::Compute;
  if (geo.in_size == 0) {
    fill_empty_input(geo, grid, y);
    return Status::Ok();
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
  if (tuning.wide_offsets || geo.in_size > std::numeric_limits<int32_t>::max()) {
    return run<T, G, int64_t>(attrs, geo, xp, gp, yp, tuning);
  }
  return run<T, G, int32_t>(attrs, geo, xp, gp, yp, tuning);
}

template <typename T>
Status dispatch_grid(const GridSampleAttrs& attrs, const Geometry& geo, const TensorView& x,
                     const TensorView& grid, TensorView* y, const gs::Tuning& tuning) {
  if (grid.type == DType::Float32) return dispatch_offsets<T, float>(attrs, geo, x, grid, y, tuning);
  return dispatch_offsets<T, double>(attrs, geo, x, grid, y, tuning);
}

}  // namespace

Status gridsample_output_shape(const TensorView& x, const TensorView& grid, TensorView* y) {
  OSW_RETURN_IF_ERROR(check_dims("X", x));
  OSW_RETURN_IF_ERROR(check_dims("grid", grid));
  if (x.rank < 3) {
    return Status::Range("X: rank must be at least 3 (N, C and one or more spatial dimensions), got " +
                         std::to_string(x.rank));
  }
  const int r = x.rank - 2;
  if (grid.rank != x.rank) {
    return Status::Range("grid: rank must be " + std::to_string(x.rank) +
                         " (the rank of X: N, the output's spatial dimensions and r), got " +
                         std::to_string(grid.rank));
  }
  if (grid.dims[0] != x.dims[0]) {
    return Status::Range("grid: dimension 0 must be " + std::to_string(x.dims[0]) +
                         " (the batch size N of X), got " + std::to_string(grid.dims[0]));
  }
  if (grid.dims[grid.rank - 1] != r) {
    return Status::Range("grid: last dimension must be " + std::to_string(r) +
                         " (the spatial rank of X), got " + std::to_string(grid.dims[grid.rank - 1]));
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

namespace gs {

Status gridsample_tuned(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                        TensorView* y, const Tuning& tuning) {
  if (!y) return Status::Type("Y: output tensor is missing");
  if (dtype_size(x.type) == 0) {
    return Status::Type(std::string("X: element type ") + dtype_name(x.type) +
                        " is not supported by GridSample");
  }
  if (!is_float_type(grid.type)) {
    return Status::Type(std::string("grid: element type must be float32 or float64, got ") +
                        dtype_name(grid.type));
  }
  if (y->type != x.type) {
    return Status::Type(std::string("Y: element type must be X's (") + dtype_name(x.type) +
                        "), got " + dtype_name(y->type));
  }
  if (static_cast<uint32_t>(attrs.mode) > 2u) {
    return Status::Range("mode: must be nearest, linear or cubic, got " +
                         std::to_string(static_cast<int32_t>(attrs.mode)));
  }
  if (static_cast<uint32_t>(attrs.padding) > 2u) {
    return Status::Range("padding_mode: must be zeros, border or reflection, got " +
                         std::to_string(static_cast<int32_t>(attrs.padding)));
  }
  TensorView expect;
  OSW_RETURN_IF_ERROR(gridsample_output_shape(x, grid, &expect));
  bool same = y->rank == expect.rank;
  for (int i = 0; same && i < expect.rank; ++i) same = y->dims[i] == expect.dims[i];
  if (!same) {
    return Status::Range("Y: shape must be " + shape_str(expect) + ", got " + shape_str(*y));
  }
  const int64_t y_elems = expect.elements();
  if (y_elems == 0) return Status::Ok();  // SEMANTICS row 12: nothing to compute

  const Geometry geo = make_geometry(x, *y);
  if (geo.in_size == 0 && attrs.padding != PaddingMode::Zeros) {
    int a = 0;
    while (geo.len[a] != 0) ++a;
    return Status::Range("X: spatial dimension " + std::to_string(a + 2) +
                         " has length 0; padding_mode " +
                         (attrs.padding == PaddingMode::Border ? "border" : "reflection") +
                         " needs at least one pixel to sample");
  }
  if (!y->data) return Status::Range("Y: data is null");
  if (!grid.data) return Status::Range("grid: data is null");
  if (geo.in_size > 0 && !x.data) return Status::Range("X: data is null");

  return dispatch_dtype(x.type, "X", [&](auto tag) {
    return dispatch_grid<decltype(tag)>(attrs, geo, x, grid, y, tuning);
  });
}

}  // namespace gs

Status gridsample(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                  TensorView* y) {
  return gs::gridsample_tuned(attrs, x, grid, y, gs::Tuning());
}

}  // namespace osw
