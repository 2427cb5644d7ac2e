// gridsample/exec.h: a GridSample run over a range of the output (internal to the library).
//
// Templates over the storage type T, the grid type G and the offset type Off, included by
// two translation units so that the build can optimise them differently:
// gridsample/gridsample.cpp instantiates float32 (the fast 2-D path's type) for speed,
// gridsample/exec_cold.cpp every other type for size (CMakeLists.txt compiles it with -Oz).
// Same results either way. The paths: gridsample/kernels_generic.h (any rank and type) and
// gridsample/kernels_fast2d.h (float32 X, 2-D, linear and cubic).
#pragma once

#include <limits>

#include "gridsample/kernels_fast2d.h"
#include "gridsample/kernels_generic.h"

namespace osw {
namespace gs_exec {

template <typename T, typename G, typename Off>
Status run(const GridSamplePlan& plan, const GridSampleRange& range, const T* x, const G* grid,
           T* y, GridSampleWorkspace* ws) {
  using C = typename ElemTraits<T>::Compute;
  if (plan.path == Path::EmptyInput) {
    const T zero = ElemTraits<T>::store(C(0));
    const T nan = ElemTraits<T>::store(std::numeric_limits<C>::quiet_NaN());
    fill_empty_input(plan, range, grid, sizeof(T), &zero, &nan, y);
    return Status::Ok();
  }
  if constexpr (std::is_same<T, float>::value) {
    if (plan.path == Path::Fast2d)
      return run_fast2d<Off>(plan, range, x, grid, std::is_same<G, float>::value, y, ws);
  }
  return run_generic<T, G, Off>(plan, range, x, grid, y, ws);
}

template <typename T, typename G>
Status dispatch_offsets(const GridSamplePlan& plan, const GridSampleRange& range,
                        const TensorView& x, const TensorView& grid, TensorView* y,
                        GridSampleWorkspace* ws) {
  const T* xp = static_cast<const T*>(x.data);
  const G* gp = static_cast<const G*>(grid.data);
  T* yp = static_cast<T*>(y->data);
  // In wasm32 a plane of elements of 2 bytes or more has fewer than 2^31 of them (memory
  // is at most 4 GiB), so int32 offsets always do there and the int64 kernels are not
  // built for those types (plan.wide_offsets is then false; native builds run them).
  constexpr bool kNarrowOnly = sizeof(void*) == 4 && sizeof(T) >= 2;
  if constexpr (kNarrowOnly) {
    if (plan.geo.in_size > std::numeric_limits<int32_t>::max())
      return Status::Range("GridSample: an X plane too large for this build");
  } else {
    if (plan.wide_offsets) return run<T, G, int64_t>(plan, range, xp, gp, yp, ws);
  }
  return run<T, G, int32_t>(plan, range, xp, gp, yp, ws);
}

template <typename T>
Status dispatch_grid(const GridSamplePlan& plan, const GridSampleRange& range, const TensorView& x,
                     const TensorView& grid, TensorView* y, GridSampleWorkspace* ws) {
  if (plan.grid_type == DType::Float32)
    return dispatch_offsets<T, float>(plan, range, x, grid, y, ws);
  return dispatch_offsets<T, double>(plan, range, x, grid, y, ws);
}

// Integer X (gridsample/exact.cpp): the outputs of c_count planes (X's from x.data, Y's
// from y) at locations [j_begin, j_end) of the batch item whose grid starts at grid_n,
// computed in float (8/16-bit) or double as src (plane c at c * out_size): those within the
// computation's error of a rounding boundary are decided again from their exact value.
// 8- to 32-bit: before the narrowing, each decision written into src (an integer, or the
// boundary the narrowing rounds by the rule); 64-bit: after it, into Y. False: out of memory
// (a tap table of plan.max_taps).
bool exact_fix(const GridSamplePlan& plan, const TensorView& x, const void* grid_n, int64_t c_count,
               int64_t j_begin, int64_t j_end, void* src, void* y, GridSampleWorkspace* ws);

// Whether int64 offsets are built for X elements of es bytes (see dispatch_offsets).
constexpr bool has_wide_offsets(size_t es) { return !(sizeof(void*) == 4 && es >= 2); }

}  // namespace gs_exec

// float32 X (gridsample/gridsample.cpp).
Status gridsample_run_hot(const GridSamplePlan& plan, const GridSampleRange& range,
                          const TensorView& x, const TensorView& grid, TensorView* y,
                          GridSampleWorkspace* ws);
// Every other X type (gridsample/exec_cold.cpp).
Status gridsample_run_cold(const GridSamplePlan& plan, const GridSampleRange& range,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           GridSampleWorkspace* ws);

}  // namespace osw
