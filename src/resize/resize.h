// resize/resize.h: the Resize operator (and Upsample, which is Resize with fixed attributes).
//
// params -> plan -> (workspace + kernels) -> execution:
// - resize_plan() turns attributes, inputs and X's dims into an immutable ResizePlan: the
//   output shape, per-axis tap tables (resize/plan.h), the kernels' own tables (the nearest
//   gather's per element size, uint8's integer form) and the schedule of the linear/cubic
//   passes as an explicit list of steps with named buffers (the types: resize/plan.h).
//   After it returns, nothing writes the plan: several runs (threads) may share one.
// - Everything a run writes besides Y lives in a ResizeWorkspace (resize/workspace.h: whole
//   intermediates, row caches, strips), with one owner and one reset().
// - resize_execute() runs the plan with a workspace; resize_execute_range() runs one step
//   over a sub-range of its units (rows or planes of a pass) with its own workspace, so
//   that disjoint ranges may run at once and together give the bytes of one whole run.
#pragma once

#include "core/types.h"
#include "resize/params.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan,
                   const ResizeOptions& opts = ResizeOptions());

// x.dims must equal plan.in_dims and y->dims plan.out_dims; x and y have the same type,
// one the plan was built for.
Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y,
                      ResizeWorkspace* ws);
// The same with a workspace of its own, freed on return.
Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y);

// A run in parts, for callers that split it (threads). The steps of a run on x's type:
// resize_steps() says how many and how many units each has; resize_execute_range() runs
// units [begin, end) of step s, writing only their part of the step's output. Steps run in
// order (every range of step s before any of step s + 1); ranges of one step are disjoint
// and may run at once, each with its own workspace `ws`. `shared` holds what the steps pass
// between them (whole intermediates): resize_prepare_shared() sizes it once per run, and
// every range reads and writes it through disjoint parts, and it decides there what depends
// on X's values (ResizeWorkspace::int_compute): resize_steps() must be given that shared
// workspace (without one: the layout of a run whose X is not known, float64 for 32-bit
// integers). resize_finish() runs last, once.
struct ResizeStepInfo {
  int n = 0;
  int64_t units[kMaxRank + 2] = {};
};
Status resize_steps(const ResizePlan& plan, DType type, ResizeStepInfo* info,
                    const ResizeWorkspace* shared = nullptr);
Status resize_prepare_shared(const ResizePlan& plan, const TensorView& x, ResizeWorkspace* shared);
Status resize_execute_range(const ResizePlan& plan, int s, int64_t begin, int64_t end,
                            const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                            ResizeWorkspace* ws);
Status resize_finish(const ResizePlan& plan, TensorView* y);
// The first check of resize_execute(): x and y have the plan's shapes and one type.
Status resize_check_tensors(const ResizePlan& plan, const TensorView& x, const TensorView& y);

// Both steps at once. Sets y->rank and y->dims; y->data must already hold enough room,
// so callers that do not know the shape use resize_plan first.
Status resize(const ResizeAttrs& attrs, const ResizeInputs& inputs, const TensorView& x,
              TensorView* y);

}  // namespace osw
