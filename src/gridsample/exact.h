// gridsample/exact.h: the exact rounding decisions of GridSample's integer outputs
// (gridsample/exact.cpp has the method and its error bound).
#pragma once

#include "core/types.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {
namespace gs_exec {

// Integer X: the outputs of c_count planes (X's from x.data, Y's from y) at locations
// [j_begin, j_end) of the batch item whose grid starts at grid_n, computed in float
// (8/16-bit) or double as src (plane c at c * out_size): those within the computation's
// error of a rounding boundary are decided again from their exact value. 8- to 32-bit:
// before the narrowing, each decision written into src (an integer, or the boundary the
// narrowing rounds by the rule); 64-bit: after it, into Y. False: out of memory (a tap
// table of plan.max_taps).
bool exact_fix(const GridSamplePlan& plan, const TensorView& x, const void* grid_n, int64_t c_count,
               int64_t j_begin, int64_t j_end, void* src, void* y, GridSampleWorkspace* ws);

}  // namespace gs_exec
}  // namespace osw
