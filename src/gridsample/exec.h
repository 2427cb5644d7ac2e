// gridsample/exec.h: a GridSample run over a range of the output, as templates over the
// storage type T, the grid type G and the offset type Off (internal to the library).
//
// Included by two translation units so that the build can optimise them differently:
// gridsample/gridsample.cpp instantiates float32 (the fast 2-D path's type) for speed,
// gridsample/exec_cold.cpp float64 and the converted types for size (the optimisation
// levels in CMakeLists.txt). Same results either way. The paths: gridsample/kernels_generic.h
// (any rank and type) and gridsample/kernels_fast2d.h (float32 X, 2-D, linear and cubic).
#pragma once

#include <limits>

#include "gridsample/exec_run.h"
#include "gridsample/kernels_fast2d.h"
#include "gridsample/kernels_generic.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

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
  // Where the build has no int64 kernels for T (has_wide_offsets in gridsample/plan.h:
  // wasm32, elements of 2 bytes or more), plan.wide_offsets is false and only the int32
  // kernels are instantiated.
  constexpr bool kNarrowOnly = !has_wide_offsets(sizeof(T));
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

}  // namespace gs_exec

}  // namespace osw
