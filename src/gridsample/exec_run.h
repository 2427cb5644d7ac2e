// gridsample/exec_run.h: the run of a GridSample plan over a range of the output, with a
// workspace: gridsample_run() checks the data pointers and the range, and hands float32 X
// to the speed-built instantiation of the kernels, every other type to the size-built one
// (gridsample/exec.h has the templates both instantiate).
#pragma once

#include "core/types.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {

// Computes the part `range` of y (the shapes and types of the plan; data pointers are
// checked here) with the workspace ws. The other elements of y are not touched.
Status gridsample_run(const GridSamplePlan& plan, const GridSampleRange& range, const TensorView& x,
                      const TensorView& grid, TensorView* y, GridSampleWorkspace* ws);

// float32 X (gridsample/gridsample.cpp).
Status gridsample_run_hot(const GridSamplePlan& plan, const GridSampleRange& range,
                          const TensorView& x, const TensorView& grid, TensorView* y,
                          GridSampleWorkspace* ws);
// Every other X type (gridsample/exec_cold.cpp).
Status gridsample_run_cold(const GridSamplePlan& plan, const GridSampleRange& range,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           GridSampleWorkspace* ws);

}  // namespace osw
