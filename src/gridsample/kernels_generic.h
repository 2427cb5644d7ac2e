// gridsample/kernels_generic.h: GridSample's generic planner and kernel (any rank, any type;
// internal to the library).
//
// plan_location() turns one grid vector into taps (flat input offsets and weights, padding
// resolved: gs::axis_taps on each axis, outer product); gather_block() computes one channel
// plane of a block of locations from those taps; run_generic() joins them over a range.
// The 2-D fast path (gridsample/kernels_fast2d.h) uses both for the locations it does not
// take.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/elem.h"
#include "core/simd.h"  // <wasm_simd128.h>, or SIMDe in native builds (OSW_HAVE_SIMD)
#include "gridsample/coordinates.h"
#include "gridsample/kernels_nearest.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {
namespace gs_exec {

using Geometry = GridSampleGeometry;
using Path = GridSamplePlan::Path;

// ---- kernel ----------------------------------------------------------------------------

// sum_k w[k] * x[off[k]] for k < n, in the Compute type C, one term after the other.
template <typename C, typename T, typename Off>
inline C gather_dot_scalar(const T* x, const Off* off, const C* w, int64_t n) {
  C s = C(0);
  for (int64_t k = 0; k < n; ++k) s += w[k] * static_cast<C>(ElemTraits<T>::load(x[off[k]]));
  return s;
}

// The generic kernel's dot product, scalar twin of gather_dot_simd: for float (double)
// Compute, L = 4 (2) partial sums, term k into sum k % L, over the whole groups of L terms;
// combined as the vector code combines its lanes, (s0 + s2) + (s1 + s3) (s0 + s1); then the
// tail one term at a time. Fewer than L terms, or another Compute type: gather_dot_scalar.
template <typename C, typename T, typename Off>
inline C gather_dot_lanes(const T* x, const Off* off, const C* w, int64_t n) {
  constexpr int L = std::is_same<C, float>::value ? 4 : std::is_same<C, double>::value ? 2 : 0;
  if constexpr (L == 0) {
    return gather_dot_scalar(x, off, w, n);
  } else {
    if (n < L) return gather_dot_scalar(x, off, w, n);
    C acc[L] = {};
    int64_t k = 0;
    for (; k + L <= n; k += L)
      for (int j = 0; j < L; ++j)
        acc[j] = acc[j] + w[k + j] * static_cast<C>(ElemTraits<T>::load(x[off[k + j]]));
    C s;
    if constexpr (L == 4)
      s = (acc[0] + acc[2]) + (acc[1] + acc[3]);
    else
      s = acc[0] + acc[1];
    for (; k < n; ++k) s += w[k] * static_cast<C>(ElemTraits<T>::load(x[off[k]]));
    return s;
  }
}

#if OSW_HAVE_SIMD
// wasm SIMD (or SIMDe in native builds): one location's weights are contiguous, so they
// load as a vector; the values are gathered lane by lane (wasm has no gather). Besides the
// wider multiply, the 4 (2) partial sums break the dependency chain of the scalar loop's
// single accumulator. The same sums as gather_dot_lanes.
template <typename C, typename T, typename Off>
inline C gather_dot_simd(const T* x, const Off* off, const C* w, int64_t n) {
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
#endif

template <typename C, typename T, typename Off>
inline C gather_dot(const T* x, const Off* off, const C* w, int64_t n) {
#if OSW_HAVE_SIMD
  return gather_dot_simd(x, off, w, n);
#else
  return gather_dot_lanes(x, off, w, n);
#endif
}

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
        const double v = static_cast<double>(
            gather_dot(x, off + j * stride, w + j * stride, static_cast<int64_t>(count[j])));
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
    y[j] = ElemTraits<T>::store(
        gather_dot(x, off + j * stride, w + j * stride, static_cast<int64_t>(count[j])));
  }
}

// ---- plan ------------------------------------------------------------------------------

