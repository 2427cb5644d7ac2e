// gridsample/gridsample.h: the GridSample operator (opsets 16, 20, 22) on any rank r+2 with
// r >= 1: its API, over the layers it includes.
//
// gridsample() is plan -> (workspace + kernels) -> run, steps that a caller can also take
// one by one: gridsample_plan() (gridsample/plan.h) checks everything and decides the path
// and the blocks once per shape, into an immutable GridSamplePlan that any number of runs
// may share; gridsample_run() (gridsample/exec_run.h) computes any part of Y (batch items x
// blocks x channels, a GridSampleRange) with a GridSampleWorkspace (gridsample/workspace.h)
// that holds everything the run writes besides Y. Runs of disjoint ranges, each with its
// own workspace, write disjoint parts of Y, and together give exactly the bytes of one
// whole run. Per output location the taps (flat input offsets and weights, padding
// resolved: gridsample/coordinates.h) are computed once and reused for all C channels.
#pragma once

#include "core/types.h"
#include "gridsample/coordinates.h"
#include "gridsample/exec_run.h"
#include "gridsample/params.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {

// Computes y from x and grid. y->dims must be what gridsample_output_shape gave, y->type
// equal to x.type, and y->data hold y->elements() elements. grid.type is Float32 or
// Float64 whatever x.type is.
Status gridsample(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                  TensorView* y);

namespace gs {

// gridsample() with the internal choices of tuning (gridsample/plan.h) forced, for tests.
Status gridsample_tuned(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                        TensorView* y, const Tuning& tuning);

}  // namespace gs
}  // namespace osw
