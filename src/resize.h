// resize.h: the Resize operator (and Upsample, which is Resize with fixed attributes).
//
// resize_plan() turns attributes and inputs into the output shape and per-axis tap
// tables; resize_execute() runs them on a tensor. A plan depends only on the attributes,
// the inputs and X's dims, so callers may keep it and run it on many tensors.
#pragma once

#include "common.h"
#include "resize_fixed.h"
#include "resize_nearest.h"
#include "resize_params.h"
#include "resize_plan.h"

namespace osw {

struct ResizePlan {
  ResizeAttrs attrs;
  ResizeGeometry geo;
  int rank = 0;
  int64_t in_dims[kMaxRank] = {};
  int64_t out_dims[kMaxRank] = {};
  AxisPlan axis[kMaxRank];
  // Linear/cubic: the axes resampled, in the order the passes run (identity axes skipped).
  int n_passes = 0;
  int order[kMaxRank] = {};
  // Kept between executions of the same plan, so repeated calls do not allocate: the
  // intermediate results of the passes, and the nearest gather's tables (resize_nearest.h;
  // valid while nearest_ready, for nearest.elem_size).
  mutable Buffer<unsigned char> scratch[2];
  mutable Buffer<unsigned char> extra_scratch;
  mutable NearestCache nearest;
  mutable bool nearest_ready = false;
  // uint8 linear in integers (resize_fixed.h): built on first use.
  mutable FixedCache fixed;
};

Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan);

// x.dims must equal plan.in_dims and y->dims plan.out_dims; x and y have the same type.
Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y);

// Both steps at once. Sets y->rank and y->dims; y->data must already hold enough room,
// so callers that do not know the shape use resize_plan first.
Status resize(const ResizeAttrs& attrs, const ResizeInputs& inputs, const TensorView& x,
              TensorView* y);

}  // namespace osw