// Taps of one output location from its grid vector gv (gv[0] is x, the innermost axis).
// Writes count taps to off/w and returns count. A NaN coordinate gives one tap of weight NaN
// at offset 0 (the caller guarantees in_size > 0), so the output is NaN for floating-point
// X and, through saturate_round, 0 for integer X. wd: scratch of max_taps doubles.
// (One instantiation per C and Off: the grid's type is a flag, g_f32.)
template <typename C, typename Off>
Off plan_location_of(const GridSampleAttrs& attrs, const Geometry& geo, const void* grid,
                     bool g_f32, Off* off, C* w, double* wd) {
  const int r = geo.r;
  auto gv = [grid, g_f32](int k) {
    return g_f32 ? static_cast<double>(static_cast<const float*>(grid)[k])
                 : static_cast<const double*>(grid)[k];
  };
  for (int k = 0; k < r && !attrs.ort; ++k) {  // (compat 'onnxruntime': axis_taps_ort)
    if (std::isnan(gv(k))) {
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
    gs::grid_axis_taps(attrs, geo.len[a], gv(r - 1 - a), g_f32, &t);
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

template <typename G, typename C, typename Off>
inline Off plan_location(const GridSampleAttrs& attrs, const Geometry& geo, const G* gv, Off* off,
                         C* w, double* wd) {
  return plan_location_of<C, Off>(attrs, geo, gv, std::is_same<G, float>::value, off, w, wd);
}

// ---- run -------------------------------------------------------------------------------

// X has a spatial dimension of length 0 (only reached with zeros padding): no pixel
// exists, every output is 0, or NaN where the grid vector has a NaN. The part `range` of
// y, written as bytes (zero and nan: the es bytes of T's 0 and of NaN stored as T), so that
// every element type shares one copy of the loop (gridsample/exec_cold.cpp).
void fill_empty_input(const GridSamplePlan& plan, const GridSampleRange& range, const void* grid,
                      size_t es, const void* zero, const void* nan, void* y);

// The generic path over `range`: for each block of each batch item, the taps of its
// locations (plan_location), then every channel of the range (gather_block).
template <typename T, typename G, typename Off>
Status run_generic(const GridSamplePlan& plan, const GridSampleRange& range, const T* x,
                   const G* grid, T* y, GridSampleWorkspace* ws) {
  using C = typename ElemTraits<T>::Compute;
  const Geometry& geo = plan.geo;
  const int64_t max_taps = plan.max_taps, block = plan.block, table = plan.table;
  GridSampleWorkspace::Tables& tb = ws->tables[0];
  const int64_t limit = plan.max_bytes;
  Off* off = workspace_array<Off>(tb.gen_off, table, limit);
  if (!off) return out_of_memory("GridSample tap offsets", table * int64_t(sizeof(Off)), limit);
  C* w = workspace_array<C>(tb.gen_w, table, limit);
  if (!w) return out_of_memory("GridSample tap weights", table * int64_t(sizeof(C)), limit);
  Off* count = workspace_array<Off>(tb.gen_count, block, limit);
  if (!count) return out_of_memory("GridSample tap counts", block * int64_t(sizeof(Off)), limit);
  double* wd = workspace_array<double>(ws->weights_f64, max_taps, limit);
  if (!wd) return out_of_memory("GridSample scratch", max_taps * 8, limit);

  const int r = geo.r;
  for (int64_t n = range.n_begin; n < range.n_end; ++n) {
    const G* grid_n = grid + n * geo.out_size * r;
    for (int64_t k = next_block(range, range.block_begin - 1); k < range.block_end;
         k = next_block(range, k)) {
      const int64_t j0 = k * block;
      const int64_t nb = std::min(block, geo.out_size - j0);
      if constexpr (std::is_same<T, float>::value && std::is_same<G, float>::value) {
        if (nearest_grid_block(plan, range, n, j0, nb, grid_n + j0 * r, x, y, off, ws)) continue;
      }
      for (int64_t j = 0; j < nb; ++j) {
        count[j] = plan_location<G, C, Off>(plan.attrs, geo, grid_n + (j0 + j) * r,
                                            off + j * max_taps, w + j * max_taps, wd);
      }
      if constexpr (std::is_same<T, float>::value) {
        if (nearest_block(plan, range, n, j0, nb, x, y, off, w, count, ws)) continue;
      }
      for (int64_t c = range.c_begin; c < range.c_end; ++c) {
        const int64_t plane = n * geo.c + c;
        gather_block<T, Off>(x + plane * geo.in_size, off, w, count, max_taps, nb,
                             y + plane * geo.out_size + j0, plan.attrs.integer_rounding);
      }
    }
  }
  return Status::Ok();
}

}  // namespace gs_exec
}  // namespace osw
